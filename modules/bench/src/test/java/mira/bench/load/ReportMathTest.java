package mira.bench.load;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The arithmetic and parsing behind the report, on made-up inputs with known answers. */
class ReportMathTest {
  @Test
  void percentilesAreNearestRank() {
    long[] hundred = new long[100];
    for (int i = 0; i < 100; i++) hundred[i] = i + 1;
    assertThat(Latencies.percentile(hundred, 0.50)).isEqualTo(50);
    assertThat(Latencies.percentile(hundred, 0.99)).isEqualTo(99);
    assertThat(Latencies.percentile(hundred, 1.0)).isEqualTo(100);
    assertThat(Latencies.percentile(new long[] {7}, 0.99)).isEqualTo(7);
    assertThat(Latencies.percentile(new long[] {1, 2, 3}, 0.5)).isEqualTo(2);
    assertThat(Latencies.percentile(new long[0], 0.5)).isEqualTo(-1);
  }

  @Test
  void latenciesKeepMicrosecondsAndMerge() {
    Latencies a = new Latencies();
    Latencies b = new Latencies();
    for (int i = 0; i < 1000; i++) a.add(i * 1_000_000L);  // 0..999 ms
    b.add(5_000_000_000L);
    a.addAll(b);
    long[] s = a.sorted();
    assertThat(s).hasSize(1001);
    assertThat(s[s.length - 1]).isEqualTo(5_000_000);
    assertThat(Latencies.percentile(s, 0.5)).isEqualTo(500_000);
  }

  @Test
  void perCoreIsRecordsOverServerCpuSeconds() {
    assertThat(Report.perCore(1_200_000, 2.0)).isEqualTo(600_000);
    assertThat(Report.perCore(1_000, 0)).isNaN();
    assertThat(Report.cores(15, 30)).isEqualTo(0.5);
    assertThat(Report.perSecond(900, 30)).isEqualTo(30);
    assertThat(Report.ratio(164, 137)).isCloseTo(1.197, within(0.001));
    assertThat(Report.ratio(5, 0)).isNaN();
  }

  @Test
  void procStatCpuSkipsACommandNameWithSpacesAndParentheses() {
    // Fields after the name: state ppid pgrp session tty tpgid flags minflt cminflt majflt cmajflt utime stime ...
    String line = "4242 (java (main) x) S 1 4242 4242 0 -1 4194560 9000 0 3 0 1234 567 0 0 20 0 40 0 100 8000000 20000";
    assertThat(ProcFs.cpuTicks(line)).isEqualTo(1234 + 567);
    assertThatThrownBy(() -> ProcFs.cpuTicks("garbage")).isInstanceOf(IllegalArgumentException.class);
  }

  @Test
  void procStatusMemoryIsInBytes() {
    String status = "Name:\tjava\nVmPeak:\t 8711640 kB\nVmHWM:\t 1435792 kB\nVmRSS:\t 1419180 kB\n"
        + "RssAnon:\t 1388000 kB\nRssFile:\t   31000 kB\nThreads:\t26\n";
    ProcFs.Memory m = ProcFs.memory(status);
    assertThat(m.vmHwm()).isEqualTo(1_435_792L * 1024);
    assertThat(m.vmRss()).isEqualTo(1_419_180L * 1024);
    assertThat(m.rssAnon()).isEqualTo(1_388_000L * 1024);
    assertThat(ProcFs.memory("Name:\tx\n").rssAnon()).isEqualTo(-1);
  }

  @Test
  void onlyPublishedBlockFilesCountAsBlocks(@TempDir Path dir) throws IOException {
    Path block = Files.createDirectories(dir.resolve("logs/p=498934/0179-0180-4049c22c-000000000001-0"));
    Files.write(block.resolve("logs.arrow"), new byte[1000]);
    Files.write(block.resolve("log_attrs.arrow"), new byte[500]);
    Path staging = Files.createDirectories(dir.resolve("logs/.staging/0181-0182-4049c22c-000000000002-0"));
    Files.write(staging.resolve("logs.arrow"), new byte[300]);
    Files.write(dir.resolve("node.lock"), new byte[7]);
    BlockBytes.Usage u = BlockBytes.of(dir);
    assertThat(u.blocks()).isEqualTo(1500);
    assertThat(u.all()).isEqualTo(1807);
  }

