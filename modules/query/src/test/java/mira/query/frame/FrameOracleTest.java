package mira.query.frame;

import static mira.query.testing.Metrics.attr;
import static org.assertj.core.api.Assertions.assertThat;

import com.google.protobuf.ByteString;
import io.opentelemetry.proto.collector.logs.v1.ExportLogsServiceRequest;
import io.opentelemetry.proto.collector.trace.v1.ExportTraceServiceRequest;
import io.opentelemetry.proto.common.v1.AnyValue;
import io.opentelemetry.proto.common.v1.KeyValue;
import io.opentelemetry.proto.logs.v1.LogRecord;
import io.opentelemetry.proto.logs.v1.ResourceLogs;
import io.opentelemetry.proto.logs.v1.ScopeLogs;
import io.opentelemetry.proto.resource.v1.Resource;
import io.opentelemetry.proto.trace.v1.ResourceSpans;
import io.opentelemetry.proto.trace.v1.ScopeSpans;
import io.opentelemetry.proto.trace.v1.Span;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Random;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Collectors;
import mira.proto.wire.Signal;
import mira.query.LocalQueries;
import mira.query.render.FrameJson;
import mira.query.result.Entities;
import mira.query.result.Frame;
import mira.query.result.LogRow;
import mira.query.result.Row;
import mira.query.result.SearchResult;
import mira.query.result.SpanRow;
import mira.query.testing.Blocks;
import mira.query.testing.Corpus;
import mira.query.testing.Expected;
import mira.query.testing.JsonTree;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.lifecycle.AfterTry;
import net.jqwik.api.statistics.Statistics;

/**
 * Frames against their definition: random logs and spans of six entities sharing a pool of
 * traces, over several blocks; a random anchor and random expanders. The frame must be what the
 * definition gives, computed by brute force over the requests, and its {@code queries}, sent to
 * the search unchanged, must return exactly the records the frame's membership selects.
 */
class FrameOracleTest {
  static final long T0 = Corpus.T0;
  static final long S = 1_000_000_000L;
  static final int ENTITIES = 6;

  Path dir;

  @AfterTry
  void clean() throws Exception {
    Blocks.deleteTree(dir);
  }

  record Rec(boolean span, int entity, String trace, long start, long end, String body) {}

  static Resource resource(int e) {
    return Resource.newBuilder().addAttributes(attr("service.name", "svc" + e % 3))
        .addAttributes(attr("service.instance.id", "i" + e)).build();
  }


