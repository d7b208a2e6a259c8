package mira.block.codec;

import java.nio.ByteOrder;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.arrow.memory.ArrowBuf;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.BaseFixedWidthVector;
import org.apache.arrow.vector.BaseIntVector;
import org.apache.arrow.vector.BaseVariableWidthVector;
import org.apache.arrow.vector.BitVectorHelper;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.Schema;

/**
 * How a table is rearranged when it goes cold, before its buffers are compressed, and undone when
 * it is read. Two rearrangements, each recorded in the table's schema metadata so a reader knows
 * what to undo and a table written without them reads as it is:
 *
 * <ul>
 *   <li>{@value #MINUS}: a time column is stored as its difference from another ({@code
 *       observed_time_unix_nano} from {@code time_unix_nano}; a span's end from its start, and
 *       its duration from that difference, which leaves zeros). Wrapping arithmetic, so lossless
 *       for any values; it pays because the second column is mostly the first plus a little.
 *   <li>{@value #BY_KEY}: an attribute table's {@code str} values are stored grouped by key (a
 *       stable sort on the key's dictionary index), so the values zstd sees side by side are of
 *       one kind — URLs with URLs, request ids with request ids — instead of interleaved per
 *       record. Only that column moves; every other column, and so every row id, keeps its order.
 * </ul>
 *
 * <p>A rearranged column is stored under a name that says what it holds ({@code
 * observed_time_unix_nano-time_unix_nano}, {@code str.by_key}), so an Arrow reader that knows
 * nothing of this never takes a difference for a time: Mira renames and undoes on read.
 *
 * <p>Measured on the load generator's corpus (docs/performance.md) these take about a tenth off
 * the cold tier beyond what the per-buffer {@link Shape}s do (0.157 to 0.141 bytes per wire byte
 * at zstd level 3).
 */
public final class ColdLayout {
  /** Schema metadata: {@code column-base} pairs separated by {@code ;}, in the order applied. */
  public static final String MINUS = "mira.cold.minus";
  /** Schema metadata: the column stored grouped by the {@code key} column. */
  public static final String BY_KEY = "mira.cold.by_key";

  private static final String[][] DIFFERENCES = {
    {"observed_time_unix_nano", "time_unix_nano"},
    {"end_time_unix_nano", "start_time_unix_nano"},
    {"duration_nano", "end_time_unix_nano"},
  };
  private static final String GROUPED = "str";
  private static final String KEY = "key";
  /** A grouped column is stored under its name plus this, so no reader takes it for the original. */
  private static final String GROUPED_SUFFIX = ".by_key";

  private ColdLayout() {}

  /** True if the schema says the table was rearranged. */
  public static boolean rearranged(Schema schema) {
    Map<String, String> m = schema.getCustomMetadata();
    return m != null && (m.containsKey(MINUS) || m.containsKey(BY_KEY));
  }

  /**
   * Rearranges {@code root} and returns the table under a schema whose metadata records what was
   * done. Renamed columns are new vectors holding the moved buffers; the others are shared, so the
   * caller closes both roots (closing a vector twice is harmless).
   */
  public static VectorSchemaRoot apply(VectorSchemaRoot root, BufferAllocator allocator) {
    Map<String, String> meta = new HashMap<>();
    if (root.getSchema().getCustomMetadata() != null) {
      meta.putAll(root.getSchema().getCustomMetadata());
    }
    if (rearranged(root.getSchema())) {
      throw new IllegalArgumentException("table is already rearranged; undo it first");
    }
    int rows = root.getRowCount();
    List<String> applied = new ArrayList<>();
    Map<String, String> renames = new HashMap<>();
    for (String[] d : DIFFERENCES) {
      if (add(root, d[0], d[1], -1, allocator)) {
        applied.add(d[0] + "-" + d[1]);
        renames.put(d[0], d[0] + "-" + d[1]);
      }
    }
    if (!applied.isEmpty()) {
      meta.put(MINUS, String.join(";", applied));
    }
    if (root.getVector(GROUPED) instanceof BaseVariableWidthVector str && root.getVector(KEY) instanceof BaseIntVector key
        && rows > 1) {
      permute(str, order(key, rows), false, allocator);
      meta.put(BY_KEY, GROUPED);
      renames.put(GROUPED, GROUPED + GROUPED_SUFFIX);
    }
    return rename(root, renames, meta, allocator);
  }

