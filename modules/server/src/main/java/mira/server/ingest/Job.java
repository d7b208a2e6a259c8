package mira.server.ingest;

import mira.block.table.Batch;

/** One decoded export on its way to a flusher. */
record Job(Batch batch, Ack ack) {}
