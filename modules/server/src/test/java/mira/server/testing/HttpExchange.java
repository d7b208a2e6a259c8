package mira.server.testing;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.HttpURLConnection;
import java.net.URI;
import java.util.List;
import java.util.Map;

/** One HTTP/1.1 request over HttpURLConnection (in java.base, so the test needs no extra module). */
public record HttpExchange(int status, Map<String, List<String>> headers, byte[] body) {

  public static HttpExchange send(String method, String url, Map<String, String> headers, byte[] body, boolean chunked)
      throws IOException {
    HttpURLConnection c = (HttpURLConnection) URI.create(url).toURL().openConnection();
    c.setConnectTimeout(5_000);
    c.setReadTimeout(15_000);
    c.setRequestMethod(method);
    headers.forEach(c::setRequestProperty);
    if (body != null) {
      c.setDoOutput(true);
      if (chunked) {
        c.setChunkedStreamingMode(16 * 1024);
      } else {
        c.setFixedLengthStreamingMode(body.length);
      }
      try (OutputStream out = c.getOutputStream()) {
        out.write(body);
      }
    }
    int status = c.getResponseCode();
    InputStream in = status >= 400 ? c.getErrorStream() : c.getInputStream();
    byte[] responseBody = in == null ? new byte[0] : in.readAllBytes();
    if (in != null) {
      in.close();
    }
    return new HttpExchange(status, c.getHeaderFields(), responseBody);
  }

  public static HttpExchange post(String url, String contentType, String contentEncoding, byte[] body) throws IOException {
    return send("POST", url, contentEncoding == null
        ? Map.of("Content-Type", contentType)
        : Map.of("Content-Type", contentType, "Content-Encoding", contentEncoding), body, false);
  }

  public String header(String name) {
    for (Map.Entry<String, List<String>> e : headers.entrySet()) {
      if (e.getKey() != null && e.getKey().equalsIgnoreCase(name)) {
        return e.getValue().getFirst();
      }
    }
    return null;
  }

  public String text() {
    return new String(body, java.nio.charset.StandardCharsets.UTF_8);
  }
}