  @Property(tries = 60)
  void framesAndTheirQueriesFollowTheDefinition(@ForAll long seed) throws Exception {
    dir = Files.createTempDirectory("mira-frame");
    Random rnd = new Random(seed);
    HexFormat hex = HexFormat.of();
    List<String> pool = new ArrayList<>();
    for (int i = 0; i < 5; i++) {
      byte[] b = new byte[16];
      rnd.nextBytes(b);
      b[0] |= 1;
      pool.add(hex.formatHex(b));
    }
    List<Rec> recs = new ArrayList<>();
    int n = 20 + rnd.nextInt(60);
    for (int i = 0; i < n; i++) {
      boolean span = rnd.nextBoolean();
      String trace = span || rnd.nextInt(3) > 0 ? pool.get(rnd.nextInt(pool.size())) : null;
      long start = T0 + rnd.nextInt(600) * S;
      long end = span ? start + rnd.nextInt(30) * S : start;
      recs.add(new Rec(span, rnd.nextInt(ENTITIES), trace, start, end, (rnd.nextInt(3) == 0 ? "anchor " : "r ") + i));
    }
    int blocks = 1 + rnd.nextInt(3);
    int seq = 1;
    for (int b = 0; b < blocks; b++) {
      ExportLogsServiceRequest.Builder logs = ExportLogsServiceRequest.newBuilder();
      ExportTraceServiceRequest.Builder spans = ExportTraceServiceRequest.newBuilder();
      for (int e = 0; e < ENTITIES; e++) {
        ScopeLogs.Builder sl = ScopeLogs.newBuilder();
        ScopeSpans.Builder ss = ScopeSpans.newBuilder();
        for (int i = 0; i < recs.size(); i++) {
          Rec r = recs.get(i);
          if (r.entity != e || i % blocks != b) {
            continue;
          }
          if (r.span) {
            byte[] id = new byte[8];
            rnd.nextBytes(id);
            id[0] |= 1;
            ss.addSpans(Span.newBuilder().setName(r.body).setTraceId(ByteString.copyFrom(hex.parseHex(r.trace)))
                .setSpanId(ByteString.copyFrom(id)).setStartTimeUnixNano(r.start).setEndTimeUnixNano(r.end));
          } else {
            LogRecord.Builder l = LogRecord.newBuilder().setTimeUnixNano(r.start)
                .setBody(AnyValue.newBuilder().setStringValue(r.body));
            if (r.trace != null) {
              l.setTraceId(ByteString.copyFrom(hex.parseHex(r.trace)));
            }
            sl.addLogRecords(l);
          }
        }
        if (sl.getLogRecordsCount() > 0) {
          logs.addResourceLogs(ResourceLogs.newBuilder().setResource(resource(e)).addScopeLogs(sl));
        }
        if (ss.getSpansCount() > 0) {
          spans.addResourceSpans(ResourceSpans.newBuilder().setResource(resource(e)).addScopeSpans(ss));
        }
      }
      if (logs.getResourceLogsCount() > 0) {
        Blocks.publish(dir, Signal.LOGS, "n", seq++, logs.build(), T0);
      }
      if (spans.getResourceSpansCount() > 0) {
        Blocks.publish(dir, Signal.TRACES, "n", seq++, spans.build(), T0);
      }
    }
    long[] key = new long[ENTITIES];
    for (int e = 0; e < ENTITIES; e++) {
      key[e] = Expected.entity(resource(e));
    }

    // The anchor: logs with "anchor" in the body, in a window; then 0..3 random expanders.
    long from = T0 + rnd.nextInt(200) * S;
    long to = from + (200 + rnd.nextInt(400)) * S;
    List<Rec> anchor = recs.stream().filter(r -> !r.span && r.body.startsWith("anchor") && r.start >= from
        && r.start <= to).toList();
    List<String> expand = new ArrayList<>();
    for (int i = rnd.nextInt(4); i > 0; i--) {
      // Mostly walks that make sense (traces before peers), sometimes one that does not.
      String e = List.of("\"traces\"", "\"peers\"", "{\"around\": \"7s\"}").get(rnd.nextInt(3));
      expand.add(e.equals("\"peers\"") && !expand.contains("\"traces\"") && rnd.nextInt(4) > 0 ? "\"traces\"" : e);
    }
    String doc = "{\"anchor\": {\"signal\": \"logs\", \"from\": \"" + from + "\", \"to\": \"" + to
        + "\", \"where\": [{\"text\": \"anchor\"}], \"limit\": 1000}, \"expand\": [" + String.join(", ", expand) + "]}";

    // The definition, by brute force.
    long fFrom = Long.MAX_VALUE;
    long fTo = Long.MIN_VALUE;
    Set<Long> ents = new TreeSet<>();
    Set<String> traces = new TreeSet<>();
    String refusal = anchor.isEmpty() ? "nothing to correlate from" : null;
    for (Rec r : anchor) {
      fFrom = Math.min(fFrom, r.start);
      fTo = Math.max(fTo, r.start);
      ents.add(key[r.entity]);
    }
    for (String x : expand) {
      if (refusal != null) {
        break;
      }
      switch (x) {
        case "\"traces\"" -> {
          Set<String> ids = anchor.stream().map(Rec::trace).filter(t -> t != null).collect(Collectors.toCollection(TreeSet::new));
          if (!ids.isEmpty()) {
            traces = ids;
            for (Rec r : recs) {
              if (r.span && ids.contains(r.trace)) {
                fFrom = Math.min(fFrom, r.start);
                fTo = Math.max(fTo, r.end);
              }
            }
          }
        }
        case "\"peers\"" -> {
          if (traces.isEmpty()) {
            refusal = "put \"traces\" before \"peers\"";
          }
          for (Rec r : recs) {
            if (r.span && traces.contains(r.trace)) {
              ents.add(key[r.entity]);
            }
          }
        }
        default -> {
          fFrom -= 7 * S;
          fTo += 7 * S;
        }
      }
    }

    try (LocalQueries q = LocalQueries.open(dir, () -> T0 + 3600 * S)) {
      if (refusal != null) {
        String want = refusal;
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> q.correlate(doc.getBytes(StandardCharsets.UTF_8)))
            .hasMessageContaining(want);
        Statistics.label("outcome").collect("refused");
        return;
      }
      Statistics.label("outcome").collect(traces.isEmpty() ? "no traces" : "traces");
      Statistics.label("outcome").coverage(c -> c.check("traces").percentage(pc -> pc > 15));
      var got = q.correlate(doc.getBytes(StandardCharsets.UTF_8));
      Frame f = got.frame();
      assertThat(got.anchorRows()).isEqualTo(anchor.size());
      assertThat(new long[] {f.from(), f.to()}).as("window of %s, seed %d", doc, seed).isEqualTo(new long[] {fFrom, fTo});
      assertThat(f.entities().stream().map(Frame.Member::key).collect(Collectors.toSet())).as("entities").isEqualTo(ents);
      assertThat(f.traces()).as("traces").containsExactlyElementsOf(traces);

      // The queries return exactly the members.
      JsonTree.Obj answer = JsonTree.parseObj(FrameJson.correlate(got));
      for (String signal : List.of("logs", "traces")) {
        byte[] query = JsonTree.write(answer.obj("queries").get(signal));
        Set<String> bodies = new TreeSet<>();
        SearchResult page = q.search(query);
        while (true) {
          for (Row r : page.rows()) {
            bodies.add(r instanceof LogRow l ? ((mira.query.result.Value.Str) l.body()).value() : ((SpanRow) r).name());
          }
          if (page.next() == null) {
            break;
          }
          String next = page.next();
          String paged = new String(query, StandardCharsets.UTF_8);
          paged = paged.substring(0, paged.length() - 1) + ", \"after\": \"" + next + "\"}";
          page = q.search(paged.getBytes(StandardCharsets.UTF_8));
        }
        final long a = fFrom;
        final long b = fTo;
        Set<Long> es = ents;
        Set<String> ts = traces;
        Set<String> want = recs.stream().filter(r -> r.span == signal.equals("traces") && r.start >= a && r.start <= b
            && es.contains(key[r.entity]) && (ts.isEmpty() || r.trace != null && ts.contains(r.trace)))
            .map(Rec::body).collect(Collectors.toCollection(TreeSet::new));
        assertThat(bodies).as("%s of frame %s (entities %s)", signal, doc,
            ents.stream().map(Entities::hex).toList()).isEqualTo(want);
      }
      // Closure: the frame goes back in unchanged.
      byte[] again = ("{\"frame\": " + new String(JsonTree.write(answer.get("frame")), StandardCharsets.UTF_8) + "}")
          .getBytes(StandardCharsets.UTF_8);
      assertThat(q.correlate(again).frame()).isEqualTo(f);
    }
  }
}
