package mira.tui;

import java.util.ArrayList;
import java.util.List;
import mira.client.AlertList;

/**
 * A detour from the list — the correlation frame ({@code c}), the service map ({@code m}), the
 * alerts ({@code a}) — as lines with a cursor, each line carrying what {@code Enter} does on it.
 * {@code Esc} leaves it; nothing here queries anything.
 */
final class Pane {
  /** What {@code Enter} on a line does. */
  sealed interface Act {
    /** Nothing (a heading). */
    record None() implements Act {}

    /** Adds a term (filter text) to the filter of the list and shows the list. */
    record AddTerm(String term) implements Act {}

    /** Opens the waterfall of a trace. */
    record OpenTrace(String traceId) implements Act {}

    /** Shows the list over a window (time strings). */
    record Window(String from, String to) implements Act {}

    /** Shows the rows an alert rule counted: its signal, its filter, its window. */
    record Rule(AlertList.Alert alert) implements Act {}
  }

  static final Act NONE = new Act.None();

  final String title;
  final List<String> lines = new ArrayList<>();
  final List<Act> acts = new ArrayList<>();
  /** What the status bar says in this pane. */
  final String hint;
  int cursor = -1;
  private int top;

  Pane(String title, String hint) {
    this.title = title;
    this.hint = hint;
  }

  void add(String line, Act act) {
    lines.add(line);
    acts.add(act);
    if (cursor < 0 && !(act instanceof Act.None)) {
      cursor = lines.size() - 1;
    }
  }

  Act selected() {
    return cursor < 0 ? NONE : acts.get(cursor);
  }

  /** Moves the cursor {@code delta} lines, skipping headings; stays put if there is nowhere to go. */
  void move(int delta) {
    if (cursor < 0) {
      return;
    }
    int step = delta < 0 ? -1 : 1;
    int to = cursor;
    for (int left = Math.abs(delta), i = cursor + step; left > 0 && i >= 0 && i < lines.size(); i += step) {
      if (!(acts.get(i) instanceof Act.None)) {
        to = i;
        left--;
      }
    }
    cursor = to;
  }

  List<String> draw(int w, int h) {
    List<String> out = new ArrayList<>(h);
    out.add(Text.style(Text.BOLD, Text.safe(title)));
    int body = Math.max(1, h - 1);
    int at = Math.max(0, cursor);
    if (at < top) {
      top = at;
    } else if (at >= top + body) {
      top = at - body + 1;
    }
    for (int i = top; i < Math.min(lines.size(), top + body); i++) {
      String l = lines.get(i);
      out.add(i == cursor ? Text.REVERSE + Text.fit(View.stripStyles(l), w) + Text.RESET : l);
    }
    return out;
  }
}
