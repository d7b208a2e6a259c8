package mira.query.doc;

import java.io.IOException;
import mira.query.result.SearchResult;

/**
 * Where the frame builders read rows from: one page of a search at a time. In one process that is
 * the engine; on a replica with peers it is every node's page merged, so a frame or a map built on
 * it covers the whole cluster (a trace whose spans landed on two nodes is read whole).
 */
@FunctionalInterface
public interface Searcher {
  SearchResult search(SearchQuery q) throws IOException;
}
