package mira.server.ui;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;

/** The request headers the UI routes read, parsed as RFC 9110 writes them. */
class UiRoutesTest {
  @Test
  void acceptEncodingAndIfNoneMatchAreParsedAsTheRfcsSay() {
    assertThat(UiRoutes.acceptsGzip("gzip")).isTrue();
    assertThat(UiRoutes.acceptsGzip("br;q=1.0, GZIP;q=0.5")).isTrue();
    assertThat(UiRoutes.acceptsGzip("*")).isTrue();
    assertThat(UiRoutes.acceptsGzip("gzip;q=0")).isFalse();
    assertThat(UiRoutes.acceptsGzip("gzip;q=0.000")).isFalse();
    assertThat(UiRoutes.acceptsGzip("deflate, br")).isFalse();
    assertThat(UiRoutes.acceptsGzip("")).isFalse();
    assertThat(UiRoutes.matches(List.of("\"a\", \"b\""), "\"b\"")).isTrue();
    assertThat(UiRoutes.matches(List.of("\"a\""), "\"b\"")).isFalse();
  }

  @Test
  void typesFollowTheExtension() {
    assertThat(Bundle.type("assets/index-x.js")).isEqualTo("text/javascript; charset=utf-8");
    assertThat(Bundle.type("index.html")).isEqualTo("text/html; charset=utf-8");
    assertThat(Bundle.type("assets/a.SVG")).isEqualTo("image/svg+xml");
    assertThat(Bundle.type("assets/blob")).isEqualTo("application/octet-stream");
  }

  @Test
  void onlyScriptsWithoutSrcAreHashedAndThePolicyNamesThem() {
    // The hash of "alert(1);" as CSP Level 3's example computes it (sha256, base64).
    String html = "<head><script>alert(1);</script><script type=\"module\" src=\"/assets/a.js\"></script>"
        + "<SCRIPT>x</SCRIPT><script async>\nb()\n</script></head>";
    List<String> h = Bundle.inlineScriptHashes(html);
    assertThat(h).hasSize(3);
    assertThat(h.getFirst()).isEqualTo("'sha256-5jFwrAK0UV47oFbVg/iCCBbxD8X1w+QvoOUepu4C2YA='");
    // The text between the tags exactly, line breaks included.
    assertThat(h.getLast()).isEqualTo("'sha256-NlXKTQe8YfLmZqnEm5aXK1Lb/1wWgkKgNs+lNRY6yOo='");
    assertThat(UiRoutes.csp(h)).contains("script-src 'self' " + String.join(" ", h) + ";")
        .contains("style-src 'self';").doesNotContain("unsafe");
    assertThat(UiRoutes.csp(List.of())).contains("script-src 'self';");
  }
}
