package mira.server.launch;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileSystemException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ThreadLocalRandom;

/**
 * Start-up checks of the data directory: it can be created, written and fsynced, and it is on a
 * local filesystem. Mira's durability rests on rename and fsync semantics that network
 * filesystems do not give (and on mmap, which they make slow or unsafe), so those are refused.
 * FUSE is only warned about: it may be local (e.g. an overlay) or remote, and we cannot tell.
 */
public final class DataDirectory {
  /** Filesystem types (as in /proc/self/mountinfo) that are network or cluster filesystems. */
  static final Set<String> NETWORK = Set.of(
      "nfs", "nfs4", "cifs", "smb3", "smbfs", "ceph", "9p", "glusterfs", "lustre", "gpfs", "afs",
      "ncpfs", "coda", "ocfs2", "gfs2", "beegfs", "orangefs", "pvfs2", "davfs", "virtiofs");

  private DataDirectory() {}

  /**
   * Creates the directory if needed and checks it.
   *
   * @return the real path of the directory, and a warning to log if any
   * @throws StartupException with a one-line reason the directory cannot be used
   */
  public static Checked prepare(Path dir, Path mountinfo) throws StartupException {
    Path abs = dir.toAbsolutePath().normalize();
    try {
      Files.createDirectories(abs);
    } catch (IOException e) {
      throw new StartupException("data directory " + abs + " cannot be created: " + reason(e));
    }
    Path real;
    try {
      real = abs.toRealPath();
    } catch (IOException e) {
      throw new StartupException("data directory " + abs + " cannot be resolved: " + reason(e));
    }
    if (!Files.isDirectory(real)) {
      throw new StartupException("data directory " + real + " is not a directory");
    }
    probeWrite(real);
    Optional<String> warning = Optional.empty();
    Optional<String> fsType = fsType(real, mountinfo);
    if (fsType.isPresent()) {
      String t = fsType.get();
      String base = t.contains(".") ? t.substring(0, t.indexOf('.')) : t;
      if (NETWORK.contains(t) || NETWORK.contains(base)) {
        throw new StartupException("data directory " + real + " is on a network filesystem (" + t
            + "); Mira needs a local disk for fsync and rename guarantees");
      }
      if (base.equals("fuse") || base.equals("fuseblk")) {
        warning = Optional.of("data directory " + real + " is on a FUSE filesystem (" + t
            + "); durability depends on what the FUSE server does with fsync");
      }
    }
    return new Checked(real, fsType, warning);
  }

  /** The result of the checks. */
  public record Checked(Path path, Optional<String> fsType, Optional<String> warning) {}

  private static void probeWrite(Path dir) throws StartupException {
    // The probe must be this process's alone: processes sharing a data directory from different
    // containers can have the same pid (1), and one must not truncate or delete the other's probe.
    Path probe = dir.resolve(".mira-probe-" + ProcessHandle.current().pid() + "-"
        + Long.toHexString(ThreadLocalRandom.current().nextLong()));
    boolean created = false;
    try {
      try (FileChannel ch = FileChannel.open(probe, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE)) {
        created = true;
        ch.write(ByteBuffer.wrap("mira".getBytes(StandardCharsets.US_ASCII)));
        ch.force(true);
      }
      Files.delete(probe);
    } catch (IOException e) {
      try {
        if (created) {
          Files.deleteIfExists(probe);
        }
      } catch (IOException ignored) {
        // The directory is unusable either way; the first error is the one worth reporting.
      }
      throw new StartupException("data directory " + dir + " is not writable: " + reason(e));
    }
  }

  /**
   * The filesystem type of the mount holding {@code path}: the entry of /proc/self/mountinfo whose
   * mount point is the longest prefix of the path. Empty when mountinfo cannot be read (not Linux).
   */
  static Optional<String> fsType(Path path, Path mountinfo) {
    List<String> lines;
    try {
      lines = Files.readAllLines(mountinfo, StandardCharsets.UTF_8);
    } catch (IOException e) {
      return Optional.empty();
    }
    String best = null;
    int bestLen = -1;
    String target = path.toString();
    for (String line : lines) {
      String[] f = line.split(" ");
      int dash = -1;
      for (int i = 6; i < f.length; i++) {
        if (f[i].equals("-")) {
          dash = i;
          break;
        }
      }
      if (f.length < 5 || dash < 0 || dash + 1 >= f.length) {
        continue;
      }
      String mountPoint = unescape(f[4]);
      boolean covers = mountPoint.equals("/") || target.equals(mountPoint) || target.startsWith(mountPoint + "/");
      // Later lines win ties: a mount stacked on the same point hides the one below.
      if (covers && mountPoint.length() >= bestLen) {
        best = f[dash + 1];
        bestLen = mountPoint.length();
      }
    }
    return Optional.ofNullable(best);
  }

  /** mountinfo escapes space, tab, newline and backslash as octal. */
  private static String unescape(String s) {
    if (s.indexOf('\\') < 0) {
      return s;
    }
    StringBuilder b = new StringBuilder(s.length());
    for (int i = 0; i < s.length(); i++) {
      char c = s.charAt(i);
      if (c == '\\' && i + 3 < s.length()) {
        b.append((char) Integer.parseInt(s.substring(i + 1, i + 4), 8));
        i += 3;
      } else {
        b.append(c);
      }
    }
    return b.toString();
  }

  private static String reason(IOException e) {
    if (e instanceof FileSystemException fse && fse.getReason() != null) {
      return fse.getReason();
    }
    return e.getClass().getSimpleName() + (e.getMessage() == null ? "" : ": " + e.getMessage());
  }
}
