package mira.proto.json;

import com.google.protobuf.ByteString;
import com.google.protobuf.Descriptors.Descriptor;
import com.google.protobuf.Descriptors.EnumDescriptor;
import com.google.protobuf.Descriptors.EnumValueDescriptor;
import com.google.protobuf.Descriptors.FieldDescriptor;
import com.google.protobuf.Descriptors.OneofDescriptor;
import com.google.protobuf.Message;
import io.opentelemetry.proto.common.v1.AnyValue;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.function.Consumer;

/**
 * Random OTLP messages, built by walking the descriptor so that every field of every message is
 * a candidate, including fields a future .proto adds: the round-trip properties then fail until
 * the hand-written decoder learns them. {@link RandomOtlpCoverageTest} checks the "every field".
 *
 * <p>Values lean on the edges: 0, -1, the extremes of each width, uint64 above 2^63, NaN,
 * infinities and -0.0, unknown enum numbers, strings that need escaping or look like numbers or
 * hex, empty and full-length ids. All randomness comes from the {@link Random} passed in, which
 * jqwik seeds, so a failure replays from the printed seed.
 */
final class RandomOtlp {
  /** AnyValue levels the generator builds; deep enough to nest arrays in kvlists in arrays. */
  private static final int MAX_ANY_LEVELS = 4;

  private static final long[] EDGE_LONGS = {
    0, 1, -1, Long.MIN_VALUE, Long.MAX_VALUE, 1L << 53, (1L << 53) + 1, 1544712660300000000L,
    Integer.MAX_VALUE + 1L, Integer.MIN_VALUE - 1L
  };
  private static final int[] EDGE_INTS = {0, 1, -1, Integer.MIN_VALUE, Integer.MAX_VALUE, 255, 256};
  private static final double[] EDGE_DOUBLES = {
    0.0, -0.0, 1.0, -1.5, Double.NaN, Double.POSITIVE_INFINITY, Double.NEGATIVE_INFINITY,
    Double.MIN_VALUE, Double.MAX_VALUE, -Double.MAX_VALUE, 1e-300, 9007199254740993.0, 0.1
  };
  private static final String[] EDGE_STRINGS = {
    "", "service.name", "12", "-7", "1e3", "NaN", "Infinity", "true", "null",
    "5B8EFFF798038103D269B633813FC60C", "quote\" backslash\\ slash/",
    "tab\t newline\n nul\u0000 bell\u0007 del\u007f", "ünïcödé ☃", "emoji 😀 𝄞",
    "line\u2028sep", "\uFEFFbom", "lone \uD800 surrogate"
  };

  private final Random r;
  private final Consumer<FieldDescriptor> onSet;

  /**
   * @param r the only source of randomness
   * @param onSet told of every field given a value (for the coverage test); may ignore them
   */
  RandomOtlp(Random r, Consumer<FieldDescriptor> onSet) {
    this.r = r;
    this.onSet = onSet;
  }

  RandomOtlp(Random r) {
    this(r, f -> {});
  }

  /** Fills {@code b} at random and builds it. */
  @SuppressWarnings("unchecked")
  <M extends Message> M build(Message.Builder b) {
    fill(b, 0);
    return (M) b.build();
  }

  private void fill(Message.Builder b, int anyLevels) {
    Descriptor d = b.getDescriptorForType();
    boolean isAny = d == AnyValue.getDescriptor();
    int levels = isAny ? anyLevels + 1 : anyLevels;
    for (OneofDescriptor o : d.getRealOneofs()) {
      List<FieldDescriptor> choices = new ArrayList<>();
      for (FieldDescriptor f : o.getFields()) {
        // Past the depth budget an AnyValue holds scalars only, so the tree ends.
        if (isAny && levels >= MAX_ANY_LEVELS && f.getJavaType() == FieldDescriptor.JavaType.MESSAGE) {
          continue;
        }
        choices.add(f);
      }
      int pick = r.nextInt(choices.size() + 1);
      if (pick < choices.size()) set(b, choices.get(pick), levels);
    }
    for (FieldDescriptor f : d.getFields()) {
      if (f.getRealContainingOneof() != null) continue;
      if (f.isRepeated()) {
        int n = size();
        for (int i = 0; i < n; i++) {
          b.addRepeatedField(f, value(b, f, levels));
          onSet.accept(f);
        }
      } else if (r.nextInt(4) != 0) {
        set(b, f, levels);
      }
    }
  }

