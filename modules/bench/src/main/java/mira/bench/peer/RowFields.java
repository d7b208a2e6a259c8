package mira.bench.peer;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import java.io.IOException;
import java.io.UncheckedIOException;

/** Reads fields of Mira's rendered rows (docs/api.md, "Span rows"). */
final class RowFields {
  private static final JsonFactory JSON = new JsonFactory();

  private RowFields() {}

  /**
   * The value of the top-level field {@code name} of the JSON object {@code json}, as text (a
   * string's contents, a number's digits), or null if the object has no such field. Nested
   * objects' fields of the same name (a link's span_id) are not top-level and never returned.
   */
  static String topLevelString(byte[] json, String name) {
    try (JsonParser p = JSON.createParser(json)) {
      if (p.nextToken() != JsonToken.START_OBJECT) {
        throw new IllegalArgumentException("a row is a JSON object");
      }
      while (p.nextToken() == JsonToken.FIELD_NAME) {
        String field = p.currentName();
        JsonToken v = p.nextToken();
        if (field.equals(name) && v.isScalarValue()) {
          return p.getText();
        }
        p.skipChildren();
      }
      return null;
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
