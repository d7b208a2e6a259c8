package mira.query.testing;

import static mira.query.testing.JsonTree.obj;

import com.google.protobuf.ByteString;
import io.opentelemetry.proto.common.v1.AnyValue;
import io.opentelemetry.proto.common.v1.InstrumentationScope;
import io.opentelemetry.proto.common.v1.KeyValue;
import io.opentelemetry.proto.logs.v1.LogRecord;
import io.opentelemetry.proto.resource.v1.Resource;
import io.opentelemetry.proto.trace.v1.Span;
import java.util.AbstractMap;
import java.util.ArrayList;
import java.util.Base64;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;

/**
 * What a rendered row must look like, built from the protobuf objects that were ingested — the
 * rendering oracle, written against docs/api.md rather than against the renderer.
 */
public final class Expected {
  private Expected() {}

  public static Object value(AnyValue v) {
    return switch (v.getValueCase()) {
      case STRING_VALUE -> v.getStringValue();
      case BOOL_VALUE -> v.getBoolValue();
      case INT_VALUE -> Long.toString(v.getIntValue());
      case DOUBLE_VALUE -> {
        double d = v.getDoubleValue();
        yield Double.isNaN(d) ? "NaN" : d == Double.POSITIVE_INFINITY ? "Infinity"
            : d == Double.NEGATIVE_INFINITY ? "-Infinity" : (Object) d;
      }
      case BYTES_VALUE -> Base64.getEncoder().encodeToString(v.getBytesValue().toByteArray());
      case ARRAY_VALUE -> {
        List<Object> l = new ArrayList<>();
        for (AnyValue x : v.getArrayValue().getValuesList()) {
          l.add(value(x));
        }
        yield l;
      }
      case KVLIST_VALUE -> attributes(v.getKvlistValue().getValuesList());
      default -> null;
    };
  }

  public static JsonTree.Obj attributes(List<KeyValue> kvs) {
    List<Map.Entry<String, Object>> m = new ArrayList<>();
    for (KeyValue kv : kvs) {
      m.add(new AbstractMap.SimpleImmutableEntry<>(kv.getKey(), kv.hasValue() ? value(kv.getValue()) : null));
    }
    return new JsonTree.Obj(m);
  }

  public static String hex(ByteString b) {
    return HexFormat.of().formatHex(b.toByteArray());
  }

  public static JsonTree.Obj resource(Resource r, String schemaUrl) {
    long key = entity(r);
    JsonTree.Obj o = obj("attributes", attributes(r.getAttributesList()),
        "dropped_attributes_count", (long) r.getDroppedAttributesCount(),
        "entity", key == 0 ? null : String.format("%016x", key));
    return schemaUrl.isEmpty() ? o : with(o, "schema_url", schemaUrl);
  }

  /**
   * The entity key of a resource, by the identity rule of docs/architecture.md written out again
   * here (not the writer's code): the first rule whose attributes are present, the rule's number
   * and the present parts FNV-1a hashed with a murmur finaliser; 0 when no rule applies.
   */
  public static long entity(Resource r) {
    Map<String, String> v = new java.util.HashMap<>();
    for (KeyValue kv : r.getAttributesList()) {
      AnyValue a = kv.getValue();
      if (!kv.hasValue()) {
        continue;
      }
      String text = switch (a.getValueCase()) {
        case STRING_VALUE -> a.getStringValue();
        case INT_VALUE -> Long.toString(a.getIntValue());
        case BOOL_VALUE -> Boolean.toString(a.getBoolValue());
        case DOUBLE_VALUE -> mira.block.table.CanonicalText.ofDouble(a.getDoubleValue());
        case BYTES_VALUE -> Base64.getEncoder().encodeToString(a.getBytesValue().toByteArray());
        default -> null;
      };
      if (text != null) {
        v.put(kv.getKey(), text);
      }
    }
    String[][] rules = {
      {"1", "service.name", "service.instance.id", "+service.namespace"},
      {"2", "k8s.pod.uid", "+k8s.container.name"},
      {"3", "container.id"},
      {"4", "host.id", "+process.pid"},
      {"4", "host.name", "+process.pid"},
      {"5", "service.name", "+service.namespace"},
    };
    for (String[] rule : rules) {
      boolean all = true;
      for (int i = 1; i < rule.length; i++) {
        all &= rule[i].startsWith("+") || v.containsKey(rule[i]);
      }
      if (!all) {
        continue;
      }
      long h = 0xcbf29ce484222325L;
      h = (h ^ Integer.parseInt(rule[0])) * 0x100000001b3L;
      for (int i = 1; i < rule.length; i++) {
        String k = rule[i].startsWith("+") ? rule[i].substring(1) : rule[i];
        if (!v.containsKey(k)) {
          continue;
        }
        for (byte b : (k + "\0" + v.get(k) + "\0").getBytes(java.nio.charset.StandardCharsets.UTF_8)) {
          h = (h ^ (b & 0xFF)) * 0x100000001b3L;
        }
      }
      h ^= h >>> 33;
      h *= 0xff51afd7ed558ccdL;
      h ^= h >>> 33;
      h *= 0xc4ceb9fe1a85ec53L;
      h ^= h >>> 33;
      return h == 0 ? 1 : h;
    }
    return 0;
  }

