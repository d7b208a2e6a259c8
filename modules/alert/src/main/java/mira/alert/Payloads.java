package mira.alert;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.time.Instant;
import java.util.Locale;
import java.util.Map;

/**
 * The body each kind of target is sent (docs/alerting.md shows one of each): Mira's own JSON for a
 * webhook, an incoming-webhook message for Slack, an Events API v2 event for PagerDuty, a list of
 * one alert for Alertmanager's {@code POST /api/v2/alerts}.
 */
final class Payloads {
  private static final JsonFactory JSON = new JsonFactory();
  /** PagerDuty's summary is at most 1024 characters; Slack's section text 3000. */
  static final int PD_SUMMARY = 1024;
  static final int SLACK_TEXT = 3000;

  private Payloads() {}

  static byte[] body(Target t, Notice n) {
    return write(g -> {
      switch (t) {
        case Target.Webhook w -> webhook(g, n);
        case Target.Slack s -> slack(g, n);
        case Target.PagerDuty p -> pagerDuty(g, p, n);
        case Target.Alertmanager a -> alertmanager(g, n);
      }
    });
  }

  /** Mira's generic JSON: everything the other payloads are made from. */
  static void webhook(JsonGenerator g, Notice n) throws IOException {
    Rule r = n.rule();
    g.writeStartObject();
    g.writeStringField("rule", r.name());
    g.writeStringField("state", n.state());
    g.writeStringField("kind", r.kind().name().toLowerCase(Locale.ROOT));
    g.writeFieldName("value");
    number(g, n.outcome().value());
    g.writeObjectFieldStart("threshold");
    g.writeFieldName(r.above() ? "above" : "below");
    number(g, r.threshold());
    g.writeEndObject();
    g.writeObjectFieldStart("counts");
    g.writeNumberField("query", n.outcome().count());
    if (n.outcome().ofCount() < 0) {
      g.writeNullField("of");
    } else {
      g.writeNumberField("of", n.outcome().ofCount());
    }
    g.writeEndObject();
    labels(g, "labels", r.labels(), null);
    g.writeStringField("since", time(n.firingSince()));
    g.writeStringField("at", time(n.at()));
    g.writeObjectFieldStart("window");
    g.writeStringField("from", time(n.outcome().from()));
    g.writeStringField("to", time(n.outcome().to()));
    g.writeEndObject();
    g.writeStringField("signal", r.signal().name().toLowerCase(Locale.ROOT));
    g.writeStringField("filter", n.filter());
    nullable(g, "link", n.link());
    g.writeStringField("node", n.node());
    nullable(g, "partial", n.outcome().partial());
    g.writeStringField("summary", n.summary());
    g.writeEndObject();
  }

  /** A Slack incoming-webhook message: a fallback text and blocks with the link. */
  static void slack(JsonGenerator g, Notice n) throws IOException {
    String head = (n.firing() ? ":rotating_light: *FIRING* " : ":white_check_mark: *RESOLVED* ") + escape(n.rule().name());
    StringBuilder body = new StringBuilder(head).append('\n').append(escape(n.summary()));
    if (!n.filter().isEmpty()) {
      body.append("\n`").append(escape(n.filter()).replace('`', '\'')).append('`');
    }
    g.writeStartObject();
    g.writeStringField("text", (n.firing() ? "[FIRING] " : "[RESOLVED] ") + n.summary());
    g.writeArrayFieldStart("blocks");
    section(g, cut(body.toString(), SLACK_TEXT));
    if (!n.rule().labels().isEmpty() || n.link() != null) {
      StringBuilder ctx = new StringBuilder();
      for (Map.Entry<String, String> l : new java.util.TreeMap<>(n.rule().labels()).entrySet()) {
        ctx.append(ctx.isEmpty() ? "" : "  ").append(escape(l.getKey())).append('=').append(escape(l.getValue()));
      }
      if (n.link() != null) {
        ctx.append(ctx.isEmpty() ? "" : "  ").append('<').append(n.link()).append("|Open in Mira>");
      }
      g.writeStartObject();
      g.writeStringField("type", "context");
      g.writeArrayFieldStart("elements");
      g.writeStartObject();
      g.writeStringField("type", "mrkdwn");
      g.writeStringField("text", cut(ctx.toString(), SLACK_TEXT));
      g.writeEndObject();
      g.writeEndArray();
      g.writeEndObject();
    }
    g.writeEndArray();
    g.writeEndObject();
  }

  private static void section(JsonGenerator g, String mrkdwn) throws IOException {
    g.writeStartObject();
    g.writeStringField("type", "section");
    g.writeObjectFieldStart("text");
    g.writeStringField("type", "mrkdwn");
    g.writeStringField("text", mrkdwn);
    g.writeEndObject();
    g.writeEndObject();
  }

