package mira.alert;

import java.net.URI;
import java.util.Map;

/**
 * Where a rule's edges are sent. A target's URL, routing key and headers are credentials (a Slack
 * webhook URL is one by itself), so no target prints them: {@link #toString} and
 * {@link #redacted} give the scheme and host only.
 */
public sealed interface Target {
  /** The name rules refer to it by. */
  String name();

  /** Where the POST goes. */
  URI url();

  /** The kind, as the rules file spells its key: webhook, slack, pagerduty, alertmanager. */
  String kind();

  /** Scheme, host and port of the URL: what /api/v1/alerts and the log may show. */
  default String redacted() {
    URI u = url();
    return u.getScheme() + "://" + u.getHost() + (u.getPort() < 0 ? "" : ":" + u.getPort());
  }

  /** A generic JSON POST, with extra headers (e.g. Authorization). */
  record Webhook(String name, URI url, Map<String, String> headers) implements Target {
    public Webhook {
      headers = Map.copyOf(headers);
    }

    @Override
    public String kind() {
      return "webhook";
    }

    @Override
    public String toString() {
      return "webhook " + name + " " + redacted();
    }
  }

  /** A Slack incoming webhook. */
  record Slack(String name, URI url) implements Target {
    @Override
    public String kind() {
      return "slack";
    }

    @Override
    public String toString() {
      return "slack " + name + " " + redacted();
    }
  }

  /** PagerDuty Events API v2: {@code url} is the enqueue endpoint (the default, the EU one, a proxy). */
  record PagerDuty(String name, String routingKey, URI url) implements Target {
    /** PagerDuty's documented enqueue endpoint. */
    public static final URI DEFAULT_URL = URI.create("https://events.pagerduty.com/v2/enqueue");

    @Override
    public String kind() {
      return "pagerduty";
    }

    @Override
    public String toString() {
      return "pagerduty " + name + " " + redacted();
    }
  }

  /** An Alertmanager: alerts are POSTed to {@code base}/api/v2/alerts. */
  record Alertmanager(String name, URI base) implements Target {
    @Override
    public URI url() {
      String b = base.toString();
      return URI.create((b.endsWith("/") ? b.substring(0, b.length() - 1) : b) + "/api/v2/alerts");
    }

    @Override
    public String kind() {
      return "alertmanager";
    }

    @Override
    public String toString() {
      return "alertmanager " + name + " " + redacted();
    }
  }
}
