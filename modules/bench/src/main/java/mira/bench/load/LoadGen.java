package mira.bench.load;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import mira.bench.telemetry.Fleet;

/**
 * Drives a running Mira over OTLP and reports what it took: see {@link Options#USAGE} for the
 * command line and {@link Report} for what is measured. Started by {@code modules/bench/loadgen}.
 *
 * <p>Exit status: 0 after a run that had at least one accepted export, 1 if nothing was accepted,
 * 2 for a bad command line or a server process that cannot be watched.
 */
public final class LoadGen {
  private LoadGen() {}

  public static void main(String[] args) throws Exception {
    Options o;
    try {
      o = Options.parse(args);
    } catch (IllegalArgumentException e) {
      System.err.println("loadgen: " + e.getMessage());
      System.exit(2);
      return;
    }
    if (o.help) {
      System.out.print(Options.USAGE);
      return;
    }
    System.exit(run(o));
  }

  static int run(Options o) throws IOException, InterruptedException {
    Fleet fleet = new Fleet(o.seed);
    Known known = new Known();
    List<Writer> writers = new ArrayList<>();
    List<Exporter> exporters = new ArrayList<>();
    ServerWatch watch = null;
    Readers readers = null;
    try {
      for (int i = 0; i < o.conns; i++) {
        Exporter e = o.protocol == Options.Protocol.GRPC
            ? new GrpcExporter(o.grpcHost, o.grpcPort, o.gzip, o.tlsCa)
            : new HttpExporter(o.httpHost, o.httpPort, o.protocol == Options.Protocol.HTTP_JSON, o.gzip, o.tlsCa);
        exporters.add(e);
      }
      List<Readers.ClassResult> live = List.of();
      if (o.readers > 0) {
        readers = new Readers(o.httpHost, o.httpPort, known, o.seed, QueryClass.ALL);
        live = readers.probe();
        for (Readers.ClassResult c : readers.results()) {
          if (c.skipped != null) System.err.println("loadgen: query class " + c.query.name() + " skipped: " + c.skipped);
        }
      }
      for (int i = 0; i < o.conns; i++) writers.add(new Writer(o, exporters.get(i), fleet, i, known));
      if (o.warmup != null) {
        System.err.println("loadgen: warming up for " + o.warmup.toMillis() + " ms");
        drive(writers, Run.warmup(o, System.nanoTime()));
      }
      if (o.dataDir != null) settle(o);
      BlockBytes.Usage diskBefore = o.dataDir == null ? null : BlockBytes.of(o.dataDir);
      if (o.pid > 0) {
        try {
          watch = new ServerWatch(o.pid);
        } catch (IOException e) {
          System.err.println("loadgen: cannot watch process " + o.pid + ": " + e.getMessage());
          return 2;
        }
      }
      String loadBefore = loadAverage();
      Duration cpu0 = ProcessHandle.current().info().totalCpuDuration().orElse(Duration.ZERO);
      Instant date = Instant.now().truncatedTo(ChronoUnit.SECONDS);
      Run run = new Run(o, System.nanoTime());
      if (readers != null && !live.isEmpty()) readers.start(o.readers, live);
      drive(writers, run);
      double wall = (System.nanoTime() - run.startNanos) / 1e9;
      if (readers != null) readers.stop();
      ServerWatch.Figures server = watch == null ? null : watch.finish();
      Duration cpu1 = ProcessHandle.current().info().totalCpuDuration().orElse(Duration.ZERO);
      String loadAfter = loadAverage();
      if (o.dataDir != null) settle(o);
      BlockBytes.Usage diskAfter = o.dataDir == null ? null : BlockBytes.of(o.dataDir);

      Tally all = new Tally();
      for (Writer w : writers) all.add(w.tally);
      double loadgenCpu = cpu1.minus(cpu0).toNanos() / 1e9;
      Report report = new Report(new Report.Inputs(o, date, machine(), loadBefore, loadAfter, wall, all, loadgenCpu,
          server, diskBefore, diskAfter, readers == null ? null : readers.results()));
      System.out.print(report.table());
      String json = report.json();
      System.out.println(json);
      if (o.jsonFile != null) {
        Files.writeString(o.jsonFile, json + "\n", StandardCharsets.UTF_8, StandardOpenOption.CREATE,
            StandardOpenOption.APPEND);
      }
      return all.acceptedExports() > 0 ? 0 : 1;
    } finally {
      if (watch != null) watch.close();
      for (Exporter e : exporters) e.close();
    }
  }

