package mira.fs;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * The filesystem type of a path, from a mountinfo file ({@code /proc/self/mountinfo} on Linux),
 * and whether that type is a network filesystem (refused: rename, fsync and mmap are not safe on
 * it) or FUSE (warned about: it may be local or remote, and nothing here can tell).
 *
 * <p>Stateless; every method reads the file it is given and nothing else.
 */
public final class Filesystems {
  /** The running process's mount table on Linux. */
  public static final Path MOUNTINFO = Path.of("/proc/self/mountinfo");

  /** Filesystem types (as in /proc/self/mountinfo) that are network or cluster filesystems. */
  public static final Set<String> NETWORK = Set.of(
      "nfs", "nfs4", "cifs", "smb3", "smbfs", "ceph", "9p", "glusterfs", "lustre", "gpfs", "afs",
      "ncpfs", "coda", "ocfs2", "gfs2", "beegfs", "orangefs", "pvfs2", "davfs", "virtiofs");

  private Filesystems() {}

  /** Whether {@code fsType} (e.g. {@code nfs4}, {@code fuse.sshfs}) is a network or cluster filesystem. */
  public static boolean isNetwork(String fsType) {
    return NETWORK.contains(fsType) || NETWORK.contains(base(fsType));
  }

  /** Whether {@code fsType} is FUSE ({@code fuse}, {@code fuseblk}, {@code fuse.<server>}). */
  public static boolean isFuse(String fsType) {
    String b = base(fsType);
    return b.equals("fuse") || b.equals("fuseblk");
  }

  /**
   * The filesystem type of the mount holding {@code path} (absolute, symbolic links resolved): the
   * entry of {@code mountinfo} whose mount point is the longest prefix of the path, the later of
   * two equal ones. Empty when mountinfo cannot be read (not Linux).
   */
  public static Optional<String> type(Path path, Path mountinfo) {
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

  private static String base(String fsType) {
    int dot = fsType.indexOf('.');
    return dot < 0 ? fsType : fsType.substring(0, dot);
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
}
