package mira.query.frame;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.TreeMap;
import java.util.TreeSet;
import mira.proto.wire.Signal;
import mira.query.doc.Searcher;
import mira.query.doc.CorrelateQuery;
import mira.query.doc.Documents;
import mira.query.doc.RootField;
import mira.query.doc.Scalar;
import mira.query.doc.SearchQuery;
import mira.query.doc.Term;
import mira.query.entity.Identity;
import mira.query.result.CorrelateResult;
import mira.query.result.Frame;
import mira.query.result.QueryException;
import mira.query.result.Resource;
import mira.query.result.Row;
import mira.query.result.SearchResult;
import mira.query.result.SpanRow;
import mira.query.scan.Engine;

/**
 * Evaluates a correlate document: the anchor's rows (the same search as {@code /api/v1/query},
 * one page, newest first) give the first frame — their time extent and their entities — and
 * each expander widens it in turn.
 */
public final class Correlate {
  /** The most spans read to learn the extent and the peers of a frame's traces. */
  public static final int MAX_TRACE_SPANS = 100_000;

  private final CorrelateQuery q;
  private long from;
  private long to;
  private final TreeMap<Long, Frame.Member> entities = new TreeMap<>(Long::compareUnsigned);
  private final TreeSet<String> traces = new TreeSet<>();
  private boolean tracesTruncated;
  private boolean entitiesTruncated;
  private final Reads reads;
  /** The spans of {@link #traces}, once read. */
  private List<SpanRow> traceSpans;

  private Correlate(Reads reads, CorrelateQuery q) {
    this.reads = reads;
    this.q = q;
  }

  public static CorrelateResult run(Engine engine, CorrelateQuery q) throws QueryException, IOException {
    return new Correlate(new Reads(engine), q).run();
  }

  /** Builds the frame from the rows {@code searcher} finds (a cluster's, on a replica with peers). */
  public static CorrelateResult run(Searcher searcher, CorrelateQuery q) throws QueryException, IOException {
    return new Correlate(new Reads(searcher), q).run();
  }

  /** The terms a record of {@code frame} satisfies besides its time: entity and trace membership. */
  public static List<Term> membership(Frame frame, boolean withTraces) {
    List<Term> out = new ArrayList<>(2);
    if (!frame.entities().isEmpty()) {
      java.util.Set<Long> keys = new java.util.HashSet<>();
      for (Frame.Member m : frame.entities()) {
        keys.add(m.key());
      }
      out.add(new Term.Entity(keys));
    }
    if (withTraces && !frame.traces().isEmpty()) {
      out.add(new Term.FieldIn(RootField.TRACE_ID, frame.traces().stream().map(Scalar::string).toList()));
    }
    return out;
  }

  private CorrelateResult run() throws QueryException, IOException {
    List<Row> anchorRows = List.of();
    if (q.anchor() != null) {
      SearchResult r = reads.search(q.anchor());
      anchorRows = r.rows();
      if (anchorRows.isEmpty()) {
        throw new QueryException("anchor: no " + q.anchor().signal().dir() + " matched in the window, so there is "
            + "nothing to correlate from; widen from/to or loosen the terms");
      }
      from = Long.MAX_VALUE;
      to = Long.MIN_VALUE;
      for (Row row : anchorRows) {
        from = Math.min(from, row.time());
        to = Math.max(to, row instanceof SpanRow s && s.endTimeUnixNano() > row.time() ? s.endTimeUnixNano() : row.time());
        addEntity(row.resource(), "anchor");
      }
    } else {
      Frame f = q.frame();
      from = f.from();
      to = f.to();
      for (Frame.Member m : f.entities()) {
        entities.put(m.key(), m);
      }
      traces.addAll(f.traces());
    }
    for (CorrelateQuery.Expand e : q.expand()) {
      switch (e) {
        case CorrelateQuery.Expand.Traces t -> expandTraces(anchorRows);
        case CorrelateQuery.Expand.Peers p -> expandPeers();
        case CorrelateQuery.Expand.Around a -> {
          from = saturate(from - a.nanos(), from);
          to = to + a.nanos() < to ? Long.MAX_VALUE : to + a.nanos();
        }
      }
    }
    Frame frame = new Frame(from, to, new ArrayList<>(entities.values()), new ArrayList<>(traces));
    return new CorrelateResult(frame, tracesTruncated, entitiesTruncated, anchorRows.size(), reads.stats(),
        reads.refused());
  }

