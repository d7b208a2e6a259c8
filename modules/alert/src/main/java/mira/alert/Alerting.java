package mira.alert;

import com.fasterxml.jackson.core.JsonGenerator;
import java.io.IOException;
import java.lang.System.Logger.Level;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.LongSupplier;
import mira.proto.wire.Signal;
import mira.query.LocalQueries;
import mira.query.doc.FilterText;
import mira.query.result.BusyException;
import mira.query.result.QueryException;

/**
 * The evaluator: every rule on its own virtual thread, evaluated every {@code every} over the
 * window of {@code over} ending then, its edges delivered to its targets.
 *
 * <p>Rules do not wait on each other: each has its own thread and its own schedule, and a slow
 * rule (or a slow target, up to {@link Delivery#TIMEOUT} per POST, the targets of one rule in
 * parallel) delays only itself. An evaluation that overruns its period starts the next one at once
 * rather than queueing the missed ones.
 *
 * <p>What a target is sent: at each evaluation, a target that has not acknowledged the rule's
 * current state (firing or not) is sent it, so a failed POST is retried at the next evaluation and
 * nothing is queued; a firing rule is re-sent after {@code repeat}; an Alertmanager is sent a
 * firing rule at every evaluation, as Prometheus does, with {@code endsAt} ahead by
 * {@link #amHorizon}, so its alerts lapse if this node stops.
 *
 * <p>{@link #replace} swaps in a reloaded file: a rule whose definition is unchanged keeps its
 * state (a firing rule stays firing, its targets are not told again); a rule removed or changed
 * while its targets believe it firing has them sent a resolve.
 */
public final class Alerting implements AutoCloseable {
  private static final System.Logger LOG = System.getLogger("mira.alert");

  private final Evaluator evaluator;
  private final Delivery delivery;
  private final String node;
  private final String linkBase;
  private final LongSupplier clock;
  private final boolean enabled;

  private final Object lock = new Object();
  private Rules rules = Rules.NONE;
  private final Map<String, RuleState> states = new LinkedHashMap<>();
  private final Map<String, Thread> runners = new HashMap<>();
  private final Map<String, ReentrantLock> evaluating = new HashMap<>();
  private long loadedAt;
  private String reloadError;
  private boolean closed;
  private boolean started;

  /** Computes a rule's outcome at a time: {@link Evaluation#run} over a node's queries. */
  @FunctionalInterface
  interface Evaluator {
    Evaluation.Outcome evaluate(Rule r, long now) throws BusyException, IOException, QueryException, RulesException;
  }

  Alerting(Evaluator evaluator, Delivery delivery, String node, String linkBase, LongSupplier clock,
      boolean enabled) {
    this.evaluator = evaluator;
    this.delivery = delivery;
    this.node = node;
    this.linkBase = linkBase;
    this.clock = clock;
    this.enabled = enabled;
  }

  /** Alerting off: no rules, and {@link #render} says so. */
  public static Alerting off() {
    return new Alerting(null, null, "", "", () -> 0, false);
  }

  /**
   * An evaluator over {@code queries}, not yet running any rule: {@link #replace} gives it rules
   * and {@link #start} starts their threads.
   *
   * @param linkBase the UI's external origin for links, or empty for no links
   * @param clock the wall clock, ns since the epoch (the windows end at it)
   */
  public static Alerting create(LocalQueries queries, Delivery delivery, String node, String linkBase,
      LongSupplier clock) {
    return create(Reads.of(queries), delivery, node, linkBase, clock);
  }

  /** An evaluator over {@code reads}: a replica with peers passes the cluster's, so rules count every node's records. */
  public static Alerting create(Reads reads, Delivery delivery, String node, String linkBase, LongSupplier clock) {
    return new Alerting((r, now) -> Evaluation.run(r, reads, now), delivery, node, linkBase, clock, true);
  }

  /** True unless built by {@link #off}. */
  public boolean enabled() {
    return enabled;
  }

  /** How far ahead of each evaluation a firing alert's endsAt lies for Alertmanager: 4 periods, at least 1m. */
  static long amHorizon(Rule r) {
    return Math.max(4 * r.every(), Duration.ofMinutes(1).toNanos());
  }

