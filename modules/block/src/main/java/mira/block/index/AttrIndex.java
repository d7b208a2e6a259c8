package mira.block.index;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Base64;
import java.util.Locale;
import mira.block.column.BoolColumn;
import mira.block.column.DictColumn;
import mira.block.column.FixedColumn;
import mira.block.column.VarColumn;
import mira.block.table.Attributes;
import mira.block.table.Batch;
import mira.block.table.CanonicalText;
import mira.block.table.NumericText;
import mira.block.table.Table;

/**
 * {@code attr.idx}: a Bloom filter over every distinct (key, canonical text of the value) pair in
 * every attribute table of a block — resource, scope, record, span event and link, metric
 * metadata, data point, exemplar: whichever tables have the shared attribute layout
 * ({@link Table#isAttributes()}), so a new level is covered without touching this class.
 *
 * <p>What is indexed is {@link CanonicalText}: strings as themselves, integers in decimal, booleans
 * as {@code true}/{@code false}, bytes in base64. So one probe covers every stored type an equality
 * term can match: {@code "200"} finds the integer 200 and the string "200". Doubles are not
 * indexed, because one number has many spellings ({@code 200}, {@code 200.0}, {@code 2e2}); a block
 * holding any double attribute carries the {@code HAS_DOUBLE} flag instead, and every probe that
 * reads as a number answers "maybe" there. Empty values, arrays and key-value lists are not indexed:
 * no equality term selects them.
 *
 * <p>File (inside the {@link SidecarFile} frame, magic {@code "MAIX"}, version 1, flags bit 0 =
 * HAS_DOUBLE): {@code u64 pairs, u32 hashes (7), u32 0, u64 bits, bits/64 × u64 words}, 10 bits per
 * distinct pair. A pair's hash is {@code h = bytes(text, bytes(key, SEED))} with
 * {@link Hashing#bytes}; the probe positions come from {@code h} and
 * {@code splitmix64(h ^ SEED2) | 1}. Past {@link #MAX_PAIRS} distinct pairs no file is written.
 *
 * <p>Answers err only one way. An index that is missing or damaged is {@linkplain #known()
 * unknown} and answers "maybe" to everything. Immutable and thread-safe.
 */
public final class AttrIndex {
  public static final String FILE = "attr.idx";
  /** Past this many distinct pairs a block gets no attr.idx (its filter would be over 1.2 MB). */
  public static final int MAX_PAIRS = 1_000_000;
  static final byte[] MAGIC = {'M', 'A', 'I', 'X'};
  static final int VERSION = 1;
  static final int HAS_DOUBLE = 1;
  private static final long SEED_KEY = 0x2545F4914F6CDD1DL;
  private static final long SEED_H2 = 0x27BB2EE687B0B0FDL;
  private static final byte[] TRUE = {'t', 'r', 'u', 'e'};
  private static final byte[] FALSE = {'f', 'a', 'l', 's', 'e'};
  /** Doubles at or beyond this magnitude are integers that several int64 values round to. */
  private static final double TWO_53 = 0x1p53;

  private static final AttrIndex ABSENT = new AttrIndex(null, 0, true, "no " + FILE);

  private final Bloom bloom;
  private final long pairs;
  private final boolean hasDouble;
  private final String reason;

  private AttrIndex(Bloom bloom, long pairs, boolean hasDouble, String reason) {
    this.bloom = bloom;
    this.pairs = pairs;
    this.hasDouble = hasDouble;
    this.reason = reason;
  }

  /** An index that knows nothing: every pair may be in the block. */
  public static AttrIndex unknown(String reason) {
    return new AttrIndex(null, 0, true, reason);
  }

  /** Reads {@code blockDir/attr.idx}; never throws (see {@link TraceIndex#read}). */
  public static AttrIndex read(Path blockDir) {
    byte[] bytes;
    try {
      bytes = SidecarFile.read(blockDir.resolve(FILE));
    } catch (IOException e) {
      return unknown(FILE + " unreadable: " + e);
    }
    return bytes == null ? ABSENT : parse(bytes);
  }

  /** Parses the bytes of an {@code attr.idx} file; unknown if they are damaged. */
  public static AttrIndex parse(byte[] file) {
    try {
      SidecarFile.Opened f = SidecarFile.open(file, MAGIC, VERSION);
      ByteBuffer p = f.payload();
      if (p.remaining() < 8) {
        throw new SidecarFile.Damaged("payload truncated");
      }
      long pairs = p.getLong();
      Bloom bloom = Bloom.readFrom(p);
      return new AttrIndex(bloom, pairs, (f.flags() & HAS_DOUBLE) != 0, null);
    } catch (SidecarFile.Damaged e) {
      return unknown(FILE + " unusable: " + e.getMessage());
    }
  }

