/**
 * Traces: the block layout of the traces signal (spans, their events and links, each with an
 * attribute table) and the decoder from OTLP wire bytes into it.
 *
 * <p>Invariant: every span, event and link of a decoded export is one row, and every event and
 * link row's parent_id is the id of its span in the same batch; a malformed export raises an
 * exception naming the field and leaves no batch behind.
 */
package mira.block.traces;
