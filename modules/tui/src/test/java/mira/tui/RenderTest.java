package mira.tui;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import mira.query.result.Attribute;
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
      public String describe() {
        return "stub";
      }

      @Override
      public void close() {}
    };
  }
}
