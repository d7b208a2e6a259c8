package mira.image;

import static io.opentelemetry.api.common.AttributeKey.stringKey;
import static org.assertj.core.api.Assertions.assertThat;

import io.opentelemetry.api.common.Attributes;
import io.opentelemetry.api.logs.Severity;
import io.opentelemetry.api.trace.Span;
import io.opentelemetry.api.trace.SpanKind;
import io.opentelemetry.api.trace.StatusCode;
import io.opentelemetry.context.Context;
import io.opentelemetry.context.Scope;
import io.opentelemetry.exporter.otlp.http.logs.OtlpHttpLogRecordExporter;
import io.opentelemetry.exporter.otlp.http.trace.OtlpHttpSpanExporter;
import io.opentelemetry.sdk.logs.SdkLoggerProvider;
import io.opentelemetry.sdk.logs.export.BatchLogRecordProcessor;
import io.opentelemetry.sdk.resources.Resource;
import io.opentelemetry.sdk.trace.SdkTracerProvider;
import io.opentelemetry.sdk.trace.export.BatchSpanProcessor;
import io.opentelemetry.exporter.otlp.http.metrics.OtlpHttpMetricExporter;
import io.opentelemetry.sdk.metrics.SdkMeterProvider;
import io.opentelemetry.sdk.metrics.export.PeriodicMetricReader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The terminal UI in a real terminal: tmux runs the image's {@code bin/mira tui} against a running
 * node seeded by the OpenTelemetry Java SDK (two services in one trace, their logs, a gauge, and an
 * alert rule over the logs), then against its data directory with the node stopped; keys go in with send-keys, the screen is read with capture-pane, and after {@code q}
 * and after SIGTERM {@code stty} shows the terminal back in cooked mode.
 */
class TuiIT {
  private static final Duration WAIT = Duration.ofSeconds(30);

  @TempDir Path cwd;

  static String bin() {
    return Launched.image().resolve("bin/mira").toAbsolutePath().toString();
  }

  /** After the UI exits: its status and the terminal's canonical-mode and echo flags, one per line. */
  static final String AFTER = "; echo TUI_EXIT=$?; stty -a | tr ' ;' '\\n\\n' | grep -E '^-?(icanon|echo)$'";

