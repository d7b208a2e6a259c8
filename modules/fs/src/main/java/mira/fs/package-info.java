/** {@link mira.fs.Fs}: the write paths' filesystem seam, and {@link mira.fs.Fs#REAL}; {@link mira.fs.Filesystems}: which filesystems a data directory may live on. */
package mira.fs;