  /**
   * Swaps in {@code next} (a loaded, checked file) and clears any reload error. Rules already
   * running with the same definition keep their state; the others start from ok.
   */
  public void replace(Rules next) {
    List<Runnable> resolves = new ArrayList<>();
    synchronized (lock) {
      Map<String, Rule> kept = new HashMap<>();
      for (Rule r : next.rules()) {
        kept.put(r.name(), r);
      }
      for (Rule old : rules.rules()) {
        Rule now = kept.get(old.name());
        boolean same = now != null && now.equals(old) && sameTargets(old, rules, next);
        if (!same) {
          Thread t = runners.remove(old.name());
          if (t != null) {
            t.interrupt();
          }
          RuleState s = states.remove(old.name());
          evaluating.remove(old.name());
          if (s != null) {
            resolves.add(() -> resolveAll(old, rules, s));
          }
        }
      }
      Map<String, RuleState> ordered = new LinkedHashMap<>();
      for (Rule r : next.rules()) {
        RuleState s = states.get(r.name());
        if (s == null) {
          s = new RuleState();
          for (String t : r.targets()) {
            s.targets.put(t, new RuleState.Told());
          }
        }
        ordered.put(r.name(), s);
        evaluating.computeIfAbsent(r.name(), k -> new ReentrantLock());
      }
      states.clear();
      states.putAll(ordered);
      rules = next;
      loadedAt = clock.getAsLong();
      reloadError = null;
      if (!runners.isEmpty() || started) {
        startMissing();
      }
    }
    for (Runnable r : resolves) {
      Thread.ofVirtual().name("mira-alert-resolve").start(r);
    }
    LOG.log(Level.INFO, "alert rules loaded: " + next);
  }

  /** Starts a thread for every rule (and, after a {@link #replace}, for every new rule). */
  public void start() {
    synchronized (lock) {
      started = true;
      startMissing();
    }
  }

  private void startMissing() {
    if (closed) {
      return;
    }
    for (Rule r : rules.rules()) {
      if (!runners.containsKey(r.name())) {
        Thread t = Thread.ofVirtual().name("mira-alert-" + r.name()).unstarted(() -> loop(r));
        runners.put(r.name(), t);
        t.start();
      }
    }
  }

  private static boolean sameTargets(Rule r, Rules a, Rules b) {
    for (String t : r.targets()) {
      if (!a.targets().get(t).equals(b.targets().get(t))) {
        return false;
      }
    }
    return true;
  }

  /** Records that a reload failed: the old rules keep running, surfaces show {@code message}. */
  public void reloadFailed(String message) {
    synchronized (lock) {
      reloadError = message;
    }
    LOG.log(Level.ERROR, "alert rules not reloaded, the previous rules keep running: " + message);
  }

  private void loop(Rule r) {
    long next = System.nanoTime();
    while (!Thread.currentThread().isInterrupted()) {
      long wait = next - System.nanoTime();
      if (wait > 0) {
        try {
          Thread.sleep(Duration.ofNanos(wait));
        } catch (InterruptedException e) {
          return;
        }
      }
      evaluate(r.name(), clock.getAsLong());
      next += r.every();
      long t = System.nanoTime();
      if (next < t) {
        next = t;
      }
    }
  }

  /**
   * Evaluates rule {@code name} once at {@code now} (ns) and delivers what changed. Returns false
   * if no such rule is loaded. The timer calls this; tests call it with their own clock.
   */
  boolean evaluate(String name, long now) {
    Rule r;
    RuleState s;
    ReentrantLock l;
    Map<String, Target> targets;
    synchronized (lock) {
      s = states.get(name);
      l = evaluating.get(name);
      r = rules.rules().stream().filter(x -> x.name().equals(name)).findFirst().orElse(null);
      targets = rules.targets();
    }
    if (r == null || s == null) {
      return false;
    }
    l.lock();
    try {
      long started = System.nanoTime();
      RuleState.Edge edge;
      try {
        Evaluation.Outcome o = evaluator.evaluate(r, now);
        synchronized (s) {
          s.last = o;
        }
        edge = s.advance(r.breached(o.value()), now, r.hold());
      } catch (BusyException e) {
        s.failed("the node is too busy to evaluate: " + e.getMessage(), now);
        edge = RuleState.Edge.NONE;
      } catch (IOException | QueryException | RulesException | RuntimeException e) {
        s.failed(e.getClass().getSimpleName() + ": " + e.getMessage(), now);
        edge = RuleState.Edge.NONE;
      }
      synchronized (s) {
        s.evaluatedAt = now;
        s.tookNs = System.nanoTime() - started;
        s.evaluations++;
      }
      if (edge != RuleState.Edge.NONE) {
        LOG.log(Level.INFO, "alert " + r.name() + " " + (edge == RuleState.Edge.FIRED ? "firing" : "resolved")
            + ": " + Payloads.number(s.last.value()));
      }
      deliver(r, s, targets, now);
    } finally {
      l.unlock();
    }
    return true;
  }

