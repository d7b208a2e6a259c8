package mira.query.match;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Base64;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import mira.block.table.CanonicalText;
import mira.block.table.NumericText;
import mira.query.doc.Op;
import mira.query.doc.Scalar;

/**
 * One term's operator and value, compiled for comparison against stored values of every type.
 * The comparison follows the stored type, not the query's (docs/api.md, "How values compare"):
 *
 * <ul>
 *   <li>eq: numbers against numbers compare numerically; every other pairing compares the stored
 *       value's canonical text ({@link CanonicalText}) with the query's, so {@code "200"} finds a
 *       stored 200 and {@code 200} finds a stored {@code "200"} (but not {@code "200.0"}).
 *   <li>gt/gte/lt/lte: a stored string against a quoted query is a text comparison (code point
 *       order); against an unquoted number the string is read as a number by {@link NumericText}
 *       — the grammar {@code zone.idx} was built with, so the index and the scan read every
 *       string alike — and if it is not one the comparison falls back to text. A stored number against a quoted query reads the query
 *       as a number (no match if it is not one). Booleans, bytes, arrays, kvlists and empty values
 *       never order.
 *   <li>contains: the stored scalar's canonical text contains the query's canonical text.
 *   <li>exists: any value, of any type, matches.
 * </ul>
 *
 * <p>Not thread-safe (it keeps a scratch number); compile one per scanning thread.
 */
public final class ValueMatcher {
  private final Op op;
  private final Scalar q;
  private final byte[] qText;
  /** The query as a number, if it is one or (for a quoted query) reads as one. */
  private final boolean qNumeric;
  private final boolean qIsLong;
  private final long qLong;
  private final double qDouble;
  /** A quoted query that is the canonical text of a long: eq against stored integers. */
  private final boolean qCanonLong;
  private final NumericText scratch = new NumericText();
  /** For {@link Op#IN}: one eq matcher per value, and their texts for stored strings. */
  private final ValueMatcher[] alts;
  private final Set<String> altTexts;
  private final Set<java.nio.ByteBuffer> altUtf8;
  private final Set<Long> altLongs;
  private final ValueMatcher[] altNonLongs;

  /**
   * A matcher for {@code op} against {@code q}. Not for {@link Op#IN}, which has a list: see
   * {@link #anyOf}.
   */
  public ValueMatcher(Op op, Scalar q) {
    if (op == Op.IN) {
      throw new IllegalArgumentException("in takes a list: use ValueMatcher.anyOf");
    }
    this.alts = null;
    this.altTexts = null;
    this.altUtf8 = null;
    this.altLongs = null;
    this.altNonLongs = null;
    this.op = op;
    this.q = q;
    this.qText = q.utf8();
    switch (q.kind()) {
      case INT -> {
        qNumeric = true;
        qIsLong = true;
        qLong = q.longValue();
        qDouble = q.longValue();
        qCanonLong = false;
      }
      case DOUBLE -> {
        qNumeric = true;
        qIsLong = false;
        qLong = 0;
        qDouble = q.doubleValue();
        qCanonLong = false;
      }
      case STRING -> {
        NumericText p = new NumericText();
        int kind = p.parse(qText, 0, qText.length);
        qNumeric = kind != NumericText.NONE;
        qIsLong = kind == NumericText.LONG;
        qLong = qIsLong ? p.longValue() : 0;
        qDouble = qIsLong ? p.longValue() : kind == NumericText.DOUBLE ? p.doubleValue() : 0;
        qCanonLong = qIsLong && Long.toString(qLong).equals(q.text());
      }
      default -> {
        qNumeric = false;
        qIsLong = false;
        qLong = 0;
        qDouble = 0;
        qCanonLong = false;
      }
    }
  }

  /**
   * {@link Op#IN}: a stored value matches if {@code eq} would match it against at least one of
   * {@code values}. A stored string is one hash lookup (eq on a string is equality with the
   * query's text, whatever its type); a stored integer is one lookup plus a comparison per value
   * that is not an integer; other stored types try each value.
   */
  public static ValueMatcher anyOf(List<Scalar> values) {
    return new ValueMatcher(values);
  }

  private ValueMatcher(List<Scalar> values) {
    this.op = Op.IN;
    this.q = Scalar.string("");
    this.qText = new byte[0];
    this.qNumeric = false;
    this.qIsLong = false;
    this.qLong = 0;
    this.qDouble = 0;
    this.qCanonLong = false;
    this.alts = new ValueMatcher[values.size()];
    this.altTexts = new HashSet<>();
    this.altUtf8 = new HashSet<>();
    this.altLongs = new HashSet<>();
    List<ValueMatcher> nonLongs = new ArrayList<>();
    for (int i = 0; i < alts.length; i++) {
      Scalar v = values.get(i);
      alts[i] = new ValueMatcher(Op.EQ, v);
      altTexts.add(v.text());
      altUtf8.add(java.nio.ByteBuffer.wrap(v.utf8()));
      if (v.kind() == Scalar.Kind.INT) {
        altLongs.add(v.longValue());
      } else if (v.kind() == Scalar.Kind.STRING && alts[i].qCanonLong) {
        altLongs.add(alts[i].qLong);
      } else if (v.kind() == Scalar.Kind.DOUBLE) {
        nonLongs.add(alts[i]);
      }
    }
    this.altNonLongs = nonLongs.toArray(new ValueMatcher[0]);
  }

