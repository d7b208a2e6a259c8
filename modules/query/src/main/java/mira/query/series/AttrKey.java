package mira.query.series;

import com.fasterxml.jackson.core.JsonGenerator;
import java.nio.charset.StandardCharsets;
import java.util.List;
import mira.query.render.Json;
import mira.query.render.ResponseJson;
import mira.query.result.Attribute;

/**
 * The text a series' attributes are keyed and ordered by: the JSON object they render as. Two
 * attribute lists have equal keys exactly when they render alike, so series identity and order
 * are what a reader of the response sees.
 */
final class AttrKey {
  private AttrKey() {}

  static String of(List<Attribute> attrs) {
    if (attrs.isEmpty()) {
      return "{}";
    }
    return new String(Json.render((JsonGenerator g) -> ResponseJson.object(g, attrs)), StandardCharsets.UTF_8);
  }
}
