package mira.query.table;

/**
 * The rows of a child table grouped by parent id, for the parents a caller selected. Rows keep
 * their table order within a parent, which is the order they arrived in.
 *
 * <p>Two forms. The writer appends children in parent order, so a parent column normally never
 * decreases ({@link Monotone}, checked once per loaded column): then a parent's children are one
 * run of rows, found by binary search, and selecting a few parents costs a few searches rather
 * than a pass over a table of hundreds of thousands of rows. Otherwise, a compressed index built
 * by a counting sort over the rows of the selected parents (no per-row object). Not thread-safe.
 */
public final class Children {
  private static final Children NONE = new Children(new int[1], new int[0]);

  private final int[] start;
  private final int[] rows;
  /** The sorted form: the parent column, its length, and which parents count. */
  private final IntReader parent;
  private final int total;
  private final boolean[] selected;
  private int lastParent = -1;
  private int lastFrom;
  private int lastTo;

  private Children(int[] start, int[] rows) {
    this.start = start;
    this.rows = rows;
    this.parent = null;
    this.total = 0;
    this.selected = null;
  }

  private Children(IntReader parent, int total, boolean[] selected) {
    this.start = null;
    this.rows = null;
    this.parent = parent;
    this.total = total;
    this.selected = selected;
  }

  /**
   * @param parent the child table's parent id column ({@code rows} long)
   * @param parents how many parent ids there are (ids are dense, from zero)
   * @param selected which parents to index, or null for all
   */
  public static Children of(IntReader parent, int rows, int parents, boolean[] selected) {
    if (!parent.present() || rows == 0 || parents == 0) {
      return parents == 0 ? NONE : new Children(new int[parents + 1], new int[0]);
    }
    if (selected == null) {
      return all(parent, rows, parents);
    }
    return Monotone.nonDecreasing(parent, rows) ? new Children(parent, rows, selected)
        : some(parent, rows, parents, selected);
  }

  /** Every parent: a counting sort, two passes over the parent column. */
  private static Children all(IntReader parent, int rows, int parents) {
    int[] start = new int[parents + 1];
    int n = 0;
    for (int j = 0; j < rows; j++) {
      int p = parent.getInt(j);
      if (p >= 0 && p < parents) {
        start[p + 1]++;
        n++;
      }
    }
    for (int p = 0; p < parents; p++) {
      start[p + 1] += start[p];
    }
    int[] fill = new int[parents];
    int[] out = new int[n];
    for (int j = 0; j < rows; j++) {
      int p = parent.getInt(j);
      if (p >= 0 && p < parents) {
        out[start[p] + fill[p]++] = j;
      }
    }
    return new Children(start, out);
  }

  /**
   * Selected parents: one pass over the parent column collects their rows, and the counting sort
   * runs over those alone. Rendering a page reads a table of hundreds of thousands of rows for the
   * attributes of a hundred records; a second pass over it was a tenth of such a query's time.
   */
  private static Children some(IntReader parent, int rows, int parents, boolean[] selected) {
    int[] found = new int[64];
    int[] of = new int[64];
    int n = 0;
    for (int j = 0; j < rows; j++) {
      int p = parent.getInt(j);
      if (p >= 0 && p < parents && p < selected.length && selected[p]) {
        if (n == found.length) {
          found = java.util.Arrays.copyOf(found, n * 2);
          of = java.util.Arrays.copyOf(of, n * 2);
        }
        found[n] = j;
        of[n++] = p;
      }
    }
    int[] start = new int[parents + 1];
    for (int k = 0; k < n; k++) {
      start[of[k] + 1]++;
    }
    for (int p = 0; p < parents; p++) {
      start[p + 1] += start[p];
    }
    int[] cursor = java.util.Arrays.copyOf(start, parents);
    int[] out = new int[n];
    // Rows were found in table order, so placing them in that order keeps each parent's rows in it.
    for (int k = 0; k < n; k++) {
      out[cursor[of[k]]++] = found[k];
    }
    return new Children(start, out);
  }

  public int count(int parent) {
    if (this.parent != null) {
      return range(parent) ? lastTo - lastFrom : 0;
    }
    return parent + 1 < start.length ? start[parent + 1] - start[parent] : 0;
  }

  /** The {@code k}-th child row of {@code parent}. */
  public int row(int parent, int k) {
    if (this.parent != null) {
      range(parent);
      return lastFrom + k;
    }
    return rows[start[parent] + k];
  }

  /** Finds the run of {@code p}'s rows (sorted form); false if {@code p} is not selected. */
  private boolean range(int p) {
    if (p < 0 || p >= selected.length || !selected[p]) {
      return false;
    }
    if (p != lastParent) {
      lastFrom = firstAtLeast(p);
      lastTo = firstAtLeast(p + 1);
      lastParent = p;
    }
    return true;
  }

  private int firstAtLeast(long p) {
    int lo = 0;
    int hi = total;
    while (lo < hi) {
      int mid = (lo + hi) >>> 1;
      if (parent.getInt(mid) < p) {
        lo = mid + 1;
      } else {
        hi = mid;
      }
    }
    return lo;
  }
}