  public Op op() {
    return op;
  }

  /** A stored string (UTF-8 bytes). */
  public boolean str(byte[] b, int off, int len) {
    if (alts != null) {
      return altUtf8.contains(java.nio.ByteBuffer.wrap(b, off, len));
    }
    switch (op) {
      case EQ:
        return Bytes.equals(b, off, len, qText);
      case CONTAINS:
        return Bytes.contains(b, off, len, qText);
      case EXISTS:
        return true;
      default:
        if (q.kind() != Scalar.Kind.STRING) {
          int kind = scratch.parse(b, off, len);
          if (kind != NumericText.NONE) {
            int c = kind == NumericText.LONG ? compareToQuery(scratch.longValue()) : compareToQuery(scratch.doubleValue());
            return c != Numbers.UNORDERED && op.accepts(c);
          }
        }
        return op.accepts(Bytes.compare(b, off, len, qText));
    }
  }

  /** A stored 64-bit integer (also used for narrower integer columns). */
  public boolean i64(long v) {
    if (alts != null) {
      if (altLongs.contains(v)) {
        return true;
      }
      for (ValueMatcher m : altNonLongs) {
        if (m.i64(v)) {
          return true;
        }
      }
      return false;
    }
    switch (op) {
      case EQ:
        if (q.kind() == Scalar.Kind.STRING) {
          return qCanonLong && v == qLong;
        }
        return q.isNumber() && compareToQuery(v) == 0;
      case CONTAINS:
        return Long.toString(v).contains(q.text());
      case EXISTS:
        return true;
      default:
        if (!qNumeric) {
          return false;
        }
        int c = compareToQuery(v);
        return c != Numbers.UNORDERED && op.accepts(c);
    }
  }

  /** A stored double. */
  public boolean f64(double v) {
    if (alts != null) {
      for (ValueMatcher m : alts) {
        if (m.f64(v)) {
          return true;
        }
      }
      return false;
    }
    switch (op) {
      case EQ:
        if (q.kind() == Scalar.Kind.STRING) {
          return CanonicalText.ofDouble(v).equals(q.text());
        }
        return q.isNumber() && compareToQuery(v) == 0;
      case CONTAINS:
        return CanonicalText.ofDouble(v).contains(q.text());
      case EXISTS:
        return true;
      default:
        if (!qNumeric) {
          return false;
        }
        int c = compareToQuery(v);
        return c != Numbers.UNORDERED && op.accepts(c);
    }
  }

  /** A stored boolean. */
  public boolean bool(boolean v) {
    if (alts != null) {
      for (ValueMatcher m : alts) {
        if (m.bool(v)) {
          return true;
        }
      }
      return false;
    }
    return switch (op) {
      case EQ -> q.kind() == Scalar.Kind.BOOL ? v == q.bool()
          : q.kind() == Scalar.Kind.STRING && q.text().equals(v ? "true" : "false");
      case CONTAINS -> (v ? "true" : "false").contains(q.text());
      case EXISTS -> true;
      default -> false;
    };
  }

  /** Stored bytes: their canonical text is standard padded base64. */
  public boolean bytes(byte[] b, int off, int len) {
    if (alts != null) {
      byte[] copy = new byte[len];
      System.arraycopy(b, off, copy, 0, len);
      return altTexts.contains(Base64.getEncoder().encodeToString(copy));
    }
    return switch (op) {
      case EQ, CONTAINS -> {
        byte[] copy = new byte[len];
        System.arraycopy(b, off, copy, 0, len);
        String text = Base64.getEncoder().encodeToString(copy);
        yield op == Op.EQ ? text.equals(q.text()) : text.contains(q.text());
      }
      case EXISTS -> true;
      default -> false;
    };
  }

  /** An array, kvlist or empty value: only exists selects one. */
  public boolean structured() {
    return op == Op.EXISTS;
  }

  /** Stored long vs the query number. */
  private int compareToQuery(long v) {
    return qIsLong ? Long.compare(v, qLong) : Numbers.compare(v, qDouble);
  }

  /** Stored double vs the query number. */
  private int compareToQuery(double v) {
    if (qIsLong) {
      int c = Numbers.compare(qLong, v);
      return c == Numbers.UNORDERED ? c : -c;
    }
    return Numbers.compare(v, qDouble);
  }

  /** The query's canonical text as UTF-8. */
  public byte[] text() {
    return qText;
  }

  static byte[] utf8(String s) {
    return s.getBytes(StandardCharsets.UTF_8);
  }
}
