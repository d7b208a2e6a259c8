/**
 * Correlation frames ({@code POST /api/v1/correlate}): an anchor search or an earlier frame,
 * widened by expanders, answered as a frame and as the ordinary query documents that return its
 * records. Every read goes through the search code; there is no second read path.
 */
package mira.query.frame;
