package mira.block.index;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import mira.block.column.Column;
import mira.block.layout.ColumnNames;
import mira.block.column.VarColumn;
import mira.block.table.Batch;
import mira.block.table.Table;
import mira.proto.wire.Signal;

/**
 * {@code text.idx}: a Bloom filter over the distinct byte trigrams of the text a {@code text} term
 * searches — a log's body (a string body's bytes, or the serialized bytes of an array or kvlist
 * body, in which every nested string lies whole), a span's name and status message.
 *
 * <p>A {@code text} term is a case-sensitive substring, so a filter over whole words could not
 * rule a block out: {@code "Pointer"} is inside {@code "NullPointerException"}. Trigrams can: a
 * body that contains a needle of three or more bytes contains every trigram of it, so a block
 * missing any of the needle's trigrams holds no match. A rare word, an exception class or an id
 * that appears in a body therefore opens only the blocks that may hold it; a needle shorter than
 * three bytes is not tested. Working on UTF-8 bytes is exact, because a string contains another
 * exactly when its UTF-8 bytes contain the other's.
 *
 * <p>There are at most 2^24 trigrams, and text holds far fewer (tens of thousands in a block of
 * English, paths and hex ids), so the filter has a natural bound: 10 bits a distinct trigram,
 * 7 probes. Past {@link #MAX_TRIGRAMS} distinct trigrams (binary-looking bodies, where the filter
 * would be near full and prune nothing) no file is written.
 *
 * <p>File (inside the {@link SidecarFile} frame, magic {@code "MTXI"}, version 1, no flags):
 * {@code u64 trigrams, u32 hashes (7), u32 0, u64 bits, bits/64 × u64 words}. A trigram's hash is
 * {@code splitmix64(b0 << 16 | b1 << 8 | b2 ^ SEED)}; the probe positions come from it and
 * {@code splitmix64(h ^ SEED2) | 1}.
 *
 * <p>Answers err only one way. An index that is missing or damaged is {@linkplain #known()
 * unknown} and answers "maybe". Immutable and thread-safe.
 */
public final class TextIndex {
  public static final String FILE = "text.idx";
  /** Past this many distinct trigrams a block gets no text.idx. */
  public static final int MAX_TRIGRAMS = 4_000_000;
  /** Needles shorter than this are not tested. */
  public static final int GRAM = 3;
  static final byte[] MAGIC = {'M', 'T', 'X', 'I'};
  static final int VERSION = 1;
  private static final long SEED = 0x6A09E667F3BCC909L;
  private static final long SEED_H2 = 0x3C6EF372FE94F82BL;

  private static final TextIndex ABSENT = new TextIndex(null, 0, "no " + FILE);

  private final Bloom bloom;
  private final long trigrams;
  private final String reason;

  private TextIndex(Bloom bloom, long trigrams, String reason) {
    this.bloom = bloom;
    this.trigrams = trigrams;
    this.reason = reason;
  }

  /** An index that knows nothing: every needle may be in the block. */
  public static TextIndex unknown(String reason) {
    return new TextIndex(null, 0, reason);
  }

  /** Reads {@code blockDir/text.idx}; never throws (see {@link TraceIndex#read}). */
  public static TextIndex read(Path blockDir) {
    byte[] bytes;
    try {
      bytes = SidecarFile.read(blockDir.resolve(FILE));
    } catch (IOException e) {
      return unknown(FILE + " unreadable: " + e);
    }
    return bytes == null ? ABSENT : parse(bytes);
  }

  /** Parses the bytes of a {@code text.idx} file; unknown if they are damaged. */
  public static TextIndex parse(byte[] file) {
    try {
      SidecarFile.Opened f = SidecarFile.open(file, MAGIC, VERSION);
      ByteBuffer p = f.payload();
      if (p.remaining() < 8) {
        throw new SidecarFile.Damaged("payload truncated");
      }
      long n = p.getLong();
      return new TextIndex(Bloom.readFrom(p), n, null);
    } catch (SidecarFile.Damaged e) {
      return unknown(FILE + " unusable: " + e.getMessage());
    }
  }

  /** The columns of {@code batch}'s root table that a text term searches, for logs and spans. */
  static VarColumn[] searched(Batch batch) {
    Table root = batch.table(Batch.ROOT);
    String[] names = batch.signal() == Signal.LOGS ? new String[] {ColumnNames.BODY, ColumnNames.BODY_SER}
        : batch.signal() == Signal.TRACES ? new String[] {ColumnNames.NAME, ColumnNames.STATUS_MESSAGE} : new String[0];
    VarColumn[] out = new VarColumn[names.length];
    int n = 0;
    for (String name : names) {
      for (Column c : root.columns()) {
        if (c.name().equals(name) && c instanceof VarColumn v) {
          out[n++] = v;
        }
      }
    }
    return java.util.Arrays.copyOf(out, n);
  }

