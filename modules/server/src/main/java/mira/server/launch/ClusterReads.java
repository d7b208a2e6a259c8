package mira.server.launch;

import java.io.IOException;
import java.util.List;
import mira.alert.Reads;
import mira.cluster.Cluster;
import mira.cluster.Sources;
import mira.proto.wire.Signal;
import mira.query.doc.SeriesQuery;
import mira.query.doc.Term;
import mira.query.result.BusyException;
import mira.query.result.QueryException;
import mira.query.result.SearchResult;
import mira.query.result.SeriesResult;

/**
 * Alert rules' reads through the cluster: a rule on a replica with peers counts every node's
 * records and reads every node's points, and its outcome names a node that did not answer.
 * Thread-safe, as {@link Cluster} is.
 */
final class ClusterReads implements Reads {
  private final Cluster cluster;

  ClusterReads(Cluster cluster) {
    this.cluster = cluster;
  }

  @Override
  public Read<SearchResult> count(Signal signal, long from, long to, List<Term> where) throws BusyException, IOException {
    Cluster.Answer<SearchResult> a = cluster.count(signal, from, to, where);
    return new Read<>(a.result(), partial(a.sources()));
  }

  @Override
  public Read<SeriesResult> series(SeriesQuery q) throws BusyException, IOException, QueryException {
    Cluster.Answer<SeriesResult> a = cluster.series(q);
    return new Read<>(a.result(), partial(a.sources()));
  }

  private static String partial(Sources s) {
    return s == null ? null : s.partialLine();
  }
}
