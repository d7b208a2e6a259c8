package mira.block.read;

import mira.block.catalog.BlockRef;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;
import mira.block.publish.TableWriter;
import mira.block.table.Table;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.ValueVector;
import org.apache.arrow.vector.types.pojo.DictionaryEncoding;

/**
 * A {@link BlockReader} over a {@link Snapshot} of an open block: its heap columns loaded into Arrow
 * vectors on first use, so the query layer reads an open block exactly as it reads a published one.
 */
public final class MemoryBlockReader implements BlockReader {
  private final Snapshot snapshot;
  private final BufferAllocator allocator;
  private final Map<String, Optional<TableView>> tables = new HashMap<>();
  private final Map<String, TableWriter.Loaded> loaded = new HashMap<>();

  public MemoryBlockReader(Snapshot snapshot, BufferAllocator parent) {
    this.snapshot = snapshot;
    this.allocator = parent.newChildAllocator("open block " + snapshot.ref().name().dirName(), 0, Long.MAX_VALUE);
  }

  @Override
  public BlockRef ref() {
    return snapshot.ref();
  }

  @Override
  public Optional<TableView> table(String file) {
    return tables.computeIfAbsent(file, this::load);
  }

  private Optional<TableView> load(String file) {
    for (Table t : snapshot.batch().tables()) {
      if (t.file().equals(file)) {
        if (t.rows() == 0) {
          return Optional.empty();
        }
        TableWriter.Loaded l = TableWriter.load(t, t.rows(), allocator);
        loaded.put(file, l);
        return Optional.of(new TableView() {
          @Override
          public int rows() {
            return l.root().getRowCount();
          }

          @Override
          public FieldVector column(String name) {
            return l.root().getVector(name);
          }

          @Override
          public ValueVector dictionary(String name) {
            FieldVector v = l.root().getVector(name);
            if (v == null) {
              return null;
            }
            DictionaryEncoding e = v.getField().getDictionary();
            return e == null ? null : l.dictionaries().lookup(e.getId()).getVector();
          }
        });
      }
    }
    return Optional.empty();
  }

  @Override
  public void close() {
    for (TableWriter.Loaded l : loaded.values()) {
      l.close();
    }
    loaded.clear();
    allocator.close();
  }
}
