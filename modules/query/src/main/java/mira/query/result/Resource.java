package mira.query.result;

import java.util.List;

/**
 * The resource a row was emitted by.
 *
 * @param schemaUrl the schema URL sent beside the resource, or null when none was sent
 */
public record Resource(List<Attribute> attributes, long droppedAttributesCount, String schemaUrl) {
  public Resource {
    attributes = List.copyOf(attributes);
  }
}
