package mira.tui;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import mira.client.AlertList;
import mira.query.result.Attribute;
import mira.query.result.CorrelateResult;
import mira.query.result.Frame;
import mira.query.result.MetricList;
import mira.query.result.SeriesResult;
import mira.query.result.ServiceMap;
import mira.query.result.LogRow;
import mira.query.result.Resource;
import mira.query.result.Scope;
import mira.query.result.SpanRow;
import mira.query.result.Stats;
import mira.query.result.TraceResult;
import mira.query.result.Value;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;
import org.junit.jupiter.api.Test;

class RenderTest {
  static final long T = 1_764_590_400_000_000_000L;
  static final Resource CHECKOUT = new Resource(List.of(new Attribute("service.name", new Value.Str("checkout"))), 0, "", 7);
  static final Scope SCOPE = new Scope("s", "", List.of(), 0, "");

  static LogRow log(long t, int sev, String body) {
    return new LogRow(t, 0, 1, 0, t, sev, "", "", new Value.Str(body), "", "", 0, List.of(), 0, CHECKOUT, SCOPE);
  }

  static SpanRow span(String id, String parent, String name, long start, long end, int status) {
    return new SpanRow(start, 0, 1, 0, "4bf92f3577b34da6a3ce929d0e0e4736", id, parent, "", 0, name, 2, start, end, end - start,
        status, "", List.of(), 0, List.of(), 0, List.of(), 0, CHECKOUT, SCOPE);
  }

  @Test
  void widthSkipsStylesAndCountsWideCharactersTwice() {
    assertThat(Text.width("abc")).isEqualTo(3);
    assertThat(Text.width(Text.style(Text.RED, "abc"))).isEqualTo(3);
    assertThat(Text.width("日本語")).isEqualTo(6);
    assertThat(Text.width("e\u0301")).as("a combining mark takes no column").isEqualTo(1);
  }

  @Test
  void controlCharactersAreShownNeverSent() {
    assertThat(Text.safe("a\033[31mred\033[0m")).isEqualTo("a^[[31mred^[[0m");
    assertThat(Text.safe("two\nlines\ttab\u0007\u007f\u0085")).isEqualTo("two⏎lines tab^G^?\\u0085");
    assertThat(Text.safe("plain")).isSameAs("plain");
  }

  @Test
  void fitCutsWithAnEllipsisAndPads() {
    assertThat(Text.fit("abcdef", 4)).isEqualTo("abc…");
    assertThat(Text.fit("ab", 4)).isEqualTo("ab  ");
    assertThat(Text.fit("日本語", 5)).as("two wide characters and the ellipsis fill five columns").isEqualTo("日本…");
    assertThat(Text.width(Text.fit("日本語", 5))).isEqualTo(5);
    String styled = Text.fit(Text.style(Text.RED, "abcdef"), 4);
    assertThat(Text.width(styled)).isEqualTo(4);
    assertThat(styled).endsWith(Text.RESET);
  }

  /** Every rendered line is exactly the terminal's width, whatever the bodies hold. */
  @Property(tries = 200)
  void everyLineIsExactlyTheWidth(@ForAll @IntRange(min = 20, max = 200) int w, @ForAll @IntRange(min = 5, max = 60) int h,
      @ForAll String body) {
    View v = new View(stub());
    v.rows = List.of(log(T, 17, body), log(T - 1, 9, "日本語 " + body), log(T - 2, 0, "\033[2J" + body));
    v.detail = true;
    List<String> lines = v.render(w, h);
    assertThat(lines).hasSize(h);
    for (String l : lines) {
      assertThat(Text.width(l)).isEqualTo(w);
      assertThat(View.stripStyles(l)).doesNotContain("\033");
    }
  }

