package mira.bench.load;

import java.io.IOException;

/**
 * Watches the server process through /proc while the run lasts: its CPU ticks at the start and
 * the end, and its memory every {@link #PERIOD_MILLIS} (the largest resident and anonymous sizes
 * seen, and VmHWM, the kernel's own peak, at the end).
 */
final class ServerWatch implements AutoCloseable {
  static final long PERIOD_MILLIS = 250;

  private final long pid;
  private final long ticksPerSecond;
  private final long startTicks;
  private final Thread sampler;
  private volatile boolean stop;
  private volatile long maxRss = -1;
  private volatile long maxAnon = -1;
  private volatile String problem;

  /** What the watch saw; memory figures are -1 where /proc did not give them. */
  record Figures(double cpuSeconds, long peakRss, long maxRssSampled, long maxAnonSampled, String problem) {}

  /**
   * Starts watching {@code pid}.
   *
   * @throws IOException if {@code /proc/PID/stat} cannot be read (no such process, not Linux)
   */
  ServerWatch(long pid) throws IOException {
    this.pid = pid;
    this.ticksPerSecond = ProcFs.clockTicksPerSecond();
    this.startTicks = ProcFs.cpuTicks(pid);
    sample();
    sampler = new Thread(this::loop, "loadgen-server-watch");
    sampler.setDaemon(true);
    sampler.start();
  }

  private void loop() {
    while (!stop) {
      try {
        Thread.sleep(PERIOD_MILLIS);
      } catch (InterruptedException e) {
        return;
      }
      sample();
    }
  }

  private void sample() {
    try {
      ProcFs.Memory m = ProcFs.memory(pid);
      if (m.vmRss() > maxRss) maxRss = m.vmRss();
      if (m.rssAnon() > maxAnon) maxAnon = m.rssAnon();
    } catch (IOException e) {
      problem = "reading /proc/" + pid + "/status failed: " + e;
    }
  }

  /** Stops sampling and reads the end figures. */
  Figures finish() {
    stop = true;
    sampler.interrupt();
    try {
      sampler.join(2000);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
    try {
      sample();
      long ticks = ProcFs.cpuTicks(pid) - startTicks;
      long hwm = ProcFs.memory(pid).vmHwm();
      return new Figures(ticks / (double) ticksPerSecond, hwm, maxRss, maxAnon, problem);
    } catch (IOException e) {
      return new Figures(Double.NaN, -1, maxRss, maxAnon, "the server process " + pid + " went away: " + e);
    }
  }

  @Override
  public void close() {
    stop = true;
    sampler.interrupt();
  }
}
