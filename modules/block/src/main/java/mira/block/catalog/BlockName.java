package mira.block.catalog;

import java.nio.charset.StandardCharsets;
import java.util.OptionalLong;
import java.util.Optional;

/**
 * A block's directory name, which is the whole of its catalogue entry:
 * {@code <min_ts:020>-<max_ts:020>-<node:08x>-<seq:012>-<wal_hi:020>} under
 * {@code <signal>/p=<epoch_hour of min_ts>/}. Times are ns since the epoch; {@code node} is the
 * 32-bit hash of the node name; {@code seq} is unique per (node, signal); {@code walHi} is the
 * write-ahead log position the block covers (exclusive), 0 without a log. Four-field names (no
 * wal_hi) parse with walHi 0.
 */
public record BlockName(long minTime, long maxTime, int node, long seq, long walHi) {
  /** Nanoseconds per partition (one hour). */
  public static final long PARTITION_NS = 3_600_000_000_000L;

  public String dirName() {
    return String.format("%020d-%020d-%08x-%012d-%020d", minTime, maxTime, node, seq, walHi);
  }

  /** The partition directory name, {@code p=<hour>}. */
  public String partition() {
    return "p=" + Math.floorDiv(minTime, PARTITION_NS);
  }

  /** The node part as it appears in names: 8 lowercase hex digits. */
  /**
   * The start, in ns since the epoch, of the hour a partition directory ({@code p=<hour>}) holds,
   * or empty if {@code dirName} is not a partition's name. A partition holds the blocks whose
   * minimum time falls in its hour; their maximum time can be later.
   */
  public static OptionalLong partitionStart(String dirName) {
    if (!dirName.startsWith("p=")) {
      return OptionalLong.empty();
    }
    try {
      return OptionalLong.of(Long.parseLong(dirName.substring(2)) * PARTITION_NS);
    } catch (NumberFormatException e) {
      return OptionalLong.empty();
    }
  }

  public static String nodeHex(int node) {
    return String.format("%08x", node);
  }

  /** The 32-bit id of a node name (FNV-1a over its UTF-8 bytes). Part of the on-disk format. */
  public static int nodeId(String node) {
    int h = 0x811c9dc5;
    for (byte b : node.getBytes(StandardCharsets.UTF_8)) {
      h = (h ^ (b & 0xFF)) * 0x01000193;
    }
    return h;
  }

  /** Parses a block directory name; empty for anything else (staging dirs, stray files). */
  public static Optional<BlockName> parse(String name) {
    String[] f = name.split("-");
    if (f.length != 4 && f.length != 5) {
      return Optional.empty();
    }
    try {
      if (f[0].length() != 20 || f[1].length() != 20 || f[2].length() != 8 || f[3].length() != 12) {
        return Optional.empty();
      }
      long min = Long.parseLong(f[0]);
      long max = Long.parseLong(f[1]);
      int node = Integer.parseUnsignedInt(f[2], 16);
      long seq = Long.parseLong(f[3]);
      long walHi = f.length == 5 ? Long.parseLong(f[4]) : 0;
      if (min > max || seq < 0 || walHi < 0) {
        return Optional.empty();
      }
      return Optional.of(new BlockName(min, max, node, seq, walHi));
    } catch (NumberFormatException e) {
      return Optional.empty();
    }
  }
}
