package mira.server.launch;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class DataDirectoryTest {
  @TempDir Path tmp;

  private Path mountinfo(String... lines) throws Exception {
    Path f = tmp.resolve("mountinfo");
    Files.writeString(f, String.join("\n", lines) + "\n");
    return f;
  }

  private static String line(int id, String mountPoint, String fsType) {
    return id + " 1 0:" + id + " / " + mountPoint + " rw,relatime shared:1 - " + fsType + " src rw";
  }

  @Test
  void createsAMissingDirectory() throws Exception {
    Path d = tmp.resolve("a/b/data");
    DataDirectory.Checked c = DataDirectory.prepare(d, mountinfo(line(1, "/", "ext4")));
    assertThat(c.path()).isDirectory();
    assertThat(c.fsType()).contains("ext4");
    assertThat(c.warning()).isEmpty();
    try (var s = Files.list(c.path())) {
      assertThat(s).as("the write probe is removed").isEmpty();
    }
  }

  @Test
  void aProbeOfAnotherProcessWithTheSamePidIsLeftAlone() throws Exception {
    // Two containers sharing the directory are both pid 1: the other one is midway through its probe.
    Path d = tmp.resolve("shared");
    Files.createDirectories(d);
    Path theirs = d.resolve(".mira-probe-" + ProcessHandle.current().pid());
    Files.writeString(theirs, "theirs");

    DataDirectory.prepare(d, mountinfo(line(1, "/", "ext4")));

    assertThat(theirs).hasContent("theirs");
    try (var s = Files.list(d)) {
      assertThat(s).as("our own probe is removed").containsExactly(theirs);
    }
  }

  @Test
  void refusesADirectoryThatCannotBeCreated() throws Exception {
    Path file = tmp.resolve("plain-file");
    Files.writeString(file, "x");
    assertThatThrownBy(() -> DataDirectory.prepare(file.resolve("data"), mountinfo(line(1, "/", "ext4"))))
        .isInstanceOf(StartupException.class)
        .hasMessageContaining("cannot be created").hasMessageContaining(file.resolve("data").toString());
  }

  @Test
  void refusesAPathThatIsAFile() throws Exception {
    Path file = tmp.resolve("plain-file");
    Files.writeString(file, "x");
    assertThatThrownBy(() -> DataDirectory.prepare(file, mountinfo(line(1, "/", "ext4"))))
        .isInstanceOf(StartupException.class).hasMessageContaining(file.toString());
  }

  @Test
  void refusesANetworkFilesystemNamingIt() throws Exception {
    Path d = tmp.resolve("data");
    Files.createDirectories(d);
    String real = d.toRealPath().toString();
    for (String fs : new String[] {"nfs4", "nfs", "cifs", "smb3", "ceph", "9p", "glusterfs"}) {
      Path mi = mountinfo(line(1, "/", "ext4"), line(2, real, fs));
      assertThatThrownBy(() -> DataDirectory.prepare(d, mi))
          .isInstanceOf(StartupException.class)
          .hasMessageContaining("network filesystem").hasMessageContaining(fs);
    }
  }

  @Test
  void aNetworkMountElsewhereDoesNotMatter() throws Exception {
    Path d = tmp.resolve("data");
    Files.createDirectories(d);
    String real = d.toRealPath().toString();
    // A sibling whose name shares the prefix must not be taken for the parent mount.
    Path mi = mountinfo(line(1, "/", "xfs"), line(2, real + "-other", "nfs"));
    assertThat(DataDirectory.prepare(d, mi).fsType()).contains("xfs");
  }

  @Test
  void fuseWarnsButStarts() throws Exception {
    Path d = tmp.resolve("data");
    Files.createDirectories(d);
    Path mi = mountinfo(line(1, "/", "ext4"), line(2, d.toRealPath().getParent().toString(), "fuse.sshfs"));
    DataDirectory.Checked c = DataDirectory.prepare(d, mi);
    assertThat(c.warning()).hasValueSatisfying(w -> assertThat(w).contains("FUSE").contains("fuse.sshfs"));
  }

  @Test
  void theLastOfStackedMountsWins() throws Exception {
    Path d = tmp.resolve("data");
    Files.createDirectories(d);
    String real = d.toRealPath().toString();
    Path mi = mountinfo(line(1, "/", "ext4"), line(2, real, "nfs"), line(3, real, "tmpfs"));
    assertThat(DataDirectory.prepare(d, mi).fsType()).contains("tmpfs");
  }

  @Test
  void escapedMountPointsAreDecoded() throws Exception {
    Path d = tmp.resolve("my data");
    Files.createDirectories(d);
    String escaped = d.toRealPath().toString().replace(" ", "\\040");
    Path mi = mountinfo(line(1, "/", "ext4"), line(2, escaped, "cifs"));
    assertThatThrownBy(() -> DataDirectory.prepare(d, mi)).hasMessageContaining("cifs");
  }

  @Test
  void unreadableMountinfoSkipsTheTypeCheck() throws Exception {
    DataDirectory.Checked c = DataDirectory.prepare(tmp.resolve("d"), tmp.resolve("no-such-mountinfo"));
    assertThat(c.fsType()).isEmpty();
  }
}
