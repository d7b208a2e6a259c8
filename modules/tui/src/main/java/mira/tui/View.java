package mira.tui;

import java.io.IOException;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import mira.client.AlertList;
import mira.query.doc.FilterText;
import mira.query.doc.FilterTextException;
import mira.query.doc.Op;
import mira.query.doc.Scalar;
import mira.query.doc.Term;
import mira.proto.wire.Signal;
import mira.query.result.Attribute;
import mira.query.result.BusyException;
import mira.query.result.CorrelateResult;
import mira.query.result.Frame;
import mira.query.result.MetricList;
import mira.query.result.LogRow;
import mira.query.result.QueryException;
import mira.query.result.Row;
import mira.query.result.SearchResult;
import mira.query.result.ServiceMap;
import mira.query.result.SpanRow;
import mira.query.result.TraceResult;
import mira.query.result.Value;

/**
 * What the terminal UI shows and the actions the keys take on it: a tab (logs, traces or
 * metrics), the filter, the time range, a page of rows with a selection, an optional detail pane,
 * the trace waterfall, and the panes reached from the list (frame, map, alerts). {@link #render} draws it into lines of exactly the terminal's width; nothing here
 * touches the terminal, so screens are tested as text.
 */
final class View {
  enum Tab { LOGS, TRACES, METRICS }

  enum Mode { LIST, TRACE, PANE }

  /** What the edit line is editing. */
  enum Edit { FILTER, GROUP_BY }

  static final List<String> RANGES = List.of("-15m", "-1h", "-6h", "-24h", "-7d");
  static final int PAGE = 200;
  private static final DateTimeFormatter CLOCK = DateTimeFormatter.ofPattern("MM-dd HH:mm:ss.SSS").withZone(ZoneOffset.UTC);

  private final Source source;
  Tab tab = Tab.LOGS;
  Mode mode = Mode.LIST;
  int range = 1;
  final Map<Tab, String> filters = new HashMap<>(Map.of(Tab.LOGS, "", Tab.TRACES, "", Tab.METRICS, ""));
  /** A window set by an alert or a frame (time strings), instead of the range ending now; null for the range. */
  String[] window;
  /** Non-null while the edit line is being edited. */
  StringBuilder editing;
  Edit editTarget = Edit.FILTER;
  final MetricsTab metrics = new MetricsTab();
  /** The frame, map or alerts pane while one is open. */
  Pane pane;
  /** Whether Esc from the waterfall goes back to the pane it was opened from. */
  boolean traceFromPane;
  /** The size of the last screen drawn: the chart's step follows its width. */
  int lastWidth = 100;
  List<Row> rows = List.of();
  String next;
  int selected;
  int top;
  boolean detail;
  /** A one-line message for the status bar (an error, or what just happened). */
  String message = "";
  /** The column of the filter error, or -1. */
  int errorColumn = -1;
  TraceResult trace;
  int traceTop;
  long loadedMs;

  View(Source source) {
    this.source = source;
  }

  Signal signal() {
    return tab == Tab.LOGS ? Signal.LOGS : tab == Tab.TRACES ? Signal.TRACES : Signal.METRICS;
  }

  String from() {
    return window != null ? window[0] : RANGES.get(range);
  }

  String to() {
    return window != null ? window[1] : "now";
  }

  String filter() {
    return filters.get(tab);
  }

  /** Runs the tab's query from the first page. */
  void load() {
    if (tab == Tab.METRICS) {
      loadMetrics();
    } else {
      query(null);
    }
  }

  /** The next page, appended. */
  void nextPage() {
    if (tab == Tab.METRICS) {
      return;
    }
    if (next == null) {
      message = "no more rows in this range";
      return;
    }
    query(next);
  }

