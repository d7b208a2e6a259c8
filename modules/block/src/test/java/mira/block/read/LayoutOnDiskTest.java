package mira.block.read;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.stream.Stream;
import mira.block.catalog.BlockRef;
import mira.block.layout.Col;
import mira.block.layout.Layouts;
import mira.block.layout.TableLayout;
import mira.proto.wire.Signal;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.ipc.ArrowFileReader;
import org.apache.arrow.vector.types.FloatingPointPrecision;
import org.apache.arrow.vector.types.TimeUnit;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Field;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * What a published block holds on disk is the layout: every table file of a block of each signal,
 * opened with Arrow's own reader, has exactly the layout's columns, in order, with the layout's
 * Arrow type and nullability (the types spelled here independently of the writer); only a column
 * the layout marks omittable may be missing, and only from a block where it holds nothing.
 */
class LayoutOnDiskTest {
  @TempDir Path data;

  @Test
  void everyPublishedTableIsItsLayout() throws Exception {
    Set<String> seen = new HashSet<>();
    long seq = 1;
    for (Signal s : Signal.values()) {
      BlockRef ref = TestBlocks.sample(data, s, 50, seq++);
      try (Stream<Path> files = Files.list(ref.dir()); BufferAllocator a = new RootAllocator()) {
        for (Path f : files.filter(p -> p.toString().endsWith(".arrow")).toList()) {
          String file = f.getFileName().toString();
          TableLayout layout = Layouts.of(file);
          try (FileChannel ch = FileChannel.open(f, StandardOpenOption.READ);
              ArrowFileReader r = new ArrowFileReader(ch, a)) {
            List<Field> fields = r.getVectorSchemaRoot().getSchema().getFields();
            List<Col> stored = layout.columns().stream()
                .filter(c -> !c.omittable() || fields.stream().anyMatch(x -> x.getName().equals(c.name()))).toList();
            assertThat(fields).as(file).hasSize(stored.size());
            for (int i = 0; i < fields.size(); i++) {
              Field got = fields.get(i);
              Col want = stored.get(i);
              assertThat(got.getName()).as(file).isEqualTo(want.name());
              assertThat(got.isNullable()).as(file + " " + want.name()).isEqualTo(want.nullable());
              if (want.deduplicated() && got.getDictionary() != null) {
                // Stored once per distinct value where that pays: Int32 indices into Utf8 values (as Arrow
                // Java reads an encoded field: its index type).
                assertThat(typeOf(got)).as(file + " " + want.name()).isEqualTo("dict<Int(32, true)>");
                assertThat(got.getDictionary().getIndexType()).isEqualTo(new ArrowType.Int(32, true));
              } else {
                assertThat(typeOf(got)).as(file + " " + want.name()).isEqualTo(expected(want));
              }
            }
          }
          seen.add(file);
        }
      }
    }
    assertThat(seen).isEqualTo(Layouts.files());
  }

  /** The stored type as text: a dictionary's value type, a list's item type. */
  private static String typeOf(Field f) {
    if (f.getDictionary() != null) {
      return "dict<" + f.getType() + ">";
    }
    if (f.getType() instanceof ArrowType.List) {
      Field item = f.getChildren().get(0);
      return "list<" + item.getType() + (item.isNullable() ? "?" : "") + ">";
    }
    return f.getType().toString();
  }

  private static String expected(Col c) {
    return switch (c.kind()) {
      case U8 -> new ArrowType.Int(8, false).toString();
      case U16 -> new ArrowType.Int(16, false).toString();
      case U32 -> new ArrowType.Int(32, false).toString();
      case U64 -> new ArrowType.Int(64, false).toString();
      case I32 -> new ArrowType.Int(32, true).toString();
      case I64 -> new ArrowType.Int(64, true).toString();
      case F64 -> new ArrowType.FloatingPoint(FloatingPointPrecision.DOUBLE).toString();
      case BOOL -> ArrowType.Bool.INSTANCE.toString();
      case TIMESTAMP_NS -> new ArrowType.Timestamp(TimeUnit.NANOSECOND, null).toString();
      case FIXED_BINARY -> new ArrowType.FixedSizeBinary(c.width()).toString();
      case UTF8 -> ArrowType.Utf8.INSTANCE.toString();
      case BINARY -> ArrowType.Binary.INSTANCE.toString();
      case DICT_UTF8 -> "dict<" + new ArrowType.Int(16, false) + ">";
      case LIST_U64 -> "list<" + new ArrowType.Int(64, false) + ">";
      case LIST_F64 -> "list<" + new ArrowType.FloatingPoint(FloatingPointPrecision.DOUBLE) + ">";
    };
  }
}
