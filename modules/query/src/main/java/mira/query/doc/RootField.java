package mira.query.doc;

import java.util.ArrayList;
import java.util.List;
import mira.proto.wire.Signal;

/** The root columns a {@code field} term may name, per signal, and how each is compared. */
public enum RootField {
  SEVERITY_NUMBER("severity_number", Kind.INT, true, false),
  SEVERITY_TEXT("severity_text", Kind.STRING, true, false),
  BODY("body", Kind.ANY, true, false),
  EVENT_NAME("event_name", Kind.STRING, true, false),
  NAME("name", Kind.STRING, false, true),
  KIND("kind", Kind.INT, false, true),
  STATUS_CODE("status_code", Kind.INT, false, true),
  DURATION_NANO("duration_nano", Kind.INT, false, true),
  TRACE_ID("trace_id", Kind.ID, true, true),
  SPAN_ID("span_id", Kind.ID, true, true),
  PARENT_SPAN_ID("parent_span_id", Kind.ID, false, true),
  FLAGS("flags", Kind.INT, true, false);

  /** How the stored column compares. */
  public enum Kind {
    /** An integer column; unset (stored null) reads as 0. */
    INT,
    /** A string column; unset reads as "". */
    STRING,
    /** A trace or span id, compared as lowercase hex; unset matches nothing but exists:false. */
    ID,
    /** The log body: any AnyValue, compared by its stored type like an attribute. */
    ANY
  }

  private final String key;
  private final Kind kind;
  private final boolean logs;
  private final boolean spans;

  RootField(String key, Kind kind, boolean logs, boolean spans) {
    this.key = key;
    this.kind = kind;
    this.logs = logs;
    this.spans = spans;
  }

  public String key() {
    return key;
  }

  public Kind kind() {
    return kind;
  }

  /** Id width in bytes for {@link Kind#ID} fields. */
  public int idBytes() {
    return this == TRACE_ID ? 16 : 8;
  }

  public boolean of(Signal s) {
    return s == Signal.LOGS ? logs : s == Signal.TRACES && spans;
  }

  /** The field {@code key} of {@code signal}, or null. */
  public static RootField of(Signal signal, String key) {
    for (RootField f : values()) {
      if (f.key.equals(key) && f.of(signal)) {
        return f;
      }
    }
    return null;
  }

  /** The field spelled {@code key} in any signal's table (keys are unique across signals), or null. */
  public static RootField byKey(String key) {
    for (RootField f : values()) {
      if (f.key.equals(key)) {
        return f;
      }
    }
    return null;
  }

  /** The field names of {@code signal}, in document order. */
  public static List<String> names(Signal signal) {
    List<String> out = new ArrayList<>();
    for (RootField f : values()) {
      if (f.of(signal)) {
        out.add(f.key);
      }
    }
    return out;
  }
}