  private void query(String after) {
    String q = filter();
    try {
      FilterText.parse(signal(), q);
    } catch (FilterTextException e) {
      errorColumn = e.column();
      message = e.getMessage();
      return;
    }
    StringBuilder doc = new StringBuilder("{\"signal\":\"").append(tab == Tab.LOGS ? "logs" : "traces")
        .append("\",\"from\":").append(quote(from())).append(",\"to\":").append(quote(to())).append(",\"limit\":").append(PAGE);
    if (!q.isBlank()) {
      doc.append(",\"q\":").append(quote(q));
    }
    if (after != null) {
      doc.append(",\"after\":").append(quote(after));
    }
    doc.append('}');
    long t0 = System.nanoTime();
    try {
      SearchResult r = source.search(doc.toString().getBytes(java.nio.charset.StandardCharsets.UTF_8));
      loadedMs = (System.nanoTime() - t0) / 1_000_000;
      if (after == null) {
        rows = r.rows();
        selected = 0;
        top = 0;
      } else {
        List<Row> all = new ArrayList<>(rows);
        all.addAll(r.rows());
        selected = rows.size();
        rows = all;
      }
      next = r.next();
      errorColumn = -1;
      message = "";
    } catch (QueryException e) {
      queryError(e);
    } catch (BusyException | IOException | RuntimeException e) {
      message = "cannot read: " + e.getMessage();
    }
  }

  private void queryError(QueryException e) {
    message = e.getMessage();
    errorColumn = e.getMessage().matches("q: column \\d+:.*")
        ? Integer.parseInt(e.getMessage().replaceAll("q: column (\\d+):.*", "$1")) : -1;
  }

  /** The metric list of the window, the selection kept on the same name, then the selected metric's series. */
  private void loadMetrics() {
    long t0 = System.nanoTime();
    try {
      MetricList.Metric was = metrics.current();
      metrics.metrics = source.metrics(from(), to()).metrics();
      metrics.selected = 0;
      for (int i = 0; was != null && i < metrics.metrics.size(); i++) {
        if (metrics.metrics.get(i).name().equals(was.name()) && metrics.metrics.get(i).type().equals(was.type())) {
          metrics.selected = i;
        }
      }
      errorColumn = -1;
      message = "";
      loadSeries();
    } catch (QueryException e) {
      queryError(e);
    } catch (BusyException | IOException | RuntimeException e) {
      message = "cannot read: " + e.getMessage();
    }
    loadedMs = (System.nanoTime() - t0) / 1_000_000;
  }

  /** The series of the selected metric, with the tab's function, quantile and group_by. */
  void loadSeries() {
    metrics.series = null;
    if (metrics.current() == null) {
      return;
    }
    try {
      long[] w = windowNs();
      metrics.series = source.series(metrics.document(from(), to(), filter(), w[1] - w[0], Math.max(20, (lastWidth - 12) * 2)));
      metrics.seriesIndex = Math.min(metrics.seriesIndex, Math.max(0, metrics.series.series().size() - 1));
      errorColumn = -1;
    } catch (QueryException e) {
      queryError(e);
    } catch (BusyException | IOException | RuntimeException e) {
      message = "cannot read: " + e.getMessage();
    }
  }

  /** The window as ns since the epoch, resolved now (for the chart's axis and step). */
  long[] windowNs() {
    long now = nowNs();
    try {
      return new long[] {mira.query.doc.Times.parse(from(), "from", now), mira.query.doc.Times.parse(to(), "to", now)};
    } catch (QueryException e) {
      return new long[] {now - 3_600_000_000_000L, now};
    }
  }

  static long nowNs() {
    Instant n = Instant.now();
    return n.getEpochSecond() * 1_000_000_000L + n.getNano();
  }

  // ---- keys ----

  void move(int delta) {
    if (mode == Mode.TRACE) {
      traceTop = Math.max(0, traceTop + delta);
      return;
    }
    if (mode == Mode.PANE) {
      pane.move(delta);
      return;
    }
    if (tab == Tab.METRICS) {
      int was = metrics.selected;
      metrics.move(delta);
      if (metrics.selected != was) {
        loadSeries();
      }
      return;
    }
    if (rows.isEmpty()) {
      return;
    }
    selected = Math.clamp((long) selected + delta, 0, rows.size() - 1);
  }

