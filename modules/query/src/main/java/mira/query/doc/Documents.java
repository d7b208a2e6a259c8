package mira.query.doc;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonLocation;
import com.fasterxml.jackson.core.JsonParseException;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.core.StreamReadConstraints;
import com.fasterxml.jackson.core.StreamReadFeature;
import com.fasterxml.jackson.core.exc.StreamConstraintsException;
import java.io.IOException;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import mira.proto.wire.Signal;
import mira.query.result.Entities;
import mira.query.result.Frame;
import mira.query.result.QueryException;
import mira.query.result.Resource;

/**
 * The query grammar: parsers for the documents of {@code POST /api/v1/query} and
 * {@code POST /api/v1/series} and for time windows. The grammar is closed: a key the document
 * does not implement is refused with a message naming it and the keys that are implemented, so a
 * misspelt filter can never silently mean "no filter".
 *
 * <p>Thread-safe; every method is a pure function of its arguments.
 */
public final class Documents {
  public static final int DEFAULT_LIMIT = 100;
  public static final int MAX_LIMIT = 10_000;
  public static final int DEFAULT_MAX_SERIES = 100;
  public static final int MAX_SERIES = 10_000;
  public static final int DEFAULT_MAX_POINTS = 1_000;
  public static final int MAX_POINTS = 100_000;
  /** More terms than this is a generated document gone wrong, not a question. */
  public static final int MAX_TERMS = 64;

  public static final List<String> SEARCH_KEYS = List.of("signal", "from", "to", "where", "q", "limit", "after");
  public static final List<String> SERIES_KEYS = List.of("name", "from", "to", "where", "q", "max_series", "max_points",
      "step", "fn", "quantile", "group_by", "agg");
  static final List<String> SUBJECTS = List.of("attr", "field", "text", "entity", "not");

  private static final JsonFactory JSON = JsonFactory.builder()
      .streamReadConstraints(StreamReadConstraints.builder()
          .maxNestingDepth(16)
          .maxStringLength(1 << 20)
          .maxNameLength(1024)
          .maxNumberLength(100)
          .build())
      .disable(StreamReadFeature.INCLUDE_SOURCE_IN_LOCATION)
      .disable(JsonFactory.Feature.INTERN_FIELD_NAMES)
      .build();

  private Documents() {}

  /**
   * Parses a query document.
   *
   * @param json UTF-8 JSON; not retained
   * @param now the time "now" and relative times resolve against, ns since the epoch
   * @throws QueryException naming what is wrong
   */
  public static SearchQuery search(byte[] json, long now) throws QueryException {
    String signal = null;
    String from = Times.DEFAULT_FROM;
    String to = Times.DEFAULT_TO;
    List<RawTerm> where = List.of();
    String q = null;
    int limit = DEFAULT_LIMIT;
    String after = null;
    try (JsonParser p = open(json)) {
      Set<String> seen = new HashSet<>();
      while (p.nextToken() == JsonToken.FIELD_NAME) {
        String key = p.currentName();
        if (!seen.add(key)) {
          throw new QueryException("key \"" + key + "\" appears twice in the query document");
        }
        p.nextToken();
        switch (key) {
          case "signal" -> signal = string(p, "signal");
          case "from" -> from = time(p, "from");
          case "to" -> to = time(p, "to");
          case "where" -> where = terms(p);
          case "q" -> q = string(p, "q");
          case "limit" -> limit = bounded(p, "limit", 1, MAX_LIMIT);
          case "after" -> after = string(p, "after");
          default -> throw unknownKey(key, "the query document", SEARCH_KEYS);
        }
      }
      end(p);
    } catch (IOException e) {
      throw json(e);
    }
    if (signal == null) {
      throw new QueryException("signal is required: \"logs\" or \"traces\"");
    }
    Signal s = switch (signal) {
      case "logs" -> Signal.LOGS;
      case "traces" -> Signal.TRACES;
      default -> throw new QueryException("signal: \"" + Cursor.abbreviate(signal)
          + "\" is not searchable; use \"logs\" or \"traces\" (metrics are read with /api/v1/series)");
    };
    Window w = window(from, to, now);
    List<Term> terms = new ArrayList<>();
    for (int i = 0; i < where.size(); i++) {
      terms.add(where.get(i).resolve(s, i));
    }
    text(terms, s, q);
    return new SearchQuery(s, w.from(), w.to(), terms, limit, after == null ? null : Cursor.parse(after));
  }

