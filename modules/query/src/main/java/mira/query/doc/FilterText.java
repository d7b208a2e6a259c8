package mira.query.doc;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import mira.proto.wire.Signal;
import mira.query.result.Entities;
import mira.query.result.QueryException;

/**
 * The text form of a {@code where} list, as a filter bar shows it:
 * {@code service.name=checkout severity_number>=17 http.route~"/api" k8s.pod.name? timeout}.
 *
 * <p>Terms are separated by whitespace; all of them apply. A term is one of
 *
 * <ul>
 *   <li>a bare or quoted word alone: a {@link Term.Text} (substring) term;
 *   <li>{@code key OP value} with OP one of {@code = != > >= < <= ~} ({@code ~} is contains);
 *       {@code key=[a,b]} and {@code key!=[a,b]} for {@code in};
 *   <li>{@code key?}: the key exists; {@code -key?}: it does not;
 *   <li>{@code entity=<16 hex>}, {@code entity=[…]}, {@code entity!=…}: an entity term;
 *   <li>any of these after {@code -}: its negation ({@code -k=v} is {@code k!=v}).
 * </ul>
 *
 * An unquoted key naming a root column of the signal is a field term; any other key, and every
 * quoted key, is an attribute. Unquoted values are typed as JSON would type them ({@code true},
 * {@code 200}, {@code 0.5}); a quoted value is always a string, and so is every value of a trace
 * or span id. {@link #print} writes the one canonical spelling that {@link #parse} reads back to
 * the same terms.
 *
 * <p>Thread-safe; every method is a pure function of its arguments.
 */
public final class FilterText {
  private static final String SPECIALS = "\"=!<>~?[],";

  private FilterText() {}

  /**
   * Parses a filter text.
   *
   * @param signal which root columns unquoted keys may name; {@link Signal#METRICS} has none,
   *     and null means any signal's (for surfaces that show terms before a signal is chosen)
   * @throws FilterTextException naming the offending token and its column (1-based)
   */
  public static List<Term> parse(Signal signal, String text) throws FilterTextException {
    return new Parser(signal, text).terms();
  }

  /** The canonical text of {@code terms}. */
  public static String print(List<Term> terms) {
    StringBuilder b = new StringBuilder();
    for (Term t : terms) {
      if (!b.isEmpty()) {
        b.append(' ');
      }
      print(t, b);
    }
    return b.toString();
  }

  private static void print(Term t, StringBuilder b) {
    switch (t) {
      case Term.Text x -> word(x.text(), b);
      case Term.Attr a -> comparison(attrKey(a.key()), a.op(), a.value(), false, false, b);
      case Term.Field f -> comparison(f.field().key(), f.op(), f.value(), false, f.field().kind() == RootField.Kind.ID, b);
      case Term.AttrIn a -> list(attrKey(a.key()), "=", a.values(), false, b);
      case Term.FieldIn f -> list(f.field().key(), "=", f.values(), f.field().kind() == RootField.Kind.ID, b);
      case Term.Entity e -> entity("=", e, b);
      case Term.Not n -> {
        switch (n.term()) {
          case Term.Attr a when a.op() == Op.EQ -> comparison(attrKey(a.key()), a.op(), a.value(), true, false, b);
          case Term.Field f when f.op() == Op.EQ ->
              comparison(f.field().key(), f.op(), f.value(), true, f.field().kind() == RootField.Kind.ID, b);
          case Term.AttrIn a -> list(attrKey(a.key()), "!=", a.values(), false, b);
          case Term.FieldIn f -> list(f.field().key(), "!=", f.values(), f.field().kind() == RootField.Kind.ID, b);
          case Term.Entity e -> entity("!=", e, b);
          default -> {
            b.append('-');
            print(n.term(), b);
          }
        }
      }
    }
  }

  private static void comparison(String key, Op op, Scalar v, boolean negated, boolean id, StringBuilder b) {
    if (op == Op.EXISTS) {
      b.append(v.bool() ? "" : "-").append(key).append('?');
      return;
    }
    b.append(key);
    b.append(switch (op) {
      case EQ -> negated ? "!=" : "=";
      case GT -> ">";
      case GTE -> ">=";
      case LT -> "<";
      case LTE -> "<=";
      case CONTAINS -> "~";
      default -> throw new IllegalArgumentException("no text for " + op);
    });
    value(v, id, b);
  }

