package mira.tui;

import java.io.IOException;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import mira.query.doc.FilterText;
import mira.query.doc.FilterTextException;
import mira.proto.wire.Signal;
import mira.query.result.Attribute;
import mira.query.result.BusyException;
import mira.query.result.LogRow;
import mira.query.result.QueryException;
import mira.query.result.Row;
import mira.query.result.SearchResult;
import mira.query.result.SpanRow;
import mira.query.result.TraceResult;
import mira.query.result.Value;

/**
 * What the terminal UI shows and the actions the keys take on it: a tab (logs or traces), the
 * filter, the time range, a page of rows with a selection, an optional detail pane, and the trace
 * waterfall. {@link #render} draws it into lines of exactly the terminal's width; nothing here
 * touches the terminal, so screens are tested as text.
 */
final class View {
  enum Tab { LOGS, TRACES }

  enum Mode { LIST, TRACE }

  static final List<String> RANGES = List.of("-15m", "-1h", "-6h", "-24h", "-7d");
  static final int PAGE = 200;
  private static final DateTimeFormatter CLOCK = DateTimeFormatter.ofPattern("MM-dd HH:mm:ss.SSS").withZone(ZoneOffset.UTC);

  private final Source source;
  Tab tab = Tab.LOGS;
  Mode mode = Mode.LIST;
  int range = 1;
  final Map<Tab, String> filters = new HashMap<>(Map.of(Tab.LOGS, "", Tab.TRACES, ""));
  /** Non-null while the filter line is being edited. */
  StringBuilder editing;
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
    return tab == Tab.LOGS ? Signal.LOGS : Signal.TRACES;
  }

  String filter() {
    return filters.get(tab);
  }

  /** Runs the tab's query from the first page. */
  void load() {
    query(null);
  }

  /** The next page, appended. */
  void nextPage() {
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
        .append("\",\"from\":\"").append(RANGES.get(range)).append("\",\"to\":\"now\",\"limit\":").append(PAGE);
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
      message = e.getMessage();
      errorColumn = e.getMessage().matches("q: column \\d+:.*")
          ? Integer.parseInt(e.getMessage().replaceAll("q: column (\\d+):.*", "$1")) : -1;
    } catch (BusyException | IOException | RuntimeException e) {
      message = "cannot read: " + e.getMessage();
    }
  }

  // ---- keys ----

  void move(int delta) {
    if (mode == Mode.TRACE) {
      traceTop = Math.max(0, traceTop + delta);
      return;
    }
    if (rows.isEmpty()) {
      return;
    }
    selected = Math.clamp((long) selected + delta, 0, rows.size() - 1);
  }

  void switchTab(Tab t) {
    if (tab != t) {
      tab = t;
      mode = Mode.LIST;
      detail = false;
      load();
    }
  }

  void cycleRange() {
    range = (range + 1) % RANGES.size();
    load();
  }

  void startEditing() {
    editing = new StringBuilder(filter());
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
    filters.put(tab, editing.toString().strip());
    editing = null;
    mode = Mode.LIST;
    load();
  }

  void cancelEditing() {
    editing = null;
  }

  /** {@code t}: the waterfall of the selected row's trace. */
  void openTrace() {
    if (rows.isEmpty()) {
      return;
    }
    String id = switch (rows.get(selected)) {
      case LogRow l -> l.traceId();
      case SpanRow s -> s.traceId();
      default -> "";
    };
    if (id == null || id.isEmpty()) {
      message = "this record has no trace";
      return;
    }
    try {
      trace = source.trace(id);
      mode = Mode.TRACE;
      traceTop = 0;
      message = "";
    } catch (QueryException | BusyException | IOException | RuntimeException e) {
      message = "cannot read the trace: " + e.getMessage();
    }
  }

  /** {@code Esc}: out of the waterfall, or the detail pane. */
  void back() {
    if (mode == Mode.TRACE) {
      mode = Mode.LIST;
    } else {
      detail = false;
    }
  }

  // ---- drawing ----

  /** The screen as {@code h} lines of {@code w} columns (ANSI styles included). */
  List<String> render(int w, int h) {
    List<String> out = new ArrayList<>(h);
    out.add(header(w));
    out.add(filterLine(w));
    int body = Math.max(0, h - 3);
    if (mode == Mode.TRACE && trace != null) {
      out.addAll(Waterfall.draw(trace, w, body, traceTop));
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
    for (int i = 0; i < Math.min(h, out.size()); i++) {
      fitted.add(Text.fit(out.get(i), w));
    }
    return fitted;
  }

  private String header(int w) {
    String tabs = (tab == Tab.LOGS ? Text.style(Text.REVERSE, " 1 logs ") : " 1 logs ")
        + (tab == Tab.TRACES ? Text.style(Text.REVERSE, " 2 traces ") : " 2 traces ");
    return Text.style(Text.BOLD, " mira ") + tabs + "  range " + RANGES.get(range).substring(1) + "  "
        + Text.style(Text.DIM, Text.safe(source.describe()));
  }

  private String filterLine(int w) {
    if (editing != null) {
      return Text.style(Text.CYAN, "/") + " " + Text.safe(editing.toString()) + "█";
    }
    String f = filter();
    if (f.isEmpty()) {
      return Text.style(Text.DIM, "/ filter (press /): service.name=checkout severity_number>=17 \"timeout\"");
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
    String count = rows.size() + " rows" + (next != null ? " (n: more)" : "") + " in " + loadedMs + " ms";
    return Text.style(Text.DIM, " " + count + " · ↑↓ move · Enter detail · / filter · r range · t trace · Tab · q quit");
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
