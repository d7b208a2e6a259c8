package mira.block.index;

import static mira.block.testing.SampleRequests.bool;
import static mira.block.testing.SampleRequests.bytes;
import static mira.block.testing.SampleRequests.f64;
import static mira.block.testing.SampleRequests.i64;
import static mira.block.testing.SampleRequests.kv;
import static mira.block.testing.SampleRequests.str;
import static org.assertj.core.api.Assertions.assertThat;

import com.google.protobuf.ByteString;
import io.opentelemetry.proto.collector.logs.v1.ExportLogsServiceRequest;
import io.opentelemetry.proto.collector.trace.v1.ExportTraceServiceRequest;
import io.opentelemetry.proto.common.v1.InstrumentationScope;
import io.opentelemetry.proto.common.v1.KeyValue;
import io.opentelemetry.proto.logs.v1.LogRecord;
import io.opentelemetry.proto.logs.v1.ResourceLogs;
import io.opentelemetry.proto.logs.v1.ScopeLogs;
import io.opentelemetry.proto.resource.v1.Resource;
import io.opentelemetry.proto.trace.v1.ResourceSpans;
import io.opentelemetry.proto.trace.v1.ScopeSpans;
import io.opentelemetry.proto.trace.v1.Span;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import mira.block.Decoders;
import mira.block.logs.LogsBatch;
import mira.block.metrics.MetricsBatch;
import mira.block.table.Attributes;
import mira.block.table.Batch;
import mira.block.table.Table;
import mira.block.traces.TracesBatch;
import mira.block.testing.SampleRequests;
import mira.proto.wire.Signal;
import org.junit.jupiter.api.Test;

/** The Bloom filters' rules on in-memory batches, no files (architecture: Sidecar indexes). */
class FilterRulesTest {
  static Batch logs(List<KeyValue> recordAttrs, ByteString... traceIds) throws Exception {
    ScopeLogs.Builder s = ScopeLogs.newBuilder();
    for (ByteString id : traceIds) {
      s.addLogRecords(LogRecord.newBuilder().setTimeUnixNano(SampleRequests.T0).setTraceId(id).addAllAttributes(recordAttrs));
    }
    if (traceIds.length == 0) {
      s.addLogRecords(LogRecord.newBuilder().setTimeUnixNano(SampleRequests.T0).addAllAttributes(recordAttrs));
    }
    byte[] b = ExportLogsServiceRequest.newBuilder().addResourceLogs(ResourceLogs.newBuilder().addScopeLogs(s))
        .build().toByteArray();
    return Decoders.decode(Signal.LOGS, b, 0, b.length, SampleRequests.T0);
  }

  static Batch logs(KeyValue... recordAttrs) throws Exception {
    return logs(List.of(recordAttrs));
  }

  @Test
  void aProbeFindsEveryStoredTypeWhoseCanonicalTextItIs() throws Exception {
    AttrIndex idx = AttrIndex.build(logs(kv("code", i64(200)), kv("s", str("200")), kv("ok", bool(true)),
        kv("raw", bytes((byte) 1, (byte) 2)), kv("neg", i64(-7)), kv("big", i64(Long.MIN_VALUE))));
    assertThat(idx.hasDouble()).isFalse();
    assertThat(idx.mightContain("code", "200")).isTrue();
    assertThat(idx.mightContain("s", "200")).isTrue();
    assertThat(idx.mightContain("ok", "true")).isTrue();
    assertThat(idx.mightContain("ok", "TRUE")).as("booleans in any case").isTrue();
    assertThat(idx.mightContain("raw", "AQI=")).as("bytes as base64").isTrue();
    assertThat(idx.mightContain("neg", "-7")).isTrue();
    assertThat(idx.mightContain("big", Long.toString(Long.MIN_VALUE))).isTrue();
    // Other spellings of a stored integer reach it through its decimal text.
    for (String spelling : List.of("200.0", "2e2", "+200", "0200", "200.000")) {
      assertThat(idx.mightContain("code", spelling)).as(spelling).isTrue();
    }
    // What is not there is (for these probes, deterministically) pruned.
    assertThat(idx.mightContain("code", "201")).isFalse();
    assertThat(idx.mightContain("code", "200.5")).as("no double stored: no integer equals 200.5").isFalse();
    assertThat(idx.mightContain("other", "200")).isFalse();
    assertThat(idx.mightContain("ok", "false")).isFalse();
  }