  @Test
  void reportDividesWhatItMeasured() {
    Options o = Options.parse("--protocol", "grpc", "--conns", "4", "--batch", "8192", "--for", "30s", "--pid", "99",
        "--data-dir", "/tmp/x", "--readers", "1");
    Tally t = new Tally();
    t.accepted(Signal.LOGS, 8192, 1_000_000, 1_000_000, 2_000_000_000L);
    t.accepted(Signal.TRACES, 8192, 3_000_000, 3_000_000, 4_000_000_000L);
    t.retried("UNAVAILABLE: overloaded");
    t.failed("INTERNAL: no");
    Readers.ClassResult missing = new Readers.ClassResult(QueryClass.ALL.get(0));
    missing.skipped = "POST /api/v1/query answered 404";
    Readers.ClassResult answered = new Readers.ClassResult(QueryClass.ALL.get(3));
    answered.latencies.add(3_000_000);
    answered.latencies.add(5_000_000);
    Report r = new Report(new Report.Inputs(o, Instant.parse("2026-12-01T00:00:00Z"), "2 cores", "1.00 1.00 1.00",
        "2.00 1.50 1.10", 16.384, t, 3.0, new ServerWatch.Figures(4.096, 700L << 20, 690L << 20, 650L << 20, null),
        new BlockBytes.Usage(1000, 2000), new BlockBytes.Usage(1000 + 4_800_000, 2000 + 5_000_000),
        List.of(missing, answered)));

    String json = r.json();
    assertThat(json).startsWith("{\"tool\":\"mira-loadgen\"").endsWith("}").doesNotContain("\n")
        .contains("\"records_per_s\":1000,")               // 16,384 records in 16.384 s
        .contains("\"records_per_core_s\":4000,")          // over 4.096 CPU-seconds
        .contains("\"cores\":0.25,")
        .contains("\"exports\":{\"accepted\":2,\"retried\":1,\"failed\":1}")
        .contains("\"ack_ms\":{\"count\":2,\"p50\":2000,\"p99\":4000,\"max\":4000}")
        .contains("\"bytes_per_record\":292.97,")          // 4,800,000 / 16,384
        .contains("\"bytes_per_wire_byte\":1.2}")          // 4,800,000 / 4,000,000
        .contains("\"last100\":{\"skipped\":\"POST /api/v1/query answered 404\"}")
        .contains("\"trace_by_id\":{\"count\":2,\"errors\":0,\"p50_ms\":3,\"p99_ms\":5,\"max_ms\":5}");
    assertThat(r.table()).contains("records/s per server core").contains("4,000").contains("293.0 bytes per record")
        .contains("retry ×1: UNAVAILABLE: overloaded").contains("failed ×1: INTERNAL: no");
  }

  @Test
  void unmeasuredFiguresAreNullNotZero() {
    Options o = Options.parse("--exports", "1");
    Report r = new Report(new Report.Inputs(o, Instant.EPOCH, "m", "?", "?", 1.0, new Tally(), 0.1, null, null, null,
        null));
    assertThat(r.json()).contains("\"server\":{}").contains("\"disk\":{}").contains("\"queries\":{}")
        .contains("\"ack_ms\":{\"count\":0,\"p50\":null,\"p99\":null,\"max\":null}");
  }

  @Test
  void optionsAreBoundedAndTargetFollowsTheProtocol() {
    Options d = Options.parse();
    assertThat(d.runFor).isEqualTo(Options.DEFAULT_FOR);
    assertThat(Options.parse("--exports", "5").runFor).as("a count alone is a bound").isNull();
    Options g = Options.parse("--target", "10.0.0.1:1234");
    assertThat(g.grpcHost + ":" + g.grpcPort).isEqualTo("10.0.0.1:1234");
    Options h = Options.parse("--protocol=http-json", "--target", "[::1]:4318", "--gzip");
    assertThat(h.httpHost).isEqualTo("::1");
    assertThat(h.gzip).isTrue();
    assertThat(Options.duration("500ms")).isEqualTo(Duration.ofMillis(500));
    assertThat(Options.duration("2m")).isEqualTo(Duration.ofMinutes(2));
    Options w = Options.parse("--warmup", "15s", "--for", "30s");
    assertThat(w.warmup).isEqualTo(Duration.ofSeconds(15));
    assertThat(w.commandLine()).contains("--for 30s --warmup 15s");
    assertThatThrownBy(() -> Options.parse("--warmup", "0s")).hasMessageContaining("--warmup");
    assertThatThrownBy(() -> Options.parse("--for", "2h")).hasMessageContaining("at most");
    assertThatThrownBy(() -> Options.parse("--conns", "0")).hasMessageContaining("--conns");
    assertThatThrownBy(() -> Options.parse("--protocol", "thrift")).hasMessageContaining("grpc");
    assertThatThrownBy(() -> Options.parse("--bogus", "1")).hasMessageContaining("unknown option --bogus");
    assertThat(Options.parse("--incident", "off").incidentAt(0.5)).isFalse();
    Options i = Options.parse("--incident", "0.2-0.3");
    assertThat(i.incidentAt(0.1)).isFalse();
    assertThat(i.incidentAt(0.25)).isTrue();
    assertThat(i.incidentAt(0.3)).isFalse();
  }

  @Test
  void mixDrawsInProportionToWeights() {
    Mix m = Mix.parse("logs=1,traces=1,metrics=0.1");
    assertThat(m.toString()).isEqualTo("logs=1,traces=1,metrics=0.1");
    SplittableRandom rnd = new SplittableRandom(1);
    int[] n = new int[3];
    for (int i = 0; i < 210_000; i++) n[m.pick(rnd).ordinal()]++;
    assertThat(n[Signal.LOGS.ordinal()]).isCloseTo(100_000, within(2_000));
    assertThat(n[Signal.METRICS.ordinal()]).isCloseTo(10_000, within(1_000));
    assertThat(Mix.parse("traces=3").pick(rnd)).isEqualTo(Signal.TRACES);
    assertThatThrownBy(() -> Mix.parse("logs=0")).hasMessageContaining("every weight is 0");
    assertThatThrownBy(() -> Mix.parse("spans=1")).hasMessageContaining("unknown signal 'spans'");
    assertThatThrownBy(() -> Mix.parse("logs=1,logs=2")).hasMessageContaining("twice");
  }
}