  @Test
  void theListShowsTimeSeverityServiceAndBody() {
    View v = new View(stub());
    v.rows = List.of(log(T, 17, "payment declined"), log(T - 1_000_000, 9, "cart loaded"));
    List<String> lines = v.render(80, 8).stream().map(View::stripStyles).toList();
    assertThat(lines.get(0)).contains(" 1 logs ").contains(" 2 traces ").contains("range 1h").contains("stub");
    assertThat(lines.get(2)).startsWith("12-01 12:00:00.000 ERROR checkout       payment declined");
    assertThat(lines.get(3)).startsWith("12-01 11:59:59.999 INFO  checkout       cart loaded");
    assertThat(lines.get(7)).contains("2 rows");
  }

  @Test
  void aFilterErrorIsMarkedAtItsColumn() {
    View v = new View(stub());
    v.filters.put(View.Tab.LOGS, "service.name=\"open");
    v.load();
    assertThat(v.errorColumn).isEqualTo(14);
    String line = v.render(80, 6).get(1);
    assertThat(line).contains(Text.RED + Text.REVERSE + "\"" + Text.RESET);
    assertThat(View.stripStyles(v.render(80, 6).get(5))).contains("column 14");
  }

  @Test
  void theWaterfallIsInTreeOrderWithBarsOnTheTraceAxis() {
    long s = T;
    TraceResult t = new TraceResult("4bf92f3577b34da6a3ce929d0e0e4736", List.of(
        span("b", "a", "SELECT", s + 10_000_000, s + 40_000_000, 0),
        span("a", "", "POST /pay", s, s + 100_000_000, 2),
        span("c", "a", "call bank", s + 50_000_000, s + 100_000_000, 0),
        span("d", "c", "bank", s + 60_000_000, s + 90_000_000, 0)), new Stats(0, 0, 0, 0, 0, 0), List.of());
    List<String> lines = Waterfall.draw(t, 100, 20, 0).stream().map(View::stripStyles).toList();
    assertThat(lines.get(0)).startsWith("trace 4bf92f3577b34da6a3ce929d0e0e4736").contains("100.0ms");
    assertThat(lines.get(1)).startsWith("! POST /pay");
    assertThat(lines.get(2)).startsWith("  SELECT");
    assertThat(lines.get(3)).startsWith("  call bank");
    assertThat(lines.get(4)).startsWith("    bank");
    int root = lines.get(1).indexOf('█');
    int bank = lines.get(4).indexOf('█');
    assertThat(bank - root).as("bank starts 60%% along the axis").isBetween(20, 40);
    assertThat(lines.get(1).chars().filter(c -> c == '█').count()).isGreaterThan(lines.get(4).chars().filter(c -> c == '█').count());
  }

  @Test
  void aParentCycleIsDrawnOnceAndEnds() {
    List<SpanRow> spans = List.of(span("a", "b", "A", T, T + 10, 0), span("b", "a", "B", T + 1, T + 5, 0),
        span("c", "zz", "orphan", T + 2, T + 3, 0));
    List<int[]> order = Waterfall.order(spans);
    assertThat(order).hasSize(3);
    assertThat(order.stream().map(o -> spans.get(o[0]).name()).toList()).containsExactlyInAnyOrder("A", "B", "orphan");
  }

  // ---- the chart ----

  static final long S = 1_000_000_000L;

  /** The chart's plot cells (between the axis and the end of the line), braille dots only. */
  static List<String> plot(List<String> chart) {
    return chart.subList(0, chart.size() - 1).stream().map(View::stripStyles)
        .map(l -> l.substring(Math.max(l.indexOf('┤'), l.indexOf('│')) + 1)).toList();
  }

  static long dots(String s) {
    return s.chars().filter(c -> c > 0x2800 && c <= 0x28ff).count();
  }

