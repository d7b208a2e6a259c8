package mira.query.frame;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import mira.block.catalog.BlockRef;
import mira.block.layout.ColumnNames;
import mira.block.layout.TableFiles;
import mira.block.read.BlockReader;
import mira.block.read.CorruptBlockException;
import mira.block.read.TableView;
import mira.proto.wire.Signal;
import mira.proto.wire.WireException;
import mira.query.result.Attribute;
import mira.query.result.Resource;
import mira.query.rows.AttrLists;
import mira.query.table.AttrTable;
import mira.query.table.IntReader;
import mira.query.table.Scratch;
import mira.query.table.Tables;

/**
 * The census of a sealed block that a window cuts, kept per process: every record's time, sorted,
 * with its resource (and, for spans, whether its status is ERROR), plus each resource's entity key
 * and attributes. A census over a window that holds only part of the block counts the rows between
 * two binary searches of these arrays instead of opening and scanning the block, exactly as
 * {@link Census} would count them. About 12 bytes a record; kept least recently used first within
 * {@link #MAX_BYTES} (64 MiB: a few dozen blocks, the ones the ends of the windows asked for lie
 * in; a sixteenth of the heap if that is less), dropped with their block by {@link #sweep}. Keyed as
 * {@link BlockTallies}.
 */
final class BlockTimes {
  static final long MAX_BYTES = Math.min(64L << 20, Runtime.getRuntime().maxMemory() / 16);
  private static final int ERROR_BIT = 1 << 31;

  private static final Map<Object, BlockTimes> CACHE = new LinkedHashMap<>(64, 0.75f, true);
  private static long cached;

  /** Record times, sorted; and per record its resource, with {@link #ERROR_BIT} for an error span. */
  private final long[] times;
  private final int[] resources;
  private final long[] keys;
  private final List<List<Attribute>> attributes;

  private BlockTimes(long[] times, int[] resources, long[] keys, List<List<Attribute>> attributes) {
    this.times = times;
    this.resources = resources;
    this.keys = keys;
    this.attributes = attributes;
  }

  int records() {
    return times.length;
  }

  long bytes() {
    return 64 + times.length * 12L + keys.length * 200L;
  }

  static BlockTimes get(Object key) {
    if (key == null) {
      return null;
    }
    synchronized (CACHE) {
      return CACHE.get(key);
    }
  }

  static void put(Object key, BlockTimes t) {
    if (key == null || t.bytes() > MAX_BYTES) {
      return;
    }
    synchronized (CACHE) {
      BlockTimes old = CACHE.put(key, t);
      cached += t.bytes() - (old == null ? 0 : old.bytes());
      Iterator<BlockTimes> it = CACHE.values().iterator();
      while (cached > MAX_BYTES && it.hasNext()) {
        cached -= it.next().bytes();
        it.remove();
      }
    }
  }

  /** Drops the entries of blocks whose directory is gone or was replaced. */
  static void sweep() {
    List<Object> keys;
    synchronized (CACHE) {
      keys = new ArrayList<>(CACHE.keySet());
    }
    for (Object k : keys) {
      Path dir = Path.of((String) ((List<?>) k).get(0));
      if (!Files.isDirectory(dir) || !k.equals(BlockTallies.key(dir))) {
        synchronized (CACHE) {
          BlockTimes t = CACHE.remove(k);
          if (t != null) {
            cached -= t.bytes();
          }
        }
      }
    }
  }

  static int size() {
    synchronized (CACHE) {
      return CACHE.size();
    }
  }

