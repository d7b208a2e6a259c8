package mira.bench.telemetry;

import static org.assertj.core.api.Assertions.assertThat;

import com.google.protobuf.ByteString;
import io.opentelemetry.proto.collector.logs.v1.ExportLogsServiceRequest;
import io.opentelemetry.proto.collector.metrics.v1.ExportMetricsServiceRequest;
import io.opentelemetry.proto.collector.trace.v1.ExportTraceServiceRequest;
import io.opentelemetry.proto.common.v1.KeyValue;
import io.opentelemetry.proto.logs.v1.LogRecord;
import io.opentelemetry.proto.logs.v1.ResourceLogs;
import io.opentelemetry.proto.logs.v1.ScopeLogs;
import io.opentelemetry.proto.logs.v1.SeverityNumber;
import io.opentelemetry.proto.metrics.v1.Metric;
import io.opentelemetry.proto.metrics.v1.NumberDataPoint;
import io.opentelemetry.proto.metrics.v1.ResourceMetrics;
import io.opentelemetry.proto.metrics.v1.ScopeMetrics;
import io.opentelemetry.proto.resource.v1.Resource;
import io.opentelemetry.proto.trace.v1.ResourceSpans;
import io.opentelemetry.proto.trace.v1.ScopeSpans;
import io.opentelemetry.proto.trace.v1.Span;
import io.opentelemetry.proto.trace.v1.Status;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** The promised shapes of the synthetic telemetry, and that it is a function of the seed. */
class TelemetryStreamTest {
  private static final long NOW = 1_767_225_600_000_000_000L;
  private static final Set<String> HIT = Set.of(Incident.SERVICES);

  /** A span with the service that emitted it. */
  record Emitted(String service, Span span) {}

  /** A log record with the service that wrote it. */
  record Written(String service, LogRecord record) {}

  static String attr(List<KeyValue> attrs, String key) {
    for (KeyValue kv : attrs) {
      if (kv.getKey().equals(key)) return kv.getValue().hasStringValue() ? kv.getValue().getStringValue()
          : kv.getValue().toString();
    }
    return null;
  }

  static String service(Resource r) {
    return attr(r.getAttributesList(), "service.name");
  }

  static List<Emitted> spans(ExportTraceServiceRequest req) {
    List<Emitted> out = new ArrayList<>();
    for (ResourceSpans rs : req.getResourceSpansList()) {
      for (ScopeSpans ss : rs.getScopeSpansList()) {
        for (Span s : ss.getSpansList()) out.add(new Emitted(service(rs.getResource()), s));
      }
    }
    return out;
  }

  static List<Written> logs(ExportLogsServiceRequest req) {
    List<Written> out = new ArrayList<>();
    for (ResourceLogs rl : req.getResourceLogsList()) {
      for (ScopeLogs sl : rl.getScopeLogsList()) {
        for (LogRecord r : sl.getLogRecordsList()) out.add(new Written(service(rl.getResource()), r));
      }
    }
    return out;
  }

  static int points(ExportMetricsServiceRequest req) {
    int n = 0;
    for (ResourceMetrics rm : req.getResourceMetricsList()) {
      for (ScopeMetrics sm : rm.getScopeMetricsList()) {
        for (Metric m : sm.getMetricsList()) {
          n += switch (m.getDataCase()) {
            case SUM -> m.getSum().getDataPointsCount();
            case GAUGE -> m.getGauge().getDataPointsCount();
            case HISTOGRAM -> m.getHistogram().getDataPointsCount();
            default -> throw new AssertionError(m.getDataCase());
          };
        }
      }
    }
    return n;
  }

  private static List<byte[]> session(long seed, int stream) {
    TelemetryStream s = new TelemetryStream(new Fleet(seed), seed, stream);
    List<byte[]> out = new ArrayList<>();
    out.add(s.logs(500, NOW, false).toByteArray());
    out.add(s.traces(700, NOW + 1_000_000_000L, false).toByteArray());
    out.add(s.metrics(3000, NOW + 2_000_000_000L, true).toByteArray());
    out.add(s.logs(900, NOW + 3_000_000_000L, true).toByteArray());
    out.add(s.traces(2000, NOW + 4_000_000_000L, true).toByteArray());
    return out;
  }

  @Test
  void sameSeedAndCallsGiveIdenticalBytes() {
    List<byte[]> a = session(42, 3);
    List<byte[]> b = session(42, 3);
    for (int i = 0; i < a.size(); i++) {
      assertThat(b.get(i)).as("export %d", i).isEqualTo(a.get(i));
    }
  }

