package mira.server.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.InputStream;
import java.io.OutputStream;
import java.net.HttpURLConnection;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class StatsTest {
  @TempDir Path data;

  record Reply(int status, String contentType, String body) {}

  /** One HTTP exchange (the test runs inside module mira.server, which does not read java.net.http). */
  static Reply send(String method, String url, String contentType, byte[] body) throws Exception {
    HttpURLConnection c = (HttpURLConnection) URI.create(url).toURL().openConnection();
    c.setRequestMethod(method);
    if (body != null) {
      c.setDoOutput(true);
      c.setRequestProperty("Content-Type", contentType);
      try (OutputStream out = c.getOutputStream()) {
        out.write(body);
      }
    }
    int status = c.getResponseCode();
    try (InputStream in = status >= 400 ? c.getErrorStream() : c.getInputStream()) {
      return new Reply(status, c.getContentType(), in == null ? "" : new String(in.readAllBytes(), StandardCharsets.UTF_8));
    }
  }

  @Test
  void statsCountWhatWasAcceptedRefusedAndPublished() throws Exception {
    try (Node node = new Node(data)) {
      String logs = "{\"resourceLogs\":[{\"scopeLogs\":[{\"logRecords\":[{\"body\":{\"stringValue\":\"a\"}},"
          + "{\"body\":{\"stringValue\":\"b\"}}]}]}]}";
      Reply ok = send("POST", node.http() + "/v1/logs", "application/json", logs.getBytes(StandardCharsets.UTF_8));
      assertThat(ok.status()).isEqualTo(200);
      Reply bad = send("POST", node.http() + "/v1/traces", "application/x-protobuf", new byte[] {10, 50, 1});
      assertThat(bad.status()).isEqualTo(400);

      Reply stats = send("GET", node.http() + "/api/v1/stats", null, null);
      assertThat(stats.status()).isEqualTo(200);
      assertThat(stats.contentType()).isEqualTo("application/json");
      String s = stats.body();
      assertThat(s).contains("\"node\":\"e2e\"");
      assertThat(s).contains("\"logs\":{\"records_accepted\":\"2\",\"exports_accepted\":\"1\"");
      assertThat(s).contains("\"blocks_published\":\"1\"");
      assertThat(s).containsPattern("\"traces\":\\{[^}]*\"exports_invalid\":\"1\"");
      assertThat(s).containsPattern("\"metrics\":\\{\"records_accepted\":\"0\"");
      assertThat(s).contains("\"open_blocks\":0");
    }
  }
}
