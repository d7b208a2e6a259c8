package mira.bench.load;

import java.time.Instant;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The result of one run, as a table for people and one JSON line for tools. The arithmetic is in
 * small static methods so that it can be tested on its own.
 *
 * <p>Definitions. Wall time runs from the first export to the last answer. Records/s is accepted
 * records over wall time. Server CPU-seconds are utime + stime of the server process over the run;
 * records/s per server core is accepted records over those CPU-seconds (a core busy for one second
 * is one CPU-second). Wire bytes are the uncompressed protobuf bytes of accepted exports, whatever
 * the protocol. Bytes on disk are the growth of published block files under the data directory.
 */
final class Report {
  /** Everything measured; null members were not measured (no --pid, no --data-dir, no readers). */
  record Inputs(Options options, Instant date, String machine, String loadBefore, String loadAfter,
      double wallSeconds, Tally tally,
      double loadgenCpuSeconds, ServerWatch.Figures server, BlockBytes.Usage diskBefore, BlockBytes.Usage diskAfter,
      List<Readers.ClassResult> queries) {}

  private final Inputs in;

  Report(Inputs in) {
    this.in = in;
  }

  static double perSecond(long count, double seconds) {
    return seconds > 0 ? count / seconds : Double.NaN;
  }

  /** Records per CPU-second of the server; NaN when no CPU time was measured. */
  static double perCore(long records, double cpuSeconds) {
    return cpuSeconds > 0 ? records / cpuSeconds : Double.NaN;
  }

  /** How many cores were busy on average: CPU-seconds over wall seconds. */
  static double cores(double cpuSeconds, double wallSeconds) {
    return wallSeconds > 0 ? cpuSeconds / wallSeconds : Double.NaN;
  }

  /** {@code bytes / per}, NaN when {@code per} is 0. */
  static double ratio(long bytes, long per) {
    return per > 0 ? bytes / (double) per : Double.NaN;
  }

  private static double ms(long micros) {
    return micros < 0 ? Double.NaN : micros / 1000.0;
  }

  /** Microseconds as milliseconds with one decimal, or "-" when there is no sample. */
  private static String cell(long micros) {
    return micros < 0 ? "-" : String.format(Locale.ROOT, "%.1f", micros / 1000.0);
  }

  private long diskAdded() {
    return in.diskBefore() == null || in.diskAfter() == null ? -1 : in.diskAfter().blocks() - in.diskBefore().blocks();
  }

  /** The human-readable table. */
  String table() {
    Options o = in.options();
    Tally t = in.tally();
    double wall = in.wallSeconds();
    StringBuilder b = new StringBuilder(4096);
    b.append(String.format(Locale.ROOT, "mira loadgen: %s%s, %d connections, batch %d, mix %s, seed %d, %s%n",
        o.protocol.label, o.gzip ? " + gzip" : "", o.conns, o.batch, o.mix, o.seed, in.date()));
    b.append("command: ").append(o.commandLine()).append('\n');
    b.append("machine: ").append(in.machine()).append("; load average ").append(in.loadBefore()).append(" before, ")
        .append(in.loadAfter()).append(" after\n");
    b.append(String.format(Locale.ROOT, "wall time %.2f s (first export to last answer)%n%n", wall));
    b.append(String.format(Locale.ROOT, "%-9s %10s %14s %14s %12s %12s%n", "signal", "exports", "records", "records/s",
        "wire MiB", "body MiB"));
    for (Signal s : Signal.values()) {
      int i = s.ordinal();
      b.append(String.format(Locale.ROOT, "%-9s %,10d %,14d %,14.0f %12.1f %12.1f%n", s.label, t.exports[i], t.records[i],
          perSecond(t.records[i], wall), t.wireBytes[i] / 1048576.0, t.bodyBytes[i] / 1048576.0));
    }
    b.append(String.format(Locale.ROOT, "%-9s %,10d %,14d %,14.0f %12.1f %12.1f%n%n", "total", t.acceptedExports(),
        t.totalRecords(), perSecond(t.totalRecords(), wall), t.totalWireBytes() / 1048576.0,
        t.totalBodyBytes() / 1048576.0));
    b.append(String.format(Locale.ROOT, "exports: %,d accepted, %,d retry answers (503 / UNAVAILABLE), %,d failed%n",
        t.acceptedExports(), t.retried, t.failed));
    details(b, "retry", t.retryDetails);
    details(b, "failed", t.failureDetails);
    long[] ack = t.ack.sorted();
    b.append(String.format(Locale.ROOT, "ack latency of accepted attempts: p50 %s ms, p99 %s ms, max %s ms (%,d)%n",
        cell(Latencies.percentile(ack, 0.50)), cell(Latencies.percentile(ack, 0.99)),
        cell(ack.length == 0 ? -1 : ack[ack.length - 1]), ack.length));
    ServerWatch.Figures f = in.server();
    if (f != null) {
      b.append(String.format(Locale.ROOT,
          "server CPU: %.2f s over %.2f s = %.2f cores; %,.0f records/s per server core%n", f.cpuSeconds(), wall,
          cores(f.cpuSeconds(), wall), perCore(t.totalRecords(), f.cpuSeconds())));
      b.append(String.format(Locale.ROOT,
          "server memory: peak RSS (VmHWM) %.0f MiB; largest sampled RSS %.0f MiB, anonymous (RssAnon) %.0f MiB%n",
          f.peakRss() / 1048576.0, f.maxRssSampled() / 1048576.0, f.maxAnonSampled() / 1048576.0));
      if (f.problem() != null) b.append("  note: ").append(f.problem()).append('\n');
    } else {
      b.append("server CPU and memory: not measured (give --pid)\n");
    }
    b.append(String.format(Locale.ROOT, "load generator CPU: %.2f s = %.2f cores%n", in.loadgenCpuSeconds(),
        cores(in.loadgenCpuSeconds(), wall)));
    long added = diskAdded();
    if (added >= 0) {
      b.append(String.format(Locale.ROOT,
          "disk: +%.1f MiB of blocks = %.1f bytes per record, %.3f bytes per wire byte (all files +%.1f MiB)%n",
          added / 1048576.0, ratio(added, t.totalRecords()), ratio(added, t.totalWireBytes()),
          (in.diskAfter().all() - in.diskBefore().all()) / 1048576.0));
    } else {
      b.append("disk: not measured (give --data-dir)\n");
    }
    if (in.queries() != null) {
      b.append(String.format(Locale.ROOT, "%nqueries (%d readers, closed loop)%n", o.readers));
      b.append(String.format(Locale.ROOT, "%-12s %8s %8s %10s %10s %10s%n", "class", "answers", "errors", "p50 ms",
          "p99 ms", "max ms"));
      for (Readers.ClassResult c : in.queries()) {
        if (c.skipped != null) {
          b.append(String.format(Locale.ROOT, "%-12s skipped: %s%n", c.query.name(), c.skipped));
          continue;
        }
        long[] s = c.latencies.sorted();
        b.append(String.format(Locale.ROOT, "%-12s %,8d %,8d %10s %10s %10s%n", c.query.name(), s.length,
            c.errors.get(), cell(Latencies.percentile(s, 0.5)), cell(Latencies.percentile(s, 0.99)),
            cell(s.length == 0 ? -1 : s[s.length - 1])));
        if (c.firstError.get() != null) b.append("  first error: ").append(c.firstError.get()).append('\n');
      }
    }
    return b.toString();
  }