  /**
   * Undoes what {@code schema}'s metadata says was done to the loaded table and returns it under
   * its plain names and a schema without that metadata ({@code stored} itself if nothing was done;
   * otherwise, as for {@link #apply}, the caller closes both roots).
   *
   * @throws IllegalArgumentException if the metadata names a column the table lacks or cannot hold
   */
  public static VectorSchemaRoot undo(Schema schema, VectorSchemaRoot stored, BufferAllocator allocator) {
    Map<String, String> meta = schema.getCustomMetadata();
    if (meta == null || !rearranged(schema)) {
      return stored;
    }
    // Back to the plain names first; the values are then undone under them.
    Map<String, String> renames = new HashMap<>();
    if (meta.get(BY_KEY) != null) {
      renames.put(meta.get(BY_KEY) + GROUPED_SUFFIX, meta.get(BY_KEY));
    }
    if (meta.get(MINUS) != null) {
      for (String pair : meta.get(MINUS).split(";")) {
        renames.put(pair, pair.split("-", 2)[0]);
      }
    }
    for (String name : renames.keySet()) {
      if (stored.getVector(name) == null) {
        throw new IllegalArgumentException("the schema metadata says column " + name + " was stored, the table has no such column");
      }
    }
    Map<String, String> plain = new HashMap<>(meta);
    plain.remove(MINUS);
    plain.remove(BY_KEY);
    VectorSchemaRoot root = rename(stored, renames, plain, allocator);
    int rows = root.getRowCount();
    String grouped = meta.get(BY_KEY);
    if (grouped != null) {
      if (!(root.getVector(grouped) instanceof BaseVariableWidthVector str)
          || !(root.getVector(KEY) instanceof BaseIntVector key)) {
        throw new IllegalArgumentException(BY_KEY + "=" + grouped + " but the table has no such text column or no "
            + KEY + " column");
      }
      if (rows > 1) {
        permute(str, order(key, rows), true, allocator);
      }
    }
    String minus = meta.get(MINUS);
    if (minus != null) {
      String[] pairs = minus.split(";");
      for (int p = pairs.length - 1; p >= 0; p--) {
        String[] d = pairs[p].split("-", 2);
        if (d.length != 2 || !add(root, d[0], d[1], 1, allocator)) {
          throw new IllegalArgumentException(MINUS + " names " + pairs[p] + ", not two 8-byte columns of this table");
        }
      }
    }
    return root;
  }

  /**
   * The table's vectors under a schema with {@code meta}, those named in {@code renames} moved
   * (buffers transferred, no copy) into new vectors under their new names, in place in the column
   * order. The caller closes the returned root as well as its own (closing twice is harmless).
   */
  private static VectorSchemaRoot rename(VectorSchemaRoot root, Map<String, String> renames, Map<String, String> meta,
      BufferAllocator allocator) {
    List<Field> fields = new ArrayList<>(root.getSchema().getFields());
    List<FieldVector> vectors = new ArrayList<>(root.getFieldVectors());
    for (int i = 0; i < vectors.size(); i++) {
      String to = renames.get(vectors.get(i).getName());
      if (to != null) {
        FieldVector v = vectors.get(i);
        Field f = fields.get(i);
        Field g = new Field(to, f.getFieldType(), f.getChildren());
        FieldVector w = g.createVector(allocator);
        v.makeTransferPair(w).transfer();
        fields.set(i, g);
        vectors.set(i, w);
      }
    }
    return new VectorSchemaRoot(new Schema(fields, meta), vectors, root.getRowCount());
  }

