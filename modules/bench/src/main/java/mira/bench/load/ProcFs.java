package mira.bench.load;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;

/**
 * What Linux's /proc says about another process: CPU time from {@code /proc/PID/stat} and memory
 * from {@code /proc/PID/status}. The parsers take the file's text so they can be tested on
 * captured lines.
 */
final class ProcFs {
  private ProcFs() {}

  /** Memory figures of {@code /proc/PID/status}, in bytes; -1 where the line is absent. */
  record Memory(long vmHwm, long vmRss, long rssAnon) {}

  /**
   * utime + stime of a {@code /proc/PID/stat} line, in clock ticks. The command name (field 2) is
   * in parentheses and may itself hold spaces and parentheses, so fields are counted from the last
   * closing parenthesis: utime and stime are fields 14 and 15 of the line.
   *
   * @throws IllegalArgumentException if the line does not have that shape
   */
  static long cpuTicks(String statLine) {
    int close = statLine.lastIndexOf(')');
    if (close < 0) throw new IllegalArgumentException("not a /proc/PID/stat line: " + statLine);
    String[] f = statLine.substring(close + 1).strip().split("\\s+");
    // f[0] is field 3 (state), so field k is f[k - 3].
    if (f.length < 13) throw new IllegalArgumentException("short /proc/PID/stat line: " + statLine);
    return Long.parseLong(f[14 - 3]) + Long.parseLong(f[15 - 3]);
  }

  /** The memory lines of a {@code /proc/PID/status} text (values are in kB there). */
  static Memory memory(String status) {
    long hwm = -1;
    long rss = -1;
    long anon = -1;
    for (String line : status.split("\n")) {
      if (line.startsWith("VmHWM:")) hwm = kilobytes(line);
      else if (line.startsWith("VmRSS:")) rss = kilobytes(line);
      else if (line.startsWith("RssAnon:")) anon = kilobytes(line);
    }
    return new Memory(hwm, rss, anon);
  }

  private static long kilobytes(String line) {
    String v = line.substring(line.indexOf(':') + 1).strip();
    int space = v.indexOf(' ');
    return Long.parseLong(space < 0 ? v : v.substring(0, space)) * 1024;
  }

  /** Reads the CPU ticks of {@code pid}. */
  static long cpuTicks(long pid) throws IOException {
    return cpuTicks(Files.readString(Path.of("/proc", Long.toString(pid), "stat")));
  }

  /** Reads the memory figures of {@code pid}. */
  static Memory memory(long pid) throws IOException {
    return memory(Files.readString(Path.of("/proc", Long.toString(pid), "status")));
  }

  /**
   * Clock ticks per second ({@code getconf CLK_TCK}), the unit of /proc's CPU times; 100, what
   * Linux uses on every common architecture, if getconf cannot be run.
   */
  static long clockTicksPerSecond() {
    try {
      Process p = new ProcessBuilder("getconf", "CLK_TCK").redirectErrorStream(true).start();
      String out = new String(p.getInputStream().readAllBytes()).strip();
      if (p.waitFor(5, TimeUnit.SECONDS) && p.exitValue() == 0) return Long.parseLong(out);
    } catch (IOException | NumberFormatException e) {
      return 100;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
    return 100;
  }
}
