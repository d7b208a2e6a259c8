package mira.server.testing;

import com.google.protobuf.ByteString;
import io.opentelemetry.proto.collector.logs.v1.ExportLogsServiceRequest;
import io.opentelemetry.proto.common.v1.AnyValue;
import io.opentelemetry.proto.common.v1.KeyValue;
import io.opentelemetry.proto.logs.v1.LogRecord;
import io.opentelemetry.proto.logs.v1.ResourceLogs;
import io.opentelemetry.proto.logs.v1.ScopeLogs;
import io.opentelemetry.proto.resource.v1.Resource;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.util.zip.GZIPOutputStream;

/** Hand-built OTLP requests and encoded bodies for the receiver and end-to-end tests. */
public final class Samples {
  private Samples() {}

  /** A logs export with {@code records} records whose bodies are "line 0", "line 1", ... */
  public static ExportLogsServiceRequest logs(int records) {
    ScopeLogs.Builder scope = ScopeLogs.newBuilder();
    for (int i = 0; i < records; i++) {
      scope.addLogRecords(LogRecord.newBuilder()
          .setTimeUnixNano(1_700_000_000_000_000_000L + i)
          .setSeverityNumberValue(9)
          .setBody(AnyValue.newBuilder().setStringValue("line " + i))
          .setTraceId(ByteString.copyFrom(new byte[16])));
    }
    return ExportLogsServiceRequest.newBuilder().addResourceLogs(ResourceLogs.newBuilder()
        .setResource(Resource.newBuilder().addAttributes(KeyValue.newBuilder().setKey("service.name")
            .setValue(AnyValue.newBuilder().setStringValue("receiver-test"))))
        .addScopeLogs(scope)).build();
  }

  /** A logs export whose record bodies are random hex, so it compresses only about two to one. */
  public static ExportLogsServiceRequest noisyLogs(int records, long seed) {
    java.util.Random random = new java.util.Random(seed);
    ScopeLogs.Builder scope = ScopeLogs.newBuilder();
    for (int i = 0; i < records; i++) {
      scope.addLogRecords(LogRecord.newBuilder()
          .setTimeUnixNano(1_700_000_000_000_000_000L + i)
          .setBody(AnyValue.newBuilder().setStringValue(Long.toHexString(random.nextLong())
              + Long.toHexString(random.nextLong()) + Long.toHexString(random.nextLong()))));
    }
    return ExportLogsServiceRequest.newBuilder().addResourceLogs(ResourceLogs.newBuilder().addScopeLogs(scope)).build();
  }

  public static byte[] gzip(byte[] plain) throws IOException {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    try (OutputStream gz = new GZIPOutputStream(out)) {
      gz.write(plain);
    }
    return out.toByteArray();
  }

  /** {@code zeros} zero bytes, gzipped by streaming (never held uncompressed). */
  public static byte[] gzippedZeros(long zeros) throws IOException {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    byte[] chunk = new byte[1 << 16];
    try (OutputStream gz = new GZIPOutputStream(out, 1 << 16)) {
      for (long left = zeros; left > 0; left -= chunk.length) {
        gz.write(chunk, 0, (int) Math.min(chunk.length, left));
      }
    }
    return out.toByteArray();
  }
}