  /**
   * Parses a series document. Parameters and exceptions as for {@link #search}.
   */
  public static SeriesQuery series(byte[] json, long now) throws QueryException {
    String name = null;
    String from = Times.DEFAULT_FROM;
    String to = Times.DEFAULT_TO;
    List<RawTerm> where = List.of();
    String q = null;
    int maxSeries = DEFAULT_MAX_SERIES;
    int maxPoints = DEFAULT_MAX_POINTS;
    String step = null;
    String fn = null;
    double quantile = Double.NaN;
    List<String> groupBy = null;
    String agg = null;
    try (JsonParser p = open(json)) {
      Set<String> seen = new HashSet<>();
      while (p.nextToken() == JsonToken.FIELD_NAME) {
        String key = p.currentName();
        if (!seen.add(key)) {
          throw new QueryException("key \"" + key + "\" appears twice in the series document");
        }
        p.nextToken();
        switch (key) {
          case "name" -> name = string(p, "name");
          case "from" -> from = time(p, "from");
          case "to" -> to = time(p, "to");
          case "where" -> where = terms(p);
          case "q" -> q = string(p, "q");
          case "max_series" -> maxSeries = bounded(p, "max_series", 1, MAX_SERIES);
          case "max_points" -> maxPoints = bounded(p, "max_points", 1, MAX_POINTS);
          case "step" -> step = string(p, "step");
          case "fn" -> fn = string(p, "fn");
          case "quantile" -> quantile = SeriesFns.quantile(p);
          case "group_by" -> groupBy = SeriesFns.keys(p);
          case "agg" -> agg = string(p, "agg");
          default -> throw unknownKey(key, "the series document", SERIES_KEYS);
        }
      }
      end(p);
    } catch (IOException e) {
      throw json(e);
    }
    Window w = window(from, to, now);
    List<Term> terms = attrTerms(where, "a series document takes attr terms (resource, scope, metric and data "
        + "point attributes) and entity terms only, not ");
    text(terms, Signal.METRICS, q);
    if (name != null && name.isEmpty()) {
      throw new QueryException("name: empty; leave it out to read every metric in the window");
    }
    SeriesFn f = SeriesFns.resolve(step, fn, quantile, groupBy, agg, w);
    return new SeriesQuery(name, w.from(), w.to(), terms, maxSeries, maxPoints, f);
  }

  public static final List<String> ENTITIES_KEYS = List.of("from", "to", "where", "q", "limit");

  /**
   * Parses an entities document: a window, resource terms ({@code attr}, {@code entity} and
   * {@code not} over them, in {@code where} or {@code q}) and a limit.
   */
  public static EntitiesQuery entities(byte[] json, long now) throws QueryException {
    String from = Times.DEFAULT_FROM;
    String to = Times.DEFAULT_TO;
    List<RawTerm> where = List.of();
    String q = null;
    int limit = DEFAULT_LIMIT;
    try (JsonParser p = open(json)) {
      Set<String> seen = new HashSet<>();
      while (p.nextToken() == JsonToken.FIELD_NAME) {
        String key = p.currentName();
        if (!seen.add(key)) {
          throw new QueryException("key \"" + key + "\" appears twice in the entities document");
        }
        p.nextToken();
        switch (key) {
          case "from" -> from = time(p, "from");
          case "to" -> to = time(p, "to");
          case "where" -> where = terms(p);
          case "q" -> q = string(p, "q");
          case "limit" -> limit = bounded(p, "limit", 1, MAX_LIMIT);
          default -> throw unknownKey(key, "the entities document", ENTITIES_KEYS);
        }
      }
      end(p);
    } catch (IOException e) {
      throw json(e);
    }
    Window w = window(from, to, now);
    List<Term> terms = attrTerms(where, "entities are selected by their resource's attributes (attr terms) and "
        + "by entity, not by ");
    text(terms, Signal.METRICS, q);
    return new EntitiesQuery(w.from(), w.to(), terms, limit);
  }

  public static final List<String> FACETS_KEYS = List.of("signal", "from", "to", "where", "q", "keys", "limit");
  /** Values listed per key unless the document asks otherwise. */
  public static final int DEFAULT_FACET_LIMIT = 10;
  /** The most keys one facets document counts. */
  public static final int MAX_FACET_KEYS = 32;

  /**
   * Parses a facets document: the window and terms of a search over {@code signal}, the
   * attribute {@code keys} to count (1 to {@link #MAX_FACET_KEYS}) and the values listed per key.
   */
  public static FacetsQuery facets(byte[] json, long now) throws QueryException {
    String signal = null;
    String from = Times.DEFAULT_FROM;
    String to = Times.DEFAULT_TO;
    List<RawTerm> where = List.of();
    String q = null;
    List<String> keys = null;
    int limit = DEFAULT_FACET_LIMIT;
    try (JsonParser p = open(json)) {
      Set<String> seen = new HashSet<>();
      while (p.nextToken() == JsonToken.FIELD_NAME) {
        String key = p.currentName();
        if (!seen.add(key)) {
          throw new QueryException("key \"" + key + "\" appears twice in the facets document");
        }
        p.nextToken();
        switch (key) {
          case "signal" -> signal = string(p, "signal");
          case "from" -> from = time(p, "from");
          case "to" -> to = time(p, "to");
          case "where" -> where = terms(p);
          case "q" -> q = string(p, "q");
          case "keys" -> keys = keyList(p);
          case "limit" -> limit = bounded(p, "limit", 1, MAX_LIMIT);
          default -> throw unknownKey(key, "the facets document", FACETS_KEYS);
        }
      }
      end(p);
    } catch (IOException e) {
      throw json(e);
    }
    Signal s = recordSignal(signal);
    if (keys == null || keys.isEmpty()) {
      throw new QueryException("keys is required: the attribute keys whose values to count, e.g. [\"service.name\"]");
    }
    List<String> distinct = new ArrayList<>(new java.util.LinkedHashSet<>(keys));
    if (distinct.size() > MAX_FACET_KEYS) {
      throw new QueryException("keys: " + distinct.size() + " keys; at most " + MAX_FACET_KEYS + " per document");
    }
    Window w = window(from, to, now);
    List<Term> terms = new ArrayList<>();
    for (int i = 0; i < where.size(); i++) {
      terms.add(where.get(i).resolve(s, i));
    }
    text(terms, s, q);
    return new FacetsQuery(s, w.from(), w.to(), terms, distinct, limit);
  }

