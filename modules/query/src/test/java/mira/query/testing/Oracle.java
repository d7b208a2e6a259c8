package mira.query.testing;

import com.google.protobuf.ByteString;
import io.opentelemetry.proto.common.v1.AnyValue;
import io.opentelemetry.proto.common.v1.InstrumentationScope;
import io.opentelemetry.proto.common.v1.KeyValue;
import io.opentelemetry.proto.logs.v1.LogRecord;
import io.opentelemetry.proto.resource.v1.Resource;
import io.opentelemetry.proto.trace.v1.Span;
import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Base64;
import java.util.HexFormat;
import java.util.List;
import java.util.Locale;
import java.util.regex.Pattern;
import mira.block.table.CanonicalText;
import mira.query.doc.Cursor;
import mira.query.doc.Op;
import mira.query.doc.RootField;
import mira.query.doc.Scalar;
import mira.query.doc.SearchQuery;
import mira.query.doc.Term;

/**
 * Brute-force evaluation of a query document over the protobuf objects that were ingested,
 * written from docs/api.md's comparison rules with no code shared with the engine.
 */
public final class Oracle {
  private Oracle() {}

  /** One stored row with everything around it, at its place in the total order. */
  public record Item(long time, int node, long seq, int row, Resource resource, String resourceSchema,
      InstrumentationScope scope, String scopeSchema, LogRecord log, Span span) {}

  /** Every item the query selects, in result order (newest first), ignoring the limit. */
  public static List<Item> select(SearchQuery q, List<Item> items) {
    List<Item> out = new ArrayList<>();
    for (Item it : items) {
      if (it.time < q.from() || it.time > q.to()) {
        continue;
      }
      if (q.after() != null && Cursor.compare(it.time, it.node, it.seq, it.row, q.after().time(), q.after().node(),
          q.after().seq(), q.after().row()) >= 0) {
        continue;
      }
      boolean ok = true;
      for (Term t : q.where()) {
        ok &= matches(t, it);
      }
      if (ok) {
        out.add(it);
      }
    }
    out.sort((a, b) -> Cursor.compare(b.time, b.node, b.seq, b.row, a.time, a.node, a.seq, a.row));
    return out;
  }

  static boolean matches(Term t, Item it) {
    return switch (t) {
      case Term.Attr a -> attr(a, it);
      case Term.AttrIn a -> a.values().stream().anyMatch(v -> attr(new Term.Attr(a.key(), Op.EQ, v), it));
      case Term.Field f -> field(f, it);
      case Term.FieldIn f -> f.values().stream().anyMatch(v -> field(new Term.Field(f.field(), Op.EQ, v), it));
      case Term.Text x -> text(x.text(), it);
      case Term.Entity e -> e.keys().contains(Expected.entity(it.resource));
      case Term.Not n -> !matches(n.term(), it);
    };
  }

  // ---- attributes at every level ----

  static boolean attr(Term.Attr a, Item it) {
    List<List<KeyValue>> levels = new ArrayList<>();
    levels.add(it.resource.getAttributesList());
    levels.add(it.scope.getAttributesList());
    if (it.log != null) {
      levels.add(it.log.getAttributesList());
    } else {
      levels.add(it.span.getAttributesList());
      for (Span.Event e : it.span.getEventsList()) {
        levels.add(e.getAttributesList());
      }
      for (Span.Link l : it.span.getLinksList()) {
        levels.add(l.getAttributesList());
      }
    }
    boolean present = false;
    boolean hit = false;
    for (List<KeyValue> level : levels) {
      for (KeyValue kv : level) {
        if (kv.getKey().equals(a.key())) {
          present = true;
          if (a.op() != Op.EXISTS && value(kv.getValue(), a.op(), a.value())) {
            hit = true;
          }
        }
      }
    }
    if (a.op() == Op.EXISTS) {
      return present == a.value().bool();
    }
    return hit;
  }

  /** A stored AnyValue against a query scalar, by the stored type. */
  public static boolean value(AnyValue v, Op op, Scalar q) {
    switch (v.getValueCase()) {
      case STRING_VALUE: {
        String s = v.getStringValue();
        if (op == Op.EQ) {
          return s.equals(q.text());
        }
        if (op == Op.CONTAINS) {
          return s.contains(q.text());
        }
        if (q.kind() == Scalar.Kind.STRING) {
          return op.accepts(codePointCompare(s, q.text()));
        }
        Object n = number(s);
        return n != null ? ordered(op, n, queryNumber(q)) : op.accepts(codePointCompare(s, q.text()));
      }
      case INT_VALUE:
        return scalarNumber(v.getIntValue(), Long.toString(v.getIntValue()), op, q);
      case DOUBLE_VALUE:
        return scalarNumber(v.getDoubleValue(), CanonicalText.ofDouble(v.getDoubleValue()), op, q);
      case BOOL_VALUE: {
        String text = Boolean.toString(v.getBoolValue());
        return switch (op) {
          case EQ -> q.kind() == Scalar.Kind.BOOL ? q.bool() == v.getBoolValue()
              : q.kind() == Scalar.Kind.STRING && q.text().equals(text);
          case CONTAINS -> text.contains(q.text());
          default -> false;
        };
      }
      case BYTES_VALUE: {
        String text = Base64.getEncoder().encodeToString(v.getBytesValue().toByteArray());
        return switch (op) {
          case EQ -> text.equals(q.text());
          case CONTAINS -> text.contains(q.text());
          default -> false;
        };
      }
      default:
        return false;
    }
  }