  private static void list(String key, String op, List<Scalar> values, boolean id, StringBuilder b) {
    b.append(key).append(op).append('[');
    for (int i = 0; i < values.size(); i++) {
      if (i > 0) {
        b.append(',');
      }
      value(values.get(i), id, b);
    }
    b.append(']');
  }

  private static void entity(String op, Term.Entity e, StringBuilder b) {
    List<String> keys = new ArrayList<>();
    for (long k : e.keys()) {
      keys.add(Entities.hex(k));
    }
    keys.sort(null);
    b.append("entity").append(op);
    if (keys.size() == 1) {
      b.append(keys.getFirst());
    } else {
      b.append('[').append(String.join(",", keys)).append(']');
    }
  }

  private static String attrKey(String key) {
    if (bare(key) && key.charAt(0) != '-' && !key.equals("entity") && !isRootKey(key)) {
      return key;
    }
    StringBuilder b = new StringBuilder();
    quote(key, b);
    return b.toString();
  }

  private static boolean isRootKey(String key) {
    return RootField.byKey(key) != null;
  }

  private static void word(String s, StringBuilder b) {
    if (bare(s) && s.charAt(0) != '-') {
      b.append(s);
    } else {
      quote(s, b);
    }
  }

  private static void value(Scalar v, boolean id, StringBuilder b) {
    switch (v.kind()) {
      case STRING -> {
        if (bare(v.text()) && (id || typed(v.text()) == null)) {
          b.append(v.text());
        } else {
          quote(v.text(), b);
        }
      }
      case INT, BOOL -> b.append(v.text());
      case DOUBLE -> {
        double d = v.doubleValue();
        if (Double.isNaN(d)) {
          throw new IllegalArgumentException("NaN has no filter text");
        } else if (Double.isInfinite(d)) {
          b.append(d > 0 ? "1e999" : "-1e999");
        } else if (Double.compare(d, -0.0) == 0) {
          b.append("-0.0");
        } else {
          String s = v.text();
          b.append(s);
          if (s.indexOf('.') < 0 && s.indexOf('e') < 0 && s.indexOf('E') < 0) {
            b.append(".0");
          }
        }
      }
    }
  }

  private static void quote(String s, StringBuilder b) {
    b.append('"');
    for (int i = 0; i < s.length(); i++) {
      char c = s.charAt(i);
      switch (c) {
        case '"' -> b.append("\\\"");
        case '\\' -> b.append("\\\\");
        case '\n' -> b.append("\\n");
        case '\t' -> b.append("\\t");
        case '\r' -> b.append("\\r");
        default -> {
          if (c < 0x20 || c == 0x7f) {
            b.append(String.format("\\u%04x", (int) c));
          } else {
            b.append(c);
          }
        }
      }
    }
    b.append('"');
  }

  /** Whether {@code s} can be written without quotes (leading {@code -} aside). */
  private static boolean bare(String s) {
    if (s.isEmpty()) {
      return false;
    }
    for (int i = 0; i < s.length(); i++) {
      if (stops(s.charAt(i))) {
        return false;
      }
    }
    return true;
  }

  /** A character that ends a bare word. */
  private static boolean stops(char c) {
    return separates(c) || c == 0x7f || SPECIALS.indexOf(c) >= 0;
  }

  private static boolean separates(char c) {
    return c <= ' ' || Character.isWhitespace(c) || Character.isSpaceChar(c);
  }

  /** The scalar an unquoted value reads as when it is not a string, or null. */
  private static Scalar typed(String s) {
    if (s.equals("true") || s.equals("false")) {
      return Scalar.bool(s.equals("true"));
    }
    int i = 0;
    int n = s.length();
    if (i < n && s.charAt(i) == '-') {
      i++;
    }
    int digits = i;
    if (i < n && s.charAt(i) == '0') {
      i++;
    } else {
      while (i < n && isDigit(s.charAt(i))) {
        i++;
      }
    }
    if (i == digits) {
      return null;
    }
    boolean integral = true;
    if (i < n && s.charAt(i) == '.') {
      integral = false;
      int f = ++i;
      while (i < n && isDigit(s.charAt(i))) {
        i++;
      }
      if (i == f) {
        return null;
      }
    }
    if (i < n && (s.charAt(i) == 'e' || s.charAt(i) == 'E')) {
      integral = false;
      i++;
      if (i < n && (s.charAt(i) == '+' || s.charAt(i) == '-')) {
        i++;
      }
      int e = i;
      while (i < n && isDigit(s.charAt(i))) {
        i++;
      }
      if (i == e) {
        return null;
      }
    }
    if (i != n) {
      return null;
    }
    if (integral) {
      try {
        return Scalar.integer(Long.parseLong(s));
      } catch (NumberFormatException overflow) {
        return Scalar.dbl(Double.parseDouble(s));
      }
    }
    return Scalar.dbl(Double.parseDouble(s));
  }