  @Test
  void theChartIsLabelledWithItsMinimumMaximumAndWindow() {
    long from = T;
    long[] t = {T, T + 10 * S, T + 20 * S, T + 30 * S};
    double[] v = {2, 8, 5, 2.5};
    List<String> c = Chart.draw(t, v, from, T + 30 * S, 0, 60, 10);
    assertThat(c).hasSize(10);
    assertThat(View.stripStyles(c.get(0))).startsWith("8┤");
    assertThat(View.stripStyles(c.get(8))).startsWith("2┤");
    assertThat(View.stripStyles(c.get(4))).startsWith(" │");
    assertThat(View.stripStyles(c.get(9))).startsWith(" └12:00:00").endsWith("12:00:30");
    List<String> p = plot(c);
    assertThat(dots(p.get(0))).as("the maximum touches the top row").isPositive();
    assertThat(dots(p.get(8))).as("the minimum the bottom one").isPositive();
    assertThat(p.get(0).indexOf(p.get(0).strip().charAt(0))).as("the maximum a third of the way along").isBetween(15, 24);
    for (String l : c) {
      assertThat(Text.width(l)).isLessThanOrEqualTo(60);
    }
  }

  @Test
  void aMissingValueLeavesAGapAndSoDoesAMissingBucket() {
    long[] t = {T, T + 10 * S, T + 20 * S, T + 30 * S, T + 40 * S};
    double[] joined = {5, 5, 5, 5, 5};
    double[] nan = {1, 1, Double.NaN, 1, 1};
    List<String> a = plot(Chart.draw(t, new double[] {1, 1, 1, 1, 1}, T, T + 40 * S, 0, 44, 5));
    List<String> b = plot(Chart.draw(t, nan, T, T + 40 * S, 0, 44, 5));
    long all = a.stream().mapToLong(RenderTest::dots).sum();
    long gapped = b.stream().mapToLong(RenderTest::dots).sum();
    assertThat(gapped).as("no line through the NaN").isLessThan(all);
    String row = b.stream().filter(l -> dots(l) > 0).findFirst().orElseThrow();
    assertThat(row.strip()).as("a blank run in the middle").contains(" ");
    // With a step of 10 s, points 20 s apart (a bucket with no point) are not joined either.
    long[] sparse = {T, T + 10 * S, T + 30 * S, T + 40 * S};
    String stepped = plot(Chart.draw(sparse, new double[] {5, 5, 5, 5}, T, T + 40 * S, 15 * S, 44, 5)).stream()
        .filter(l -> dots(l) > 0).findFirst().orElseThrow();
    assertThat(stepped.strip()).contains(" ");
    String unstepped = plot(Chart.draw(sparse, new double[] {5, 5, 5, 5}, T, T + 40 * S, 0, 44, 5)).stream()
        .filter(l -> dots(l) > 0).findFirst().orElseThrow();
    assertThat(unstepped.strip()).doesNotContain(" ");
    assertThat(joined).hasSize(5);
  }

  @Test
  void aFlatSeriesIsOneLineAcrossTheMiddleWithItsValueBetweenTheLabels() {
    long[] t = {T, T + 10 * S, T + 20 * S};
    List<String> c = Chart.draw(t, new double[] {7, 7, 7}, T, T + 20 * S, 0, 40, 9);
    List<String> p = plot(c);
    List<Integer> rowsWithDots = new java.util.ArrayList<>();
    for (int i = 0; i < p.size(); i++) {
      if (dots(p.get(i)) > 0) {
        rowsWithDots.add(i);
      }
    }
    assertThat(rowsWithDots).as("one row, in the middle").hasSize(1);
    assertThat(rowsWithDots.getFirst()).isBetween(3, 5);
    double top = Double.parseDouble(View.stripStyles(c.get(0)).replaceAll("┤.*", "").strip());
    double bottom = Double.parseDouble(View.stripStyles(c.get(p.size() - 1)).replaceAll("┤.*", "").strip());
    assertThat(top).isGreaterThan(7);
    assertThat(bottom).isLessThan(7);
    assertThat(Chart.draw(t, new double[] {0, 0, 0}, T, T + 20 * S, 0, 40, 9)).as("a flat zero has a scale too").hasSize(9);
  }

