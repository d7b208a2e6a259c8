package mira.query;

/**
 * One row of a search result: its place in the total order and its rendered JSON object.
 *
 * @param time the row's time (ns): a log's time_unix_nano, a span's start time (see docs/api.md)
 * @param node the id of the node that wrote its block
 * @param seq its block's sequence number
 * @param row its index in the block's root table
 * @param json the row as a UTF-8 JSON object (docs/api.md, "Log rows", "Span rows")
 */
public record Row(long time, int node, long seq, int row, byte[] json) {}