  private static List<String> keyList(JsonParser p) throws IOException, QueryException {
    if (p.currentToken() != JsonToken.START_ARRAY) {
      throw new QueryException("keys: expected an array of attribute keys, e.g. [\"service.name\"]");
    }
    List<String> out = new ArrayList<>();
    while (p.nextToken() != JsonToken.END_ARRAY) {
      if (p.currentToken() != JsonToken.VALUE_STRING || p.getText().isEmpty()) {
        throw new QueryException("keys[" + out.size() + "]: expected a non-empty attribute key");
      }
      out.add(p.getText());
      if (out.size() > MAX_FACET_KEYS) {
        throw new QueryException("keys: more than " + MAX_FACET_KEYS + " keys");
      }
    }
    return out;
  }

  /**
   * The signal of a document or parameter over records: logs or traces.
   *
   * @throws QueryException if it is missing or names another signal
   */
  public static Signal recordSignal(String signal) throws QueryException {
    if (signal == null) {
      throw new QueryException("signal is required: \"logs\" or \"traces\"");
    }
    return switch (signal) {
      case "logs" -> Signal.LOGS;
      case "traces" -> Signal.TRACES;
      default -> throw new QueryException("signal: \"" + Cursor.abbreviate(signal) + "\" is not \"logs\" or "
          + "\"traces\" (a metric's point attribute keys are listed by /api/v1/metrics)");
    };
  }

  public static final List<String> CORRELATE_KEYS = List.of("anchor", "frame", "expand", "max_traces", "max_entities");
  static final List<String> FRAME_KEYS = List.of("from", "to", "entities", "traces");
  static final List<String> MEMBER_KEYS = List.of("entity", "service.name", "identity");

  /**
   * Parses a correlate document: {@code anchor} (a query document) or {@code frame} (an earlier
   * answer's frame), then {@code expand}: {@code "traces"}, {@code "peers"},
   * {@code {"around": DURATION}}.
   */
  public static CorrelateQuery correlate(byte[] json, long now) throws QueryException {
    SearchQuery anchor = null;
    Frame frame = null;
    List<CorrelateQuery.Expand> expand = new ArrayList<>();
    int maxTraces = CorrelateQuery.DEFAULT_MAX;
    int maxEntities = CorrelateQuery.DEFAULT_MAX;
    try (JsonParser p = open(json)) {
      Set<String> seen = new HashSet<>();
      while (p.nextToken() == JsonToken.FIELD_NAME) {
        String key = p.currentName();
        if (!seen.add(key)) {
          throw new QueryException("key \"" + key + "\" appears twice in the correlate document");
        }
        p.nextToken();
        switch (key) {
          case "anchor" -> {
            if (p.currentToken() != JsonToken.START_OBJECT) {
              throw new QueryException("anchor: expected a query document, e.g. {\"signal\": \"logs\", \"q\": \"...\"}");
            }
            int start = (int) p.currentTokenLocation().getByteOffset();
            p.skipChildren();
            int end = (int) p.currentLocation().getByteOffset();
            try {
              anchor = search(java.util.Arrays.copyOfRange(json, start, end), now);
            } catch (QueryException e) {
              throw new QueryException("anchor: " + e.getMessage());
            }
          }
          case "frame" -> frame = frame(p, now);
          case "expand" -> {
            if (p.currentToken() != JsonToken.START_ARRAY) {
              throw new QueryException("expand: expected a list, e.g. [\"traces\", \"peers\", {\"around\": \"5s\"}]");
            }
            while (p.nextToken() != JsonToken.END_ARRAY) {
              String at = "expand[" + expand.size() + "]";
              if (p.currentToken() == JsonToken.VALUE_STRING) {
                expand.add(switch (p.getText()) {
                  case "traces" -> new CorrelateQuery.Expand.Traces();
                  case "peers" -> new CorrelateQuery.Expand.Peers();
                  default -> throw new QueryException(at + ": \"" + Cursor.abbreviate(p.getText())
                      + "\" is not an expander; the expanders are \"traces\", \"peers\" and {\"around\": DURATION}");
                });
              } else if (p.currentToken() == JsonToken.START_OBJECT) {
                if (p.nextToken() != JsonToken.FIELD_NAME || !p.currentName().equals("around")) {
                  throw new QueryException(at + ": an object expander is {\"around\": DURATION}, e.g. {\"around\": \"5s\"}");
                }
                p.nextToken();
                long d = SeriesFns.duration(string(p, at + ".around"));
                if (p.nextToken() != JsonToken.END_OBJECT) {
                  throw new QueryException(at + ": {\"around\": DURATION} takes no other key");
                }
                expand.add(new CorrelateQuery.Expand.Around(d));
              } else {
                throw new QueryException(at + ": an expander is \"traces\", \"peers\" or {\"around\": DURATION}");
              }
              if (expand.size() > 16) {
                throw new QueryException("expand: more than 16 expanders");
              }
            }
          }
          case "max_traces" -> maxTraces = bounded(p, "max_traces", 1, CorrelateQuery.MAX);
          case "max_entities" -> maxEntities = bounded(p, "max_entities", 1, CorrelateQuery.MAX);
          default -> throw unknownKey(key, "the correlate document", CORRELATE_KEYS);
        }
      }
      end(p);
    } catch (IOException e) {
      throw json(e);
    }
    if ((anchor == null) == (frame == null)) {
      throw new QueryException("a correlate document starts from an anchor (a query document) or from a frame "
          + "(an earlier answer's), one of the two");
    }
    return new CorrelateQuery(anchor, frame, expand, maxTraces, maxEntities);
  }

