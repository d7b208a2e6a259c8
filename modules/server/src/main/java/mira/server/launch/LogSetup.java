package mira.server.launch;

import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.logging.ConsoleHandler;
import java.util.logging.Formatter;
import java.util.logging.Handler;
import java.util.logging.Level;
import java.util.logging.LogRecord;
import java.util.logging.Logger;

/** One line per log record on stderr: time, level, logger, message (and a stack trace if any). */
public final class LogSetup {
  private static final DateTimeFormatter TIME = DateTimeFormatter.ofPattern("yyyy-MM-dd'T'HH:mm:ss.SSS'Z'")
      .withZone(ZoneOffset.UTC);

  /** Held so the loggers (and their levels) are not garbage-collected. */
  private static final Logger[] QUIET = {
    Logger.getLogger("io.helidon.common.features"), Logger.getLogger("org.apache.arrow")
  };

  private LogSetup() {}

  /** Replaces the JUL root handlers. Idempotent. */
  public static void install() {
    Logger root = Logger.getLogger("");
    for (Handler h : root.getHandlers()) {
      root.removeHandler(h);
    }
    ConsoleHandler h = new ConsoleHandler();
    h.setLevel(Level.ALL);
    h.setFormatter(new OneLine());
    root.addHandler(h);
    root.setLevel(Level.INFO);
    // Helidon announces its feature list and "preview" notices at INFO on every start, and Arrow
    // which allocator it picked.
    for (Logger l : QUIET) {
      l.setLevel(Level.WARNING);
    }
  }

  private static final class OneLine extends Formatter {
    @Override
    public String format(LogRecord r) {
      StringBuilder b = new StringBuilder(128);
      b.append(TIME.format(Instant.ofEpochMilli(r.getMillis()))).append(' ')
          .append(level(r.getLevel())).append(' ')
          .append(shortName(r.getLoggerName())).append(": ")
          .append(formatMessage(r)).append('\n');
      if (r.getThrown() != null) {
        java.io.StringWriter sw = new java.io.StringWriter();
        r.getThrown().printStackTrace(new java.io.PrintWriter(sw));
        b.append(sw);
      }
      return b.toString();
    }

    private static String level(Level l) {
      if (l.intValue() >= Level.SEVERE.intValue()) {
        return "ERROR";
      }
      if (l.intValue() >= Level.WARNING.intValue()) {
        return "WARN ";
      }
      if (l.intValue() >= Level.INFO.intValue()) {
        return "INFO ";
      }
      return "DEBUG";
    }

    private static String shortName(String n) {
      if (n == null) {
        return "-";
      }
      int dot = n.lastIndexOf('.');
      return dot < 0 ? n : n.substring(dot + 1);
    }
  }
}