  @Test
  void anotherSeedOrStreamGivesOtherData() {
    List<byte[]> a = session(42, 3);
    List<byte[]> otherSeed = session(43, 3);
    List<byte[]> otherStream = session(42, 4);
    for (int i = 0; i < a.size(); i++) {
      assertThat(Arrays.equals(a.get(i), otherSeed.get(i))).as("seed, export %d", i).isFalse();
      assertThat(Arrays.equals(a.get(i), otherStream.get(i))).as("stream, export %d", i).isFalse();
    }
  }

  @Test
  void exportsHoldExactlyTheRecordsAskedFor() {
    TelemetryStream s = new TelemetryStream(new Fleet(1), 1, 0);
    for (int n : new int[] {1, 7, 1024, 8192}) {
      assertThat(logs(s.logs(n, NOW, false))).hasSize(n);
      assertThat(spans(s.traces(n, NOW, false))).hasSize(n);
      assertThat(points(s.metrics(n, NOW, false))).isEqualTo(n);
    }
  }

  @Test
  void fleetHasDozensOfServicesAndPodsWithKubernetesResources() {
    Fleet f = new Fleet(7);
    assertThat(f.serviceCount()).isGreaterThanOrEqualTo(24);
    assertThat(f.podCount()).isGreaterThanOrEqualTo(3 * f.serviceCount());
    ExportLogsServiceRequest req = new TelemetryStream(f, 7, 0).logs(8192, NOW, false);
    Set<String> services = new HashSet<>();
    Set<String> pods = new HashSet<>();
    for (ResourceLogs rl : req.getResourceLogsList()) {
      List<KeyValue> a = rl.getResource().getAttributesList();
      for (String key : List.of("service.name", "service.instance.id", "service.version", "k8s.pod.name",
          "k8s.namespace.name", "k8s.node.name", "k8s.deployment.name", "host.name")) {
        assertThat(attr(a, key)).as(key).isNotNull();
      }
      services.add(attr(a, "service.name"));
      pods.add(attr(a, "k8s.pod.name"));
    }
    assertThat(services).hasSizeGreaterThanOrEqualTo(24);
    assertThat(pods).hasSizeGreaterThanOrEqualTo(72);
  }

  @Test
  void aboutFortyPercentOfLogsCarryTheContextOfGeneratedSpans() {
    TelemetryStream s = new TelemetryStream(new Fleet(5), 5, 0);
    Map<ByteString, Set<ByteString>> spansByTrace = new HashMap<>();
    for (int i = 0; i < 2; i++) {  // 16,384 spans: every one still in the stream's memory of spans
      for (Emitted e : spans(s.traces(8192, NOW, false))) {
        spansByTrace.computeIfAbsent(e.span().getTraceId(), k -> new HashSet<>()).add(e.span().getSpanId());
      }
    }
    List<Written> logs = logs(s.logs(8192, NOW, false));
    int traced = 0;
    for (Written w : logs) {
      LogRecord r = w.record();
      if (r.getTraceId().isEmpty()) {
        assertThat(r.getSpanId()).isEmpty();
        continue;
      }
      traced++;
      assertThat(spansByTrace).as("a traced log's trace was generated").containsKey(r.getTraceId());
      assertThat(spansByTrace.get(r.getTraceId())).as("and so was its span").contains(r.getSpanId());
    }
    double share = traced / (double) logs.size();
    assertThat(share).isBetween(TelemetryStream.LOG_TRACED_FRACTION - 0.03, TelemetryStream.LOG_TRACED_FRACTION + 0.03);
  }

  @Test
  void logsWrittenBeforeAnyTraceNameTracesTheStreamSendsNext() {
    TelemetryStream s = new TelemetryStream(new Fleet(9), 9, 1);
    Set<ByteString> promised = new HashSet<>();
    for (Written w : logs(s.logs(1000, NOW, false))) {
      if (!w.record().getTraceId().isEmpty()) promised.add(w.record().getTraceId());
    }
    assertThat(promised).isNotEmpty();
    Set<ByteString> sent = new HashSet<>();
    for (int i = 0; i < 2; i++) {
      for (Emitted e : spans(s.traces(8192, NOW, false))) sent.add(e.span().getTraceId());
    }
    assertThat(sent).containsAll(promised);
  }

