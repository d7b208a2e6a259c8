/**
 * Deciding, before a block is opened, that it cannot hold a row a query asks for: the time range in
 * its name, then its sidecar indexes ({@code trace.idx}, {@code attr.idx}, {@code text.idx}, {@code zone.idx}), read
 * once per process through a bounded cache.
 *
 * <p>Invariant: pruning only ever errs towards opening a block. A step answers "no" only where the
 * scan's own comparison rules ({@code mira.query.match}) could match nothing in the block; a
 * missing, damaged or unreadable sidecar answers "maybe".
 */
package mira.query.prune;
