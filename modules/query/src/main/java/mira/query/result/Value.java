package mira.query.result;

import java.util.Arrays;
import java.util.HexFormat;
import java.util.List;

/**
 * A stored value in its OTLP type (an {@code AnyValue}): what an attribute or a log body holds.
 * Arrays and key-value lists keep their elements in stored order, repeated keys included.
 *
 * <p>Values read back from a JSON answer ({@code mira.client}) cannot tell an int64 or bytes from
 * a string, because the answer writes both as text (docs/api.md): such values come back as
 * {@link Str} holding the decimal or base64 text.
 */
public sealed interface Value {
  /** A UTF-8 string. */
  record Str(String value) implements Value {
    public Str {
      java.util.Objects.requireNonNull(value);
    }
  }

  record Bool(boolean value) implements Value {}

  /** A signed 64-bit integer. */
  record Int(long value) implements Value {}

  /** A double; NaN equals NaN here (records compare doubles with {@link Double#compare}). */
  record F64(double value) implements Value {}

  /** Raw bytes; compared by content. */
  record Bytes(byte[] value) implements Value {
    public Bytes {
      value = value.clone();
    }

    @Override
    public byte[] value() {
      return value.clone();
    }

    @Override
    public boolean equals(Object o) {
      return o instanceof Bytes b && Arrays.equals(value, b.value);
    }

    @Override
    public int hashCode() {
      return Arrays.hashCode(value);
    }

    @Override
    public String toString() {
      return "Bytes[" + HexFormat.of().formatHex(value) + "]";
    }
  }

  /** An array of values. */
  record Array(List<Value> values) implements Value {
    public Array {
      values = List.copyOf(values);
    }
  }

  /** A key-value list; a key whose value was unset holds {@link Empty}. */
  record KvList(List<Attribute> entries) implements Value {
    public KvList {
      entries = List.copyOf(entries);
    }
  }

  /** A value that was sent with no field set. */
  record Empty() implements Value {
    public static final Empty INSTANCE = new Empty();
  }
}
