package mira.server.auth;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The token file's rules, and that no message ever carries a token. */
class TokensTest {
  @TempDir Path dir;

  private Path file(String text) throws Exception {
    return Files.writeString(dir.resolve("t" + System.nanoTime()), text);
  }

  @Test
  void commentsAndBlankLinesAreSkippedAndSpacesTrimmed() throws Exception {
    Tokens t = Tokens.load(file("# ops\n\n  abcdefghijklmnop  \nqrstuvwxyz012345==\n"));
    assertThat(t.size()).isEqualTo(2);
    assertThat(t.accepts("abcdefghijklmnop")).isTrue();
    assertThat(t.accepts("qrstuvwxyz012345==")).isTrue();
    assertThat(t.accepts("abcdefghijklmno")).isFalse();
    assertThat(t.accepts("# ops")).isFalse();
    assertThat(t.accepts(null)).isFalse();
  }

  @Test
  void aBadLineIsNamedByNumberWithoutItsText() throws Exception {
    String secret = "secret secret secret";
    Path f = file("abcdefghijklmnop\n" + secret + "\n");
    assertThatThrownBy(() -> Tokens.load(f)).isInstanceOf(BadTokenFile.class)
        .hasMessageContaining(f + ":2:").hasMessageNotContaining("secret");
    Path shortOne = file("tiny-token\n");
    assertThatThrownBy(() -> Tokens.load(shortOne)).hasMessageContaining(":1:").hasMessageNotContaining("tiny");
  }

  @Test
  void aFileWithoutTokensOrAbsentIsRefused() throws Exception {
    assertThatThrownBy(() -> Tokens.load(file("# nothing yet\n\n"))).hasMessageContaining("holds no token");
    assertThatThrownBy(() -> Tokens.load(dir.resolve("absent"))).hasMessageContaining("no such file");
  }

  @Test
  void aTokenInBothFilesIsRefused() throws Exception {
    Path both = file("abcdefghijklmnop\n");
    assertThatThrownBy(() -> Access.load(Optional.of(both), Optional.of(both)))
        .hasMessageContaining("share a token");
  }

  @Test
  void theBearerSchemeIsCaseInsensitiveAndNeedsOneToken() {
    assertThat(Bearer.token("Bearer abc")).isEqualTo("abc");
    assertThat(Bearer.token("bearer  abc ")).isEqualTo("abc");
    assertThat(Bearer.token("Basic abc")).isNull();
    assertThat(Bearer.token("Bearer")).isNull();
    assertThat(Bearer.token("Bearerabc")).isNull();
    assertThat(Bearer.token("Bearer a b")).isNull();
    assertThat(Bearer.token(null)).isNull();
  }

  @Test
  void anOpenSideAllowsAndACheckedSideNeedsItsOwnToken() throws Exception {
    Access a = Access.load(Optional.of(file("ingest-0123456789abcdef\n")), Optional.empty());
    assertThat(a.allows(Access.Need.READ, null)).isTrue();
    assertThat(a.allows(Access.Need.INGEST, null)).isFalse();
    assertThat(a.allows(Access.Need.INGEST, "Bearer ingest-0123456789abcdef")).isTrue();
    assertThat(a.allows(Access.Need.INGEST, "Bearer ingest-0123456789abcdeF")).isFalse();
  }
}
