/**
 * The terminal UI ({@code mira tui}): the same typed results over a running node
 * ({@link mira.client.MiraClient}) or straight over a data directory ({@link mira.query.LocalQueries}),
 * drawn on a JLine terminal. Never depends on the server.
 */
module mira.tui {
  requires mira.client;
  requires mira.query;
  requires org.jline.terminal;
  requires java.logging;

  exports mira.tui;
}