  private static boolean isDigit(char c) {
    return c >= '0' && c <= '9';
  }

  /** One pass over the text; {@code i} is the next character. */
  private static final class Parser {
    private final Signal signal;
    private final String s;
    private int i;

    Parser(Signal signal, String s) {
      this.signal = signal;
      this.s = s;
    }

    List<Term> terms() throws FilterTextException {
      List<Term> out = new ArrayList<>();
      while (true) {
        while (i < s.length() && separates(s.charAt(i))) {
          i++;
        }
        if (i == s.length()) {
          return out;
        }
        if (out.size() == Documents.MAX_TERMS) {
          throw error(i, "more than " + Documents.MAX_TERMS + " terms");
        }
        out.add(term());
        if (i < s.length() && !separates(s.charAt(i))) {
          throw error(i, "unexpected '" + s.charAt(i) + "' after a term; separate terms with spaces");
        }
      }
    }

    private Term term() throws FilterTextException {
      int start = i;
      boolean negated = false;
      if (s.charAt(i) == '-') {
        negated = true;
        i++;
      }
      int keyAt = i;
      boolean quoted = i < s.length() && s.charAt(i) == '"';
      String key = quoted ? quoted() : bareWord(false);
      if (key == null) {
        throw error(keyAt, i < s.length() ? "expected a key or a word, found '" + s.charAt(i) + "'"
            : "expected a key or a word after '-'");
      }
      if (i == s.length() || separates(s.charAt(i))) {
        if (key.isEmpty()) {
          throw error(keyAt, "an empty word matches everything; leave it out");
        }
        if (signal == Signal.METRICS) {
          throw error(keyAt, "\"" + Cursor.abbreviate(key) + "\" alone is a text search, and series and entities have no text; "
              + "filter them with key=value, key? or entity=...");
        }
        Term t = new Term.Text(key);
        return negated ? new Term.Not(t) : t;
      }
      int opAt = i;
      if (s.charAt(i) == '?') {
        i++;
        return subject(key, quoted, keyAt, Op.EXISTS, Scalar.bool(!negated), null, start);
      }
      String op = operator();
      if (op == null) {
        throw error(i, "expected an operator (= != > >= < <= ~ ?) after \"" + Cursor.abbreviate(key) + "\", found '"
            + s.charAt(i) + "'");
      }
      if (negated && op.equals("!=")) {
        throw error(start, "'-' before != is a double negation; write " + Cursor.abbreviate(key) + "=...");
      }
      boolean not = negated || op.equals("!=");
      // Ids and entity keys are hex strings even when every digit is a decimal one.
      boolean id = !quoted && (key.equals("entity") || rootKind(key) == RootField.Kind.ID);
      Term t;
      if (i < s.length() && s.charAt(i) == '[') {
        if (!op.equals("=") && !op.equals("!=")) {
          throw error(i, "a list of values goes with = or != only, not " + op);
        }
        t = subject(key, quoted, keyAt, Op.IN, null, values(id), opAt);
      } else {
        t = subject(key, quoted, keyAt, switch (op) {
          case "=", "!=" -> Op.EQ;
          case ">" -> Op.GT;
          case ">=" -> Op.GTE;
          case "<" -> Op.LT;
          case "<=" -> Op.LTE;
          default -> Op.CONTAINS;
        }, value(id, op), null, opAt);
      }
      return not ? new Term.Not(t) : t;
    }

