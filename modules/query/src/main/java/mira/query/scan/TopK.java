package mira.query.scan;

import mira.query.doc.Cursor;
import mira.query.result.Row;

/**
 * The best {@code k} rows seen so far across blocks, in the total order (time, node, seq, row)
 * descending, each with its rendered JSON. A bounded min-heap: the root is the worst kept row, so
 * an offer is O(log k) and a full sort happens only once, over at most k rows, at the end.
 *
 * <p>Thread-safe: blocks of one wave offer concurrently. The worst kept row is also published
 * through a volatile snapshot so scanners can discard rows and blocks without taking the lock.
 */
final class TopK {
  /** The worst kept row once the heap is full. */
  record Worst(long time, int node, long seq, int row) {}

  private final int k;
  private final long[] time;
  private final int[] node;
  private final long[] seq;
  private final int[] row;
  private final Row[] payload;
  private int size;
  private volatile Worst worst;

  TopK(int k) {
    this.k = k;
    this.time = new long[k];
    this.node = new int[k];
    this.seq = new long[k];
    this.row = new int[k];
    this.payload = new Row[k];
  }

  /** Null until k rows are held; then the row a newcomer must beat. */
  Worst worst() {
    return worst;
  }

  /** True if a row with this key could still enter (lock-free, possibly stale: only ever too generous). */
  static boolean couldEnter(Worst w, long t, int n, long s, int r) {
    return w == null || Cursor.compare(t, n, s, r, w.time, w.node, w.seq, w.row) > 0;
  }

  /** Offers one row; returns false if it did not enter (it sorts below all k kept rows). */
  synchronized boolean offer(long t, int n, long s, int r, Row rendered) {
    if (size < k) {
      int i = size++;
      set(i, t, n, s, r, rendered);
      up(i);
      if (size == k) {
        publish();
      }
      return true;
    }
    if (Cursor.compare(t, n, s, r, time[0], node[0], seq[0], row[0]) <= 0) {
      return false;
    }
    set(0, t, n, s, r, rendered);
    down(0);
    publish();
    return true;
  }

  synchronized int size() {
    return size;
  }

  /** Empties the heap into an array of entries, best first. */
  synchronized Entry[] drainDescending() {
    Entry[] out = new Entry[size];
    for (int i = size - 1; i >= 0; i--) {
      out[i] = new Entry(time[0], node[0], seq[0], row[0], payload[0]);
      size--;
      if (size > 0) {
        move(size, 0);
        down(0);
      }
    }
    worst = null;
    return out;
  }

  record Entry(long time, int node, long seq, int row, Row payload) {}

  private void publish() {
    worst = new Worst(time[0], node[0], seq[0], row[0]);
  }

  private void set(int i, long t, int n, long s, int r, Row rendered) {
    time[i] = t;
    node[i] = n;
    seq[i] = s;
    row[i] = r;
    payload[i] = rendered;
  }

  private void move(int from, int to) {
    set(to, time[from], node[from], seq[from], row[from], payload[from]);
    payload[from] = null;
  }

  private int cmp(int a, int b) {
    return Cursor.compare(time[a], node[a], seq[a], row[a], time[b], node[b], seq[b], row[b]);
  }

  private void swap(int a, int b) {
    long t = time[a];
    time[a] = time[b];
    time[b] = t;
    int n = node[a];
    node[a] = node[b];
    node[b] = n;
    long s = seq[a];
    seq[a] = seq[b];
    seq[b] = s;
    int r = row[a];
    row[a] = row[b];
    row[b] = r;
    Row j = payload[a];
    payload[a] = payload[b];
    payload[b] = j;
  }

  private void up(int i) {
    while (i > 0) {
      int p = (i - 1) >>> 1;
      if (cmp(i, p) >= 0) {
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
      int m = l + 1 < size && cmp(l + 1, l) < 0 ? l + 1 : l;
      if (cmp(m, i) >= 0) {
        return;
      }
      swap(m, i);
      i = m;
    }
  }
}
