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
}