  @Test
  void doublesAreNotIndexedButMakeEveryNumericProbeMaybe() throws Exception {
    AttrIndex idx = AttrIndex.build(logs(kv("ratio", f64(0.25)), kv("name", str("x"))));
    assertThat(idx.hasDouble()).isTrue();
    assertThat(idx.mightContain("ratio", "0.25")).isTrue();
    assertThat(idx.mightContain("ratio", "1e-3")).isTrue();
    assertThat(idx.mightContain("anything", "42")).as("numeric probe, HAS_DOUBLE").isTrue();
    assertThat(idx.mightContain("name", "y")).as("a non-numeric probe is still filtered").isFalse();
  }

  @Test
  void emptyValuesArraysAndKvlistsAreNotIndexed() throws Exception {
    Batch b = logs(kv("e", io.opentelemetry.proto.common.v1.AnyValue.getDefaultInstance()),
        kv("a", io.opentelemetry.proto.common.v1.AnyValue.newBuilder().setArrayValue(
            io.opentelemetry.proto.common.v1.ArrayValue.newBuilder().addValues(str("x"))).build()));
    AttrIndex idx = AttrIndex.build(b);
    assertThat(idx.pairs()).isZero();
    assertThat(idx.mightContain("a", "x")).isFalse();
    assertThat(idx.mightContain("e", "")).isFalse();
  }

  @Test
  void pastTheCapNoAttrIndexIsBuilt() throws Exception {
    List<KeyValue> attrs = new ArrayList<>();
    for (int i = 0; i < 50; i++) {
      attrs.add(kv("k" + i, i64(i)));
    }
    Batch b = logs(attrs);
    assertThat(AttrIndex.build(b, 50)).isNotNull();
    assertThat(AttrIndex.build(b, 49)).isNull();
  }

  @Test
  void pastTheCapNoZoneIndexIsBuilt() throws Exception {
    List<KeyValue> attrs = new ArrayList<>();
    for (int i = 0; i < ZoneIndex.MAX_KEYS; i++) {
      attrs.add(kv("k" + i, i64(i)));
    }
    assertThat(ZoneIndex.build(logs(attrs))).isNotNull();
    attrs.add(kv("one.more", str("x")));
    assertThat(ZoneIndex.build(logs(attrs))).isNull();
  }

  /**
   * Every table with the attribute layout is marked as such, and every attribute level of a block
   * reaches the filters — by the mark, not by a list of names.
   */
  @Test
  void everyAttributeTableOfEverySignalIsIndexed() throws Exception {
    for (Batch b : List.of(new LogsBatch(), new TracesBatch(), new MetricsBatch())) {
      for (Table t : b.tables()) {
        boolean layout = t.columns().length == 9 && t.column(Attributes.KEY).name().equals("key")
            && t.column(Attributes.SER).name().equals("ser");
        assertThat(t.isAttributes()).as(b.signal() + " " + t.file()).isEqualTo(layout);
        assertThat(t.isAttributes()).as(b.signal() + " " + t.file()).isEqualTo(t.file().endsWith("_attrs.arrow"));
      }
    }
    // A key unique to each level of a traces block.
    Span.Builder span = Span.newBuilder().setTraceId(ByteString.copyFrom(new byte[16])).setSpanId(
            ByteString.copyFrom(new byte[8])).setStartTimeUnixNano(SampleRequests.T0)
        .addAttributes(kv("at.span", str("v")))
        .addEvents(Span.Event.newBuilder().addAttributes(kv("at.event", str("v"))))
        .addLinks(Span.Link.newBuilder().addAttributes(kv("at.link", str("v"))));
    byte[] req = ExportTraceServiceRequest.newBuilder().addResourceSpans(ResourceSpans.newBuilder()
        .setResource(Resource.newBuilder().addAttributes(kv("at.resource", str("v"))))
        .addScopeSpans(ScopeSpans.newBuilder()
            .setScope(InstrumentationScope.newBuilder().addAttributes(kv("at.scope", str("v"))))
            .addSpans(span))).build().toByteArray();
    Batch traces = Decoders.decode(Signal.TRACES, req, 0, req.length, SampleRequests.T0);
    AttrIndex a = AttrIndex.build(traces);
    ZoneIndex z = ZoneIndex.build(traces);
    for (String level : List.of("span", "event", "link", "resource", "scope")) {
      assertThat(a.mightContain("at." + level, "v")).as(level).isTrue();
      assertThat(z.attributeKeys()).contains("at." + level);
    }
  }

