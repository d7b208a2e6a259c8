package mira.server.api;

import io.helidon.http.HeaderNames;
import io.helidon.http.Method;
import io.helidon.webserver.http.HttpRouting;
import mira.alert.Alerting;

/** {@code GET /api/v1/alerts}: always routed; with alerting off the list is empty and {@code enabled} false. */
final class AlertsRoute {
  private final Alerting alerting;

  AlertsRoute(Alerting alerting) {
    this.alerting = alerting;
  }

  void route(HttpRouting.Builder r) {
    r.any("/api/v1/alerts", (req, res) -> {
      if (req.prologue().method() != Method.GET) {
        res.status(405).header(HeaderNames.ALLOW, "GET").header(HeaderNames.CONTENT_TYPE, "application/json")
            .send("{\"error\":\"" + req.prologue().method().text() + " is not allowed on /api/v1/alerts; use GET\"}");
        return;
      }
      res.header(HeaderNames.CONTENT_TYPE, "application/json");
      res.send(alerting.render());
    });
  }
}
