package mira.query.testing;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.HexFormat;
import java.util.List;
import java.util.Locale;
import mira.proto.wire.Signal;
import mira.query.doc.Cursor;
import mira.query.doc.FilterText;
import mira.query.doc.Op;
import mira.query.doc.RootField;
import mira.query.doc.Scalar;
import mira.query.doc.SearchQuery;
import mira.query.doc.Term;
import mira.query.render.TermJson;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.Tuple;

/** Random query documents over {@link Corpus} data, and their JSON spelling. */
public final class Queries {
  private static final JsonFactory JSON = new JsonFactory();
  private static final List<Op> COMPARE = List.of(Op.EQ, Op.GT, Op.GTE, Op.LT, Op.LTE, Op.CONTAINS);

  private Queries() {}

  static Arbitrary<Scalar> values() {
    return Arbitraries.of(Scalar.integer(200), Scalar.string("200"), Scalar.integer(500), Scalar.dbl(0.5),
        Scalar.string("0.5"), Scalar.string("abc"), Scalar.string("a"), Scalar.dbl(200.0), Scalar.integer(-3),
        Scalar.string("x"), Scalar.string("AQID"), Scalar.string("1e300"), Scalar.dbl(1e300), Scalar.string("é"),
        Scalar.string(""), Scalar.string("-0"), Scalar.dbl(-0.0), Scalar.string("true"), Scalar.integer(0),
        Scalar.integer(400), Scalar.string("400"), Scalar.dbl(99.9), Scalar.string("abcd"), Scalar.integer(1),
        Scalar.dbl(1.0), Scalar.string("1"), Scalar.string("1.0"), Scalar.integer(5), Scalar.string("+200"),
        Scalar.dbl(0.4));
  }

  static Arbitrary<Term> attr() {
    Arbitrary<String> key = Arbitraries.of("code", "svc", "ratio", "flag", "k", "service.name", "nope");
    return Arbitraries.frequencyOf(
        Tuple.of(6, Combinators.combine(key, Arbitraries.of(COMPARE), values()).as(Term.Attr::new)),
        Tuple.of(1, Combinators.combine(key, Arbitraries.of(true, false))
            .as((k, b) -> new Term.Attr(k, Op.EXISTS, Scalar.bool(b)))),
        Tuple.of(1, Combinators.combine(key, Arbitraries.of(true, false))
            .as((k, b) -> new Term.Attr(k, Op.EQ, Scalar.bool(b)))));
  }

  /** An in term on an attribute: one to three values. */
  static Arbitrary<Term> attrIn() {
    Arbitrary<String> key = Arbitraries.of("code", "svc", "ratio", "flag", "k", "service.name", "nope");
    return Combinators.combine(key, values().list().ofMinSize(1).ofMaxSize(3)).as(Term.AttrIn::new);
  }

  /**
   * An entity term: keys of the corpus's identities (so most match some resource) and a key no
   * resource has.
   */
  static Arbitrary<Term> entity() {
    List<Long> keys = new java.util.ArrayList<>();
    for (List<io.opentelemetry.proto.common.v1.KeyValue> id : Corpus.IDENTITIES) {
      long k = Expected.entity(io.opentelemetry.proto.resource.v1.Resource.newBuilder().addAllAttributes(id).build());
      if (k != 0) {
        keys.add(k);
      }
    }
    keys.add(0x0123_4567_89ab_cdefL);
    return Arbitraries.of(keys).set().ofMinSize(1).ofMaxSize(3).map(Term.Entity::new);
  }

  /** An in term on an id field: one to three ids of the corpus, in either case. */
  static Arbitrary<Term> idIn(RootField f, List<com.google.protobuf.ByteString> ids) {
    return Arbitraries.of(ids).map(id -> Scalar.string(HexFormat.of().formatHex(id.toByteArray())))
        .list().ofMinSize(1).ofMaxSize(3).map(v -> new Term.FieldIn(f, v));
  }

  static Arbitrary<Term> field(RootField f, Arbitrary<Scalar> values) {
    return Arbitraries.frequencyOf(
        Tuple.of(5, Combinators.combine(Arbitraries.of(COMPARE), values).as((op, v) -> new Term.Field(f, op, v))),
        Tuple.of(1, Arbitraries.of(true, false).map(b -> new Term.Field(f, Op.EXISTS, Scalar.bool(b)))));
  }