  /** Sends each target what it has not acknowledged; targets in parallel, each bounded by the timeout. */
  private void deliver(Rule r, RuleState s, Map<String, Target> targets, long now) {
    boolean firing;
    Evaluation.Outcome o;
    long since;
    synchronized (s) {
      firing = s.phase == RuleState.Phase.FIRING;
      o = s.last;
      since = firing ? s.since : s.firingStartedAt;
    }
    if (o == null) {
      return;
    }
    List<Thread> sends = new ArrayList<>();
    for (String name : r.targets()) {
      Target t = targets.get(name);
      RuleState.Told told = s.targets.get(name);
      boolean send;
      synchronized (s) {
        send = firing != told.firing
            || (firing && (t instanceof Target.Alertmanager || now - told.toldAt >= r.repeat()));
      }
      if (!send) {
        continue;
      }
      Notice n = notice(r, firing, o, since, now);
      sends.add(Thread.ofVirtual().name("mira-alert-send").start(() -> {
        Delivery.Result res = delivery.send(t, n);
        synchronized (s) {
          told.attemptAt = now;
          told.attemptState = n.state();
          told.attemptOk = res.ok();
          told.attemptStatus = res.status();
          told.attemptError = res.error();
          if (res.ok()) {
            told.firing = firing;
            told.toldAt = now;
          }
        }
        if (!res.ok()) {
          LOG.log(Level.WARNING, "alert " + r.name() + ": " + n.state() + " not delivered to " + t + ": " + res.error());
        }
      }));
    }
    for (Thread t : sends) {
      try {
        t.join();
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        return;
      }
    }
  }

  /** A removed or changed rule: whoever believes it firing is told it resolved. */
  private void resolveAll(Rule r, Rules from, RuleState s) {
    Evaluation.Outcome o;
    long since;
    synchronized (s) {
      o = s.last;
      since = s.phase == RuleState.Phase.FIRING ? s.since : s.firingStartedAt;
    }
    if (o == null) {
      return;
    }
    long now = clock.getAsLong();
    for (String name : r.targets()) {
      RuleState.Told told = s.targets.get(name);
      boolean was;
      synchronized (s) {
        was = told.firing;
      }
      if (was) {
        Target t = from.targets().get(name);
        Delivery.Result res = delivery.send(t, notice(r, false, o, since, now));
        if (!res.ok()) {
          LOG.log(Level.WARNING, "alert " + r.name() + " (removed): resolve not delivered to " + t + ": " + res.error());
        }
      }
    }
  }

  private Notice notice(Rule r, boolean firing, Evaluation.Outcome o, long since, long now) {
    return new Notice(r, firing, o, since, now, FilterText.print(r.where()), link(r, o.from(), o.to()), node);
  }

  /**
   * The UI view of the rule's terms over a window: {@code link_base/#/logs?q=...&from=...&to=...}
   * ({@code traces}, or {@code metrics} with {@code name}); null with no {@code link_base}.
   */
  String link(Rule r, long from, long to) {
    if (linkBase.isEmpty()) {
      return null;
    }
    StringBuilder b = new StringBuilder(linkBase).append("/#/");
    b.append(r.kind() == Rule.Kind.METRIC ? "metrics" : r.signal() == Signal.LOGS ? "logs" : "traces").append('?');
    if (r.kind() == Rule.Kind.METRIC) {
      b.append("name=").append(enc(seriesName(r))).append('&');
    }
    b.append("q=").append(enc(FilterText.print(r.where())));
    b.append("&from=").append(enc(Payloads.time(from))).append("&to=").append(enc(Payloads.time(to)));
    return b.toString();
  }

  private static String seriesName(Rule r) {
    try {
      return RulesFile.seriesQuery(r.series(), 0, r.over(), r.name()).name();
    } catch (RulesException e) {
      return "";
    }
  }

  private static String enc(String s) {
    return URLEncoder.encode(s, StandardCharsets.UTF_8).replace("+", "%20");
  }

  /** {@code GET /api/v1/alerts}: every rule, firing or not, and whether the last reload failed. */
  public byte[] render() {
    Rules rs;
    Map<String, RuleState> st;
    long loaded;
    String reload;
    synchronized (lock) {
      rs = rules;
      st = new LinkedHashMap<>(states);
      loaded = loadedAt;
      reload = reloadError;
    }
    return Payloads.write(g -> {
      g.writeStartObject();
      g.writeBooleanField("enabled", enabled);
      Payloads.nullable(g, "rules_file", enabled ? rs.source() : null);
      Payloads.nullable(g, "loaded_at", enabled && loaded != 0 ? Payloads.time(loaded) : null);
      Payloads.nullable(g, "reload_error", reload);
      g.writeArrayFieldStart("alerts");
      for (Rule r : rs.rules()) {
        RuleState s = st.get(r.name());
        synchronized (s) {
          rule(g, r, s, rs.targets());
        }
      }
      g.writeEndArray();
      g.writeEndObject();
    });
  }

