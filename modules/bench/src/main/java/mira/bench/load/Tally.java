package mira.bench.load;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * What exporters did: per signal, exports and records accepted and their bytes; retries and
 * failures with a count per distinct detail; the latency of accepted attempts. One per exporter
 * thread (not thread-safe), merged into one at the end.
 */
final class Tally {
  final long[] exports = new long[Signal.values().length];
  final long[] records = new long[Signal.values().length];
  /** Uncompressed protobuf bytes of accepted exports: the "wire bytes" every ratio divides by. */
  final long[] wireBytes = new long[Signal.values().length];
  /** Bytes of the bodies actually handed to the transport (JSON, gzipped), for accepted exports. */
  final long[] bodyBytes = new long[Signal.values().length];
  long retried;
  long failed;
  final Map<String, Long> retryDetails = new LinkedHashMap<>();
  final Map<String, Long> failureDetails = new LinkedHashMap<>();
  final Latencies ack = new Latencies();

  void accepted(Signal s, int recordCount, long wire, long body, long ackNanos) {
    exports[s.ordinal()]++;
    records[s.ordinal()] += recordCount;
    wireBytes[s.ordinal()] += wire;
    bodyBytes[s.ordinal()] += body;
    ack.add(ackNanos);
  }

  void retried(String detail) {
    retried++;
    retryDetails.merge(shorten(detail), 1L, Long::sum);
  }

  void failed(String detail) {
    failed++;
    failureDetails.merge(shorten(detail), 1L, Long::sum);
  }

  private static String shorten(String s) {
    return s == null ? "?" : s.length() > 240 ? s.substring(0, 240) + "…" : s;
  }

  void add(Tally o) {
    for (int i = 0; i < exports.length; i++) {
      exports[i] += o.exports[i];
      records[i] += o.records[i];
      wireBytes[i] += o.wireBytes[i];
      bodyBytes[i] += o.bodyBytes[i];
    }
    retried += o.retried;
    failed += o.failed;
    o.retryDetails.forEach((k, v) -> retryDetails.merge(k, v, Long::sum));
    o.failureDetails.forEach((k, v) -> failureDetails.merge(k, v, Long::sum));
    ack.addAll(o.ack);
  }

  long acceptedExports() {
    long n = 0;
    for (long e : exports) n += e;
    return n;
  }

  long totalRecords() {
    long n = 0;
    for (long r : records) n += r;
    return n;
  }

  long totalWireBytes() {
    long n = 0;
    for (long b : wireBytes) n += b;
    return n;
  }

  long totalBodyBytes() {
    long n = 0;
    for (long b : bodyBytes) n += b;
    return n;
  }
}
