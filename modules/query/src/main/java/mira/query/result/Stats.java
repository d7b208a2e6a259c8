package mira.query.result;

/**
 * What a read cost.
 *
 * @param blocksTotal blocks of the signal whose name overlaps the window
 * @param blocksPruned blocks left unopened because their name (against the cursor) or a sidecar
 *     index showed they could not hold a matching row
 * @param blocksScanned blocks opened and read (neither pruned, nor skipped once the page was full,
 *     nor refused as damaged)
 * @param rowsScanned root rows in the scanned blocks (for series: data points)
 * @param rowsMatched rows of the scanned blocks that satisfy the document (for series: points kept
 *     or dropped by the caps)
 * @param tookMs wall time in milliseconds
 */
public record Stats(int blocksTotal, int blocksPruned, int blocksScanned, long rowsScanned, long rowsMatched, long tookMs) {}
