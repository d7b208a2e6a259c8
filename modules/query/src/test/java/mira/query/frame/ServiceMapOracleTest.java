package mira.query.frame;

import static mira.query.testing.Metrics.attr;
import static org.assertj.core.api.Assertions.assertThat;

import com.google.protobuf.ByteString;
import io.opentelemetry.proto.collector.trace.v1.ExportTraceServiceRequest;
import io.opentelemetry.proto.common.v1.AnyValue;
import io.opentelemetry.proto.common.v1.KeyValue;
import io.opentelemetry.proto.resource.v1.Resource;
import io.opentelemetry.proto.trace.v1.ResourceSpans;
import io.opentelemetry.proto.trace.v1.ScopeSpans;
import io.opentelemetry.proto.trace.v1.Span;
import io.opentelemetry.proto.trace.v1.Status;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import mira.proto.wire.Signal;
import mira.query.LocalQueries;
import mira.query.render.MapJson;
import mira.query.result.ServiceMap;
import mira.query.testing.Blocks;
import mira.query.testing.Corpus;
import mira.query.testing.JsonTree;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.lifecycle.AfterTry;
import net.jqwik.api.statistics.Statistics;

/**
 * The service map against a brute-force computation over the OTLP requests: random traces
 * across four services (each with two instances), their spans split over blocks in different
 * hours, so a parent often sits in another block and another hour than its child; client spans
 * to databases and queues that send nothing; links across traces.
 */
class ServiceMapOracleTest {
  static final long T0 = Corpus.T0;
  static final long HOUR = 3_600_000_000_000L;
  static final List<String> SERVICES = List.of("web", "cart", "pay", "mail");

  Path dir;

  @AfterTry
  void clean() throws Exception {
    Blocks.deleteTree(dir);
  }

  record Sp(String trace, String id, String parent, String service, int instance, int kind, boolean error,
      long duration, String virtual, String linkTrace, String linkSpan, long start) {}


  @Property(tries = 30)
  void nodesAndEdgesEqualABruteForceJoinOverTheRequests(@ForAll long seed) throws Exception {
    dir = Files.createTempDirectory("mira-map");
    Random rnd = new Random(seed);
    List<Sp> spans = new ArrayList<>();
    int traces = 3 + rnd.nextInt(8);
    for (int t = 0; t < traces; t++) {
      String trace = hex(rnd, 16);
      long start = T0 + rnd.nextInt(3) * HOUR + rnd.nextInt(1000) * 1_000_000L;
      List<Sp> mine = new ArrayList<>();
      int n = 1 + rnd.nextInt(7);
      for (int i = 0; i < n; i++) {
        Sp parent = mine.isEmpty() || rnd.nextInt(6) == 0 ? null : mine.get(rnd.nextInt(mine.size()));
        String service = parent != null && rnd.nextBoolean() ? parent.service : SERVICES.get(rnd.nextInt(4));
        int kind = 1 + rnd.nextInt(5);
        String virtual = kind == 3 || kind == 4 ? switch (rnd.nextInt(4)) {
          case 0 -> "db.system=postgresql";
          case 1 -> "peer.service=billing";
          case 2 -> "messaging.system=kafka";
          default -> null;
        } : null;
        Sp link = !spans.isEmpty() && rnd.nextInt(8) == 0 ? spans.get(rnd.nextInt(spans.size())) : null;
        // Children start up to two hours after the trace started, so one trace spans hours.
        long at = start + (parent == null ? 0 : rnd.nextInt(3) * HOUR / 2);
        mine.add(new Sp(trace, hex(rnd, 8), parent == null ? "" : parent.id, service, rnd.nextInt(2), kind,
            rnd.nextInt(5) == 0, 1_000_000L * (1 + rnd.nextInt(500)), virtual, link == null ? null : link.trace,
            link == null ? null : link.id, at));
      }
      spans.addAll(mine);
    }
    // Publish in 1..5 blocks, each span to a random one.
    int blocks = 1 + rnd.nextInt(5);
    List<List<Sp>> parts = new ArrayList<>();
    for (int b = 0; b < blocks; b++) {
      parts.add(new ArrayList<>());
    }
    for (Sp s : spans) {
      parts.get(rnd.nextInt(blocks)).add(s);
    }
    int seq = 1;
    for (List<Sp> part : parts) {
      if (!part.isEmpty()) {
        Blocks.publish(dir, Signal.TRACES, "n", seq++, request(part), T0);
      }
    }

    // The brute force: every span, its parent by (trace, id) among all spans.
    Map<String, Sp> byId = new HashMap<>();
    Map<String, Boolean> hasChild = new HashMap<>();
    for (Sp s : spans) {
      byId.put(s.trace + s.id, s);
      if (!s.parent.isEmpty()) {
        hasChild.put(s.trace + s.parent, true);
      }
    }
    // The whole range, then a window that leaves parents and children outside it.
    long[][] windows = {{T0 - HOUR, T0 + 6 * HOUR}, {T0 + HOUR, T0 + 2 * HOUR}};
    for (long[] w : windows) {
      TreeMap<String, long[]> edges = new TreeMap<>();
      TreeMap<String, long[]> nodes = new TreeMap<>();
      for (Sp s : spans) {
        if (s.start < w[0] || s.start > w[1]) {
          continue;
        }
        long[] node = nodes.computeIfAbsent(s.service, k -> new long[3]);
        node[0]++;
        node[1] += s.error ? 1 : 0;
        node[2] = 0;
        Sp p = s.parent.isEmpty() ? null : byId.get(s.trace + s.parent);
        if (p != null && !p.service.equals(s.service)) {
          edge(edges, p.service + ">" + s.service + ">" + (s.kind == 5 || p.kind == 4 ? "messaging" : "rpc"), s.error);
        }
        Sp l = s.linkTrace == null ? null : byId.get(s.linkTrace + s.linkSpan);
        if (l != null && !l.service.equals(s.service)) {
          edge(edges, l.service + ">" + s.service + ">link", s.error);
        }
        if ((s.kind == 3 || s.kind == 4) && !hasChild.containsKey(s.trace + s.id) && s.virtual != null) {
          String name = switch (s.virtual) {
            case "db.system=postgresql" -> "postgresql orders";
            case "peer.service=billing" -> "billing";
            default -> "kafka events";
          };
          long[] v = nodes.computeIfAbsent(name + " (virtual)", k -> new long[3]);
          v[0]++;
          v[1] += s.error ? 1 : 0;
          edge(edges, s.service + ">" + name + ">" + (s.kind == 4 ? "messaging" : "rpc"), s.error);
        }
      }
      for (String e : edges.keySet()) {
        String[] p = e.split(">");
        nodes.computeIfAbsent(p[0], k -> new long[3]);
      }

      try (LocalQueries q = LocalQueries.open(dir, () -> T0 + 10 * HOUR)) {
        ServiceMap m = q.map(("{\"from\": \"" + w[0] + "\", \"to\": \"" + w[1] + "\"}")
            .getBytes(StandardCharsets.UTF_8));
        assertThat(m.truncated()).isFalse();
        TreeMap<String, long[]> gotEdges = new TreeMap<>();
        for (ServiceMap.Edge e : m.edges()) {
          gotEdges.put(e.from() + ">" + e.to() + ">" + e.kind(), new long[] {e.calls(), e.errors()});
        }
        assertThat(gotEdges.keySet()).as("edges, seed %d", seed).containsExactlyElementsOf(edges.keySet());
        edges.forEach((k, v) -> assertThat(gotEdges.get(k)).as("edge %s", k).isEqualTo(v));
        TreeMap<String, long[]> gotNodes = new TreeMap<>();
        for (ServiceMap.Node n : m.nodes()) {
          gotNodes.put(n.service() + (n.virtual() ? " (virtual)" : ""), new long[] {n.spans(), n.errors(), 0});
          if (!n.virtual() && n.spans() > 0) {
            assertThat(n.entities()).isBetween(1, 2);
            assertThat(n.p99Ms()).isGreaterThanOrEqualTo(n.p50Ms()).isGreaterThan(0);
          }
        }
        assertThat(gotNodes.keySet()).as("nodes, seed %d", seed).containsExactlyElementsOf(nodes.keySet());
        nodes.forEach((k, v) -> assertThat(gotNodes.get(k)).as("node %s", k).isEqualTo(v));
        Statistics.label("edges").collect(edges.size() > 3 ? "many" : edges.isEmpty() ? "none" : "few");
        // The rendering holds the same.
        JsonTree.Obj json = JsonTree.parseObj(MapJson.map(m));
        assertThat(json.list("edges")).hasSize(m.edges().size());
      }
    }
  }

