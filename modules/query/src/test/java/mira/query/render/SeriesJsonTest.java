package mira.query.render;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.util.List;
import mira.query.result.Attribute;
import mira.query.result.MetricList;
import mira.query.result.Refused;
import mira.query.result.SeriesResult;
import mira.query.result.Stats;
import mira.query.result.Value;
import org.junit.jupiter.api.Test;

class SeriesJsonTest {
  static byte[] utf8(String s) {
    return s.getBytes(StandardCharsets.UTF_8);
  }

  @Test
  void seriesDocumentSpellsEveryKindAndCap() {
    SeriesResult.Series s = new SeriesResult.Series("h.count", "histogram", "ms", "d", List.of(new Attribute("service.name", new Value.Str("a"))),
        List.of(new Attribute("route", new Value.Str("/x"))),
        List.of(new SeriesResult.Point(1, SeriesResult.UNSIGNED, -1L, 0), new SeriesResult.Point(2, SeriesResult.LONG, -5, 0),
            new SeriesResult.Point(3, SeriesResult.DOUBLE, 0, 1.5), new SeriesResult.Point(4, SeriesResult.NULL, 0, 0)),
        List.of(new SeriesResult.Exemplar(2, SeriesResult.DOUBLE, 0, 0.25, "0af7", "b7ad", List.of())), 7);
    SeriesResult r = new SeriesResult(List.of(s), 3, new Stats(4, 1, 2, 10, 9, 5),
        List.of(new Refused("metrics/p=1/x", "bad")));
    assertThat(new String(SeriesJson.series(r), StandardCharsets.UTF_8)).isEqualTo("{\"series\":[{\"name\":\"h.count\","
        + "\"type\":\"histogram\",\"unit\":\"ms\",\"description\":\"d\",\"resource\":{\"attributes\":"
        + "{\"service.name\":\"a\"},\"entity\":null},\"attributes\":{\"route\":\"/x\"},\"points\":["
        + "{\"time_unix_nano\":\"1\",\"value\":\"18446744073709551615\"},{\"time_unix_nano\":\"2\",\"value\":\"-5\"},"
        + "{\"time_unix_nano\":\"3\",\"value\":1.5},{\"time_unix_nano\":\"4\",\"value\":null}],\"exemplars\":["
        + "{\"time_unix_nano\":\"2\",\"value\":0.25,\"trace_id\":\"0af7\",\"span_id\":\"b7ad\",\"attributes\":{}}],"
        + "\"dropped_points\":\"7\"}],\"stats\":{\"blocks_total\":4,\"blocks_pruned\":1,\"blocks_scanned\":2,"
        + "\"points_scanned\":\"10\",\"points_matched\":\"9\",\"dropped_series\":\"3\",\"took_ms\":\"5\"},"
        + "\"refused\":[{\"block\":\"metrics/p=1/x\",\"reason\":\"bad\"}]}");
  }

  @Test
  void metricListDocument() {
    MetricList m = new MetricList(List.of(new MetricList.Metric("cpu", "gauge", "1", ""),
        new MetricList.Metric("lat", "histogram", "ms", "", "delta", null, List.of("route"), List.of(List.of(5.0, 10.0)))),
        new Stats(1, 0, 1, 2, 2, 0), List.of());
    assertThat(new String(SeriesJson.metrics(m), StandardCharsets.UTF_8)).isEqualTo("{\"metrics\":[{\"name\":\"cpu\",\"type\":"
        + "\"gauge\",\"unit\":\"1\",\"description\":\"\",\"temporality\":null,\"monotonic\":null,\"attribute_keys\":[],"
        + "\"bounds\":[]},{\"name\":\"lat\",\"type\":\"histogram\",\"unit\":\"ms\",\"description\":\"\","
        + "\"temporality\":\"delta\",\"monotonic\":null,\"attribute_keys\":[\"route\"],\"bounds\":[[5.0,10.0]]}],\"stats\":{\"blocks_total\":1,\"blocks_pruned\":0,"
        + "\"blocks_scanned\":1,\"rows_scanned\":\"2\",\"rows_matched\":\"2\",\"took_ms\":\"0\"}}");
  }
}