  private static Frame frame(JsonParser p, long now) throws IOException, QueryException {
    if (p.currentToken() != JsonToken.START_OBJECT) {
      throw new QueryException("frame: expected the frame object of an earlier correlate answer");
    }
    String from = null;
    String to = null;
    List<Frame.Member> members = new ArrayList<>();
    List<String> traces = new ArrayList<>();
    while (p.nextToken() == JsonToken.FIELD_NAME) {
      String key = p.currentName();
      p.nextToken();
      switch (key) {
        case "from" -> from = time(p, "frame.from");
        case "to" -> to = time(p, "frame.to");
        case "entities" -> {
          if (p.currentToken() != JsonToken.START_ARRAY) {
            throw new QueryException("frame.entities: expected a list");
          }
          while (p.nextToken() != JsonToken.END_ARRAY) {
            String at = "frame.entities[" + members.size() + "]";
            if (members.size() == CorrelateQuery.MAX) {
              throw new QueryException("frame.entities: more than " + CorrelateQuery.MAX);
            }
            members.add(member(p, at));
          }
        }
        case "traces" -> {
          if (p.currentToken() != JsonToken.START_ARRAY) {
            throw new QueryException("frame.traces: expected a list of trace ids");
          }
          while (p.nextToken() != JsonToken.END_ARRAY) {
            String at = "frame.traces[" + traces.size() + "]";
            if (traces.size() == CorrelateQuery.MAX) {
              throw new QueryException("frame.traces: more than " + CorrelateQuery.MAX);
            }
            Scalar v = scalar(p, at);
            checkHex(at, v, 32);
            traces.add(v.text().toLowerCase(java.util.Locale.ROOT));
          }
        }
        default -> throw unknownKey(key, "the frame", FRAME_KEYS);
      }
    }
    if (from == null || to == null) {
      throw new QueryException("frame: from and to are required");
    }
    Window w = window(from, to, now);
    members.sort((a, b) -> Long.compareUnsigned(a.key(), b.key()));
    for (int i = 1; i < members.size(); i++) {
      if (members.get(i).key() == members.get(i - 1).key()) {
        throw new QueryException("frame.entities: " + Entities.hex(members.get(i).key()) + " appears twice");
      }
    }
    traces = new ArrayList<>(new java.util.TreeSet<>(traces));
    return new Frame(w.from(), w.to(), members, traces);
  }

  /** A frame entity: {@code "hex"}, or the object an answer writes ({@code entity}, {@code service.name}, {@code identity}). */
  private static Frame.Member member(JsonParser p, String at) throws IOException, QueryException {
    if (p.currentToken() == JsonToken.VALUE_STRING) {
      return new Frame.Member(entityKey(p.getText(), at), null, List.of());
    }
    if (p.currentToken() != JsonToken.START_OBJECT) {
      throw new QueryException(at + ": an entity is its key (16 hex digits) or {\"entity\": key, ...}");
    }
    Long key = null;
    String service = null;
    List<mira.query.result.Attribute> identity = new ArrayList<>();
    while (p.nextToken() == JsonToken.FIELD_NAME) {
      String k = p.currentName();
      p.nextToken();
      switch (k) {
        case "entity" -> key = entityKey(string(p, at + ".entity"), at + ".entity");
        case "service.name" -> service = p.currentToken() == JsonToken.VALUE_NULL ? null : string(p, at + ".service.name");
        case "identity" -> {
          if (p.currentToken() != JsonToken.START_OBJECT) {
            throw new QueryException(at + ".identity: expected an object of attribute values");
          }
          while (p.nextToken() == JsonToken.FIELD_NAME) {
            String name = p.currentName();
            p.nextToken();
            Scalar v = scalar(p, at + ".identity." + name);
            identity.add(new mira.query.result.Attribute(name, new mira.query.result.Value.Str(v.text())));
          }
        }
        default -> throw unknownKey(k, at, MEMBER_KEYS);
      }
    }
    if (key == null) {
      throw new QueryException(at + ": entity is required");
    }
    return new Frame.Member(key, service, identity);
  }

  public static final List<String> MAP_KEYS = List.of("from", "to", "where", "q", "frame");

