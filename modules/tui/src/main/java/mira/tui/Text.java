package mira.tui;

import org.jline.utils.WCWidth;

/**
 * Text as the terminal shows it: display width (wide characters take two columns, combining marks
 * none), control characters made visible so a record can never move the cursor or change colours,
 * and cutting to a width with an ellipsis. Styles are ANSI SGR sequences added by {@link #style}
 * after a text was made safe; {@link #width} skips them.
 */
final class Text {
  private Text() {}

  static final String RESET = "\033[0m";
  static final String BOLD = "\033[1m";
  static final String DIM = "\033[2m";
  static final String RED = "\033[31m";
  static final String YELLOW = "\033[33m";
  static final String CYAN = "\033[36m";
  static final String REVERSE = "\033[7m";

  /**
   * {@code s} with every control character (C0, DEL, C1) replaced by a visible stand-in: ESC as
   * {@code ^[}, a newline as {@code ⏎}, a tab as a space, others as {@code ^X} or {@code \\u0085}.
   */
  static String safe(String s) {
    StringBuilder out = null;
    for (int i = 0; i < s.length(); i++) {
      char c = s.charAt(i);
      String r = null;
      if (c == '\n') {
        r = "⏎";
      } else if (c == '\t') {
        r = " ";
      } else if (c < 0x20 || c == 0x7f) {
        r = "^" + (char) (c == 0x7f ? '?' : c + '@');
      } else if (c >= 0x80 && c < 0xa0) {
        r = String.format("\\u%04x", (int) c);
      }
      if (r != null && out == null) {
        out = new StringBuilder(s.length() + 8).append(s, 0, i);
      }
      if (out != null) {
        out.append(r != null ? r : String.valueOf(c));
      }
    }
    return out == null ? s : out.toString();
  }

  /** Columns {@code s} takes on screen: SGR sequences count none, wide characters two. */
  static int width(String s) {
    int w = 0;
    for (int i = 0; i < s.length(); ) {
      int cp = s.codePointAt(i);
      if (cp == 0x1b) {
        i = skipEscape(s, i);
        continue;
      }
      w += Math.max(0, WCWidth.wcwidth(cp));
      i += Character.charCount(cp);
    }
    return w;
  }

  /**
   * {@code s} cut to at most {@code cols} columns (an ellipsis marks the cut) and padded with
   * spaces to exactly {@code cols}. SGR sequences are kept and a reset is added after a cut.
   */
  static String fit(String s, int cols) {
    if (cols <= 0) {
      return "";
    }
    int w = width(s);
    if (w <= cols) {
      return s + " ".repeat(cols - w);
    }
    StringBuilder out = new StringBuilder();
    int used = 0;
    boolean styled = false;
    for (int i = 0; i < s.length(); ) {
      int cp = s.codePointAt(i);
      if (cp == 0x1b) {
        int end = skipEscape(s, i);
        out.append(s, i, end);
        styled = true;
        i = end;
        continue;
      }
      int cw = Math.max(0, WCWidth.wcwidth(cp));
      if (used + cw > cols - 1) {
        break;
      }
      out.appendCodePoint(cp);
      used += cw;
      i += Character.charCount(cp);
    }
    out.append('…');
    used++;
    if (styled) {
      out.append(RESET);
    }
    return out + " ".repeat(Math.max(0, cols - used));
  }

  static String style(String sgr, String safeText) {
    return sgr + safeText + RESET;
  }

  private static int skipEscape(String s, int i) {
    int j = i + 1;
    if (j < s.length() && s.charAt(j) == '[') {
      j++;
      while (j < s.length() && !(s.charAt(j) >= 0x40 && s.charAt(j) <= 0x7e)) {
        j++;
      }
      return Math.min(s.length(), j + 1);
    }
    return Math.min(s.length(), j + 1);
  }
}
