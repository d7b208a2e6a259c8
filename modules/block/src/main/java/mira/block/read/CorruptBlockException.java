package mira.block.read;

import java.nio.file.Path;

/**
 * A block file that is not what Mira wrote: bad magic, a checksum that does not match, a footer
 * that does not parse. Names the block and the file, so a query can report which block it refused.
 * {@link UnsupportedFormatException}, a file in a layout this code does not know, is refused the
 * same way.
 */
public sealed class CorruptBlockException extends Exception permits UnsupportedFormatException {
  private final Path block;
  private final String file;

  public CorruptBlockException(Path block, String file, String reason) {
    super(block + "/" + file + ": " + reason);
    this.block = block;
    this.file = file;
  }

  public Path block() {
    return block;
  }

  public String file() {
    return file;
  }
}
