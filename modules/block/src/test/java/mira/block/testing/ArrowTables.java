package mira.block.testing;

import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.BigIntVector;
import org.apache.arrow.vector.BitVector;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.FixedSizeBinaryVector;
import org.apache.arrow.vector.Float8Vector;
import org.apache.arrow.vector.IntVector;
import org.apache.arrow.vector.TimeStampNanoVector;
import org.apache.arrow.vector.UInt1Vector;
import org.apache.arrow.vector.UInt2Vector;
import org.apache.arrow.vector.UInt4Vector;
import org.apache.arrow.vector.UInt8Vector;
import org.apache.arrow.vector.ValueVector;
import org.apache.arrow.vector.VarBinaryVector;
import org.apache.arrow.vector.VarCharVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.complex.ListVector;
import org.apache.arrow.vector.dictionary.Dictionary;
import org.apache.arrow.vector.ipc.ArrowFileReader;

/**
 * Reads a block's tables with Arrow Java's own {@link ArrowFileReader} (not Mira's reader) into
 * plain Java values: Long for every integer and timestamp, Double, Boolean, String, byte[],
 * List for lists, null for null. Dictionary columns are decoded to their String values. A cold
 * table's rearrangement is undone as its schema metadata describes.
 */
public final class ArrowTables {
  private ArrowTables() {}

  /** One table: rows as column-name → value maps, plus the footer metadata. */
  public record Rows(List<Map<String, Object>> rows, Map<String, String> footer, List<String> columns) {
    public int size() {
      return rows.size();
    }

    public Map<String, Object> get(int i) {
      return rows.get(i);
    }
  }

  /** Reads {@code dir/file}; an absent file reads as no rows. */
  public static Rows read(Path dir, String file) throws IOException {
    return read(dir, file, mira.block.codec.ZstdCodec.FACTORY);
  }

  /** Reads {@code dir/file} with the given body codecs; an absent file reads as no rows. */
  public static Rows read(Path dir, String file, org.apache.arrow.vector.compression.CompressionCodec.Factory codecs)
      throws IOException {
    Path p = dir.resolve(file);
    if (!Files.exists(p)) {
      return new Rows(List.of(), Map.of(), List.of());
    }
    try (BufferAllocator a = new RootAllocator();
        FileChannel ch = FileChannel.open(p, StandardOpenOption.READ);
        ArrowFileReader r = new ArrowFileReader(ch, a, codecs)) {
      VectorSchemaRoot stored = r.getVectorSchemaRoot();
      Map<String, String> footer = r.getMetaData();
      List<Map<String, Object>> rows = new ArrayList<>();
      List<String> names = new ArrayList<>();
      Map<Long, Dictionary> dicts = r.getDictionaryVectors();
      while (r.loadNextBatch()) {
        // A cold table may be rearranged (mira.block.codec.ColdLayout): its metadata says how. The
        // undone table's vectors may be new ones (renamed), closed here; closing twice is harmless.
        @SuppressWarnings("resource")
        VectorSchemaRoot root = mira.block.codec.ColdLayout.undo(stored.getSchema(), stored, a);
        names.clear();
        for (FieldVector v : root.getFieldVectors()) {
          names.add(v.getName());
        }
        for (int i = 0; i < root.getRowCount(); i++) {
          Map<String, Object> row = new LinkedHashMap<>();
          for (FieldVector v : root.getFieldVectors()) {
            Object value = value(v, i);
            if (value != null && v.getField().getDictionary() != null) {
              Dictionary d = dicts.get(v.getField().getDictionary().getId());
              value = value(d.getVector(), ((Long) value).intValue());
            }
            row.put(v.getName(), value);
          }
          rows.add(row);
        }
        if (root != stored) {
          root.close();
        }
      }
      return new Rows(rows, footer, names);
    }
  }

  /** The plain Java value of row {@code i} of {@code v} (see the class comment), null for null. */
  public static Object value(ValueVector v, int i) {
    if (v.isNull(i)) {
      return null;
    }
    return switch (v) {
      case UInt1Vector u -> (long) u.getObjectNoOverflow(i).intValue();
      case UInt2Vector u -> (long) u.get(i);
      case UInt4Vector u -> u.getValueAsLong(i);
      case UInt8Vector u -> u.get(i);
      case IntVector x -> (long) x.get(i);
      case BigIntVector x -> x.get(i);
      case TimeStampNanoVector x -> x.get(i);
      case Float8Vector x -> x.get(i);
      case BitVector x -> x.get(i) != 0;
      case VarCharVector x -> new String(x.get(i), java.nio.charset.StandardCharsets.UTF_8);
      case VarBinaryVector x -> x.get(i);
      case FixedSizeBinaryVector x -> x.get(i);
      case ListVector l -> {
        List<Object> out = new ArrayList<>();
        int start = l.getElementStartIndex(i);
        int end = l.getElementEndIndex(i);
        for (int j = start; j < end; j++) {
          out.add(value(l.getDataVector(), j));
        }
        yield out;
      }
      default -> throw new IllegalArgumentException("unhandled vector " + v.getClass());
    };
  }
}
