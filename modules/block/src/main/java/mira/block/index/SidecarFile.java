package mira.block.index;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.zip.CRC32C;

/**
 * The frame every sidecar file shares, little-endian:
 *
 * <pre>
 * 0   magic    4 bytes, one per kind of file
 * 4   version  u16
 * 6   flags    u16, meaning per kind
 * 8   payload
 * end CRC32C   u32 over every byte before it
 * </pre>
 *
 * A reader refuses a file that is short, has another magic, a version newer than it knows, or a
 * CRC that does not match; the caller then treats the index as unknown.
 */
final class SidecarFile {
  static final int HEADER = 8;
  static final int TRAILER = 4;

  private SidecarFile() {}

  /** Why a sidecar file cannot be used; carries no stack trace (it is an expected outcome). */
  static final class Damaged extends Exception {
    Damaged(String reason) {
      super(reason, null, false, false);
    }
  }

  /** A verified file: its version, flags, and the payload (positioned at its start, limited to its end). */
  record Opened(int version, int flags, ByteBuffer payload) {}

  /** A buffer for a file with {@code payload} payload bytes, the header already written. */
  static ByteBuffer start(byte[] magic, int version, int flags, long payload) {
    long total = HEADER + payload + TRAILER;
    if (total > Integer.MAX_VALUE - 8) {
      throw new IllegalArgumentException("sidecar of " + total + " bytes");
    }
    ByteBuffer b = ByteBuffer.allocate((int) total).order(ByteOrder.LITTLE_ENDIAN);
    b.put(magic).putShort((short) version).putShort((short) flags);
    return b;
  }

  /** Appends the CRC32C of everything written so far, which must fill the buffer. */
  static byte[] finish(ByteBuffer b) {
    if (b.remaining() != TRAILER) {
      throw new IllegalStateException("sidecar payload is " + (b.remaining() - TRAILER) + " bytes short");
    }
    CRC32C crc = new CRC32C();
    crc.update(b.array(), 0, b.position());
    b.putInt((int) crc.getValue());
    return b.array();
  }

  /** Verifies {@code file}'s frame. */
  static Opened open(byte[] file, byte[] magic, int maxVersion) throws Damaged {
    if (file.length < HEADER + TRAILER) {
      throw new Damaged("short: " + file.length + " bytes");
    }
    ByteBuffer b = ByteBuffer.wrap(file).order(ByteOrder.LITTLE_ENDIAN);
    for (int i = 0; i < magic.length; i++) {
      if (file[i] != magic[i]) {
        throw new Damaged("wrong magic");
      }
    }
    int version = Short.toUnsignedInt(b.getShort(4));
    if (version == 0 || version > maxVersion) {
      throw new Damaged("version " + version + ", this reader knows 1.." + maxVersion);
    }
    CRC32C crc = new CRC32C();
    crc.update(file, 0, file.length - TRAILER);
    int stored = b.getInt(file.length - TRAILER);
    if ((int) crc.getValue() != stored) {
      throw new Damaged("CRC32C mismatch");
    }
    int flags = Short.toUnsignedInt(b.getShort(6));
    ByteBuffer payload = b.slice(HEADER, file.length - HEADER - TRAILER).order(ByteOrder.LITTLE_ENDIAN);
    return new Opened(version, flags, payload);
  }

  /** The file's bytes, or null if it does not exist. */
  static byte[] read(Path file) throws IOException {
    try {
      return Files.readAllBytes(file);
    } catch (NoSuchFileException e) {
      return null;
    }
  }

  /** Writes {@code bytes} to {@code file}, which must not exist, and fsyncs it. */
  static void write(Path file, byte[] bytes, mira.fs.Fs fs) throws IOException {
    try (FileChannel ch = fs.create(file)) {
      ByteBuffer b = ByteBuffer.wrap(bytes);
      while (b.hasRemaining()) {
        ch.write(b);
      }
      ch.force(true);
    }
  }
}
