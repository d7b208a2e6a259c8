package mira.proto.json;

import com.fasterxml.jackson.core.JsonEncoding;
import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.util.ByteArrayBuilder;
import com.google.protobuf.ByteString;
import com.google.protobuf.Descriptors.EnumValueDescriptor;
import com.google.protobuf.Descriptors.FieldDescriptor;
import com.google.protobuf.Descriptors.FieldDescriptor.Type;
import com.google.protobuf.MessageOrBuilder;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Base64;
import java.util.Collections;
import java.util.HexFormat;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Random;

/**
 * Writes OTLP/JSON the way a careless but legal client might, each choice made afresh per value:
 * snake_case or camelCase names, 64-bit integers as numbers, 32-bit ones and doubles as strings,
 * enums by name, ids in upper or mixed case, base64 URL-safe or unpadded, fields in any order,
 * explicit nulls for absent fields, unknown fields (nested ones too) and pretty printing.
 *
 * <p>Deliberately independent of {@link JsonEncoder}: it shares the descriptor walk but none of
 * the code, so a mistake in the encoder cannot hide the same mistake in the decoder.
 */
final class SloppyJsonWriter {
  private static final JsonFactory FACTORY = new JsonFactory();

  private final Random r;
  private final JsonGenerator g;
  private int unknownCounter;

  private SloppyJsonWriter(Random r, JsonGenerator g) {
    this.r = r;
    this.g = g;
  }

  static byte[] write(MessageOrBuilder m, Random r) {
    ByteArrayBuilder out = new ByteArrayBuilder();
    try (JsonGenerator g = FACTORY.createGenerator(out, JsonEncoding.UTF8)) {
      if (r.nextInt(4) == 0) g.useDefaultPrettyPrinter();
      new SloppyJsonWriter(r, g).message(m);
    } catch (IOException e) {
      throw new AssertionError(e);
    }
    return out.toByteArray();
  }

  private void message(MessageOrBuilder m) throws IOException {
    g.writeStartObject();
    Map<FieldDescriptor, Object> present = m.getAllFields();
    List<FieldDescriptor> order = new ArrayList<>(m.getDescriptorForType().getFields());
    Collections.shuffle(order, r);
    for (FieldDescriptor f : order) {
      Object v = present.get(f);
      if (v == null) {
        if (r.nextInt(8) == 0) {
          g.writeFieldName(name(f));
          g.writeNull();
        }
      } else {
        g.writeFieldName(name(f));
        if (f.isRepeated()) {
          g.writeStartArray();
          for (Object e : (List<?>) v) value(f, e);
          g.writeEndArray();
        } else {
          value(f, v);
        }
      }
      if (r.nextInt(12) == 0) unknownField();
    }
    g.writeEndObject();
  }

  private String name(FieldDescriptor f) {
    return r.nextBoolean() ? f.getName() : f.getJsonName();
  }

  private void value(FieldDescriptor f, Object v) throws IOException {
    switch (f.getJavaType()) {
      case MESSAGE -> message((MessageOrBuilder) v);
      case STRING -> g.writeString((String) v);
      case BOOLEAN -> g.writeBoolean((Boolean) v);
      case INT -> {
        int i = (Integer) v;
        String text =
            f.getType() == Type.UINT32 || f.getType() == Type.FIXED32
                ? Integer.toUnsignedString(i)
                : Integer.toString(i);
        number(text, r.nextInt(3) == 0);
      }
      case LONG -> {
        long l = (Long) v;
        String text =
            f.getType() == Type.UINT64 || f.getType() == Type.FIXED64
                ? Long.toUnsignedString(l)
                : Long.toString(l);
        number(text, r.nextBoolean());
      }
      case DOUBLE, FLOAT -> {
        double d = ((Number) v).doubleValue();
        if (!Double.isFinite(d)) g.writeString(Double.isNaN(d) ? "NaN" : d > 0 ? "Infinity" : "-Infinity");
        else if (r.nextInt(3) == 0) g.writeString(Double.toString(d));
        else g.writeNumber(d);
      }
      case ENUM -> {
        EnumValueDescriptor e = (EnumValueDescriptor) v;
        boolean known = e.getType().findValueByNumber(e.getNumber()) != null;
        if (known && r.nextBoolean()) g.writeString(e.getName());
        else g.writeNumber(e.getNumber());
      }
      case BYTE_STRING -> g.writeString(bytes(f, (ByteString) v));
    }
  }

  private void number(String text, boolean quoted) throws IOException {
    if (quoted) g.writeString(text);
    else g.writeNumber(text);
  }

  private String bytes(FieldDescriptor f, ByteString v) {
    byte[] b = v.toByteArray();
    if (f.getName().endsWith("span_id") || f.getName().equals("trace_id")) {
      String hex = HexFormat.of().formatHex(b);
      return switch (r.nextInt(3)) {
        case 0 -> hex;
        case 1 -> hex.toUpperCase(Locale.ROOT);
        default -> mixedCase(hex);
      };
    }
    Base64.Encoder e = r.nextBoolean() ? Base64.getEncoder() : Base64.getUrlEncoder();
    return (r.nextBoolean() ? e : e.withoutPadding()).encodeToString(b);
  }

  private String mixedCase(String hex) {
    StringBuilder sb = new StringBuilder(hex.length());
    for (char c : hex.toCharArray()) sb.append(r.nextBoolean() ? Character.toUpperCase(c) : c);
    return sb.toString();
  }

  /** A field no OTLP version defines, with a value of any shape, sometimes nested. */
  private void unknownField() throws IOException {
    g.writeFieldName("unknown_" + r.nextInt(3) + "_" + unknownCounter++);
    unknownValue(0);
  }

  private void unknownValue(int depth) throws IOException {
    switch (depth > 3 ? r.nextInt(4) : r.nextInt(6)) {
      case 0 -> g.writeString("traceId");
      case 1 -> g.writeNumber(r.nextDouble());
      case 2 -> g.writeBoolean(true);
      case 3 -> g.writeNull();
      case 4 -> {
        g.writeStartObject();
        // Field names the decoder knows, one level down where they mean nothing.
        g.writeFieldName(r.nextBoolean() ? "resourceLogs" : "values");
        unknownValue(depth + 1);
        g.writeEndObject();
      }
      default -> {
        g.writeStartArray();
        for (int i = r.nextInt(3); i > 0; i--) unknownValue(depth + 1);
        g.writeEndArray();
      }
    }
  }
}
