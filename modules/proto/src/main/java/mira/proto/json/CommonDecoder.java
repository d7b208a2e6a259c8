package mira.proto.json;

import io.opentelemetry.proto.common.v1.AnyValue;
import io.opentelemetry.proto.common.v1.ArrayValue;
import io.opentelemetry.proto.common.v1.EntityRef;
import io.opentelemetry.proto.common.v1.InstrumentationScope;
import io.opentelemetry.proto.common.v1.KeyValue;
import io.opentelemetry.proto.common.v1.KeyValueList;
import io.opentelemetry.proto.resource.v1.Resource;

/**
 * Messages every signal shares: resources, scopes, attributes and the AnyValue tree.
 *
 * <p>AnyValue is the only recursive shape in OTLP. Its decoding recurses, but with an explicit
 * level count checked against {@link OtlpJson#MAX_ANY_VALUE_DEPTH} before each level, so the stack
 * used is bounded by the limit, not by the document: a hostile body nested 100,000 deep is refused
 * at level 65.
 *
 * <p>Each method expects the cursor on the value's first token ({@link JsonInput}'s convention);
 * field names are matched in both spellings, lowerCamelCase first.
 */
final class CommonDecoder {
  private CommonDecoder() {}

  static Resource resource(JsonInput in) throws OtlpJsonException {
    in.enterObject();
    Resource.Builder b = Resource.newBuilder();
    for (String f; (f = in.nextField()) != null; ) {
      switch (f) {
        case "attributes" -> {
          in.enterArray();
          while (in.nextElement()) b.addAttributes(keyValue(in));
        }
        case "droppedAttributesCount", "dropped_attributes_count" ->
            b.setDroppedAttributesCount(in.uint32());
        case "entityRefs", "entity_refs" -> {
          in.enterArray();
          while (in.nextElement()) b.addEntityRefs(entityRef(in));
        }
        default -> in.skip();
      }
    }
    return b.build();
  }

  static EntityRef entityRef(JsonInput in) throws OtlpJsonException {
    in.enterObject();
    EntityRef.Builder b = EntityRef.newBuilder();
    for (String f; (f = in.nextField()) != null; ) {
      switch (f) {
        case "schemaUrl", "schema_url" -> b.setSchemaUrl(in.string());
        case "type" -> b.setType(in.string());
        case "idKeys", "id_keys" -> {
          in.enterArray();
          while (in.nextElement()) b.addIdKeys(in.string());
        }
        case "descriptionKeys", "description_keys" -> {
          in.enterArray();
          while (in.nextElement()) b.addDescriptionKeys(in.string());
        }
        default -> in.skip();
      }
    }
    return b.build();
  }

  static InstrumentationScope scope(JsonInput in) throws OtlpJsonException {
    in.enterObject();
    InstrumentationScope.Builder b = InstrumentationScope.newBuilder();
    for (String f; (f = in.nextField()) != null; ) {
      switch (f) {
        case "name" -> b.setName(in.string());
        case "version" -> b.setVersion(in.string());
        case "attributes" -> {
          in.enterArray();
          while (in.nextElement()) b.addAttributes(keyValue(in));
        }
        case "droppedAttributesCount", "dropped_attributes_count" ->
            b.setDroppedAttributesCount(in.uint32());
        default -> in.skip();
      }
    }
    return b.build();
  }

  /** An attribute; its value is AnyValue level 1. */
  static KeyValue keyValue(JsonInput in) throws OtlpJsonException {
    return keyValue(in, 1);
  }

  /** A log body or other top-level AnyValue; level 1. */
  static AnyValue anyValue(JsonInput in) throws OtlpJsonException {
    return anyValue(in, 1);
  }

  private static KeyValue keyValue(JsonInput in, int level) throws OtlpJsonException {
    in.enterObject();
    KeyValue.Builder b = KeyValue.newBuilder();
    for (String f; (f = in.nextField()) != null; ) {
      switch (f) {
        case "key" -> b.setKey(in.string());
        case "value" -> b.setValue(anyValue(in, level));
        case "keyStrindex", "key_strindex" -> b.setKeyStrindex(in.int32());
        default -> in.skip();
      }
    }
    return b.build();
  }

  private static AnyValue anyValue(JsonInput in, int level) throws OtlpJsonException {
    if (level > OtlpJson.MAX_ANY_VALUE_DEPTH) {
      throw in.error("nesting deeper than " + OtlpJson.MAX_ANY_VALUE_DEPTH + " levels of AnyValue");
    }
    in.enterObject();
    AnyValue.Builder b = AnyValue.newBuilder();
    for (String f; (f = in.nextField()) != null; ) {
      switch (f) {
        case "stringValue", "string_value" -> b.setStringValue(in.string());
        case "boolValue", "bool_value" -> b.setBoolValue(in.bool());
        case "intValue", "int_value" -> b.setIntValue(in.int64());
        case "doubleValue", "double_value" -> b.setDoubleValue(in.float64());
        case "arrayValue", "array_value" -> b.setArrayValue(arrayValue(in, level));
        case "kvlistValue", "kvlist_value" -> b.setKvlistValue(keyValueList(in, level));
        case "bytesValue", "bytes_value" -> b.setBytesValue(in.base64());
        case "stringValueStrindex", "string_value_strindex" ->
            b.setStringValueStrindex(in.int32());
        default -> in.skip();
      }
    }
    return b.build();
  }

  private static ArrayValue arrayValue(JsonInput in, int level) throws OtlpJsonException {
    in.enterObject();
    ArrayValue.Builder b = ArrayValue.newBuilder();
    for (String f; (f = in.nextField()) != null; ) {
      if (f.equals("values")) {
        in.enterArray();
        while (in.nextElement()) b.addValues(anyValue(in, level + 1));
      } else {
        in.skip();
      }
    }
    return b.build();
  }

  private static KeyValueList keyValueList(JsonInput in, int level) throws OtlpJsonException {
    in.enterObject();
    KeyValueList.Builder b = KeyValueList.newBuilder();
    for (String f; (f = in.nextField()) != null; ) {
      if (f.equals("values")) {
        in.enterArray();
        while (in.nextElement()) b.addValues(keyValue(in, level + 1));
      } else {
        in.skip();
      }
    }
    return b.build();
  }
}