  @Test
  void theTerminalUiReadsANodeThenItsDirectory() throws Exception {
    Path data = cwd.resolve("data");
    String traceId;
    // One rule, so the alerts pane has something to show: the error logs of payments, evaluated every second.
    Path rules = cwd.resolve("rules.kyaml");
    Files.writeString(rules, "{rules: [{name: \"payments-errors\", query: {signal: \"logs\", q: \"service.name=payments"
        + " severity_number>=17\"}, over: \"1h\", every: \"1s\", above: \"0\"}]}\n");
    Path config = cwd.resolve("mira.kyaml");
    Files.writeString(config, "{alert: {rules: \"" + rules + "\"}}\n");
    try (Launched server = Launched.start(cwd, "serve", "--config", config.toString(), "--grpc-listen", "127.0.0.1:0",
        "--http-listen", "127.0.0.1:0", "--data-dir", data.toString())) {
      int http = server.awaitListening(WAIT)[1];
      traceId = seed("http://127.0.0.1:" + http);
      gauges("http://127.0.0.1:" + http);
      try (Tmux tmux = new Tmux(120, 30, cwd.toString())) {
        tmux.line(bin() + " tui --addr 127.0.0.1:" + http + AFTER);
        String s = tmux.await("card declined", WAIT);
        assertThat(s).contains(" 1 logs ").contains("cart loaded").contains("ERROR").contains("payments");

        // The filter narrows the list.
        tmux.keys("/");
        tmux.literal("severity_number>=17");
        tmux.keys("Enter");
        s = tmux.await(x -> x.contains("/ severity_number>=17") && !x.contains("cart loaded"), WAIT, "the filtered list");
        assertThat(s).contains("card declined").contains("1 rows");

        // A malformed filter is marked, not run.
        tmux.keys("/");
        tmux.literal(" service.name=\"open");
        tmux.keys("Enter");
        tmux.await("column", WAIT);

        // Traces, and the waterfall of the newest span's trace: every span, with its service.
        tmux.keys("2");
        s = tmux.await(x -> x.contains("GET /checkout") && x.contains("charge card"), WAIT, "both spans");
        tmux.keys("t");
        s = tmux.await("trace " + traceId, WAIT);
        List<String> lines = Arrays.asList(s.split("\n"));
        assertThat(lines).anySatisfy(l -> assertThat(l).startsWith("GET /checkout").contains("frontend").contains("█"));
        assertThat(lines).anySatisfy(l -> assertThat(l).startsWith("  ! charge card").contains("payments").contains("█"));
        tmux.keys("Escape");
        tmux.await("GET /checkout", WAIT);

        // c: the frame of the selected span: its trace and both services that took part in it.
        tmux.keys("c");
        s = tmux.await(x -> x.contains("frame of the selected row") && x.contains(traceId), WAIT, "the frame");
        lines = Arrays.asList(s.split("\n"));
        assertThat(lines).anySatisfy(l -> assertThat(l).startsWith("  frontend").contains("service.instance.id=fe-1"));
        assertThat(lines).anySatisfy(l -> assertThat(l).startsWith("  payments").contains("service.instance.id=pay-1"));
        // Enter on its trace line opens the waterfall; Esc comes back to the frame, then to the list.
        tmux.keys("End", "Enter");
        tmux.await(x -> x.contains("trace " + traceId) && x.contains("█"), WAIT, "the frame's trace");
        tmux.keys("Escape");
        tmux.await("frame of the selected row", WAIT);
        tmux.keys("Escape");
        tmux.await(x -> x.contains("GET /checkout") && !x.contains("frame of"), WAIT, "the list again");

        // m: the map from the entry service; Enter on the callee narrows the list to its spans.
        tmux.keys("m");
        s = tmux.await("service map from frontend", WAIT);
        lines = Arrays.asList(s.split("\n"));
        assertThat(lines).anySatisfy(l -> assertThat(l).startsWith("frontend").contains("spans 1"));
        assertThat(lines).anySatisfy(l -> assertThat(l).startsWith("└─ payments").contains("rpc calls 1").contains("err 1")
            .contains("p99 "));
        tmux.keys("Down", "Enter");
        s = tmux.await(x -> x.contains("/ service.name=payments") && x.contains("charge card") && !x.contains("GET /checkout"),
            WAIT, "the list narrowed to payments");
        assertThat(s).contains("1 rows");

        // 3: the seeded gauge, charted with its scale.
        // (The SDK exports a metric of its own, listed first: Down selects the gauge.)
        tmux.keys("3");
        tmux.await(x -> x.contains("queue.depth") && x.chars().anyMatch(c -> c > 0x2800 && c <= 0x28ff), WAIT, "the metrics tab");
        tmux.keys("Down");
        s = tmux.await(x -> x.contains("queue.depth {service.name=worker}") && x.chars().anyMatch(c -> c > 0x2800 && c <= 0x28ff),
            WAIT, "the gauge's chart");
        lines = Arrays.asList(s.split("\n"));
        assertThat(lines).anySatisfy(l -> assertThat(l).startsWith("queue.depth").contains("gauge"));
        assertThat(lines).anySatisfy(l -> assertThat(l).startsWith("12┤"));
        assertThat(lines).anySatisfy(l -> assertThat(l).matches(" *5┤.*"));
        assertThat(lines).anySatisfy(l -> assertThat(l).contains("└").matches(".*\\d\\d:\\d\\d:\\d\\d.*"));
        // s cycles the function: rate, increase (a gauge has neither: the node says so), then avg, bucketed.
        tmux.keys("s");
        tmux.await(x -> x.contains("fn rate") && bar(x, 30, "gauge"), WAIT, "the node refusing rate of a gauge");
        tmux.keys("s", "s");
        s = tmux.await(x -> x.contains("fn avg") && x.chars().anyMatch(c -> c > 0x2800 && c <= 0x28ff), WAIT, "avg charted");

        // a: the rule; Enter lists the rows it counted, its filter over its window.
        tmux.keys("a");
        s = tmux.await("payments-errors", WAIT);
        for (long until = System.nanoTime() + WAIT.toNanos(); !s.contains("firing") && System.nanoTime() < until; ) {
          Thread.sleep(500);
          tmux.keys("Escape", "a");
          s = tmux.await("payments-errors", WAIT);
        }
        assertThat(s).contains("firing").contains("1 > 0 over 1h").contains("service.name=payments severity_number>=17");
        tmux.keys("Enter");
        s = tmux.await(x -> x.contains("/ service.name=payments severity_number>=17") && x.contains("card declined"), WAIT,
            "the rule's rows");
        assertThat(s).doesNotContain("cart loaded").contains(" window ").contains("1 rows");

        // 80 × 24: the list, the chart and the map fit, the header on the first line, the status bar on the last.
        tmux.resize(80, 24);
        fits(tmux.await(x -> bar(x, 24, "rows"), WAIT, "the list at 80x24"), 80, 24);
        tmux.keys("3");
        fits(tmux.await(x -> bar(x, 24, "metrics in") && x.contains("┤"), WAIT, "the chart at 80x24"), 80, 24);
        tmux.keys("m");
        fits(tmux.await(x -> bar(x, 24, "Esc back") && x.contains("└─ payments"), WAIT, "the map at 80x24"), 80, 24);
        tmux.keys("Escape", "1");

        // A smaller terminal is redrawn to its size: the status bar moves to the new last line.
        tmux.resize(80, 20);
        s = tmux.await(x -> {
          String[] l = x.split("\n", -1);
          return l.length >= 20 && l[19].contains("rows");
        }, WAIT, "the status bar on line 20 of 20");
        for (String l : s.split("\n")) {
          assertThat(l.length()).isLessThanOrEqualTo(80);
        }

        tmux.keys("q");
        s = tmux.await(TuiIT::exited, WAIT, "the exit status and stty's flags");
        assertThat(s).contains("TUI_EXIT=0");
        assertThat(s.lines().toList()).as("cooked again").contains("icanon", "echo").doesNotContain("-icanon", "-echo");
      }
      server.terminate();
      assertThat(server.awaitExit(WAIT)).isZero();
    }

    // The node is gone; its directory is read in-process, and SIGTERM still restores the terminal.
    try (Tmux tmux = new Tmux(120, 30, cwd.toString())) {
      tmux.line(bin() + " tui --data-dir " + data + AFTER);
      String s = tmux.await("card declined", WAIT);
      assertThat(s).contains("cart loaded").contains(data.toString());
      tmux.keys("a");
      tmux.await("alerting needs a server", WAIT);
      tmux.keys("m");
      tmux.await(x -> x.contains("service map from frontend") && x.contains("└─ payments"), WAIT, "the map from the directory");
      ProcessHandle tui = ProcessHandle.allProcesses()
          .filter(p -> p.info().commandLine().map(c -> c.contains(" tui ") && c.contains("--data-dir " + data)).orElse(false))
          .findFirst().orElseThrow();
      tui.destroy();
      s = tmux.await(TuiIT::exited, WAIT, "the exit status and stty's flags");
      assertThat(s).as("ended by the signal").containsPattern("TUI_EXIT=(143|130|0)");
      assertThat(s.lines().toList()).as("cooked after SIGTERM").contains("icanon", "echo").doesNotContain("-icanon", "-echo");
    }
  }