  void switchTab(Tab t) {
    if (tab != t || mode != Mode.LIST) {
      tab = t;
      mode = Mode.LIST;
      pane = null;
      detail = false;
      load();
    }
  }

  /** The next range ending now; after a window set by an alert or a frame, back to the range it replaced. */
  void cycleRange() {
    if (window != null) {
      window = null;
    } else {
      range = (range + 1) % RANGES.size();
    }
    load();
  }

  void startEditing() {
    editTarget = Edit.FILTER;
    editing = new StringBuilder(filter());
  }

  /** {@code b} on the metrics tab: the group_by keys, separated by commas or spaces. */
  void startGroupBy() {
    if (tab != Tab.METRICS) {
      return;
    }
    editTarget = Edit.GROUP_BY;
    editing = new StringBuilder(String.join(",", metrics.groupBy));
  }

  void cycleFn() {
    if (tab == Tab.METRICS) {
      metrics.cycleFn();
      loadSeries();
    }
  }

  void cycleQuantile() {
    if (tab == Tab.METRICS) {
      metrics.cycleQuantile();
      loadSeries();
    }
  }

  void cycleSeries(int delta) {
    if (tab == Tab.METRICS) {
      metrics.cycleSeries(delta);
    }
  }

  void type(char c) {
    editing.append(c);
  }

  void backspace() {
    if (!editing.isEmpty()) {
      editing.setLength(editing.length() - 1);
    }
  }

  void applyFilter() {
    String text = editing.toString().strip();
    editing = null;
    if (editTarget == Edit.GROUP_BY) {
      metrics.groupBy = text.isEmpty() ? List.of() : List.of(text.split("[,\\s]+"));
      loadSeries();
      return;
    }
    filters.put(tab, text);
    mode = Mode.LIST;
    pane = null;
    load();
  }

  void cancelEditing() {
    editing = null;
  }

  /** The selected row of the list, or null (an empty list, or the metrics tab). */
  private Row selectedRow() {
    return tab == Tab.METRICS || rows.isEmpty() ? null : rows.get(selected);
  }

  /** {@code t}: the waterfall of the selected row's trace. */
  void openTrace() {
    if (mode != Mode.LIST) {
      return;
    }
    Row r = selectedRow();
    if (r == null) {
      return;
    }
    String id = switch (r) {
      case LogRow l -> l.traceId();
      case SpanRow s -> s.traceId();
      default -> "";
    };
    if (id == null || id.isEmpty()) {
      message = "this record has no trace";
      return;
    }
    showTrace(id, false);
  }

  private void showTrace(String id, boolean fromPane) {
    try {
      trace = source.trace(id);
      mode = Mode.TRACE;
      traceFromPane = fromPane;
      traceTop = 0;
      message = "";
    } catch (QueryException | BusyException | IOException | RuntimeException e) {
      message = "cannot read the trace: " + e.getMessage();
    }
  }

  /** {@code Esc}: out of the waterfall (to the pane it came from, if any), out of a pane, or the detail pane. */
  void back() {
    if (mode == Mode.TRACE) {
      mode = traceFromPane && pane != null ? Mode.PANE : Mode.LIST;
    } else if (mode == Mode.PANE) {
      mode = Mode.LIST;
      pane = null;
    } else {
      detail = false;
    }
  }

  /** {@code Enter}: the detail pane in the list, the line's action in a pane. */
  void enter() {
    if (mode == Mode.PANE) {
      act(pane.selected());
    } else if (mode == Mode.LIST && tab != Tab.METRICS) {
      detail = !detail;
    }
  }

