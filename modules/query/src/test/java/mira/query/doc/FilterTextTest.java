package mira.query.doc;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import java.util.Set;
import mira.proto.wire.Signal;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.Tuple;
import net.jqwik.api.statistics.Statistics;
import org.junit.jupiter.api.Test;

class FilterTextTest {
  private static List<Term> logs(String text) throws FilterTextException {
    return FilterText.parse(Signal.LOGS, text);
  }

  @Test
  void theIssueExampleReadsAsFieldAttributeTextAndEntityTerms() throws Exception {
    String trace = "4bf92f3577b34da6a3ce929d0e0e4736";
    List<Term> t = logs("service.name=checkout severity_number>=17 http.route~\"/api\" k8s.pod.name? "
        + "\"NullPointerException\" trace_id=" + trace + " entity=9a3c00000000beef");
    assertThat(t).containsExactly(
        new Term.Attr("service.name", Op.EQ, Scalar.string("checkout")),
        new Term.Field(RootField.SEVERITY_NUMBER, Op.GTE, Scalar.integer(17)),
        new Term.Attr("http.route", Op.CONTAINS, Scalar.string("/api")),
        new Term.Attr("k8s.pod.name", Op.EXISTS, Scalar.bool(true)),
        new Term.Text("NullPointerException"),
        new Term.Field(RootField.TRACE_ID, Op.EQ, Scalar.string(trace)),
        new Term.Entity(Set.of(0x9a3c00000000beefL)));
    assertThat(FilterText.print(t)).isEqualTo("service.name=checkout severity_number>=17 http.route~/api k8s.pod.name? "
        + "NullPointerException trace_id=" + trace + " entity=9a3c00000000beef");
  }

  @Test
  void unquotedValuesAreTypedAsJsonWouldTypeThemAndQuotedOnesAreStrings() throws Exception {
    assertThat(logs("a=200 b=\"200\" c=0.5 d=true e=\"true\" f=1e3 g=-7 h=007 i=99999999999999999999 j=-x"))
        .containsExactly(
            new Term.Attr("a", Op.EQ, Scalar.integer(200)),
            new Term.Attr("b", Op.EQ, Scalar.string("200")),
            new Term.Attr("c", Op.EQ, Scalar.dbl(0.5)),
            new Term.Attr("d", Op.EQ, Scalar.bool(true)),
            new Term.Attr("e", Op.EQ, Scalar.string("true")),
            new Term.Attr("f", Op.EQ, Scalar.dbl(1000)),
            new Term.Attr("g", Op.EQ, Scalar.integer(-7)),
            new Term.Attr("h", Op.EQ, Scalar.string("007")),
            new Term.Attr("i", Op.EQ, Scalar.dbl(1e20)),
            new Term.Attr("j", Op.EQ, Scalar.string("-x")));
    // An id is hex even when every digit is decimal.
    assertThat(logs("span_id=1234567812345678"))
        .containsExactly(new Term.Field(RootField.SPAN_ID, Op.EQ, Scalar.string("1234567812345678")));
  }

  @Test
  void negationListsAndExistsHaveOneCanonicalSpelling() throws Exception {
    List<Term> t = logs("-service.name=api  code!=[500,503] -k? -timeout entity!=[00000000000000b2,00000000000000a1]");
    assertThat(t).containsExactly(
        new Term.Not(new Term.Attr("service.name", Op.EQ, Scalar.string("api"))),
        new Term.Not(new Term.AttrIn("code", List.of(Scalar.integer(500), Scalar.integer(503)))),
        new Term.Attr("k", Op.EXISTS, Scalar.bool(false)),
        new Term.Not(new Term.Text("timeout")),
        new Term.Not(new Term.Entity(Set.of(0xa1L, 0xb2L))));
    assertThat(FilterText.print(t))
        .isEqualTo("service.name!=api code!=[500,503] -k? -timeout entity!=[00000000000000a1,00000000000000b2]");
    assertThat(FilterText.print(logs("-severity_number>9"))).isEqualTo("-severity_number>9");
    assertThat(FilterText.print(logs("entity=[00000000000000A1]"))).isEqualTo("entity=00000000000000a1");
  }

