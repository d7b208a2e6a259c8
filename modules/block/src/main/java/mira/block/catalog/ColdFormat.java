package mira.block.catalog;

/** How the tables of a cold block are written (the {@code retention.cold_format} setting). */
public enum ColdFormat {
  /**
   * Shaped buffers and rearranged columns ({@code mira.block.codec}): the smallest, and readable
   * only by Mira's reader.
   */
  MIRA,
  /** Arrow IPC's standard ZSTD body compression: any Arrow reader with a ZSTD codec opens it. */
  ARROW
}