  /** The screen has {@code rows} lines and the last holds the status bar, saying {@code what}. */
  static boolean bar(String screen, int rows, String what) {
    String[] l = screen.split("\n", -1);
    return l.length >= rows && l[rows - 1].contains(what) && l[0].contains(" mira ");
  }

  /** Nothing wrapped: no line is wider than the terminal, and the header is still on the first line. */
  static void fits(String screen, int cols, int rows) {
    String[] l = screen.split("\n", -1);
    assertThat(l.length).isGreaterThanOrEqualTo(rows);
    assertThat(l[0]).contains(" mira ").contains(" 3 metrics ");
    for (String line : l) {
      assertThat(line.codePointCount(0, line.length())).as(line).isLessThanOrEqualTo(cols);
    }
  }

  /** A gauge, queue.depth, exported three times: 5, then 12, then 8. */
  static void gauges(String http) throws Exception {
    SdkMeterProvider meters = SdkMeterProvider.builder()
        .setResource(Resource.create(Attributes.of(stringKey("service.name"), "worker", stringKey("service.instance.id"), "w-1")))
        .registerMetricReader(PeriodicMetricReader.builder(OtlpHttpMetricExporter.builder().setEndpoint(http + "/v1/metrics")
            .build()).setInterval(Duration.ofHours(1)).build())
        .build();
    long[] depth = {5};
    meters.get("it").gaugeBuilder("queue.depth").ofLongs().buildWithCallback(m -> m.record(depth[0]));
    for (long d : new long[] {5, 12, 8}) {
      depth[0] = d;
      assertThat(meters.forceFlush().join(30, TimeUnit.SECONDS).isSuccess()).isTrue();
      Thread.sleep(200);
    }
    meters.close();
  }