  @Test
  void spansFormTreesAcrossServicesWithExceptionEvents() {
    List<Emitted> all = spans(new TelemetryStream(new Fleet(3), 3, 0).traces(8192, NOW, true));
    Map<ByteString, Span> byId = new HashMap<>();
    for (Emitted e : all) byId.put(e.span().getSpanId(), e.span());
    Set<ByteString> roots = new HashSet<>();
    Set<String> services = new HashSet<>();
    int exceptions = 0;
    for (Emitted e : all) {
      Span s = e.span();
      services.add(e.service());
      assertThat(s.getEndTimeUnixNano()).isGreaterThanOrEqualTo(s.getStartTimeUnixNano());
      assertThat(s.getEndTimeUnixNano()).as("traces end before now").isLessThanOrEqualTo(NOW);
      if (s.getParentSpanId().isEmpty()) {
        roots.add(s.getTraceId());
      } else {
        Span parent = byId.get(s.getParentSpanId());
        assertThat(parent).as("parent of %s is in the export", s.getName()).isNotNull();
        assertThat(parent.getTraceId()).isEqualTo(s.getTraceId());
        assertThat(s.getStartTimeUnixNano()).isGreaterThanOrEqualTo(parent.getStartTimeUnixNano());
      }
      for (Span.Event ev : s.getEventsList()) {
        if (ev.getName().equals("exception")) {
          exceptions++;
          assertThat(attr(ev.getAttributesList(), "exception.type")).isNotBlank();
          assertThat(attr(ev.getAttributesList(), "exception.stacktrace")).contains("\tat ");
          assertThat(s.getStatus().getCode()).isEqualTo(Status.StatusCode.STATUS_CODE_ERROR);
        }
      }
    }
    assertThat(roots.size()).as("many traces").isGreaterThan(200);
    assertThat(services).as("traces cross services").hasSizeGreaterThan(20);
    assertThat(exceptions).isPositive();
  }

  @Test
  void someTracesCarryMultiKilobyteGenAiPromptsAndCompletions() {
    TelemetryStream s = new TelemetryStream(new Fleet(11), 11, 0);
    int traces = 0;
    int genai = 0;
    for (int i = 0; i < 4; i++) {
      for (Emitted e : spans(s.traces(8192, NOW, false))) {
        Span span = e.span();
        if (span.getParentSpanId().isEmpty()) traces++;
        String prompt = attr(span.getAttributesList(), "gen_ai.prompt");
        if (prompt == null) continue;
        genai++;
        assertThat(e.service()).isEqualTo("llm-gateway");
        assertThat(attr(span.getAttributesList(), "gen_ai.request.model")).isNotBlank();
        assertThat(prompt.length()).isBetween(TelemetryStream.GENAI_MIN_BYTES, TelemetryStream.GENAI_MAX_BYTES);
        String completion = attr(span.getAttributesList(), "gen_ai.completion");
        if (span.getStatus().getCode() != Status.StatusCode.STATUS_CODE_ERROR) {
          assertThat(completion.length()).isBetween(TelemetryStream.GENAI_MIN_BYTES, TelemetryStream.GENAI_MAX_BYTES);
        }
      }
    }
    double share = genai / (double) traces;
    assertThat(share).as("share of traces with a model call")
        .isBetween(TelemetryStream.GENAI_TRACE_FRACTION / 2, TelemetryStream.GENAI_TRACE_FRACTION * 1.5);
  }

  @Test
  void requestIdsAreHighCardinality() {
    Set<String> ids = new HashSet<>();
    List<Written> logs = logs(new TelemetryStream(new Fleet(2), 2, 0).logs(8192, NOW, false));
    for (Written w : logs) ids.add(attr(w.record().getAttributesList(), "request.id"));
    assertThat(ids).hasSizeGreaterThan(8000);
  }

  /** Error share and median duration of server spans of the incident's services, and the rest. */
  private static double[] spanFigures(ExportTraceServiceRequest req, boolean hit) {
    List<Long> durations = new ArrayList<>();
    int errors = 0;
    for (Emitted e : spans(req)) {
      if (HIT.contains(e.service()) != hit || e.span().getKind() != Span.SpanKind.SPAN_KIND_SERVER) continue;
      durations.add(e.span().getEndTimeUnixNano() - e.span().getStartTimeUnixNano());
      if (e.span().getStatus().getCode() == Status.StatusCode.STATUS_CODE_ERROR) errors++;
    }
    durations.sort(null);
    return new double[] {errors / (double) durations.size(), durations.get(durations.size() / 2)};
  }

