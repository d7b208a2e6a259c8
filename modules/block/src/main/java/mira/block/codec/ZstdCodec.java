package mira.block.codec;

import com.github.luben.zstd.Zstd;
import java.nio.ByteBuffer;
import org.apache.arrow.memory.ArrowBuf;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.compression.AbstractCompressionCodec;
import org.apache.arrow.vector.compression.CompressionCodec;
import org.apache.arrow.vector.compression.CompressionUtil;
import org.apache.arrow.vector.compression.NoCompressionCodec;

/**
 * The cold tier's buffer codec: Arrow IPC's ZSTD body compression on zstd-jni directly, with a
 * {@link Shape} applied before compression. Each compressed body is Arrow's 8-byte uncompressed
 * length, then a 4-byte header — {@code 'M' 'Z'}, a version, the shape's id — then one zstd frame
 * of the shaped bytes. The shape is chosen per buffer by compressing a sample of it every way at
 * zstd's fastest level and keeping the smallest.
 *
 * <p>Because of the header these files are Arrow IPC that only Mira reads: another Arrow reader
 * fails on the first compressed buffer (the header is not a zstd frame, so it fails loudly rather
 * than returning shaped bytes as values). {@link #STANDARD} writes Arrow's own ZSTD body (a bare
 * zstd frame) instead, for {@code retention.cold_format: "arrow"}; every reader here reads both.
 *
 * <p>Arrow's own arrow-compression module is not used: it would bring commons-compress, commons-io
 * and commons-lang3 (and with them java.desktop into the jlinked runtime) for three calls.
 */
public final class ZstdCodec extends AbstractCompressionCodec {
  /**
   * The zstd level of a whole buffer. Measured on a load-generator corpus after shaping: level 3
   * gives 0.141 bytes per wire byte at 148 MB/s of hot blocks, level 6 0.133 at 103 MB/s (still
   * 2.6 times the rate that corpus was ingested at), so 6; docs/performance.md has the runs.
   */
  public static final int LEVEL = 6;
  /** The level the shape is chosen at. */
  private static final int PROBE_LEVEL = 1;
  /** Bytes of a buffer's start compressed per candidate shape. */
  private static final int SAMPLE = 64 * 1024;
  /** Buffers shorter than this are compressed as they are. */
  private static final int MIN_SHAPED = 512;
  private static final int HEADER = 4;
  private static final byte VERSION = 1;
  private static final int ZSTD_MAGIC = 0xFD2FB528;

  /**
   * Writes shaped bodies; reads shaped and bare zstd bodies, and uncompressed ones as they are. The
   * factory for every reader of Mira's tables.
   */
  public static final CompressionCodec.Factory FACTORY = factory(true);
  /** Writes bare zstd frames, Arrow IPC's standard ZSTD body; reads as {@link #FACTORY} does. */
  public static final CompressionCodec.Factory STANDARD = factory(false);

  private static CompressionCodec.Factory factory(boolean shaped) {
    return new CompressionCodec.Factory() {
      @Override
      public CompressionCodec createCodec(CompressionUtil.CodecType type) {
        return createCodec(type, LEVEL);
      }

      @Override
      public CompressionCodec createCodec(CompressionUtil.CodecType type, int level) {
        return switch (type) {
          case ZSTD -> new ZstdCodec(level, shaped);
          case NO_COMPRESSION -> NoCompressionCodec.INSTANCE;
          default -> throw new IllegalArgumentException("unsupported body compression " + type);
        };
      }
    };
  }

  private final int level;
  private final boolean shaped;

  /** A codec that writes shaped bodies. */
  public ZstdCodec(int level) {
    this(level, true);
  }

  /** @param shaped false to write Arrow IPC's standard ZSTD body (a bare zstd frame) */
  public ZstdCodec(int level, boolean shaped) {
    this.level = level;
    this.shaped = shaped;
  }

