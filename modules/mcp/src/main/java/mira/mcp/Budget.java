package mira.mcp;

import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Fits a tool's answer into an agent's context window. The HTTP API answers in full; an agent
 * reads every byte it is given, so the same answer is shaped here before it is sent:
 *
 * <ul>
 *   <li>members that say nothing are left out below the top level: {@code null}, empty strings,
 *       lists and objects, and {@code dropped_*} counts of zero ({@code entity: null} stays: it says
 *       the resource has no identity; an attribute with an empty value stays: it is data);
 *   <li>a string value longer than {@code max_value_chars} keeps its head and ends in a marker
 *       naming how much was cut; ids, times and cursors are never cut, and never long;
 *   <li>if the answer is still over {@code max_tokens}, the answer's list (rows, services, …) keeps
 *       its first entries that fit.
 * </ul>
 *
 * <p>Nothing is cut silently: the document gains a {@code cut} member and the summary line a
 * sentence, each naming the cursor or argument that gets the rest.
 *
 * <p>Tokens are estimated as three characters of JSON each. That is on the safe side for this
 * JSON: hex ids and decimal times tokenize worse than prose, which runs nearer four.
 */
final class Budget {
  /** The answer an agent gets unless it asks for another size. */
  static final int DEFAULT_TOKENS = 8_000;
  /** Characters of a string value kept by default: a stack trace's first frames, a query's text. */
  static final int DEFAULT_VALUE_CHARS = 500;
  static final int CHARS_PER_TOKEN = 3;
  /** Characters kept free for the {@code cut} member and a cursor, when a list is cut. */
  private static final int RESERVE = 512;

  /** Members whose value must stay exact (they are short; this is a guard, not a limit). */
  private static final Set<String> EXACT = Set.of("trace_id", "span_id", "parent_span_id", "next", "after",
      "entity", "key", "time_unix_nano", "observed_time_unix_nano", "start_time_unix_nano",
      "end_time_unix_nano", "duration_nano");

  /** The two arguments every tool takes; {@code 0} for either means no limit. */
  record Limits(int tokens, int valueChars) {
    static final Limits DEFAULT = new Limits(DEFAULT_TOKENS, DEFAULT_VALUE_CHARS);

    long chars() {
      return tokens == 0 ? Long.MAX_VALUE : (long) tokens * CHARS_PER_TOKEN;
    }
  }

  /** The schema entries of the two arguments, added to every tool's input schema. */
  static void declare(Map<String, Object> props) {
    props.put("max_tokens", Tree.obj("type", "integer", "minimum", 0, "description",
        "answer budget in tokens (default " + DEFAULT_TOKENS + "; 0 = none); a longer answer keeps its first "
            + "entries and says how to get the rest"));
    props.put("max_value_chars", Tree.obj("type", "integer", "minimum", 0, "description",
        "longest string value kept whole (default " + DEFAULT_VALUE_CHARS + "; 0 = none); a longer one is "
            + "cut with a marker"));
  }

  /** Takes the two arguments out of {@code args} (the rest go to the query grammar unchanged). */
  static Limits take(Map<String, Object> args) throws Tools.Refusal {
    int tokens = count(args.remove("max_tokens"), "max_tokens", DEFAULT_TOKENS);
    int chars = count(args.remove("max_value_chars"), "max_value_chars", DEFAULT_VALUE_CHARS);
    return new Limits(tokens, chars);
  }

  private static int count(Object v, String key, int dflt) throws Tools.Refusal {
    if (v == null) {
      return dflt;
    }
    if (!(v instanceof Long n) || n < 0 || n > Integer.MAX_VALUE) {
      throw new Tools.Refusal("\"" + key + "\" must be a whole number ≥ 0 (0 = no limit), not " + v);
    }
    return (int) (long) n;
  }

  /**
   * How to get what a list cut left out, given how many entries were kept: the sentence for the
   * summary, after the tool has put any cursor into the document.
   */
  interface Rest {
    /** {@code needed}: the characters the whole answer takes, for a sentence that names a budget. */
    String after(Map<String, Object> doc, int kept, long needed);
  }

  /** Rest for lists that cannot be paged: a bigger budget is the way. */
  static final Rest RAISE_BUDGET = (doc, kept, needed) ->
      "call again with max_tokens=" + (needed / CHARS_PER_TOKEN + 1) + " for all of it";