  @Test
  void aKeyIsAFieldOnlyWhenItNamesARootColumnOfTheSignalAndIsUnquoted() throws Exception {
    assertThat(FilterText.parse(Signal.TRACES, "name=GET")).containsExactly(
        new Term.Field(RootField.NAME, Op.EQ, Scalar.string("GET")));
    assertThat(logs("name=GET")).containsExactly(new Term.Attr("name", Op.EQ, Scalar.string("GET")));
    assertThat(FilterText.parse(Signal.TRACES, "\"name\"=GET")).containsExactly(
        new Term.Attr("name", Op.EQ, Scalar.string("GET")));
    assertThat(FilterText.parse(Signal.METRICS, "name=GET")).containsExactly(
        new Term.Attr("name", Op.EQ, Scalar.string("GET")));
    assertThat(FilterText.parse(null, "name=GET body~x")).containsExactly(
        new Term.Field(RootField.NAME, Op.EQ, Scalar.string("GET")),
        new Term.Field(RootField.BODY, Op.CONTAINS, Scalar.string("x")));
    // An attribute whose key a field or the entity term would take is printed quoted.
    assertThat(FilterText.print(List.of(new Term.Attr("name", Op.EQ, Scalar.string("GET")),
        new Term.Attr("entity", Op.EXISTS, Scalar.bool(true)), new Term.Attr("a b", Op.LT, Scalar.dbl(1)))))
        .isEqualTo("\"name\"=GET \"entity\"? \"a b\"<1.0");
  }

  @Test
  void quotedStringsTakeEscapes() throws Exception {
    assertThat(logs("\"say \\\"hi\\\"\\n\\t\\\\ \\u00e9\"")).containsExactly(new Term.Text("say \"hi\"\n\t\\ é"));
    assertThat(FilterText.print(List.of(new Term.Text("a\u0001\"b")))).isEqualTo("\"a\\u0001\\\"b\"");
    assertThat(logs("")).isEmpty();
    assertThat(logs("   \t ")).isEmpty();
  }

  @Test
  void everyMalformedTextNamesTheTokenAndItsColumn() {
    error("code=", 6, "expected a value after =");
    error("a=1 \"open", 5, "not closed");
    error("k=[1,2", 3, "not closed with ']'");
    error("k=[1 2]", 5, "expected ',' or ']'");
    error("k>[1]", 3, "a list of values goes with = or != only");
    error("-k!=1", 1, "double negation");
    error("k=1=2", 4, "unexpected '='");
    error("k!1", 2, "expected an operator");
    error("a \"\"", 3, "empty word");
    error("-", 2, "expected a key or a word after '-'");
    error("=x", 1, "expected a key or a word, found '='");
    error("\"\\q\"", 2, "unknown escape \\q");
    error("\"\\u12\"", 2, "\\u takes four hex digits");
    error("x trace_id=zz", 3, "\"zz\" is not hex");
    error("trace_id=abcd", 1, "32 hex digits");
    error("flag>true", 1, "gt does not take a boolean");
    error("entity~ab", 7, "entity takes = or !=");
    error("entity=abc", 7, "\"abc\" is not an entity key");
    error("entity=0000000000000000", 7, "names no entity");
    error("k=1 " + "x ".repeat(64), 131, "more than 64 terms");
    assertThatThrownBy(() -> FilterText.parse(Signal.METRICS, "up=1 timeout"))
        .hasMessageContaining("column 6").hasMessageContaining("have no text");
  }

  private static void error(String text, int column, String says) {
    assertThatThrownBy(() -> logs(text)).as(text).isInstanceOfSatisfying(FilterTextException.class, e -> {
      assertThat(e.column()).as("column of %s", text).isEqualTo(column);
      assertThat(e.getMessage()).startsWith("q: column " + column + ": ").contains(says);
    });
  }

