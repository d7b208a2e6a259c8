/**
 * Mira's HTTP API as a Java client: the same typed results {@code mira.query} returns in-process,
 * read back from a node's JSON answers. The terminal UI's {@code --addr} transport and query
 * fan-out across replicas use it. No dependency beyond the JDK's HTTP client and Jackson's parser.
 */
module mira.client {
  requires transitive mira.query;
  requires java.net.http;
  requires com.fasterxml.jackson.core;

  exports mira.client;
}