  /** A shaped answer: the document to send and the sentence to add to the summary ("" when nothing was cut). */
  record Shaped(byte[] json, String note) {}

  /**
   * Shapes {@code doc} (an answer's top-level object, changed in place) to {@code limits};
   * {@code list} names the member whose entries may be left out, {@code rest} says how to get them.
   */
  static Shaped shape(Map<String, Object> doc, Limits limits, String list, Rest rest) {
    int[] cutValues = {0};
    int[] longest = {0};
    for (Map.Entry<String, Object> e : doc.entrySet()) {
      e.setValue(prune(e.getKey(), e.getValue(), limits.valueChars(), cutValues, longest));
    }
    List<String> notes = new ArrayList<>();
    Map<String, Object> cut = Tree.obj();
    if (cutValues[0] > 0) {
      cut.put("values_cut", (long) cutValues[0]);
      cut.put("values_rest", "max_value_chars=" + longest[0] + " keeps every value whole");
      notes.add(cutValues[0] + " long values cut at " + limits.valueChars() + " characters (max_value_chars="
          + longest[0] + " keeps them whole)");
    }
    byte[] json = Tree.bytes(doc);
    if (json.length > limits.chars() && list != null && doc.get(list) instanceof List<?> entries && entries.size() > 1) {
      // What stays around the list, plus room for the cut member and a cursor that the rest adds.
      long room = limits.chars() - (json.length - sizeOf(entries)) - RESERVE;
      long used = 2;
      int kept = 0;
      for (Object entry : entries) {
        long size = Tree.bytes(entry).length + 1L;
        if (kept > 0 && used + size > room) {
          break;
        }
        used += size;
        kept++;
      }
      if (kept < entries.size()) {
        int of = entries.size();
        doc.put(list, new ArrayList<>(entries.subList(0, kept)));
        String how = (rest == null ? RAISE_BUDGET : rest).after(doc, kept, json.length);
        cut.put(list + "_kept", (long) kept);
        cut.put(list + "_left_out", (long) (of - kept));
        cut.put(list + "_rest", how);
        notes.add(0, "the answer's budget (max_tokens=" + limits.tokens() + ") kept " + kept + " of " + of + " "
            + list + "; " + how);
      }
    }
    if (cut.isEmpty()) {
      return new Shaped(json, "");
    }
    doc.put("cut", cut);
    return new Shaped(Tree.bytes(doc), "; CUT: " + String.join("; ", notes));
  }

  private static long sizeOf(List<?> entries) {
    return Tree.bytes(entries).length;
  }

  /** Below the top level: drops empty members, cuts long strings; returns the value to keep. */
  private static Object prune(String key, Object v, int valueChars, int[] cutValues, int[] longest) {
    switch (v) {
      case Map<?, ?> m -> {
        @SuppressWarnings("unchecked")
        Iterator<Map.Entry<String, Object>> it = ((Map<String, Object>) m).entrySet().iterator();
        // An attribute present with an empty value is data, not an empty field.
        boolean data = key.equals("attributes");
        while (it.hasNext()) {
          Map.Entry<String, Object> e = it.next();
          Object x = prune(e.getKey(), e.getValue(), valueChars, cutValues, longest);
          if (!data && empty(e.getKey(), x)) {
            it.remove();
          } else {
            e.setValue(x);
          }
        }
        return m;
      }
      case List<?> l -> {
        @SuppressWarnings("unchecked")
        List<Object> list = (List<Object>) l;
        for (int i = 0; i < list.size(); i++) {
          list.set(i, prune(key, list.get(i), valueChars, cutValues, longest));
        }
        return list;
      }
      case String s when valueChars > 0 && s.length() > valueChars && !EXACT.contains(key) -> {
        cutValues[0]++;
        longest[0] = Math.max(longest[0], s.length());
        int end = valueChars;
        if (Character.isHighSurrogate(s.charAt(end - 1))) {
          end--;
        }
        return s.substring(0, end) + "…[cut: " + (s.length() - end) + " of " + s.length() + " characters]";
      }
      case null, default -> {
        return v;
      }
    }
  }

  private static boolean empty(String key, Object v) {
    return switch (v) {
      case null -> !key.equals("entity");
      case String s -> s.isEmpty();
      case Map<?, ?> m -> m.isEmpty();
      case List<?> l -> l.isEmpty();
      case Long n -> n == 0 && key.startsWith("dropped_");
      default -> false;
    };
  }
}
