/**
 * The filesystem calls Mira's write paths make (the log, the publisher, the table writer, the cold
 * sweep, retention), behind one narrow interface. Depends on nothing but the JDK.
 * {@code mira.fs.testing} is the fault-injecting implementation the tests use; production never
 * constructs it.
 */
module mira.fs {
  exports mira.fs;
  exports mira.fs.testing;
}
