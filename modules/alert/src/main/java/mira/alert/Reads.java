package mira.alert;

import java.io.IOException;
import java.util.List;
import mira.proto.wire.Signal;
import mira.query.LocalQueries;
import mira.query.doc.SeriesQuery;
import mira.query.doc.Term;
import mira.query.result.BusyException;
import mira.query.result.QueryException;
import mira.query.result.SearchResult;
import mira.query.result.SeriesResult;

/**
 * What a rule's evaluation reads: counts and series, from this node's data ({@link #of}) or, on a
 * replica with peers, from every node's (the server passes the cluster's reads), with a note of
 * the nodes that did not answer. Implementations are called from each rule's own thread at once.
 */
public interface Reads {
  /**
   * An answer and whether some node is missing from it.
   *
   * @param partial null when every node asked answered (or there are no peers); otherwise a line
   *     naming how many answered and why the others did not, which surfaces beside the rule's value
   */
  record Read<T>(T result, String partial) {}

  /** The rows of {@code signal} in {@code [from, to]} passing {@code where}, counted ({@code stats().rowsMatched()}). */
  Read<SearchResult> count(Signal signal, long from, long to, List<Term> where) throws BusyException, IOException;

  /** A parsed series query. */
  Read<SeriesResult> series(SeriesQuery q) throws BusyException, IOException, QueryException;

  /** This node's data alone: never partial. */
  static Reads of(LocalQueries queries) {
    return new Reads() {
      @Override
      public Read<SearchResult> count(Signal signal, long from, long to, List<Term> where)
          throws BusyException, IOException {
        return new Read<>(queries.count(signal, from, to, where), null);
      }

      @Override
      public Read<SeriesResult> series(SeriesQuery q) throws BusyException, IOException, QueryException {
        return new Read<>(queries.series(q), null);
      }
    };
  }
}
