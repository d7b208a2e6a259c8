package mira.query.result;

import java.util.List;

/**
 * The resource a row was emitted by.
 *
 * @param schemaUrl the schema URL sent beside the resource, or null when none was sent
 * @param entity the resource's entity key ({@code resources.key}: a hash of its identifying
 *     attributes, the same for every resource of one pod, process or service instance in every
 *     block), or {@link #NO_ENTITY} when it has none
 */
public record Resource(List<Attribute> attributes, long droppedAttributesCount, String schemaUrl, long entity) {
  /** The entity key of a resource without identifying attributes. */
  public static final long NO_ENTITY = 0;

  public Resource {
    attributes = List.copyOf(attributes);
  }

  /** The entity key as rendered: 16 lowercase hex digits, or null for {@link #NO_ENTITY}. */
  public String entityHex() {
    return entity == NO_ENTITY ? null : Entities.hex(entity);
  }
}