  private static long saturate(long v, long before) {
    return v > before ? Long.MIN_VALUE : v;
  }

  /** Adds the entity of {@code r}, refusing a resource without identity. */
  private void addEntity(Resource r, String why) throws QueryException {
    if (r.entity() == Resource.NO_ENTITY) {
      String service = Identity.text(r.attributes(), "service.name");
      throw new QueryException(why + ": a record comes from a resource with no identity"
          + (service == null ? "" : " (service.name \"" + service + "\")")
          + ", so no frame can hold its entity; set one of " + String.join(", ", Identity.FIXES)
          + " in the SDK's resource");
    }
    if (entities.containsKey(r.entity())) {
      return;
    }
    if (entities.size() == q.maxEntities()) {
      entitiesTruncated = true;
      return;
    }
    Identity id = Identity.of(r.attributes());
    entities.put(r.entity(), new Frame.Member(r.entity(), Identity.text(r.attributes(), "service.name"),
        id.attributes()));
  }

  /**
   * The anchor rows' trace ids (continuing from a frame: its records' trace ids); time widened
   * to the whole extent of those traces, found across all of retention.
   */
  private void expandTraces(List<Row> anchorRows) throws QueryException, IOException {
    TreeSet<String> ids = new TreeSet<>();
    if (q.anchor() != null) {
      for (Row r : anchorRows) {
        String t = traceOf(r);
        if (t != null) {
          ids.add(t);
        }
      }
    } else {
      Frame f = new Frame(from, to, new ArrayList<>(entities.values()), new ArrayList<>(traces));
      for (Signal signal : List.of(Signal.LOGS, Signal.TRACES)) {
        SearchQuery sq = new SearchQuery(signal, from, to, membership(f, true), Documents.MAX_LIMIT, null);
        for (Row r : reads.search(sq).rows()) {
          String t = traceOf(r);
          if (t != null) {
            ids.add(t);
          }
        }
      }
    }
    if (ids.isEmpty()) {
      return;
    }
    traces.clear();
    for (String id : ids) {
      if (traces.size() == q.maxTraces()) {
        tracesTruncated = true;
        break;
      }
      traces.add(id);
    }
    traceSpans = null;
    for (SpanRow s : spansOfTraces()) {
      long start = s.startTimeUnixNano() != 0 ? s.startTimeUnixNano() : s.time();
      long end = Math.max(s.endTimeUnixNano(), start);
      from = Math.min(from, start);
      to = Math.max(to, end);
    }
  }

  /** Every entity that emitted a span of the frame's traces. */
  private void expandPeers() throws QueryException, IOException {
    if (traces.isEmpty()) {
      throw new QueryException("expand: peers are the entities of the frame's traces, and the frame has none; "
          + "put \"traces\" before \"peers\"");
    }
    for (SpanRow s : spansOfTraces()) {
      addEntity(s.resource(), "peers");
    }
  }

  private List<SpanRow> spansOfTraces() throws IOException {
    if (traceSpans != null) {
      return traceSpans;
    }
    List<SpanRow> out = new ArrayList<>();
    List<Term> where = List.of(new Term.FieldIn(RootField.TRACE_ID, traces.stream().map(Scalar::string).toList()));
    reads.all(new SearchQuery(Signal.TRACES, Long.MIN_VALUE, Long.MAX_VALUE, where, Documents.MAX_LIMIT, null),
        MAX_TRACE_SPANS, row -> out.add((SpanRow) row));
    traceSpans = out;
    return out;
  }

  private static String traceOf(Row r) {
    String t = switch (r) {
      case mira.query.result.LogRow l -> l.traceId();
      case SpanRow s -> s.traceId();
    };
    return t == null || t.isEmpty() ? null : t;
  }

}
