package mira.tui;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class TuiTest {
  @TempDir Path tmp;

  private Path mountinfo(String mountPoint, String fsType) throws Exception {
    Path f = tmp.resolve("mountinfo");
    Files.writeString(f, "1 1 0:1 / / rw - ext4 src rw\n2 1 0:2 / " + mountPoint + " rw shared:1 - " + fsType + " src rw\n");
    return f;
  }

  @Test
  void aDataDirectoryOnANetworkFilesystemIsRefusedInOneLine() throws Exception {
    Path dir = tmp.resolve("data");
    Files.createDirectories(dir);
    String why = Tui.refusal(dir.toRealPath(), mountinfo(dir.toRealPath().toString(), "nfs4"));
    assertThat(why).contains("network filesystem (nfs4)").contains(dir.toRealPath().toString()).contains("--addr")
        .doesNotContain("\n");
  }

  @Test
  void aLocalOrFuseDataDirectoryIsRead() throws Exception {
    Path dir = tmp.resolve("data");
    Files.createDirectories(dir);
    assertThat(Tui.refusal(dir.toRealPath(), mountinfo(dir.toRealPath().toString(), "xfs"))).isNull();
    assertThat(Tui.refusal(dir.toRealPath(), mountinfo(dir.toRealPath().toString(), "fuse.sshfs"))).isNull();
    assertThat(Tui.refusal(dir.toRealPath(), tmp.resolve("no-mountinfo"))).as("not Linux: nothing to check").isNull();
  }

  @Test
  void helpListsEveryKey() {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    int status = Tui.run(new String[] {"tui", "--help"}, new PrintStream(out, true, StandardCharsets.UTF_8), System.err);
    assertThat(status).isZero();
    String help = out.toString(StandardCharsets.UTF_8);
    for (String key : new String[] {"1 2 3", "Tab", "/", " r ", " n ", " t ", " f ", " g ", " q ", " c ", " m ", " a ",
        " s ", " p ", " b ", "[ ]", "Esc", "Enter"}) {
      assertThat(help).as(key).contains(key);
    }
  }
}
