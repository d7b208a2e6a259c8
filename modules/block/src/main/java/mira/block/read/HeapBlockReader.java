package mira.block.read;

import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.ValueVector;
import org.apache.arrow.vector.dictionary.Dictionary;
import org.apache.arrow.vector.ipc.ArrowFileReader;
import org.apache.arrow.vector.types.pojo.DictionaryEncoding;

/**
 * A {@link BlockReader} that reads each table with Arrow Java's {@link ArrowFileReader} into heap
 * buffers. A stop-gap until the zero-copy mapped reader exists: it does not verify checksums.
 */
public final class HeapBlockReader implements BlockReader {
  private final BlockRef ref;
  private final BufferAllocator allocator;
  private final Map<String, Optional<TableView>> tables = new HashMap<>();
  private final List<AutoCloseable> open = new ArrayList<>();

  public HeapBlockReader(BlockRef ref, BufferAllocator parent) {
    this.ref = ref;
    this.allocator = parent.newChildAllocator("block " + ref.dir().getFileName(), 0, Long.MAX_VALUE);
  }

  @Override
  public BlockRef ref() {
    return ref;
  }

  @Override
  public Optional<TableView> table(String file) throws CorruptBlockException {
    Optional<TableView> t = tables.get(file);
    if (t == null) {
      t = load(file);
      tables.put(file, t);
    }
    return t;
  }

  private Optional<TableView> load(String file) throws CorruptBlockException {
    Path p = ref.dir().resolve(file);
    if (!Files.exists(p)) {
      return Optional.empty();
    }
    try {
      FileChannel ch = FileChannel.open(p, StandardOpenOption.READ);
      open.add(ch);
      ArrowFileReader r = new ArrowFileReader(ch, allocator, mira.block.cold.ZstdCodec.FACTORY);
      open.add(r);
      if (!r.loadNextBatch()) {
        throw new CorruptBlockException(ref.dir(), file, "holds no record batch");
      }
      Map<Long, Dictionary> dicts = r.getDictionaryVectors();
      var root = r.getVectorSchemaRoot();
      return Optional.of(new TableView() {
        @Override
        public int rows() {
          return root.getRowCount();
        }

        @Override
        public FieldVector column(String name) {
          return root.getVector(name);
        }

        @Override
        public ValueVector dictionary(String name) {
          FieldVector v = root.getVector(name);
          if (v == null) {
            return null;
          }
          DictionaryEncoding e = v.getField().getDictionary();
          return e == null ? null : dicts.get(e.getId()).getVector();
        }
      });
    } catch (NoSuchFileException e) {
      return Optional.empty();
    } catch (IOException | RuntimeException e) {
      throw new CorruptBlockException(ref.dir(), file, e.getMessage() == null ? e.toString() : e.getMessage());
    }
  }

  @Override
  public void close() {
    for (int i = open.size() - 1; i >= 0; i--) {
      try {
        open.get(i).close();
      } catch (Exception e) {
        // Closing a read-only file cannot lose data; keep closing the rest.
      }
    }
    open.clear();
    allocator.close();
  }
}