  public static JsonTree.Obj scope(InstrumentationScope s, String schemaUrl) {
    JsonTree.Obj o = obj("name", s.getName(), "version", s.getVersion(),
        "attributes", attributes(s.getAttributesList()),
        "dropped_attributes_count", (long) s.getDroppedAttributesCount());
    return schemaUrl.isEmpty() ? o : with(o, "schema_url", schemaUrl);
  }

  private static JsonTree.Obj with(JsonTree.Obj o, String k, Object v) {
    List<Map.Entry<String, Object>> m = new ArrayList<>(o.members());
    m.add(new AbstractMap.SimpleImmutableEntry<>(k, v));
    return new JsonTree.Obj(m);
  }

  /** A log row; {@code time} is the stored time (the record's, else observed, else receive time). */
  public static JsonTree.Obj log(long time, Resource res, String resSchema, InstrumentationScope scope,
      String scopeSchema, LogRecord r) {
    return obj(
        "time_unix_nano", Long.toString(time),
        "observed_time_unix_nano", Long.toString(r.getObservedTimeUnixNano()),
        "severity_number", (long) r.getSeverityNumberValue(),
        "severity_text", r.getSeverityText(),
        "event_name", r.getEventName(),
        "body", r.hasBody() ? value(r.getBody()) : null,
        "trace_id", hex(r.getTraceId()),
        "span_id", hex(r.getSpanId()),
        "flags", Integer.toUnsignedLong(r.getFlags()),
        "attributes", attributes(r.getAttributesList()),
        "dropped_attributes_count", (long) r.getDroppedAttributesCount(),
        "resource", resource(res, resSchema),
        "scope", scope(scope, scopeSchema));
  }

  public static JsonTree.Obj span(Resource res, String resSchema, InstrumentationScope scope, String scopeSchema,
      Span s) {
    List<Object> events = new ArrayList<>();
    for (Span.Event e : s.getEventsList()) {
      events.add(obj("time_unix_nano", Long.toString(e.getTimeUnixNano()), "name", e.getName(),
          "attributes", attributes(e.getAttributesList()),
          "dropped_attributes_count", (long) e.getDroppedAttributesCount()));
    }
    List<Object> links = new ArrayList<>();
    for (Span.Link l : s.getLinksList()) {
      links.add(obj("trace_id", hex(l.getTraceId()), "span_id", hex(l.getSpanId()), "trace_state", l.getTraceState(),
          "flags", Integer.toUnsignedLong(l.getFlags()), "attributes", attributes(l.getAttributesList()),
          "dropped_attributes_count", (long) l.getDroppedAttributesCount()));
    }
    return obj(
        "trace_id", hex(s.getTraceId()),
        "span_id", hex(s.getSpanId()),
        "parent_span_id", hex(s.getParentSpanId()),
        "trace_state", s.getTraceState(),
        "flags", Integer.toUnsignedLong(s.getFlags()),
        "name", s.getName(),
        "kind", (long) s.getKindValue(),
        "start_time_unix_nano", Long.toString(s.getStartTimeUnixNano()),
        "end_time_unix_nano", Long.toString(s.getEndTimeUnixNano()),
        "duration_nano", Long.toString(s.getEndTimeUnixNano() - s.getStartTimeUnixNano()),
        "status", obj("code", (long) s.getStatus().getCodeValue(), "message", s.getStatus().getMessage()),
        "attributes", attributes(s.getAttributesList()),
        "dropped_attributes_count", (long) s.getDroppedAttributesCount(),
        "events", events,
        "dropped_events_count", (long) s.getDroppedEventsCount(),
        "links", links,
        "dropped_links_count", (long) s.getDroppedLinksCount(),
        "resource", resource(res, resSchema),
        "scope", scope(scope, scopeSchema));
  }
}
