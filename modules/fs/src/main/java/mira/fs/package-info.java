/** {@link mira.fs.Fs}: the write paths' filesystem seam, and {@link mira.fs.Fs#REAL}. */
package mira.fs;