  private void set(Message.Builder b, FieldDescriptor f, int levels) {
    b.setField(f, value(b, f, levels));
    onSet.accept(f);
  }

  private int size() {
    int roll = r.nextInt(10);
    return roll < 3 ? 0 : roll < 6 ? 1 : roll < 9 ? 2 : 3;
  }

  private Object value(Message.Builder parent, FieldDescriptor f, int levels) {
    return switch (f.getJavaType()) {
      case MESSAGE -> {
        Message.Builder child = parent.newBuilderForField(f);
        fill(child, levels);
        yield child.build();
      }
      case STRING -> string();
      case BOOLEAN -> r.nextBoolean();
      case INT -> r.nextInt(3) == 0 ? EDGE_INTS[r.nextInt(EDGE_INTS.length)] : r.nextInt();
      case LONG -> r.nextInt(3) == 0 ? EDGE_LONGS[r.nextInt(EDGE_LONGS.length)] : r.nextLong();
      case DOUBLE -> double64();
      case FLOAT -> (float) double64();
      case ENUM -> enumValue(f.getEnumType());
      case BYTE_STRING -> bytes(f);
    };
  }

  private double double64() {
    return switch (r.nextInt(4)) {
      case 0 -> EDGE_DOUBLES[r.nextInt(EDGE_DOUBLES.length)];
      case 1 -> Double.longBitsToDouble(r.nextLong());
      case 2 -> r.nextInt(1_000_000) - 500_000;
      default -> r.nextGaussian() * Math.pow(10, r.nextInt(40) - 20);
    };
  }

  private EnumValueDescriptor enumValue(EnumDescriptor type) {
    List<EnumValueDescriptor> known = type.getValues();
    if (r.nextInt(5) == 0) {
      // Numbers no version of the enum defines yet: proto3 keeps them, so must the decoder.
      int unknown = r.nextBoolean() ? 1000 + r.nextInt(1000) : -1 - r.nextInt(5);
      return type.findValueByNumberCreatingIfUnknown(unknown);
    }
    return known.get(r.nextInt(known.size()));
  }

  private ByteString bytes(FieldDescriptor f) {
    int len =
        switch (f.getName()) {
          case "trace_id" -> 16;
          case "span_id", "parent_span_id" -> 8;
          default -> -1;
        };
    if (len < 0) len = r.nextInt(4) == 0 ? 0 : r.nextInt(40);
    else if (r.nextInt(5) == 0) len = 0; // an empty id is "unset", and must stay so
    byte[] b = new byte[len];
    r.nextBytes(b);
    return ByteString.copyFrom(b);
  }

  private String string() {
    if (r.nextInt(3) == 0) return EDGE_STRINGS[r.nextInt(EDGE_STRINGS.length)];
    int n = r.nextInt(24);
    StringBuilder sb = new StringBuilder(n);
    for (int i = 0; i < n; i++) {
      int cp =
          switch (r.nextInt(6)) {
            case 0 -> r.nextInt(0x20); // control characters: must be escaped
            case 1 -> 0x80 + r.nextInt(0x780); // two-byte UTF-8
            case 2 -> 0x10000 + r.nextInt(0x10000); // supplementary: a surrogate pair
            case 3 -> {
              int c = 0x800 + r.nextInt(0xF800 - 0x800);
              yield c >= 0xD800 && c <= 0xDFFF ? 'x' : c; // three-byte UTF-8, no lone surrogates
            }
            default -> 0x20 + r.nextInt(0x5F); // printable ASCII, quote and backslash included
          };
      sb.appendCodePoint(cp);
    }
    return sb.toString();
  }
}
