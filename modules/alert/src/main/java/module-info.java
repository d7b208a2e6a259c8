/**
 * Alerting: rules that embed query documents, evaluated on a timer against {@link mira.query.LocalQueries},
 * delivered over HTTP(S) to webhooks, Slack, PagerDuty and Alertmanager. Knows nothing of Helidon:
 * the server routes {@code GET /api/v1/alerts} to {@link mira.alert.Alerting#render}.
 */
module mira.alert {
  requires mira.query;
  requires com.fasterxml.jackson.core;
  requires org.snakeyaml.engine;
  requires java.net.http;

  exports mira.alert;
}
