package mira.block.publish;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import mira.block.column.TextDictionary;
import mira.block.column.VarColumn;
import mira.block.layout.ColumnNames;
import mira.block.layout.TableFiles;
import mira.block.table.Table;
import mira.fs.Fs;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.IntVector;
import org.apache.arrow.vector.VarCharVector;
import org.apache.arrow.vector.dictionary.Dictionary;
import org.apache.arrow.vector.ipc.ArrowFileReader;

/**
 * An attribute table's {@code str} column written once per distinct value (layout version 2) reads
 * back, row for row, as the plain column it came from: through the dictionary built from the heap
 * column, and through Arrow Java's own reader of the file both table writers produce, which must be
 * the same bytes. Random columns: nulls, empty strings, multi-byte UTF-8, and value pools from one
 * value (every row repeats) to as many as rows (nothing repeats, so the column stays plain).
 */
class TextDictionaryRoundTripTest {

  /** A random column: {@code rows} rows drawn from a pool of {@code pool} values, about a tenth null. */
  static List<String> column(long seed, int rows, int pool) {
    Random r = new Random(seed);
    List<String> values = new ArrayList<>();
    for (int i = 0; i < pool; i++) {
      StringBuilder b = new StringBuilder();
      int len = r.nextInt(40);
      for (int k = 0; k < len; k++) {
        b.append(r.nextInt(8) == 0 ? (char) ('\u00e0' + r.nextInt(20)) : (char) ('a' + r.nextInt(26)));
      }
      values.add(b.toString());
    }
    List<String> out = new ArrayList<>(rows);
    for (int i = 0; i < rows; i++) {
      out.add(r.nextInt(10) == 0 ? null : values.get(r.nextInt(pool)));
    }
    return out;
  }

  static Table attrTable(List<String> strs) {
    Table t = mira.block.table.LayoutTables.build(mira.block.layout.Layouts.attributes(TableFiles.SPAN_ATTRS));
    VarColumn str = (VarColumn) t.column(ColumnNames.STR);
    for (String s : strs) {
      if (s == null) {
        str.appendNull();
      } else {
        str.append(s);
      }
    }
    return t;
  }

  @Property(tries = 60)
  void dictionaryRowsAreThePlainRows(@ForAll long seed, @ForAll @IntRange(min = 1, max = 3000) int rows,
      @ForAll @IntRange(min = 1, max = 3000) int pool) {
    List<String> strs = column(seed, rows, pool);
    VarColumn c = VarColumn.utf8(ColumnNames.STR, true);
    for (String s : strs) {
      if (s == null) {
        c.appendNull();
      } else {
        c.append(s);
      }
    }
    TextDictionary d = TextDictionary.of(c, rows, seed % 2 == 0 ? null : keys(seed, rows));
    if (d == null) {
      return;
    }
    assertThat(d.indices().size()).as("seed %d", seed).isEqualTo(rows);
    for (int i = 0; i < rows; i++) {
      String got = d.indices().isSet(i) ? d.values().getString(d.indices().getInt(i)) : null;
      assertThat(got).as("seed %d row %d", seed, i).isEqualTo(strs.get(i));
    }
  }

  /** Random keys for {@code rows} rows, a few null, to group a dictionary's values by. */
  static mira.block.column.DictColumn keys(long seed, int rows) {
    Random r = new Random(seed ^ 0x5DEECE66DL);
    mira.block.column.DictColumn k = new mira.block.column.DictColumn(ColumnNames.KEY, true);
    for (int i = 0; i < rows; i++) {
      if (r.nextInt(20) == 0) {
        k.appendNull();
      } else {
        k.append("k" + r.nextInt(7));
      }
    }
    return k;
  }

  @Property(tries = 25)
  void aWrittenTableReadsItsValuesBackThroughArrow(@ForAll long seed, @ForAll @IntRange(min = 1, max = 2000) int rows,
      @ForAll @IntRange(min = 1, max = 200) int pool) throws Exception {
    List<String> strs = column(seed, rows, pool);
    Table t = attrTable(strs);
    // The other columns of the layout, so the table is whole: one attribute per row.
    fill(t, rows);
    Path dir = Files.createTempDirectory("text-dict");
    try (BufferAllocator a = new RootAllocator()) {
      Path heap = dir.resolve("heap-" + t.file());
      Path vectors = dir.resolve("vectors-" + t.file());
      TableWriter.write(t, rows, heap, Fs.REAL);
      try (TableWriter.Loaded l = TableWriter.load(t, rows, a)) {
        TableWriter.writeRoot(l.root(), l.dictionaries(), vectors, null, Fs.REAL);
      }
      assertThat(Files.readAllBytes(heap)).as("seed %d: heap and vector writers agree", seed)
          .isEqualTo(Files.readAllBytes(vectors));
      boolean repeats = strs.stream().filter(s -> s != null).distinct().count() * 4 < strs.stream().filter(s -> s != null).count();
      try (FileChannel ch = FileChannel.open(heap); ArrowFileReader r = new ArrowFileReader(ch, a)) {
        r.loadNextBatch();
        FieldVector v = r.getVectorSchemaRoot().getVector(ColumnNames.STR);
        boolean encoded = v.getField().getDictionary() != null;
        if (repeats && strs.stream().filter(s -> s != null).mapToInt(String::length).sum() > 8 * pool) {
          assertThat(encoded).as("seed %d: a column of repeated values is stored as a dictionary", seed).isTrue();
        }
        for (int i = 0; i < rows; i++) {
          String got;
          if (encoded) {
            Dictionary d = r.getDictionaryVectors().get(v.getField().getDictionary().getId());
            IntVector idx = (IntVector) v;
            got = idx.isNull(i) ? null
                : new String(((VarCharVector) d.getVector()).get(idx.get(i)), StandardCharsets.UTF_8);
          } else {
            VarCharVector plain = (VarCharVector) v;
            got = plain.isNull(i) ? null : new String(plain.get(i), StandardCharsets.UTF_8);
          }
          assertThat(got).as("seed %d row %d", seed, i).isEqualTo(strs.get(i));
        }
      }
    } finally {
      try (var s = Files.list(dir)) {
        for (Path p : s.toList()) {
          Files.delete(p);
        }
      }
      Files.delete(dir);
    }
  }

  private static void fill(Table t, int rows) {
    for (int i = 0; i < rows; i++) {
      ((mira.block.column.FixedColumn) t.column(ColumnNames.PARENT_ID)).appendInt(i);
      ((mira.block.column.DictColumn) t.column(ColumnNames.KEY)).append("k" + (i % 3));
      ((mira.block.column.FixedColumn) t.column(ColumnNames.TYPE)).appendByte(1);
      ((mira.block.column.FixedColumn) t.column(ColumnNames.INT)).appendNull();
      ((mira.block.column.FixedColumn) t.column(ColumnNames.DOUBLE)).appendNull();
      ((mira.block.column.BoolColumn) t.column(ColumnNames.BOOL)).appendNull();
      ((mira.block.column.VarColumn) t.column(ColumnNames.BYTES)).appendNull();
      ((mira.block.column.VarColumn) t.column(ColumnNames.SER)).appendNull();
    }
  }
}
