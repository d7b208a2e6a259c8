package mira.block.index;

import java.io.IOException;
import java.math.BigDecimal;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import mira.block.index.ZoneIndex.Op;
import mira.block.table.NumericText;
import mira.block.testing.ArrowTables;
import mira.block.testing.ReaderTables;
import mira.proto.wire.Signal;

/**
 * Brute force over a published block's actual values, read with Arrow Java's own reader: which
 * values an equality or ordered term could match, under every reasonable reading of the
 * comparison. The indexes must answer "maybe" wherever this finds a match.
 */
final class Oracle {
  /** A value that may match any ordered term (text that is not a number, a boolean, bytes). */
  static final Object ANY = new Object() {
    @Override
    public String toString() {
      return "ANY";
    }
  };

  private static final List<String> ATTRIBUTE_COLUMNS =
      List.of("parent_id", "key", "type", "str", "int", "double", "bool", "bytes", "ser");
  static final List<String> REQUIRED_COLUMNS = List.of("parent_id", "key", "type", "str", "bool");

  private Oracle() {}

  /** One stored attribute: its table, key, OTAP type and value (String, Long, Double, Boolean, byte[], or null). */
  record Attr(String file, String key, int type, Object value) {}

  /**
   * Every attribute row of the block, from every table that has the attribute columns — found by
   * looking at the files, not at the writer's list of tables.
   */
  static List<Attr> attributes(Path dir) throws IOException {
    List<Attr> out = new ArrayList<>();
    for (String f : ReaderTables.files(dir)) {
      ArrowTables.Rows rows = ArrowTables.read(dir, f);
      // A block leaves out the value columns no row of it uses; what is left is in the same order.
      if (!rows.columns().containsAll(REQUIRED_COLUMNS) || !ATTRIBUTE_COLUMNS.containsAll(rows.columns())) {
        continue;
      }
      for (Map<String, Object> r : rows.rows()) {
        int type = ((Long) r.get("type")).intValue();
        Object value = switch (type) {
          case 1 -> r.get("str");
          case 2 -> r.get("int");
          case 3 -> r.get("double");
          case 4 -> r.get("bool");
          case 7 -> r.get("bytes");
          default -> null;
        };
        out.add(new Attr(f, (String) r.get("key"), type, value));
      }
    }
    return out;
  }

  /** The non-null trace ids of the block's root table, in row order. */
  static List<byte[]> traceIds(Path dir, Signal signal) throws IOException {
    List<byte[]> out = new ArrayList<>();
    String root = switch (signal) {
      case LOGS -> "logs.arrow";
      case TRACES -> "spans.arrow";
      case METRICS -> null;
    };
    if (root == null) {
      return out;
    }
    for (Map<String, Object> r : ArrowTables.read(dir, root).rows()) {
      if (r.get("trace_id") != null) {
        out.add((byte[]) r.get("trace_id"));
      }
    }
    return out;
  }

  /**
   * The values of each root column zone.idx covers, by entry name (as the spec of the index says,
   * written out here independently): Long or Double, nulls skipped.
   */
  static Map<String, List<Object>> rootColumns(Path dir, Signal signal) throws IOException {
    Map<String, List<Object>> out = new LinkedHashMap<>();
    switch (signal) {
      case LOGS -> {
        for (String c : List.of("time_unix_nano", "observed_time_unix_nano", "severity_number", "flags",
            "dropped_attributes_count")) {
          collect(out, c, dir, "logs.arrow", c);
        }
      }
      case TRACES -> {
        for (String c : List.of("start_time_unix_nano", "end_time_unix_nano", "duration_nano", "kind", "status_code",
            "flags", "dropped_attributes_count", "dropped_events_count", "dropped_links_count")) {
          collect(out, c, dir, "spans.arrow", c);
        }
      }
      case METRICS -> {
        for (String f : List.of("number_dp.arrow", "hist_dp.arrow", "exp_hist_dp.arrow", "summary_dp.arrow")) {
          collect(out, "time_unix_nano", dir, f, "time_unix_nano");
          collect(out, "start_time_unix_nano", dir, f, "start_time_unix_nano");
        }
        collect(out, "value", dir, "number_dp.arrow", "int");
        collect(out, "value", dir, "number_dp.arrow", "double");
      }
    }
    return out;
  }

