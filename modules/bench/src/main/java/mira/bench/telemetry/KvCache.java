package mira.bench.telemetry;

import io.opentelemetry.proto.common.v1.KeyValue;
import java.util.HashMap;
import java.util.Map;

/**
 * Built attributes for low-cardinality key/value pairs (routes, methods, status codes, service
 * names), so that each is built once per stream rather than once per record. Not thread-safe: one
 * per stream.
 */
final class KvCache {
  private final Map<String, Map<String, KeyValue>> strings = new HashMap<>();
  private final Map<String, Map<Long, KeyValue>> ints = new HashMap<>();

  KeyValue str(String key, String value) {
    Map<String, KeyValue> byValue = strings.computeIfAbsent(key, k -> new HashMap<>());
    KeyValue kv = byValue.get(value);
    if (kv == null) {
      kv = Kv.of(key, value);
      byValue.put(value, kv);
    }
    return kv;
  }

  KeyValue integer(String key, long value) {
    Map<Long, KeyValue> byValue = ints.computeIfAbsent(key, k -> new HashMap<>());
    KeyValue kv = byValue.get(value);
    if (kv == null) {
      kv = Kv.of(key, value);
      byValue.put(value, kv);
    }
    return kv;
  }
}