  /**
   * Parses a map document: a window (default: the frame's, else the last hour), span terms in
   * {@code where} or {@code q}, and an optional frame.
   */
  public static MapQuery map(byte[] json, long now) throws QueryException {
    String from = null;
    String to = null;
    List<RawTerm> where = List.of();
    String q = null;
    Frame frame = null;
    try (JsonParser p = open(json)) {
      Set<String> seen = new HashSet<>();
      while (p.nextToken() == JsonToken.FIELD_NAME) {
        String key = p.currentName();
        if (!seen.add(key)) {
          throw new QueryException("key \"" + key + "\" appears twice in the map document");
        }
        p.nextToken();
        switch (key) {
          case "from" -> from = time(p, "from");
          case "to" -> to = time(p, "to");
          case "where" -> where = terms(p);
          case "q" -> q = string(p, "q");
          case "frame" -> frame = frame(p, now);
          default -> throw unknownKey(key, "the map document", MAP_KEYS);
        }
      }
      end(p);
    } catch (IOException e) {
      throw json(e);
    }
    long f;
    long t;
    if (frame != null && from == null && to == null) {
      f = frame.from();
      t = frame.to();
    } else {
      Window w = window(from, to, now);
      f = w.from();
      t = w.to();
    }
    List<Term> terms = new ArrayList<>();
    for (int i = 0; i < where.size(); i++) {
      terms.add(where.get(i).resolve(Signal.TRACES, i));
    }
    text(terms, Signal.TRACES, q);
    return new MapQuery(f, t, terms, frame);
  }

  public static final List<String> FILTER_KEYS = List.of("q", "where", "signal");

  /**
   * Parses a filter document, {@code {"q": TEXT}} or {@code {"where": [...]}}, with an optional
   * {@code signal} (logs, traces or metrics) deciding which keys are root fields; without one any
   * signal's field names are fields. Returns the terms.
   */
  public static List<Term> filter(byte[] json) throws QueryException {
    String signal = null;
    String q = null;
    List<RawTerm> where = null;
    try (JsonParser p = open(json)) {
      Set<String> seen = new HashSet<>();
      while (p.nextToken() == JsonToken.FIELD_NAME) {
        String key = p.currentName();
        if (!seen.add(key)) {
          throw new QueryException("key \"" + key + "\" appears twice in the filter document");
        }
        p.nextToken();
        switch (key) {
          case "signal" -> signal = string(p, "signal");
          case "q" -> q = string(p, "q");
          case "where" -> where = terms(p);
          default -> throw unknownKey(key, "the filter document", FILTER_KEYS);
        }
      }
      end(p);
    } catch (IOException e) {
      throw json(e);
    }
    if ((q == null) == (where == null)) {
      throw new QueryException("a filter document has q (text, answered with where) or where (terms, answered "
          + "with q), one of the two");
    }
    Signal s = switch (signal == null ? "" : signal) {
      case "" -> null;
      case "logs" -> Signal.LOGS;
      case "traces" -> Signal.TRACES;
      case "metrics" -> Signal.METRICS;
      default -> throw new QueryException("signal: \"" + Cursor.abbreviate(signal)
          + "\" is not a signal; use \"logs\", \"traces\" or \"metrics\"");
    };
    if (where != null && s == Signal.METRICS) {
      return attrTerms(where, "series take attr and entity terms only, not ");
    }
    List<Term> terms = new ArrayList<>();
    if (where != null) {
      for (int i = 0; i < where.size(); i++) {
        terms.add(where.get(i).resolve(s, i));
      }
      return terms;
    }
    text(terms, s, q);
    return terms;
  }

  /**
   * The terms of a document that selects series or resources: attr and entity terms (and not over
   * them); any other subject is refused with {@code refusal} followed by its name.
   */
  private static List<Term> attrTerms(List<RawTerm> where, String refusal) throws QueryException {
    List<Term> terms = new ArrayList<>();
    for (int i = 0; i < where.size(); i++) {
      String subject = where.get(i).reads();
      if (!subject.equals("attr") && !subject.equals("entity")) {
        throw new QueryException("where[" + i + "]: " + refusal + subject);
      }
      terms.add(where.get(i).resolve(Signal.METRICS, i));
    }
    return terms;
  }

  /**
   * The terms of filter text {@code q} (null: none) checked as a series document checks its own:
   * attribute and entity terms only, for {@code GET /api/v1/metrics?q=}.
   */
  public static List<Term> seriesTerms(String q) throws QueryException {
    List<Term> terms = new ArrayList<>();
    text(terms, Signal.METRICS, q);
    return terms;
  }

  /** Appends the terms of filter text {@code q} (null: none) to {@code terms}; both apply. */
  public static void text(List<Term> terms, Signal signal, String q) throws QueryException {
    if (q == null) {
      return;
    }
    List<Term> more = FilterText.parse(signal, q);
    if (terms.size() + more.size() > MAX_TERMS) {
      throw new QueryException("where and q hold " + (terms.size() + more.size()) + " terms together; at most "
          + MAX_TERMS);
    }
    terms.addAll(more);
  }

