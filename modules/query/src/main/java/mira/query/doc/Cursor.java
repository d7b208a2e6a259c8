package mira.query.doc;

import mira.block.catalog.BlockName;
import mira.query.result.QueryException;

/**
 * A position in the total order of rows: {@code (time, node, seq, row)}, compared descending
 * (newest first) — the row's time, its block's node id and sequence, and its index in the block.
 * Every part is intrinsic to the stored row, so a cursor stays valid while blocks are written and
 * retired between pages. Spelled {@code <time>.<node as 8 hex digits>.<seq>.<row>}.
 */
public record Cursor(long time, int node, long seq, int row) {
  public String encode() {
    return time + "." + BlockName.nodeHex(node) + "." + seq + "." + row;
  }

  /**
   * Compares two positions in ascending order (the result order is the reverse): time, then node
   * (unsigned), then sequence, then row.
   */
  public static int compare(long t1, int n1, long s1, int r1, long t2, int n2, long s2, int r2) {
    if (t1 != t2) {
      return Long.compare(t1, t2);
    }
    if (n1 != n2) {
      return Integer.compareUnsigned(n1, n2);
    }
    if (s1 != s2) {
      return Long.compare(s1, s2);
    }
    return Integer.compare(r1, r2);
  }

  /** True if the row {@code (t, n, s, r)} comes after this cursor in result order (sorts below it). */
  public boolean admits(long t, int n, long s, int r) {
    return compare(t, n, s, r, time, node, seq, row) < 0;
  }

  /** Parses what {@link #encode} wrote. */
  public static Cursor parse(String s) throws QueryException {
    String[] p = s.split("\\.", -1);
    if (p.length == 4 && p[1].length() == 8) {
      try {
        long seq = Long.parseLong(p[2]);
        int row = Integer.parseInt(p[3]);
        if (seq >= 0 && row >= 0) {
          return new Cursor(Long.parseLong(p[0]), Integer.parseUnsignedInt(p[1], 16), seq, row);
        }
      } catch (NumberFormatException e) {
        // reported below
      }
    }
    throw new QueryException("after: \"" + abbreviate(s) + "\" is not a cursor; pass back the \"next\" of a previous page");
  }

  static String abbreviate(String s) {
    return s.length() <= 64 ? s : s.substring(0, 64) + "...";
  }
}
