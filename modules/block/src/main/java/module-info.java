/**
 * Blocks: Arrow schemas of the three signals, OTLP wire to Arrow encoders, and publishing sealed
 * blocks as Arrow IPC file sets.
 */
module mira.block {
  requires transitive mira.proto;
  requires transitive org.apache.arrow.vector;
  requires transitive org.apache.arrow.memory.core;
  // Arrow finds its allocation manager reflectively; without this edge the module is not resolved
  // on a plain module path and the first allocation fails. (arrow-memory-netty would split a package.)
  requires org.apache.arrow.memory.unsafe;

  exports mira.block;
  exports mira.block.column;
  exports mira.block.table;
  exports mira.block.logs;
  exports mira.block.traces;
  exports mira.block.metrics;
  exports mira.block.publish;
}