  /**
   * Resolves a window given as two time strings; null means the default ({@code -1h},
   * {@code now}).
   *
   * @throws QueryException if either does not parse or {@code from} is after {@code to}
   */
  public static Window window(String from, String to, long now) throws QueryException {
    long f = Times.parse(from == null ? Times.DEFAULT_FROM : from, "from", now);
    long t = Times.parse(to == null ? Times.DEFAULT_TO : to, "to", now);
    if (f > t) {
      throw new QueryException("from (" + f + ") is after to (" + t + ")");
    }
    return new Window(f, t);
  }

  /** A term as written, before the signal is known (keys may come in any order). */
  private record RawTerm(String subject, String name, Op op, Scalar value, List<Scalar> values, Set<Long> entities,
      RawTerm inner) {
    RawTerm(String subject, String name, Op op, Scalar value) {
      this(subject, name, op, value, null, null, null);
    }

    /** The subject a series term reads: {@code attr} or {@code entity}, through a {@code not}. */
    String reads() {
      return inner != null ? inner.subject : subject;
    }

    Term resolve(Signal signal, int i) throws QueryException {
      String at = "where[" + i + "]: ";
      switch (subject) {
        case "not" -> {
          return new Term.Not(inner.resolve(signal, i));
        }
        case "text" -> {
          return new Term.Text(name);
        }
        case "entity" -> {
          return new Term.Entity(entities);
        }
        case "attr" -> {
          return op == Op.IN ? new Term.AttrIn(name, values) : new Term.Attr(name, op, value);
        }
        default -> {
          RootField f = signal == null ? RootField.byKey(name) : RootField.of(signal, name);
          if (f == null && signal == null) {
            throw new QueryException(at + "\"" + Cursor.abbreviate(name) + "\" is not a field of logs or traces; "
                + "the fields are: " + String.join(", ", RootField.names(Signal.LOGS)) + " (logs), "
                + String.join(", ", RootField.names(Signal.TRACES)) + " (traces)");
          }
          if (f == null) {
            throw new QueryException(at + "\"" + Cursor.abbreviate(name) + "\" is not a field of " + signal.dir()
                + "; the fields are: " + String.join(", ", RootField.names(signal)));
          }
          return field(f, op, value, values, at);
        }
      }
    }
  }

  /**
   * The term on root column {@code f}, its id values checked as hex (full width for eq and in).
   *
   * @param at the message prefix, e.g. {@code "where[2]: "}
   */
  static Term field(RootField f, Op op, Scalar value, List<Scalar> values, String at) throws QueryException {
    if (op == Op.IN) {
      if (f.kind() == RootField.Kind.ID) {
        for (int k = 0; k < values.size(); k++) {
          checkHex(at + f.key() + ".in[" + k + "]", values.get(k), 2 * f.idBytes());
        }
      }
      return new Term.FieldIn(f, values);
    }
    checkOp(at + f.key(), op, value);
    if (f.kind() == RootField.Kind.ID && op != Op.EXISTS) {
      checkHex(at + f.key(), value, op == Op.EQ ? 2 * f.idBytes() : -1);
    }
    return new Term.Field(f, op, value);
  }

  /** Refuses an operator its value cannot serve: exists takes a boolean, and only eq takes one otherwise. */
  static void checkOp(String where, Op op, Scalar value) throws QueryException {
    if (op == Op.IN) {
      return;
    }
    if (op == Op.EXISTS && value.kind() != Scalar.Kind.BOOL) {
      throw new QueryException(where + ": exists takes true or false, not " + value);
    }
    if (op != Op.EXISTS && value.kind() == Scalar.Kind.BOOL && op != Op.EQ) {
      throw new QueryException(where + ": " + op.key() + " does not take a boolean");
    }
  }

  private static void checkHex(String at, Scalar v, int digits) throws QueryException {
    if (v.kind() != Scalar.Kind.STRING) {
      throw new QueryException(at + ": an id is compared as a hex string, not " + v);
    }
    String s = v.text();
    for (int i = 0; i < s.length(); i++) {
      if (!isHex(s.charAt(i))) {
        throw new QueryException(at + ": \"" + Cursor.abbreviate(s) + "\" is not hex");
      }
    }
    if (digits >= 0 && s.length() != digits) {
      throw new QueryException(at + ": eq and in take the whole id, " + digits + " hex digits; got " + s.length());
    }
  }

  /** An ASCII hex digit, either case. */
  public static boolean isHex(char c) {
    return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F');
  }

  private static List<RawTerm> terms(JsonParser p) throws IOException, QueryException {
    if (p.currentToken() != JsonToken.START_ARRAY) {
      throw new QueryException("where: expected a list of terms, e.g. [{\"attr\": \"service.name\", \"eq\": \"api\"}]");
    }
    List<RawTerm> out = new ArrayList<>();
    while (p.nextToken() != JsonToken.END_ARRAY) {
      int i = out.size();
      if (i == MAX_TERMS) {
        throw new QueryException("where: more than " + MAX_TERMS + " terms");
      }
      out.add(term(p, "where[" + i + "]"));
    }
    return out;
  }