  /** Runs every writer on its own thread for {@code run} and waits for all of them. */
  private static void drive(List<Writer> writers, Run run) throws InterruptedException {
    List<Thread> threads = new ArrayList<>();
    for (int i = 0; i < writers.size(); i++) {
      Writer w = writers.get(i);
      w.reset(run);
      Thread t = new Thread(w, "loadgen-conn-" + i);
      threads.add(t);
      t.start();
    }
    for (Thread t : threads) t.join();
  }

  /**
   * The 1, 5 and 15 minute load averages of /proc/loadavg, or "?": on a shared machine they say how
   * much of the CPU the run had to itself.
   */
  /**
   * Waits (at most 15 s) until the server holds no open block: what was acknowledged so far is then
   * in published blocks, so bytes on disk measured now belong to exactly the records sent before.
   * Without this the last blocks of a run (sealed up to 2 s after their first export) were missing
   * from the figure, and a warm-up's last blocks were counted in the run.
   */
  private static void settle(Options o) {
    java.net.http.HttpClient client = java.net.http.HttpClient.newHttpClient();
    java.net.URI stats = java.net.URI.create("http://" + HttpExporter.hostForUri(o.httpHost) + ":" + o.httpPort + "/api/v1/stats");
    java.util.regex.Pattern open = java.util.regex.Pattern.compile("\"open_blocks\"\\s*:\\s*(\\d+)");
    long deadline = System.nanoTime() + Duration.ofSeconds(15).toNanos();
    while (System.nanoTime() < deadline) {
      try {
        String body = client.send(java.net.http.HttpRequest.newBuilder(stats).timeout(Duration.ofSeconds(5)).build(),
            java.net.http.HttpResponse.BodyHandlers.ofString()).body();
        java.util.regex.Matcher m = open.matcher(body);
        boolean any = false;
        boolean seen = false;
        while (m.find()) {
          seen = true;
          any |= !m.group(1).equals("0");
        }
        if (seen && !any) return;
        Thread.sleep(100);
      } catch (IOException e) {
        System.err.println("loadgen: cannot read " + stats + " to wait for open blocks: " + e.getMessage());
        return;
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        return;
      }
    }
    System.err.println("loadgen: the server still held open blocks after 15 s; bytes on disk may miss some");
  }

  static String loadAverage() {
    try {
      String[] f = Files.readString(java.nio.file.Path.of("/proc/loadavg")).strip().split("\\s+");
      return f[0] + " " + f[1] + " " + f[2];
    } catch (IOException | RuntimeException e) {
      return "?";
    }
  }

  /** Cores, memory, OS and JDK of this machine, for the record. */
  static String machine() {
    long memMiB = -1;
    try {
      for (String line : Files.readAllLines(java.nio.file.Path.of("/proc/meminfo"))) {
        if (line.startsWith("MemTotal:")) {
          memMiB = Long.parseLong(line.replaceAll("[^0-9]", "")) / 1024;
        }
      }
    } catch (IOException | NumberFormatException e) {
      memMiB = -1;
    }
    return Runtime.getRuntime().availableProcessors() + " cores, " + (memMiB < 0 ? "?" : (memMiB / 1024) + " GiB")
        + ", " + System.getProperty("os.name") + " " + System.getProperty("os.version") + ", JDK "
        + System.getProperty("java.version");
  }
}
