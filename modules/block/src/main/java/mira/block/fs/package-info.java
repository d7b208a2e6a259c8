/**
 * What kind of filesystem a data directory is on, read from the kernel's mount table. Blocks are
 * memory-mapped and published by rename and fsync; a network filesystem keeps neither promise, so
 * the server and the in-process readers refuse one with the same verdict.
 */
package mira.block.fs;