  @Test
  void traceIdsAreFoundAndRunsInsertedOnce() throws Exception {
    ByteString a = ByteString.copyFrom(new byte[] {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16});
    ByteString b = ByteString.copyFrom(new byte[] {9, 9, 9, 9, 9, 9, 9, 9, 9, 9, 9, 9, 9, 9, 9, 9});
    TraceIndex idx = TraceIndex.build(logs(List.of(), a, a, a, ByteString.EMPTY, a, b, a));
    assertThat(idx.keys()).as("a a a (null) a | b | a").isEqualTo(3);
    assertThat(idx.mightContain(a.toByteArray())).isTrue();
    assertThat(idx.mightContain(b.toByteArray())).isTrue();
    assertThat(idx.mightContain(new byte[16])).isFalse();
    assertThat(TraceIndex.build(logs(List.of()))).as("no trace ids").isNull();
    assertThat(TraceIndex.build(new MetricsBatch())).as("metrics have no trace_id root column").isNull();
  }

  /**
   * About 1 % false positives at 10 bits and 7 hashes, for random ids and for the structured ids
   * real tracers produce — which an unmixed hash would pile onto a few bits.
   */
  @Test
  void falsePositivesStayNearOnePercentForStructuredIds() {
    int n = 20_000;
    record IdSet(String name, java.util.function.IntFunction<byte[]> id) {}
    long epoch = 0x6_7A00_0000L;
    List<IdSet> sets = List.of(
        new IdSet("random", i -> {
          byte[] x = new byte[16];
          new SplittableRandom(i).nextBytes(x);
          return x;
        }),
        new IdSet("64-bit tracer (zero high half), sequential", i -> id(0, i)),
        new IdSet("X-Ray (epoch seconds first), sequential rest", i -> id((epoch + i / 1000) << 32, i)),
        new IdSet("sequential in both halves", i -> id(i, i)),
        new IdSet("a counter straddling the halves", i -> id((long) i >>> 16, (long) i << 48)));
    for (IdSet set : sets) {
      Bloom bloom = Bloom.forKeys(n);
      TraceIndexProbe p = new TraceIndexProbe(bloom);
      for (int i = 0; i < n; i++) {
        p.add(set.id().apply(i));
      }
      for (int i = 0; i < n; i++) {
        assertThat(p.mightContain(set.id().apply(i))).isTrue();
      }
      int fp = 0;
      int probes = 100_000;
      for (int i = n; i < n + probes; i++) {
        if (p.mightContain(set.id().apply(i))) {
          fp++;
        }
      }
      double rate = (double) fp / probes;
      System.out.printf("falsePositives: %-45s %.3f %% (fill %.3f)%n", set.name(), rate * 100, bloom.fill());
      assertThat(rate).as(set.name()).isLessThan(0.012);
      // 1 - e^(-7/10) of the bits are set when the positions are uniform; ids piled onto a few bits
      // would set far fewer.
      assertThat(bloom.fill()).as(set.name() + " fill").isBetween(0.48, 0.52);
    }
  }

  private static byte[] id(long hi, long lo) {
    byte[] b = new byte[16];
    for (int i = 0; i < 8; i++) {
      b[i] = (byte) (hi >>> (56 - 8 * i));
      b[8 + i] = (byte) (lo >>> (56 - 8 * i));
    }
    return b;
  }

  /** Inserts and probes a filter exactly as trace.idx does, through TraceIndex's own hashing. */
  private static final class TraceIndexProbe {
    private final TraceIndex idx;

    TraceIndexProbe(Bloom bloom) {
      this.idx = TraceIndex.over(bloom);
    }

    void add(byte[] id) {
      idx.insert(id, 0);
    }

    boolean mightContain(byte[] id) {
      return idx.mightContain(id);
    }
  }
}
