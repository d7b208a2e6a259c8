package mira.server.otlp;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import com.google.protobuf.Any;
import com.google.rpc.Code;
import com.google.rpc.RetryInfo;
import com.google.rpc.Status;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.time.Duration;

/** The google.rpc.Status bodies and trailers both transports answer with, and the shared messages. */
final class Statuses {
  private static final JsonFactory JSON = JsonFactory.builder().build();

  private Statuses() {}

  static Status of(Code code, String message) {
    return Status.newBuilder().setCode(code.getNumber()).setMessage(message).build();
  }

  /** UNAVAILABLE carrying RetryInfo, so a client knows when to try again. */
  static Status retry(String message, Duration after) {
    com.google.protobuf.Duration delay = com.google.protobuf.Duration.newBuilder()
        .setSeconds(after.getSeconds()).setNanos(after.getNano()).build();
    return Status.newBuilder().setCode(Code.UNAVAILABLE.getNumber()).setMessage(message)
        .addDetails(Any.pack(RetryInfo.newBuilder().setRetryDelay(delay).build())).build();
  }

  /** Whole seconds for a Retry-After header: rounded up, never below one. */
  static long retryAfterSeconds(Duration after) {
    long s = after.getSeconds() + (after.getNano() > 0 ? 1 : 0);
    return Math.max(1, s);
  }

  /**
   * The JSON form of a Status, {@code {"code":N,"message":"..."}}. Details are left out: a JSON
   * {@code Any} needs its type registered in the client's parser, and a parser that does not know
   * RetryInfo would fail on the whole body; HTTP carries the delay in Retry-After instead.
   */
  static byte[] json(Status status) {
    ByteArrayOutputStream out = new ByteArrayOutputStream(32 + status.getMessage().length());
    try (JsonGenerator g = JSON.createGenerator(out)) {
      g.writeStartObject();
      g.writeNumberField("code", status.getCode());
      g.writeStringField("message", status.getMessage());
      g.writeEndObject();
    } catch (IOException e) {
      throw new UncheckedIOException(e); // a ByteArrayOutputStream does not fail
    }
    return out.toByteArray();
  }

  static String tooLarge(String what, int limit) {
    return what + " exceeds ingest.max_request_bytes (" + limit + " bytes); raise ingest.max_request_bytes"
        + " or lower the sender's batch size";
  }
}
