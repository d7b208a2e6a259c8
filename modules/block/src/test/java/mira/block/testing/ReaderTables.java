package mira.block.testing;

import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import mira.block.read.BlockReader;
import mira.block.read.CorruptBlockException;
import mira.block.read.TableView;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.ValueVector;

/**
 * Reads tables through Mira's {@link BlockReader} into the same plain values as
 * {@link ArrowTables} (which uses Arrow Java's own reader), so the two can be compared.
 */
public final class ReaderTables {
  private ReaderTables() {}

  /** The {@code *.arrow} file names of a block directory, sorted. */
  public static List<String> files(Path dir) throws IOException {
    List<String> out = new ArrayList<>();
    try (DirectoryStream<Path> s = Files.newDirectoryStream(dir, "*.arrow")) {
      for (Path p : s) {
        out.add(p.getFileName().toString());
      }
    }
    out.sort(null);
    return out;
  }

  /** Rows of {@code view}, columns in {@code columns} order, dictionary columns decoded. */
  public static List<Map<String, Object>> rows(TableView view, List<String> columns) {
    List<Map<String, Object>> rows = new ArrayList<>();
    for (int i = 0; i < view.rows(); i++) {
      Map<String, Object> row = new LinkedHashMap<>();
      for (String c : columns) {
        FieldVector v = view.column(c);
        Object value = ArrowTables.value(v, i);
        ValueVector dict = view.dictionary(c);
        if (value != null && dict != null) {
          value = ArrowTables.value(dict, ((Long) value).intValue());
        }
        row.put(c, value);
      }
      rows.add(row);
    }
    return rows;
  }

  /**
   * {@code value} with every byte array replaced by its hex string (recursively through lists and
   * maps), so tables compare with {@code equals} — much faster than a recursive comparison.
   */
  public static Object comparable(Object value) {
    return switch (value) {
      case byte[] b -> "0x" + java.util.HexFormat.of().formatHex(b);
      case List<?> l -> {
        List<Object> out = new ArrayList<>(l.size());
        for (Object o : l) {
          out.add(comparable(o));
        }
        yield out;
      }
      case Map<?, ?> m -> {
        Map<Object, Object> out = new LinkedHashMap<>();
        for (Map.Entry<?, ?> e : m.entrySet()) {
          out.put(e.getKey(), comparable(e.getValue()));
        }
        yield out;
      }
      case null, default -> value;
    };
  }

  /** Every table of the block read through {@code reader}, by file name, {@link #comparable}. */
  @SuppressWarnings("unchecked")
  public static Map<String, List<Map<String, Object>>> all(BlockReader reader, Path dir)
      throws IOException, CorruptBlockException {
    Map<String, List<Map<String, Object>>> out = new TreeMap<>();
    for (String f : files(dir)) {
      List<String> columns = ArrowTables.read(dir, f).columns();
      TableView v = reader.table(f).orElseThrow();
      out.put(f, (List<Map<String, Object>>) comparable(rows(v, columns)));
    }
    return out;
  }

  /** Every table of the block read with Arrow Java's reader, by file name, {@link #comparable}. */
  public static Map<String, List<Map<String, Object>>> allWithArrow(Path dir) throws IOException {
    return allWithArrow(dir, mira.block.codec.ZstdCodec.FACTORY);
  }

  /** The same with the given body codecs (e.g. only what any Arrow reader has). */
  @SuppressWarnings("unchecked")
  public static Map<String, List<Map<String, Object>>> allWithArrow(Path dir,
      org.apache.arrow.vector.compression.CompressionCodec.Factory codecs) throws IOException {
    Map<String, List<Map<String, Object>>> out = new TreeMap<>();
    for (String f : files(dir)) {
      out.put(f, (List<Map<String, Object>>) comparable(ArrowTables.read(dir, f, codecs).rows()));
    }
    return out;
  }
}
