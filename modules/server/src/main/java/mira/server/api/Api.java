package mira.server.api;

import io.helidon.webserver.http.HttpRouting;
import java.util.function.Consumer;
import mira.query.LocalQueries;
import mira.server.ingest.Ingest;

/** Every route of the HTTP API, for {@code MiraServer.start}. */
public final class Api {
  private Api() {}

  /** The stats route and the query routes over {@code queries}. */
  public static Consumer<HttpRouting.Builder> routes(String node, Ingest ingest, LocalQueries queries) {
    StatsRoute stats = new StatsRoute(node, ingest);
    QueryRoutes query = new QueryRoutes(queries);
    return r -> {
      stats.route(r);
      query.route(r);
    };
  }
}
