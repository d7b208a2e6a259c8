package mira.block.read;

import java.nio.file.Path;

/**
 * A table written in a layout version this code does not know (a newer Mira wrote it, or the
 * footer was altered): refused rather than read as the current layout. Refused blocks are reported
 * like corrupt ones.
 */
public final class UnsupportedFormatException extends CorruptBlockException {
  private final String version;

  public UnsupportedFormatException(Path block, String file, String version) {
    super(block, file, "layout version \"" + version + "\" is not one this version of Mira reads (it reads "
        + mira.block.layout.LayoutVersion.CURRENT + ")");
    this.version = version;
  }

  /** The version the table's footer names. */
  public String version() {
    return version;
  }
}
