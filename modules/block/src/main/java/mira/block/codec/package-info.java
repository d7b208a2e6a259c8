/**
 * The cold table format: buffers shaped before zstd ({@link mira.block.codec.Shape}), the zstd
 * codec Arrow calls ({@link mira.block.codec.ZstdCodec}), and the columns rearranged for
 * compression ({@link mira.block.codec.ColdLayout}). The compactor writes with it, the reader
 * undoes it.
 *
 * <p>Invariant: every transformation is lossless for any bytes; an unknown header is refused, never
 * guessed.
 */
package mira.block.codec;
