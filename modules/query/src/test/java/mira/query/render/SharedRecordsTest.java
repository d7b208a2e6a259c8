package mira.query.render;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import mira.query.result.Attribute;
import mira.query.result.LogRow;
import mira.query.result.Resource;
import mira.query.result.Row;
import mira.query.result.Scope;
import mira.query.result.SearchResult;
import mira.query.result.SpanRow;
import mira.query.result.Stats;
import mira.query.result.TraceResult;
import mira.query.result.Value;
import org.junit.jupiter.api.Test;

/**
 * A page writes a resource or scope shared by several rows once and copies its bytes after that:
 * the document must hold exactly the rows each rendered on its own, in order, whatever the mix of
 * shared, repeated and merely equal records.
 */
class SharedRecordsTest {
  static Resource resource(String pod) {
    List<Attribute> attrs = new ArrayList<>();
    attrs.add(new Attribute("service.name", new Value.Str("checkout")));
    attrs.add(new Attribute("k8s.pod.name", new Value.Str(pod)));
    attrs.add(new Attribute("process.pid", new Value.Int(4242)));
    attrs.add(new Attribute("quote\"and\\slash", new Value.Str("é ü \u2028 \"x\"")));
    attrs.add(new Attribute("nested", new Value.KvList(List.of(new Attribute("a", new Value.Array(
        List.of(new Value.Bool(true), new Value.F64(1.5), Value.Empty.INSTANCE)))))));
    return new Resource(attrs, 1, pod.endsWith("0") ? "https://opentelemetry.io/schemas/1.26.0" : null,
        0x0123456789abcdefL);
  }

  static LogRow log(long t, Resource r, Scope s) {
    return new LogRow(t, 1, 2, (int) t, t + 1, 9, "INFO", "", new Value.Str("body " + t), "", "", 0,
        List.of(new Attribute("request.id", new Value.Str("r" + t))), 0, r, s);
  }

  static SpanRow span(long t, Resource r, Scope s) {
    return new SpanRow(t, 1, 2, (int) t, "0af7651916cd43dd8448eb211c80319c", String.format("%016x", t), "", "", 0,
        "GET /cart", 2, t, t + 5, 5, 0, "", List.of(new Attribute("http.response.status_code", new Value.Int(200))), 0,
        List.of(), 0, List.of(), 0, r, s);
  }

  @Test
  void aPageOfSharedRecordsIsTheRowsRenderedOneByOne() {
    Resource shared = resource("pod-0");
    Resource equalButOther = resource("pod-0");
    Resource other = resource("pod-1");
    Scope scope = new Scope("io.opentelemetry.jdbc", "2.1", List.of(new Attribute("x", new Value.Str("y"))), 0, null);
    Scope scope2 = new Scope("", "", List.of(), 0, "https://example.com/s");
    List<Row> rows = List.of(log(9, shared, scope), log(8, shared, scope), log(7, other, scope2),
        log(6, shared, scope), log(5, equalButOther, scope), log(4, shared, scope2), log(3, other, scope2));
    SearchResult r = new SearchResult(rows, null, new Stats(1, 0, 1, 7, 7, 0), List.of());
    assertThat(text(ResponseJson.search(r))).contains("{\"rows\":[" + oneByOne(rows) + "],");
  }

  @Test
  void aTraceOfSharedRecordsIsTheSpansRenderedOneByOne() {
    Resource shared = resource("pod-0");
    Scope scope = new Scope("s", "1", List.of(), 0, null);
    List<SpanRow> spans = List.of(span(1, shared, scope), span(2, shared, scope), span(3, resource("pod-2"), scope),
        span(4, shared, scope));
    TraceResult r = new TraceResult("0af7651916cd43dd8448eb211c80319c", spans, new Stats(1, 0, 1, 4, 4, 0), List.of());
    assertThat(text(ResponseJson.trace(r))).contains("\"rows\":[" + oneByOne(new ArrayList<>(spans)) + "],");
  }

  private static String oneByOne(List<Row> rows) {
    List<String> each = new ArrayList<>();
    for (Row row : rows) {
      each.add(text(ResponseJson.row(row)));
    }
    return String.join(",", each);
  }

  private static String text(byte[] b) {
    return new String(b, StandardCharsets.UTF_8);
  }
}
