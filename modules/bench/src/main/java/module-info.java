/**
 * Benchmarks (JMH), the load generator, the query latency tool, the DuckDB comparison and the
 * cold-tier measurement. They run on the class path, started by the scripts beside the POM
 * ({@code run}, {@code loadgen}, {@code query-latency}, {@code peer-compare},
 * {@code compact-corpus}; JMH's generated harness does not need
 * the module path); this descriptor records what they use.
 */
module mira.bench {
  requires mira.block;
  requires mira.wal;
  requires mira.query;
  requires mira.client;
  requires java.sql;
  requires com.fasterxml.jackson.core;
  // The peer of mira.bench.peer; its automatic module name. Nothing outside this module sees it.
  requires duckdb.jdbc;
  requires jmh.core;
  requires io.grpc;
  requires proto.google.common.protos;
  requires java.net.http;
  requires mira.mcp;

  exports mira.bench.agent;
  exports mira.bench.telemetry;
}
