package mira.query.render;

import static mira.query.testing.JsonTree.obj;
import static org.assertj.core.api.Assertions.assertThat;

import com.google.protobuf.ByteString;
import io.opentelemetry.proto.collector.logs.v1.ExportLogsServiceRequest;
import io.opentelemetry.proto.collector.trace.v1.ExportTraceServiceRequest;
import io.opentelemetry.proto.common.v1.AnyValue;
import io.opentelemetry.proto.common.v1.ArrayValue;
import io.opentelemetry.proto.common.v1.InstrumentationScope;
import io.opentelemetry.proto.common.v1.KeyValue;
import io.opentelemetry.proto.common.v1.KeyValueList;
import io.opentelemetry.proto.logs.v1.LogRecord;
import io.opentelemetry.proto.logs.v1.ResourceLogs;
import io.opentelemetry.proto.logs.v1.ScopeLogs;
import io.opentelemetry.proto.resource.v1.Resource;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.stream.Stream;
import mira.proto.json.OtlpJson;
import mira.proto.wire.Signal;
import mira.query.LocalQueries;
import mira.query.result.Row;
import mira.query.result.SearchResult;
import mira.query.doc.SearchQuery;
import mira.query.testing.Blocks;
import mira.query.testing.Corpus;
import mira.query.testing.JsonTree;
import mira.query.testing.PostBack;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A rendered row is in a shape that can be sent back: its fields are OTLP's, ids are hex, 64-bit
 * integers are strings, and attribute values keep their JSON type. Posting rows back through
 * {@link OtlpJson} and reading them again gives the same rows. Two types come back as their
 * canonical text, because a plain JSON object cannot tell them from strings: an int64 (rendered as
 * a decimal string, as OTLP/JSON writes it) and bytes (base64). A query for either still finds the
 * reposted value (eq "42" matches both a stored 42 and a stored "42").
 */
class RowRoundTripTest {
  static final long NOW = Corpus.T0 + 3_600_000_000_000L;
  static final long FROM = Corpus.T0 - 1_000_000_000_000L;

  @TempDir Path tmp;

  static AnyValue str(String s) {
    return AnyValue.newBuilder().setStringValue(s).build();
  }

  static KeyValue kv(String k, AnyValue v) {
    return KeyValue.newBuilder().setKey(k).setValue(v).build();
  }

  static List<KeyValue> everyType() {
    AnyValue nested = AnyValue.newBuilder().setKvlistValue(KeyValueList.newBuilder()
        .addValues(kv("list", AnyValue.newBuilder().setArrayValue(ArrayValue.newBuilder()
            .addValues(str("x")).addValues(AnyValue.newBuilder().setIntValue(-7))
            .addValues(AnyValue.getDefaultInstance())
            .addValues(AnyValue.newBuilder().setKvlistValue(KeyValueList.newBuilder()
                .addValues(kv("deep", AnyValue.newBuilder().setBoolValue(false).build()))))).build()))
        .addValues(KeyValue.newBuilder().setKey("novalue"))).build();
    return List.of(
        kv("s", str("hé \"quoted\" \n")),
        kv("b", AnyValue.newBuilder().setBoolValue(true).build()),
        kv("i", AnyValue.newBuilder().setIntValue(Long.MIN_VALUE).build()),
        kv("d", AnyValue.newBuilder().setDoubleValue(1.5).build()),
        kv("whole", AnyValue.newBuilder().setDoubleValue(2.0).build()),
        kv("nan", AnyValue.newBuilder().setDoubleValue(Double.NaN).build()),
        kv("bytes", AnyValue.newBuilder().setBytesValue(ByteString.copyFrom(new byte[] {0, 1, (byte) 0xFF})).build()),
        kv("arr", AnyValue.newBuilder().setArrayValue(ArrayValue.newBuilder().addValues(str("a"))
            .addValues(AnyValue.newBuilder().setDoubleValue(0.25))).build()),
        kv("kv", nested),
        kv("empty", AnyValue.getDefaultInstance()),
        kv("s", str("repeated key")));
  }

