package mira.proto.wire;

/** The three OTLP signals Mira stores. {@link #dir()} is the signal's directory under the data dir. */
public enum Signal {
  LOGS("logs"),
  TRACES("traces"),
  METRICS("metrics");

  private final String dir;

  Signal(String dir) {
    this.dir = dir;
  }

  /** The lowercase name used in paths, URLs and messages. */
  public String dir() {
    return dir;
  }
}
