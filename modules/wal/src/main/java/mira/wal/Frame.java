package mira.wal;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.zip.CRC32C;

/**
 * The frame layout, little-endian:
 *
 * <pre>
 * magic "MWAL" 4 | version u16 | channel u8 | pad u8 | seq u64 | len u32 | body len | crc32c u32
 * </pre>
 *
 * The CRC covers the header and the body, so a damaged length is caught by the checksum rather
 * than trusted as an offset.
 */
final class Frame {
  static final int MAGIC = 0x4C41574D; // "MWAL" read little-endian
  static final short VERSION = 1;
  static final int HEADER = 20;
  static final int TRAILER = 4;

  private Frame() {}

  static ByteBuffer header(int channel, long seq, int len) {
    ByteBuffer h = ByteBuffer.allocate(HEADER).order(ByteOrder.LITTLE_ENDIAN);
    h.putInt(MAGIC).putShort(VERSION).put((byte) channel).put((byte) 0).putLong(seq).putInt(len);
    return h.flip();
  }

  static ByteBuffer trailer(ByteBuffer header, byte[] body, int off, int len) {
    CRC32C crc = new CRC32C();
    crc.update(header.duplicate());
    crc.update(body, off, len);
    ByteBuffer t = ByteBuffer.allocate(TRAILER).order(ByteOrder.LITTLE_ENDIAN);
    t.putInt((int) crc.getValue());
    return t.flip();
  }
}
