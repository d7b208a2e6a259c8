package mira.server.ingest;

import mira.block.table.Batch;

/**
 * One decoded export on its way to a flusher. {@code records} is kept apart from the batch because
 * the flusher hands the batch back for reuse as soon as its rows are in the block. {@code seq} is
 * the export's write-ahead log sequence, or -1 without a log; {@code ack} is null when nobody waits
 * on the publish (the log already acknowledged it, or it was replayed at boot). {@code heapBytes} is
 * what the export holds of the {@link HeapBudget}, given back once its rows are in the open block.
 */
record Job(Batch batch, long records, long seq, Ack ack, long heapBytes) {
  /** A job that holds nothing of the budget. */
  Job(Batch batch, long records, long seq, Ack ack) {
    this(batch, records, seq, ack, 0);
  }
}
