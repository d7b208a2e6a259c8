package mira.tui;

import java.io.IOException;
import java.io.PrintWriter;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;
import mira.query.result.Row;
import org.jline.terminal.Attributes;
import org.jline.terminal.Size;
import org.jline.terminal.Terminal;
import org.jline.utils.NonBlockingReader;

/**
 * The key loop on a JLine terminal: raw mode and the alternate screen while it runs, the whole
 * screen redrawn from {@link View#render} after every key, on resize and on each follow tick. The
 * terminal's own attributes come back however it ends: {@code q}, an exception, or a signal (the
 * shutdown hook restores them before the JVM exits).
 */
final class App {
  /** How often follow mode re-reads the first page. */
  static final long FOLLOW_MS = 3_000;

  private final Terminal terminal;
  private final View view;
  private final AtomicBoolean resized = new AtomicBoolean();
  private boolean follow;
  private long lastFollow;

  App(Terminal terminal, View view) {
    this.terminal = terminal;
    this.view = view;
  }

  void run() throws IOException {
    Attributes cooked = terminal.enterRawMode();
    PrintWriter w = terminal.writer();
    AtomicBoolean restored = new AtomicBoolean();
    Runnable restore = () -> {
      if (restored.compareAndSet(false, true)) {
        w.print("\033[?25h\033[?1049l");
        w.flush();
        terminal.setAttributes(cooked);
        terminal.flush();
      }
    };
    Thread hook = new Thread(restore, "mira-tui-restore");
    Runtime.getRuntime().addShutdownHook(hook);
    terminal.handle(Terminal.Signal.WINCH, s -> resized.set(true));
    terminal.handle(Terminal.Signal.INT, s -> { });
    try {
      w.print("\033[?1049h\033[?25l");
      view.load();
      draw();
      NonBlockingReader in = terminal.reader();
      while (true) {
        int c = in.read(200);
        if (c == NonBlockingReader.EOF) {
          return;
        }
        if (c == NonBlockingReader.READ_EXPIRED) {
          if (follow && System.currentTimeMillis() - lastFollow >= FOLLOW_MS) {
            refreshKeepingRow();
            draw();
          } else if (resized.getAndSet(false)) {
            draw();
          }
          continue;
        }
        if (!key(c, in)) {
          return;
        }
        draw();
      }
    } finally {
      restore.run();
      try {
        Runtime.getRuntime().removeShutdownHook(hook);
      } catch (IllegalStateException shuttingDown) {
        // the hook is already running it
      }
    }
  }

  /** Handles one key; false to quit. */
  private boolean key(int c, NonBlockingReader in) throws IOException {
    String seq = c == 27 ? escape(in) : null;
    if (view.editing != null) {
      if (seq != null) {
        if (seq.isEmpty()) {
          view.cancelEditing();
        }
      } else if (c == '\r' || c == '\n') {
        view.applyFilter();
      } else if (c == 127 || c == 8) {
        view.backspace();
      } else if (c >= 0x20) {
        view.type((char) c);
      }
      return true;
    }
    view.message = "";
    if (seq != null) {
      switch (seq) {
        case "" -> view.back();
        case "[A", "OA" -> view.move(-1);
        case "[B", "OB" -> view.move(1);
        case "[5~" -> view.move(-page());
        case "[6~" -> view.move(page());
        case "[H", "OH", "[1~" -> view.move(-Integer.MAX_VALUE / 2);
        case "[F", "OF", "[4~" -> view.move(Integer.MAX_VALUE / 2);
        default -> { }
      }
      return true;
    }
    switch (c) {
      case 'q' -> {
        return false;
      }
      case '\t' -> view.switchTab(View.Tab.values()[(view.tab.ordinal() + 1) % View.Tab.values().length]);
      case '1' -> view.switchTab(View.Tab.LOGS);
      case '2' -> view.switchTab(View.Tab.TRACES);
      case '3' -> view.switchTab(View.Tab.METRICS);
      case 'c' -> view.openFrame();
      case 'm' -> view.openMap();
      case 'a' -> view.openAlerts();
      case 's' -> view.cycleFn();
      case 'p' -> view.cycleQuantile();
      case 'b' -> view.startGroupBy();
      case '[' -> view.cycleSeries(-1);
      case ']' -> view.cycleSeries(1);
      case '/' -> view.startEditing();
      case 'n' -> view.nextPage();
      case 'r' -> view.cycleRange();
      case 'g' -> view.load();
      case 't' -> view.openTrace();
      case 'j' -> view.move(1);
      case 'k' -> view.move(-1);
      case '\r', '\n' -> view.enter();
      case 'f' -> {
        follow = !follow;
        lastFollow = System.currentTimeMillis();
        view.message = follow ? "following: the first page is read again every 3 s (f stops)" : "";
      }
      default -> { }
    }
    return true;
  }

  /** The rest of an escape sequence after ESC: "" for a lone Esc, else e.g. "[A". */
  private static String escape(NonBlockingReader in) throws IOException {
    int c = in.peek(30);
    if (c != '[' && c != 'O') {
      return "";
    }
    StringBuilder s = new StringBuilder().append((char) in.read());
    while (true) {
      int d = in.read(30);
      if (d < 0) {
        return s.toString();
      }
      s.append((char) d);
      if ((d >= 'A' && d <= 'Z') || (d >= 'a' && d <= 'z') || d == '~') {
        return s.toString();
      }
    }
  }

  private int page() {
    return Math.max(1, terminal.getSize().getRows() - 4);
  }

  /** Follow: the first page again, the cursor on the row it was on if that row is still there. */
  private void refreshKeepingRow() {
    lastFollow = System.currentTimeMillis();
    if (view.mode != View.Mode.LIST) {
      return;
    }
    if (view.tab == View.Tab.METRICS) {
      view.load();
      return;
    }
    Row was = view.rows.isEmpty() ? null : view.rows.get(view.selected);
    view.load();
    if (was != null) {
      List<Row> now = view.rows;
      for (int i = 0; i < now.size(); i++) {
        Row r = now.get(i);
        if (r.time() == was.time() && r.node() == was.node() && r.seq() == was.seq() && r.row() == was.row()) {
          view.selected = i;
          break;
        }
      }
    }
    if (view.message.isEmpty()) {
      view.message = "";
    }
  }

  private void draw() {
    Size size = terminal.getSize();
    int cols = Math.max(20, size.getColumns());
    int rows = Math.max(5, size.getRows());
    List<String> lines = view.render(cols, rows);
    StringBuilder out = new StringBuilder(cols * rows + 64);
    for (int i = 0; i < lines.size(); i++) {
      out.append("\033[").append(i + 1).append(";1H").append(lines.get(i)).append(Text.RESET);
    }
    PrintWriter w = terminal.writer();
    w.print(out);
    w.flush();
  }
}
