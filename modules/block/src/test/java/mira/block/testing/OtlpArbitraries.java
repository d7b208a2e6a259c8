package mira.block.testing;

import com.google.protobuf.ByteString;
import io.opentelemetry.proto.common.v1.AnyValue;
import io.opentelemetry.proto.common.v1.ArrayValue;
import io.opentelemetry.proto.common.v1.InstrumentationScope;
import io.opentelemetry.proto.common.v1.KeyValue;
import io.opentelemetry.proto.common.v1.KeyValueList;
import io.opentelemetry.proto.resource.v1.Resource;
import java.util.List;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.Tuple;

/**
 * jqwik generators of the OTLP parts every signal shares: strings (including non-ASCII and empty),
 * AnyValues of every kind nested up to a depth, attribute lists, ids, resources and scopes.
 */
public final class OtlpArbitraries {
  private OtlpArbitraries() {}

  public static Arbitrary<String> text() {
    return Arbitraries.oneOf(
        Arbitraries.strings().alpha().ofMaxLength(12),
        Arbitraries.strings().ofMaxLength(8),
        Arbitraries.of("", "é", "日本", "😀 emoji"));
  }

  public static Arbitrary<AnyValue> anyValue(int depth) {
    Arbitrary<AnyValue> scalar = Arbitraries.oneOf(
        text().map(s -> AnyValue.newBuilder().setStringValue(s).build()),
        Arbitraries.longs().map(v -> AnyValue.newBuilder().setIntValue(v).build()),
        Arbitraries.doubles().map(v -> AnyValue.newBuilder().setDoubleValue(v).build()),
        Arbitraries.of(true, false).map(v -> AnyValue.newBuilder().setBoolValue(v).build()),
        Arbitraries.bytes().array(byte[].class).ofMaxSize(10)
            .map(b -> AnyValue.newBuilder().setBytesValue(ByteString.copyFrom(b)).build()),
        Arbitraries.just(AnyValue.getDefaultInstance()));
    if (depth <= 0) {
      return scalar;
    }
    Arbitrary<AnyValue> array = anyValue(depth - 1).list().ofMaxSize(3)
        .map(l -> AnyValue.newBuilder().setArrayValue(ArrayValue.newBuilder().addAllValues(l)).build());
    Arbitrary<AnyValue> kvlist = keyValue(depth - 1).list().ofMaxSize(3)
        .map(l -> AnyValue.newBuilder().setKvlistValue(KeyValueList.newBuilder().addAllValues(l)).build());
    return Arbitraries.frequencyOf(Tuple.of(6, scalar), Tuple.of(1, array), Tuple.of(1, kvlist));
  }

  public static Arbitrary<KeyValue> keyValue(int depth) {
    Arbitrary<String> key = Arbitraries.oneOf(Arbitraries.of("service.name", "http.method", "k", ""), text());
    return Combinators.combine(key, anyValue(depth)).as((k, v) -> KeyValue.newBuilder().setKey(k).setValue(v).build());
  }

  public static Arbitrary<List<KeyValue>> attributes() {
    return keyValue(2).list().ofMaxSize(5);
  }

  /** An OTLP id of {@code width} bytes, or empty (absent). */
  public static Arbitrary<ByteString> id(int width) {
    return Arbitraries.oneOf(Arbitraries.just(ByteString.EMPTY), presentId(width));
  }

  /** An OTLP id of exactly {@code width} bytes. */
  public static Arbitrary<ByteString> presentId(int width) {
    return Arbitraries.bytes().array(byte[].class).ofSize(width).map(ByteString::copyFrom);
  }

  public static Arbitrary<Resource> resource() {
    return Combinators.combine(attributes(), Arbitraries.integers().between(0, 3))
        .as((attrs, dropped) -> Resource.newBuilder().addAllAttributes(attrs).setDroppedAttributesCount(dropped).build());
  }

  public static Arbitrary<InstrumentationScope> scope() {
    return Combinators.combine(Arbitraries.of("", "lib", "io.opentelemetry.x"), Arbitraries.of("", "1.0"), attributes(),
            Arbitraries.integers().between(0, 2))
        .as((n, v, attrs, d) -> InstrumentationScope.newBuilder().setName(n).setVersion(v).addAllAttributes(attrs)
            .setDroppedAttributesCount(d).build());
  }
}
