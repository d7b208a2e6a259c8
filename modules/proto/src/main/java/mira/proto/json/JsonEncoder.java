package mira.proto.json;

import com.fasterxml.jackson.core.JsonEncoding;
import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.exc.StreamConstraintsException;
import com.fasterxml.jackson.core.util.ByteArrayBuilder;
import com.google.protobuf.ByteString;
import com.google.protobuf.Descriptors.EnumValueDescriptor;
import com.google.protobuf.Descriptors.FieldDescriptor;
import com.google.protobuf.Descriptors.FieldDescriptor.Type;
import com.google.protobuf.MessageOrBuilder;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Writes OTLP/JSON from any OTLP message by walking its descriptor.
 *
 * <p>Reflection is the right trade here and the wrong one for decoding: this runs for responses
 * (a few bytes) and tests, and being generic means a field added to the .proto files is written
 * without a code change, so the round-trip property test notices at once if the hand-written
 * decoder has not learnt it yet.
 *
 * <p>Fields are written in field-number order; a field is written if protobuf reports it present
 * ({@code getAllFields}): non-default for plain proto3 scalars, set for oneof members, optional
 * scalars and message fields, non-empty for repeated ones.
 */
final class JsonEncoder {
  /** The bytes fields OTLP/JSON writes as hex; every other bytes field is base64. */
  private static final Set<String> HEX_FIELDS = Set.of("trace_id", "span_id", "parent_span_id");

  private final JsonGenerator g;

  private JsonEncoder(JsonGenerator g) {
    this.g = g;
  }

  static byte[] encode(JsonFactory factory, MessageOrBuilder m) {
    ByteArrayBuilder out = new ByteArrayBuilder();
    try (JsonGenerator g = factory.createGenerator(out, JsonEncoding.UTF8)) {
      new JsonEncoder(g).message(m);
    } catch (StreamConstraintsException e) {
      throw new IllegalArgumentException(
          "the message nests deeper than " + OtlpJson.MAX_JSON_DEPTH + " JSON levels", e);
    } catch (IOException e) {
      throw new UncheckedIOException("writing to memory failed", e);
    }
    return out.toByteArray();
  }

  private void message(MessageOrBuilder m) throws IOException {
    g.writeStartObject();
    for (Map.Entry<FieldDescriptor, Object> e : m.getAllFields().entrySet()) {
      FieldDescriptor f = e.getKey();
      g.writeFieldName(f.getJsonName());
      if (f.isRepeated()) {
        g.writeStartArray();
        for (Object v : (List<?>) e.getValue()) value(f, v);
        g.writeEndArray();
      } else {
        value(f, e.getValue());
      }
    }
    g.writeEndObject();
  }

  private void value(FieldDescriptor f, Object v) throws IOException {
    switch (f.getJavaType()) {
      case MESSAGE -> message((MessageOrBuilder) v);
      case STRING -> g.writeString((String) v);
      case BOOLEAN -> g.writeBoolean((Boolean) v);
      case INT -> {
        int i = (Integer) v;
        boolean unsigned = f.getType() == Type.UINT32 || f.getType() == Type.FIXED32;
        g.writeNumber(unsigned ? Integer.toUnsignedLong(i) : i);
      }
      case LONG -> {
        // Strings, because a JSON number is a double to most readers and 2^53 is where doubles
        // stop counting; timestamps in nanoseconds are already past it.
        long l = (Long) v;
        boolean unsigned = f.getType() == Type.UINT64 || f.getType() == Type.FIXED64;
        g.writeString(unsigned ? Long.toUnsignedString(l) : Long.toString(l));
      }
      case DOUBLE -> writeDouble((Double) v);
      case FLOAT -> writeDouble((Float) v);
      case ENUM -> g.writeNumber(((EnumValueDescriptor) v).getNumber());
      case BYTE_STRING -> {
        byte[] bytes = ((ByteString) v).toByteArray();
        boolean hex = HEX_FIELDS.contains(f.getName());
        g.writeString(hex ? HexId.encode(bytes) : Base64Text.encode(bytes));
      }
    }
  }

  private void writeDouble(double d) throws IOException {
    if (Double.isNaN(d)) {
      g.writeString("NaN");
    } else if (Double.isInfinite(d)) {
      g.writeString(d > 0 ? "Infinity" : "-Infinity");
    } else {
      g.writeNumber(d);
    }
  }
}