  static void edge(TreeMap<String, long[]> edges, String key, boolean error) {
    long[] e = edges.computeIfAbsent(key, k -> new long[2]);
    e[0]++;
    e[1] += error ? 1 : 0;
  }

  static ExportTraceServiceRequest request(List<Sp> part) {
    ExportTraceServiceRequest.Builder req = ExportTraceServiceRequest.newBuilder();
    Map<String, List<Span>> byResource = new TreeMap<>();
    HexFormat hex = HexFormat.of();
    for (Sp s : part) {
      Span.Builder b = Span.newBuilder().setTraceId(ByteString.copyFrom(hex.parseHex(s.trace)))
          .setSpanId(ByteString.copyFrom(hex.parseHex(s.id))).setName("op").setKindValue(s.kind)
          .setStartTimeUnixNano(s.start).setEndTimeUnixNano(s.start + s.duration)
          .setStatus(Status.newBuilder().setCodeValue(s.error ? 2 : 0));
      if (!s.parent.isEmpty()) {
        b.setParentSpanId(ByteString.copyFrom(hex.parseHex(s.parent)));
      }
      if (s.virtual != null) {
        switch (s.virtual) {
          case "db.system=postgresql" -> b.addAttributes(attr("db.system", "postgresql")).addAttributes(attr("db.namespace", "orders"));
          case "peer.service=billing" -> b.addAttributes(attr("peer.service", "billing")).addAttributes(attr("db.system", "x"));
          default -> b.addAttributes(attr("messaging.system", "kafka")).addAttributes(attr("messaging.destination.name", "events"));
        }
      }
      if (s.linkTrace != null) {
        b.addLinks(Span.Link.newBuilder().setTraceId(ByteString.copyFrom(hex.parseHex(s.linkTrace)))
            .setSpanId(ByteString.copyFrom(hex.parseHex(s.linkSpan))));
      }
      byResource.computeIfAbsent(s.service + "/" + s.instance, k -> new ArrayList<>()).add(b.build());
    }
    byResource.forEach((k, list) -> {
      String[] p = k.split("/");
      req.addResourceSpans(ResourceSpans.newBuilder().setResource(Resource.newBuilder()
              .addAttributes(attr("service.name", p[0])).addAttributes(attr("service.instance.id", p[0] + "-" + p[1])))
          .addScopeSpans(ScopeSpans.newBuilder().addAllSpans(list)));
    });
    return req.build();
  }

  static String hex(Random rnd, int bytes) {
    byte[] b = new byte[bytes];
    rnd.nextBytes(b);
    b[0] |= 1;
    return HexFormat.of().formatHex(b);
  }
}
