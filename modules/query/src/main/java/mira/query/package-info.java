/**
 * Mira's read API: {@link mira.query.LocalQueries} over a data directory, its results and its
 * errors. The HTTP routes, the TUI and local agents all call this, so every surface gives the
 * same answer.
 *
 * <p>Invariant: reading never writes; blocks are immutable once published, so no lock is taken.
 */
package mira.query;