  /** Builds the index of {@code batch}, or returns null past {@link #MAX_PAIRS} distinct pairs. */
  public static AttrIndex build(Batch batch) {
    return build(batch, MAX_PAIRS);
  }

  static AttrIndex build(Batch batch, int maxPairs) {
    long attrRows = 0;
    for (Table t : batch.tables()) {
      if (t.isAttributes()) {
        attrRows += t.rows();
      }
    }
    // Sized for the distinct pairs a block typically has (a quarter of its rows), so most seals
    // never rehash; it grows past that.
    LongSet seen = new LongSet((int) Math.min(attrRows / 4, maxPairs));
    boolean hasDouble = false;
    byte[] digits = new byte[20];
    for (Table t : batch.tables()) {
      if (!t.isAttributes() || t.rows() == 0) {
        continue;
      }
      DictColumn key = (DictColumn) t.column(Attributes.KEY);
      FixedColumn type = (FixedColumn) t.column(Attributes.TYPE);
      VarColumn str = (VarColumn) t.column(Attributes.STR);
      FixedColumn i64 = (FixedColumn) t.column(Attributes.INT);
      BoolColumn bool = (BoolColumn) t.column(Attributes.BOOL);
      VarColumn bytes = (VarColumn) t.column(Attributes.BYTES);
      VarColumn keys = key.values();
      long[] keyHash = new long[keys.size()];
      for (int e = 0; e < keyHash.length; e++) {
        keyHash[e] = Hashing.bytes(keys.array(), keys.start(e), keys.end(e) - keys.start(e), SEED_KEY);
      }
      for (int i = 0, rows = t.rows(); i < rows; i++) {
        long hk = keyHash[key.index(i)];
        long h;
        switch (type.getUnsignedByte(i)) {
          case Attributes.TYPE_STR -> h = Hashing.bytes(str.array(), str.start(i), str.end(i) - str.start(i), hk);
          case Attributes.TYPE_INT -> {
            int n = decimal(i64.getLong(i), digits);
            h = Hashing.bytes(digits, digits.length - n, n, hk);
          }
          case Attributes.TYPE_BOOL -> {
            byte[] b = bool.get(i) ? TRUE : FALSE;
            h = Hashing.bytes(b, 0, b.length, hk);
          }
          case Attributes.TYPE_BYTES -> {
            byte[] b = Base64.getEncoder().encode(Arrays.copyOfRange(bytes.array(), bytes.start(i), bytes.end(i)));
            h = Hashing.bytes(b, 0, b.length, hk);
          }
          case Attributes.TYPE_DOUBLE -> {
            hasDouble = true;
            continue;
          }
          default -> {
            continue;
          }
        }
        if (seen.add(h) && seen.size() > maxPairs) {
          return null;
        }
      }
    }
    Bloom bloom = Bloom.forKeys(seen.size());
    seen.forEach(h -> bloom.add(h, h2(h)));
    return new AttrIndex(bloom, seen.size(), hasDouble, null);
  }

  /** Writes {@code v} in decimal at the end of {@code out}; returns the number of bytes. */
  private static int decimal(long v, byte[] out) {
    int at = out.length;
    boolean negative = v < 0;
    // Work in negatives so Long.MIN_VALUE needs no special case.
    long n = negative ? v : -v;
    do {
      out[--at] = (byte) ('0' - (n % 10));
      n /= 10;
    } while (n != 0);
    if (negative) {
      out[--at] = '-';
    }
    return out.length - at;
  }

  private static long h2(long h) {
    return Hashing.splitmix64(h ^ SEED_H2) | 1;
  }

  /** The file's bytes. */
  public byte[] toBytes() {
    if (bloom == null) {
      throw new IllegalStateException("an unknown index has nothing to write");
    }
    ByteBuffer b = SidecarFile.start(MAGIC, VERSION, hasDouble ? HAS_DOUBLE : 0, 8 + bloom.serializedSize());
    b.putLong(pairs);
    bloom.writeTo(b);
    return SidecarFile.finish(b);
  }

