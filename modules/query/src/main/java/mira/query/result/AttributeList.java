package mira.query.result;

import java.util.List;

/**
 * The answer of {@code GET /api/v1/attributes}, before rendering: every attribute key carried by
 * the records of a signal in a window, at each level it was seen.
 *
 * <p>Everything is a count, so answers of several nodes merge exactly: sum the counts of equal
 * (level, key) pairs and take the union of their types.
 *
 * @param signal logs or traces
 * @param records records of the signal in the window (what the counts are out of)
 * @param keys sorted by level (resource, scope, record), then count (highest first), then key
 */
public record AttributeList(String signal, long records, List<Key> keys, Stats stats, List<Refused> refused) {
  public AttributeList {
    keys = List.copyOf(keys);
    refused = List.copyOf(refused);
  }

  /** Where a key was seen: on the resource, on the instrumentation scope, or on the record (the log or span) itself. */
  public static final List<String> LEVELS = List.of("resource", "scope", "record");

  /**
   * One key at one level.
   *
   * @param level one of {@link #LEVELS}
   * @param types the value types seen, in {@link #TYPES} order
   * @param count records that carry the key at this level (a resource's key counts each of its records)
   */
  public record Key(String level, String key, List<String> types, long count) {
    public Key {
      types = List.copyOf(types);
    }
  }

  /** Value type names, in the order answers list them. */
  public static final List<String> TYPES = List.of("string", "int", "double", "bool", "bytes", "map", "array", "empty");
}
