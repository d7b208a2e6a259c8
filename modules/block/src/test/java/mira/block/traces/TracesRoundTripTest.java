package mira.block.traces;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.google.protobuf.ByteString;
import com.google.protobuf.CodedOutputStream;
import io.opentelemetry.proto.collector.trace.v1.ExportTraceServiceRequest;
import io.opentelemetry.proto.common.v1.AnyValue;
import io.opentelemetry.proto.common.v1.ArrayValue;
import io.opentelemetry.proto.common.v1.EntityRef;
import io.opentelemetry.proto.common.v1.InstrumentationScope;
import io.opentelemetry.proto.common.v1.KeyValue;
import io.opentelemetry.proto.common.v1.KeyValueList;
import io.opentelemetry.proto.resource.v1.Resource;
import io.opentelemetry.proto.trace.v1.ResourceSpans;
import io.opentelemetry.proto.trace.v1.ScopeSpans;
import io.opentelemetry.proto.trace.v1.Span;
import io.opentelemetry.proto.trace.v1.Status;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import mira.block.publish.Publisher;
import mira.block.table.Batch;
import mira.block.testing.ArrowTables;
import mira.block.testing.Rebuild;
import mira.block.testing.TracesReadBack;
import mira.block.testing.TracesReadBack.Flat;
import mira.proto.wire.Signal;
import mira.proto.wire.WireException;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

class TracesRoundTripTest {
  @TempDir Path tmp;

  static final long T0 = 1_767_225_600_000_000_000L; // 2026-01-01T00:00:00Z
  static final ByteString TRACE = hex("5b8efff798038103d269b633813fc60c");
  static final ByteString OTHER_TRACE = hex("0af7651916cd43dd8448eb211c80319c");
  static final ByteString SPAN = hex("eee19b7ec3c1b174");
  static final ByteString PARENT = hex("b7ad6b7169203331");








  /** Publishes into {@code dir} and checks the allocator handed to the publisher holds nothing after. */
  static Path publish(Path dir, Batch b, long seq) throws Exception {
    try (BufferAllocator a = new RootAllocator()) {
      Publisher p = new Publisher(dir, Signal.TRACES, "node-a", a);
      Path block = p.publish(b, seq, 0);
      assertThat(a.getAllocatedMemory()).as("every Arrow buffer is released after publish").isZero();
      return block;
    }
  }

  private Path publish(Batch b, long seq) throws Exception {
    return publish(tmp, b, seq);
  }