  private static void details(StringBuilder b, String what, Map<String, Long> d) {
    int n = 0;
    for (Map.Entry<String, Long> e : d.entrySet()) {
      if (n++ == 5) {
        b.append("  ").append(what).append(": … ").append(d.size() - 5).append(" more kinds\n");
        break;
      }
      b.append(String.format(Locale.ROOT, "  %s ×%,d: %s%n", what, e.getValue(), e.getKey()));
    }
  }

  /** The machine-readable result: one line of JSON. */
  String json() {
    Options o = in.options();
    Tally t = in.tally();
    double wall = in.wallSeconds();
    Json j = new Json().open();
    j.field("tool", "mira-loadgen").field("date", in.date().toString()).field("command", o.commandLine())
        .field("machine", in.machine()).field("load_before", in.loadBefore()).field("load_after", in.loadAfter())
        .field("protocol", o.protocol.label).field("gzip", o.gzip)
        .field("conns", o.conns).field("batch", o.batch).field("mix", o.mix.toString()).field("seed", o.seed)
        .field("readers", o.readers).field("wall_s", wall, 3);
    j.open("signals");
    for (Signal s : Signal.values()) {
      int i = s.ordinal();
      j.open(s.label).field("exports", t.exports[i]).field("records", t.records[i])
          .field("records_per_s", perSecond(t.records[i], wall), 1).field("wire_bytes", t.wireBytes[i])
          .field("body_bytes", t.bodyBytes[i]).close();
    }
    j.close();
    j.open("total").field("records", t.totalRecords()).field("records_per_s", perSecond(t.totalRecords(), wall), 1)
        .field("wire_bytes", t.totalWireBytes()).field("body_bytes", t.totalBodyBytes()).close();
    j.open("exports").field("accepted", t.acceptedExports()).field("retried", t.retried).field("failed", t.failed).close();
    long[] ack = t.ack.sorted();
    j.open("ack_ms").field("count", ack.length).field("p50", ms(Latencies.percentile(ack, 0.5)), 3)
        .field("p99", ms(Latencies.percentile(ack, 0.99)), 3)
        .field("max", ms(ack.length == 0 ? -1 : ack[ack.length - 1]), 3).close();
    ServerWatch.Figures f = in.server();
    j.open("server");
    if (f != null) {
      j.field("pid", o.pid).field("cpu_s", f.cpuSeconds(), 3).field("cores", cores(f.cpuSeconds(), wall), 3)
          .field("records_per_core_s", perCore(t.totalRecords(), f.cpuSeconds()), 1)
          .count("peak_rss_bytes", f.peakRss()).count("max_rss_sampled_bytes", f.maxRssSampled())
          .count("max_anon_sampled_bytes", f.maxAnonSampled());
    }
    j.close();
    j.open("loadgen").field("cpu_s", in.loadgenCpuSeconds(), 3).field("cores", cores(in.loadgenCpuSeconds(), wall), 3)
        .close();
    j.open("disk");
    long added = diskAdded();
    if (added >= 0) {
      j.field("block_bytes_added", added).field("all_bytes_added", in.diskAfter().all() - in.diskBefore().all())
          .field("bytes_per_record", ratio(added, t.totalRecords()), 2)
          .field("bytes_per_wire_byte", ratio(added, t.totalWireBytes()), 4);
    }
    j.close();
    j.open("queries");
    if (in.queries() != null) {
      for (Readers.ClassResult c : in.queries()) {
        j.open(c.query.name());
        if (c.skipped != null) {
          j.field("skipped", c.skipped);
        } else {
          long[] s = c.latencies.sorted();
          j.field("count", s.length).field("errors", c.errors.get())
              .field("p50_ms", ms(Latencies.percentile(s, 0.5)), 3).field("p99_ms", ms(Latencies.percentile(s, 0.99)), 3)
              .field("max_ms", ms(s.length == 0 ? -1 : s[s.length - 1]), 3);
        }
        j.close();
      }
    }
    j.close();
    return j.close().toString();
  }
}
