package mira.query.scan;

/**
 * The best {@code k} rows of one block by (time, row) descending — within a block node and
 * sequence are fixed, so this is the block's part of the total order. A bounded min-heap over two
 * primitive arrays; not thread-safe (one per block scan).
 */
final class RowHeap {
  private final long[] time;
  private final int[] row;
  private int size;

  RowHeap(int k) {
    time = new long[k];
    row = new int[k];
  }

  void offer(long t, int r) {
    int k = time.length;
    if (size < k) {
      int i = size++;
      time[i] = t;
      row[i] = r;
      up(i);
      return;
    }
    if (t < time[0] || (t == time[0] && r <= row[0])) {
      return;
    }
    time[0] = t;
    row[0] = r;
    down(0);
  }

  int size() {
    return size;
  }

  /**
   * Empties the heap into {@code rows}/{@code times}, best first; returns how many.
   */
  int drainDescending(int[] rows, long[] times) {
    int n = size;
    for (int i = n - 1; i >= 0; i--) {
      rows[i] = row[0];
      times[i] = time[0];
      size--;
      if (size > 0) {
        time[0] = time[size];
        row[0] = row[size];
        down(0);
      }
    }
    return n;
  }

  private boolean less(int a, int b) {
    return time[a] < time[b] || (time[a] == time[b] && row[a] < row[b]);
  }

  private void swap(int a, int b) {
    long t = time[a];
    time[a] = time[b];
    time[b] = t;
    int r = row[a];
    row[a] = row[b];
    row[b] = r;
  }

  private void up(int i) {
    while (i > 0) {
      int p = (i - 1) >>> 1;
      if (!less(i, p)) {
        return;
      }
      swap(i, p);
      i = p;
    }
  }

  private void down(int i) {
    while (true) {
      int l = 2 * i + 1;
      if (l >= size) {
        return;
      }
      int m = l + 1 < size && less(l + 1, l) ? l + 1 : l;
      if (!less(m, i)) {
        return;
      }
      swap(m, i);
      i = m;
    }
  }
}
