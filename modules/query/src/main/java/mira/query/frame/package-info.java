/**
 * Correlation frames ({@code POST /api/v1/correlate}): an anchor search or an earlier frame,
 * widened by expanders, answered as a frame and as the ordinary query documents that return its
 * records; the entity census ({@code /api/v1/entities}, {@code /api/v1/services}) and the
 * service map. Every read goes through the search code or a block scan of its own here; there is
 * no second read path for the frame's records.
 */
package mira.query.frame;