  @Test
  void aDocumentAppliesWhereAndQTogether() throws Exception {
    SearchQuery q = Documents.search(("{\"signal\": \"traces\", \"where\": [{\"attr\": \"k\", \"eq\": 1}], "
        + "\"q\": \"name=GET\"}").getBytes(java.nio.charset.StandardCharsets.UTF_8), 0);
    assertThat(q.where()).containsExactly(new Term.Attr("k", Op.EQ, Scalar.integer(1)),
        new Term.Field(RootField.NAME, Op.EQ, Scalar.string("GET")));
    assertThatThrownBy(() -> Documents.search("{\"signal\": \"logs\", \"q\": \"k=\"}".getBytes(
        java.nio.charset.StandardCharsets.UTF_8), 0)).hasMessage("q: column 3: expected a value after =");
  }

  // ---- the round trip ----------------------------------------------------------------------

  @Property(tries = 2000)
  void printedTermsParseBackToTheSameTerms(@ForAll("logTerms") List<Term> terms) throws Exception {
    String text = FilterText.print(terms);
    assertThat(logs(text)).as(text).isEqualTo(terms);
    Statistics.label("terms").collect(terms.size());
  }

  @Property(tries = 1000)
  void printedSpanTermsParseBackToTheSameTerms(@ForAll("spanTerms") List<Term> terms) throws Exception {
    String text = FilterText.print(terms);
    assertThat(FilterText.parse(Signal.TRACES, text)).as(text).isEqualTo(terms);
  }

  /** Another spelling of the same terms prints as the one canonical text. */
  @Property(tries = 1000)
  void printingIsCanonical(@ForAll("logTerms") List<Term> terms, @ForAll("spacing") String gap) throws Exception {
    String canonical = FilterText.print(terms);
    StringBuilder other = new StringBuilder(gap);
    for (Term t : terms) {
      other.append(alternative(t)).append(gap.isEmpty() ? " " : gap);
    }
    assertThat(FilterText.print(logs(other.toString()))).as(other.toString()).isEqualTo(canonical);
  }

  /** A non-canonical spelling of {@code t} where one exists: {@code -k=v}, {@code k=[v]} for entities. */
  private static String alternative(Term t) {
    String s = FilterText.print(List.of(t));
    if (t instanceof Term.Not n && (n.term() instanceof Term.Attr a && a.op() == Op.EQ
        || n.term() instanceof Term.Field f && f.op() == Op.EQ)) {
      return "-" + FilterText.print(List.of(n.term()));
    }
    if (t instanceof Term.Entity e && e.keys().size() == 1) {
      return "entity=[" + s.substring("entity=".length()).toUpperCase(java.util.Locale.ROOT) + "]";
    }
    return s;
  }

  @Provide
  Arbitrary<String> spacing() {
    return Arbitraries.of("", " ", "  ", "\t", " \n ");
  }

  @Provide
  Arbitrary<List<Term>> logTerms() {
    return terms(Signal.LOGS);
  }

  @Provide
  Arbitrary<List<Term>> spanTerms() {
    return terms(Signal.TRACES);
  }

  private static Arbitrary<List<Term>> terms(Signal signal) {
    Arbitrary<Term> plain = Arbitraries.frequencyOf(
        Tuple.of(6, attr()), Tuple.of(2, attrIn()), Tuple.of(4, field(signal)), Tuple.of(2, text()),
        Tuple.of(1, entity()));
    Arbitrary<Term> term = Arbitraries.frequencyOf(Tuple.of(4, plain), Tuple.of(1, plain
        .filter(t -> !(t instanceof Term.Attr a && a.op() == Op.EXISTS) && !(t instanceof Term.Field f
            && f.op() == Op.EXISTS))
        .map(Term.Not::new)));
    return term.list().ofMaxSize(6);
  }

  private static Arbitrary<String> strings() {
    return Arbitraries.oneOf(
        Arbitraries.of("checkout", "", "a b", "-x", "x-y", "200", "0.5", "true", "null", "007", "1e3", "é",
            "\"", "\\", "a=b", "k?", "[x]", "entity", "name", "trace_id", "\n", "\u0001", "\u00a0", "~", "!"),
        Arbitraries.strings().ofMaxLength(8));
  }

