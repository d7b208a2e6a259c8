package mira.block.publish;

import mira.block.layout.ColumnNames;
import mira.block.layout.Layouts;
import mira.block.layout.LayoutVersion;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.channels.WritableByteChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.zip.CRC32C;
import mira.block.column.Column;
import mira.block.column.DictColumn;
import mira.block.column.TextDictionary;
import mira.block.column.VarColumn;
import mira.block.table.Table;
import org.apache.arrow.memory.ArrowBuf;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.VectorLoader;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.dictionary.Dictionary;
import org.apache.arrow.vector.dictionary.DictionaryProvider;
import org.apache.arrow.vector.ipc.ArrowFileWriter;
import org.apache.arrow.vector.ipc.message.ArrowFieldNode;
import org.apache.arrow.vector.ipc.message.ArrowRecordBatch;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.DictionaryEncoding;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.FieldType;
import org.apache.arrow.vector.types.pojo.Schema;

/**
 * Writes one {@link Table} as a standard Arrow IPC file (one record batch), fsynced.
 *
 * <p>The footer's custom metadata carries the layout version ({@link LayoutVersion}) and
 * {@value #CRC_KEY} (CRC32C, 8 hex digits) over the bytes
 * {@code [8, 8 + body_len)} — schema message, dictionary batches and the record batch — and
 * {@value #LEN_KEY}. The length is stored, not derived, so a reader never has to guess where the
 * covered region ends.
 */
public final class TableWriter {
  public static final String CRC_KEY = "mira.crc32c";
  public static final String LEN_KEY = "mira.body_len";
  /** Bytes before the covered region: "ARROW1" and two bytes of padding. */
  public static final int BODY_OFFSET = 8;

  private TableWriter() {}

  /**
   * Writes {@code rows} rows of {@code table} to {@code file} (which must not exist) and fsyncs it,
   * straight from the heap columns ({@link HeapIpcWriter}: the same bytes as {@link #load} followed
   * by {@link #writeRoot}, without copying every column off the heap first).
   *
   * @return bytes written
   */
  public static long write(Table table, int rows, Path file, mira.fs.Fs fs) throws IOException {
    try (FileChannel ch = fs.create(file)) {
      long size = HeapIpcWriter.write(table, rows, ch);
      ch.force(true);
      return size;
    }
  }

  /**
   * A table's first {@code rows} rows as Arrow vectors (copied out of the heap columns), with the
   * dictionaries of its dictionary-encoded columns. Close it to release the buffers.
   */
  public record Loaded(VectorSchemaRoot root, DictionaryProvider.MapDictionaryProvider dictionaries)
      implements AutoCloseable {
    @Override
    public void close() {
      root.close();
      for (long id : dictionaries.getDictionaryIds()) {
        dictionaries.lookup(id).getVector().close();
      }
    }
  }

  /**
   * True if the column is left out of the file: a column the layout marks omittable (an attribute
   * table's value column for a type no row of this block has) that holds no value. Readers find columns by name and read a missing one as all null. A string-only
   * block otherwise stores 24 bytes of nothing per attribute row (an 8-byte int, an 8-byte double
   * and two 4-byte offsets), about a quarter of a traces block.
   */
  static boolean omitted(Table table, Column c, int rows) {
    return rows > 0 && Layouts.of(table.file()).column(c.name()).omittable() && c.allNull(rows);
  }

  /**
   * The column's distinct values and per-row indices, where the layout lets this column be stored
   * so and it pays ({@link TextDictionary#of}); null to store it as it is.
   */
  static TextDictionary deduplicated(Table table, Column c, int rows) {
    if (!(c instanceof VarColumn v) || !Layouts.of(table.file()).column(c.name()).deduplicated()) {
      return null;
    }
    // An attribute table's values are stored grouped by key (what the cold tier compresses best).
    Column key = Layouts.of(table.file()).attributes() ? table.column(ColumnNames.KEY) : null;
    return TextDictionary.of(v, rows, key instanceof DictColumn d ? d : null);
  }

  /** The index type of a deduplicated column's dictionary encoding. */
  static final ArrowType.Int TEXT_INDEX = new ArrowType.Int(32, true);