  @Test
  void incidentRaisesErrorsAndLatencyOfItsServicesOnly() {
    Fleet f = new Fleet(13);
    ExportTraceServiceRequest calm = new TelemetryStream(f, 13, 0).traces(20_000, NOW, false);
    ExportTraceServiceRequest storm = new TelemetryStream(f, 13, 0).traces(20_000, NOW, true);
    double[] calmHit = spanFigures(calm, true);
    double[] stormHit = spanFigures(storm, true);
    assertThat(stormHit[0]).as("error share of hit services").isGreaterThan(5 * calmHit[0]).isGreaterThan(0.1);
    assertThat(stormHit[1]).as("median duration of hit services").isGreaterThan(3 * calmHit[1]);
    double[] calmRest = spanFigures(calm, false);
    double[] stormRest = spanFigures(storm, false);
    assertThat(stormRest[1]).as("median duration elsewhere").isLessThan(1.5 * calmRest[1]);

    double calmLogErrors = logErrorShare(new TelemetryStream(f, 13, 1).logs(20_000, NOW, false));
    double stormLogErrors = logErrorShare(new TelemetryStream(f, 13, 1).logs(20_000, NOW, true));
    assertThat(stormLogErrors).as("ERROR logs of hit services").isGreaterThan(5 * calmLogErrors);

    assertThat(cpuOfHitPods(new TelemetryStream(f, 13, 2).metrics(3000, NOW, true)))
        .isGreaterThan(cpuOfHitPods(new TelemetryStream(f, 13, 2).metrics(3000, NOW, false)) + 0.3);
  }

  private static double logErrorShare(ExportLogsServiceRequest req) {
    int n = 0;
    int errors = 0;
    for (Written w : logs(req)) {
      if (!HIT.contains(w.service())) continue;
      n++;
      if (w.record().getSeverityNumber() == SeverityNumber.SEVERITY_NUMBER_ERROR) errors++;
    }
    return errors / (double) n;
  }

  private static double cpuOfHitPods(ExportMetricsServiceRequest req) {
    double sum = 0;
    int n = 0;
    for (ResourceMetrics rm : req.getResourceMetricsList()) {
      if (!HIT.contains(service(rm.getResource()))) continue;
      for (Metric m : rm.getScopeMetrics(0).getMetricsList()) {
        if (!m.getName().equals("process.cpu.utilization")) continue;
        for (NumberDataPoint p : m.getGauge().getDataPointsList()) {
          sum += p.getAsDouble();
          n++;
        }
      }
    }
    return sum / n;
  }

  @Test
  void metricsHaveCountersThatNeverFallGaugesAndHistograms() {
    TelemetryStream s = new TelemetryStream(new Fleet(17), 17, 0);
    Map<String, Long> last = new HashMap<>();
    Set<String> kinds = new HashSet<>();
    for (int i = 0; i < 4; i++) {
      ExportMetricsServiceRequest req = s.metrics(8192, NOW + i * 10_000_000_000L, i == 2);
      for (ResourceMetrics rm : req.getResourceMetricsList()) {
        String pod = attr(rm.getResource().getAttributesList(), "k8s.pod.name");
        for (Metric m : rm.getScopeMetrics(0).getMetricsList()) {
          kinds.add(m.getDataCase() + (m.hasSum() && m.getSum().getIsMonotonic() ? "/monotonic" : ""));
          if (m.hasHistogram()) {
            m.getHistogram().getDataPointsList().forEach(p -> {
              assertThat(p.getBucketCountsCount()).isEqualTo(p.getExplicitBoundsCount() + 1);
              assertThat(p.getBucketCountsList().stream().mapToLong(Long::longValue).sum()).isEqualTo(p.getCount());
            });
          }
          if (!m.hasSum() || !m.getSum().getIsMonotonic()) continue;
          for (NumberDataPoint p : m.getSum().getDataPointsList()) {
            String series = pod + attr(p.getAttributesList(), "http.route")
                + attr(p.getAttributesList(), "http.response.status_code_class");
            Long before = last.put(series, p.getAsInt());
            if (before != null) assertThat(p.getAsInt()).as(series).isGreaterThanOrEqualTo(before);
          }
        }
      }
    }
    assertThat(kinds).contains("SUM/monotonic", "SUM", "GAUGE", "HISTOGRAM");
  }
}
