package mira.query.scan;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.google.protobuf.ByteString;
import io.opentelemetry.proto.collector.trace.v1.ExportTraceServiceRequest;
import io.opentelemetry.proto.trace.v1.ResourceSpans;
import io.opentelemetry.proto.trace.v1.ScopeSpans;
import io.opentelemetry.proto.trace.v1.Span;
import java.nio.file.Path;
import java.util.HexFormat;
import java.util.List;
import java.util.Locale;
import mira.query.render.ResponseJson;
import mira.proto.wire.Signal;
import mira.query.LocalQueries;
import mira.query.result.QueryException;
import mira.query.result.TraceResult;
import mira.query.testing.Blocks;
import mira.query.testing.Corpus;
import mira.query.testing.JsonTree;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class TraceLookupTest {
  static final long DAY = 86_400_000_000_000L;
  static final long NOW = Corpus.T0 + 40 * DAY;
  static final ByteString TRACE = ByteString.fromHex("0af7651916cd43dd8448eb211c80319c");
  static final ByteString OTHER = ByteString.fromHex("00000000000000000000000000000001");

  @TempDir Path data;

  static Span span(ByteString trace, int id, long start, String name) {
    return Span.newBuilder().setTraceId(trace).setSpanId(ByteString.copyFrom(new byte[] {0, 0, 0, 0, 0, 0, 0, (byte) id}))
        .setName(name).setStartTimeUnixNano(start).setEndTimeUnixNano(start + 10).build();
  }

  static ExportTraceServiceRequest req(Span... spans) {
    return ExportTraceServiceRequest.newBuilder().addResourceSpans(ResourceSpans.newBuilder()
        .addScopeSpans(ScopeSpans.newBuilder().addAllSpans(List.of(spans)))).build();
  }

  @Test
  void everySpanOfTheTraceAcrossRetentionSortedByStart() throws Exception {
    // A month apart, in three blocks from two nodes, far outside any default window.
    Blocks.publish(data, Signal.TRACES, "a", 1, req(span(TRACE, 3, Corpus.T0 + 30 * DAY, "late"),
        span(OTHER, 9, Corpus.T0 + 30 * DAY, "other")), Corpus.T0);
    Blocks.publish(data, Signal.TRACES, "b", 1, req(span(TRACE, 1, Corpus.T0, "root"), span(OTHER, 8, Corpus.T0, "x")),
        Corpus.T0);
    Blocks.publish(data, Signal.TRACES, "a", 2, req(span(TRACE, 2, Corpus.T0 + DAY, "middle")), Corpus.T0);
    try (LocalQueries q = LocalQueries.open(data, () -> NOW)) {
      String hex = HexFormat.of().formatHex(TRACE.toByteArray());
      TraceResult r = q.trace(hex.toUpperCase(Locale.ROOT));
      assertThat(r.traceId()).isEqualTo(hex);
      assertThat(r.spans().stream().map(s -> JsonTree.parseObj(ResponseJson.row(s)).str("name")).toList())
          .containsExactly("root", "middle", "late");
      assertThat(r.stats().blocksTotal()).isEqualTo(3);
      JsonTree.Obj env = JsonTree.parseObj(ResponseJson.trace(r));
      assertThat(env.str("trace_id")).isEqualTo(hex);
      assertThat(env.list("rows")).hasSize(3);
      assertThat(((JsonTree.Obj) env.list("rows").get(0)).str("trace_id")).isEqualTo(hex);

      assertThat(q.trace("ffffffffffffffffffffffffffffffff").spans()).isEmpty();
    }
  }

  @Test
  void aMalformedIdIsRefused() throws Exception {
    try (LocalQueries q = LocalQueries.open(data, () -> NOW)) {
      assertThatThrownBy(() -> q.trace("abc")).isInstanceOf(QueryException.class).hasMessageContaining("32 hex digits");
      assertThatThrownBy(() -> q.trace("0af7651916cd43dd8448eb211c80319g")).isInstanceOf(QueryException.class)
          .hasMessageContaining("character 32");
      assertThatThrownBy(() -> q.trace("٠af7651916cd43dd8448eb211c80319c")).isInstanceOf(QueryException.class);
    }
  }
}
