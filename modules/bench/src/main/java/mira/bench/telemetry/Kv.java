package mira.bench.telemetry;

import io.opentelemetry.proto.common.v1.AnyValue;
import io.opentelemetry.proto.common.v1.KeyValue;

/**
 * OTLP attributes. Messages are immutable, so a low-cardinality attribute is built once and the
 * same instance added to every record that carries it; only high-cardinality values (request ids,
 * durations, prompts) are built per record.
 */
final class Kv {
  private Kv() {}

  static KeyValue of(String k, String v) {
    return KeyValue.newBuilder().setKey(k).setValue(AnyValue.newBuilder().setStringValue(v)).build();
  }

  static KeyValue of(String k, long v) {
    return KeyValue.newBuilder().setKey(k).setValue(AnyValue.newBuilder().setIntValue(v)).build();
  }

  static KeyValue of(String k, double v) {
    return KeyValue.newBuilder().setKey(k).setValue(AnyValue.newBuilder().setDoubleValue(v)).build();
  }

  static KeyValue of(String k, boolean v) {
    return KeyValue.newBuilder().setKey(k).setValue(AnyValue.newBuilder().setBoolValue(v)).build();
  }

  /** {@code n} lowercase hex digits of {@code v}, zero-padded on the left. */
  static String hex(long v, int n) {
    char[] c = new char[n];
    for (int i = n - 1; i >= 0; i--) {
      c[i] = Character.forDigit((int) (v & 15), 16);
      v >>>= 4;
    }
    return new String(c);
  }
}
