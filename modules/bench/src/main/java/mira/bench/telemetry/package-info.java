/**
 * Synthetic telemetry of a fleet of services, shaped like what an OpenTelemetry collector forwards:
 * dozens of services and pods, traces across them, logs that point into those traces, metrics per
 * pod, and an incident window in which errors rise and latency shifts.
 *
 * <p>Invariant: the output is a function of the seed and the calls made. Two {@link
 * mira.bench.telemetry.TelemetryStream}s with the same seed and stream number, asked the same
 * questions with the same clock readings in the same order, produce byte-identical exports.
 */
package mira.bench.telemetry;
