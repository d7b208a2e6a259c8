package mira.block.layout;

/**
 * The version of the block layout, written into each table's footer metadata beside its CRC. A
 * reader refuses a table whose version it does not know; a table without one was written before
 * versions existed and has the layout of version 1.
 */
public final class LayoutVersion {
  /** The footer metadata key. */
  public static final String KEY = "mira.layout";
  /** The version this code writes and reads. */
  public static final String CURRENT = "1";

  private LayoutVersion() {}

  /** True if a table carrying {@code version} (null: none) can be read by this code. */
  public static boolean known(String version) {
    return version == null || CURRENT.equals(version);
  }
}
