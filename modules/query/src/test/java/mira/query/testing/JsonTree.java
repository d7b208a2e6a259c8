package mira.query.testing;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.AbstractMap;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * JSON parsed into plain values for assertions: {@link Obj} (members in order, repeated names
 * kept), List, String, Long (integers), Double (other numbers), Boolean, null.
 */
public final class JsonTree {
  private static final JsonFactory JSON = new JsonFactory();

  private JsonTree() {}

  /** A JSON object: its members in document order. */
  public record Obj(List<Map.Entry<String, Object>> members) {
    public Object get(String name) {
      for (Map.Entry<String, Object> e : members) {
        if (e.getKey().equals(name)) {
          return e.getValue();
        }
      }
      return null;
    }

    public boolean has(String name) {
      for (Map.Entry<String, Object> e : members) {
        if (e.getKey().equals(name)) {
          return true;
        }
      }
      return false;
    }

    public Obj obj(String name) {
      return (Obj) get(name);
    }

    @SuppressWarnings("unchecked")
    public List<Object> list(String name) {
      return (List<Object>) get(name);
    }

    public String str(String name) {
      return (String) get(name);
    }

    @Override
    public String toString() {
      StringBuilder b = new StringBuilder("{");
      for (Map.Entry<String, Object> e : members) {
        if (b.length() > 1) {
          b.append(", ");
        }
        b.append(e.getKey()).append('=').append(e.getValue());
      }
      return b.append('}').toString();
    }
  }

  /** Builds an Obj from name/value pairs. */
  public static Obj obj(Object... pairs) {
    List<Map.Entry<String, Object>> m = new ArrayList<>();
    for (int i = 0; i < pairs.length; i += 2) {
      m.add(new AbstractMap.SimpleImmutableEntry<>((String) pairs[i], pairs[i + 1]));
    }
    return new Obj(m);
  }

  public static Object parse(byte[] json) {
    try (JsonParser p = JSON.createParser(json)) {
      p.nextToken();
      Object v = value(p);
      if (p.nextToken() != null) {
        throw new IllegalArgumentException("trailing content");
      }
      return v;
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  public static Obj parseObj(byte[] json) {
    return (Obj) parse(json);
  }

  /** Writes a parsed value back as JSON. */
  public static byte[] write(Object v) {
    java.io.ByteArrayOutputStream out = new java.io.ByteArrayOutputStream();
    try (com.fasterxml.jackson.core.JsonGenerator g = JSON.createGenerator(out)) {
      write(g, v);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return out.toByteArray();
  }

  private static void write(com.fasterxml.jackson.core.JsonGenerator g, Object v) throws IOException {
    switch (v) {
      case null -> g.writeNull();
      case Obj o -> {
        g.writeStartObject();
        for (Map.Entry<String, Object> e : o.members()) {
          g.writeFieldName(e.getKey());
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
      case Long n -> g.writeNumber(n);
      case Double d -> g.writeNumber(d);
      case Boolean b -> g.writeBoolean(b);
      default -> throw new IllegalArgumentException("not a parsed JSON value: " + v);
    }
  }

  private static Object value(JsonParser p) throws IOException {
    JsonToken t = p.currentToken();
    switch (t) {
      case START_OBJECT: {
        List<Map.Entry<String, Object>> m = new ArrayList<>();
        while (p.nextToken() == JsonToken.FIELD_NAME) {
          String name = p.currentName();
          p.nextToken();
          m.add(new AbstractMap.SimpleImmutableEntry<>(name, value(p)));
        }
        return new Obj(m);
      }
      case START_ARRAY: {
        List<Object> l = new ArrayList<>();
        while (p.nextToken() != JsonToken.END_ARRAY) {
          l.add(value(p));
        }
        return l;
      }
      case VALUE_STRING:
        return p.getText();
      case VALUE_NUMBER_INT:
        return p.getLongValue();
      case VALUE_NUMBER_FLOAT:
        return p.getDoubleValue();
      case VALUE_TRUE:
        return Boolean.TRUE;
      case VALUE_FALSE:
        return Boolean.FALSE;
      case VALUE_NULL:
        return null;
      default:
        throw new IllegalArgumentException("unexpected " + t);
    }
  }
}