  private static RawTerm term(JsonParser p, String at) throws IOException, QueryException {
    if (p.currentToken() != JsonToken.START_OBJECT) {
      throw new QueryException(at + ": a term is an object, e.g. {\"attr\": \"http.response.status_code\", \"gte\": 500}");
    }
    String subject = null;
    String name = null;
    Op op = null;
    Scalar value = null;
    List<Scalar> values = null;
    Set<Long> entities = null;
    RawTerm inner = null;
    while (p.nextToken() == JsonToken.FIELD_NAME) {
      String key = p.currentName();
      p.nextToken();
      if (SUBJECTS.contains(key)) {
        if (subject != null) {
          throw new QueryException(at + ": a term names one of attr, field, text, entity, not; this one has "
              + subject + " and " + key);
        }
        subject = key;
        if (key.equals("not")) {
          inner = term(p, at + ".not");
          if (inner.subject.equals("not")) {
            throw new QueryException(at + ".not: not over not; write the inner term itself");
          }
          if (inner.op == Op.EXISTS) {
            throw new QueryException(at + ".not: not over exists; use exists with the other boolean");
          }
          name = "not";
        } else if (key.equals("entity")) {
          entities = entities(p, at + ".entity");
          name = "entity";
        } else {
          name = string(p, at + "." + key);
        }
        continue;
      }
      Op o = Op.of(key);
      if (o == null) {
        throw unknownKey(key, at, termKeys());
      }
      if (op != null) {
        throw new QueryException(at + ": a term has one operator; this one has " + op.key() + " and " + key);
      }
      op = o;
      if (o == Op.IN) {
        values = list(p, at + ".in");
      } else {
        value = scalar(p, at + "." + key);
      }
    }
    if (subject == null) {
      throw new QueryException(at + ": a term names one of attr, field, text, entity, not");
    }
    if (subject.equals("not")) {
      if (op != null) {
        throw new QueryException(at + ": a not term takes no operator of its own: {\"not\": {term}}");
      }
      return new RawTerm(subject, name, null, null, null, null, inner);
    }
    if (subject.equals("entity")) {
      if (op != null) {
        throw new QueryException(at + ": an entity term takes no operator: {\"entity\": \"<16 hex digits>\"} or "
            + "{\"entity\": {\"in\": [...]}}");
      }
      return new RawTerm(subject, name, Op.IN, null, null, entities, null);
    }
    String where = at + " (" + subject + " \"" + Cursor.abbreviate(name) + "\")";
    if (subject.equals("text")) {
      if (op != null) {
        throw new QueryException(at + ": a text term takes no operator, it is a substring match: {\"text\": \"...\"}");
      }
      if (name.isEmpty()) {
        throw new QueryException(at + ": text is empty");
      }
      return new RawTerm(subject, name, Op.CONTAINS, Scalar.string(name));
    }
    if (op == null) {
      throw new QueryException(where + ": no operator; one of eq, gt, gte, lt, lte, contains, in, exists");
    }
    if (op == Op.IN) {
      return new RawTerm(subject, name, op, null, values, null, null);
    }
    checkOp(where, op, value);
    return new RawTerm(subject, name, op, value);
  }

  /** The list of an {@code in} operator: 1 to {@link Term#MAX_IN} scalars. */
  private static List<Scalar> list(JsonParser p, String at) throws IOException, QueryException {
    if (p.currentToken() != JsonToken.START_ARRAY) {
      throw new QueryException(at + ": in takes a list of values, e.g. {\"field\": \"trace_id\", \"in\": [\"...\", \"...\"]}");
    }
    List<Scalar> out = new ArrayList<>();
    while (p.nextToken() != JsonToken.END_ARRAY) {
      if (out.size() == Term.MAX_IN) {
        throw new QueryException(at + ": more than " + Term.MAX_IN + " values");
      }
      out.add(scalar(p, at + "[" + out.size() + "]"));
    }
    if (out.isEmpty()) {
      throw new QueryException(at + ": the list is empty; an in term needs at least one value");
    }
    return out;
  }

  /**
   * The value of an entity term: one key as 16 hex digits, or {@code {"in": [keys]}} with 1 to
   * {@link Term#MAX_IN} of them.
   */
  private static Set<Long> entities(JsonParser p, String at) throws IOException, QueryException {
    Set<Long> out = new HashSet<>();
    if (p.currentToken() == JsonToken.VALUE_STRING) {
      out.add(entityKey(p.getText(), at));
      return out;
    }
    String shape = ": an entity term is {\"entity\": \"<16 hex digits>\"} or {\"entity\": {\"in\": [\"<16 hex digits>\", ...]}}";
    if (p.currentToken() != JsonToken.START_OBJECT) {
      throw new QueryException(at + shape);
    }
    boolean seen = false;
    while (p.nextToken() == JsonToken.FIELD_NAME) {
      String key = p.currentName();
      p.nextToken();
      if (!key.equals("in")) {
        throw unknownKey(key, at, List.of("in"));
      }
      if (seen) {
        throw new QueryException(at + ": \"in\" appears twice");
      }
      seen = true;
      if (p.currentToken() != JsonToken.START_ARRAY) {
        throw new QueryException(at + ".in: expected a list of entity keys (16 hex digits each)");
      }
      int n = 0;
      while (p.nextToken() != JsonToken.END_ARRAY) {
        if (n == Term.MAX_IN) {
          throw new QueryException(at + ".in: more than " + Term.MAX_IN + " entities");
        }
        if (p.currentToken() != JsonToken.VALUE_STRING) {
          throw new QueryException(at + ".in[" + n + "]: an entity key is a string of 16 hex digits");
        }
        out.add(entityKey(p.getText(), at + ".in[" + n + "]"));
        n++;
      }
      if (n == 0) {
        throw new QueryException(at + ".in: the list is empty; name at least one entity");
      }
    }
    if (!seen) {
      throw new QueryException(at + shape);
    }
    return out;
  }