  /** PagerDuty Events API v2: trigger or resolve, deduplicated by the rule's name. */
  static void pagerDuty(JsonGenerator g, Target.PagerDuty p, Notice n) throws IOException {
    g.writeStartObject();
    g.writeStringField("routing_key", p.routingKey());
    g.writeStringField("event_action", n.firing() ? "trigger" : "resolve");
    g.writeStringField("dedup_key", n.rule().name());
    if (n.firing()) {
      g.writeObjectFieldStart("payload");
      g.writeStringField("summary", cut(n.summary(), PD_SUMMARY));
      g.writeStringField("source", n.node());
      g.writeStringField("severity", severity(n.rule().labels().get("severity")));
      g.writeStringField("timestamp", time(n.at()));
      g.writeStringField("class", n.rule().kind().name().toLowerCase(Locale.ROOT));
      if (n.rule().labels().containsKey("team")) {
        g.writeStringField("group", n.rule().labels().get("team"));
      }
      g.writeFieldName("custom_details");
      webhook(g, n);
      g.writeEndObject();
      if (n.link() != null) {
        g.writeArrayFieldStart("links");
        g.writeStartObject();
        g.writeStringField("href", n.link());
        g.writeStringField("text", "Open in Mira");
        g.writeEndObject();
        g.writeEndArray();
      }
      g.writeStringField("client", "Mira");
      if (n.link() != null) {
        g.writeStringField("client_url", n.link());
      }
    }
    g.writeEndObject();
  }

  /**
   * PagerDuty's severity from the rule's {@code severity} label: critical, error, warning and info
   * pass through, {@code page} is critical, anything else (or none) is error.
   */
  static String severity(String label) {
    if (label == null) {
      return "error";
    }
    return switch (label.toLowerCase(Locale.ROOT)) {
      case "critical", "page" -> "critical";
      case "warning", "warn" -> "warning";
      case "info" -> "info";
      default -> "error";
    };
  }

  /**
   * One alert for Alertmanager. While firing, {@code endsAt} lies {@link Alerting#amHorizon} ahead
   * and the alert is re-sent at every evaluation (Alertmanager resolves an alert whose endsAt
   * passed, so a node that stops sending lets its alerts lapse instead of firing forever); a
   * resolve sets {@code endsAt} to the evaluation time.
   */
  static void alertmanager(JsonGenerator g, Notice n) throws IOException {
    g.writeStartArray();
    g.writeStartObject();
    labels(g, "labels", n.rule().labels(), n.rule().name());
    g.writeObjectFieldStart("annotations");
    g.writeStringField("summary", n.summary());
    g.writeStringField("value", number(n.outcome().value()));
    g.writeStringField("threshold", (n.rule().above() ? "> " : "< ") + number(n.rule().threshold()));
    g.writeStringField("filter", n.filter());
    g.writeStringField("window", time(n.outcome().from()) + " .. " + time(n.outcome().to()));
    g.writeStringField("node", n.node());
    g.writeEndObject();
    g.writeStringField("startsAt", time(n.firingSince()));
    g.writeStringField("endsAt", time(n.firing() ? n.at() + Alerting.amHorizon(n.rule()) : n.at()));
    if (n.link() != null) {
      g.writeStringField("generatorURL", n.link());
    }
    g.writeEndObject();
    g.writeEndArray();
  }

  private static void labels(JsonGenerator g, String field, Map<String, String> labels, String alertname)
      throws IOException {
    g.writeObjectFieldStart(field);
    if (alertname != null) {
      g.writeStringField("alertname", alertname);
    }
    for (Map.Entry<String, String> l : new java.util.TreeMap<>(labels).entrySet()) {
      g.writeStringField(l.getKey(), l.getValue());
    }
    g.writeEndObject();
  }

  /** RFC 3339 in UTC with up to nanoseconds. */
  static String time(long ns) {
    return Instant.ofEpochSecond(Math.floorDiv(ns, 1_000_000_000L), Math.floorMod(ns, 1_000_000_000L)).toString();
  }

  /** A value as text: an integer without a fraction, NaN as "none". */
  static String number(double d) {
    if (Double.isNaN(d)) {
      return "none";
    }
    if (d == Math.rint(d) && Math.abs(d) < 1e15) {
      return Long.toString((long) d);
    }
    return Double.toString(d);
  }

  static void number(JsonGenerator g, double d) throws IOException {
    if (Double.isNaN(d) || Double.isInfinite(d)) {
      g.writeNull();
    } else if (d == Math.rint(d) && Math.abs(d) < 1e15) {
      g.writeNumber((long) d);
    } else {
      g.writeNumber(d);
    }
  }

  static void nullable(JsonGenerator g, String field, String value) throws IOException {
    if (value == null) {
      g.writeNullField(field);
    } else {
      g.writeStringField(field, value);
    }
  }

  /** Slack's three control characters in mrkdwn. */
  private static String escape(String s) {
    return s.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;");
  }

  private static String cut(String s, int max) {
    return s.length() <= max ? s : s.substring(0, max - 1) + "…";
  }

  @FunctionalInterface
  interface Writer {
    void write(JsonGenerator g) throws IOException;
  }

  static byte[] write(Writer w) {
    ByteArrayOutputStream out = new ByteArrayOutputStream(512);
    try (JsonGenerator g = JSON.createGenerator(out)) {
      w.write(g);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return out.toByteArray();
  }
}