  /** Reads the record times of {@code signal}'s block open in {@code r}. */
  static BlockTimes read(BlockReader r, BlockRef ref, Signal signal) throws CorruptBlockException {
    TableView res = Tables.get(r, TableFiles.RESOURCES);
    int nRes = res == null ? 0 : res.rows();
    long[] times = new long[16];
    int[] rids = new int[16];
    int n = 0;
    switch (signal) {
      case LOGS -> {
        TableView t = Tables.get(r, TableFiles.LOGS);
        if (t != null) {
          IntReader rid = IntReader.of(t.column(ColumnNames.RESOURCE_ID));
          IntReader time = IntReader.of(t.column(ColumnNames.TIME_UNIX_NANO));
          times = new long[t.rows()];
          rids = new int[t.rows()];
          for (int i = 0; i < t.rows(); i++) {
            int id = rid.getInt(i);
            if (id >= 0 && id < nRes) {
              times[n] = time.get(i);
              rids[n++] = id;
            }
          }
        }
      }
      case TRACES -> {
        TableView t = Tables.get(r, TableFiles.SPANS);
        if (t != null) {
          IntReader rid = IntReader.of(t.column(ColumnNames.RESOURCE_ID));
          IntReader start = IntReader.of(t.column(ColumnNames.START_TIME_UNIX_NANO));
          IntReader end = IntReader.of(t.column(ColumnNames.END_TIME_UNIX_NANO));
          IntReader status = IntReader.of(t.column(ColumnNames.STATUS_CODE));
          long fallback = ref.name().maxTime();
          times = new long[t.rows()];
          rids = new int[t.rows()];
          for (int i = 0; i < t.rows(); i++) {
            long s = start.getOr(i, 0);
            if (s == 0) {
              s = end.getOr(i, 0);
            }
            int id = rid.getInt(i);
            if (id >= 0 && id < nRes) {
              times[n] = s != 0 ? s : fallback;
              rids[n++] = id | (status.getOr(i, 0) == 2 ? ERROR_BIT : 0);
            }
          }
        }
      }
      default -> {
        TableView metrics = Tables.get(r, TableFiles.METRICS);
        if (metrics != null) {
          IntReader mres = IntReader.of(metrics.column(ColumnNames.RESOURCE_ID));
          int nm = metrics.rows();
          int[] resOf = new int[nm];
          for (int m = 0; m < nm; m++) {
            resOf[m] = mres.getInt(m);
          }
          for (String file : new String[] {TableFiles.NUMBER_DP, TableFiles.HIST_DP, TableFiles.EXP_HIST_DP,
              TableFiles.SUMMARY_DP}) {
            TableView t = Tables.get(r, file);
            if (t == null) {
              continue;
            }
            IntReader parent = IntReader.of(t.column(ColumnNames.PARENT_ID));
            IntReader time = IntReader.of(t.column(ColumnNames.TIME_UNIX_NANO));
            if (n + t.rows() > times.length) {
              times = Arrays.copyOf(times, n + t.rows());
              rids = Arrays.copyOf(rids, n + t.rows());
            }
            for (int i = 0; i < t.rows(); i++) {
              int p = parent.getInt(i);
              if (p >= 0 && p < nm && resOf[p] >= 0 && resOf[p] < nRes) {
                times[n] = time.get(i);
                rids[n++] = resOf[p];
              }
            }
          }
        }
      }
    }
    times = Arrays.copyOf(times, n);
    rids = Arrays.copyOf(rids, n);
    MapPiece.Radix.sort(times, rids, n);
    IntReader key = IntReader.of(res == null ? null : res.column(ColumnNames.KEY));
    boolean[] used = new boolean[nRes];
    for (int i = 0; i < n; i++) {
      used[rids[i] & ~ERROR_BIT] = true;
    }
    AttrLists attrs = new AttrLists(AttrTable.of(Tables.get(r, TableFiles.RESOURCE_ATTRS)), nRes, used);
    Scratch scratch = new Scratch();
    long[] keys = new long[nRes];
    List<List<Attribute>> lists = new ArrayList<>(nRes);
    try {
      for (int i = 0; i < nRes; i++) {
        keys[i] = used[i] ? key.getOr(i, Resource.NO_ENTITY) : Resource.NO_ENTITY;
        lists.add(used[i] ? attrs.get(i, scratch) : null);
      }
    } catch (WireException e) {
      throw new CorruptBlockException(ref.dir(), TableFiles.RESOURCE_ATTRS, e.getMessage());
    }
    return new BlockTimes(times, rids, keys, lists);
  }

  /** The records in {@code [from, to]} as {@link Census} counts them, signal {@code si}. */
  Map<Object, Census.Tally> tally(long from, long to, int si) {
    int a = lowerBound(from);
    int b = upperBound(to);
    int nRes = keys.length;
    long[] count = new long[nRes];
    long[] errors = new long[nRes];
    long[] first = new long[nRes];
    long[] last = new long[nRes];
    Arrays.fill(first, Long.MAX_VALUE);
    Arrays.fill(last, Long.MIN_VALUE);
    for (int i = a; i < b; i++) {
      int r = resources[i];
      int id = r & ~ERROR_BIT;
      long t = times[i];
      count[id]++;
      if (r < 0) {
        errors[id]++;
      }
      // Times ascend: the first seen is the first, the last seen the last.
      if (first[id] == Long.MAX_VALUE) {
        first[id] = t;
      }
      last[id] = t;
    }
    Map<Object, Census.Tally> out = new HashMap<>();
    for (int i = 0; i < nRes; i++) {
      if (count[i] == 0) {
        continue;
      }
      List<Attribute> attrs = attributes.get(i);
      Census.Tally t = new Census.Tally(keys[i], attrs);
      t.records[si] = count[i];
      t.errors = errors[i];
      t.first = first[i];
      t.last = last[i];
      Object group = keys[i] != Resource.NO_ENTITY ? (Object) keys[i] : attrs;
      Census.Tally have = out.get(group);
      if (have == null) {
        out.put(group, t);
      } else {
        have.add(t);
      }
    }
    return out;
  }

  private int lowerBound(long v) {
    int a = 0;
    int b = times.length;
    while (a < b) {
      int m = (a + b) >>> 1;
      if (times[m] < v) {
        a = m + 1;
      } else {
        b = m;
      }
    }
    return a;
  }

  private int upperBound(long v) {
    int a = 0;
    int b = times.length;
    while (a < b) {
      int m = (a + b) >>> 1;
      if (times[m] <= v) {
        a = m + 1;
      } else {
        b = m;
      }
    }
    return a;
  }
}
