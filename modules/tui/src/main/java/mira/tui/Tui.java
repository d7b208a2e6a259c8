package mira.tui;

import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.logging.LogManager;
import mira.fs.Filesystems;
import mira.query.LocalQueries;
import org.jline.terminal.Terminal;
import org.jline.terminal.TerminalBuilder;

/** {@code mira tui}: parses its flags, opens the source and the terminal, runs the key loop. */
public final class Tui {
  private Tui() {}

  static final String HELP = """
      usage: mira tui [--addr HOST:PORT] [--data-dir DIR] [--token TOKEN]

        --addr HOST:PORT  a running node's HTTP listener (default 127.0.0.1:4318; a full
                          http:// or https:// URL works too)
        --data-dir DIR    read a data directory in-process instead: read-only, no port, safe
                          beside a server writing the same directory
        --token TOKEN     a bearer token for --addr (or MIRA_TOKEN)

      keys:
        1 2 3 / Tab       logs / traces / metrics
        /                 edit the filter (filter text: service.name=checkout severity_number>=17
                          "timeout"); Enter applies, Esc cancels
        r                 time range: 15m, 1h, 6h, 24h, 7d (after an alert's window: back to the range)
        ↑ ↓ j k PgUp PgDn move            Enter  detail pane (logs, traces)
        n                 next page (appended)
        t                 the trace waterfall of the selected span or traced log; Esc back
        c                 the frame of the selected row: its traces, their services, 5 s around;
                          Enter on a service filters to it, on a trace opens it; Esc back
        m                 the service map as a tree from the entry service (callees by calls;
                          calls, errors, p99 per edge); Enter filters to the service; Esc back
        a                 the alert rules (needs --addr); Enter lists the rows a rule counted
        f                 follow: read the first page again every 3 s
        g                 read again now
        q                 quit
      metrics tab (3):
        ↑ ↓               the metric charted        [ ]  the previous / next series of it
        s                 the function: raw points, rate, increase, avg, min, max, last, quantile
        p                 the quantile: 0.5, 0.9, 0.95, 0.99 (for histograms)
        b                 group_by: attribute keys, comma separated (empty: none); Enter, Esc
      """;

  /**
   * Why {@code dir} (a real path) cannot be read in-process, or null: blocks are memory-mapped, and
   * on a network filesystem a mapped read can fail with SIGBUS, so such a directory is refused as
   * the server refuses it. FUSE is not refused (it may well be local), as in the server.
   */
  static String refusal(Path dir, Path mountinfo) {
    return Filesystems.type(dir, mountinfo).filter(Filesystems::isNetwork)
        .map(t -> "data directory " + dir + " is on a network filesystem (" + t + "); blocks are memory-mapped and need a"
            + " local disk: read it through a node with --addr")
        .orElse(null);
  }

  /**
   * Runs the terminal UI. Exit status: 0 after {@code q}, 1 if the source or the terminal cannot
   * be opened, 2 for bad usage.
   */
  public static int run(String[] args, PrintStream out, PrintStream err) {
    String addr = null;
    String dataDir = null;
    String token = System.getenv("MIRA_TOKEN");
    for (int i = 1; i < args.length; i++) {
      String a = args[i];
      switch (a) {
        case "--help", "-h" -> {
          out.print(HELP);
          return 0;
        }
        case "--addr", "--data-dir", "--token" -> {
          if (i + 1 >= args.length) {
            err.println("mira tui: " + a + " needs a value");
            return 2;
          }
          String v = args[++i];
          switch (a) {
            case "--addr" -> addr = v;
            case "--data-dir" -> dataDir = v;
            default -> token = v;
          }
        }
        default -> {
          err.println("mira tui: unknown flag " + a + "; see mira tui --help");
          return 2;
        }
      }
    }
    if (addr != null && dataDir != null) {
      err.println("mira tui: give --addr or --data-dir, not both");
      return 2;
    }
    // Nothing may write to the screen but the UI: no log handler, and stderr silenced while it runs.
    LogManager.getLogManager().reset();
    Source source;
    try {
      if (dataDir != null) {
        Path dir = Path.of(dataDir);
        if (!Files.isDirectory(dir)) {
          err.println("mira tui: data directory " + dir + " does not exist");
          return 1;
        }
        String refused = refusal(dir.toRealPath(), Filesystems.MOUNTINFO);
        if (refused != null) {
          err.println("mira tui: " + refused);
          return 1;
        }
        source = Source.local(LocalQueries.open(dir));
      } else {
        source = Source.remote(addr == null ? "127.0.0.1:4318" : addr, token);
      }
    } catch (IOException | RuntimeException e) {
      err.println("mira tui: " + e.getMessage());
      return 1;
    }
    PrintStream savedErr = System.err;
    try (source; Terminal terminal = TerminalBuilder.builder().system(true).name("mira").build()) {
      if (terminal.getType().startsWith("dumb")) {
        err.println("mira tui: not a terminal (run it in one, or over ssh -t)");
        return 1;
      }
      System.setErr(new PrintStream(OutputStream.nullOutputStream()));
      new App(terminal, new View(source)).run();
      return 0;
    } catch (IOException | RuntimeException e) {
      savedErr.println("mira tui: " + e);
      return 1;
    } finally {
      System.setErr(savedErr);
    }
  }
}
