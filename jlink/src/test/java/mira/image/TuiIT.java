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
import java.nio.file.Path;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The terminal UI in a real terminal: tmux runs the image's {@code bin/mira tui} against a running
 * node seeded by the OpenTelemetry Java SDK, then against its data directory with the node
 * stopped; keys go in with send-keys, the screen is read with capture-pane, and after {@code q}
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
    try (Launched server = Launched.start(cwd, "serve", "--grpc-listen", "127.0.0.1:0", "--http-listen", "127.0.0.1:0",
        "--data-dir", data.toString())) {
      int http = server.awaitListening(WAIT)[1];
      traceId = seed("http://127.0.0.1:" + http);
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
      ProcessHandle tui = ProcessHandle.allProcesses()
          .filter(p -> p.info().commandLine().map(c -> c.contains(" tui ") && c.contains("--data-dir " + data)).orElse(false))
          .findFirst().orElseThrow();
      tui.destroy();
      s = tmux.await(TuiIT::exited, WAIT, "the exit status and stty's flags");
      assertThat(s).as("ended by the signal").containsPattern("TUI_EXIT=(143|130|0)");
      assertThat(s.lines().toList()).as("cooked after SIGTERM").contains("icanon", "echo").doesNotContain("-icanon", "-echo");
    }
  }

  /** The shell printed the UI's exit status and stty's echo flag (the typed command holds neither). */
  static boolean exited(String screen) {
    return screen.matches("(?s).*TUI_EXIT=\\d+.*") && screen.lines().anyMatch(l -> l.equals("echo") || l.equals("-echo"));
  }

  /** Two services and one trace across them: frontend calls payments, whose span fails and logs an error. */
  static String seed(String http) throws Exception {
    SdkTracerProvider frontend = tracer(http, "frontend");
    SdkTracerProvider payments = tracer(http, "payments");
    SdkLoggerProvider logs = SdkLoggerProvider.builder()
        .setResource(Resource.create(Attributes.of(stringKey("service.name"), "payments")))
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

  private static SdkTracerProvider tracer(String http, String service) {
    return SdkTracerProvider.builder()
        .setResource(Resource.create(Attributes.of(stringKey("service.name"), service)))
        .addSpanProcessor(BatchSpanProcessor.builder(OtlpHttpSpanExporter.builder().setEndpoint(http + "/v1/traces").build())
            .build())
        .build();
  }
}
