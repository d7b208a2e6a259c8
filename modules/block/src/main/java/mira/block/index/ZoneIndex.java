package mira.block.index;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import mira.block.column.DictColumn;
import mira.block.column.FixedColumn;
import mira.block.column.VarColumn;
import mira.block.metrics.MetricsBatch;
import mira.block.table.Attributes;
import mira.block.table.Batch;
import mira.block.table.NumericText;
import mira.block.table.Table;
import org.apache.arrow.vector.types.FloatingPointPrecision;
import org.apache.arrow.vector.types.pojo.ArrowType;

/**
 * {@code zone.idx}: the least and greatest value of each numeric root column of a block and of
 * each attribute key holding a number at any level, so an ordered term ({@code duration_nano > 1s},
 * {@code http.response.status_code >= 500}) skips blocks whose values cannot reach it.
 *
 * <p>Two namespaces. <b>Columns</b>: the root columns listed by {@link #rootColumns} for the block's
 * signal; a column the file does not list says nothing ("maybe"), a listed column with no values
 * says "no". <b>Attributes</b>: every key of every attribute table ({@link Table#isAttributes()})
 * holding a scalar; here a key the file does not hold means the block has no value of it, which is
 * what prunes — so the map is built over every attribute table and complete, or not written at all.
 * Each entry is a {@link Zone}: an int64 interval and a float64 interval, kept apart so no integer is
 * rounded, or unbounded. See {@link Zone} for what may match.
 *
 * <p>File (inside the {@link SidecarFile} frame, magic {@code "MZIX"}, version 1, flags 0):
 * {@code u32 entries}, then per entry, columns first, each namespace sorted by name: {@code u8
 * namespace (0 column, 1 attribute), u8 state (1 has int64, 2 has float64, 4 unbounded), u32 name
 * length, name (UTF-8), i64 min, i64 max, f64 min, f64 max}. A block with more than
 * {@link #MAX_KEYS} attribute keys gets no file.
 *
 * <p>Only a numeric term probes this index: a quoted scalar compares as text against a string
 * attribute, an ordering this file does not describe. Missing or damaged, the index is
 * {@linkplain #known() unknown} and answers "maybe" to everything. Immutable and thread-safe.
 */
public final class ZoneIndex {
  public static final String FILE = "zone.idx";
  /** Past this many attribute keys a block gets no zone.idx. */
  public static final int MAX_KEYS = 4096;
  static final byte[] MAGIC = {'M', 'Z', 'I', 'X'};
  static final int VERSION = 1;
  private static final int ENTRY_FIXED = 1 + 1 + 4 + 32;

  /** A comparison of a value against the term's bound: {@code value op bound}. */
  public enum Op { EQ, GT, GTE, LT, LTE }

  /** NO: no value in the block satisfies the term. MAYBE: some value may. */
  public enum Answer { NO, MAYBE }

  private static final ZoneIndex ABSENT = new ZoneIndex(null, null, "no " + FILE);

  private final Map<String, Zone> columns;
  private final Map<String, Zone> attributes;
  private final String reason;

  private ZoneIndex(Map<String, Zone> columns, Map<String, Zone> attributes, String reason) {
    this.columns = columns;
    this.attributes = attributes;
    this.reason = reason;
  }

  /** An index that knows nothing: every term may match. */
  public static ZoneIndex unknown(String reason) {
    return new ZoneIndex(null, null, reason);
  }

  /** A root column the index covers: its entry name, its table in the batch, the column's name. */
  record RootColumn(String entry, int table, String column) {}

  /**
   * The root columns covered for {@code batch}'s signal. Logs and spans: their root table's
   * numeric columns by name. Metrics: {@code time_unix_nano} and {@code start_time_unix_nano} over
   * the four point tables, and {@code value} over gauge and sum points (int64 and double).
   */
  static List<RootColumn> rootColumns(Batch batch) {
    return switch (batch.signal()) {
      case LOGS -> root("time_unix_nano", "observed_time_unix_nano", "severity_number", "flags",
          "dropped_attributes_count");
      case TRACES -> root("start_time_unix_nano", "end_time_unix_nano", "duration_nano", "kind", "status_code",
          "flags", "dropped_attributes_count", "dropped_events_count", "dropped_links_count");
      case METRICS -> List.of(
          new RootColumn("time_unix_nano", MetricsBatch.NUMBER_DP, "time_unix_nano"),
          new RootColumn("time_unix_nano", MetricsBatch.HIST_DP, "time_unix_nano"),
          new RootColumn("time_unix_nano", MetricsBatch.EXP_HIST_DP, "time_unix_nano"),
          new RootColumn("time_unix_nano", MetricsBatch.SUMMARY_DP, "time_unix_nano"),
          new RootColumn("start_time_unix_nano", MetricsBatch.NUMBER_DP, "start_time_unix_nano"),
          new RootColumn("start_time_unix_nano", MetricsBatch.HIST_DP, "start_time_unix_nano"),
          new RootColumn("start_time_unix_nano", MetricsBatch.EXP_HIST_DP, "start_time_unix_nano"),
          new RootColumn("start_time_unix_nano", MetricsBatch.SUMMARY_DP, "start_time_unix_nano"),
          new RootColumn("value", MetricsBatch.NUMBER_DP, "int"),
          new RootColumn("value", MetricsBatch.NUMBER_DP, "double"));
    };
  }

