/**
 * Benchmarks (JMH), the load generator and the query latency tool. They run on the class path,
 * started by {@code modules/bench/run}, {@code modules/bench/loadgen} and
 * {@code modules/bench/query-latency} (JMH's generated harness does not need
 * the module path); this descriptor records what they use.
 */
module mira.bench {
  requires mira.block;
  requires mira.wal;
  requires mira.query;
  requires jmh.core;
  requires io.grpc;
  requires proto.google.common.protos;
  requires java.net.http;
}