  private static void collect(Map<String, List<Object>> out, String entry, Path dir, String file, String column)
      throws IOException {
    List<Object> values = out.computeIfAbsent(entry, k -> new ArrayList<>());
    for (Map<String, Object> r : ArrowTables.read(dir, file).rows()) {
      Object v = r.get(column);
      if (v != null) {
        values.add(v);
      }
    }
  }

  // ---- equality (attr.idx) ----

  /** A probe's number, by NumericText or, failing that, Double.parseDouble; null if neither reads one. */
  static Number probeNumber(String p) {
    NumericText n = new NumericText();
    switch (n.parse(p)) {
      case NumericText.LONG -> {
        return n.longValue();
      }
      case NumericText.DOUBLE -> {
        return n.doubleValue();
      }
      default -> {
        try {
          return Double.parseDouble(p);
        } catch (NumberFormatException e) {
          return null;
        }
      }
    }
  }

  /** Whether an equality term on {@code probe} may select {@code a}. */
  static boolean eqMatches(Attr a, String probe) {
    return switch (a.type()) {
      case 1 -> probe.equals(a.value());
      case 2 -> Long.toString((Long) a.value()).equals(probe) || numberEquals((Long) a.value(), probeNumber(probe));
      case 3 -> numberEquals((Double) a.value(), probeNumber(probe));
      case 4 -> Boolean.toString((Boolean) a.value()).equalsIgnoreCase(probe);
      case 7 -> Base64.getEncoder().encodeToString((byte[]) a.value()).equals(probe);
      default -> false;
    };
  }

  private static boolean numberEquals(Object stored, Number probe) {
    if (probe == null) {
      return false;
    }
    for (Op op : List.of(Op.EQ)) {
      if (ordered(stored, op, probe)) {
        return true;
      }
    }
    return false;
  }

  // ---- ordering (zone.idx) ----

  /**
   * Whether {@code value op bound} holds under any reading: exact mathematical comparison, or —
   * when either side is a double — both sides as doubles, with {@code <}/{@code ==} or with
   * {@link Double#compare}. (Two integers always compare as integers.) {@link #ANY} matches
   * everything.
   */
  static boolean ordered(Object value, Op op, Number bound) {
    if (value == ANY) {
      return true;
    }
    Integer exact = exact((Number) value, bound);
    if (exact != null && holds(op, exact)) {
      return true;
    }
    if (value instanceof Long && bound instanceof Long) {
      return false;
    }
    double v = ((Number) value).doubleValue();
    double b = bound.doubleValue();
    if (!Double.isNaN(v) && !Double.isNaN(b) && holds(op, v < b ? -1 : v > b ? 1 : 0)) {
      return true;
    }
    return holds(op, Integer.signum(Double.compare(v, b)));
  }

  private static boolean holds(Op op, int sign) {
    return switch (op) {
      case EQ -> sign == 0;
      case GT -> sign > 0;
      case GTE -> sign >= 0;
      case LT -> sign < 0;
      case LTE -> sign <= 0;
    };
  }

  /** Sign of value − bound by exact value, or null if either is NaN. */
  private static Integer exact(Number value, Number bound) {
    BigDecimal a = big(value);
    BigDecimal b = big(bound);
    if (a != null && b != null) {
      return a.compareTo(b);
    }
    double x = value.doubleValue();
    double y = bound.doubleValue();
    if (Double.isNaN(x) || Double.isNaN(y)) {
      return null;
    }
    // At least one infinity: doubles order them correctly against anything finite.
    return Double.compare(x, y) == 0 ? 0 : x < y ? -1 : 1;
  }

  private static BigDecimal big(Number n) {
    if (n instanceof Long l) {
      return BigDecimal.valueOf(l);
    }
    double d = n.doubleValue();
    return Double.isFinite(d) ? new BigDecimal(d) : null;
  }

  /** The ordered-comparison reading of a stored attribute: Long, Double, ANY, or null (never matches). */
  static Object orderedValue(Attr a) {
    return switch (a.type()) {
      case 2 -> a.value();
      case 3 -> a.value();
      case 1 -> {
        NumericText n = new NumericText();
        yield switch (n.parse((String) a.value())) {
          case NumericText.LONG -> n.longValue();
          case NumericText.DOUBLE -> n.doubleValue();
          default -> ANY;
        };
      }
      case 4, 7 -> ANY;
      default -> null;
    };
  }
}
