package mira.bench.peer;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

/** The cross-check that decides whether the two engines answered the same. */
class AnswerTest {
  @Test
  void sameRowsInAnotherOrderAgree() {
    Answer mira = Answer.of(new long[] {3, 1, 2}, new String[] {"c", "a", "b"});
    Answer duck = Answer.of(new long[] {1, 2, 3}, new String[] {"b", "a", "c"});
    assertThat(Answer.mismatch(mira, duck)).isNull();
  }

  @Test
  void aMissingRowIsAMismatch() {
    String diff = Answer.mismatch(Answer.of(new long[] {1, 2, 3}, null), Answer.of(new long[] {1, 2}, null));
    assertThat(diff).contains("Mira returned 3 rows, DuckDB 2");
  }

  @Test
  void aDifferentTimeIsAMismatchEvenWithTheSameCount() {
    String diff = Answer.mismatch(Answer.of(new long[] {1, 2, 3}, null), Answer.of(new long[] {1, 2, 4}, null));
    assertThat(diff).contains("#3").contains("3 in Mira").contains("4 in DuckDB");
  }

  @Test
  void aDuplicatedTimeIsNotTheSameAsTwoTimes() {
    assertThat(Answer.mismatch(Answer.of(new long[] {5, 5, 7}, null), Answer.of(new long[] {5, 7, 7}, null)))
        .isNotNull();
  }

  @Test
  void aDifferentSpanIdIsAMismatch() {
    String diff = Answer.mismatch(Answer.of(new long[] {1, 2}, new String[] {"aa", "bb"}),
        Answer.of(new long[] {1, 2}, new String[] {"aa", "cc"}));
    assertThat(diff).contains("span ids differ").contains("bb").contains("cc");
  }

  @Test
  void emptyAnswersAgree() {
    assertThat(Answer.mismatch(Answer.of(new long[0], null), Answer.of(new long[0], null))).isNull();
  }

  @Test
  void idsMustCoverEveryRow() {
    assertThatThrownBy(() -> new Answer(2, new long[] {1, 2}, new String[] {"a"}))
        .isInstanceOf(IllegalArgumentException.class);
  }
}