  private static Arbitrary<Scalar> scalars() {
    return Arbitraries.oneOf(
        strings().map(Scalar::string),
        Arbitraries.longs().map(Scalar::integer),
        Arbitraries.of(0.5, 1.0, -0.0, 0.0, 1e300, -2.5e-7, 1e16, 12345678901234567890.0, Double.MAX_VALUE,
            Double.MIN_VALUE, Double.POSITIVE_INFINITY, Double.NEGATIVE_INFINITY).map(Scalar::dbl),
        Arbitraries.doubles().map(Scalar::dbl),
        Arbitraries.of(true, false).map(Scalar::bool));
  }

  private static Arbitrary<String> keys() {
    return Arbitraries.oneOf(Arbitraries.of("service.name", "http.route", "k8s.pod.name", "a"), strings());
  }

  private static Arbitrary<Term> attr() {
    Arbitrary<Op> ops = Arbitraries.of(Op.EQ, Op.GT, Op.GTE, Op.LT, Op.LTE, Op.CONTAINS);
    return Arbitraries.oneOf(
        Combinators.combine(keys(), ops, scalars()).filter((k, o, v) -> o == Op.EQ || v.kind() != Scalar.Kind.BOOL)
            .as(Term.Attr::new),
        Combinators.combine(keys(), Arbitraries.of(true, false))
            .as((k, b) -> new Term.Attr(k, Op.EXISTS, Scalar.bool(b))));
  }

  private static Arbitrary<Term> attrIn() {
    return Combinators.combine(keys(), scalars().list().ofMinSize(1).ofMaxSize(3)).as(Term.AttrIn::new);
  }

  private static Arbitrary<Term> field(Signal signal) {
    List<RootField> fields = RootField.values().length == 0 ? List.of() : java.util.Arrays.stream(RootField.values())
        .filter(f -> f.of(signal)).toList();
    return Arbitraries.of(fields).flatMap(f -> {
      if (f.kind() == RootField.Kind.ID) {
        int digits = 2 * f.idBytes();
        Arbitrary<String> full = Arbitraries.strings().withChars("0123456789abcdefABCDEF").ofLength(digits);
        Arbitrary<String> part = Arbitraries.strings().withChars("0123456789abcdef").ofMinLength(0).ofMaxLength(6);
        return Arbitraries.oneOf(
            full.map(h -> new Term.Field(f, Op.EQ, Scalar.string(h))),
            Combinators.combine(Arbitraries.of(Op.GT, Op.LTE, Op.CONTAINS), part)
                .as((o, h) -> new Term.Field(f, o, Scalar.string(h))),
            full.list().ofMinSize(1).ofMaxSize(3).map(l -> new Term.FieldIn(f, l.stream().map(Scalar::string).toList())),
            Arbitraries.of(true, false).map(b -> new Term.Field(f, Op.EXISTS, Scalar.bool(b))));
      }
      return Arbitraries.oneOf(
          Combinators.combine(Arbitraries.of(Op.EQ, Op.GT, Op.GTE, Op.LT, Op.LTE, Op.CONTAINS), scalars())
              .filter((o, v) -> o == Op.EQ || v.kind() != Scalar.Kind.BOOL)
              .as((o, v) -> new Term.Field(f, o, v)),
          scalars().list().ofMinSize(1).ofMaxSize(3).map(l -> new Term.FieldIn(f, l)),
          Arbitraries.of(true, false).map(b -> new Term.Field(f, Op.EXISTS, Scalar.bool(b))));
    });
  }

  private static Arbitrary<Term> text() {
    return strings().filter(s -> !s.isEmpty()).map(Term.Text::new);
  }

  private static Arbitrary<Term> entity() {
    return Arbitraries.longs().filter(k -> k != 0).set().ofMinSize(1).ofMaxSize(3).map(Term.Entity::new);
  }
}
