/**
 * The on-disk layout shared by the writers and the readers: table file names
 * ({@link mira.block.layout.TableFiles}) and the layout version every table's footer carries
 * ({@link mira.block.layout.LayoutVersion}).
 *
 * <p>Invariant: a writer and a reader never spell a table name themselves; a table whose layout
 * version this code does not know is refused, never read as if it were the current one.
 */
package mira.block.layout;
