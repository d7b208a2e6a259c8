package mira.block.column;

import java.nio.ByteOrder;
import org.apache.arrow.memory.ArrowBuf;
import org.apache.arrow.memory.BufferAllocator;

/** Heap arrays into Arrow buffers, padded to 8 bytes with zeros. */
final class Buffers {
  private Buffers() {}

  static long padded(long n) {
    return (n + 7) & ~7L;
  }

  static ArrowBuf fromBytes(byte[] src, int len, BufferAllocator allocator) {
    ArrowBuf b = allocator.buffer(Math.max(8, padded(len)));
    b.setZero(0, b.capacity());
    b.setBytes(0, src, 0, len);
    b.writerIndex(len);
    return b;
  }

  static ArrowBuf fromInts(int[] src, int count, BufferAllocator allocator) {
    long len = 4L * count;
    ArrowBuf b = allocator.buffer(Math.max(8, padded(len)));
    b.setZero(0, b.capacity());
    b.nioBuffer(0, (int) len).order(ByteOrder.LITTLE_ENDIAN).asIntBuffer().put(src, 0, count);
    b.writerIndex(len);
    return b;
  }
}