  /** Loads {@code rows} rows of {@code table} into Arrow vectors allocated from {@code allocator}. */
  public static Loaded load(Table table, int rows, BufferAllocator allocator) {
    List<Field> fields = new ArrayList<>();
    DictionaryProvider.MapDictionaryProvider provider = new DictionaryProvider.MapDictionaryProvider();
    List<ArrowFieldNode> nodes = new ArrayList<>();
    List<ArrowBuf> buffers = new ArrayList<>();
    long dictId = 0;
    boolean ok = false;
    try {
      for (Column c : table.columns()) {
        if (omitted(table, c, rows)) {
          continue;
        }
        TextDictionary text = deduplicated(table, c, rows);
        if (text != null) {
          DictionaryEncoding encoding = new DictionaryEncoding(dictId, false, TEXT_INDEX);
          fields.add(new Field(c.name(), new FieldType(c.nullable(), TEXT_INDEX, encoding), null));
          provider.put(new Dictionary(vector(text.values(), allocator), encoding));
          dictId++;
          text.indices().export(rows, nodes, buffers, allocator);
          continue;
        }
        if (c instanceof DictColumn d) {
          fields.add(d.field(dictId));
          provider.put(d.dictionary(dictId, allocator));
          dictId++;
        } else {
          fields.add(c.field());
        }
        c.export(rows, nodes, buffers, allocator);
      }
      VectorSchemaRoot root = VectorSchemaRoot.create(new Schema(fields), allocator);
      try (ArrowRecordBatch batch = new ArrowRecordBatch(rows, nodes, buffers)) {
        new VectorLoader(root).load(batch);
      }
      ok = true;
      return new Loaded(root, provider);
    } finally {
      for (ArrowBuf b : buffers) {
        b.close();
      }
      if (!ok) {
        for (long id : provider.getDictionaryIds()) {
          provider.lookup(id).getVector().close();
        }
      }
    }
  }

  /** {@code values} as a vector of its own (the caller closes it). */
  private static FieldVector vector(VarColumn values, BufferAllocator allocator) {
    Field f = values.field();
    List<ArrowFieldNode> nodes = new ArrayList<>();
    List<ArrowBuf> bufs = new ArrayList<>();
    try {
      values.export(values.size(), nodes, bufs, allocator);
      FieldVector v = f.createVector(allocator);
      v.loadFieldBuffers(nodes.get(0), bufs);
      return v;
    } finally {
      for (ArrowBuf b : bufs) {
        b.close();
      }
    }
  }

  /**
   * Writes the batch loaded in {@code root} to {@code file} (which must not exist), with the CRC
   * footer metadata, and fsyncs it.
   *
   * @param zstd the body codec, or null for an uncompressed (mappable) file
   * @return bytes written
   */
  public static long writeRoot(VectorSchemaRoot root, DictionaryProvider provider, Path file,
      org.apache.arrow.vector.compression.CompressionCodec.Factory zstd, mira.fs.Fs fs) throws IOException {
    try (FileChannel ch = fs.create(file)) {
      CrcChannel crc = new CrcChannel(ch);
      Map<String, String> meta = new HashMap<>();
      // ArrowFileWriter keeps this map and reads it when it writes the footer in end().
      ArrowFileWriter w = zstd == null
          ? new ArrowFileWriter(root, provider, crc, meta)
          : new ArrowFileWriter(root, provider, crc, meta, org.apache.arrow.vector.ipc.message.IpcOption.DEFAULT, zstd,
              org.apache.arrow.vector.compression.CompressionUtil.CodecType.ZSTD, java.util.Optional.empty());
      w.start();
      w.writeBatch();
      long covered = w.bytesWritten() - BODY_OFFSET;
      meta.put(CRC_KEY, HexFormat.of().toHexDigits((int) crc.freeze()));
      meta.put(LEN_KEY, Long.toString(covered));
      meta.put(LayoutVersion.KEY, LayoutVersion.CURRENT);
      w.end();
      long size = w.bytesWritten();
      ch.force(true);
      return size;
    }
  }

  /** Passes bytes through while computing CRC32C over everything after the first 8 bytes. */
  private static final class CrcChannel implements WritableByteChannel {
    private final FileChannel out;
    private final CRC32C crc = new CRC32C();
    private long position;
    private boolean frozen;

    CrcChannel(FileChannel out) {
      this.out = out;
    }

    long freeze() {
      frozen = true;
      return crc.getValue();
    }

    @Override
    public int write(ByteBuffer src) throws IOException {
      int n = src.remaining();
      if (!frozen) {
        ByteBuffer view = src.duplicate();
        long skip = BODY_OFFSET - position;
        if (skip > 0) {
          view.position(view.position() + (int) Math.min(skip, n));
        }
        crc.update(view);
      }
      int written = 0;
      while (src.hasRemaining()) {
        written += out.write(src);
      }
      position += written;
      return written;
    }

    @Override
    public boolean isOpen() {
      return out.isOpen();
    }

    @Override
    public void close() {
      // The caller owns the file channel (it fsyncs before closing).
    }
  }
}
