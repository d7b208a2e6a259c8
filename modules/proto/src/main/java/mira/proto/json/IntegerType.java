package mira.proto.json;

import java.math.BigInteger;

/**
 * The integer widths OTLP uses, with the range a JSON value must fall in. Values come back as the
 * long (or, after a cast, the int) holding the bits protobuf-java stores: uint64 values above
 * {@link Long#MAX_VALUE} become negative longs, uint32 values above {@link Integer#MAX_VALUE}
 * negative ints.
 */
enum IntegerType {
  /** int32 and sint32. */
  INT32("int32", Integer.MIN_VALUE, Integer.MAX_VALUE),
  /** uint32 and fixed32. */
  UINT32("uint32", 0, 0xFFFF_FFFFL),
  /** int64, sint64 and sfixed64. */
  INT64("int64", Long.MIN_VALUE, Long.MAX_VALUE),
  /** uint64 and fixed64; the upper bound, 2^64-1, does not fit a long and is checked apart. */
  UINT64("uint64", 0, Long.MAX_VALUE);

  private static final BigInteger UINT64_MAX =
      BigInteger.ONE.shiftLeft(64).subtract(BigInteger.ONE);

  private final String name;
  private final long min;
  private final long max;

  IntegerType(String name, long min, long max) {
    this.name = name;
    this.min = min;
    this.max = max;
  }

  /** The type's name with its article, for messages: "an int64", "a uint32". */
  String article() {
    return (name.startsWith("u") ? "a " : "an ") + name;
  }

  /** Returns {@code v} if it is in range, else throws {@link IllegalArgumentException}. */
  long check(long v) {
    if (v < min || v > max) throw outOfRange(Long.toString(v));
    return v;
  }

  /** Returns the stored bits of {@code v} if it is in range, else throws. */
  long check(BigInteger v) {
    boolean fits =
        this == UINT64
            ? v.signum() >= 0 && v.compareTo(UINT64_MAX) <= 0
            : v.bitLength() < 64 && check(v.longValue()) == v.longValue();
    if (!fits) throw outOfRange(v.toString());
    // longValue() keeps the low 64 bits: for 2^63..2^64-1 exactly the pattern protobuf stores.
    return v.longValue();
  }

  private IllegalArgumentException outOfRange(String v) {
    return new IllegalArgumentException(NumberText.clip(v) + " is out of range for " + name);
  }

  @Override
  public String toString() {
    return name;
  }
}