  /**
   * True if the block may hold attribute {@code key} with a value an equality term on {@code text}
   * selects, at any level. False only if no stored value can match:
   *
   * <ul>
   *   <li>a string, integer, boolean or bytes value whose canonical text is {@code text};
   *   <li>if {@code text} reads as a number — by {@link NumericText}, or failing that by
   *       {@link Double#parseDouble} — an integer of that value (probed as its decimal text; a
   *       double of magnitude 2^53 or more answers "maybe", since several integers round to it),
   *       and any double at all (HAS_DOUBLE answers "maybe");
   *   <li>a boolean, whatever the case of {@code true}/{@code false} in {@code text}.
   * </ul>
   *
   * Always true when the index is unknown. The same as {@code mightContain(key(key, text))}; a
   * caller probing many blocks with one term builds the {@link Key} once.
   *
   * @param key the attribute key, exactly as stored
   * @param text the term's value as text (its canonical text for a typed scalar)
   */
  public boolean mightContain(String key, String text) {
    return bloom == null || mightContain(key(key, text));
  }

  /** {@link #mightContain(String, String)} for a probe built by {@link #key}. */
  public boolean mightContain(Key k) {
    if (bloom == null) {
      return true;
    }
    if (bloom.mightContain(k.text, h2(k.text))) {
      return true;
    }
    if (k.numeric && hasDouble) {
      return true;
    }
    if (k.huge) {
      return true;
    }
    return k.hasAlternative && bloom.mightContain(k.alternative, h2(k.alternative));
  }

  /**
   * The hashes an equality probe on ({@code key}, {@code text}) looks up, computed once: the text
   * as given, and the one other spelling a stored value it selects may have been indexed under (a
   * number's decimal integer form, or a boolean in lower case). Independent of any block's filter
   * size, so one key serves every block. Immutable.
   */
  public static final class Key {
    private final long text;
    private final boolean numeric;
    private final boolean huge;
    private final boolean hasAlternative;
    private final long alternative;

    private Key(long text, boolean numeric, boolean huge, boolean hasAlternative, long alternative) {
      this.text = text;
      this.numeric = numeric;
      this.huge = huge;
      this.hasAlternative = hasAlternative;
      this.alternative = alternative;
    }
  }

  /** The probe for an equality term on attribute {@code key} with value text {@code text}. */
  public static Key key(String key, String text) {
    byte[] k = key.getBytes(StandardCharsets.UTF_8);
    long hk = Hashing.bytes(k, 0, k.length, SEED_KEY);
    long h = hash(hk, text);
    NumericText num = new NumericText();
    int kind = num.parse(text);
    double d;
    if (kind == NumericText.LONG) {
      return new Key(h, true, false, true, hash(hk, Long.toString(num.longValue())));
    } else if (kind == NumericText.DOUBLE) {
      d = num.doubleValue();
    } else {
      try {
        d = Double.parseDouble(text);
      } catch (NumberFormatException e) {
        return isBoolText(text) ? new Key(h, false, false, true, hash(hk, text.toLowerCase(Locale.ROOT)))
            : new Key(h, false, false, false, 0);
      }
    }
    if (Double.isNaN(d) || Double.isInfinite(d)) {
      // Only a double can equal these, and HAS_DOUBLE covers that.
      return new Key(h, true, false, false, 0);
    }
    if (Math.abs(d) >= TWO_53) {
      return new Key(h, true, true, false, 0);
    }
    if (d == Math.rint(d)) {
      return new Key(h, true, false, true, hash(hk, Long.toString((long) d)));
    }
    return new Key(h, true, false, false, 0);
  }

  private static long hash(long hk, String text) {
    byte[] t = text.getBytes(StandardCharsets.UTF_8);
    return Hashing.bytes(t, 0, t.length, hk);
  }

  private static boolean isBoolText(String text) {
    return text.equalsIgnoreCase("true") || text.equalsIgnoreCase("false");
  }

  /**
   * True if the block may hold a double attribute value (any key). Always true when unknown.
   */
  public boolean hasDouble() {
    return hasDouble;
  }

  /** False if the file was missing or damaged, so every answer is "maybe". */
  public boolean known() {
    return bloom != null;
  }

  /** Distinct pairs inserted. */
  public long pairs() {
    return pairs;
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
    return bloom == null ? "AttrIndex[unknown: " + reason + "]"
        : "AttrIndex[" + pairs + " pairs, " + bloom.bits() + " bits" + (hasDouble ? ", HAS_DOUBLE" : "") + "]";
  }
}
