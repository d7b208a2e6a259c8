package mira.block.layout;

/**
 * The version of the block layout, written into each table's footer metadata beside its CRC. A
 * reader refuses a table whose version it does not know; a table without one was written before
 * versions existed and has the layout of version 1.
 */
public final class LayoutVersion {
  /** The footer metadata key. */
  public static final String KEY = "mira.layout";
  /**
   * The version this code writes. Version 2 may store a {@link Col#deduplicated} column as a
   * {@code Dictionary<Int32, Utf8>} field; version 1 tables (and those without a version) never do
   * and read as before.
   */
  public static final String CURRENT = "2";

  private LayoutVersion() {}

  /** True if a table carrying {@code version} (null: none) can be read by this code. */
  public static boolean known(String version) {
    return version == null || "1".equals(version) || CURRENT.equals(version);
  }
}
