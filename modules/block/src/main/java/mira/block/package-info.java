/**
 * The block API: decoding export requests into batches ({@link mira.block.Decoders}) and block
 * directory names ({@link mira.block.catalog.BlockName}). A published block is never modified; readers
 * need no lock.
 */
package mira.block;
