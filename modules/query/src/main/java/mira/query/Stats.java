package mira.query;

/**
 * What a read cost.
 *
 * @param blocksTotal blocks of the signal whose name overlaps the window
 * @param blocksScanned blocks opened (neither pruned by name nor skipped once the page was full)
 * @param rowsScanned root rows in the scanned blocks (for series: data points)
 * @param rowsMatched rows of the scanned blocks that satisfy the document (for series: points kept
 *     or dropped by the caps)
 * @param tookMs wall time in milliseconds
 */
public record Stats(int blocksTotal, int blocksScanned, long rowsScanned, long rowsMatched, long tookMs) {}
