package mira.block.read;

import mira.block.layout.LayoutVersion;
import java.io.IOException;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.zip.CRC32C;
import mira.block.publish.TableWriter;
import org.apache.arrow.flatbuf.Footer;
import org.apache.arrow.flatbuf.KeyValue;
import org.apache.arrow.flatbuf.Message;
import org.apache.arrow.flatbuf.MessageHeader;
import org.apache.arrow.flatbuf.RecordBatch;
import org.apache.arrow.memory.ArrowBuf;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.ValueVector;
import mira.block.codec.ColdLayout;
import mira.block.codec.ZstdCodec;
import org.apache.arrow.vector.VectorLoader;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.dictionary.Dictionary;
import org.apache.arrow.vector.ipc.message.ArrowDictionaryBatch;
import org.apache.arrow.vector.ipc.message.ArrowRecordBatch;
import org.apache.arrow.vector.ipc.message.MessageSerializer;
import org.apache.arrow.vector.types.pojo.DictionaryEncoding;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.Schema;
import org.apache.arrow.vector.util.DictionaryUtility;

/**
 * One table file of a block, mapped, then — on first use — verified and loaded into vectors that
 * point into the mapping.
 *
 * <p>Layout of a Mira table file (a standard Arrow IPC file): {@code "ARROW1"} and 2 bytes of
 * padding; the IPC stream (schema message, dictionary batches, one record batch); the end-of-stream
 * marker; the footer flatbuffer; its int32 length; {@code "ARROW1"}. The CRC32C in the footer's
 * metadata covers the stream, {@code [8, 8 + body_len)}. The footer itself is not covered, so only
 * the two metadata values are taken from it — both check themselves against the CRC — and the
 * schema, dictionaries and record batch are found by walking the covered stream, never through the
 * footer's offsets.
 */
final class MappedTable implements TableView {
  private static final byte[] MAGIC = {'A', 'R', 'R', 'O', 'W', '1'};
  private static final ValueLayout.OfInt INT = ValueLayout.JAVA_INT_UNALIGNED.withOrder(ByteOrder.LITTLE_ENDIAN);
  /** Leading magic and padding, end-of-stream marker, footer length, trailing magic. */
  private static final long MIN_SIZE = 8 + 8 + 4 + 6;
  /** ByteBuffer views of a segment are limited to 2 GiB; the CRC walks larger files in slices. */
  private static final long CRC_SLICE = 1L << 30;

  private final Path block;
  private final String file;
  private final BufferAllocator allocator;
  private final MappedFile.Mapping mapping;
  /** The wrapper over the whole file; released once loaded or on close. */
  private ArrowBuf whole;
  private VectorSchemaRoot root;
  /** The schema as the file states it (its metadata says whether a cold table was rearranged). */
  private Schema fileSchema;
  private final Map<Long, Dictionary> dictionaries = new HashMap<>();
  private final Map<String, FieldVector> byName = new HashMap<>();
  private CorruptBlockException failure;

  MappedTable(Path block, String file, BufferAllocator allocator, MappedFile.Mapping mapping) {
    this.block = block;
    this.file = file;
    this.allocator = allocator;
    this.mapping = mapping;
    this.whole = mapping.buf();
  }

  MemorySegment segment() {
    return mapping.segment();
  }

  /** Verifies and loads the file once; a failure is remembered and thrown again on every call. */
  void load() throws CorruptBlockException {
    if (failure != null) {
      throw failure;
    }
    if (root != null) {
      return;
    }
    try {
      long covered = verify();
      loadVectors(covered);
    } catch (CorruptBlockException e) {
      failure = e;
      releaseVectors();
      throw e;
    } catch (IOException | RuntimeException e) {
      // Arrow and flatbuffers report a malformed stream with assorted runtime exceptions.
      failure = corrupt("cannot load: " + (e.getMessage() == null ? e.toString() : e.getMessage()));
      releaseVectors();
      throw failure;
    }
  }

