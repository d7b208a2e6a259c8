/**
 * The load generator: concurrent OTLP exporters (gRPC or HTTP) sending {@link
 * mira.bench.telemetry.TelemetryStream} exports to a running Mira, optional readers issuing query
 * classes against its query API, and one report of throughput, server CPU and memory, ack and
 * query latency and bytes on disk.
 *
 * <p>Invariant: every run is bounded, by a duration, an export count or both; every export has a
 * deadline, and retries stop when the run's time is up.
 */
package mira.bench.load;