  /** The shell printed the UI's exit status and stty's echo flag (the typed command holds neither). */
  static boolean exited(String screen) {
    return screen.matches("(?s).*TUI_EXIT=\\d+.*") && screen.lines().anyMatch(l -> l.equals("echo") || l.equals("-echo"));
  }

  /** Two services and one trace across them: frontend calls payments, whose span fails and logs an error. */
  static String seed(String http) throws Exception {
    SdkTracerProvider frontend = tracer(http, "frontend", "fe-1");
    SdkTracerProvider payments = tracer(http, "payments", "pay-1");
    SdkLoggerProvider logs = SdkLoggerProvider.builder()
        .setResource(Resource.create(Attributes.of(stringKey("service.name"), "payments", stringKey("service.instance.id"),
            "pay-1")))
        .addLogRecordProcessor(BatchLogRecordProcessor.builder(
            OtlpHttpLogRecordExporter.builder().setEndpoint(http + "/v1/logs").build()).build())
        .build();
    Span root = frontend.get("it").spanBuilder("GET /checkout").setSpanKind(SpanKind.SERVER).startSpan();
    String traceId = root.getSpanContext().getTraceId();
    try (Scope r = root.makeCurrent()) {
      logs.get("it").logRecordBuilder().setSeverity(Severity.INFO).setBody("cart loaded").emit();
      Thread.sleep(5);
      Span charge = payments.get("it").spanBuilder("charge card").setParent(Context.current()).setSpanKind(SpanKind.SERVER)
          .startSpan();
      try (Scope c = charge.makeCurrent()) {
        Thread.sleep(5);
        logs.get("it").logRecordBuilder().setSeverity(Severity.ERROR).setBody("card declined").emit();
      }
      charge.setStatus(StatusCode.ERROR, "declined");
      charge.end();
    }
    root.end();
    for (var f : List.of(frontend.forceFlush(), payments.forceFlush(), logs.forceFlush())) {
      assertThat(f.join(30, TimeUnit.SECONDS).isSuccess()).isTrue();
    }
    frontend.close();
    payments.close();
    logs.close();
    return traceId;
  }

  private static SdkTracerProvider tracer(String http, String service, String instance) {
    return SdkTracerProvider.builder()
        .setResource(Resource.create(Attributes.of(stringKey("service.name"), service, stringKey("service.instance.id"), instance)))
        .addSpanProcessor(BatchSpanProcessor.builder(OtlpHttpSpanExporter.builder().setEndpoint(http + "/v1/traces").build())
            .build())
        .build();
  }
}