  private void act(Pane.Act a) {
    switch (a) {
      case Pane.Act.None n -> { }
      case Pane.Act.OpenTrace t -> showTrace(t.traceId(), true);
      case Pane.Act.AddTerm t -> {
        if (tab == Tab.METRICS) {
          tab = Tab.TRACES;
        }
        String f = filter();
        filters.put(tab, f.isBlank() ? t.term() : f + " " + t.term());
        toList();
      }
      case Pane.Act.Window w -> {
        window = new String[] {w.from(), w.to()};
        toList();
      }
      case Pane.Act.Rule r -> {
        AlertList.Alert al = r.alert();
        tab = switch (al.signal()) {
          case "traces" -> Tab.TRACES;
          case "metrics" -> Tab.METRICS;
          default -> Tab.LOGS;
        };
        filters.put(tab, al.filter());
        window = al.windowFrom() != null ? new String[] {al.windowFrom(), al.windowTo()} : new String[] {"-" + al.over(), "now"};
        toList();
      }
    }
  }

  private void toList() {
    mode = Mode.LIST;
    pane = null;
    detail = false;
    load();
  }

  /** A filter term {@code key=value} in the filter-text grammar, quoted where the grammar needs it. */
  static String term(String key, String value) {
    return FilterText.print(List.of(new Term.Attr(key, Op.EQ, Scalar.string(value))));
  }

  /**
   * {@code c}: the correlation frame of the selected row — its trace, the services that took part
   * in it, five seconds around it — with a line per service (Enter filters to it), per trace (Enter
   * opens it) and for the window (Enter lists it).
   */
  void openFrame() {
    Row r = mode == Mode.LIST ? selectedRow() : null;
    if (r == null) {
      message = tab == Tab.METRICS ? "c correlates a log record or a span: use tab 1 or 2" : "no row to correlate";
      return;
    }
    String traceId;
    String spanId;
    long time;
    String signal;
    switch (r) {
      case LogRow l -> {
        traceId = l.traceId();
        spanId = l.spanId();
        time = l.time();
        signal = "logs";
      }
      case SpanRow s -> {
        traceId = s.traceId();
        spanId = s.spanId();
        time = s.time();
        signal = "traces";
      }
      default -> {
        return;
      }
    }
    boolean traced = traceId != null && !traceId.isEmpty();
    StringBuilder q = new StringBuilder();
    if (traced) {
      q.append("trace_id=").append(traceId);
      if (spanId != null && !spanId.isEmpty()) {
        q.append(" span_id=").append(spanId);
      }
    } else {
      q.append(filter());
    }
    StringBuilder d = new StringBuilder("{\"anchor\":{\"signal\":\"").append(signal).append("\",\"from\":\"").append(time)
        .append("\",\"to\":\"").append(time).append("\",\"limit\":1");
    if (!q.isEmpty()) {
      d.append(",\"q\":").append(quote(q.toString()));
    }
    d.append("},\"expand\":[").append(traced ? "\"traces\",\"peers\"," : "").append("{\"around\":\"5s\"}]}");
    try {
      pane = framePane(source.correlate(d.toString().getBytes(java.nio.charset.StandardCharsets.UTF_8)));
      mode = Mode.PANE;
      message = "";
    } catch (QueryException | BusyException | IOException | RuntimeException e) {
      message = "cannot correlate: " + e.getMessage();
    }
  }

