package mira.server.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.Map;
import java.util.zip.GZIPInputStream;
import mira.server.api.Compression;
import mira.server.testing.HttpExchange;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import java.nio.file.Path;

/**
 * API answers as a browser gets them: gzip when the request allows it and the answer is large
 * enough, the same bytes once inflated; identity otherwise, and for every client that does not ask.
 */
class AnswerCompressionTest {
  static final String TRACE = "5b8efff798038103d269b633813fc60c";
  @TempDir static Path data;
  static Node node;

  @BeforeAll
  static void start() throws Exception {
    node = new Node(data);
    // One trace of 300 spans, each with attributes long enough that the answer is tens of KB.
    StringBuilder spans = new StringBuilder();
    long start = System.currentTimeMillis() * 1_000_000L - 60_000_000_000L;
    for (int i = 0; i < 300; i++) {
      if (i > 0) {
        spans.append(',');
      }
      spans.append("{\"traceId\":\"").append(TRACE).append("\",\"spanId\":\"").append(String.format("%016x", i + 1))
          .append("\",\"parentSpanId\":\"").append(i == 0 ? "" : String.format("%016x", (i + 1) / 2))
          .append("\",\"name\":\"op-").append(i % 7).append("\",\"kind\":2,\"startTimeUnixNano\":\"")
          .append(start + i * 1_000_000L).append("\",\"endTimeUnixNano\":\"").append(start + i * 1_000_000L + 500_000L)
          .append("\",\"attributes\":[{\"key\":\"db.statement\",\"value\":{\"stringValue\":")
          .append("\"SELECT id, owner, created FROM items WHERE id = ? ORDER BY created DESC LIMIT 10\"}}]}");
    }
    String doc = "{\"resourceSpans\":[{\"resource\":{\"attributes\":[{\"key\":\"service.name\",\"value\":"
        + "{\"stringValue\":\"compress\"}}]},\"scopeSpans\":[{\"spans\":[" + spans + "]}]}]}";
    HttpExchange sent = HttpExchange.post(node.http() + "/v1/traces", "application/json", null,
        doc.getBytes(StandardCharsets.UTF_8));
    assertThat(sent.status()).isEqualTo(200);
  }

  @AfterAll
  static void stop() {
    node.close();
  }

  static HttpExchange get(String path, String acceptEncoding) throws IOException {
    Map<String, String> h = new HashMap<>();
    if (acceptEncoding != null) {
      h.put("Accept-Encoding", acceptEncoding);
    }
    return HttpExchange.send("GET", node.http() + path, h, null, false);
  }

  static byte[] inflate(byte[] gz) throws IOException {
    try (InputStream in = new GZIPInputStream(new ByteArrayInputStream(gz))) {
      return in.readAllBytes();
    }
  }

  @Test
  void aLargeAnswerIsGzippedWhenAllowedAndInflatesToTheIdentityBytes() throws Exception {
    HttpExchange plain = get("/api/v1/traces/" + TRACE, null);
    assertThat(plain.status()).isEqualTo(200);
    assertThat(plain.header("Content-Encoding")).isNull();
    assertThat(plain.body().length).isGreaterThan(Compression.MIN_BYTES * 10);
    assertThat(plain.text()).contains("\"span_id\":\"000000000000012c\"");

    HttpExchange z = get("/api/v1/traces/" + TRACE, "gzip, deflate, br");
    assertThat(z.status()).isEqualTo(200);
    assertThat(z.header("Content-Encoding")).isEqualTo("gzip");
    assertThat(z.header("Vary")).isEqualTo("Accept-Encoding");
    assertThat(z.header("Content-Type")).startsWith("application/json");
    assertThat(z.body().length).isLessThan(plain.body().length / 5);
    // Only took_ms may differ between two answers of the same question.
    assertThat(withoutTook(inflate(z.body()))).isEqualTo(withoutTook(plain.body()));
  }

  @Test
  void identityWhenGzipIsRefusedOrNotOffered() throws Exception {
    for (String refused : new String[] {"gzip;q=0", "br, deflate", "identity"}) {
      HttpExchange r = get("/api/v1/traces/" + TRACE, refused);
      assertThat(r.header("Content-Encoding")).as(refused).isNull();
      assertThat(r.text()).as(refused).startsWith("{");
    }
  }

  @Test
  void aSmallAnswerIsSentAsItIs() throws Exception {
    HttpExchange r = get("/api/v1/traces/00000000000000000000000000000001", "gzip");
    assertThat(r.status()).isEqualTo(200);
    assertThat(r.body().length).isLessThan(Compression.MIN_BYTES);
    assertThat(r.header("Content-Encoding")).isNull();
    assertThat(r.text()).contains("\"rows\":[]");
  }

  static String withoutTook(byte[] json) {
    return new String(json, StandardCharsets.UTF_8).replaceAll("\"took_ms\":\"?\\d+\"?", "");
  }
}