  static ExportTraceServiceRequest sample() {
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
    Span full = Span.newBuilder()
        .setTraceId(TRACE)
        .setSpanId(SPAN)
        .setParentSpanId(PARENT)
        .setTraceState("rojo=00f067aa0ba902b7,congo=t61rcWkgMzE")
        .setFlags(0x301)
        .setName("GET /checkout")
        .setKind(Span.SpanKind.SPAN_KIND_SERVER)
        .setStartTimeUnixNano(T0 + 10)
        .setEndTimeUnixNano(T0 + 250)
        .addAttributes(kv("http.response.status_code", AnyValue.newBuilder().setIntValue(503).build()))
        .addAttributes(kv("ratio", AnyValue.newBuilder().setDoubleValue(0.25).build()))
        .addAttributes(kv("ok", AnyValue.newBuilder().setBoolValue(false).build()))
        .addAttributes(kv("raw", AnyValue.newBuilder().setBytesValue(ByteString.copyFromUtf8("\u0001\u0002")).build()))
        .addAttributes(kv("nested", nested))
        .addAttributes(kv("empty", AnyValue.getDefaultInstance()))
        .setDroppedAttributesCount(3)
        .addEvents(Span.Event.newBuilder().setTimeUnixNano(T0 + 20).setName("exception")
            .addAttributes(kv("exception.type", str("java.lang.NullPointerException")))
            .addAttributes(kv("exception.stacktrace", nested))
            .setDroppedAttributesCount(1))
        .addEvents(Span.Event.newBuilder().setTimeUnixNano(T0 + 30).setName("retry"))
        .addEvents(Span.Event.getDefaultInstance())
        .setDroppedEventsCount(4)
        .addLinks(Span.Link.newBuilder().setTraceId(OTHER_TRACE).setSpanId(PARENT).setTraceState("rojo=1")
            .addAttributes(kv("link.kind", str("follows_from"))).setDroppedAttributesCount(2).setFlags(0x101))
        .addLinks(Span.Link.newBuilder().setTraceId(TRACE).setSpanId(SPAN))
        .addLinks(Span.Link.getDefaultInstance())
        .setDroppedLinksCount(5)
        .setStatus(Status.newBuilder().setCode(Status.StatusCode.STATUS_CODE_ERROR).setMessage("upstream 503"))
        .build();
    ScopeSpans.Builder everyKind = ScopeSpans.newBuilder();
    for (Span.SpanKind kind : Span.SpanKind.values()) {
      if (kind == Span.SpanKind.UNRECOGNIZED) {
        continue;
      }
      int k = kind.getNumber();
      Span.Builder s = Span.newBuilder().setTraceId(TRACE).setSpanId(span(k)).setKind(kind)
          .setName(k == 0 ? "" : "op-" + k).setStartTimeUnixNano(T0 + 100 + k).setEndTimeUnixNano(T0 + 200 + k);
      if (k % 2 == 1) {
        s.setParentSpanId(SPAN);
      }
      if (k == 1) {
        s.setStatus(Status.newBuilder().setCode(Status.StatusCode.STATUS_CODE_OK));
      } else if (k == 2) {
        s.setStatus(Status.newBuilder().setMessage("a message with the code unset"));
      }
      everyKind.addSpans(s);
    }
    Span bare = Span.newBuilder().setTraceId(OTHER_TRACE).setSpanId(span(9)).setStartTimeUnixNano(T0 + 1)
        .setEndTimeUnixNano(T0 + 2).build();
    return ExportTraceServiceRequest.newBuilder()
        .addResourceSpans(ResourceSpans.newBuilder().setResource(res).setSchemaUrl("https://opentelemetry.io/schemas/1.26.0")
            .addScopeSpans(ScopeSpans.newBuilder().setScope(scope).setSchemaUrl("scope-schema").addSpans(full).addSpans(bare))
            .addScopeSpans(everyKind))
        .addResourceSpans(ResourceSpans.newBuilder()
            .addScopeSpans(ScopeSpans.newBuilder().setScope(scope).addSpans(bare).addSpans(full)))
        // The first resource again: stored once.
        .addResourceSpans(ResourceSpans.newBuilder().setResource(res).setSchemaUrl("https://opentelemetry.io/schemas/1.26.0")
            .addScopeSpans(ScopeSpans.newBuilder().setScope(scope).setSchemaUrl("scope-schema").addSpans(full)))
        .build();
  }

  static ByteString span(int n) {
    return ByteString.copyFrom(new byte[] {1, 2, 3, 4, 5, 6, 7, (byte) n});
  }

  static ByteString hex(String h) {
    return ByteString.copyFrom(HexFormat.of().parseHex(h));
  }

  static KeyValue kv(String k, AnyValue v) {
    return KeyValue.newBuilder().setKey(k).setValue(v).build();
  }

  static AnyValue str(String s) {
    return AnyValue.newBuilder().setStringValue(s).build();
  }

  static TracesBatch decode(ExportTraceServiceRequest req) throws Exception {
    return decode(req.toByteArray());
  }

  static TracesBatch decode(byte[] b) throws Exception {
    return new TracesDecoder().decode(b, 0, b.length, T0);
  }

  static ExportTraceServiceRequest oneSpan(Span.Builder s) {
    return ExportTraceServiceRequest.newBuilder().addResourceSpans(ResourceSpans.newBuilder()
        .addScopeSpans(ScopeSpans.newBuilder().addSpans(s))).build();
  }