  private static List<RootColumn> root(String... names) {
    RootColumn[] out = new RootColumn[names.length];
    for (int i = 0; i < names.length; i++) {
      out[i] = new RootColumn(names[i], Batch.ROOT, names[i]);
    }
    return List.of(out);
  }

  /** Reads {@code blockDir/zone.idx}; never throws (see {@link TraceIndex#read}). */
  public static ZoneIndex read(Path blockDir) {
    byte[] bytes;
    try {
      bytes = SidecarFile.read(blockDir.resolve(FILE));
    } catch (IOException e) {
      return unknown(FILE + " unreadable: " + e);
    }
    return bytes == null ? ABSENT : parse(bytes);
  }

  /** Parses the bytes of a {@code zone.idx} file; unknown if they are damaged. */
  public static ZoneIndex parse(byte[] file) {
    try {
      SidecarFile.Opened f = SidecarFile.open(file, MAGIC, VERSION);
      ByteBuffer p = f.payload();
      if (p.remaining() < 4) {
        throw new SidecarFile.Damaged("payload truncated");
      }
      int n = p.getInt();
      if (n < 0 || (long) n * ENTRY_FIXED > p.remaining()) {
        throw new SidecarFile.Damaged(n + " entries in " + p.remaining() + " bytes");
      }
      Map<String, Zone> cols = new HashMap<>();
      Map<String, Zone> attrs = new HashMap<>();
      var utf8 = StandardCharsets.UTF_8.newDecoder()
          .onMalformedInput(CodingErrorAction.REPORT).onUnmappableCharacter(CodingErrorAction.REPORT);
      for (int i = 0; i < n; i++) {
        if (p.remaining() < ENTRY_FIXED) {
          throw new SidecarFile.Damaged("entry " + i + " truncated");
        }
        int namespace = p.get();
        int state = p.get();
        int len = p.getInt();
        if (namespace < 0 || namespace > 1 || (state & ~7) != 0 || len < 0 || len > p.remaining() - 32) {
          throw new SidecarFile.Damaged("entry " + i + " malformed");
        }
        String name;
        try {
          name = utf8.decode(p.slice(p.position(), len)).toString();
        } catch (CharacterCodingException e) {
          throw new SidecarFile.Damaged("entry " + i + " name is not UTF-8");
        }
        p.position(p.position() + len);
        Zone z = new Zone(state, p.getLong(), p.getLong(), p.getDouble(), p.getDouble());
        (namespace == 0 ? cols : attrs).put(name, z);
      }
      if (p.hasRemaining()) {
        throw new SidecarFile.Damaged(p.remaining() + " bytes after the last entry");
      }
      return new ZoneIndex(cols, attrs, null);
    } catch (SidecarFile.Damaged e) {
      return unknown(FILE + " unusable: " + e.getMessage());
    }
  }

  /** Builds the index of {@code batch}, or returns null past {@link #MAX_KEYS} attribute keys. */
  public static ZoneIndex build(Batch batch) {
    Map<String, Zone> cols = new HashMap<>();
    for (RootColumn rc : rootColumns(batch)) {
      Zone z = cols.computeIfAbsent(rc.entry(), k -> new Zone());
      addColumn(z, (FixedColumn) batch.table(rc.table()).column(rc.column()));
    }
    Map<String, Zone> attrs = new HashMap<>();
    NumericText parser = new NumericText();
    for (Table t : batch.tables()) {
      if (!t.isAttributes() || t.rows() == 0) {
        continue;
      }
      DictColumn key = (DictColumn) t.column(Attributes.KEY);
      FixedColumn type = (FixedColumn) t.column(Attributes.TYPE);
      VarColumn str = (VarColumn) t.column(Attributes.STR);
      FixedColumn i64 = (FixedColumn) t.column(Attributes.INT);
      FixedColumn f64 = (FixedColumn) t.column(Attributes.DOUBLE);
      Zone[] byKey = new Zone[key.entries()];
      for (int i = 0, rows = t.rows(); i < rows; i++) {
        int kind = type.getUnsignedByte(i);
        if (kind == Attributes.TYPE_EMPTY || kind == Attributes.TYPE_MAP || kind == Attributes.TYPE_SLICE) {
          // No comparison selects these, so they neither widen nor create an entry.
          continue;
        }
        int k = key.index(i);
        Zone z = byKey[k];
        if (z == null) {
          z = byKey[k] = attrs.computeIfAbsent(key.values().getString(k), x -> new Zone());
          if (attrs.size() > MAX_KEYS) {
            return null;
          }
        }
        switch (kind) {
          case Attributes.TYPE_INT -> z.addLong(i64.getLong(i));
          case Attributes.TYPE_DOUBLE -> z.addDouble(f64.getDouble(i));
          case Attributes.TYPE_STR -> z.addText(str.array(), str.start(i), str.end(i) - str.start(i), parser);
          // A boolean or bytes value has no place on the number line, and an engine may still
          // compare it somehow: the key answers "maybe".
          default -> z.unbounded();
        }
      }
    }
    return new ZoneIndex(cols, attrs, null);
  }