  private void rule(JsonGenerator g, Rule r, RuleState s, Map<String, Target> targets) throws IOException {
    g.writeStartObject();
    g.writeStringField("name", r.name());
    g.writeStringField("kind", r.kind().name().toLowerCase(Locale.ROOT));
    g.writeStringField("signal", r.signal().name().toLowerCase(Locale.ROOT));
    g.writeStringField("state", s.shown());
    Payloads.nullable(g, "since", s.evaluations == 0 ? null : Payloads.time(s.error != null ? s.errorSince : s.since));
    Evaluation.Outcome o = s.last;
    g.writeFieldName("value");
    if (o == null) {
      g.writeNull();
    } else {
      Payloads.number(g, o.value());
    }
    g.writeObjectFieldStart("threshold");
    g.writeFieldName(r.above() ? "above" : "below");
    Payloads.number(g, r.threshold());
    g.writeEndObject();
    g.writeObjectFieldStart("counts");
    if (o == null) {
      g.writeNullField("query");
    } else {
      g.writeNumberField("query", o.count());
    }
    if (o == null || o.ofCount() < 0) {
      g.writeNullField("of");
    } else {
      g.writeNumberField("of", o.ofCount());
    }
    g.writeEndObject();
    g.writeStringField("over", RulesFile.spell(r.over()));
    g.writeStringField("every", RulesFile.spell(r.every()));
    g.writeStringField("for", RulesFile.spell(r.hold()));
    g.writeStringField("repeat", RulesFile.spell(r.repeat()));
    g.writeObjectFieldStart("labels");
    for (Map.Entry<String, String> l : new java.util.TreeMap<>(r.labels()).entrySet()) {
      g.writeStringField(l.getKey(), l.getValue());
    }
    g.writeEndObject();
    Payloads.nullable(g, "evaluated_at", s.evaluations == 0 ? null : Payloads.time(s.evaluatedAt));
    g.writeNumberField("took_ms", s.tookNs / 1_000_000.0);
    g.writeNumberField("evaluations", s.evaluations);
    if (o == null) {
      g.writeNullField("window");
    } else {
      g.writeObjectFieldStart("window");
      g.writeStringField("from", Payloads.time(o.from()));
      g.writeStringField("to", Payloads.time(o.to()));
      g.writeEndObject();
    }
    g.writeNumberField("refused_blocks", o == null ? 0 : o.refused());
    Payloads.nullable(g, "partial", o == null ? null : o.partial());
    g.writeStringField("filter", FilterText.print(r.where()));
    if (r.kind() == Rule.Kind.RATIO) {
      g.writeStringField("of_filter", FilterText.print(r.of()));
    }
    Payloads.nullable(g, "link", o == null ? null : link(r, o.from(), o.to()));
    Payloads.nullable(g, "error", s.error);
    g.writeArrayFieldStart("targets");
    for (String name : r.targets()) {
      Target t = targets.get(name);
      RuleState.Told told = s.targets.get(name);
      g.writeStartObject();
      g.writeStringField("name", name);
      g.writeStringField("kind", t.kind());
      g.writeStringField("url", t.redacted());
      g.writeBooleanField("told_firing", told.firing);
      if (told.attemptAt == 0) {
        g.writeNullField("last");
      } else {
        g.writeObjectFieldStart("last");
        g.writeStringField("at", Payloads.time(told.attemptAt));
        g.writeStringField("state", told.attemptState);
        g.writeStringField("result", told.attemptOk ? "ok" : "error");
        if (told.attemptStatus == 0) {
          g.writeNullField("status");
        } else {
          g.writeNumberField("status", told.attemptStatus);
        }
        Payloads.nullable(g, "error", told.attemptError);
        g.writeEndObject();
      }
      g.writeEndObject();
    }
    g.writeEndArray();
    g.writeEndObject();
  }

  /** Stops every rule's thread; deliveries in flight are abandoned. */
  @Override
  public void close() {
    synchronized (lock) {
      closed = true;
      for (Thread t : runners.values()) {
        t.interrupt();
      }
      runners.clear();
    }
  }
}
