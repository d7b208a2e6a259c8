package mira.query.frame;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;
import mira.query.doc.Searcher;
import mira.query.doc.Cursor;
import mira.query.doc.SearchQuery;
import mira.query.result.QueryException;
import mira.query.result.Refused;
import mira.query.result.Row;
import mira.query.result.SearchResult;
import mira.query.result.Stats;
import mira.query.scan.Engine;
import mira.query.scan.Search;

/** The searches one answer makes: each through {@link Search}, their stats summed, refused blocks kept. */
final class Reads {
  private final Searcher searcher;
  private final long started = System.nanoTime();
  private Stats stats = new Stats(0, 0, 0, 0, 0, 0);
  private final List<Refused> refused = new ArrayList<>();

  Reads(Engine engine) {
    this(q -> Search.run(engine, q));
  }

  Reads(Searcher searcher) {
    this.searcher = searcher;
  }

  /** One page of {@code q}. */
  SearchResult search(SearchQuery q) throws IOException {
    SearchResult r = searcher.search(q);
    Stats a = stats;
    Stats b = r.stats();
    stats = new Stats(a.blocksTotal() + b.blocksTotal(), a.blocksPruned() + b.blocksPruned(),
        a.blocksScanned() + b.blocksScanned(), a.rowsScanned() + b.rowsScanned(), a.rowsMatched() + b.rowsMatched(), 0);
    refused.addAll(r.refused());
    return r;
  }

  /** Pages through {@code q}, handing each row to {@code sink}, at most {@code max}; true if rows were left. */
  boolean all(SearchQuery q, int max, Consumer<Row> sink) throws IOException {
    SearchQuery page = q;
    int taken = 0;
    while (true) {
      SearchResult r = search(page);
      for (Row row : r.rows()) {
        if (taken == max) {
          return true;
        }
        sink.accept(row);
        taken++;
      }
      if (r.next() == null) {
        return false;
      }
      try {
        page = new SearchQuery(q.signal(), q.from(), q.to(), q.where(), q.limit(), Cursor.parse(r.next()));
      } catch (QueryException e) {
        throw new IllegalStateException("the search's own cursor did not parse", e);
      }
    }
  }

  /** The summed stats, timed from this object's creation. */
  Stats stats() {
    return new Stats(stats.blocksTotal(), stats.blocksPruned(), stats.blocksScanned(), stats.rowsScanned(),
        stats.rowsMatched(), (System.nanoTime() - started) / 1_000_000);
  }

  List<Refused> refused() {
    return refused;
  }
}
