/** The write-ahead log. Depends on the JDK and the filesystem seam only: it stores opaque bytes per channel. */
module mira.wal {
  requires transitive mira.fs;

  exports mira.wal;
}
