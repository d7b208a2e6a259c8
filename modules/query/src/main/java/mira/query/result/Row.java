package mira.query.result;

/**
 * One row of a search result: a log record or a span, with its place in the total order of
 * search results (time, then node, block sequence and row; docs/api.md, "Order and cursors").
 */
public sealed interface Row permits LogRow, SpanRow {
  /** The row's time (ns): a log's time_unix_nano, a span's start time. */
  long time();

  /** The id of the node that wrote the row's block. */
  int node();

  /** The sequence number of the row's block. */
  long seq();

  /** The row's index in its block's root table. */
  int row();

  Resource resource();

  Scope scope();
}