  @Test
  void aSinglePointIsOneDotAndNoValuesSaySo() {
    List<String> c = Chart.draw(new long[] {T + 5 * S}, new double[] {3.5}, T, T + 10 * S, 0, 40, 6);
    assertThat(plot(c).stream().mapToLong(RenderTest::dots).sum()).isEqualTo(1);
    assertThat(plot(c).stream().flatMapToInt(String::chars).filter(ch -> ch > 0x2800 && ch <= 0x28ff)
        .map(ch -> Integer.bitCount(ch - 0x2800)).sum()).as("one dot lit").isEqualTo(1);
    assertThat(View.stripStyles(Chart.draw(new long[] {T}, new double[] {Double.NaN}, T, T + S, 0, 40, 6).getFirst()))
        .contains("no values");
  }

  @Test
  void labelsAreShortNumbers() {
    assertThat(Chart.number(12)).isEqualTo("12");
    assertThat(Chart.number(0.25)).isEqualTo("0.25");
    assertThat(Chart.number(1234.5678)).isEqualTo("1234.6");
    assertThat(Chart.number(1.5e9)).isEqualTo("1500000000");
    assertThat(Chart.number(2.5e-5)).isEqualTo("2.50e-05");
  }

  @Test
  void rawPointsAreJoinedUpToThreeTimesTheirUsualSpacing() {
    assertThat(MetricsTab.rawJoin(new long[] {0, 10, 20, 30, 100, 110})).isEqualTo(30);
    assertThat(MetricsTab.rawJoin(new long[] {0, 10})).as("too few to tell").isZero();
  }

  @Test
  void theStepFollowsTheChartWidth() {
    assertThat(MetricsTab.step(3_600 * S, 140)).isEqualTo("30s");
    assertThat(MetricsTab.step(900 * S, 140)).isEqualTo("10s");
    assertThat(MetricsTab.step(7 * 86_400 * S, 140)).isEqualTo("2h");
  }

  // ---- the map ----

  static ServiceMap.Node node(String s, long spans) {
    return new ServiceMap.Node(s, 1, spans, 0, 1, 2, false);
  }

  static ServiceMap.Edge edge(String from, String to, long calls) {
    return new ServiceMap.Edge(from, to, calls, calls / 10, 1, 9.5, "rpc");
  }

  static List<String> tree(ServiceMap m) {
    return MapTree.walk(m, MapTree.entry(m)).stream().map(l -> "  ".repeat(l.depth()) + l.service()
        + (l.mark() == MapTree.Mark.NONE ? "" : " " + l.mark())).toList();
  }

  @Test
  void theMapIsATreeFromTheEntryWithCalleesByCallVolume() {
    ServiceMap m = new ServiceMap(List.of(node("cart", 5), node("db", 9), node("frontend", 10), node("payments", 3)),
        List.of(edge("frontend", "payments", 3), edge("frontend", "cart", 40), edge("cart", "db", 9)), false,
        new Stats(0, 0, 0, 0, 0, 0), List.of());
    assertThat(MapTree.entry(m)).isEqualTo("frontend");
    assertThat(tree(m)).containsExactly("frontend", "  cart", "    db", "  payments");
  }

  @Test
  void aRetryLoopEndsAndIsMarkedOnce() {
    ServiceMap m = new ServiceMap(List.of(node("a", 1), node("b", 1), node("c", 1)),
        List.of(edge("a", "b", 10), edge("b", "c", 5), edge("c", "b", 4), edge("b", "b", 2)), false,
        new Stats(0, 0, 0, 0, 0, 0), List.of());
    assertThat(tree(m)).containsExactly("a", "  b", "    c", "      b CYCLE", "    b CYCLE");
  }

  @Test
  void aCycleWithNoEntryStillDrawsEveryServiceOnce() {
    ServiceMap m = new ServiceMap(List.of(node("x", 1), node("y", 7)), List.of(edge("x", "y", 1), edge("y", "x", 1)), false,
        new Stats(0, 0, 0, 0, 0, 0), List.of());
    assertThat(tree(m)).containsExactly("y", "  x", "    y CYCLE");
  }