  /** The shape whose sample (the buffer's first {@value #SAMPLE} bytes) compresses smallest; plain on a tie. */
  static Shape choose(byte[] src, int n) {
    if (n < MIN_SHAPED) {
      return Shape.PLAIN;
    }
    int len = Math.min(n, SAMPLE) & ~7;
    byte[] sample = java.util.Arrays.copyOf(src, len);
    byte[] shaped = new byte[len];
    Shape best = Shape.PLAIN;
    long bestSize = Zstd.compress(sample, PROBE_LEVEL).length;
    for (Shape s : Shape.values()) {
      if (s == Shape.PLAIN) {
        continue;
      }
      s.apply(sample, shaped, len);
      long size = Zstd.compress(shaped, PROBE_LEVEL).length;
      if (size < bestSize) {
        best = s;
        bestSize = size;
      }
    }
    return best;
  }

  @Override
  protected ArrowBuf doCompress(BufferAllocator allocator, ArrowBuf uncompressed) {
    int srcLen = Math.toIntExact(uncompressed.writerIndex());
    byte[] plain = new byte[srcLen];
    uncompressed.getBytes(0, plain);
    Shape shape = shaped ? choose(plain, srcLen) : Shape.PLAIN;
    byte[] src = plain;
    if (shape != Shape.PLAIN) {
      src = new byte[srcLen];
      shape.apply(plain, src, srcLen);
    }
    byte[] dst = new byte[Math.toIntExact(Zstd.compressBound(srcLen))];
    long n = Zstd.compressByteArray(dst, 0, dst.length, src, 0, srcLen, level);
    if (Zstd.isError(n)) {
      throw new IllegalStateException("zstd compression failed: " + Zstd.getErrorName(n));
    }
    long at = CompressionUtil.SIZE_OF_UNCOMPRESSED_LENGTH;
    int header = shaped ? HEADER : 0;
    ArrowBuf out = allocator.buffer(at + header + n);
    if (shaped) {
      out.setByte(at, 'M');
      out.setByte(at + 1, 'Z');
      out.setByte(at + 2, VERSION);
      out.setByte(at + 3, shape.id);
    }
    out.setBytes(at + header, dst, 0, n);
    out.writerIndex(at + header + n);
    return out;
  }

  @Override
  protected ArrowBuf doDecompress(BufferAllocator allocator, ArrowBuf compressed) {
    long outLen = readUncompressedLength(compressed);
    long at = CompressionUtil.SIZE_OF_UNCOMPRESSED_LENGTH;
    long bodyLen = compressed.writerIndex() - at;
    Shape shape;
    if (bodyLen >= 4 && compressed.getInt(at) == ZSTD_MAGIC) {
      shape = null; // written before shapes: a bare zstd frame
    } else if (bodyLen >= HEADER && compressed.getByte(at) == 'M' && compressed.getByte(at + 1) == 'Z'
        && compressed.getByte(at + 2) == VERSION && Shape.byId(compressed.getByte(at + 3)) != null) {
      shape = Shape.byId(compressed.getByte(at + 3));
      at += HEADER;
      bodyLen -= HEADER;
    } else {
      throw new IllegalStateException("compressed body is neither a zstd frame nor a shaped one (header "
          + Long.toHexString(bodyLen >= 4 ? Integer.toUnsignedLong(compressed.getInt(at)) : 0) + ")");
    }
    ArrowBuf out = allocator.buffer(outLen);
    try {
      inflate(compressed, at, bodyLen, out.nioBuffer(0, (int) outLen), outLen);
      if (shape != null && shape != Shape.PLAIN) {
        byte[] shaped = new byte[Math.toIntExact(outLen)];
        out.getBytes(0, shaped);
        byte[] plain = new byte[shaped.length];
        shape.undo(shaped, plain, shaped.length);
        out.setBytes(0, plain);
      }
    } catch (RuntimeException e) {
      out.close();
      throw e;
    }
    out.writerIndex(outLen);
    return out;
  }

  private static void inflate(ArrowBuf compressed, long at, long bodyLen, ByteBuffer dst, long outLen) {
    ByteBuffer src = compressed.nioBuffer(at, (int) bodyLen);
    long n = Zstd.decompressDirectByteBuffer(dst, 0, (int) outLen, src, 0, (int) bodyLen);
    if (Zstd.isError(n) || n != outLen) {
      throw new IllegalStateException("zstd body does not inflate to its stated length "
          + outLen + (Zstd.isError(n) ? ": " + Zstd.getErrorName(n) : ", got " + n));
    }
  }

  @Override
  public CompressionUtil.CodecType getCodecType() {
    return CompressionUtil.CodecType.ZSTD;
  }
}
