package mira.bench.peer;

import java.util.Arrays;

/**
 * What one side answered, reduced to what both sides must agree on: the row count, the rows' times
 * (ns; a log's time_unix_nano, a span's start) as a sorted multiset, and for spans their span ids
 * (lowercase hex), sorted. Order within equal times is not compared: the two engines break ties
 * differently and both are right.
 *
 * @param times sorted ascending
 * @param ids sorted, or null where the signal has no row id (logs)
 */
public record Answer(int rows, long[] times, String[] ids) {
  public Answer {
    if (times.length != rows || (ids != null && ids.length != rows)) {
      throw new IllegalArgumentException(rows + " rows with " + times.length + " times and "
          + (ids == null ? "no" : ids.length) + " ids");
    }
  }

  /** An answer of the given times and ids (either order); copies and sorts them. */
  public static Answer of(long[] times, String[] ids) {
    long[] t = times.clone();
    Arrays.sort(t);
    String[] i = ids == null ? null : ids.clone();
    if (i != null) {
      Arrays.sort(i);
    }
    return new Answer(t.length, t, i);
  }

  /**
   * Null if {@code mira} and {@code duck} agree, else a one-line description of the first
   * difference: the row counts, then the times, then the ids.
   */
  public static String mismatch(Answer mira, Answer duck) {
    if (mira.rows != duck.rows) {
      return "Mira returned " + mira.rows + " rows, DuckDB " + duck.rows;
    }
    for (int i = 0; i < mira.rows; i++) {
      if (mira.times[i] != duck.times[i]) {
        return "row times differ: the " + ordinal(i) + " smallest is " + mira.times[i] + " in Mira, "
            + duck.times[i] + " in DuckDB";
      }
    }
    if (mira.ids != null && duck.ids != null) {
      for (int i = 0; i < mira.rows; i++) {
        if (!mira.ids[i].equals(duck.ids[i])) {
          return "span ids differ: the " + ordinal(i) + " in order is " + mira.ids[i] + " in Mira, " + duck.ids[i]
              + " in DuckDB";
        }
      }
    }
    return null;
  }

  private static String ordinal(int i) {
    return "#" + (i + 1);
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof Answer a && rows == a.rows && Arrays.equals(times, a.times) && Arrays.equals(ids, a.ids);
  }

  @Override
  public int hashCode() {
    return 31 * Arrays.hashCode(times) + Arrays.hashCode(ids);
  }

  @Override
  public String toString() {
    return "Answer[" + rows + " rows]";
  }
}
