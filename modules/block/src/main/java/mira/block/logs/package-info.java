/**
 * Logs: the block layout of the logs signal and the decoder from OTLP wire bytes into it.
 *
 * <p>Invariant: a decoded batch holds every field of every log record exactly once; a malformed
 * export raises an exception naming the field and leaves no batch behind.
 */
package mira.block.logs;