  static Arbitrary<Term> id(RootField f, List<com.google.protobuf.ByteString> ids) {
    Arbitrary<Term> eq = Arbitraries.of(ids).flatMap(id -> Arbitraries.of(true, false).map(upper -> {
      String hex = HexFormat.of().formatHex(id.toByteArray());
      return new Term.Field(f, Op.EQ, Scalar.string(upper ? hex.toUpperCase(Locale.ROOT) : hex));
    }));
    Arbitrary<Term> other = Combinators.combine(Arbitraries.of(Op.CONTAINS, Op.GT, Op.LTE),
            Arbitraries.of("03", "0A0B", "ab", "0", "ff"))
        .as((op, v) -> new Term.Field(f, op, Scalar.string(v)));
    Arbitrary<Term> exists = Arbitraries.of(true, false).map(b -> new Term.Field(f, Op.EXISTS, Scalar.bool(b)));
    return Arbitraries.oneOf(eq, other, exists);
  }

  static Arbitrary<Term> logTerm() {
    return Arbitraries.frequencyOf(
        Tuple.of(6, attr()),
        Tuple.of(2, attrIn()),
        Tuple.of(2, entity()),
        Tuple.of(1, idIn(RootField.TRACE_ID, Corpus.TRACE_IDS)),
        Tuple.of(1, Arbitraries.of(Scalar.integer(9), Scalar.integer(17), Scalar.string("13"), Scalar.dbl(21.0))
            .list().ofMinSize(1).ofMaxSize(2).map(v -> new Term.FieldIn(RootField.SEVERITY_NUMBER, v))),
        Tuple.of(1, field(RootField.SEVERITY_NUMBER, Arbitraries.of(Scalar.integer(9), Scalar.integer(13),
            Scalar.string("17"), Scalar.dbl(12.5), Scalar.integer(0), Scalar.string("x")))),
        Tuple.of(1, field(RootField.SEVERITY_TEXT, Arbitraries.of(Scalar.string("INFO"), Scalar.string(""),
            Scalar.string("R"), Scalar.string("F"), Scalar.integer(5)))),
        Tuple.of(1, field(RootField.EVENT_NAME, Arbitraries.of(Scalar.string("login"), Scalar.string("log")))),
        Tuple.of(2, field(RootField.BODY, Arbitraries.oneOf(values(), Arbitraries.of(Scalar.string("GET /a 200"),
            Scalar.string("boom"))))),
        Tuple.of(1, id(RootField.TRACE_ID, Corpus.TRACE_IDS)),
        Tuple.of(1, id(RootField.SPAN_ID, Corpus.SPAN_IDS)),
        Tuple.of(1, field(RootField.FLAGS, Arbitraries.of(Scalar.integer(1), Scalar.integer(0), Scalar.string("2"),
            Scalar.string("257"), Scalar.dbl(4294967295.0)))),
        Tuple.of(2, Arbitraries.of("a", "abc", "boom", "Null", "é", "200", "x").map(Term.Text::new)));
  }

  static Arbitrary<Term> spanTerm() {
    return Arbitraries.frequencyOf(
        Tuple.of(6, attr()),
        Tuple.of(2, attrIn()),
        Tuple.of(2, entity()),
        Tuple.of(1, idIn(RootField.TRACE_ID, Corpus.TRACE_IDS)),
        Tuple.of(1, idIn(RootField.SPAN_ID, Corpus.SPAN_IDS)),
        Tuple.of(1, Arbitraries.of(Scalar.string("GET /a"), Scalar.string("db.query"), Scalar.integer(1))
            .list().ofMinSize(1).ofMaxSize(2).map(v -> new Term.FieldIn(RootField.NAME, v))),
        Tuple.of(1, field(RootField.NAME, Arbitraries.of(Scalar.string("GET /a"), Scalar.string("/"),
            Scalar.string("F"), Scalar.string("é"), Scalar.integer(1)))),
        Tuple.of(1, field(RootField.KIND, Arbitraries.of(Scalar.integer(2), Scalar.integer(3), Scalar.string("1"),
            Scalar.dbl(2.5)))),
        Tuple.of(1, field(RootField.STATUS_CODE, Arbitraries.of(Scalar.integer(2), Scalar.integer(1),
            Scalar.string("0")))),
        Tuple.of(1, field(RootField.DURATION_NANO, Arbitraries.of(Scalar.integer(500), Scalar.string("2000"),
            Scalar.integer(0), Scalar.dbl(1e18)))),
        Tuple.of(1, id(RootField.TRACE_ID, Corpus.TRACE_IDS)),
        Tuple.of(1, id(RootField.SPAN_ID, Corpus.SPAN_IDS)),
        Tuple.of(1, id(RootField.PARENT_SPAN_ID, Corpus.SPAN_IDS)),
        Tuple.of(2, Arbitraries.of("GET", "db", "boom", "Null", "é", "/").map(Term.Text::new)));
  }

