package mira.query.doc;

/** The operators a term may use, spelled as in the document. */
public enum Op {
  EQ("eq"),
  GT("gt"),
  GTE("gte"),
  LT("lt"),
  LTE("lte"),
  CONTAINS("contains"),
  IN("in"),
  EXISTS("exists");

  private final String key;

  Op(String key) {
    this.key = key;
  }

  /** The document spelling ({@code "gte"}). */
  public String key() {
    return key;
  }

  /** True for gt, gte, lt and lte. */
  public boolean ordered() {
    return this == GT || this == GTE || this == LT || this == LTE;
  }

  /** Whether a comparison result {@code c} (negative, zero, positive: stored vs query) satisfies this op. */
  public boolean accepts(int c) {
    return switch (this) {
      case EQ -> c == 0;
      case GT -> c > 0;
      case GTE -> c >= 0;
      case LT -> c < 0;
      case LTE -> c <= 0;
      default -> throw new IllegalStateException(key + " is not a comparison");
    };
  }

  /** The op spelled {@code key}, or null. */
  public static Op of(String key) {
    for (Op o : values()) {
      if (o.key.equals(key)) {
        return o;
      }
    }
    return null;
  }
}