  /** Widens {@code z} by every non-null value of {@code c}. */
  static void addColumn(Zone z, FixedColumn c) {
    ArrowType type = c.field().getType();
    int n = c.size();
    if (type instanceof ArrowType.FloatingPoint fp && fp.getPrecision() == FloatingPointPrecision.DOUBLE) {
      for (int i = 0; i < n; i++) {
        if (c.isSet(i)) {
          z.addDouble(c.getDouble(i));
        }
      }
      return;
    }
    int bits;
    boolean signed;
    if (type instanceof ArrowType.Int it) {
      bits = it.getBitWidth();
      signed = it.getIsSigned();
    } else if (type instanceof ArrowType.Timestamp) {
      bits = 64;
      signed = true;
    } else {
      throw new IllegalArgumentException(c.name() + " of type " + type + " has no zone");
    }
    for (int i = 0; i < n; i++) {
      if (!c.isSet(i)) {
        continue;
      }
      long v = switch (bits) {
        case 8 -> signed ? (byte) c.getUnsignedByte(i) : c.getUnsignedByte(i);
        case 16 -> signed ? (short) c.getUnsignedShort(i) : c.getUnsignedShort(i);
        case 32 -> signed ? c.getInt(i) : Integer.toUnsignedLong(c.getInt(i));
        default -> c.getLong(i);
      };
      if (bits == 64 && !signed && v < 0) {
        // A uint64 past 2^63 has no int64 form.
        z.unbounded();
      } else {
        z.addLong(v);
      }
    }
  }

  /** The file's bytes. */
  public byte[] toBytes() {
    if (columns == null) {
      throw new IllegalStateException("an unknown index has nothing to write");
    }
    Map<String, Zone> cols = new TreeMap<>(columns);
    Map<String, Zone> attrs = new TreeMap<>(attributes);
    long size = 4;
    for (Map<String, Zone> m : List.of(cols, attrs)) {
      for (String name : m.keySet()) {
        size += ENTRY_FIXED + name.getBytes(StandardCharsets.UTF_8).length;
      }
    }
    ByteBuffer b = SidecarFile.start(MAGIC, VERSION, 0, size);
    b.putInt(cols.size() + attrs.size());
    int namespace = 0;
    for (Map<String, Zone> m : List.of(cols, attrs)) {
      for (Map.Entry<String, Zone> e : m.entrySet()) {
        byte[] name = e.getKey().getBytes(StandardCharsets.UTF_8);
        Zone z = e.getValue();
        b.put((byte) namespace).put((byte) z.state).putInt(name.length).put(name)
            .putLong(z.lo).putLong(z.hi).putDouble(z.dlo).putDouble(z.dhi);
      }
      namespace++;
    }
    return SidecarFile.finish(b);
  }

  /**
   * Whether a value of root column or attribute {@code name} in this block may satisfy
   * {@code value op bound}. A column this index does not cover answers MAYBE; an attribute key it
   * does not hold answers NO. Always MAYBE when the index is unknown.
   */
  public Answer mayOverlap(String name, boolean isAttribute, Op op, long bound) {
    Zone z = zone(name, isAttribute);
    if (z == null) {
      return columns == null || !isAttribute ? Answer.MAYBE : Answer.NO;
    }
    return z.answer(op, bound);
  }

  /** {@link #mayOverlap(String, boolean, Op, long)} for a fractional (or huge) bound; NaN answers MAYBE. */
  public Answer mayOverlap(String name, boolean isAttribute, Op op, double bound) {
    Zone z = zone(name, isAttribute);
    if (z == null) {
      return columns == null || !isAttribute ? Answer.MAYBE : Answer.NO;
    }
    return z.answer(op, bound);
  }

  private Zone zone(String name, boolean isAttribute) {
    if (columns == null) {
      return null;
    }
    return isAttribute ? attributes.get(name) : columns.get(name);
  }

  /** The root columns this index covers (empty when unknown). */
  public Set<String> columns() {
    return columns == null ? Set.of() : Collections.unmodifiableSet(columns.keySet());
  }

  /** The attribute keys this index holds (empty when unknown). */
  public Set<String> attributeKeys() {
    return attributes == null ? Set.of() : Collections.unmodifiableSet(attributes.keySet());
  }

  /** False if the file was missing or damaged, so every answer is MAYBE. */
  public boolean known() {
    return columns != null;
  }

  /** Why the index is unknown, or null if it is known. */
  public String reason() {
    return reason;
  }

  @Override
  public String toString() {
    return columns == null ? "ZoneIndex[unknown: " + reason + "]"
        : "ZoneIndex[" + columns.size() + " columns, " + attributes.size() + " attribute keys]";
  }
}