    /** The term a key names: an entity, a root column or an attribute. */
    private Term subject(String key, boolean quoted, int keyAt, Op op, Scalar v, List<Scalar> values, int at)
        throws FilterTextException {
      String where = "\"" + Cursor.abbreviate(key) + "\"";
      if (!quoted && key.equals("entity")) {
        if (op != Op.EQ && op != Op.IN) {
          throw error(at, "entity takes = or != with 16 hex digits (or a list of them)");
        }
        Set<Long> keys = new HashSet<>();
        for (Scalar k : values == null ? List.of(v) : values) {
          Long e = Entities.parse(k.text());
          if (e == null) {
            throw error(at, "\"" + Cursor.abbreviate(k.text()) + "\" is not an entity key (16 hex digits)");
          }
          if (e == 0) {
            throw error(at, "0000000000000000 names no entity; resources without identity cannot be selected by entity");
          }
          keys.add(e);
        }
        return new Term.Entity(keys);
      }
      try {
        RootField f = quoted ? null : root(key);
        if (f == null) {
          Documents.checkOp(where, op, v);
          return op == Op.IN ? new Term.AttrIn(key, values) : new Term.Attr(key, op, v);
        }
        return Documents.field(f, op, v, values, where);
      } catch (QueryException e) {
        throw error(keyAt, e.getMessage());
      }
    }

    private RootField root(String key) {
      return signal == null ? RootField.byKey(key) : RootField.of(signal, key);
    }

    private RootField.Kind rootKind(String key) {
      RootField f = root(key);
      return f == null ? null : f.kind();
    }

    private String operator() {
      if (i >= s.length()) {
        return null;
      }
      char c = s.charAt(i);
      char d = i + 1 < s.length() ? s.charAt(i + 1) : 0;
      String op = switch (c) {
        case '=' -> "=";
        case '~' -> "~";
        case '!' -> d == '=' ? "!=" : null;
        case '>' -> d == '=' ? ">=" : ">";
        case '<' -> d == '=' ? "<=" : "<";
        default -> null;
      };
      if (op != null) {
        i += op.length();
      }
      return op;
    }

    private List<Scalar> values(boolean id) throws FilterTextException {
      int open = i++;
      List<Scalar> out = new ArrayList<>();
      while (true) {
        if (out.size() == Term.MAX_IN) {
          throw error(i, "more than " + Term.MAX_IN + " values in a list");
        }
        out.add(value(id, "["));
        if (i == s.length()) {
          throw error(open, "the list opened here is not closed with ']'");
        }
        char c = s.charAt(i++);
        if (c == ']') {
          return out;
        }
        if (c != ',') {
          throw error(i - 1, "expected ',' or ']' in a list, found '" + c + "'");
        }
      }
    }

    private Scalar value(boolean id, String after) throws FilterTextException {
      int at = i;
      if (i < s.length() && s.charAt(i) == '"') {
        return Scalar.string(quoted());
      }
      String w = bareWord(true);
      if (w == null) {
        throw error(at, i < s.length() ? "expected a value after " + after + ", found '" + s.charAt(i) + "'"
            : "expected a value after " + after);
      }
      Scalar t = id ? null : typed(w);
      return t != null ? t : Scalar.string(w);
    }

    /** A bare word, or null if there is none here. A key may not start with '-'; a value may. */
    private String bareWord(boolean value) {
      int start = i;
      while (i < s.length() && !stops(s.charAt(i)) && (value || i > start || s.charAt(i) != '-')) {
        i++;
      }
      return i == start ? null : s.substring(start, i);
    }

    private String quoted() throws FilterTextException {
      int open = i++;
      StringBuilder b = new StringBuilder();
      while (i < s.length()) {
        char c = s.charAt(i++);
        if (c == '"') {
          return b.toString();
        }
        if (c != '\\') {
          b.append(c);
          continue;
        }
        if (i == s.length()) {
          break;
        }
        char e = s.charAt(i++);
        switch (e) {
          case '"', '\\' -> b.append(e);
          case 'n' -> b.append('\n');
          case 't' -> b.append('\t');
          case 'r' -> b.append('\r');
          case 'u' -> {
            if (i + 4 > s.length()) {
              throw error(i - 2, "\\u takes four hex digits");
            }
            int v = 0;
            for (int k = 0; k < 4; k++) {
              char h = s.charAt(i + k);
              if (!Documents.isHex(h)) {
                throw error(i - 2, "\\u takes four hex digits");
              }
              v = v * 16 + Character.digit(h, 16);
            }
            i += 4;
            b.append((char) v);
          }
          default -> throw error(i - 2, "unknown escape \\" + e + "; the escapes are \\\" \\\\ \\n \\t \\r \\uXXXX");
        }
      }
      throw error(open, "the quote opened here is not closed");
    }

    private FilterTextException error(int at, String message) {
      return new FilterTextException(at + 1, message);
    }
  }
}
