package mira.server.launch;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileSystemException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Optional;
import java.util.concurrent.ThreadLocalRandom;
import mira.fs.Filesystems;

/**
 * Start-up checks of the data directory: it can be created, written and fsynced, and it is on a
 * local filesystem. Mira's durability rests on rename and fsync semantics that network
 * filesystems do not give (and on mmap, which they make slow or unsafe), so those are refused.
 * FUSE is only warned about: it may be local (e.g. an overlay) or remote, and we cannot tell. The
 * type comes from {@link Filesystems}, which the in-process readers use too.
 */
public final class DataDirectory {
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
    Optional<String> fsType = Filesystems.type(real, mountinfo);
    if (fsType.isPresent()) {
      String t = fsType.get();
      if (Filesystems.isNetwork(t)) {
        throw new StartupException("data directory " + real + " is on a network filesystem (" + t
            + "); Mira needs a local disk for fsync and rename guarantees");
      }
      if (Filesystems.isFuse(t)) {
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

  private static String reason(IOException e) {
    if (e instanceof FileSystemException fse && fse.getReason() != null) {
      return fse.getReason();
    }
    return e.getClass().getSimpleName() + (e.getMessage() == null ? "" : ": " + e.getMessage());
  }
}
