package mira.block.index;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.Arrays;
import mira.block.column.Column;
import mira.block.column.FixedColumn;
import mira.block.table.Batch;
import mira.block.table.Table;

/**
 * {@code trace.idx}: a Bloom filter over the distinct trace ids of a block's root table (spans or
 * log records), so a trace lookup opens only blocks that may hold the trace.
 *
 * <p>File (inside the {@link SidecarFile} frame, magic {@code "MTIX"}, version 1, flags 0):
 * {@code u64 keys, u32 hashes (7), u32 0, u64 bits, bits/64 × u64 words}. Ids are inserted once per
 * run of equal adjacent ids (the spans of a trace arrive together), nulls skipped, and the filter is
 * sized at 10 bits per id inserted. Each id is read as two big-endian 64-bit halves, and each half
 * goes through {@link Hashing#splitmix64} before double hashing: W3C asks only that an id be
 * non-zero, many ids are structured (a zero high half from 64-bit tracers, an epoch in the first
 * bytes from X-Ray), and the bit positions come from a multiply-high of the hash, so unmixed
 * structure would pile the ids onto a few bits. A block with no trace id writes no file.
 *
 * <p>Answers err only one way: {@link #mightContain} is true for every id in the block; it may be
 * true for others (about 1 % of them). An index that is missing or damaged is {@linkplain #known()
 * unknown} and answers true to everything. Immutable and thread-safe.
 */
public final class TraceIndex {
  public static final String FILE = "trace.idx";
  static final byte[] MAGIC = {'M', 'T', 'I', 'X'};
  static final int VERSION = 1;
  private static final long SEED_H2 = 0x5851F42D4C957F2DL;

  private static final TraceIndex ABSENT = new TraceIndex(null, 0, "no " + FILE);

  private final Bloom bloom;
  private final long keys;
  private final String reason;

  private TraceIndex(Bloom bloom, long keys, String reason) {
    this.bloom = bloom;
    this.keys = keys;
    this.reason = reason;
  }

  /** An index that knows nothing: every id may be in the block. */
  public static TraceIndex unknown(String reason) {
    return new TraceIndex(null, 0, reason);
  }

  /**
   * Reads {@code blockDir/trace.idx}. Never throws: a missing, short, foreign, future-version or
   * corrupt file gives an {@linkplain #known() unknown} index, which sends the caller to the scan.
   */
  public static TraceIndex read(Path blockDir) {
    byte[] bytes;
    try {
      bytes = SidecarFile.read(blockDir.resolve(FILE));
    } catch (IOException e) {
      return unknown(FILE + " unreadable: " + e);
    }
    return bytes == null ? ABSENT : parse(bytes);
  }

  /** Parses the bytes of a {@code trace.idx} file; unknown if they are damaged. */
  public static TraceIndex parse(byte[] file) {
    try {
      SidecarFile.Opened f = SidecarFile.open(file, MAGIC, VERSION);
      ByteBuffer p = f.payload();
      if (p.remaining() < 8) {
        throw new SidecarFile.Damaged("payload truncated");
      }
      long keys = p.getLong();
      Bloom bloom = Bloom.readFrom(p);
      return new TraceIndex(bloom, keys, null);
    } catch (SidecarFile.Damaged e) {
      return unknown(FILE + " unusable: " + e.getMessage());
    }
  }

  /**
   * Builds the index of {@code batch}'s root table, or returns null if that table has no trace_id
   * column or no row has a trace id.
   */
  public static TraceIndex build(Batch batch) {
    FixedColumn ids = traceIds(batch.table(Batch.ROOT));
    if (ids == null) {
      return null;
    }
    byte[] a = ids.array();
    int rows = ids.size();
    long keys = 0;
    int prev = -1;
    for (int i = 0; i < rows; i++) {
      if (ids.isSet(i)) {
        if (prev < 0 || !sameId(a, prev, i)) {
          keys++;
        }
        prev = i;
      }
    }
    if (keys == 0) {
      return null;
    }
    Bloom bloom = Bloom.forKeys(keys);
    prev = -1;
    for (int i = 0; i < rows; i++) {
      if (ids.isSet(i)) {
        if (prev < 0 || !sameId(a, prev, i)) {
          int off = i * 16;
          add(bloom, Hashing.high(a, off), Hashing.low(a, off));
        }
        prev = i;
      }
    }
    return new TraceIndex(bloom, keys, null);
  }

  /** An index over {@code bloom} as it stands (for tests of the hashing). */
  static TraceIndex over(Bloom bloom) {
    return new TraceIndex(bloom, 0, null);
  }

  /** Inserts the 16-byte id at {@code b[off..]}. */
  void insert(byte[] b, int off) {
    add(bloom, Hashing.high(b, off), Hashing.low(b, off));
  }

  private static FixedColumn traceIds(Table root) {
    for (Column c : root.columns()) {
      if (c.name().equals("trace_id") && c instanceof FixedColumn f && f.width() == 16) {
        return f;
      }
    }
    return null;
  }

  private static boolean sameId(byte[] a, int i, int j) {
    return Arrays.equals(a, i * 16, i * 16 + 16, a, j * 16, j * 16 + 16);
  }

  private static void add(Bloom bloom, long hi, long lo) {
    long a = Hashing.splitmix64(hi);
    long b = Hashing.splitmix64(lo ^ SEED_H2);
    bloom.add(h1(a, b), h2(a, b));
  }

  private static long h1(long a, long b) {
    return a ^ b;
  }

  /** Odd, so successive probe positions never repeat within one id's probes. */
  private static long h2(long a, long b) {
    return (a + Long.rotateLeft(b, 32)) | 1;
  }

  /** The file's bytes. */
  public byte[] toBytes() {
    requireKnown();
    ByteBuffer b = SidecarFile.start(MAGIC, VERSION, 0, 8 + bloom.serializedSize());
    b.putLong(keys);
    bloom.writeTo(b);
    return SidecarFile.finish(b);
  }

  /** True if the trace with this 16-byte id may have a row in the block; always true when unknown. */
  public boolean mightContain(byte[] traceId) {
    if (traceId.length != 16) {
      throw new IllegalArgumentException("a trace id has 16 bytes, not " + traceId.length);
    }
    return mightContain(traceId, 0);
  }

  /** {@link #mightContain(byte[])} for the 16 bytes at {@code b[off..]}. */
  public boolean mightContain(byte[] b, int off) {
    if (bloom == null) {
      return true;
    }
    long a = Hashing.splitmix64(Hashing.high(b, off));
    long c = Hashing.splitmix64(Hashing.low(b, off) ^ SEED_H2);
    return bloom.mightContain(h1(a, c), h2(a, c));
  }

  /** False if the file was missing or damaged, so every answer is "maybe". */
  public boolean known() {
    return bloom != null;
  }

  /** Ids inserted (distinct up to adjacency). */
  public long keys() {
    return keys;
  }

  /** Bits in the filter (0 when unknown). */
  public long bits() {
    return bloom == null ? 0 : bloom.bits();
  }

  /** Why the index is unknown, or null if it is known. */
  public String reason() {
    return reason;
  }

  private void requireKnown() {
    if (bloom == null) {
      throw new IllegalStateException("an unknown index has nothing to write");
    }
  }

  @Override
  public String toString() {
    return bloom == null ? "TraceIndex[unknown: " + reason + "]" : "TraceIndex[" + keys + " ids, " + bloom.bits() + " bits]";
  }
}