  static Span.Builder minimal() {
    return Span.newBuilder().setTraceId(TRACE).setSpanId(SPAN).setStartTimeUnixNano(T0).setEndTimeUnixNano(T0 + 1);
  }

  @Test
  void everyFieldSurvivesDecodePublishAndArrowRead() throws Exception {
    ExportTraceServiceRequest req = sample();
    TracesBatch batch = decode(req);
    assertThat(batch.records()).isEqualTo(TracesReadBack.flatten(req).size());
    Path dir = publish(batch, 1);
    assertThat(TracesReadBack.readBack(dir)).containsExactlyElementsOf(TracesReadBack.flatten(req));
    assertThat(ArrowTables.read(dir, "resources.arrow").size()).as("the repeated resource is stored once").isEqualTo(2);
    try (Stream<Path> files = Files.list(dir)) {
      assertThat(files.map(p -> p.getFileName().toString())).containsExactlyInAnyOrder(
          "resources.arrow", "resource_attrs.arrow", "scopes.arrow", "scope_attrs.arrow", "spans.arrow",
          "span_attrs.arrow", "span_events.arrow", "span_event_attrs.arrow", "span_links.arrow",
          "span_link_attrs.arrow", "trace.idx", "attr.idx", "text.idx", "zone.idx", "census.idx");
    }
  }

  @Test
  void appendedBatchesRebaseIdsAndShareResources() throws Exception {
    ExportTraceServiceRequest a = sample();
    ExportTraceServiceRequest b = sample();
    Batch open = new TracesBatch();
    assertThat(open.tryAppend(decode(a))).isTrue();
    int spansOfA = open.rows();
    int eventsOfA = open.table(TracesBatch.SPAN_EVENTS).rows();
    assertThat(open.tryAppend(decode(b))).isTrue();
    assertThat(open.records()).isEqualTo(2L * spansOfA);
    Path dir = publish(open, 2);

    List<Flat> expected = new ArrayList<>(TracesReadBack.flatten(a));
    expected.addAll(TracesReadBack.flatten(b));
    assertThat(TracesReadBack.readBack(dir)).containsExactlyElementsOf(expected);
    assertThat(ArrowTables.read(dir, "resources.arrow").size()).isEqualTo(2);
    assertThat(ArrowTables.read(dir, "scopes.arrow").size()).isEqualTo(3);

    ArrowTables.Rows events = ArrowTables.read(dir, "span_events.arrow");
    assertThat(events.size()).isEqualTo(2 * eventsOfA);
    for (int i = 0; i < events.size(); i++) {
      assertThat(events.get(i).get("id")).as("event ids are dense").isEqualTo((long) i);
      long parent = (Long) events.get(i).get("parent_id");
      if (i < eventsOfA) {
        assertThat(parent).isLessThan(spansOfA);
      } else {
        assertThat(parent).as("the second batch's events point at its own spans").isGreaterThanOrEqualTo(spansOfA);
      }
    }
    ArrowTables.Rows eventAttrs = ArrowTables.read(dir, "span_event_attrs.arrow");
    assertThat((Long) eventAttrs.get(eventAttrs.size() - 1).get("parent_id")).isGreaterThanOrEqualTo(eventsOfA);
  }