  static Pane framePane(CorrelateResult c) {
    Frame f = c.frame();
    Pane p = new Pane("frame of the selected row: " + c.anchorRows() + " anchor row, its traces, their services, ±5 s",
        "Enter: services filter the list, traces open, the window lists · Esc back");
    p.add(Text.style(Text.BOLD, "window ") + CLOCK.format(instant(f.from())) + " … " + CLOCK.format(instant(f.to())) + "  "
        + duration(f.to() - f.from()) + Text.style(Text.DIM, "  (Enter: the list over this window)"),
        new Pane.Act.Window(Long.toString(f.from()), Long.toString(f.to())));
    p.add(Text.style(Text.BOLD, "services") + Text.style(Text.DIM, " (" + f.entities().size() + (c.entitiesTruncated()
        ? ", truncated" : "") + ")"), Pane.NONE);
    for (Frame.Member m : f.entities()) {
      StringBuilder id = new StringBuilder();
      for (Attribute a : m.identity()) {
        if (!a.key().equals("service.name")) {
          id.append(' ').append(a.key()).append('=').append(body(a.value()));
        }
      }
      String name = m.serviceName() == null ? "(no service.name)" : m.serviceName();
      p.add("  " + Text.fit(Text.style(Text.CYAN, Text.safe(name)), 24) + Text.style(Text.DIM, Text.safe(id.toString())),
          m.serviceName() == null ? Pane.NONE : new Pane.Act.AddTerm(term("service.name", m.serviceName())));
    }
    p.add(Text.style(Text.BOLD, "traces") + Text.style(Text.DIM, " (" + f.traces().size() + (c.tracesTruncated()
        ? ", truncated" : "") + ")"), Pane.NONE);
    for (String t : f.traces()) {
      p.add("  " + t + Text.style(Text.DIM, "  (Enter: waterfall)"), new Pane.Act.OpenTrace(t));
    }
    return p;
  }

  /** {@code m}: the service map of the window as a tree from its entry service. */
  void openMap() {
    StringBuilder d = new StringBuilder("{\"from\":").append(quote(from())).append(",\"to\":").append(quote(to())).append('}');
    try {
      pane = mapPane(source.map(d.toString().getBytes(java.nio.charset.StandardCharsets.UTF_8)), lastWidth);
      mode = Mode.PANE;
      message = "";
    } catch (QueryException | BusyException | IOException | RuntimeException e) {
      message = "cannot read the map: " + e.getMessage();
    }
  }

  static Pane mapPane(ServiceMap m, int w) {
    String entry = MapTree.entry(m);
    Pane p = new Pane("service map from " + (entry == null ? "-" : Text.safe(entry)) + ": callees by calls · calls, errors,"
        + " p99 per edge" + (m.truncated() ? " · truncated" : ""), "Enter: filter the list to the service · Esc back");
    List<MapTree.Line> lines = MapTree.walk(m, entry);
    if (lines.isEmpty()) {
      p.add(Text.style(Text.DIM, "  no spans in this window"), Pane.NONE);
      return p;
    }
    boolean unreached = false;
    for (MapTree.Line l : lines) {
      if (l.mark() == MapTree.Mark.UNREACHED && !unreached) {
        unreached = true;
        p.add(Text.style(Text.DIM, "not reached from " + Text.safe(entry) + ":"), Pane.NONE);
      }
      // A virtual node (a database, a queue) sends no records: Enter filters to the service calling it.
      boolean virtual = l.node() != null && l.node().virtual();
      String service = virtual && l.edge() != null ? l.edge().from() : l.service();
      p.add(MapTree.text(l, w), virtual && l.edge() == null ? Pane.NONE : new Pane.Act.AddTerm(term("service.name", service)));
    }
    return p;
  }

  /** {@code a}: the node's alert rules; over a data directory there are none to show. */
  void openAlerts() {
    try {
      AlertList a = source.alerts();
      if (a == null) {
        message = "alerting needs a server: rules are evaluated by mira serve, not in a data directory (use --addr)";
        return;
      }
      pane = alertsPane(a);
      mode = Mode.PANE;
      message = "";
    } catch (QueryException | BusyException | IOException | RuntimeException e) {
      message = "cannot read the alerts: " + e.getMessage();
    }
  }

  private static String value(AlertList.Alert r) {
    return (r.value() == null ? "-" : Chart.number(r.value())) + (r.above() ? " > " : " < ") + Chart.number(r.threshold())
        + " over " + r.over();
  }

