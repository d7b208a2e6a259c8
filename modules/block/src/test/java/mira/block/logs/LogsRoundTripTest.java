package mira.block.logs;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.google.protobuf.ByteString;
import io.opentelemetry.proto.collector.logs.v1.ExportLogsServiceRequest;
import io.opentelemetry.proto.common.v1.AnyValue;
import io.opentelemetry.proto.common.v1.ArrayValue;
import io.opentelemetry.proto.common.v1.EntityRef;
import io.opentelemetry.proto.common.v1.InstrumentationScope;
import io.opentelemetry.proto.common.v1.KeyValue;
import io.opentelemetry.proto.common.v1.KeyValueList;
import io.opentelemetry.proto.logs.v1.LogRecord;
import io.opentelemetry.proto.logs.v1.ResourceLogs;
import io.opentelemetry.proto.logs.v1.ScopeLogs;
import io.opentelemetry.proto.logs.v1.SeverityNumber;
import io.opentelemetry.proto.resource.v1.Resource;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.zip.CRC32C;
import mira.block.catalog.BlockName;
import mira.block.publish.Publisher;
import mira.block.publish.TableWriter;
import mira.block.table.Batch;
import mira.block.table.EntityKey;
import mira.block.table.TooLargeException;
import mira.block.testing.ArrowTables;
import mira.block.testing.LogsReadBack;
import mira.block.testing.LogsReadBack.Flat;
import mira.block.testing.Rebuild;
import mira.proto.wire.Signal;
import mira.proto.wire.WireException;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class LogsRoundTripTest {
  // The oracle lives in mira.block.testing.LogsReadBack so other modules' tests can use it.
  @TempDir Path tmp;

  static final long T0 = 1_767_225_600_000_000_000L; // 2026-01-01T00:00:00Z




  private Path publish(Batch b, long seq) throws Exception {
    try (BufferAllocator a = new RootAllocator()) {
      Publisher p = new Publisher(tmp, Signal.LOGS, "node-a", a);
      Path dir = p.publish(b, seq, 0);
      assertThat(a.getAllocatedMemory()).as("every Arrow buffer is released after publish").isZero();
      return dir;
    }
  }

  static ExportLogsServiceRequest sample() {
    Resource res = Resource.newBuilder()
        .addAttributes(kv("service.name", str("checkout")))
        .addAttributes(kv("service.instance.id", str("pod-7")))
        .addAttributes(kv("host.cores", AnyValue.newBuilder().setIntValue(8).build()))
        .setDroppedAttributesCount(2)
        .addEntityRefs(EntityRef.newBuilder().setType("service").addIdKeys("service.name"))
        .build();
    InstrumentationScope scope = InstrumentationScope.newBuilder().setName("io.mira.test").setVersion("1.2.3")
        .addAttributes(kv("scope.attr", AnyValue.newBuilder().setBoolValue(true).build()))
        .setDroppedAttributesCount(1).build();
    AnyValue nested = AnyValue.newBuilder().setKvlistValue(KeyValueList.newBuilder()
        .addValues(kv("a", AnyValue.newBuilder().setArrayValue(ArrayValue.newBuilder()
            .addValues(str("x")).addValues(AnyValue.newBuilder().setDoubleValue(1.5))).build()))
        .addValues(kv("b", AnyValue.newBuilder().setBytesValue(ByteString.copyFrom(new byte[] {0, -1, 7})).build())))
        .build();
    LogRecord full = LogRecord.newBuilder()
        .setTimeUnixNano(T0 + 5)
        .setObservedTimeUnixNano(T0 + 9)
        .setSeverityNumber(SeverityNumber.SEVERITY_NUMBER_ERROR)
        .setSeverityText("ERROR")
        .setEventName("checkout.failed")
        .setBody(str("NullPointerException at line 42"))
        .addAttributes(kv("http.response.status_code", AnyValue.newBuilder().setIntValue(503).build()))
        .addAttributes(kv("ratio", AnyValue.newBuilder().setDoubleValue(0.25).build()))
        .addAttributes(kv("ok", AnyValue.newBuilder().setBoolValue(false).build()))
        .addAttributes(kv("raw", AnyValue.newBuilder().setBytesValue(ByteString.copyFromUtf8("\u0001\u0002")).build()))
        .addAttributes(kv("nested", nested))
        .addAttributes(kv("list", AnyValue.newBuilder().setArrayValue(ArrayValue.newBuilder().addValues(str("p"))).build()))
        .addAttributes(kv("empty", AnyValue.getDefaultInstance()))
        .setDroppedAttributesCount(3)
        .setFlags(1)
        .setTraceId(ByteString.copyFrom(HexFormat.of().parseHex("5b8efff798038103d269b633813fc60c")))
        .setSpanId(ByteString.copyFrom(HexFormat.of().parseHex("eee19b7ec3c1b174")))
        .build();
    LogRecord structuredBody = LogRecord.newBuilder().setTimeUnixNano(T0 + 1).setBody(nested).build();
    LogRecord intBody = LogRecord.newBuilder().setTimeUnixNano(T0 + 2)
        .setBody(AnyValue.newBuilder().setIntValue(-7)).build();
    LogRecord emptyBody = LogRecord.newBuilder().setTimeUnixNano(T0 + 3).setBody(AnyValue.getDefaultInstance()).build();
    LogRecord bare = LogRecord.newBuilder().setTimeUnixNano(T0 + 4).build();
    return ExportLogsServiceRequest.newBuilder()
        .addResourceLogs(ResourceLogs.newBuilder().setResource(res).setSchemaUrl("https://opentelemetry.io/schemas/1.26.0")
            .addScopeLogs(ScopeLogs.newBuilder().setScope(scope).setSchemaUrl("scope-schema")
                .addLogRecords(full).addLogRecords(structuredBody))
            .addScopeLogs(ScopeLogs.newBuilder().addLogRecords(intBody)))
        .addResourceLogs(ResourceLogs.newBuilder()
            .addScopeLogs(ScopeLogs.newBuilder().setScope(scope).addLogRecords(emptyBody).addLogRecords(bare)))
        // The first resource again: stored once.
        .addResourceLogs(ResourceLogs.newBuilder().setResource(res).setSchemaUrl("https://opentelemetry.io/schemas/1.26.0")
            .addScopeLogs(ScopeLogs.newBuilder().setScope(scope).setSchemaUrl("scope-schema").addLogRecords(bare)))
        .build();
  }

  static KeyValue kv(String k, AnyValue v) {
    return KeyValue.newBuilder().setKey(k).setValue(v).build();
  }

  static AnyValue str(String s) {
    return AnyValue.newBuilder().setStringValue(s).build();
  }

  static LogsBatch decode(ExportLogsServiceRequest req) throws Exception {
    byte[] b = req.toByteArray();
    return new LogsDecoder().decode(b, 0, b.length, T0);
  }

  @Test
  void everyFieldSurvivesDecodePublishAndArrowRead() throws Exception {
    ExportLogsServiceRequest req = sample();
    Path dir = publish(decode(req), 1);
    assertThat(LogsReadBack.readBack(dir)).containsExactlyElementsOf(LogsReadBack.flatten(req));
    assertThat(ArrowTables.read(dir, "resources.arrow").size()).as("the repeated resource is stored once").isEqualTo(2);
  }

  @Test
  void appendedBatchesRebaseIdsAndShareResources() throws Exception {
    ExportLogsServiceRequest a = sample();
    ExportLogsServiceRequest b = sample();
    Batch open = new LogsBatch();
    assertThat(open.tryAppend(decode(a))).isTrue();
    assertThat(open.tryAppend(decode(b))).isTrue();
    Path dir = publish(open, 2);
    List<Flat> expected = new ArrayList<>(LogsReadBack.flatten(a));
    expected.addAll(LogsReadBack.flatten(b));
    assertThat(LogsReadBack.readBack(dir)).containsExactlyElementsOf(expected);
    assertThat(ArrowTables.read(dir, "resources.arrow").size()).isEqualTo(2);
    assertThat(ArrowTables.read(dir, "scopes.arrow").size()).as("scope-schema, no scope, scope without schema").isEqualTo(3);
  }

  @Test
  void blockNameCarriesTimeRangeNodeAndSequence() throws Exception {
    Path dir = publish(decode(sample()), 42);
    BlockName n = BlockName.parse(dir.getFileName().toString()).orElseThrow();
    assertThat(n.minTime()).isEqualTo(T0 + 1);
    assertThat(n.maxTime()).isEqualTo(T0 + 5);
    assertThat(n.seq()).isEqualTo(42);
    assertThat(n.node()).isEqualTo(BlockName.nodeId("node-a"));
    assertThat(dir.getParent().getFileName().toString()).isEqualTo("p=" + (T0 / BlockName.PARTITION_NS));
    assertThat(tmp.resolve("logs/.staging")).isEmptyDirectory();
  }

  @Test
  void footerCarriesTheCrcOfTheBody() throws Exception {
    Path dir = publish(decode(sample()), 3);
    for (String f : List.of("logs.arrow", "log_attrs.arrow", "resources.arrow", "resource_attrs.arrow", "scopes.arrow", "scope_attrs.arrow")) {
      ArrowTables.Rows rows = ArrowTables.read(dir, f);
      byte[] file = Files.readAllBytes(dir.resolve(f));
      long len = Long.parseLong(rows.footer().get(TableWriter.LEN_KEY));
      CRC32C crc = new CRC32C();
      crc.update(file, TableWriter.BODY_OFFSET, (int) len);
      assertThat(rows.footer().get(TableWriter.CRC_KEY)).as(f).isEqualTo(HexFormat.of().toHexDigits((int) crc.getValue()));
      assertThat(new String(file, 0, 6)).isEqualTo("ARROW1");
    }
  }

  @Test
  void entityKeyFollowsIdentifyingAttributesOnly() throws Exception {
    Path dir = publish(decode(sample()), 4);
    List<Rebuild.Res> res = Rebuild.resources(dir);
    assertThat(res.get(0).key()).isNotEqualTo(EntityKey.NO_IDENTITY);
    assertThat(res.get(1).key()).as("a resource with no identifying attribute").isEqualTo(EntityKey.NO_IDENTITY);
  }

  @Test
  void timeFallsBackToObservedThenReceiveTime() throws Exception {
    ExportLogsServiceRequest req = ExportLogsServiceRequest.newBuilder().addResourceLogs(ResourceLogs.newBuilder()
        .addScopeLogs(ScopeLogs.newBuilder()
            .addLogRecords(LogRecord.newBuilder().setObservedTimeUnixNano(T0 + 100))
            .addLogRecords(LogRecord.newBuilder().setBody(str("no time at all"))))).build();
    ArrowTables.Rows logs = ArrowTables.read(publish(decode(req), 5), "logs.arrow");
    assertThat(logs.get(0).get("time_unix_nano")).isEqualTo(T0 + 100);
    assertThat(logs.get(1).get("time_unix_nano")).isEqualTo(T0);
    assertThat(logs.get(1).get("observed_time_unix_nano")).isNull();
  }

  @Test
  void aWrongLengthTraceIdIsRefusedNamingTheField() {
    ExportLogsServiceRequest req = ExportLogsServiceRequest.newBuilder().addResourceLogs(ResourceLogs.newBuilder()
        .addScopeLogs(ScopeLogs.newBuilder().addLogRecords(LogRecord.newBuilder().setTimeUnixNano(1))
            .addLogRecords(LogRecord.newBuilder().setTraceId(ByteString.copyFrom(new byte[15]))))).build();
    assertThatThrownBy(() -> decode(req)).isInstanceOf(WireException.class)
        .hasMessage("resource_logs[0].scope_logs[0].log_records[1].trace_id: has 15 bytes, expected 16");
  }

  @Test
  void truncatedBytesAreRefused() {
    byte[] b = sample().toByteArray();
    for (int cut : new int[] {1, 7, b.length / 2, b.length - 1}) {
      assertThatThrownBy(() -> new LogsDecoder().decode(b, 0, cut, T0)).as("cut at " + cut)
          .isInstanceOf(WireException.class);
    }
  }

  @Test
  void invalidUtf8InAStringIsRefused() {
    LogRecord r = LogRecord.newBuilder().setBody(str("x")).build();
    byte[] b = ExportLogsServiceRequest.newBuilder().addResourceLogs(ResourceLogs.newBuilder()
        .addScopeLogs(ScopeLogs.newBuilder().addLogRecords(r))).build().toByteArray();
    b[b.length - 1] = (byte) 0xC3; // the 'x' becomes a lone lead byte
    assertThatThrownBy(() -> new LogsDecoder().decode(b, 0, b.length, T0))
        .isInstanceOf(WireException.class).hasMessageContaining("body.string_value").hasMessageContaining("UTF-8");
  }

  @Test
  void deeplyNestedAnyValueIsRefusedWithoutRecursingOnTheStack() {
    AnyValue v = str("leaf");
    for (int i = 0; i < 200; i++) {
      v = AnyValue.newBuilder().setArrayValue(ArrayValue.newBuilder().addValues(v)).build();
    }
    LogRecord r = LogRecord.newBuilder().setBody(v).build();
    ExportLogsServiceRequest req = ExportLogsServiceRequest.newBuilder().addResourceLogs(ResourceLogs.newBuilder()
        .addScopeLogs(ScopeLogs.newBuilder().addLogRecords(r))).build();
    assertThatThrownBy(() -> decode(req)).isInstanceOf(WireException.class).hasMessageContaining("nested deeper than");
  }

  @Test
  void seventyThousandDistinctKeysCannotFitAnyBlock() {
    LogRecord.Builder r = LogRecord.newBuilder().setTimeUnixNano(T0);
    for (int i = 0; i < 70_000; i++) {
      r.addAttributes(kv("k" + i, str("v")));
    }
    ExportLogsServiceRequest req = ExportLogsServiceRequest.newBuilder().addResourceLogs(ResourceLogs.newBuilder()
        .addScopeLogs(ScopeLogs.newBuilder().addLogRecords(r))).build();
    assertThatThrownBy(() -> decode(req)).isInstanceOf(TooLargeException.class).hasMessageContaining("65536");
  }

  @Test
  void aBatchThatWouldOverflowADictionaryIsNotAppended() throws Exception {
    Batch open = new LogsBatch();
    for (int part = 0; part < 2; part++) {
      LogRecord.Builder r = LogRecord.newBuilder().setTimeUnixNano(T0);
      for (int i = 0; i < 40_000; i++) {
        r.addAttributes(kv("p" + part + "k" + i, str("v")));
      }
      LogsBatch b = decode(ExportLogsServiceRequest.newBuilder().addResourceLogs(ResourceLogs.newBuilder()
          .addScopeLogs(ScopeLogs.newBuilder().addLogRecords(r))).build());
      long before = open.byteSize();
      boolean appended = open.tryAppend(b);
      assertThat(appended).isEqualTo(part == 0);
      if (!appended) {
        assertThat(open.byteSize()).as("a refused append changes nothing").isEqualTo(before);
        assertThat(new LogsBatch().tryAppend(b)).as("it fits an empty block").isTrue();
      }
    }
  }

  @Test
  void aClearedBatchDecodesAndAppendsLikeANewOne() throws Exception {
    ExportLogsServiceRequest first = sample();
    ExportLogsServiceRequest second = ExportLogsServiceRequest.newBuilder().addResourceLogs(ResourceLogs.newBuilder()
        .addScopeLogs(ScopeLogs.newBuilder().addLogRecords(LogRecord.newBuilder().setTimeUnixNano(T0 + 77)
            .setSeverityText("DEBUG").addAttributes(kv("only.here", str("x")))))).build();
    LogsBatch reused = decode(first);
    Batch block = new LogsBatch();
    assertThat(block.tryAppend(reused)).isTrue();
    reused.clear();
    block.clear();
    byte[] b = second.toByteArray();
    new LogsDecoder().decode(b, 0, b.length, T0, (LogsBatch) reused);
    assertThat(block.tryAppend(reused)).isTrue();
    assertThat(block.resourceCount()).isEqualTo(1);
    assertThat(block.minTime()).isEqualTo(T0 + 77);
    assertThat(LogsReadBack.readBack(publish(block, 9))).containsExactlyElementsOf(LogsReadBack.flatten(second));
  }

  @Provide
  Arbitrary<ExportLogsServiceRequest> requests() {
    return Generators.logsRequests();
  }

  @Property(tries = 60)
  void randomRequestsRoundTrip(@ForAll("requests") ExportLogsServiceRequest req) throws Exception {
    // jqwik properties do not get JUnit's @TempDir.
    Path dir = Files.createTempDirectory("mira-logs-prop");
    try (BufferAllocator a = new RootAllocator()) {
      Publisher p = new Publisher(dir, Signal.LOGS, "n", a);
      LogsBatch b = decode(req);
      if (b.isEmpty()) {
        return;
      }
      Path block = p.publish(b, 0, 0);
      assertThat(LogsReadBack.readBack(block)).containsExactlyElementsOf(LogsReadBack.flatten(req));
    } finally {
      try (var s = Files.walk(dir)) {
        for (Path p : s.sorted(java.util.Comparator.reverseOrder()).toList()) {
          Files.delete(p);
        }
      }
    }
  }
}
