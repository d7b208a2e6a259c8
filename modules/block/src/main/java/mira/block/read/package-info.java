/**
 * Reading published blocks: the catalogue (which blocks exist, from directory names alone) and
 * opened blocks whose tables are read as Arrow vectors.
 *
 * <p>Invariant: a published block is never modified, so readers need no lock; a reader that has a
 * block open keeps reading correct data even if retention unlinks the directory meanwhile.
 */
package mira.block.read;