  static Pane alertsPane(AlertList a) {
    Pane p = new Pane("alerts: " + a.alerts().size() + " rules" + (a.enabled() ? "" : " (alerting is off on this node)")
        + (a.reloadError() == null ? "" : " · last reload failed: " + Text.safe(a.reloadError())),
        "Enter: the rows the rule counted (its filter over its window) · Esc back");
    if (a.alerts().isEmpty()) {
      p.add(Text.style(Text.DIM, a.enabled() ? "  the rules file has no rules" : "  set alert.rules to a rules file (docs/alerting.md)"),
          Pane.NONE);
    }
    // Columns as wide as their longest entry, so the filter keeps what room an 80-column terminal has.
    int nameW = 8;
    int valueW = 8;
    for (AlertList.Alert r : a.alerts()) {
      nameW = Math.max(nameW, Math.min(24, Text.width(Text.safe(r.name()))));
      valueW = Math.max(valueW, Math.min(24, value(r).length()));
    }
    for (AlertList.Alert r : a.alerts()) {
      String state = Text.fit(r.state(), 8);
      state = switch (r.state()) {
        case "firing", "error" -> Text.style(Text.RED, state);
        case "pending" -> Text.style(Text.YELLOW, state);
        default -> Text.style(Text.DIM, state);
      };
      p.add(state + " " + Text.fit(Text.style(Text.BOLD, Text.safe(r.name())), nameW) + " "
          + Text.fit(r.kind() + " " + r.signal(), 13) + " " + Text.fit(value(r), valueW) + " "
          + Text.safe(r.error() != null ? "error: " + r.error() : r.filter()), new Pane.Act.Rule(r));
    }
    return p;
  }

  // ---- drawing ----

  /** The screen as {@code h} lines of {@code w} columns (ANSI styles included). */
  List<String> render(int w, int h) {
    List<String> out = new ArrayList<>(h);
    out.add(header(w));
    out.add(filterLine(w));
    int body = Math.max(0, h - 3);
    lastWidth = w;
    if (mode == Mode.TRACE && trace != null) {
      out.addAll(Waterfall.draw(trace, w, body, traceTop));
    } else if (mode == Mode.PANE && pane != null) {
      out.addAll(pane.draw(w, body));
    } else if (tab == Tab.METRICS) {
      long[] win = windowNs();
      out.addAll(metrics.draw(w, body, win[0], win[1]));
    } else if (detail && !rows.isEmpty()) {
      int listH = Math.max(1, body / 2);
      out.addAll(list(w, listH));
      out.add(Text.style(Text.DIM, "─".repeat(w)));
      out.addAll(detailPane(w, body - listH - 1));
    } else {
      out.addAll(list(w, body));
    }
    while (out.size() < h - 1) {
      out.add(" ".repeat(w));
    }
    out.add(status(w));
    List<String> fitted = new ArrayList<>(h);
    for (int i = 0; i < Math.min(h - 1, out.size() - 1); i++) {
      fitted.add(Text.fit(out.get(i), w));
    }
    // The status bar stays on the last line however long the body is.
    fitted.add(Text.fit(out.getLast(), w));
    return fitted;
  }

  private String header(int w) {
    String tabs = (tab == Tab.LOGS ? Text.style(Text.REVERSE, " 1 logs ") : " 1 logs ")
        + (tab == Tab.TRACES ? Text.style(Text.REVERSE, " 2 traces ") : " 2 traces ")
        + (tab == Tab.METRICS ? Text.style(Text.REVERSE, " 3 metrics ") : " 3 metrics ");
    return Text.style(Text.BOLD, " mira ") + tabs + "  " + rangeLabel() + "  " + Text.style(Text.DIM, Text.safe(source.describe()));
  }

  String rangeLabel() {
    if (window == null) {
      return "range " + RANGES.get(range).substring(1);
    }
    long[] w = windowNs();
    return "window " + CLOCK.format(instant(w[0])) + "…" + CLOCK.format(instant(w[1])).substring(6);
  }