  @Test
  void unsetOptionalFieldsReadBackAsNullAndAnUnsetNameAsEmpty() throws Exception {
    ExportTraceServiceRequest req = oneSpan(Span.newBuilder().setTraceId(TRACE).setSpanId(SPAN)
        .addEvents(Span.Event.getDefaultInstance()).addLinks(Span.Link.getDefaultInstance()));
    Path dir = publish(decode(req), 3);
    Map<String, Object> span = ArrowTables.read(dir, "spans.arrow").get(0);
    assertThat(span.get("parent_span_id")).isNull();
    assertThat(span.get("trace_state")).isNull();
    assertThat(span.get("flags")).isNull();
    assertThat(span.get("status_message")).isNull();
    assertThat(span.get("name")).isEqualTo("");
    assertThat(span.get("kind")).isEqualTo(0L);
    assertThat(span.get("status_code")).isEqualTo(0L);
    assertThat(span.get("start_time_unix_nano")).isEqualTo(0L);
    Map<String, Object> event = ArrowTables.read(dir, "span_events.arrow").get(0);
    assertThat(event.get("name")).isEqualTo("");
    assertThat(event.get("time_unix_nano")).isEqualTo(0L);
    Map<String, Object> link = ArrowTables.read(dir, "span_links.arrow").get(0);
    assertThat(link.get("trace_id")).isNull();
    assertThat(link.get("span_id")).isNull();
    assertThat(link.get("trace_state")).isNull();
    assertThat(link.get("flags")).isNull();
    assertThat(TracesReadBack.readBack(dir)).containsExactlyElementsOf(TracesReadBack.flatten(req));
  }

  @Test
  void aBlockWithoutEventsOrLinksHasNoFilesForThem() throws Exception {
    Path dir = publish(decode(oneSpan(minimal())), 4);
    assertThat(dir.resolve("spans.arrow")).exists();
    assertThat(dir.resolve("span_events.arrow")).doesNotExist();
    assertThat(dir.resolve("span_links.arrow")).doesNotExist();
    assertThat(dir.resolve("span_attrs.arrow")).doesNotExist();
  }

  @Test
  void blockTimeIsStartThenEndThenReceiveTime() throws Exception {
    ExportTraceServiceRequest req = ExportTraceServiceRequest.newBuilder().addResourceSpans(ResourceSpans.newBuilder()
        .addScopeSpans(ScopeSpans.newBuilder()
            .addSpans(minimal().setStartTimeUnixNano(T0 + 100).setEndTimeUnixNano(T0 + 900))
            .addSpans(minimal().setStartTimeUnixNano(0).setEndTimeUnixNano(T0 + 50))
            .addSpans(minimal().setStartTimeUnixNano(0).setEndTimeUnixNano(0)))).build();
    byte[] b = req.toByteArray();
    TracesBatch batch = new TracesDecoder().decode(b, 0, b.length, T0 + 500);
    assertThat(batch.minTime()).as("the second span's end time").isEqualTo(T0 + 50);
    assertThat(batch.maxTime()).as("the third span's receive time, not the first span's end").isEqualTo(T0 + 500);
    ArrowTables.Rows spans = ArrowTables.read(publish(batch, 5), "spans.arrow");
    assertThat(spans.get(1).get("start_time_unix_nano")).as("stored as sent").isEqualTo(0L);
    assertThat(spans.get(1).get("duration_nano")).isEqualTo(T0 + 50);
    assertThat(spans.get(2).get("end_time_unix_nano")).isEqualTo(0L);
  }

  @Test
  void aSpanSentInTwoPiecesDecodesAsProtobufMergesIt() throws Exception {
    // Protobuf merges a message whose fields arrive in two runs: scalars take the last value,
    // repeated fields concatenate, and the Status sub-message merges field by field.
    Span first = minimal().setName("first").addEvents(Span.Event.newBuilder().setName("e1"))
        .setStatus(Status.newBuilder().setMessage("kept")).build();
    Span second = Span.newBuilder().setName("second").addEvents(Span.Event.newBuilder().setName("e2"))
        .setStatus(Status.newBuilder().setCode(Status.StatusCode.STATUS_CODE_ERROR)).build();
    byte[] merged = concat(first.toByteArray(), second.toByteArray());
    byte[] req = field(1, field(2, field(2, merged)));
    Span expected = Span.parseFrom(merged);
    assertThat(expected.getStatus().getMessage()).isEqualTo("kept");
    List<Flat> back = TracesReadBack.readBack(publish(decode(req), 6));
    assertThat(back).hasSize(1);
    assertThat(back.get(0).span()).isEqualTo(expected);
  }

