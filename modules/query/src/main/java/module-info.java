/**
 * Reading what Mira stored: query documents, search over logs and spans, trace lookup, metric
 * names and series. No HTTP here; the server's routes and the in-process callers (TUI, local
 * agents) share {@link mira.query.LocalQueries}.
 */
module mira.query {
  requires transitive mira.block;
  requires com.fasterxml.jackson.core;

  exports mira.query;
  exports mira.query.doc;
  exports mira.query.result;
  exports mira.query.render;
}