  private String filterLine(int w) {
    if (editing != null) {
      return Text.style(Text.CYAN, editTarget == Edit.GROUP_BY ? "group_by" : "/") + " " + Text.safe(editing.toString()) + "█";
    }
    String f = filter();
    if (f.isEmpty()) {
      return Text.style(Text.DIM, tab == Tab.METRICS ? "/ filter (press /): service.name=checkout http.route=/cart"
          : "/ filter (press /): service.name=checkout severity_number>=17 \"timeout\"");
    }
    if (errorColumn >= 1) {
      int at = Math.min(f.length(), errorColumn - 1);
      return "/ " + Text.safe(f.substring(0, at)) + Text.style(Text.RED + Text.REVERSE, Text.safe(
          at < f.length() ? f.substring(at, at + 1) : " ")) + Text.safe(at + 1 < f.length() ? f.substring(at + 1) : "");
    }
    return "/ " + Text.safe(f);
  }

  private List<String> list(int w, int h) {
    List<String> out = new ArrayList<>(h);
    if (rows.isEmpty()) {
      out.add(Text.style(Text.DIM, "  no " + (tab == Tab.LOGS ? "log records" : "spans") + " in the last "
          + RANGES.get(range).substring(1) + (filter().isEmpty() ? "" : " matching the filter")));
      return out;
    }
    if (selected < top) {
      top = selected;
    } else if (selected >= top + h) {
      top = selected - h + 1;
    }
    for (int i = top; i < Math.min(rows.size(), top + h); i++) {
      String line = line(rows.get(i), w);
      out.add(i == selected ? Text.REVERSE + Text.fit(stripStyles(line), w) + Text.RESET : line);
    }
    return out;
  }

  static String line(Row r, int w) {
    return switch (r) {
      case LogRow l -> {
        String sev = severity(l.severityNumber(), l.severityText());
        yield Text.style(Text.DIM, CLOCK.format(instant(l.time()))) + " " + colour(l.severityNumber(), Text.fit(sev, 5))
            + " " + Text.fit(Text.safe(service(l.resource().attributes())), 14) + " " + Text.safe(body(l.body()));
      }
      case SpanRow s -> Text.style(Text.DIM, CLOCK.format(instant(s.time()))) + " "
          + (s.statusCode() == 2 ? Text.style(Text.RED, "ERR  ") : "     ")
          + Text.fit(Text.safe(service(s.resource().attributes())), 14) + " " + Text.fit(duration(s.durationNano()), 9)
          + " " + Text.safe(s.name());
      default -> r.toString();
    };
  }

  private List<String> detailPane(int w, int h) {
    List<String> out = new ArrayList<>();
    Row r = rows.get(selected);
    switch (r) {
      case LogRow l -> {
        out.add(Text.BOLD + "time " + Text.RESET + instant(l.time()) + "  " + severity(l.severityNumber(), l.severityText()));
        out.add(Text.BOLD + "body " + Text.RESET + Text.safe(body(l.body())));
        if (!l.traceId().isEmpty()) {
          out.add(Text.BOLD + "trace " + Text.RESET + l.traceId() + "  span " + l.spanId() + Text.style(Text.DIM, "  (t: waterfall)"));
        }
        attrs(out, "attr ", l.attributes());
        attrs(out, "res  ", l.resource().attributes());
      }
      case SpanRow s -> {
        out.add(Text.BOLD + "span " + Text.RESET + Text.safe(s.name()) + "  " + duration(s.durationNano())
            + (s.statusCode() == 2 ? Text.style(Text.RED, "  error " + Text.safe(s.statusMessage())) : ""));
        out.add(Text.BOLD + "trace " + Text.RESET + s.traceId() + "  span " + s.spanId() + Text.style(Text.DIM, "  (t: waterfall)"));
        attrs(out, "attr ", s.attributes());
        attrs(out, "res  ", s.resource().attributes());
      }
      default -> out.add(r.toString());
    }
    return out.subList(0, Math.min(out.size(), Math.max(0, h)));
  }

