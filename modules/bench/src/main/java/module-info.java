/**
 * Benchmarks (JMH) and the load generator. Both run on the class path, started by
 * {@code modules/bench/run} and {@code modules/bench/loadgen} (JMH's generated harness does not need
 * the module path); this descriptor records what they use.
 */
module mira.bench {
  requires mira.block;
  requires mira.wal;
  requires mira.query;
  requires java.sql;
  requires com.fasterxml.jackson.core;
  // The peer of mira.bench.peer; its automatic module name. Nothing outside this module sees it.
  requires duckdb.jdbc;
  requires jmh.core;
  requires io.grpc;
  requires proto.google.common.protos;
  requires java.net.http;
}