  @Test
  void servicesTheEntryDoesNotReachAreAppended() {
    ServiceMap m = new ServiceMap(List.of(node("batch", 2), node("frontend", 10), node("lonely", 1), node("payments", 3),
        node("store", 1)), List.of(edge("frontend", "payments", 8), edge("batch", "store", 1)), false,
        new Stats(0, 0, 0, 0, 0, 0), List.of());
    assertThat(tree(m)).containsExactly("frontend", "  payments", "batch UNREACHED", "lonely UNREACHED",
        "store UNREACHED");
    Pane p = View.mapPane(m, 80);
    List<String> lines = p.lines.stream().map(View::stripStyles).toList();
    assertThat(lines.get(0)).startsWith("frontend").contains("spans 10").contains("p99 2.0ms");
    assertThat(lines.get(1)).startsWith("└─ payments").contains("rpc calls 8").contains("err 0").contains("p99 9.5ms");
    assertThat(lines.get(2)).startsWith("not reached from frontend");
    assertThat(lines.get(3)).startsWith("· batch");
    assertThat(p.acts.get(1)).isEqualTo(new Pane.Act.AddTerm("service.name=payments"));
    assertThat(p.acts.get(2)).isEqualTo(Pane.NONE);
    for (String l : p.lines) {
      assertThat(Text.width(l)).isLessThanOrEqualTo(80);
    }
  }

  @Test
  void aMapLineNamesItsServiceAsAFilterTermEvenWithSpaces() {
    assertThat(View.term("service.name", "postgresql shop")).isEqualTo("service.name=\"postgresql shop\"");
    assertThat(View.term("service.name", "checkout")).isEqualTo("service.name=checkout");
  }

  // ---- the frame and alerts panes ----

  @Test
  void theFramePaneActsOnEveryLine() {
    Frame f = new Frame(T, T + 10 * S, List.of(new Frame.Member(7, "payments",
        List.of(new Attribute("service.instance.id", new Value.Str("pay-1"))))), List.of("4bf92f3577b34da6a3ce929d0e0e4736"));
    Pane p = View.framePane(new CorrelateResult(f, false, false, 1, new Stats(0, 0, 0, 0, 0, 0), List.of()));
    assertThat(p.acts).containsExactly(new Pane.Act.Window(Long.toString(T), Long.toString(T + 10 * S)), Pane.NONE,
        new Pane.Act.AddTerm("service.name=payments"), Pane.NONE, new Pane.Act.OpenTrace("4bf92f3577b34da6a3ce929d0e0e4736"));
    assertThat(View.stripStyles(p.lines.get(2))).contains("payments").contains("service.instance.id=pay-1");
    p.move(1);
    assertThat(p.cursor).as("headings are skipped").isEqualTo(2);
    p.move(1);
    assertThat(p.selected()).isEqualTo(new Pane.Act.OpenTrace("4bf92f3577b34da6a3ce929d0e0e4736"));
    p.move(5);
    assertThat(p.cursor).isEqualTo(4);
  }

  @Test
  void enterOnARuleListsItsFilterOverItsWindow() {
    View v = new View(stub());
    AlertList.Alert rule = new AlertList.Alert("slow", "count", "traces", "firing", null, 3.0, true, 1, "5m",
        "duration_nano>1000000", null, "2026-12-01T11:55:30Z", "2026-12-01T12:00:29.999999999Z", null);
    v.pane = View.alertsPane(new AlertList(true, null, List.of(rule)));
    v.mode = View.Mode.PANE;
    assertThat(View.stripStyles(v.render(80, 10).get(3))).startsWith("firing   slow ").contains("3 > 1 over 5m")
        .contains("duration_nano>1000000");
    v.enter();
    assertThat(v.mode).isEqualTo(View.Mode.LIST);
    assertThat(v.tab).isEqualTo(View.Tab.TRACES);
    assertThat(v.filter()).isEqualTo("duration_nano>1000000");
    assertThat(v.from()).isEqualTo("2026-12-01T11:55:30Z");
    assertThat(v.to()).isEqualTo("2026-12-01T12:00:29.999999999Z");
    assertThat(v.message).as("the stub parsed the document the list sent").isEmpty();
    assertThat(View.stripStyles(v.render(80, 10).get(0))).contains("window 12-01 11:55:30.000…11:55:30.000".substring(0, 20));
    v.cycleRange();
    assertThat(v.window).as("r goes back to the range").isNull();
  }

