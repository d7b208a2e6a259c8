package mira.query.result;

import java.util.List;

/**
 * The instrumentation scope a row was emitted by. Unset name and version are "".
 *
 * @param schemaUrl the schema URL sent beside the scope, or null when none was sent
 */
public record Scope(String name, String version, List<Attribute> attributes, long droppedAttributesCount,
    String schemaUrl) {
  public Scope {
    attributes = List.copyOf(attributes);
  }
}
