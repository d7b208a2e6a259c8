/**
 * Running reads over blocks: the catalogue, scans in widening waves on a process-wide helper
 * budget (over the blocks {@code mira.query.prune} chose), admission of concurrent queries,
 * per-block filtering and the bounded top-K, and trace lookup. {@link mira.query.scan.OpenBlockCache} is
 * the one place a block is opened.
 *
 * <p>Invariant: a block contributes to a result only once it has been read and rendered whole; a
 * damaged block contributes nothing and displaces nothing.
 */
package mira.query.scan;