  @Test
  void alertsOverADataDirectorySayTheyNeedAServer() {
    View v = new View(stub());
    v.openAlerts();
    assertThat(v.mode).isEqualTo(View.Mode.LIST);
    assertThat(v.message).contains("alerting needs a server");
  }

  /** The new screens are exactly the terminal's size too, whatever the names hold. */
  @Property(tries = 100)
  void panesAndTheMetricsTabFitAnySize(@ForAll @IntRange(min = 20, max = 160) int w, @ForAll @IntRange(min = 5, max = 40) int h,
      @ForAll String name) {
    View v = new View(stub());
    v.tab = View.Tab.METRICS;
    v.metrics.metrics = List.of(new MetricList.Metric(name, "gauge", "ms", ""), new MetricList.Metric("日本語" + name, "sum", "1", ""));
    v.metrics.series = new SeriesResult(List.of(new SeriesResult.Series(name, "gauge", "ms", "", List.of(), List.of(),
        List.of(new SeriesResult.Point(T - 60 * S, SeriesResult.DOUBLE, 0, 1.5), new SeriesResult.Point(T, SeriesResult.LONG, 4, 0)),
        List.of(), 0)), 0, new Stats(0, 0, 0, 0, 0, 0), List.of());
    check(v.render(w, h), w, h);
    ServiceMap m = new ServiceMap(List.of(node(name, 1), node("\033[2J" + name, 2)), List.of(edge(name, "\033[2J" + name, 3)),
        false, new Stats(0, 0, 0, 0, 0, 0), List.of());
    v.tab = View.Tab.LOGS;
    v.pane = View.mapPane(m, w);
    v.mode = View.Mode.PANE;
    check(v.render(w, h), w, h);
  }

  private static void check(List<String> lines, int w, int h) {
    assertThat(lines).hasSize(h);
    for (String l : lines) {
      assertThat(Text.width(l)).isEqualTo(w);
      assertThat(View.stripStyles(l)).doesNotContain("\033");
    }
  }

  static Source stub() {
    return new Source() {
      @Override
      public mira.query.result.SearchResult search(byte[] document) throws mira.query.result.QueryException {
        // The real parser: a document the UI builds must parse, and its errors are the API's.
        mira.query.doc.Documents.search(document, T);
        return new mira.query.result.SearchResult(List.of(), null, new Stats(0, 0, 0, 0, 0, 0), List.of());
      }

      @Override
      public TraceResult trace(String traceIdHex) {
        throw new UnsupportedOperationException();
      }

      @Override
      public mira.query.result.MetricList metrics(String from, String to) {
        return new mira.query.result.MetricList(List.of(), new Stats(0, 0, 0, 0, 0, 0), List.of());
      }

      @Override
      public mira.query.result.SeriesResult series(byte[] document) throws mira.query.result.QueryException {
        mira.query.doc.Documents.series(document, T);
        return new mira.query.result.SeriesResult(List.of(), 0, new Stats(0, 0, 0, 0, 0, 0), List.of());
      }

      @Override
      public mira.query.result.CorrelateResult correlate(byte[] document) throws mira.query.result.QueryException {
        mira.query.doc.Documents.correlate(document, T);
        throw new UnsupportedOperationException();
      }

      @Override
      public mira.query.result.ServiceMap map(byte[] document) throws mira.query.result.QueryException {
        mira.query.doc.Documents.map(document, T);
        throw new UnsupportedOperationException();
      }

      @Override
      public mira.client.AlertList alerts() {
        return null;
      }

      @Override
      public String describe() {
        return "stub";
      }

      @Override
      public void close() {}
    };
  }
}
