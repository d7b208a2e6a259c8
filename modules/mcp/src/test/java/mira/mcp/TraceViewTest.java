package mira.mcp;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import mira.query.result.Attribute;
import mira.query.result.Resource;
import mira.query.result.Scope;
import mira.query.result.SpanRow;
import mira.query.result.Stats;
import mira.query.result.TraceResult;
import mira.query.result.Value;
import org.junit.jupiter.api.Test;

class TraceViewTest {
  private static final String TRACE = "0af7651916cd43dd8448eb211c80319c";

  private static SpanRow span(String id, String parent, String service, String name, long start, long end, int status) {
    Resource r = new Resource(List.of(new Attribute("service.name", new Value.Str(service))), 0, null, 7);
    return new SpanRow(start, 0, 1, 0, TRACE, id, parent, "", 0, name, 2, start, end, end - start, status,
        status == 2 ? name + " failed" : "", List.of(), 0, List.of(), 0, List.of(), 0, r,
        new Scope("s", "1", List.of(), 0, null));
  }

  /**
   * frontend GET /cart (0–100)
   *   cart  load (5–30)
   *   checkout pay (10–95)        error, passes it on
   *     payment charge (20–90)    error, where it starts
   *       ledger write (21–25)
   */
  private static TraceResult cart() {
    List<SpanRow> spans = new ArrayList<>(List.of(
        span("00000000000000a1", "", "frontend", "GET /cart", 0, 100, 2),
        span("00000000000000b1", "00000000000000a1", "cart", "load", 5, 30, 0),
        span("00000000000000c1", "00000000000000a1", "checkout", "pay", 10, 95, 2),
        span("00000000000000d1", "00000000000000c1", "payment", "charge", 20, 90, 2),
        span("00000000000000e1", "00000000000000d1", "ledger", "write", 21, 25, 0)));
    return new TraceResult(TRACE, spans, new Stats(1, 0, 1, 5, 5, 0), List.of());
  }

  @SuppressWarnings("unchecked")
  private static Map<String, Object> doc(TraceView.Built b) throws Exception {
    return (Map<String, Object>) Tree.parseAnswer(b.json());
  }

  @Test
  void theRowsComeInTreeOrderWithTheirDepth() throws Exception {
    Map<String, Object> d = doc(TraceView.build(cart(), null, 50));
    List<Map<String, Object>> rows = (List<Map<String, Object>>) d.get("rows");
    assertThat(rows).extracting(r -> r.get("name")).containsExactly("GET /cart", "load", "pay", "charge", "write");
    assertThat(rows).extracting(r -> r.get("depth")).containsExactly(0L, 1L, 1L, 2L, 3L);
    assertThat(rows).extracting(r -> r.get("service")).containsExactly("frontend", "cart", "checkout", "payment", "ledger");
    assertThat(d).containsEntry("spans_listed", 5L).containsEntry("spans_matching", 5L);
  }

  @Test
  void theSummaryNamesTheServicesTheOriginOfTheFailureTheCriticalPathAndTheSlowest() throws Exception {
    Map<String, Object> s = (Map<String, Object>) doc(TraceView.build(cart(), null, 50)).get("summary");
    assertThat(s).containsEntry("spans", 5L).containsEntry("errors", 3L).containsEntry("duration_nano", "100");
    assertThat((List<Map<String, Object>>) s.get("services")).extracting(m -> m.get("service") + ":" + m.get("errors"))
        .containsExactly("cart:0", "checkout:1", "frontend:1", "ledger:0", "payment:1");
    List<Map<String, Object>> errors = (List<Map<String, Object>>) s.get("error_spans");
    assertThat(errors.get(0)).containsEntry("service", "payment").containsEntry("origin", true)
        .containsEntry("message", "charge failed");
    assertThat(errors).extracting(m -> m.get("origin")).containsExactly(true, false, false);
    assertThat((List<Map<String, Object>>) s.get("critical_path")).extracting(m -> m.get("name") + " " + m.get("self_nano"))
        .containsExactly("GET /cart 15", "pay 15", "charge 66", "write 4");
    assertThat((List<Map<String, Object>>) s.get("slowest_spans")).extracting(m -> m.get("name"))
        .containsExactly("GET /cart", "pay", "charge", "load", "write");
  }

  @Test
  void maxSpansListsTheTopOfTheTreeAndServiceNarrowsTheRowsButNotTheSummary() throws Exception {
    TraceView.Built top = TraceView.build(cart(), null, 2);
    assertThat(top.listed()).isEqualTo(2);
    assertThat(top.matching()).isEqualTo(5);
    assertThat((List<Map<String, Object>>) doc(top).get("rows")).extracting(r -> r.get("name"))
        .containsExactly("GET /cart", "load");

    Map<String, Object> payment = doc(TraceView.build(cart(), "payment", 50));
    assertThat((List<Map<String, Object>>) payment.get("rows")).extracting(r -> r.get("name")).containsExactly("charge");
    assertThat((Map<String, Object>) payment.get("summary")).containsEntry("spans", 5L);
  }

  @Test
  void aSpanWhoseParentIsMissingIsARootAndNoSpanIsLost() throws Exception {
    List<SpanRow> spans = new ArrayList<>(cart().spans());
    spans.add(span("00000000000000f1", "00000000000000ff", "worker", "orphan", 50, 60, 0));
    TraceView.Built b = TraceView.build(new TraceResult(TRACE, spans, new Stats(1, 0, 1, 6, 6, 0), List.of()), null, 50);
    Map<String, Object> d = doc(b);
    assertThat((List<Map<String, Object>>) d.get("rows")).hasSize(6).last().satisfies(r -> {
      assertThat(r).containsEntry("name", "orphan").containsEntry("depth", 0L);
    });
    assertThat((List<?>) ((Map<String, Object>) d.get("summary")).get("roots")).hasSize(2);
  }
}