  /**
   * Replaces column {@code name} by itself plus {@code sign} times column {@code base}, wrapping.
   * The result goes into new buffers: a loaded column's buffers may be the file's read-only mapping
   * (Arrow keeps a buffer that did not compress as it was).
   *
   * @return false if either column is missing or not 8 bytes wide
   */
  private static boolean add(VectorSchemaRoot root, String name, String base, int sign, BufferAllocator allocator) {
    if (!(root.getVector(name) instanceof BaseFixedWidthVector v) || v.getTypeWidth() != 8
        || !(root.getVector(base) instanceof BaseFixedWidthVector b) || b.getTypeWidth() != 8) {
      return false;
    }
    int rows = root.getRowCount();
    BaseFixedWidthVector out = (BaseFixedWidthVector) v.getField().createVector(allocator);
    try {
      out.allocateNew(rows);
      ArrowBuf from = v.getDataBuffer();
      ArrowBuf by = b.getDataBuffer();
      ArrowBuf to = out.getDataBuffer();
      ArrowBuf valid = out.getValidityBuffer();
      for (int i = 0; i < rows; i++) {
        to.setLong(i * 8L, from.getLong(i * 8L) + sign * by.getLong(i * 8L));
        if (!v.isNull(i)) {
          BitVectorHelper.setBit(valid, i);
        }
      }
      out.setValueCount(rows);
      out.transferTo(v);
    } finally {
      out.close();
    }
    return true;
  }

  /** Row ids in stored order: a stable counting sort on the key's dictionary index. */
  private static int[] order(BaseIntVector key, int rows) {
    int[] slot = new int[rows];
    int max = 0;
    for (int i = 0; i < rows; i++) {
      slot[i] = slot(key, i);
      max = Math.max(max, slot[i]);
    }
    int[] start = new int[max + 2];
    for (int i = 0; i < rows; i++) {
      start[slot[i] + 1]++;
    }
    for (int k = 0; k <= max; k++) {
      start[k + 1] += start[k];
    }
    int[] order = new int[rows];
    for (int i = 0; i < rows; i++) {
      order[start[slot[i]]++] = i;
    }
    return order;
  }

  /** A null key (not written, but possible) sorts first; indices are small and non-negative. */
  private static int slot(BaseIntVector key, int i) {
    if (key.isNull(i)) {
      return 0;
    }
    long k = key.getValueAsLong(i);
    if (k < 0 || k >= Integer.MAX_VALUE - 2) {
      throw new IllegalArgumentException("key index " + k + " at row " + i + " is not a dictionary index");
    }
    return (int) k + 1;
  }

  /**
   * Rewrites {@code v} so that stored row {@code k} is original row {@code order[k]} ({@code back}
   * false), or the reverse.
   */
  private static void permute(BaseVariableWidthVector v, int[] order, boolean back, BufferAllocator allocator) {
    int rows = order.length;
    int[] from = new int[rows];
    for (int k = 0; k < rows; k++) {
      if (back) {
        from[order[k]] = k;
      } else {
        from[k] = order[k];
      }
    }
    int[] offsets = new int[rows + 1];
    v.getOffsetBuffer().nioBuffer(0, (rows + 1) * 4).order(ByteOrder.LITTLE_ENDIAN).asIntBuffer().get(offsets);
    int base = offsets[0];
    byte[] in = new byte[offsets[rows] - base];
    v.getDataBuffer().getBytes(base, in);
    byte[] validIn = new byte[(rows + 7) >>> 3];
    v.getValidityBuffer().getBytes(0, validIn);
    byte[] data = new byte[in.length];
    int[] outOffsets = new int[rows + 1];
    byte[] validOut = new byte[validIn.length];
    int pos = 0;
    for (int to = 0; to < rows; to++) {
      int f = from[to];
      if ((validIn[f >>> 3] & (1 << (f & 7))) != 0) {
        int start = offsets[f] - base;
        int len = offsets[f + 1] - base - start;
        System.arraycopy(in, start, data, pos, len);
        pos += len;
        validOut[to >>> 3] |= (byte) (1 << (to & 7));
      }
      outOffsets[to + 1] = pos;
    }
    BaseVariableWidthVector out = (BaseVariableWidthVector) v.getField().createVector(allocator);
    try {
      out.allocateNew(Math.max(1, pos), rows);
      out.getDataBuffer().setBytes(0, data, 0, pos);
      out.getOffsetBuffer().nioBuffer(0, (rows + 1) * 4).order(ByteOrder.LITTLE_ENDIAN).asIntBuffer().put(outOffsets);
      out.getValidityBuffer().setBytes(0, validOut);
      out.setLastSet(rows - 1);
      out.setValueCount(rows);
      out.transferTo(v);
    } finally {
      out.close();
    }
  }
}
