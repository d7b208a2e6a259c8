package mira.server.ingest;

import mira.block.table.Batch;

/**
 * One decoded export on its way to a flusher. {@code records} is kept apart from the batch because
 * the flusher hands the batch back for reuse as soon as its rows are in the block.
 */
record Job(Batch batch, long records, Ack ack) {}
