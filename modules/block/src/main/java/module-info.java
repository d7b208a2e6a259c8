/**
 * Blocks: Arrow schemas of the three signals, OTLP wire to Arrow encoders, and publishing sealed
 * blocks as Arrow IPC file sets.
 */
module mira.block {
  requires transitive mira.proto;
  requires transitive org.apache.arrow.vector;
  requires transitive org.apache.arrow.memory.core;
  // Arrow picks its allocation manager by reflection (Class.forName), which finds a module only if
  // something put it in the module graph; without this a RootAllocator fails in the launched image.
  requires org.apache.arrow.memory.unsafe;
  requires com.github.luben.zstd_jni;
  // The mapped reader parses IPC footers and messages itself (flatbuffers from arrow-format).
  requires org.apache.arrow.format;

  exports mira.block;
  exports mira.block.column;
  exports mira.block.table;
  exports mira.block.logs;
  exports mira.block.traces;
  exports mira.block.metrics;
  exports mira.block.publish;
  exports mira.block.read;
  exports mira.block.retention;
  exports mira.block.cold;
  exports mira.block.index;
}
