package mira.block.column;

import java.util.Arrays;

/**
 * The lengths of a batch's growable arrays, in the order its columns report them: taken from a
 * batch that held a typical export, and given to a new batch so decoding the next export into it
 * allocates each array once instead of growing it from 64 values by doubling.
 *
 * <p>An instance is filled by one thread and then only read; {@link #cursor()} gives each reader
 * its own position.
 */
public final class Capacities {
  private int[] lengths = new int[64];
  private int size;
  private int at;

  /** Records the next array's length. */
  void add(int length) {
    if (size == lengths.length) {
      lengths = Arrays.copyOf(lengths, size * 2);
    }
    lengths[size++] = length;
  }

  /** The next recorded length, or 0 past the end (an array that needs no reserve). */
  int next() {
    return at < size ? lengths[at++] : 0;
  }

  /** A reader of the same lengths from the first. */
  public Capacities cursor() {
    Capacities c = new Capacities();
    c.lengths = lengths;
    c.size = size;
    return c;
  }
}
