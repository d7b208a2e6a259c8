package mira.block.read;

import java.util.Optional;

/**
 * A published block opened for reading. Tables are loaded on first use and verified (Arrow magic,
 * the CRC32C in the footer) before any value is returned. Not thread-safe; close it when done.
 */
public interface BlockReader extends AutoCloseable {
  BlockRef ref();

  /**
   * The table stored as {@code file} (e.g. {@code logs.arrow}), or empty if the block has no such
   * file (empty tables are not written).
   *
   * @throws CorruptBlockException if the file is damaged; nothing from it is returned
   */
  Optional<TableView> table(String file) throws CorruptBlockException;

  @Override
  void close();
}
