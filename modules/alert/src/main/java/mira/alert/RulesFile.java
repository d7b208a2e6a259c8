package mira.alert;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Pattern;
import mira.proto.wire.Signal;
import mira.query.doc.Documents;
import mira.query.doc.SearchQuery;
import mira.query.doc.SeriesQuery;
import mira.query.doc.Times;
import mira.query.result.QueryException;

/**
 * Reads a rules file (docs/alerting.md): KYAML read as strictly as the main config, every key
 * checked against a closed set, every query parsed by the same {@link Documents} parser as the
 * HTTP API, every target a rule names defined. The first problem found is the exception, naming
 * the position, the rule or target, and the key.
 */
public final class RulesFile {
  static final List<String> TOP_KEYS = List.of("rules", "targets");
  static final List<String> RULE_KEYS = List.of("name", "query", "of", "series", "over", "every", "for", "above",
      "below", "repeat", "labels", "targets");
  static final List<String> TARGET_KEYS = List.of("name", "webhook", "slack", "pagerduty", "alertmanager", "url",
      "headers");
  /** Keys of a query document the evaluator owns. */
  static final List<String> WINDOW_KEYS = List.of("from", "to", "limit", "after");
  /** Keys of a series document the evaluator owns. */
  static final List<String> SERIES_WINDOW_KEYS = List.of("from", "to", "step", "max_series", "max_points");

  static final String DEFAULT_EVERY = "1m";
  static final String DEFAULT_REPEAT = "4h";
  private static final Pattern NAME = Pattern.compile("[A-Za-z0-9._-]{1,128}");
  private static final Pattern LABEL = Pattern.compile("[A-Za-z_][A-Za-z0-9_]{0,127}");
  private static final Pattern NUMBER = Pattern.compile("-?(0|[1-9][0-9]*)(\\.[0-9]+)?([eE][+-]?[0-9]+)?");
  private static final JsonFactory JSON = new JsonFactory();

  private RulesFile() {}

