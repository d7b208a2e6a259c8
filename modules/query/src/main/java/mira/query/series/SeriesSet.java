package mira.query.series;

import java.util.Map;
import java.util.TreeMap;

/**
 * The series a query keeps, capped while scanning: at most {@code maxSeries}, the smallest keys.
 * When one too many is present the largest key is evicted, which keeps exactly the set that
 * sorting every key and truncating would keep — a key among the smallest {@code maxSeries} can
 * never be the largest of a map holding one more — without ever holding more than the cap.
 * Evicted and refused keys are counted (distinct) as dropped series.
 */
final class SeriesSet {
  private final int maxSeries;
  private final TreeMap<String, Series> map = new TreeMap<>();
  private final LongHashSet dropped = new LongHashSet();
  /** Series other nodes dropped, counted by them (a series dropped on two nodes counts twice). */
  private long droppedElsewhere;

  SeriesSet(int maxSeries) {
    this.maxSeries = maxSeries;
  }

  /** The series of {@code key} if kept. */
  Series get(String key) {
    return map.get(key);
  }

  /** Whether a new series with this key would be kept; if not, it is counted as dropped. */
  boolean admit(String key) {
    if (map.size() < maxSeries || key.compareTo(map.lastKey()) < 0) {
      return true;
    }
    dropped.add(LongHashSet.hash(key));
    return false;
  }

  /** Adds a series {@link #admit} accepted, evicting the largest key if now over the cap. */
  void put(String key, Series s) {
    map.put(key, s);
    if (map.size() > maxSeries) {
      Map.Entry<String, Series> last = map.pollLastEntry();
      dropped.add(LongHashSet.hash(last.getKey()));
    }
  }

  /** Merges a block's collection into this one. */
  void merge(SeriesSet local) {
    for (Map.Entry<String, Series> e : local.map.entrySet()) {
      Series mine = map.get(e.getKey());
      if (mine != null) {
        mine.absorb(e.getValue());
      } else if (admit(e.getKey())) {
        put(e.getKey(), e.getValue());
      }
    }
    // A key the block dropped had maxSeries smaller keys there, all merged above: it is dropped here too.
    dropped.addAll(local.dropped);
  }

  int size() {
    return map.size();
  }

  boolean isEmpty() {
    return map.isEmpty();
  }

  Iterable<Series> series() {
    return map.values();
  }

  long droppedSeries() {
    return dropped.count() + droppedElsewhere;
  }

  void addDropped(long n) {
    droppedElsewhere += n;
  }
}
