package mira.mcp;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.core.StreamReadConstraints;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * JSON documents as plain Java values: {@code Map<String, Object>} (members in order), {@code List},
 * {@code String}, {@code Long}, {@code Double}, {@code Boolean} and null. MCP messages are small
 * and their shape is decided by the method, so a tree is the simplest faithful reading. Public for
 * clients of the MCP server written in Java (the benchmarks' scripted agent reads its answers
 * with {@link #parseAnswer} and writes its requests with {@link #bytes}).
 */
public final class Tree {
  static final JsonFactory JSON = JsonFactory.builder()
      .streamReadConstraints(StreamReadConstraints.builder().maxNestingDepth(32).maxStringLength(1 << 20).build())
      .build();

  private Tree() {}

  /** Parses one JSON value; {@link IOException} names what is wrong. */
  static Object parse(byte[] body) throws IOException {
    return parse(JSON, body, true);
  }

  /** The engine's own answers: any string length, and a repeated member (attributes keep them) keeps its last value. */
  private static final JsonFactory ANSWERS = JsonFactory.builder()
      .streamReadConstraints(StreamReadConstraints.builder().maxNestingDepth(64).maxStringLength(Integer.MAX_VALUE).build())
      .build();

  /** Parses an answer the engine rendered, for {@link Budget} to shape (or a client to read). */
  public static Object parseAnswer(byte[] json) throws IOException {
    return parse(ANSWERS, json, false);
  }

  private static Object parse(JsonFactory f, byte[] body, boolean strict) throws IOException {
    try (JsonParser p = f.createParser(body)) {
      if (p.nextToken() == null) {
        throw new IOException("the body is empty");
      }
      Object o = read(p, strict);
      if (p.nextToken() != null) {
        throw new IOException("trailing content after the JSON value");
      }
      return o;
    }
  }

  private static Object read(JsonParser p, boolean strict) throws IOException {
    JsonToken t = p.currentToken();
    return switch (t) {
      case START_OBJECT -> {
        Map<String, Object> m = new LinkedHashMap<>();
        while (p.nextToken() == JsonToken.FIELD_NAME) {
          String k = p.currentName();
          p.nextToken();
          if (m.put(k, read(p, strict)) != null && strict) {
            throw new IOException("member \"" + k + "\" appears twice");
          }
        }
        yield m;
      }
      case START_ARRAY -> {
        List<Object> l = new ArrayList<>();
        while (p.nextToken() != JsonToken.END_ARRAY) {
          l.add(read(p, strict));
        }
        yield l;
      }
      case VALUE_STRING -> p.getText();
      case VALUE_NUMBER_INT -> {
        // Not a conditional expression: its long and double arms would both be promoted to double.
        if (p.getNumberType() == JsonParser.NumberType.BIG_INTEGER) {
          yield (Object) p.getDoubleValue();
        }
        yield (Object) p.getLongValue();
      }
      case VALUE_NUMBER_FLOAT -> p.getDoubleValue();
      case VALUE_TRUE -> Boolean.TRUE;
      case VALUE_FALSE -> Boolean.FALSE;
      case VALUE_NULL -> null;
      default -> throw new IOException("unexpected " + t);
    };
  }

  /** Writes a tree; a {@link Raw} value is copied in as the JSON it holds. */
  static void write(JsonGenerator g, Object o) throws IOException {
    switch (o) {
      case null -> g.writeNull();
      case Raw r -> g.writeRawValue(new String(r.json(), java.nio.charset.StandardCharsets.UTF_8));
      case Map<?, ?> m -> {
        g.writeStartObject();
        for (Map.Entry<?, ?> e : m.entrySet()) {
          g.writeFieldName((String) e.getKey());
          write(g, e.getValue());
        }
        g.writeEndObject();
      }
      case List<?> l -> {
        g.writeStartArray();
        for (Object x : l) {
          write(g, x);
        }
        g.writeEndArray();
      }
      case String s -> g.writeString(s);
      case Long l -> g.writeNumber(l);
      case Integer i -> g.writeNumber(i);
      case Double d -> g.writeNumber(d);
      case Boolean b -> g.writeBoolean(b);
      default -> throw new IllegalArgumentException("not a JSON value: " + o.getClass());
    }
  }

  /** The JSON text of a tree (maps, lists, strings, numbers, booleans, null). */
  public static byte[] bytes(Object o) {
    ByteArrayOutputStream out = new ByteArrayOutputStream(256);
    try (JsonGenerator g = JSON.createGenerator(out)) {
      write(g, o);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return out.toByteArray();
  }

  /** A JSON document already rendered (an answer of the engine's one renderer). */
  record Raw(byte[] json) {}

  /** An ordered object literal: {@code obj("a", 1, "b", "x")}. */
  static Map<String, Object> obj(Object... kv) {
    Map<String, Object> m = new LinkedHashMap<>();
    for (int i = 0; i < kv.length; i += 2) {
      m.put((String) kv[i], kv[i + 1]);
    }
    return m;
  }
}
