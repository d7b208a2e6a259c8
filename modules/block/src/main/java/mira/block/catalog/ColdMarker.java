package mira.block.catalog;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;

/**
 * The file that says a block is cold: present in a block directory once every table in it is
 * compressed, holding the {@link ColdFormat}'s name. The compactor writes it last.
 */
public final class ColdMarker {
  /** The marker's file name inside a block directory. */
  public static final String FILE = "cold";

  private ColdMarker() {}

  /** True if the block has been compacted. */
  public static boolean isCold(Path blockDir) {
    return Files.exists(blockDir.resolve(FILE));
  }

  /**
   * The format a cold block was written in, as its marker says: the format's name, or nothing for
   * a marker written before formats existed (bare zstd bodies, no rearrangement: {@link
   * ColdFormat#ARROW}). Null if the block is not cold or the marker holds something else (the sweep
   * then compacts the block again, which writes a marker it can read).
   */
  public static ColdFormat format(Path blockDir) throws IOException {
    String text;
    try {
      text = Files.readString(blockDir.resolve(FILE)).strip();
    } catch (NoSuchFileException e) {
      return null;
    }
    return switch (text) {
      case "", "arrow" -> ColdFormat.ARROW;
      case "mira" -> ColdFormat.MIRA;
      default -> null;
    };
  }
}