  @Test
  void aSpanWithoutATraceIdIsRefused() {
    ExportTraceServiceRequest req = ExportTraceServiceRequest.newBuilder().addResourceSpans(ResourceSpans.newBuilder()
        .addScopeSpans(ScopeSpans.newBuilder().addSpans(minimal()).addSpans(minimal().clearTraceId()))).build();
    assertThatThrownBy(() -> decode(req)).isInstanceOf(WireException.class)
        .hasMessage("resource_spans[0].scope_spans[0].spans[1].trace_id: is empty, expected 16 bytes");
  }

  @Test
  void aSpanWithoutASpanIdIsRefused() {
    assertThatThrownBy(() -> decode(oneSpan(minimal().setSpanId(ByteString.EMPTY)))).isInstanceOf(WireException.class)
        .hasMessage("resource_spans[0].scope_spans[0].spans[0].span_id: is empty, expected 8 bytes");
  }

  static Stream<Arguments> wrongLengthIds() {
    ByteString b31 = ByteString.copyFrom(new byte[31]);
    ByteString b15 = ByteString.copyFrom(new byte[15]);
    return Stream.of(
        Arguments.of(minimal().setTraceId(b15), "trace_id: has 15 bytes, expected 16"),
        Arguments.of(minimal().setTraceId(b31), "trace_id: has 31 bytes, expected 16"),
        Arguments.of(minimal().setSpanId(b31), "span_id: has 31 bytes, expected 8"),
        Arguments.of(minimal().setParentSpanId(b31), "parent_span_id: has 31 bytes, expected 8"),
        Arguments.of(minimal().addLinks(Span.Link.getDefaultInstance()).addLinks(Span.Link.newBuilder().setTraceId(b31)),
            "links[1].trace_id: has 31 bytes, expected 16"),
        Arguments.of(minimal().addLinks(Span.Link.newBuilder().setTraceId(TRACE).setSpanId(b31)),
            "links[0].span_id: has 31 bytes, expected 8"));
  }

  @ParameterizedTest
  @MethodSource("wrongLengthIds")
  void aWrongLengthIdIsRefusedNamingItsPath(Span.Builder bad, String message) {
    // The bad span is the eighth of the second scope of the second resource.
    ScopeSpans.Builder scope = ScopeSpans.newBuilder();
    for (int i = 0; i < 7; i++) {
      scope.addSpans(minimal());
    }
    scope.addSpans(bad);
    ResourceSpans good = ResourceSpans.newBuilder().addScopeSpans(ScopeSpans.newBuilder().addSpans(minimal())).build();
    ExportTraceServiceRequest req = ExportTraceServiceRequest.newBuilder().addResourceSpans(good)
        .addResourceSpans(ResourceSpans.newBuilder().addScopeSpans(ScopeSpans.newBuilder().addSpans(minimal()))
            .addScopeSpans(scope))
        .build();
    assertThatThrownBy(() -> decode(req)).isInstanceOf(WireException.class)
        .hasMessage("resource_spans[1].scope_spans[1].spans[7]." + message);
  }

  @Test
  void everyTruncationIsRefused() {
    // A single top-level field: every strict prefix is malformed. The top-level reader finds it
    // (a short tag, length or payload), before any path exists to name.
    byte[] b = ExportTraceServiceRequest.newBuilder().addResourceSpans(sample().getResourceSpans(0)).build()
        .toByteArray();
    for (int cut = 1; cut < b.length; cut++) {
      int n = cut;
      assertThatThrownBy(() -> new TracesDecoder().decode(b, 0, n, T0)).as("cut at " + n)
          .isInstanceOf(WireException.class);
    }
  }