  private static void attrs(List<String> out, String label, List<Attribute> attributes) {
    for (Attribute a : attributes) {
      out.add(Text.style(Text.DIM, label) + Text.safe(a.key()) + "=" + Text.safe(body(a.value())));
    }
  }

  private String status(int w) {
    if (!message.isEmpty()) {
      return Text.style(Text.RED, " " + Text.safe(message));
    }
    if (editing != null) {
      return Text.style(Text.DIM, " Enter apply · Esc cancel");
    }
    if (mode == Mode.TRACE) {
      return Text.style(Text.DIM, " " + trace.spans().size() + " spans · ↑↓ scroll · Esc back · q quit");
    }
    if (mode == Mode.PANE) {
      return Text.style(Text.DIM, " " + pane.hint + " · q quit");
    }
    if (tab == Tab.METRICS) {
      return Text.style(Text.DIM, " " + metrics.metrics.size() + " metrics in " + loadedMs + " ms · ↑↓ metric · [ ] series"
          + " · s fn · p quantile · b group_by · / filter · r range · a alerts · q quit");
    }
    String count = rows.size() + " rows" + (next != null ? " (n: more)" : "") + " in " + loadedMs + " ms";
    return Text.style(Text.DIM, " " + count + " · ↑↓ move · Enter detail · / filter · r range · t trace · c frame · m map"
        + " · a alerts · Tab · q quit");
  }

  // ---- formatting ----

  static Instant instant(long ns) {
    return Instant.ofEpochSecond(Math.floorDiv(ns, 1_000_000_000L), Math.floorMod(ns, 1_000_000_000L));
  }

  static String severity(int n, String text) {
    if (text != null && !text.isEmpty()) {
      return text.toUpperCase(java.util.Locale.ROOT);
    }
    return n >= 21 ? "FATAL" : n >= 17 ? "ERROR" : n >= 13 ? "WARN" : n >= 9 ? "INFO" : n >= 5 ? "DEBUG" : n >= 1 ? "TRACE" : "-";
  }

  static String colour(int n, String s) {
    return n >= 17 ? Text.style(Text.RED, s) : n >= 13 ? Text.style(Text.YELLOW, s) : n >= 1 && n < 9 ? Text.style(Text.DIM, s) : s;
  }

  static String service(List<Attribute> resource) {
    for (Attribute a : resource) {
      if (a.key().equals("service.name") && a.value() instanceof Value.Str s) {
        return s.value();
      }
    }
    return "-";
  }

  static String body(Value v) {
    return switch (v) {
      case Value.Str s -> s.value();
      case Value.Int i -> Long.toString(i.value());
      case Value.F64 d -> Double.toString(d.value());
      case Value.Bool b -> Boolean.toString(b.value());
      case Value.Empty e -> "";
      default -> v.toString();
    };
  }

  static String duration(long ns) {
    if (ns < 1_000_000) {
      return ns / 1000 + "µs";
    }
    if (ns < 1_000_000_000) {
      return String.format("%.1fms", ns / 1e6);
    }
    return String.format("%.2fs", ns / 1e9);
  }

  static String stripStyles(String s) {
    return s.replaceAll("\033\\[[0-9;]*m", "");
  }

  static String quote(String s) {
    StringBuilder b = new StringBuilder("\"");
    for (char c : s.toCharArray()) {
      switch (c) {
        case '"' -> b.append("\\\"");
        case '\\' -> b.append("\\\\");
        default -> {
          if (c < 0x20) {
            b.append(String.format("\\u%04x", (int) c));
          } else {
            b.append(c);
          }
        }
      }
    }
    return b.append('"').toString();
  }
}
