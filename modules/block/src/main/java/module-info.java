/**
 * Blocks: Arrow schemas of the three signals, OTLP wire to Arrow encoders, and publishing sealed
 * blocks as Arrow IPC file sets.
 */
module mira.block {
  requires transitive mira.proto;
  requires transitive mira.fs;
  requires transitive org.apache.arrow.vector;
  requires transitive org.apache.arrow.memory.core;
  // Arrow picks its allocation manager by reflection (Class.forName), which finds a module only if
  // something put it in the module graph; without this a RootAllocator fails in the launched image.
  requires org.apache.arrow.memory.unsafe;
  requires com.github.luben.zstd_jni;
  // The mapped reader parses IPC footers and messages itself (flatbuffers from arrow-format).
  requires org.apache.arrow.format;

  // The API: the catalogue of published blocks and the reader of their tables.
  exports mira.block.catalog;
  exports mira.block.read;
  exports mira.block.layout;
  // Whether a data directory is on a filesystem blocks may live on (the server and mira tui ask).
  // Used by one or two modules each; qualified so nothing else grows a dependency on them.
  exports mira.block to mira.server, mira.query, mira.bench;
  exports mira.block.table to mira.server, mira.query, mira.bench;
  exports mira.block.column to mira.query, mira.bench;
  exports mira.block.index to mira.query, mira.bench;
  exports mira.block.logs to mira.query, mira.bench;
  exports mira.block.traces to mira.query, mira.bench;
  exports mira.block.metrics to mira.query, mira.bench;
  exports mira.block.publish to mira.server, mira.query, mira.bench;
  exports mira.block.retention to mira.server;
  exports mira.block.cold to mira.server, mira.query, mira.bench;
}
