package mira.block.index;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.util.List;
import mira.block.index.ZoneIndex.Answer;
import mira.block.index.ZoneIndex.Op;
import mira.block.table.NumericText;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.statistics.Statistics;
import net.jqwik.api.Tuple;
import org.junit.jupiter.api.Test;

/** The min/max rules of one zone.idx entry, without files (architecture: Sidecar indexes). */
class ZoneRulesTest {
  static final long TWO_53 = 1L << 53;

  /** A value as a block may store it: Long, Double, a String attribute, or Boolean (bool/bytes). */
  @Provide
  Arbitrary<List<Object>> stored() {
    Arbitrary<Object> v = Arbitraries.frequencyOf(
        Tuple.of(4, IndexedBlocks.longs().map(x -> (Object) x)),
        Tuple.of(3, IndexedBlocks.doubles().map(x -> (Object) x)),
        Tuple.of(2, IndexedBlocks.texts().map(x -> (Object) x)),
        Tuple.of(1, Arbitraries.just((Object) Boolean.TRUE)));
    return v.list().ofMaxSize(4);
  }

  @Provide
  Arbitrary<Number> bounds() {
    return Arbitraries.frequencyOf(
        Tuple.of(4, IndexedBlocks.longs().map(x -> (Number) x)),
        Tuple.of(4, IndexedBlocks.doubles().map(x -> (Number) x)),
        Tuple.of(2, Arbitraries.of(TWO_53 - 1, TWO_53 + 2, -TWO_53, Long.MIN_VALUE + 1).map(x -> (Number) x)),
        Tuple.of(2, Arbitraries.of(0x1p53 - 1, 0x1p63, -0x1p63, 9.223372036854775E18, 200.5, -0.5, 1e-300)
            .map(x -> (Number) x)));
  }

  static Zone zoneOf(List<Object> values) {
    Zone z = new Zone();
    NumericText p = new NumericText();
    for (Object o : values) {
      switch (o) {
        case Long l -> z.addLong(l);
        case Double d -> z.addDouble(d);
        case String s -> {
          byte[] b = s.getBytes(StandardCharsets.UTF_8);
          z.addText(b, 0, b.length, p);
        }
        default -> z.unbounded();
      }
    }
    return z;
  }

  static Object oracleValue(Object o) {
    return switch (o) {
      case String s -> Oracle.orderedValue(new Oracle.Attr("t", "k", 1, s));
      case Boolean b -> Oracle.ANY;
      default -> o;
    };
  }

  /** The rule every entry obeys: if some stored value satisfies the term, the answer is MAYBE. */
  @Property(tries = 3000)
  void aZoneNeverAnswersNoWhenAValueMatches(@ForAll("stored") List<Object> values, @ForAll("bounds") Number bound) {
    Zone z = zoneOf(values);
    for (Op op : Op.values()) {
      boolean matches = false;
      for (Object v : values) {
        matches |= Oracle.ordered(oracleValue(v), op, bound);
      }
      Answer a = bound instanceof Long l ? z.answer(op, l) : z.answer(op, bound.doubleValue());
      if (matches) {
        assertThat(a).as(values + " " + op + " " + bound).isEqualTo(Answer.MAYBE);
      }
      Statistics.label("answer").collect(matches ? "match" : a == Answer.NO ? "pruned" : "maybe, no match");
    }
  }

  @Test
  void integersPast2To53AreKeptExactly() {
    Zone z = new Zone();
    z.addLong(TWO_53 + 1);
    assertThat(z.answer(Op.GT, TWO_53)).isEqualTo(Answer.MAYBE);
    assertThat(z.answer(Op.GT, TWO_53 + 1)).isEqualTo(Answer.NO);
    assertThat(z.answer(Op.EQ, TWO_53 + 2)).isEqualTo(Answer.NO);
    assertThat(z.answer(Op.LT, TWO_53 + 1)).isEqualTo(Answer.NO);
    assertThat(z.answer(Op.GTE, Long.MAX_VALUE)).isEqualTo(Answer.NO);
    // A double bound that the integer rounds to may match an engine comparing as doubles.
    assertThat(z.answer(Op.EQ, 0x1p53)).isEqualTo(Answer.MAYBE);
    assertThat(z.answer(Op.GT, 0x1p53 + 2)).isEqualTo(Answer.NO);
  }

  @Test
  void textThatReadsAsANumberIsThatNumber() {
    Zone z = zoneOf(List.of("503", "200"));
    assertThat(z.answer(Op.GTE, 500L)).isEqualTo(Answer.MAYBE);
    assertThat(z.answer(Op.GT, 503L)).isEqualTo(Answer.NO);
    assertThat(z.answer(Op.LT, 200L)).isEqualTo(Answer.NO);
    assertThat(zoneOf(List.of("0.25")).answer(Op.GT, 0.5)).isEqualTo(Answer.NO);
  }

  @Test
  void textThatIsNotANumberMakesTheKeyUnbounded() {
    Zone z = zoneOf(List.of("503", "n/a"));
    assertThat(z.isUnbounded()).isTrue();
    assertThat(z.answer(Op.GT, 1_000_000L)).isEqualTo(Answer.MAYBE);
    assertThat(zoneOf(List.of(Boolean.TRUE)).answer(Op.LT, -5L)).isEqualTo(Answer.MAYBE);
  }

  @Test
  void nanStoredOrProbedAnswersMaybe() {
    assertThat(zoneOf(List.of(Double.NaN, 1.0)).answer(Op.GT, 5.0)).isEqualTo(Answer.MAYBE);
    assertThat(zoneOf(List.of(1L)).answer(Op.GT, Double.NaN)).isEqualTo(Answer.MAYBE);
  }

  @Test
  void signedZeroesMeetWhicheverWayAnEngineOrdersThem() {
    Zone z = zoneOf(List.of(-0.0));
    assertThat(z.answer(Op.LT, 0.0)).as("Double.compare(-0.0, 0.0) < 0").isEqualTo(Answer.MAYBE);
    assertThat(z.answer(Op.EQ, 0L)).as("-0.0 == 0").isEqualTo(Answer.MAYBE);
    assertThat(z.answer(Op.LT, -0.5)).isEqualTo(Answer.NO);
  }

  @Test
  void anEntryWithNoValuesAnswersNo() {
    Zone z = new Zone();
    for (Op op : Op.values()) {
      assertThat(z.answer(op, 0L)).isEqualTo(Answer.NO);
      assertThat(z.answer(op, 0.0)).isEqualTo(Answer.NO);
    }
  }

  @Test
  void exactComparisonOfIntegersWithDoubles() {
    assertThat(Zone.compare(TWO_53 + 1, 0x1p53)).isPositive();
    assertThat(Zone.compare(Long.MAX_VALUE, 0x1p63)).isNegative();
    assertThat(Zone.compare(Long.MIN_VALUE, -0x1p63)).isZero();
    assertThat(Zone.compare(3, 2.5)).isPositive();
    assertThat(Zone.compare(-3, -2.5)).isNegative();
    assertThat(Zone.compare(-2, -2.5)).isPositive();
    assertThat(Zone.compare(0, -0.0)).isZero();
    assertThat(Zone.compare(5, Double.POSITIVE_INFINITY)).isNegative();
    assertThat(Zone.compare(5, Double.NEGATIVE_INFINITY)).isPositive();
  }
}
