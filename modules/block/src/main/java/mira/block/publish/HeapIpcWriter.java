package mira.block.publish;

import com.google.flatbuffers.FlatBufferBuilder;
import java.io.IOException;
import java.lang.foreign.Arena;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.zip.CRC32C;
import mira.block.column.Column;
import mira.block.column.DictColumn;
import mira.block.column.IpcBody;
import mira.block.column.TextDictionary;
import mira.block.column.VarColumn;
import mira.block.layout.LayoutVersion;
import mira.block.table.Table;
import org.apache.arrow.flatbuf.DictionaryBatch;
import org.apache.arrow.flatbuf.MessageHeader;
import org.apache.arrow.flatbuf.RecordBatch;
import org.apache.arrow.vector.ipc.WriteChannel;
import org.apache.arrow.vector.ipc.message.ArrowBlock;
import org.apache.arrow.vector.ipc.message.ArrowBuffer;
import org.apache.arrow.vector.ipc.message.ArrowFieldNode;
import org.apache.arrow.vector.ipc.message.ArrowFooter;
import org.apache.arrow.vector.ipc.message.FBSerializables;
import org.apache.arrow.vector.ipc.message.IpcOption;
import org.apache.arrow.vector.ipc.message.MessageSerializer;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.DictionaryEncoding;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.FieldType;
import org.apache.arrow.vector.types.pojo.Schema;

/**
 * Writes a {@link Table} as an Arrow IPC file straight from its heap columns: the bytes Arrow
 * Java's {@code ArrowFileWriter} writes for the same table after the columns are loaded into
 * vectors (the same schema, message framing, 8-byte buffer alignment, footer and CRC metadata),
 * without the off-heap copy of every column, its zeroing, or the vectors.
 *
 * <p>Flatbuffer metadata (schema, record and dictionary batch headers, footer) is built with Arrow's
 * own classes; only the bodies bypass Arrow's buffers. Bytes go to the file through one staging
 * buffer of {@value #STAGING} bytes off the heap, so large columns are written in a few large calls
 * and small buffers are coalesced. {@code TableWriterTest} compares the output byte for byte with
 * the vector path ({@link TableWriter#load} then {@link TableWriter#writeRoot}).
 *
 * <p>Not thread-safe; one instance writes one file.
 */
final class HeapIpcWriter {
  private static final int STAGING = 256 * 1024;
  private static final byte[] MAGIC = {'A', 'R', 'R', 'O', 'W', '1', 0, 0};
  private static final ArrowType.Int DICT_INDEX = new ArrowType.Int(16, false);

  private final FileChannel out;
  private final ByteBuffer staging;
  private final CRC32C crc = new CRC32C();
  /** Start of the staged bytes not yet in the CRC; -1 while the CRC is not running. */
  private int crcFrom = -1;
  private long position;

  private HeapIpcWriter(FileChannel out, ByteBuffer staging) {
    this.out = out;
    this.staging = staging.order(ByteOrder.LITTLE_ENDIAN);
  }

  /**
   * Writes {@code rows} rows of {@code table} to {@code ch} from position 0, with the CRC footer
   * metadata of {@link TableWriter}. Does not fsync.
   *
   * @return bytes written
   */
  static long write(Table table, int rows, FileChannel ch) throws IOException {
    try (Arena arena = Arena.ofConfined()) {
      HeapIpcWriter w = new HeapIpcWriter(ch, arena.allocate(STAGING, 8).asByteBuffer());
      return w.writeTable(table, rows);
    }
  }

