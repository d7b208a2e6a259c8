package mira.query.series;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import mira.query.doc.Documents;
import mira.query.doc.SeriesQuery;
import mira.query.result.QueryException;
import mira.query.result.Refused;
import mira.query.result.SeriesPoints;
import mira.query.result.SeriesResult;
import mira.query.result.Stats;

/**
 * Collected series to and from their typed form {@link SeriesPoints}, which crosses between
 * replicas, and the answer over several nodes' points: the series are united by the key the
 * gathering path keys them by (name, type, unit, resource, attributes), each point keeps its place
 * in the total order, and the function runs over the union exactly as it runs over one node's
 * points. So a counter whose points alternate between nodes has each increase taken from the point
 * before it, wherever that point was stored.
 */
final class PointSets {
  private PointSets() {}

  static SeriesPoints of(SeriesSet chosen, boolean exactName, Stats stats, List<Refused> refused) {
    List<SeriesPoints.Stored> out = new ArrayList<>(chosen.size());
    for (Series s : chosen.series()) {
      List<Series.Point> pts = s.finish();
      List<SeriesPoints.Point> points = new ArrayList<>(pts.size());
      for (Series.Point p : pts) {
        ExpHist e = p.exp();
        Shapes.Summary sm = p.summary();
        points.add(new SeriesPoints.Point(p.time(), p.node(), p.seq(), p.id(), p.kind(), p.l(), p.d(), p.start(),
            Arrays.asList(p.exemplars()), p.counts(), p.bounds(),
            e == null ? null : new SeriesPoints.Exp(e.scale(), e.zero(), e.pos().offset(), e.pos().counts(),
                e.neg().offset(), e.neg().counts()),
            sm == null ? null : sm.quantiles(), sm == null ? null : sm.values()));
      }
      out.add(new SeriesPoints.Stored(s.name, s.type, s.unit, s.description, s.resource, s.attributes, s.entity,
          s.temporality, s.monotonic, s.dropped(), points));
    }
    return new SeriesPoints(out, exactName, chosen.droppedSeries(), stats, refused);
  }

  /**
   * The answer over every node's points. A node that found the exact name outranks one that read a
   * histogram's half, as on one node. {@code droppedSeries} adds what each node dropped at the hard
   * cap (10,000 series), so a series dropped on two nodes counts twice.
   */
  static SeriesResult over(SeriesQuery q, List<SeriesPoints> parts, Stats stats) throws QueryException {
    boolean anyExact = false;
    for (SeriesPoints p : parts) {
      anyExact |= p.exactName();
    }
    int maxSeries = q.fn() == null ? q.maxSeries() : Documents.MAX_SERIES;
    int maxPoints = q.fn() == null ? q.maxPoints() : Documents.MAX_POINTS;
    SeriesSet set = new SeriesSet(maxSeries);
    List<Refused> refused = new ArrayList<>();
    for (SeriesPoints p : parts) {
      refused.addAll(p.refused());
      if (p.exactName() != anyExact) {
        continue;
      }
      set.addDropped(p.droppedSeries());
      for (SeriesPoints.Stored st : p.series()) {
        String key = st.name() + '\u0000' + st.type() + '\u0000' + st.unit() + '\u0000' + AttrKey.of(st.resource())
            + '\u0000' + AttrKey.of(st.attributes());
        Series s = set.get(key);
        if (s == null) {
          if (!set.admit(key)) {
            continue;
          }
          s = new Series(st.name(), st.type(), st.unit(), st.description(), st.resource(), st.attributes(), maxPoints);
          s.entity = st.entity();
          s.temporality = st.temporality();
          s.monotonic = st.monotonic();
          set.put(key, s);
        }
        s.addDropped(st.droppedPoints());
        for (SeriesPoints.Point x : st.points()) {
          s.add(point(x));
        }
      }
    }
    refused.sort((a, b) -> a.block().compareTo(b.block()));
    if (q.fn() != null) {
      return SeriesFunctions.apply(set, q, stats, refused);
    }
    List<SeriesResult.Series> out = new ArrayList<>(set.size());
    for (Series s : set.series()) {
      out.add(s.result());
    }
    return new SeriesResult(out, set.droppedSeries(), stats, refused);
  }

  private static Series.Point point(SeriesPoints.Point x) {
    SeriesPoints.Exp e = x.exp();
    ExpHist exp = e == null ? null
        : new ExpHist(e.scale(), e.zero(), new ExpHist.Side(e.posOffset(), e.pos()), new ExpHist.Side(e.negOffset(), e.neg()));
    Shapes.Summary sm = x.quantiles() == null ? null : new Shapes.Summary(x.quantiles(), x.values());
    return new Series.Point(x.time(), x.node(), x.seq(), x.id(), x.kind(), x.l(), x.d(), x.start(),
        x.exemplars().toArray(Series.NO_EXEMPLARS), x.counts(), x.bounds(), exp, sm);
  }
}