  /**
   * Builds the index of {@code batch}: null for metrics, for a batch without the searched columns,
   * and past {@link #MAX_TRIGRAMS} distinct trigrams.
   */
  public static TextIndex build(Batch batch) {
    return build(batch, MAX_TRIGRAMS);
  }

  static TextIndex build(Batch batch, int maxTrigrams) {
    VarColumn[] columns = searched(batch);
    if (columns.length == 0) {
      return null;
    }
    int rows = batch.table(Batch.ROOT).rows();
    // One bit for each of the 2^24 trigrams: 2 MiB, the set of those seen, in a pass over the bytes.
    long[] seen = new long[1 << 18];
    long distinct = 0;
    for (VarColumn c : columns) {
      byte[] a = c.array();
      for (int i = 0; i < rows; i++) {
        int from = c.start(i);
        int to = c.end(i);
        if (to - from < GRAM) {
          continue;
        }
        int g = (a[from] & 0xFF) << 8 | (a[from + 1] & 0xFF);
        for (int k = from + 2; k < to; k++) {
          g = (g << 8 | (a[k] & 0xFF)) & 0xFFFFFF;
          long bit = 1L << (g & 63);
          long w = seen[g >>> 6];
          if ((w & bit) == 0) {
            seen[g >>> 6] = w | bit;
            distinct++;
          }
        }
      }
    }
    if (distinct > maxTrigrams) {
      return null;
    }
    Bloom bloom = Bloom.forKeys(distinct);
    for (int word = 0; word < seen.length; word++) {
      long w = seen[word];
      while (w != 0) {
        int g = word << 6 | Long.numberOfTrailingZeros(w);
        long h = hash(g);
        bloom.add(h, h2(h));
        w &= w - 1;
      }
    }
    return new TextIndex(bloom, distinct, null);
  }

  private static long hash(int trigram) {
    return Hashing.splitmix64(trigram ^ SEED);
  }

  private static long h2(long h) {
    return Hashing.splitmix64(h ^ SEED_H2) | 1;
  }

  /** The file's bytes. */
  public byte[] toBytes() {
    if (bloom == null) {
      throw new IllegalStateException("an unknown index has nothing to write");
    }
    ByteBuffer b = SidecarFile.start(MAGIC, VERSION, 0, 8 + bloom.serializedSize());
    b.putLong(trigrams);
    bloom.writeTo(b);
    return SidecarFile.finish(b);
  }

  /**
   * The probe for a {@code text} term: the hashes of the needle's distinct trigrams, computed
   * once for every block. Null if the needle is shorter than {@link #GRAM} bytes (nothing to test).
   */
  public static long[] probe(String needle) {
    byte[] b = needle.getBytes(StandardCharsets.UTF_8);
    if (b.length < GRAM) {
      return null;
    }
    long[] out = new long[b.length - GRAM + 1];
    int n = 0;
    for (int k = 0; k + GRAM <= b.length; k++) {
      long h = hash((b[k] & 0xFF) << 16 | (b[k + 1] & 0xFF) << 8 | (b[k + 2] & 0xFF));
      boolean dup = false;
      for (int j = 0; j < n && !dup; j++) {
        dup = out[j] == h;
      }
      if (!dup) {
        out[n++] = h;
      }
    }
    return java.util.Arrays.copyOf(out, n);
  }

  /**
   * True if the block may hold a text value containing the needle {@code probe} was built from:
   * false only when one of its trigrams is in no searched value of the block. True when the
   * index is unknown or the probe is null.
   */
  public boolean mightContain(long[] probe) {
    if (bloom == null || probe == null) {
      return true;
    }
    for (long h : probe) {
      if (!bloom.mightContain(h, h2(h))) {
        return false;
      }
    }
    return true;
  }

  /** False if the file was missing or damaged, so every answer is "maybe". */
  public boolean known() {
    return bloom != null;
  }

  /** Distinct trigrams inserted. */
  public long trigrams() {
    return trigrams;
  }

  /** Bits in the filter (0 when unknown). */
  public long bits() {
    return bloom == null ? 0 : bloom.bits();
  }

  /** Why the index is unknown, or null if it is known. */
  public String reason() {
    return reason;
  }

  @Override
  public String toString() {
    return bloom == null ? "TextIndex[unknown: " + reason + "]" : "TextIndex[" + trigrams + " trigrams, " + bloom.bits() + " bits]";
  }
}
