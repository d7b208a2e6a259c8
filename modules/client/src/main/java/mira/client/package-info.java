/**
 * The HTTP client ({@link mira.client.MiraClient}) and the one reader of Mira's response documents
 * ({@link mira.client.ResultReader}), tested against the renderer: what
 * {@code mira.query.render.ResponseJson} writes, this reads back into equal records.
 *
 * <p>Invariant: an answer that does not have the documented shape is an {@link java.io.IOException}
 * naming what was wrong, never a half-filled record.
 */
package mira.client;
