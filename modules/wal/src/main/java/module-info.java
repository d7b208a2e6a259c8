/** The write-ahead log. Depends on nothing but the JDK: it stores opaque bytes per channel. */
module mira.wal {
  exports mira.wal;
}
