package mira.server.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.zip.GZIPInputStream;
import mira.server.testing.HttpExchange;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The UI bundle as a browser gets it from a running node: the committed ui/dist bytes, their types,
 * ETags and 304s, gzip, cache lifetimes and security headers; encoded and relative paths are 404s;
 * the API, OTLP and probe routes beside it still answer.
 */
class UiAssetsTest {
  static final Path DIST = Path.of("../../ui/dist");
  @TempDir static Path data;
  static Node node;
  static String script;
  static String style;

  @BeforeAll
  static void start() throws Exception {
    node = new Node(data);
    String index = Files.readString(DIST.resolve("index.html"));
    // The app's script, not the boot script ahead of it: the larger file, which gzip must shrink.
    script = find(index, "src=\"(/assets/index-[^\"]+\\.js)\"");
    style = find(index, "href=\"(/assets/[^\"]+\\.css)\"");
  }

  @AfterAll
  static void stop() {
    node.close();
  }

  static String find(String text, String regex) {
    Matcher m = Pattern.compile(regex).matcher(text);
    assertThat(m.find()).as(regex + " in index.html").isTrue();
    return m.group(1);
  }

  static HttpExchange get(String path, Map<String, String> headers) throws IOException {
    return HttpExchange.send("GET", node.http() + path, headers, null, false);
  }

  @Test
  void theRootIsIndexHtmlAsCommittedAndNeverCachedUnchecked() throws Exception {
    HttpExchange x = get("/", Map.of());
    assertThat(x.status()).isEqualTo(200);
    assertThat(x.body()).isEqualTo(Files.readAllBytes(DIST.resolve("index.html")));
    assertThat(x.header("Content-Type")).isEqualTo("text/html; charset=utf-8");
    assertThat(x.header("Cache-Control")).isEqualTo("no-cache");
    assertThat(x.header("ETag")).matches("\"[0-9a-f]{32}\"");
    assertThat(get("/index.html", Map.of()).body()).isEqualTo(x.body());
  }

  @Test
  void everyAnswerCarriesTheSecurityHeaders() throws Exception {
    for (String path : List.of("/", script, style, "/assets/nothing-here.js")) {
      HttpExchange x = get(path, Map.of());
      String csp = x.header("Content-Security-Policy");
      assertThat(csp).as(path).contains("default-src 'self'").contains("script-src 'self'")
          .contains("style-src 'self'").contains("frame-ancestors 'none'").doesNotContain("unsafe");
      assertThat(x.header("X-Content-Type-Options")).as(path).isEqualTo("nosniff");
    }
  }

  @Test
  void theBootScriptIsInlineAndThePolicyAllowsItByHashAlone() throws Exception {
    String index = Files.readString(DIST.resolve("index.html"));
    // The one inline script: the boot script, right after the charset so it runs first.
    Matcher m = Pattern.compile("<meta charset=\"utf-8\" />\\s*<script>(.+?)</script>", Pattern.DOTALL).matcher(index);
    assertThat(m.find()).as("an inline script after the charset in index.html").isTrue();
    assertThat(m.group(1)).contains("/api/v1/query");
    assertThat(Pattern.compile("<script>").matcher(index).results().count()).as("inline scripts").isEqualTo(1);
    String hash = "'sha256-" + java.util.Base64.getEncoder().encodeToString(java.security.MessageDigest.getInstance("SHA-256")
        .digest(m.group(1).getBytes(StandardCharsets.UTF_8))) + "'";
    for (String path : List.of("/", "/index.html", script)) {
      String csp = get(path, Map.of()).header("Content-Security-Policy");
      String scriptSrc = find(csp, "script-src ([^;]*);");
      assertThat(scriptSrc).as(path).isEqualTo("'self' " + hash);
      assertThat(find(csp, "style-src ([^;]*);")).as(path).isEqualTo("'self'");
    }
  }

  @Test
  void hashedAssetsAreImmutableWithTheirTypes() throws Exception {
    HttpExchange js = get(script, Map.of());
    assertThat(js.status()).isEqualTo(200);
    assertThat(js.body()).isEqualTo(Files.readAllBytes(DIST.resolve(script.substring(1))));
    assertThat(js.header("Content-Type")).isEqualTo("text/javascript; charset=utf-8");
    assertThat(js.header("Cache-Control")).isEqualTo("public, max-age=31536000, immutable");
    HttpExchange css = get(style, Map.of());
    assertThat(css.header("Content-Type")).isEqualTo("text/css; charset=utf-8");
    assertThat(css.body()).isEqualTo(Files.readAllBytes(DIST.resolve(style.substring(1))));
  }

  @Test
  void aMatchingEtagIsA304WithoutABodyAndAStaleOneGetsTheBytes() throws Exception {
    String etag = get(script, Map.of()).header("ETag");
    HttpExchange same = get(script, Map.of("If-None-Match", etag));
    assertThat(same.status()).isEqualTo(304);
    assertThat(same.body()).isEmpty();
    assertThat(same.header("ETag")).isEqualTo(etag);
    assertThat(get(script, Map.of("If-None-Match", "\"0000\", " + etag)).status()).isEqualTo(304);
    assertThat(get(script, Map.of("If-None-Match", "W/" + etag)).status()).isEqualTo(304);
    assertThat(get(script, Map.of("If-None-Match", "*")).status()).isEqualTo(304);
    HttpExchange other = get(script, Map.of("If-None-Match", "\"0123456789abcdef0123456789abcdef\""));
    assertThat(other.status()).isEqualTo(200);
    assertThat(other.body()).isNotEmpty();
    // Another file has another tag.
    assertThat(get(style, Map.of()).header("ETag")).isNotEqualTo(etag);
  }