  static Stream<Arguments> invalidUtf8() {
    return Stream.of(
        Arguments.of(minimal().setName(MARK), "spans[0].name: is not valid UTF-8"),
        Arguments.of(minimal().setTraceState(MARK), "spans[0].trace_state: is not valid UTF-8"),
        Arguments.of(minimal().setStatus(Status.newBuilder().setMessage(MARK)),
            "spans[0].status.message: is not valid UTF-8"),
        Arguments.of(minimal().addEvents(Span.Event.getDefaultInstance()).addEvents(Span.Event.newBuilder().setName(MARK)),
            "spans[0].events[1].name: is not valid UTF-8"),
        Arguments.of(minimal().addEvents(Span.Event.newBuilder().addAttributes(kv("k", str(MARK)))),
            "spans[0].events[0].attributes[0].value.string_value: is not valid UTF-8"),
        Arguments.of(minimal().addLinks(Span.Link.newBuilder().setTraceState(MARK)),
            "spans[0].links[0].trace_state: is not valid UTF-8"),
        Arguments.of(minimal().addLinks(Span.Link.newBuilder().addAttributes(kv(MARK, str("v")))),
            "spans[0].links[0].attributes[0].key: is not valid UTF-8"));
  }

  /** A string whose first byte {@link #corrupt} turns into 0xFF, which UTF-8 never contains. */
  static final String MARK = "~mark~";

  static byte[] corrupt(byte[] b) {
    byte[] m = MARK.getBytes(StandardCharsets.UTF_8);
    outer:
    for (int i = 0; i + m.length <= b.length; i++) {
      for (int j = 0; j < m.length; j++) {
        if (b[i + j] != m[j]) {
          continue outer;
        }
      }
      b[i] = (byte) 0xFF;
      return b;
    }
    throw new AssertionError("marker not found");
  }

  @ParameterizedTest
  @MethodSource("invalidUtf8")
  void invalidUtf8IsRefusedNamingItsPath(Span.Builder span, String message) {
    byte[] b = corrupt(oneSpan(span).toByteArray());
    assertThatThrownBy(() -> decode(b)).isInstanceOf(WireException.class)
        .hasMessage("resource_spans[0].scope_spans[0]." + message);
  }

  @Test
  void aStatusWithTheWrongWireTypeIsRefused() {
    byte[] span = concat(minimal().build().toByteArray(), new byte[] {(byte) (15 << 3), 1});
    assertThatThrownBy(() -> decode(field(1, field(2, field(2, span))))).isInstanceOf(WireException.class)
        .hasMessage("resource_spans[0].scope_spans[0].spans[0].status: has wire type 0, expected 2");
  }

  @Provide
  Arbitrary<ExportTraceServiceRequest> requests() {
    return Generators.tracesRequests();
  }

  @Property(tries = 60)
  void randomRequestsRoundTrip(@ForAll("requests") ExportTraceServiceRequest req) throws Exception {
    // jqwik properties do not get JUnit's @TempDir.
    Path dir = Files.createTempDirectory("mira-traces-prop");
    try {
      TracesBatch b = decode(req);
      assertThat(b.records()).isEqualTo(TracesReadBack.flatten(req).size());
      if (b.isEmpty()) {
        return;
      }
      assertThat(TracesReadBack.readBack(publish(dir, b, 0))).containsExactlyElementsOf(TracesReadBack.flatten(req));
    } finally {
      try (Stream<Path> s = Files.walk(dir)) {
        for (Path p : s.sorted(Comparator.reverseOrder()).toList()) {
          Files.delete(p);
        }
      }
    }
  }

  /** A length-delimited field {@code n} holding {@code payload}. */
  static byte[] field(int n, byte[] payload) throws Exception {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    CodedOutputStream c = CodedOutputStream.newInstance(out);
    c.writeByteArray(n, payload);
    c.flush();
    return out.toByteArray();
  }

  static byte[] concat(byte[] a, byte[] b) {
    byte[] out = new byte[a.length + b.length];
    System.arraycopy(a, 0, out, 0, a.length);
    System.arraycopy(b, 0, out, a.length, b.length);
    return out;
  }
}
