package mira.bench.load;

import java.util.List;
import java.util.SplittableRandom;

/**
 * One kind of question a reader asks, against the query API of DESIGN section 6 (docs/api.md once
 * the query API lands): a route, and how to make a request for it from what is known so far.
 * Adding a class is adding an entry to {@link #ALL}; nothing else names them.
 */
interface QueryClass {
  /** A request: method GET (body null) or POST with a JSON body, and the path. */
  record Request(String method, String path, String body) {}

  /** The name in reports (lowercase, no spaces). */
  String name();

  /** The route the class uses, as the report names it when the route is missing. */
  String route();

  /** The next request, or null if the class needs a known value and none is known yet. */
  Request next(Known known, SplittableRandom rnd);

  /** A request that exercises the route whatever is known, to probe whether it exists. */
  Request probe();

  /** A class built from functions; the usual way to define one. */
  record Of(String name, String route, Next next, Request probe) implements QueryClass {
    @Override
    public Request next(Known known, SplittableRandom rnd) {
      return next.next(known, rnd);
    }
  }

  @FunctionalInterface
  interface Next {
    Request next(Known known, SplittableRandom rnd);
  }

  String QUERY = "/api/v1/query";
  String SERIES = "/api/v1/series";
  String TRACES = "/api/v1/traces/";
  /** The window of bounded classes: the run's data is newer than this. */
  String WINDOW = "\"from\": \"-15m\", \"to\": \"now\"";

  static Request query(String body) {
    return new Request("POST", QUERY, body);
  }

  /**
   * The classes: the newest 100 log records; logs with a request id that was acknowledged (a
   * needle in the whole window); logs with a well-formed request id that was never sent; a trace
   * by id; spans with {@code http.response.status_code >= 500} (an ordered comparison on an
   * integer attribute); a metric series; a substring of log bodies with no time bound.
   */
  List<QueryClass> ALL = List.of(
      new Of("last100", "POST " + QUERY,
          (k, r) -> query("{\"signal\": \"logs\", " + WINDOW + ", \"limit\": 100}"),
          query("{\"signal\": \"logs\", " + WINDOW + ", \"limit\": 100}")),
      new Of("attr_match", "POST " + QUERY,
          (k, r) -> {
            String id = k.requestId(r);
            return id == null ? null : query("{\"signal\": \"logs\", " + WINDOW
                + ", \"where\": [{\"attr\": \"request.id\", \"eq\": \"" + id + "\"}], \"limit\": 100}");
          },
          query("{\"signal\": \"logs\", " + WINDOW + ", \"where\": [{\"attr\": \"request.id\", \"eq\": \"0\"}]}")),
      new Of("attr_absent", "POST " + QUERY,
          (k, r) -> query("{\"signal\": \"logs\", " + WINDOW + ", \"where\": [{\"attr\": \"request.id\", \"eq\": \"absent"
              + Long.toHexString(r.nextLong()) + "\"}], \"limit\": 100}"),
          query("{\"signal\": \"logs\", " + WINDOW + ", \"where\": [{\"attr\": \"request.id\", \"eq\": \"absent\"}]}")),
      new Of("trace_by_id", "GET " + TRACES + "{trace_id}",
          (k, r) -> {
            String id = k.traceId(r);
            return id == null ? null : new Request("GET", TRACES + id, null);
          },
          new Request("GET", TRACES + "0123456789abcdef0123456789abcdef", null)),
      new Of("ordered", "POST " + QUERY,
          (k, r) -> query("{\"signal\": \"traces\", " + WINDOW
              + ", \"where\": [{\"attr\": \"http.response.status_code\", \"gte\": 500}], \"limit\": 100}"),
          query("{\"signal\": \"traces\", " + WINDOW
              + ", \"where\": [{\"attr\": \"http.response.status_code\", \"gte\": 500}], \"limit\": 100}")),
      new Of("series", "POST " + SERIES,
          (k, r) -> new Request("POST", SERIES, "{\"name\": \"http.server.requests\", " + WINDOW + "}"),
          new Request("POST", SERIES, "{\"name\": \"http.server.requests\", " + WINDOW + "}")),
      new Of("substring", "POST " + QUERY,
          (k, r) -> query("{\"signal\": \"logs\", \"from\": \"0\", \"to\": \"now\", "
              + "\"where\": [{\"text\": \"SQLTransientConnectionException\"}], \"limit\": 100}"),
          query("{\"signal\": \"logs\", \"from\": \"0\", \"to\": \"now\", "
              + "\"where\": [{\"text\": \"SQLTransientConnectionException\"}], \"limit\": 100}")));
}
