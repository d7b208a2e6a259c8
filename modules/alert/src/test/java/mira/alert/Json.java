package mira.alert;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import java.io.IOException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** JSON text to Map / List / String / Long / Double / Boolean / null, for assertions. */
final class Json {
  private static final JsonFactory F = new JsonFactory();

  private Json() {}

  static Object parse(String text) {
    try (JsonParser p = F.createParser(text)) {
      p.nextToken();
      Object v = value(p);
      if (p.nextToken() != null) {
        throw new IllegalArgumentException("trailing content");
      }
      return v;
    } catch (IOException e) {
      throw new IllegalArgumentException("not JSON: " + text, e);
    }
  }

  @SuppressWarnings("unchecked")
  static Map<String, Object> obj(String text) {
    return (Map<String, Object>) parse(text);
  }

  static Map<String, Object> obj(byte[] utf8) {
    return obj(new String(utf8, java.nio.charset.StandardCharsets.UTF_8));
  }

  @SuppressWarnings("unchecked")
  static Map<String, Object> obj(Object o) {
    return (Map<String, Object>) o;
  }

  @SuppressWarnings("unchecked")
  static List<Object> list(Object o) {
    return (List<Object>) o;
  }

  private static Object value(JsonParser p) throws IOException {
    JsonToken t = p.currentToken();
    switch (t) {
      case START_OBJECT -> {
        Map<String, Object> m = new LinkedHashMap<>();
        while (p.nextToken() == JsonToken.FIELD_NAME) {
          String k = p.currentName();
          p.nextToken();
          m.put(k, value(p));
        }
        return m;
      }
      case START_ARRAY -> {
        List<Object> l = new ArrayList<>();
        while (p.nextToken() != JsonToken.END_ARRAY) {
          l.add(value(p));
        }
        return l;
      }
      case VALUE_STRING -> {
        return p.getText();
      }
      case VALUE_NUMBER_INT -> {
        return p.getLongValue();
      }
      case VALUE_NUMBER_FLOAT -> {
        return p.getDoubleValue();
      }
      case VALUE_TRUE, VALUE_FALSE -> {
        return p.getBooleanValue();
      }
      case VALUE_NULL -> {
        return null;
      }
      default -> throw new IOException("unexpected " + t);
    }
  }
}
