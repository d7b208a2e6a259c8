package mira.image;

import java.nio.file.Path;
import java.util.concurrent.TimeUnit;

/** Mounts a small read-only tmpfs over a directory, where the test runs with that privilege. */
final class ReadOnlyMount {
  private ReadOnlyMount() {}

  static boolean isRoot() {
    return "root".equals(System.getProperty("user.name"));
  }

  static boolean tryMount(Path dir) {
    return run("mount", "-t", "tmpfs", "-o", "ro,size=1m", "tmpfs", dir.toString());
  }

  static void unmount(Path dir) {
    run("umount", dir.toString());
  }

  private static boolean run(String... cmd) {
    try {
      Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
      p.getInputStream().readAllBytes();
      return p.waitFor(20, TimeUnit.SECONDS) && p.exitValue() == 0;
    } catch (Exception e) {
      return false;
    }
  }
}