  @Test
  void gzipIsSentWhenAllowedAndInflatesToTheSameBytes() throws Exception {
    byte[] plain = Files.readAllBytes(DIST.resolve(script.substring(1)));
    HttpExchange z = get(script, Map.of("Accept-Encoding", "gzip, deflate, br"));
    assertThat(z.header("Content-Encoding")).isEqualTo("gzip");
    assertThat(z.header("Vary")).isEqualTo("Accept-Encoding");
    assertThat(z.body().length).isLessThan(plain.length / 2);
    try (InputStream in = new GZIPInputStream(new ByteArrayInputStream(z.body()))) {
      assertThat(in.readAllBytes()).isEqualTo(plain);
    }
    // The two forms are different representations, so their tags differ and each revalidates itself.
    String plainTag = get(script, Map.of("Accept-Encoding", "identity")).header("ETag");
    assertThat(z.header("ETag")).isNotEqualTo(plainTag);
    assertThat(get(script, Map.of("Accept-Encoding", "gzip", "If-None-Match", z.header("ETag"))).status()).isEqualTo(304);
    HttpExchange refused = get(script, Map.of("Accept-Encoding", "gzip;q=0"));
    assertThat(refused.header("Content-Encoding")).isNull();
    assertThat(refused.body()).isEqualTo(plain);
  }

  @Test
  void headAnswersTheHeadersWithoutTheBody() throws Exception {
    HttpExchange h = HttpExchange.send("HEAD", node.http() + script, Map.of(), null, false);
    assertThat(h.status()).isEqualTo(200);
    assertThat(h.body()).isEmpty();
    assertThat(h.header("ETag")).isEqualTo(get(script, Map.of()).header("ETag"));
  }

  @Test
  void pathsOutsideTheBundleAreNotFoundHoweverTheyAreSpelt() throws Exception {
    String name = script.substring("/assets/".length());
    List<String> paths = List.of(
        "/assets/nothing.js", "/bundle.txt", "/assets/", "/assets", "/favicon.ico", "/index.htm",
        "/..%2f..%2fetc%2fpasswd", "/assets/..%2f..%2f..%2fetc%2fpasswd", "/assets/..%2findex.html",
        "/%2e%2e/%2e%2e/etc/passwd", "/assets/%2e%2e/index.html", "/assets/%2E%2E%2Fbundle.txt",
        "/assets/" + name + "%00", "/assets/" + name + "%00.html", "/assets%2f" + name, "/assets/%5c..%5cindex.html",
        "/assets/" + name + "/", "/assets/" + name + "/../" + name, "/assets/./" + name, "//assets/" + name,
        "/assets/" + name.toUpperCase(java.util.Locale.ROOT), "/index.html/", "/assets/" + name + "?x=/../../etc/passwd#");
    for (String p : paths) {
      int status = rawStatus(p);
      if (p.contains("?")) {
        // The query is not part of the path: this one is the asset itself.
        assertThat(status).as(p).isEqualTo(200);
      } else {
        assertThat(status).as(p).isEqualTo(404);
      }
    }
    // A raw backslash, a raw NUL or a relative segment in the request line never reaches a file.
    for (String p : List.of("/assets\\..\\index.html", "/assets/..\\..\\etc\\passwd", "/assets/" + name + "\u0000",
        "/assets/../assets/" + name, "/assets/../../etc/passwd")) {
      assertThat(rawStatus(p)).as(p.replace("\u0000", "\\0")).isIn(400, 404);
    }
  }

  @Test
  void theApiProbesAndOtlpRoutesAreNotShadowed() throws Exception {
    assertThat(get("/readyz", Map.of()).text()).isEqualTo("ok\n");
    assertThat(get("/health", Map.of()).status()).isEqualTo(200);
    assertThat(get("/api/v1/alerts", Map.of()).text()).contains("\"enabled\"");
    assertThat(get("/api/v1/stats", Map.of()).text()).contains("\"signals\"");
    HttpExchange q = HttpExchange.post(node.http() + "/api/v1/query", "application/json", null,
        "{\"signal\": \"logs\"}".getBytes(StandardCharsets.UTF_8));
    assertThat(q.status()).isEqualTo(200);
    assertThat(q.text()).contains("\"rows\"");
    assertThat(get("/v1/logs", Map.of()).status()).isEqualTo(405);
    assertThat(HttpExchange.send("GET", node.http() + "/mcp", Map.of(), null, false).status()).isEqualTo(405);
    assertThat(get("/api/v1/nothing", Map.of()).header("Content-Security-Policy")).isNull();
  }

  /** The status of a GET whose request line carries {@code path} byte for byte, unnormalised. */
  static int rawStatus(String path) throws IOException {
    try (Socket s = new Socket("127.0.0.1", node.server.httpPort())) {
      s.setSoTimeout(10_000);
      String req = "GET " + path + " HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n";
      s.getOutputStream().write(req.getBytes(StandardCharsets.ISO_8859_1));
      s.getOutputStream().flush();
      ByteArrayOutputStream line = new ByteArrayOutputStream();
      InputStream in = s.getInputStream();
      int b;
      while ((b = in.read()) != -1 && b != '\n') {
        line.write(b);
      }
      String status = line.toString(StandardCharsets.ISO_8859_1);
      assertThat(status).as("status line for " + path).startsWith("HTTP/1.1 ");
      return Integer.parseInt(status.substring(9, 12));
    }
  }
}
