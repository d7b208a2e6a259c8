package mira.block.column;

/**
 * Receives a column's Arrow IPC field nodes and buffers, in IPC order, straight from its heap
 * arrays (no Arrow buffers in between).
 *
 * <p>What a column reports is what Arrow Java's writer would emit after loading the column into a
 * vector and unloading it again: a validity bitmap of {@code ceil(rows / 8)} bytes for every column
 * (all ones where the column is not nullable), and {@code rows + 1} offsets even for no rows (an
 * empty dictionary's values are written so).
 * The arrays handed over are the column's own (or fresh bitmaps): the receiver may keep them until
 * the column is next changed, and must not write to them.
 */
public interface IpcBody {
  /** A field node: {@code length} values of which {@code nullCount} are null. */
  void node(int length, int nullCount);

  /** A buffer of {@code src[0, len)}. */
  void bytes(byte[] src, int len);

  /** A buffer of {@code src[0, count)} as little-endian int32s. */
  void ints(int[] src, int count);
}