  /** A first-page query (no cursor) with 0..3 terms. */
  public static Arbitrary<SearchQuery> queries(Signal signal) {
    Arbitrary<Term> plain = signal == Signal.LOGS ? logTerm() : spanTerm();
    Arbitrary<Term> term = Arbitraries.frequencyOf(Tuple.of(5, plain), Tuple.of(1, negated(plain)));
    Arbitrary<long[]> window = Arbitraries.frequencyOf(
        Tuple.of(1, Arbitraries.just(new long[] {Corpus.T0 - 1_000_000_000_000L, Corpus.T0 + 1_000_000_000_000L})),
        Tuple.of(2, Combinators.combine(Arbitraries.integers().between(-1, Corpus.TICKS),
                Arbitraries.integers().between(0, 8))
            .as((a, w) -> new long[] {Corpus.T0 + a * Corpus.STEP, Corpus.T0 + (a + w) * Corpus.STEP})));
    Arbitrary<List<Term>> terms = Arbitraries.frequencyOf(Tuple.of(1, term.list().ofSize(0)),
        Tuple.of(4, term.list().ofSize(1)), Tuple.of(3, term.list().ofSize(2)), Tuple.of(1, term.list().ofSize(3)));
    return Combinators.combine(window, terms, Arbitraries.integers().between(1, 7))
        .as((w, ts, limit) -> new SearchQuery(signal, w[0], w[1], ts, limit, null));
  }

  /** The negation of a term {@link Term.Not} may hold (not over exists). */
  public static Arbitrary<Term> negated(Arbitrary<Term> terms) {
    return terms.filter(t -> !(t instanceof Term.Attr a && a.op() == Op.EXISTS)
        && !(t instanceof Term.Field f && f.op() == Op.EXISTS)).map(Term.Not::new);
  }

  /** The document spelling of {@code q} with its terms as filter text ({@code "q"}) instead of {@code where}. */
  public static byte[] text(SearchQuery q) {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    try (JsonGenerator g = JSON.createGenerator(out)) {
      g.writeStartObject();
      g.writeStringField("signal", q.signal().dir());
      g.writeStringField("from", Long.toString(q.from()));
      g.writeStringField("to", Long.toString(q.to()));
      g.writeStringField("q", FilterText.print(q.where()));
      g.writeNumberField("limit", q.limit());
      g.writeEndObject();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return out.toByteArray();
  }

  /** The document spelling of {@code q}, with {@code after} if not null. */
  public static byte[] json(SearchQuery q, Cursor after) {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    try (JsonGenerator g = JSON.createGenerator(out)) {
      g.writeStartObject();
      g.writeStringField("signal", q.signal().dir());
      g.writeStringField("from", Long.toString(q.from()));
      g.writeStringField("to", Long.toString(q.to()));
      g.writeArrayFieldStart("where");
      for (Term t : q.where()) {
        if (t instanceof Term.Entity e && e.keys().size() > 1) {
          // Upper case on purpose: the grammar takes keys in either case.
          g.writeStartObject();
          g.writeObjectFieldStart("entity");
          g.writeArrayFieldStart("in");
          for (long k : e.keys()) {
            g.writeString(String.format("%016X", k));
          }
          g.writeEndArray();
          g.writeEndObject();
          g.writeEndObject();
        } else {
          TermJson.term(g, t);
        }
      }
      g.writeEndArray();
      g.writeNumberField("limit", q.limit());
      if (after != null) {
        g.writeStringField("after", after.encode());
      }
      g.writeEndObject();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return out.toByteArray();
  }
}