  private long writeTable(Table table, int rows) throws IOException {
    List<Field> fields = new ArrayList<>();
    // Per dictionary id, its values; per written column, what its record batch body comes from.
    List<VarColumn> dicts = new ArrayList<>();
    List<Column> bodies = new ArrayList<>();
    for (Column c : table.columns()) {
      if (TableWriter.omitted(table, c, rows)) {
        continue;
      }
      TextDictionary text = TableWriter.deduplicated(table, c, rows);
      if (text != null) {
        fields.add(new Field(c.name(), new FieldType(c.nullable(), ArrowType.Utf8.INSTANCE,
            new DictionaryEncoding(dicts.size(), false, TableWriter.TEXT_INDEX)), null));
        dicts.add(text.values());
        bodies.add(text.indices());
      } else if (c instanceof DictColumn d) {
        // The file's field, as Arrow's writer turns an encoded field around: the dictionary's value
        // type (Utf8), the encoding naming the index type, no children.
        boolean nullable = d.field(dicts.size()).isNullable();
        fields.add(new Field(c.name(),
            new FieldType(nullable, ArrowType.Utf8.INSTANCE, new DictionaryEncoding(dicts.size(), false, DICT_INDEX)),
            null));
        dicts.add(d.values());
        bodies.add(c);
      } else {
        fields.add(c.field());
        bodies.add(c);
      }
    }
    Schema schema = new Schema(fields);

    put(MAGIC, 0, MAGIC.length);
    crcFrom = staging.position();
    ByteBuffer schemaMessage = MessageSerializer.serializeMetadata(schema, IpcOption.DEFAULT);
    frame(schemaMessage);

    List<ArrowBlock> dictionaryBlocks = new ArrayList<>(dicts.size());
    for (int id = 0; id < dicts.size(); id++) {
      Body body = new Body();
      VarColumn values = dicts.get(id);
      values.body(values.size(), body);
      dictionaryBlocks.add(batch(body, values.size(), id));
    }
    Body body = new Body();
    for (Column c : bodies) {
      c.body(rows, body);
    }
    ArrowBlock recordBlock = batch(body, rows, -1);

    long covered = position + staging.position() - TableWriter.BODY_OFFSET;
    crc.update(staging.duplicate().position(crcFrom).limit(staging.position()));
    crcFrom = -1;
    Map<String, String> meta = new HashMap<>();
    meta.put(TableWriter.CRC_KEY, HexFormat.of().toHexDigits((int) crc.getValue()));
    meta.put(TableWriter.LEN_KEY, Long.toString(covered));
    meta.put(LayoutVersion.KEY, LayoutVersion.CURRENT);

    // End-of-stream marker, then the footer, its length and the closing magic.
    putInt(MessageSerializer.IPC_CONTINUATION_TOKEN);
    putInt(0);
    ByteBuffer footer = WriteChannel.serialize(
        new ArrowFooter(schema, dictionaryBlocks, List.of(recordBlock), meta, IpcOption.DEFAULT.metadataVersion));
    int footerLength = footer.remaining();
    put(footer);
    putInt(footerLength);
    put(MAGIC, 0, 6);
    flush();
    return position;
  }

  /** The buffers and field nodes of one batch, in IPC order, with their body offsets. */
  private static final class Body implements IpcBody {
    final List<ArrowFieldNode> nodes = new ArrayList<>();
    final List<ArrowBuffer> layout = new ArrayList<>();
    final List<Object> arrays = new ArrayList<>();
    long length;

    @Override
    public void node(int length, int nullCount) {
      nodes.add(new ArrowFieldNode(length, nullCount));
    }

    @Override
    public void bytes(byte[] src, int len) {
      add(src, len);
    }

    @Override
    public void ints(int[] src, int count) {
      add(src, 4L * count);
    }

    private void add(Object array, long size) {
      layout.add(new ArrowBuffer(length, size));
      arrays.add(array);
      length = padded(length + size);
    }
  }

