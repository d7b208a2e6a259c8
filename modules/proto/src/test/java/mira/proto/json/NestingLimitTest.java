package mira.proto.json;

import static org.assertj.core.api.Assertions.assertThat;

import io.opentelemetry.proto.common.v1.AnyValue;
import io.opentelemetry.proto.logs.v1.LogRecord;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

/**
 * Hostile nesting and sizes end in an {@link OtlpJsonException}, never a StackOverflowError;
 * legitimate sizes near the limits still decode.
 */
class NestingLimitTest {
  private static final int HOSTILE_DEPTH = 100_000;

  @Test
  void deeplyNestedAnyValueIsRefusedWithoutStackOverflow() throws Exception {
    StringBuilder sb = new StringBuilder();
    sb.append("{\"resourceLogs\":[{\"scopeLogs\":[{\"logRecords\":[{\"body\":");
    sb.append("{\"arrayValue\":{\"values\":[".repeat(HOSTILE_DEPTH));
    sb.append("{\"intValue\":\"1\"}");
    sb.append("]}}".repeat(HOSTILE_DEPTH));
    sb.append("}]}]}]}");
    assertThat(decodeOnSmallStack(sb.toString()))
        .isInstanceOf(OtlpJsonException.class)
        .hasMessageEndingWith(": nesting deeper than 64 levels of AnyValue");
  }

  @Test
  void deeplyNestedKvlistIsRefusedWithoutStackOverflow() throws Exception {
    String open = "{\"kvlistValue\":{\"values\":[{\"key\":\"k\",\"value\":";
    String json = Docs.attribute(open.repeat(HOSTILE_DEPTH) + "{}" + "}]}}".repeat(HOSTILE_DEPTH));
    assertThat(decodeOnSmallStack(json))
        .isInstanceOf(OtlpJsonException.class)
        .hasMessageEndingWith(": nesting deeper than 64 levels of AnyValue");
  }

  @Test
  void anyValueAtTheLimitDecodesAndOneMoreIsRefused() throws Exception {
    LogRecord r = Docs.decodeLogRecord("\"body\":" + kvlists(OtlpJson.MAX_ANY_VALUE_DEPTH));
    int levels = 1;
    for (AnyValue v = r.getBody(); v.hasKvlistValue(); v = v.getKvlistValue().getValues(0).getValue()) {
      levels++;
    }
    assertThat(levels).isEqualTo(OtlpJson.MAX_ANY_VALUE_DEPTH);
    Docs.refusedAsLogs(Docs.logRecord("\"body\":" + kvlists(OtlpJson.MAX_ANY_VALUE_DEPTH + 1)))
        .withMessageEndingWith("nesting deeper than 64 levels of AnyValue");
  }

  @Test
  void deeplyNestedUnknownFieldIsRefusedAtTheJsonDepthLimit() {
    String json = Docs.logRecord("\"future\":" + "[".repeat(HOSTILE_DEPTH) + "]".repeat(HOSTILE_DEPTH));
    Docs.refusedAsLogs(json)
        .withMessageEndingWith(": nesting deeper than 512 levels of JSON objects and arrays");
  }

  @Test
  void multiMegabyteStringsDecode() throws Exception {
    // Past Jackson's default cap of 20 million characters, which OTLP bodies may exceed.
    String big = "x".repeat(24 * 1024 * 1024);
    LogRecord r = Docs.decodeLogRecord("\"body\":{\"stringValue\":\"" + big + "\"}");
    assertThat(r.getBody().getStringValue()).hasSize(big.length());
  }

  @Test
  void overlongFieldNameAndNumberAreRefusedByName() {
    Docs.refusedAsLogs(Docs.logRecord("\"" + "n".repeat(5000) + "\":1"))
        .withMessageEndingWith(": a field name longer than 1024 characters");
    Docs.refusedAsLogs(Docs.logRecord("\"flags\":" + "1".repeat(5000)))
        .withMessageEndingWith(".flags: a number longer than 1000 characters");
  }

  /**
   * Decodes on a thread with a 256 KiB stack, a sixteenth of what the tests otherwise get, so
   * the refusal is shown to come from the depth check and not from a generous -Xss; returns what
   * was thrown, or null.
   */
  private static Throwable decodeOnSmallStack(String json) throws InterruptedException {
    byte[] body = Docs.utf8(json);
    AtomicReference<Throwable> thrown = new AtomicReference<>();
    Runnable decode = () -> {
      try {
        OtlpJson.decodeLogs(body, 0, body.length);
      } catch (Throwable t) {
        thrown.set(t);
      }
    };
    Thread t = new Thread(null, decode, "small-stack-decode", 256 * 1024);
    t.start();
    t.join();
    return thrown.get();
  }

  /** A kvlist body {@code levels} AnyValues deep; the innermost holds a string. */
  private static String kvlists(int levels) {
    String open = "{\"kvlistValue\":{\"values\":[{\"key\":\"k\",\"value\":";
    return open.repeat(levels - 1) + "{\"stringValue\":\"leaf\"}" + "}]}}".repeat(levels - 1);
  }
}
