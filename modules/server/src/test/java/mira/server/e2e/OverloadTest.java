package mira.server.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import com.google.rpc.Code;
import com.google.rpc.RetryInfo;
import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import io.grpc.protobuf.StatusProto;
import io.opentelemetry.proto.collector.logs.v1.ExportLogsServiceRequest;
import io.opentelemetry.proto.common.v1.AnyValue;
import io.opentelemetry.proto.common.v1.KeyValue;
import io.opentelemetry.proto.logs.v1.LogRecord;
import io.opentelemetry.proto.logs.v1.ResourceLogs;
import io.opentelemetry.proto.logs.v1.ScopeLogs;
import io.opentelemetry.proto.resource.v1.Resource;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import mira.block.testing.LogsReadBack;
import mira.proto.wire.Signal;
import mira.server.config.Key;
import mira.server.ingest.Ingest;
import mira.server.ingest.Stats;
import mira.server.testing.HttpExchange;
import mira.server.testing.RawGrpcClient;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A node with one flusher and a one-slot queue per signal, hit by many exporters at once over
 * OTLP/HTTP and OTLP/gRPC. Every export is either acknowledged (200 / OK) or shed (503 with
 * Retry-After and RetryInfo / UNAVAILABLE with RetryInfo), nothing else; a shed export waited the
 * admission wait first; and the published blocks hold exactly the acknowledged exports, record for
 * record: none acknowledged is missing and, since an export is acknowledged only once its block is
 * published, none shed is stored.
 *
 * <p>The admission wait is shortened from the production {@link Ingest#ADMIT_WAIT} (5 s) to 2 ms.
 * The flusher is only busy for long while it seals and publishes a block (measured on a 2-core
 * machine: with a 100 ms wait about half the exports are shed, with 500 ms none are), so with 5 s
 * nothing is ever shed on this load and the test would prove nothing about shedding. Each gRPC
 * exporter has its own channel, as separate SDKs would; on one shared channel the gRPC calls
 * trickle in and are hardly ever shed.
 */
class OverloadTest {
  private static final int HTTP_EXPORTERS = 64;
  private static final int GRPC_EXPORTERS = 16;
  private static final int EXPORTS_EACH = 4;
  private static final int RECORDS = 200;
  private static final Duration ADMIT_WAIT = Duration.ofMillis(2);

  enum Transport { HTTP, GRPC }

  enum Verdict { ACKNOWLEDGED, SHED }

  record Result(String marker, ExportLogsServiceRequest request, Transport transport, Verdict verdict, long nanos) {}

  @TempDir Path data;

  @Test
  void everyExportIsAcknowledgedOrShedAndTheBlocksHoldExactlyTheAcknowledged() throws Exception {
    List<Result> results = new CopyOnWriteArrayList<>();
    List<String> unexpected = new CopyOnWriteArrayList<>();
    long started = System.nanoTime();
    try (Node node = new Node(data, Map.of(Key.INGEST_QUEUE, "1", Key.INGEST_SHARDS, "1"), ADMIT_WAIT)) {
      CountDownLatch go = new CountDownLatch(1);
      List<Future<?>> exporters = new ArrayList<>();
      try (ExecutorService threads = Executors.newVirtualThreadPerTaskExecutor()) {
        for (int e = 0; e < HTTP_EXPORTERS + GRPC_EXPORTERS; e++) {
          Transport t = e < HTTP_EXPORTERS ? Transport.HTTP : Transport.GRPC;
          int exporter = e;
          exporters.add(threads.submit(() -> {
            RawGrpcClient grpc = t == Transport.GRPC ? new RawGrpcClient(node.grpcTarget()) : null;
            try {
              go.await();
              for (int i = 0; i < EXPORTS_EACH; i++) {
                String marker = "x" + exporter + "-" + i;
                ExportLogsServiceRequest request = logs(marker);
                long t0 = System.nanoTime();
                Verdict v = t == Transport.HTTP ? viaHttp(node, request, unexpected, marker) : viaGrpc(grpc, request, unexpected, marker);
                if (v != null) {
                  results.add(new Result(marker, request, t, v, System.nanoTime() - t0));
                }
              }
            } finally {
              if (grpc != null) {
                grpc.close();
              }
            }
            return null;
          }));
        }
        go.countDown();
        for (Future<?> f : exporters) {
          f.get(60, TimeUnit.SECONDS);
        }
      }
      long exportMillis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - started);

      assertThat(unexpected).as("answers other than acknowledged or shed with a retry hint").isEmpty();
      assertThat(results).hasSize((HTTP_EXPORTERS + GRPC_EXPORTERS) * EXPORTS_EACH);
      List<Result> acked = results.stream().filter(r -> r.verdict() == Verdict.ACKNOWLEDGED).toList();
      List<Result> shed = results.stream().filter(r -> r.verdict() == Verdict.SHED).toList();
      Map<String, Long> counts = new TreeMap<>();
      for (Result r : results) {
        counts.merge(r.transport() + " " + r.verdict(), 1L, Long::sum);
      }
      System.out.println("overload: " + counts + " in " + exportMillis + " ms");
      for (Transport t : Transport.values()) {
        for (Verdict v : Verdict.values()) {
          assertThat(counts).as("exports %s over %s", v, t).containsKey(t + " " + v);
        }
      }
      assertThat(shed).as("shed only after the admission wait")
          .allSatisfy(r -> assertThat(r.nanos()).isGreaterThanOrEqualTo(ADMIT_WAIT.toNanos()));

      // Published blocks, every one, against the acknowledged requests.
      List<LogsReadBack.Flat> stored = Stored.logs(node);
      Map<String, Integer> storedPerMarker = new HashMap<>();
      for (LogsReadBack.Flat f : stored) {
        String body = f.record().getBody().getStringValue();
        storedPerMarker.merge(body.substring(0, body.indexOf(' ')), 1, Integer::sum);
      }
      Map<String, Integer> ackedPerMarker = new HashMap<>();
      for (Result r : acked) {
        ackedPerMarker.put(r.marker(), RECORDS);
      }
      assertThat(storedPerMarker).as("records stored per export marker").isEqualTo(ackedPerMarker);
      Map<LogsReadBack.Flat, Integer> expected = new HashMap<>();
      for (Result r : acked) {
        for (LogsReadBack.Flat f : Stored.expectedLogs(r.request())) {
          expected.merge(f, 1, Integer::sum);
        }
      }
      Map<LogsReadBack.Flat, Integer> actual = new HashMap<>();
      for (LogsReadBack.Flat f : stored) {
        actual.merge(f, 1, Integer::sum);
      }
      assertThat(actual.equals(expected)).as("stored records equal the acknowledged ones, field by field").isTrue();

      Stats.Counters c = node.ingest.stats().of(Signal.LOGS);
      assertThat(c.exportsAccepted.sum()).isEqualTo(acked.size());
      assertThat(c.recordsAccepted.sum()).isEqualTo((long) acked.size() * RECORDS);
      assertThat(c.exportsShed.sum()).isEqualTo(shed.size());
      assertThat(c.recordsShed.sum()).isEqualTo((long) shed.size() * RECORDS);
      assertThat(c.exportsInvalid.sum() + c.recordsFailed.sum() + c.publishFailures.sum()).isZero();
    }
  }

  /** 200 / 503 with Retry-After and a Status carrying RetryInfo; anything else goes to {@code unexpected}. */
  private static Verdict viaHttp(Node node, ExportLogsServiceRequest request, List<String> unexpected, String marker) {
    try {
      HttpExchange x = HttpExchange.post(node.http() + "/v1/logs", "application/x-protobuf", null, request.toByteArray());
      if (x.status() == 200) {
        return Verdict.ACKNOWLEDGED;
      }
      if (x.status() == 503) {
        String retryAfter = x.header("Retry-After");
        com.google.rpc.Status s = com.google.rpc.Status.parseFrom(x.body());
        if (retryAfter != null && Long.parseLong(retryAfter) >= 1 && s.getCode() == Code.UNAVAILABLE_VALUE
            && s.getDetailsCount() == 1 && s.getDetails(0).is(RetryInfo.class)
            && positive(s.getDetails(0).unpack(RetryInfo.class))) {
          return Verdict.SHED;
        }
      }
      unexpected.add(marker + " over HTTP: " + x.status() + " Retry-After " + x.header("Retry-After") + " " + x.text());
    } catch (Exception e) {
      unexpected.add(marker + " over HTTP: " + e);
    }
    return null;
  }

  /** OK / UNAVAILABLE with RetryInfo in grpc-status-details-bin; anything else goes to {@code unexpected}. */
  private static Verdict viaGrpc(RawGrpcClient grpc, ExportLogsServiceRequest request, List<String> unexpected, String marker) {
    try {
      grpc.export(Signal.LOGS, request.toByteArray(), null);
      return Verdict.ACKNOWLEDGED;
    } catch (StatusRuntimeException e) {
      com.google.rpc.Status s = StatusProto.fromThrowable(e);
      try {
        if (e.getStatus().getCode() == Status.Code.UNAVAILABLE && s != null && s.getDetailsCount() == 1
            && s.getDetails(0).is(RetryInfo.class) && positive(s.getDetails(0).unpack(RetryInfo.class))) {
          return Verdict.SHED;
        }
      } catch (Exception bad) {
        unexpected.add(marker + " over gRPC: unreadable details " + bad);
        return null;
      }
      unexpected.add(marker + " over gRPC: " + e.getStatus() + " details " + s);
    } catch (Throwable e) {
      unexpected.add(marker + " over gRPC: " + e);
    }
    return null;
  }

  private static boolean positive(RetryInfo r) {
    return r.getRetryDelay().getSeconds() > 0 || r.getRetryDelay().getNanos() > 0;
  }

  /** {@value #RECORDS} records whose bodies start with the export's marker. */
  private static ExportLogsServiceRequest logs(String marker) {
    ScopeLogs.Builder scope = ScopeLogs.newBuilder();
    for (int i = 0; i < RECORDS; i++) {
      scope.addLogRecords(LogRecord.newBuilder()
          .setTimeUnixNano(1_700_000_000_000_000_000L + i)
          .setSeverityNumberValue(9)
          .setBody(AnyValue.newBuilder().setStringValue(marker + " #" + i))
          .addAttributes(KeyValue.newBuilder().setKey("i").setValue(AnyValue.newBuilder().setIntValue(i))));
    }
    return ExportLogsServiceRequest.newBuilder().addResourceLogs(ResourceLogs.newBuilder()
        .setResource(Resource.newBuilder().addAttributes(KeyValue.newBuilder().setKey("service.name")
            .setValue(AnyValue.newBuilder().setStringValue("overload"))))
        .addScopeLogs(scope)).build();
  }
}