  /**
   * Writes one record batch (or, with {@code dictionaryId} ≥ 0, one dictionary batch around it):
   * its framed metadata, then its body.
   */
  private ArrowBlock batch(Body body, int rows, long dictionaryId) throws IOException {
    FlatBufferBuilder b = new FlatBufferBuilder();
    RecordBatch.startNodesVector(b, body.nodes.size());
    int nodes = FBSerializables.writeAllStructsToVector(b, body.nodes);
    RecordBatch.startBuffersVector(b, body.layout.size());
    int buffers = FBSerializables.writeAllStructsToVector(b, body.layout);
    RecordBatch.startRecordBatch(b);
    RecordBatch.addLength(b, rows);
    RecordBatch.addNodes(b, nodes);
    RecordBatch.addBuffers(b, buffers);
    int header = RecordBatch.endRecordBatch(b);
    byte type = MessageHeader.RecordBatch;
    if (dictionaryId >= 0) {
      DictionaryBatch.startDictionaryBatch(b);
      DictionaryBatch.addId(b, dictionaryId);
      DictionaryBatch.addData(b, header);
      DictionaryBatch.addIsDelta(b, false);
      header = DictionaryBatch.endDictionaryBatch(b);
      type = MessageHeader.DictionaryBatch;
    }
    ByteBuffer message = MessageSerializer.serializeMessage(b, type, header, body.length, IpcOption.DEFAULT);
    long start = position + staging.position();
    int metadataLength = frame(message);
    for (int i = 0; i < body.arrays.size(); i++) {
      ArrowBuffer at = body.layout.get(i);
      padTo(start + metadataLength + at.getOffset());
      if (body.arrays.get(i) instanceof byte[] bytes) {
        put(bytes, 0, (int) at.getSize());
      } else {
        putInts((int[]) body.arrays.get(i), (int) (at.getSize() >>> 2));
      }
    }
    padTo(start + metadataLength + body.length);
    return new ArrowBlock(start, metadataLength, body.length);
  }

  /**
   * Writes an encapsulated message's prefix (continuation marker, padded length) and metadata, padded
   * so the body starts 8-aligned, as Arrow's {@code MessageSerializer} does.
   *
   * @return bytes of prefix and padded metadata
   */
  private int frame(ByteBuffer metadata) throws IOException {
    int length = metadata.remaining();
    int padding = (int) ((position + staging.position() + length + 8) % 8);
    if (padding != 0) {
      length += 8 - padding;
    }
    putInt(MessageSerializer.IPC_CONTINUATION_TOKEN);
    putInt(length);
    put(metadata);
    padTo(padded(position + staging.position()));
    return length + 8;
  }

  private static long padded(long n) {
    return (n + 7) & ~7L;
  }

  private void padTo(long at) throws IOException {
    long n = at - (position + staging.position());
    for (; n > 0; n--) {
      room(1);
      staging.put((byte) 0);
    }
  }

  private void putInt(int v) throws IOException {
    room(4);
    staging.putInt(v);
  }

  private void put(ByteBuffer src) throws IOException {
    while (src.hasRemaining()) {
      room(1);
      int n = Math.min(src.remaining(), staging.remaining());
      staging.put(staging.position(), src, src.position(), n);
      staging.position(staging.position() + n);
      src.position(src.position() + n);
    }
  }

  private void put(byte[] src, int off, int len) throws IOException {
    while (len > 0) {
      room(1);
      int n = Math.min(len, staging.remaining());
      staging.put(src, off, n);
      off += n;
      len -= n;
    }
  }

  private void putInts(int[] src, int count) throws IOException {
    for (int i = 0; i < count; ) {
      room(4);
      int n = Math.min(count - i, staging.remaining() >>> 2);
      staging.asIntBuffer().put(src, i, n);
      staging.position(staging.position() + 4 * n);
      i += n;
    }
  }

  /** Flushes the staging buffer if fewer than {@code n} bytes are free in it. */
  private void room(int n) throws IOException {
    if (staging.remaining() < n) {
      flush();
    }
  }

  private void flush() throws IOException {
    staging.flip();
    if (crcFrom >= 0) {
      crc.update(staging.duplicate().position(crcFrom));
      crcFrom = 0;
    }
    while (staging.hasRemaining()) {
      position += out.write(staging);
    }
    staging.clear();
  }
}