  @Test
  void everyAnyValueTypeIsRenderedInItsOtlpType() throws Exception {
    List<LogRecord> records = new ArrayList<>();
    List<AnyValue> bodies = new ArrayList<>();
    for (KeyValue kv : everyType()) {
      bodies.add(kv.getValue());
    }
    for (int i = 0; i < bodies.size(); i++) {
      records.add(LogRecord.newBuilder().setTimeUnixNano(Corpus.T0 + i).setBody(bodies.get(i))
          .addAllAttributes(everyType()).build());
    }
    ExportLogsServiceRequest req = ExportLogsServiceRequest.newBuilder().addResourceLogs(ResourceLogs.newBuilder()
        .setResource(Resource.newBuilder().addAllAttributes(everyType()))
        .addScopeLogs(ScopeLogs.newBuilder().setScope(InstrumentationScope.newBuilder().setName("s")
            .addAllAttributes(everyType())).addAllLogRecords(records))).build();
    Blocks.publish(tmp, Signal.LOGS, "n", 1, req, Corpus.T0);
    List<JsonTree.Obj> rows = all(tmp, Signal.LOGS);
    assertThat(rows).hasSize(records.size());

    JsonTree.Obj row = rows.getLast(); // the oldest: body is the string
    JsonTree.Obj attrs = row.obj("attributes");
    JsonTree.Obj want = obj(
        "s", "hé \"quoted\" \n",
        "b", true,
        "i", "-9223372036854775808",
        "d", 1.5,
        "whole", 2.0,
        "nan", "NaN",
        "bytes", "AAH/",
        "arr", List.of("a", 0.25),
        "kv", obj("list", java.util.Arrays.asList("x", "-7", null, obj("deep", false)), "novalue", null),
        "empty", null,
        "s", "repeated key");
    assertThat(attrs).isEqualTo(want);
    assertThat(row.obj("resource").obj("attributes")).isEqualTo(want);
    assertThat(row.obj("scope").obj("attributes")).isEqualTo(want);
    // Bodies of every type, newest first, so the reverse of the attribute order.
    List<Object> gotBodies = new ArrayList<>();
    for (JsonTree.Obj r : rows.reversed()) {
      gotBodies.add(r.get("body"));
    }
    List<Object> wantBodies = new ArrayList<>();
    for (var m : want.members()) {
      wantBodies.add(m.getValue());
    }
    assertThat(gotBodies).isEqualTo(wantBodies);
    // 64-bit integers are strings, 32-bit ones numbers.
    assertThat(row.get("time_unix_nano")).isEqualTo(Long.toString(Corpus.T0));
    assertThat(row.get("severity_number")).isEqualTo(0L);
    assertThat(row.get("flags")).isEqualTo(0L);
  }

  @Property(tries = 40)
  void renderedLogRowsPostBackToTheSameRows(@ForAll("logs") ExportLogsServiceRequest req) throws Exception {
    Path a = Files.createTempDirectory("mira-rt-a");
    Path b = Files.createTempDirectory("mira-rt-b");
    try {
      Blocks.publish(a, Signal.LOGS, "n", 1, req, Corpus.T0);
      List<JsonTree.Obj> rows = all(a, Signal.LOGS);
      byte[] posted = PostBack.logs(rows);
      ExportLogsServiceRequest back = OtlpJson.decodeLogs(posted, 0, posted.length);
      Blocks.publish(b, Signal.LOGS, "n", 1, back, Corpus.T0);
      assertThat(sorted(all(b, Signal.LOGS))).isEqualTo(sorted(rows));
    } finally {
      delete(a);
      delete(b);
    }
  }

  @Property(tries = 40)
  void renderedSpanRowsPostBackToTheSameRows(@ForAll("traces") ExportTraceServiceRequest req) throws Exception {
    Path a = Files.createTempDirectory("mira-rt-a");
    Path b = Files.createTempDirectory("mira-rt-b");
    try {
      Blocks.publish(a, Signal.TRACES, "n", 1, req, Corpus.T0);
      List<JsonTree.Obj> rows = all(a, Signal.TRACES);
      byte[] posted = PostBack.spans(rows);
      ExportTraceServiceRequest back = OtlpJson.decodeTraces(posted, 0, posted.length);
      Blocks.publish(b, Signal.TRACES, "n", 1, back, Corpus.T0);
      assertThat(sorted(all(b, Signal.TRACES))).isEqualTo(sorted(rows));
    } finally {
      delete(a);
      delete(b);
    }
  }

  @net.jqwik.api.Provide
  net.jqwik.api.Arbitrary<ExportLogsServiceRequest> logs() {
    return Corpus.logsRequest();
  }

  @net.jqwik.api.Provide
  net.jqwik.api.Arbitrary<ExportTraceServiceRequest> traces() {
    return Corpus.tracesRequest();
  }

  static List<JsonTree.Obj> all(Path dir, Signal signal) throws Exception {
    try (LocalQueries q = LocalQueries.open(dir, () -> NOW)) {
      SearchResult r = q.search(new SearchQuery(signal, Long.MIN_VALUE, Long.MAX_VALUE, List.of(), 10_000, null));
      List<JsonTree.Obj> out = new ArrayList<>();
      for (Row row : r.rows()) {
        out.add(JsonTree.parseObj(ResponseJson.row(row)));
      }
      return out;
    }
  }

  static List<String> sorted(List<JsonTree.Obj> rows) {
    return rows.stream().map(JsonTree.Obj::toString).sorted().toList();
  }

  static void delete(Path dir) throws Exception {
    try (Stream<Path> s = Files.walk(dir)) {
      for (Path p : s.sorted(Comparator.reverseOrder()).toList()) {
        Files.deleteIfExists(p);
      }
    }
  }

  static String utf8(byte[] b) {
    return new String(b, StandardCharsets.UTF_8);
  }
}