  /**
   * Checks both magics and the footer, and the CRC32C of the covered region, reading every byte of
   * it once from the mapping.
   *
   * @return the length of the covered region
   */
  private long verify() throws CorruptBlockException {
    MemorySegment seg = mapping.segment();
    long size = seg.byteSize();
    if (size < MIN_SIZE) {
      throw corrupt("truncated: " + size + " bytes, an Arrow file has at least " + MIN_SIZE);
    }
    if (!magicAt(seg, 0)) {
      throw corrupt("no ARROW1 magic at offset 0");
    }
    if (!magicAt(seg, size - MAGIC.length)) {
      throw corrupt("no ARROW1 magic at offset " + (size - MAGIC.length) + " (truncated?)");
    }
    long footerLenAt = size - MAGIC.length - 4;
    int footerLen = seg.get(INT, footerLenAt);
    long footerStart = footerLenAt - footerLen;
    if (footerLen <= 0 || footerStart < TableWriter.BODY_OFFSET) {
      throw corrupt("footer length " + footerLen + " at offset " + footerLenAt + " does not fit the file");
    }
    String crcText = null;
    String lenText = null;
    String layout = null;
    try {
      Footer footer = Footer.getRootAsFooter(littleEndian(seg.asSlice(footerStart, footerLen)));
      KeyValue kv = new KeyValue();
      for (int i = 0; i < footer.customMetadataLength(); i++) {
        footer.customMetadata(kv, i);
        String key = kv.key();
        if (TableWriter.CRC_KEY.equals(key)) {
          crcText = kv.value();
        } else if (TableWriter.LEN_KEY.equals(key)) {
          lenText = kv.value();
        } else if (LayoutVersion.KEY.equals(key)) {
          layout = kv.value();
        }
      }
    } catch (RuntimeException e) {
      throw corrupt("footer at offset " + footerStart + " does not parse: " + e);
    }
    if (!LayoutVersion.known(layout)) {
      throw new UnsupportedFormatException(block, file, layout);
    }
    if (crcText == null || lenText == null) {
      throw corrupt("footer metadata lacks " + (crcText == null ? TableWriter.CRC_KEY : TableWriter.LEN_KEY)
          + ": not a table Mira wrote, or written before checksums");
    }
    int stored;
    long covered;
    try {
      stored = HexFormat.fromHexDigits(crcText);
      covered = Long.parseLong(lenText);
    } catch (RuntimeException e) {
      throw corrupt("footer metadata " + TableWriter.CRC_KEY + "=" + crcText + " " + TableWriter.LEN_KEY + "=" + lenText
          + " does not parse");
    }
    if (crcText.length() != 8 || covered <= 0 || TableWriter.BODY_OFFSET + covered > footerStart) {
      throw corrupt("footer metadata " + TableWriter.CRC_KEY + "=" + crcText + " " + TableWriter.LEN_KEY + "=" + covered
          + " does not fit the file");
    }
    // Read through the page cache rather than the mapping: a table's first load then faults in only
    // the pages its query reads. The file at the path may have been replaced since it was mapped
    // (the compactor renames a cold file over a hot one) or removed (retention), so the mapping,
    // which is what the vectors read, has the last word whenever the read does not match.
    long read = crc32cByReading(block.resolve(file), TableWriter.BODY_OFFSET, covered);
    int actual = read == Integer.toUnsignedLong(stored) ? stored : crc32c(seg, TableWriter.BODY_OFFSET, covered);
    if (actual != stored) {
      throw corrupt(String.format("CRC32C mismatch over bytes [%d, %d): footer says %08x, file has %08x",
          TableWriter.BODY_OFFSET, TableWriter.BODY_OFFSET + covered, stored, actual));
    }
    return covered;
  }

  /** Bytes read at a time when verifying by reading. */
  private static final int READ_CHUNK = 256 << 10;
  /** One read buffer per platform thread (the query and scan threads); virtual threads take a fresh one. */
  private static final ThreadLocal<ByteBuffer> READ_BUFFER = ThreadLocal.withInitial(
      () -> ByteBuffer.allocateDirect(READ_CHUNK));