  /** Reads and checks {@code file}. */
  public static Rules load(Path file) throws RulesException {
    String text;
    try {
      text = Files.readString(file, StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new RulesException("rules file " + file + " cannot be read: "
          + (e instanceof java.nio.file.NoSuchFileException ? "no such file" : e.toString()));
    }
    return parse(file.toString(), text);
  }

  /** Checks {@code text}; {@code name} labels positions in messages. */
  public static Rules parse(String name, String text) throws RulesException {
    Kyaml.Obj top = obj(Kyaml.read(name, text), "the rules file");
    keys(top, TOP_KEYS, "the rules file");
    Map<String, Target> targets = new LinkedHashMap<>();
    if (top.entries().get("targets") != null) {
      for (Kyaml.Value v : seq(top.entries().get("targets"), "targets").items()) {
        Target t = target(obj(v, "each target"));
        if (targets.putIfAbsent(t.name(), t) != null) {
          throw new RulesException(v.at() + ": target \"" + t.name() + "\" is defined twice");
        }
      }
    }
    List<Rule> rules = new ArrayList<>();
    Set<String> names = new java.util.HashSet<>();
    Kyaml.Value rv = top.entries().get("rules");
    if (rv == null) {
      throw new RulesException(top.at() + ": rules is required (an empty list turns every rule off)");
    }
    for (Kyaml.Value v : seq(rv, "rules").items()) {
      Rule r = rule(obj(v, "each rule"), targets);
      if (!names.add(r.name())) {
        throw new RulesException(v.at() + ": rule \"" + r.name() + "\" is defined twice");
      }
      rules.add(r);
    }
    return new Rules(rules, targets, name);
  }

  private static Rule rule(Kyaml.Obj o, Map<String, Target> targets) throws RulesException {
    Kyaml.Value nv = o.entries().get("name");
    if (nv == null) {
      throw new RulesException(o.at() + ": a rule needs a name");
    }
    String name = str(nv, "name");
    if (!NAME.matcher(name).matches()) {
      throw new RulesException(nv.at() + ": rule name \"" + name + "\" must be 1 to 128 of letters, digits, '.', '_', '-'");
    }
    String who = "rule \"" + name + "\"";
    keys(o, RULE_KEYS, who);
    Map<String, Kyaml.Value> e = o.entries();
    long over = duration(required(o, "over", who), who + ": over");
    long every = duration(e.getOrDefault("every", new Kyaml.Str(DEFAULT_EVERY, o.at())), who + ": every");
    long hold = e.containsKey("for") ? durationOrZero(e.get("for"), who + ": for") : 0;
    long repeat = duration(e.getOrDefault("repeat", new Kyaml.Str(DEFAULT_REPEAT, o.at())), who + ": repeat");
    if (over < 1_000_000_000L || every < 1_000_000_000L) {
      throw new RulesException((over < 1_000_000_000L ? e.get("over") : e.get("every")).at() + ": " + who
          + ": over and every are at least 1s");
    }
    if (over % 1_000_000 != 0) {
      throw new RulesException(e.get("over").at() + ": " + who + ": over is whole milliseconds");
    }
    if (e.containsKey("above") == e.containsKey("below")) {
      throw new RulesException(o.at() + ": " + who + ": give exactly one of above and below");
    }
    boolean above = e.containsKey("above");
    double threshold = number(e.get(above ? "above" : "below"), who + ": " + (above ? "above" : "below"));

    Map<String, String> labels = new LinkedHashMap<>();
    if (e.containsKey("labels")) {
      Kyaml.Obj lo = obj(e.get("labels"), who + ": labels");
      for (Map.Entry<String, Kyaml.Value> l : lo.entries().entrySet()) {
        if (!LABEL.matcher(l.getKey()).matches() || l.getKey().equals("alertname")) {
          throw new RulesException(lo.keyAt().get(l.getKey()) + ": " + who + ": label \"" + l.getKey()
              + "\" must match [A-Za-z_][A-Za-z0-9_]* and not be alertname (that is the rule's name)");
        }
        labels.put(l.getKey(), str(l.getValue(), who + ": labels." + l.getKey()));
      }
    }
    List<String> ruleTargets = new ArrayList<>();
    if (e.containsKey("targets")) {
      for (Kyaml.Value t : seq(e.get("targets"), who + ": targets").items()) {
        String tn = str(t, who + ": targets");
        if (!targets.containsKey(tn)) {
          throw new RulesException(t.at() + ": " + who + ": targets: unknown target \"" + tn + "\"; defined: "
              + (targets.isEmpty() ? "none" : String.join(", ", targets.keySet())));
        }
        if (ruleTargets.contains(tn)) {
          throw new RulesException(t.at() + ": " + who + ": targets: \"" + tn + "\" is named twice");
        }
        ruleTargets.add(tn);
      }
    }

    boolean hasQuery = e.containsKey("query");
    boolean hasSeries = e.containsKey("series");
    if (hasQuery == hasSeries) {
      throw new RulesException(o.at() + ": " + who + ": give exactly one of query (a count or, with of, a ratio) "
          + "and series (a metric rule)");
    }
    if (hasSeries) {
      if (e.containsKey("of")) {
        throw new RulesException(o.keyAt().get("of") + ": " + who + ": of goes with query, not series");
      }
      Kyaml.Obj so = obj(e.get("series"), who + ": series");
      for (String k : SERIES_WINDOW_KEYS) {
        if (so.entries().containsKey(k)) {
          throw new RulesException(so.keyAt().get(k) + ": " + who + ": series: " + k
              + " is not allowed in a rule; the evaluator reads one step of `over` ending at each evaluation");
        }
      }
      if (!so.entries().containsKey("name") || !so.entries().containsKey("fn")) {
        throw new RulesException(so.at() + ": " + who + ": series needs a name and an fn (last, min, max, avg, "
            + "rate, increase, quantile)");
      }
      String members = members(so);
      SeriesQuery sq = seriesQuery(members, 0, over, who);
      return new Rule(name, Rule.Kind.METRIC, Signal.METRICS, sq.where(), null, null, members, over, every, hold, repeat,
          above, threshold, labels, ruleTargets);
    }
    SearchQuery q = searchQuery(obj(e.get("query"), who + ": query"), who + ": query");
    SearchQuery of = e.containsKey("of") ? searchQuery(obj(e.get("of"), who + ": of"), who + ": of") : null;
    return new Rule(name, of == null ? Rule.Kind.COUNT : Rule.Kind.RATIO, q.signal(), q.where(),
        of == null ? null : of.where(), of == null ? null : of.signal(), null, over, every, hold, repeat, above,
        threshold, labels, ruleTargets);
  }

  /** A query document as the API parses it, refusing the keys the evaluator owns. */
  private static SearchQuery searchQuery(Kyaml.Obj o, String who) throws RulesException {
    for (String k : WINDOW_KEYS) {
      if (o.entries().containsKey(k)) {
        throw new RulesException(o.keyAt().get(k) + ": " + who + ": " + k
            + " is not allowed in a rule; the evaluator owns the window (over) and counts every match");
      }
    }
    try {
      return Documents.search(("{" + members(o) + "}").getBytes(StandardCharsets.UTF_8), 0);
    } catch (QueryException ex) {
      throw new RulesException(o.at() + ": " + who + ": " + ex.getMessage());
    }
  }

  /**
   * The series document of a metric rule over [{@code to - over}, {@code to}): one step, starting
   * at the window's start.
   */
  static SeriesQuery seriesQuery(String members, long to, long over, String who) throws RulesException {
    String doc = "{" + members + ",\"from\":\"" + (to - over) + "\",\"to\":\"" + (to - 1) + "\",\"step\":\""
        + over / 1_000_000 + "ms\"}";
    SeriesQuery q;
    try {
      q = Documents.series(doc.getBytes(StandardCharsets.UTF_8), to);
    } catch (QueryException ex) {
      throw new RulesException(who + ": series: " + ex.getMessage());
    }
    return new SeriesQuery(q.name(), q.from(), q.to(), q.where(), q.maxSeries(), q.maxPoints(),
        q.fn().startingAtWindow());
  }

  private static Target target(Kyaml.Obj o) throws RulesException {
    Kyaml.Value nv = o.entries().get("name");
    if (nv == null) {
      throw new RulesException(o.at() + ": a target needs a name");
    }
    String name = str(nv, "name");
    if (!NAME.matcher(name).matches()) {
      throw new RulesException(nv.at() + ": target name \"" + name + "\" must be 1 to 128 of letters, digits, '.', '_', '-'");
    }
    String who = "target \"" + name + "\"";
    keys(o, TARGET_KEYS, who);
    Map<String, Kyaml.Value> e = o.entries();
    List<String> kinds = new ArrayList<>();
    for (String k : List.of("webhook", "slack", "pagerduty", "alertmanager")) {
      if (e.containsKey(k)) {
        kinds.add(k);
      }
    }
    if (kinds.size() != 1) {
      throw new RulesException(o.at() + ": " + who + ": give exactly one of webhook, slack, pagerduty, alertmanager");
    }
    String kind = kinds.getFirst();
    if (e.containsKey("url") && !kind.equals("pagerduty")) {
      throw new RulesException(o.keyAt().get("url") + ": " + who + ": url goes with pagerduty only");
    }
    if (e.containsKey("headers") && !kind.equals("webhook")) {
      throw new RulesException(o.keyAt().get("headers") + ": " + who + ": headers go with webhook only");
    }
    return switch (kind) {
      case "webhook" -> {
        Map<String, String> headers = new LinkedHashMap<>();
        if (e.containsKey("headers")) {
          Kyaml.Obj h = obj(e.get("headers"), who + ": headers");
          for (Map.Entry<String, Kyaml.Value> x : h.entries().entrySet()) {
            if (!x.getKey().matches("[A-Za-z0-9!#$%&'*+.^_`|~-]+")
                || Set.of("content-type", "content-length", "host", "connection").contains(x.getKey().toLowerCase())) {
              throw new RulesException(h.keyAt().get(x.getKey()) + ": " + who + ": header \"" + x.getKey()
                  + "\" is not a header Mira may set");
            }
            headers.put(x.getKey(), str(x.getValue(), who + ": headers." + x.getKey()));
          }
        }
        yield new Target.Webhook(name, url(e.get("webhook"), who + ": webhook"), headers);
      }
      case "slack" -> new Target.Slack(name, url(e.get("slack"), who + ": slack"));
      case "pagerduty" -> {
        String key = str(e.get("pagerduty"), who + ": pagerduty");
        if (key.isBlank()) {
          throw new RulesException(e.get("pagerduty").at() + ": " + who + ": pagerduty is the routing key and is empty");
        }
        yield new Target.PagerDuty(name, key,
            e.containsKey("url") ? url(e.get("url"), who + ": url") : Target.PagerDuty.DEFAULT_URL);
      }
      default -> new Target.Alertmanager(name, url(e.get("alertmanager"), who + ": alertmanager"));
    };
  }

  /** An http or https URL with a host. The value is a credential: it is not echoed. */
  private static URI url(Kyaml.Value v, String who) throws RulesException {
    String s = str(v, who);
    URI u;
    try {
      u = new URI(s);
    } catch (URISyntaxException ex) {
      throw new RulesException(v.at() + ": " + who + ": not a URL (" + ex.getReason() + " at index " + ex.getIndex() + ")");
    }
    if (u.getScheme() == null || !(u.getScheme().equals("http") || u.getScheme().equals("https"))) {
      throw new RulesException(v.at() + ": " + who + ": the URL must start with http:// or https://");
    }
    if (u.getHost() == null || u.getHost().isEmpty()) {
      throw new RulesException(v.at() + ": " + who + ": the URL has no host");
    }
    return u;
  }

  /** The members of a mapping as JSON text, without braces. */
  private static String members(Kyaml.Obj o) {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    try (JsonGenerator g = JSON.createGenerator(out)) {
      write(g, o, null);
    } catch (IOException ex) {
      throw new UncheckedIOException(ex);
    }
    String s = out.toString(StandardCharsets.UTF_8);
    return s.substring(1, s.length() - 1);
  }

  /**
   * KYAML to JSON. Every KYAML scalar is a string; the query parser compares a quoted value by the
   * stored value's type (docs/api.md), so that is right everywhere except where the grammar wants a
   * JSON type: {@code exists} takes a boolean and a series' {@code quantile} a number.
   */
  private static void write(JsonGenerator g, Kyaml.Value v, String key) throws IOException {
    switch (v) {
      case Kyaml.Obj o -> {
        g.writeStartObject();
        for (Map.Entry<String, Kyaml.Value> x : o.entries().entrySet()) {
          g.writeFieldName(x.getKey());
          write(g, x.getValue(), x.getKey());
        }
        g.writeEndObject();
      }
      case Kyaml.Seq s -> {
        g.writeStartArray();
        for (Kyaml.Value item : s.items()) {
          write(g, item, key);
        }
        g.writeEndArray();
      }
      case Kyaml.Str s -> {
        if ("exists".equals(key) && (s.value().equals("true") || s.value().equals("false"))) {
          g.writeBoolean(s.value().equals("true"));
        } else if ("quantile".equals(key) && NUMBER.matcher(s.value()).matches()) {
          g.writeNumber(s.value());
        } else {
          g.writeString(s.value());
        }
      }
    }
  }

  private static void keys(Kyaml.Obj o, List<String> allowed, String who) throws RulesException {
    for (String k : o.entries().keySet()) {
      if (!allowed.contains(k)) {
        throw new RulesException(o.keyAt().get(k) + ": " + who + ": unknown key " + k + "; valid keys are "
            + String.join(", ", allowed));
      }
    }
  }

  private static Kyaml.Value required(Kyaml.Obj o, String key, String who) throws RulesException {
    Kyaml.Value v = o.entries().get(key);
    if (v == null) {
      throw new RulesException(o.at() + ": " + who + ": " + key + " is required");
    }
    return v;
  }

  private static Kyaml.Obj obj(Kyaml.Value v, String what) throws RulesException {
    if (v instanceof Kyaml.Obj o) {
      return o;
    }
    throw new RulesException(v.at() + ": " + what + " must be a mapping {...}");
  }

  private static Kyaml.Seq seq(Kyaml.Value v, String what) throws RulesException {
    if (v instanceof Kyaml.Seq s) {
      return s;
    }
    throw new RulesException(v.at() + ": " + what + " must be a list [...]");
  }

  private static String str(Kyaml.Value v, String what) throws RulesException {
    if (v instanceof Kyaml.Str s) {
      return s.value();
    }
    throw new RulesException(v.at() + ": " + what + " must be a double-quoted string");
  }

  private static double number(Kyaml.Value v, String what) throws RulesException {
    String s = str(v, what);
    if (!NUMBER.matcher(s).matches()) {
      throw new RulesException(v.at() + ": " + what + ": \"" + s + "\" is not a number (\"10\", \"0.05\", \"1e6\")");
    }
    double d = Double.parseDouble(s);
    if (Double.isInfinite(d)) {
      throw new RulesException(v.at() + ": " + what + ": \"" + s + "\" is out of range");
    }
    return d;
  }

  private static long durationOrZero(Kyaml.Value v, String what) throws RulesException {
    if (v instanceof Kyaml.Str s && s.value().matches("0+(ms|s|m|h|d)?")) {
      return 0;
    }
    return duration(v, what);
  }

  /** A positive duration: digits then ms, s, m, h or d (the series step's spelling). */
  static long duration(Kyaml.Value v, String what) throws RulesException {
    String s = str(v, what);
    long ns = Times.duration(s);
    if (ns <= 0) {
      throw new RulesException(v.at() + ": " + what + ": \"" + s
          + "\" is not a duration; write digits then ms, s, m, h or d (\"30s\", \"5m\")");
    }
    return ns;
  }

  /** A duration in the rules file's own spelling, for messages and documents. */
  static String spell(long ns) {
    if (ns == 0) {
      return "0s";
    }
    for (long[] u : new long[][] {{86_400_000_000_000L, 'd'}, {3_600_000_000_000L, 'h'}, {60_000_000_000L, 'm'},
        {1_000_000_000L, 's'}}) {
      if (ns % u[0] == 0) {
        return ns / u[0] + String.valueOf((char) u[1]);
      }
    }
    return ns / 1_000_000 + "ms";
  }
}