  private static long entityKey(String s, String at) throws QueryException {
    Long k = Entities.parse(s);
    if (k == null) {
      throw new QueryException(at + ": \"" + Cursor.abbreviate(s) + "\" is not an entity key (16 hex digits, "
          + "as a row's resource.entity spells it)");
    }
    if (k == Resource.NO_ENTITY) {
      throw new QueryException(at + ": 0000000000000000 names no entity; resources without identity have "
          + "\"entity\": null and cannot be selected by entity");
    }
    return k;
  }

  private static List<String> termKeys() {
    List<String> keys = new ArrayList<>(SUBJECTS);
    for (Op o : Op.values()) {
      keys.add(o.key());
    }
    return keys;
  }

  private static Scalar scalar(JsonParser p, String at) throws IOException, QueryException {
    return switch (p.currentToken()) {
      case VALUE_STRING -> Scalar.string(p.getText());
      case VALUE_NUMBER_INT -> p.getNumberType() == JsonParser.NumberType.BIG_INTEGER
          ? Scalar.dbl(p.getDoubleValue())
          : Scalar.integer(p.getLongValue());
      case VALUE_NUMBER_FLOAT -> Scalar.dbl(p.getDoubleValue());
      case VALUE_TRUE -> Scalar.bool(true);
      case VALUE_FALSE -> Scalar.bool(false);
      case VALUE_NULL -> throw new QueryException(at + ": null; use {\"exists\": false} for an absent value");
      default -> throw new QueryException(at + ": a term compares one scalar (a string, number or boolean); "
          + "arrays and objects select nothing");
    };
  }

  private static String string(JsonParser p, String what) throws IOException, QueryException {
    if (p.currentToken() != JsonToken.VALUE_STRING) {
      throw new QueryException(what + ": expected a string");
    }
    return p.getText();
  }

  /** A time: a string in any of {@link Times}' forms, or an integer number of nanoseconds. */
  private static String time(JsonParser p, String what) throws IOException, QueryException {
    if (p.currentToken() == JsonToken.VALUE_NUMBER_INT && p.getNumberType() != JsonParser.NumberType.BIG_INTEGER) {
      return Long.toString(p.getLongValue());
    }
    if (p.currentToken() != JsonToken.VALUE_STRING) {
      throw new QueryException(what + ": expected a time string (integer nanoseconds, RFC 3339, or \"-1h\")");
    }
    return p.getText();
  }

  private static int bounded(JsonParser p, String what, int min, int max) throws IOException, QueryException {
    JsonToken t = p.currentToken();
    if (t == JsonToken.VALUE_NUMBER_INT && p.getNumberType() == JsonParser.NumberType.INT) {
      int v = p.getIntValue();
      if (v >= min && v <= max) {
        return v;
      }
    } else if (t != JsonToken.VALUE_NUMBER_INT && t != JsonToken.VALUE_NUMBER_FLOAT) {
      throw new QueryException(what + ": expected an integer from " + min + " to " + max);
    }
    throw new QueryException(what + ": " + p.getText() + " is outside " + min + ".." + max);
  }

  private static JsonParser open(byte[] json) throws QueryException {
    try {
      JsonParser p = JSON.createParser(json);
      JsonToken t = p.nextToken();
      if (t == null) {
        p.close();
        throw new QueryException("the body is empty; expected a JSON object");
      }
      if (t != JsonToken.START_OBJECT) {
        p.close();
        throw new QueryException("expected a JSON object, found " + t.asString());
      }
      return p;
    } catch (IOException e) {
      throw json(e);
    }
  }

  private static void end(JsonParser p) throws IOException, QueryException {
    if (p.nextToken() != null) {
      throw new QueryException("unexpected content after the document's closing brace");
    }
  }

  private static QueryException unknownKey(String key, String where, List<String> keys) {
    return new QueryException("unknown key \"" + Cursor.abbreviate(key) + "\" in " + where
        + "; the implemented keys are: " + String.join(", ", keys));
  }

  private static QueryException json(IOException e) {
    if (e instanceof StreamConstraintsException c) {
      return new QueryException("document refused: " + c.getOriginalMessage());
    }
    if (e instanceof JsonParseException j) {
      JsonLocation l = j.getLocation();
      return new QueryException("not valid JSON at line " + l.getLineNr() + ", column " + l.getColumnNr() + ": "
          + j.getOriginalMessage());
    }
    return new QueryException("cannot read the document: " + e.getMessage());
  }
}