  /**
   * CRC32C of bytes {@code [from, from + len)} of {@code path}, read with positional reads into a
   * reused direct buffer: a copy from the page cache, about six times cheaper on this project's
   * machine than faulting in every page of a fresh mapping ({@code BlockOpenBench}: 0.87 against
   * 5.7 ms for 14.5 MB). -1 (never a CRC32C, which is unsigned 32-bit) if the file cannot be read
   * or is shorter.
   */
  static long crc32cByReading(Path path, long from, long len) {
    ByteBuffer buf = Thread.currentThread().isVirtual() ? ByteBuffer.allocateDirect(READ_CHUNK) : READ_BUFFER.get();
    CRC32C crc = new CRC32C();
    try (FileChannel ch = FileChannel.open(path, StandardOpenOption.READ)) {
      long at = from;
      long end = from + len;
      while (at < end) {
        buf.clear().limit((int) Math.min(READ_CHUNK, end - at));
        int n = ch.read(buf, at);
        if (n <= 0) {
          return -1;
        }
        buf.flip();
        crc.update(buf);
        at += n;
      }
    } catch (IOException | RuntimeException e) {
      return -1;
    }
    return crc.getValue();
  }

  /** CRC32C of {@code seg[from, from + len)}, read in place (direct buffer views, no copy). */
  static int crc32c(MemorySegment seg, long from, long len) {
    CRC32C crc = new CRC32C();
    for (long at = from, end = from + len; at < end; at += CRC_SLICE) {
      crc.update(seg.asSlice(at, Math.min(CRC_SLICE, end - at)).asByteBuffer());
    }
    return (int) crc.getValue();
  }

  /** Walks the covered stream: one schema, then dictionary batches, then exactly one record batch. */
  private void loadVectors(long covered) throws CorruptBlockException, IOException {
    MemorySegment seg = mapping.segment();
    long end = TableWriter.BODY_OFFSET + covered;
    long pos = TableWriter.BODY_OFFSET;
    boolean batchLoaded = false;
    int dictionariesLoaded = 0;
    while (pos < end) {
      if (batchLoaded) {
        throw corrupt("bytes after the record batch at offset " + pos);
      }
      if (pos + 8 > end || seg.get(INT, pos) != -1) {
        throw corrupt("no IPC message at offset " + pos);
      }
      int metaLen = seg.get(INT, pos + 4);
      long bodyStart = pos + 8 + metaLen;
      if (metaLen <= 0 || bodyStart > end) {
        throw corrupt("message metadata length " + metaLen + " at offset " + pos + " overruns the stream");
      }
      Message m = Message.getRootAsMessage(littleEndian(seg.asSlice(pos + 8, metaLen)));
      long bodyLen = m.bodyLength();
      if (bodyLen < 0 || bodyStart + bodyLen > end) {
        throw corrupt("message body length " + bodyLen + " at offset " + pos + " overruns the stream");
      }
      byte type = m.headerType();
      if (root == null) {
        if (type != MessageHeader.Schema) {
          throw corrupt("the stream does not start with a schema (message type " + type + ")");
        }
        fileSchema = MessageSerializer.deserializeSchema(m);
        createVectors(fileSchema);
      } else if (type == MessageHeader.DictionaryBatch) {
        loadDictionary(m, body(bodyStart, bodyLen), pos);
        dictionariesLoaded++;
      } else if (type == MessageHeader.RecordBatch) {
        RecordBatch rb = (RecordBatch) m.header(new RecordBatch());
        // A cold-tier (ZSTD) body is inflated into buffers of this block's allocator; an
        // uncompressed one stays in the mapping (the codec is recorded per batch).
        try (ArrowRecordBatch batch = MessageSerializer.deserializeRecordBatch(rb, body(bodyStart, bodyLen))) {
          new VectorLoader(root, ZstdCodec.FACTORY).load(batch);
          if (ColdLayout.rearranged(fileSchema)) {
            // Only a cold table may be rearranged: its buffers were inflated into memory. Undoing it
            // over a mapping would write into the file.
            if (rb.compression() == null) {
              throw corrupt("the schema says the table was rearranged, but its body is not compressed");
            }
            root = ColdLayout.undo(fileSchema, root, allocator);
          }
        } catch (IllegalStateException | IllegalArgumentException e) {
          throw corrupt("record batch at offset " + pos + " does not load: " + e.getMessage());
        }
        batchLoaded = true;
      } else {
        throw corrupt("unexpected message type " + type + " at offset " + pos);
      }
      pos = bodyStart + bodyLen;
    }
    if (!batchLoaded) {
      throw corrupt("no record batch");
    }
    if (dictionariesLoaded != dictionaries.size()) {
      throw corrupt("the schema declares " + dictionaries.size() + " dictionaries, the stream holds "
          + dictionariesLoaded);
    }
    for (FieldVector v : root.getFieldVectors()) {
      byName.put(v.getName(), v);
    }
    // The vectors hold their own references to the mapping now.
    whole.close();
    whole = null;
  }

