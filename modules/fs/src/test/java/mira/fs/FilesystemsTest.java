package mira.fs;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class FilesystemsTest {
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
  void theLongestCoveringMountPointNamesTheType() throws Exception {
    Path mi = mountinfo(line(1, "/", "ext4"), line(2, "/srv", "nfs4"), line(3, "/srv-other", "xfs"));
    assertThat(Filesystems.type(Path.of("/srv/data"), mi)).contains("nfs4");
    assertThat(Filesystems.type(Path.of("/srv"), mi)).contains("nfs4");
    assertThat(Filesystems.type(Path.of("/srv-otherwise/x"), mi)).as("a shared prefix is not a parent").contains("ext4");
  }

  @Test
  void aStackedMountHidesTheOneBelowAndEscapesAreDecoded() throws Exception {
    Path mi = mountinfo(line(1, "/", "ext4"), line(2, "/d", "nfs"), line(3, "/d", "tmpfs"), line(4, "/my\\040data", "cifs"));
    assertThat(Filesystems.type(Path.of("/d/x"), mi)).contains("tmpfs");
    assertThat(Filesystems.type(Path.of("/my data/x"), mi)).contains("cifs");
  }

  @Test
  void networkAndFuseTypesAreTold() {
    for (String t : new String[] {"nfs", "nfs4", "cifs", "smb3", "ceph", "9p", "glusterfs", "virtiofs"}) {
      assertThat(Filesystems.isNetwork(t)).as(t).isTrue();
    }
    assertThat(Filesystems.isNetwork("ext4")).isFalse();
    assertThat(Filesystems.isNetwork("fuse.sshfs")).as("FUSE is warned about, not refused").isFalse();
    assertThat(Filesystems.isFuse("fuse.sshfs")).isTrue();
    assertThat(Filesystems.isFuse("fuseblk")).isTrue();
    assertThat(Filesystems.isFuse("xfs")).isFalse();
  }

  @Test
  void anUnreadableMountTableGivesNoType() {
    assertThat(Filesystems.type(Path.of("/x"), tmp.resolve("absent"))).isEmpty();
  }
}
