package mira.query.result;

import java.util.Objects;

/** One key and its value, as stored (attribute lists may repeat a key; order is kept). */
public record Attribute(String key, Value value) {
  public Attribute {
    Objects.requireNonNull(key);
    Objects.requireNonNull(value);
  }
}
