package mira.query.table;

/** A reusable byte buffer for copying values out of columns; one per scanning thread. */
public final class Scratch {
  private byte[] buf = new byte[256];

  public byte[] ensure(int len) {
    if (buf.length < len) {
      buf = new byte[Math.max(len, buf.length * 2)];
    }
    return buf;
  }

  public byte[] buf() {
    return buf;
  }
}