  private void createVectors(Schema fileSchema) {
    List<Field> fields = new ArrayList<>(fileSchema.getFields().size());
    List<FieldVector> vectors = new ArrayList<>(fileSchema.getFields().size());
    for (Field f : fileSchema.getFields()) {
      Field memory = DictionaryUtility.toMemoryFormat(f, allocator, dictionaries);
      fields.add(memory);
      vectors.add(memory.createVector(allocator));
    }
    root = new VectorSchemaRoot(fields, vectors, 0);
  }

  private void loadDictionary(Message m, ArrowBuf body, long pos) throws CorruptBlockException, IOException {
    try (ArrowDictionaryBatch batch = MessageSerializer.deserializeDictionaryBatch(m, body)) {
      Dictionary d = dictionaries.get(batch.getDictionaryId());
      if (d == null || batch.isDelta() || d.getVector().getValueCount() > 0) {
        throw corrupt("dictionary batch at offset " + pos + " has id " + batch.getDictionaryId()
            + (d == null ? ", which the schema does not declare" : ", a delta or a repeat"));
      }
      FieldVector v = d.getVector();
      VectorSchemaRoot one = new VectorSchemaRoot(List.of(v.getField()), List.of(v), 0);
      new VectorLoader(one, ZstdCodec.FACTORY).load(batch.getDictionary());
    }
  }

  /** A slice of the mapping with one extra reference, which deserialization consumes. */
  private ArrowBuf body(long start, long len) {
    ArrowBuf body = whole.slice(start, len);
    body.getReferenceManager().retain();
    return body;
  }

  private static boolean magicAt(MemorySegment seg, long at) {
    for (int i = 0; i < MAGIC.length; i++) {
      if (seg.get(ValueLayout.JAVA_BYTE, at + i) != MAGIC[i]) {
        return false;
      }
    }
    return true;
  }

  private static ByteBuffer littleEndian(MemorySegment slice) {
    return slice.asByteBuffer().order(ByteOrder.LITTLE_ENDIAN);
  }

  private CorruptBlockException corrupt(String reason) {
    return new CorruptBlockException(block, file, reason);
  }

  @Override
  public int rows() {
    return root.getRowCount();
  }

  @Override
  public FieldVector column(String name) {
    return byName.get(name);
  }

  @Override
  public ValueVector dictionary(String name) {
    FieldVector v = byName.get(name);
    if (v == null) {
      return null;
    }
    DictionaryEncoding e = v.getField().getDictionary();
    if (e == null) {
      return null;
    }
    Dictionary d = dictionaries.get(e.getId());
    return d == null ? null : d.getVector();
  }

  /** The loaded vectors, in schema order (empty until loaded). */
  List<FieldVector> vectors() {
    return root == null ? List.of() : root.getFieldVectors();
  }

  /** The loaded dictionaries by id. */
  Map<Long, Dictionary> dictionaries() {
    return dictionaries;
  }

  private void releaseVectors() {
    if (root != null) {
      root.close();
      root = null;
    }
    for (Dictionary d : dictionaries.values()) {
      d.getVector().close();
    }
    dictionaries.clear();
    byName.clear();
  }

  /** Releases every buffer this table holds; the file is unmapped once the last one goes. */
  void close() {
    releaseVectors();
    if (whole != null) {
      whole.close();
      whole = null;
    }
  }
}
