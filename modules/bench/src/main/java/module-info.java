/**
 * Benchmarks (JMH) and the load generator. Run on the class path by {@code modules/bench/run}
 * (JMH's generated harness does not need the module path); this descriptor records what they use.
 */
module mira.bench {
  requires mira.block;
  requires jmh.core;
}
