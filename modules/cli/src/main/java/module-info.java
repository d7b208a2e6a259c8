/**
 * The {@code mira} command: parses the command line and hands over to the module that does the
 * work ({@code serve} and {@code train} to mira.server). Nothing else lives here, so the server
 * never depends on another surface's module, and a command loads only what it runs.
 */
module mira.cli {
  requires mira.server;
  requires mira.tui;
}