  private static boolean scalarNumber(Object n, String canon, Op op, Scalar q) {
    switch (op) {
      case EQ:
        if (q.kind() == Scalar.Kind.STRING) {
          return canon.equals(q.text());
        }
        if (!q.isNumber()) {
          return false;
        }
        Integer c = compareNumbers(n, queryNumber(q));
        return c != null && c == 0;
      case CONTAINS:
        return canon.contains(q.text());
      default:
        Object qn = q.isNumber() ? queryNumber(q) : q.kind() == Scalar.Kind.STRING ? number(q.text()) : null;
        return qn != null && ordered(op, n, qn);
    }
  }

  private static boolean ordered(Op op, Object a, Object b) {
    Integer c = compareNumbers(a, b);
    return c != null && op.accepts(c);
  }

  private static Object queryNumber(Scalar q) {
    return q.kind() == Scalar.Kind.INT ? (Object) q.longValue() : (Object) q.doubleValue();
  }

  /**
   * The number grammar of docs/api.md: an optional sign, then digits with an optional fraction
   * (which may be empty) or a fraction alone, then an optional exponent.
   */
  private static final Pattern NUMBER = Pattern.compile("[+-]?([0-9]+(\\.[0-9]*)?|\\.[0-9]+)([eE][+-]?[0-9]+)?");

  /** A number by that grammar as a Long (no fraction or exponent, in range) or a Double; null if not a number. */
  static Object number(String s) {
    if (!NUMBER.matcher(s).matches()) {
      return null;
    }
    if (!s.contains(".") && !s.contains("e") && !s.contains("E")) {
      try {
        return Long.parseLong(s);
      } catch (NumberFormatException e) {
        // too large: a double
      }
    }
    return Double.parseDouble(s);
  }

  /** Exact comparison of Longs and Doubles; null when unordered (NaN). */
  static Integer compareNumbers(Object a, Object b) {
    if (a instanceof Double d && Double.isNaN(d) || b instanceof Double e && Double.isNaN(e)) {
      return null;
    }
    if (a instanceof Double d && Double.isInfinite(d)) {
      return b instanceof Double e && e.equals(d) ? 0 : d > 0 ? 1 : -1;
    }
    if (b instanceof Double e && Double.isInfinite(e)) {
      return e > 0 ? -1 : 1;
    }
    BigDecimal x = a instanceof Long l ? BigDecimal.valueOf(l) : new BigDecimal((Double) a);
    BigDecimal y = b instanceof Long l ? BigDecimal.valueOf(l) : new BigDecimal((Double) b);
    return Integer.signum(x.compareTo(y));
  }

  static int codePointCompare(String a, String b) {
    return Integer.signum(java.util.Arrays.compareUnsigned(a.getBytes(StandardCharsets.UTF_8),
        b.getBytes(StandardCharsets.UTF_8)));
  }

  // ---- root fields ----

  static boolean field(Term.Field f, Item it) {
    RootField rf = f.field();
    boolean exists = f.op() == Op.EXISTS;
    switch (rf.kind()) {
      case INT: {
        long v = switch (rf) {
          case SEVERITY_NUMBER -> it.log.getSeverityNumberValue();
          case FLAGS -> Integer.toUnsignedLong(it.log.getFlags());
          case KIND -> it.span.getKindValue();
          case STATUS_CODE -> it.span.getStatus().getCodeValue();
          case DURATION_NANO -> it.span.getEndTimeUnixNano() - it.span.getStartTimeUnixNano();
          default -> throw new IllegalStateException(rf.toString());
        };
        return exists ? (v != 0) == f.value().bool() : value(AnyValue.newBuilder().setIntValue(v).build(), f.op(), f.value());
      }
      case STRING: {
        String s = switch (rf) {
          case SEVERITY_TEXT -> it.log.getSeverityText();
          case EVENT_NAME -> it.log.getEventName();
          case NAME -> it.span.getName();
          default -> throw new IllegalStateException(rf.toString());
        };
        return exists ? !s.isEmpty() == f.value().bool()
            : value(AnyValue.newBuilder().setStringValue(s).build(), f.op(), f.value());
      }
      case ID: {
        ByteString id = switch (rf) {
          case TRACE_ID -> it.log != null ? it.log.getTraceId() : it.span.getTraceId();
          case SPAN_ID -> it.log != null ? it.log.getSpanId() : it.span.getSpanId();
          case PARENT_SPAN_ID -> it.span.getParentSpanId();
          default -> throw new IllegalStateException(rf.toString());
        };
        if (exists) {
          return !id.isEmpty() == f.value().bool();
        }
        if (id.isEmpty()) {
          return false;
        }
        String hex = HexFormat.of().formatHex(id.toByteArray());
        String q = f.value().text().toLowerCase(Locale.ROOT);
        return switch (f.op()) {
          case EQ -> hex.equals(q);
          case CONTAINS -> hex.contains(q);
          default -> f.op().accepts(Integer.signum(hex.compareTo(q)));
        };
      }
      default: {
        if (exists) {
          return it.log.hasBody() == f.value().bool();
        }
        return it.log.hasBody() && value(it.log.getBody(), f.op(), f.value());
      }
    }
  }

  // ---- text ----

  static boolean text(String needle, Item it) {
    if (it.log != null) {
      return it.log.hasBody() && strings(it.log.getBody(), needle);
    }
    return it.span.getName().contains(needle) || it.span.getStatus().getMessage().contains(needle);
  }

  private static boolean strings(AnyValue v, String needle) {
    return switch (v.getValueCase()) {
      case STRING_VALUE -> v.getStringValue().contains(needle);
      case ARRAY_VALUE -> v.getArrayValue().getValuesList().stream().anyMatch(x -> strings(x, needle));
      case KVLIST_VALUE -> v.getKvlistValue().getValuesList().stream().anyMatch(kv -> strings(kv.getValue(), needle));
      default -> false;
    };
  }
}
