package mira.block.cold;

import com.github.luben.zstd.Zstd;
import java.nio.ByteBuffer;
import org.apache.arrow.memory.ArrowBuf;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.compression.AbstractCompressionCodec;
import org.apache.arrow.vector.compression.CompressionCodec;
import org.apache.arrow.vector.compression.CompressionUtil;
import org.apache.arrow.vector.compression.NoCompressionCodec;

/**
 * Arrow IPC's ZSTD buffer codec on zstd-jni directly. Arrow's own arrow-compression module would
 * bring commons-compress, commons-io and commons-lang3 (and with them java.desktop into the jlinked
 * runtime) for the same three calls.
 */
public final class ZstdCodec extends AbstractCompressionCodec {
  /** zstd's default level: the cold tier is written off the ingest path, an hour after the data. */
  public static final int LEVEL = 3;

  /** A factory for {@code VectorLoader}: ZSTD bodies, and uncompressed ones as they are. */
  public static final CompressionCodec.Factory FACTORY = new CompressionCodec.Factory() {
    @Override
    public CompressionCodec createCodec(CompressionUtil.CodecType type) {
      return createCodec(type, LEVEL);
    }

    @Override
    public CompressionCodec createCodec(CompressionUtil.CodecType type, int level) {
      return switch (type) {
        case ZSTD -> new ZstdCodec(level);
        case NO_COMPRESSION -> NoCompressionCodec.INSTANCE;
        default -> throw new IllegalArgumentException("unsupported body compression " + type);
      };
    }
  };

  private final int level;

  public ZstdCodec(int level) {
    this.level = level;
  }

  @Override
  protected ArrowBuf doCompress(BufferAllocator allocator, ArrowBuf uncompressed) {
    long srcLen = uncompressed.writerIndex();
    long bound = Zstd.compressBound(srcLen);
    ArrowBuf out = allocator.buffer(CompressionUtil.SIZE_OF_UNCOMPRESSED_LENGTH + bound);
    ByteBuffer dst = out.nioBuffer(CompressionUtil.SIZE_OF_UNCOMPRESSED_LENGTH, (int) bound);
    ByteBuffer src = uncompressed.nioBuffer(0, (int) srcLen);
    long n = Zstd.compressDirectByteBuffer(dst, 0, (int) bound, src, 0, (int) srcLen, level);
    if (Zstd.isError(n)) {
      out.close();
      throw new IllegalStateException("zstd compression failed: " + Zstd.getErrorName(n));
    }
    out.writerIndex(CompressionUtil.SIZE_OF_UNCOMPRESSED_LENGTH + n);
    return out;
  }

  @Override
  protected ArrowBuf doDecompress(BufferAllocator allocator, ArrowBuf compressed) {
    long outLen = readUncompressedLength(compressed);
    long srcLen = compressed.writerIndex() - CompressionUtil.SIZE_OF_UNCOMPRESSED_LENGTH;
    ArrowBuf out = allocator.buffer(outLen);
    ByteBuffer dst = out.nioBuffer(0, (int) outLen);
    ByteBuffer src = compressed.nioBuffer(CompressionUtil.SIZE_OF_UNCOMPRESSED_LENGTH, (int) srcLen);
    long n = Zstd.decompressDirectByteBuffer(dst, 0, (int) outLen, src, 0, (int) srcLen);
    if (Zstd.isError(n) || n != outLen) {
      out.close();
      throw new IllegalStateException("zstd body does not inflate to its stated length "
          + outLen + (Zstd.isError(n) ? ": " + Zstd.getErrorName(n) : ", got " + n));
    }
    out.writerIndex(outLen);
    return out;
  }

  @Override
  public CompressionUtil.CodecType getCodecType() {
    return CompressionUtil.CodecType.ZSTD;
  }
}
