package mira.block.testing;

import com.google.protobuf.ByteString;
import com.google.protobuf.InvalidProtocolBufferException;
import io.opentelemetry.proto.common.v1.AnyValue;
import io.opentelemetry.proto.common.v1.InstrumentationScope;
import io.opentelemetry.proto.common.v1.KeyValue;
import io.opentelemetry.proto.resource.v1.Resource;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import mira.block.table.Attributes;

/**
 * Rebuilds OTLP objects from a block read with Arrow Java's reader: the oracle side of round-trip
 * tests. Knows the table layouts by column name only.
 */
public final class Rebuild {
  private Rebuild() {}

  /** A resource or scope as the block holds it, with its envelope's schema_url. */
  public record Res(Resource resource, String schemaUrl, long key) {}

  public record Scope(InstrumentationScope scope, String schemaUrl) {}

  /** Attribute lists by parent id, in row order. */
  public static List<List<KeyValue>> attributes(ArrowTables.Rows attrs, int parents) throws IOException {
    List<List<KeyValue>> out = new ArrayList<>();
    for (int i = 0; i < parents; i++) {
      out.add(new ArrayList<>());
    }
    for (Map<String, Object> r : attrs.rows()) {
      int parent = ((Long) r.get("parent_id")).intValue();
      out.get(parent).add(KeyValue.newBuilder().setKey((String) r.get("key")).setValue(value(r)).build());
    }
    return out;
  }

  public static AnyValue value(Map<String, Object> r) throws IOException {
    int type = ((Long) r.get("type")).intValue();
    return switch (type) {
      case Attributes.TYPE_EMPTY -> AnyValue.getDefaultInstance();
      case Attributes.TYPE_STR -> AnyValue.newBuilder().setStringValue((String) r.get("str")).build();
      case Attributes.TYPE_INT -> AnyValue.newBuilder().setIntValue((Long) r.get("int")).build();
      case Attributes.TYPE_DOUBLE -> AnyValue.newBuilder().setDoubleValue((Double) r.get("double")).build();
      case Attributes.TYPE_BOOL -> AnyValue.newBuilder().setBoolValue((Boolean) r.get("bool")).build();
      case Attributes.TYPE_BYTES -> AnyValue.newBuilder().setBytesValue(ByteString.copyFrom((byte[]) r.get("bytes"))).build();
      case Attributes.TYPE_MAP, Attributes.TYPE_SLICE -> AnyValue.parseFrom((byte[]) r.get("ser"));
      default -> throw new IOException("unknown attribute type " + type);
    };
  }

  public static List<Res> resources(Path block) throws IOException {
    ArrowTables.Rows rows = ArrowTables.read(block, "resources.arrow");
    List<List<KeyValue>> attrs = attributes(ArrowTables.read(block, "resource_attrs.arrow"), rows.size());
    List<Res> out = new ArrayList<>();
    for (int i = 0; i < rows.size(); i++) {
      Map<String, Object> r = rows.get(i);
      if (((Long) r.get("id")).intValue() != i) {
        throw new IOException("resource id " + r.get("id") + " at row " + i);
      }
      Resource.Builder b = Resource.newBuilder().addAllAttributes(attrs.get(i))
          .setDroppedAttributesCount(((Long) r.get("dropped_attributes_count")).intValue());
      if (r.get("entity_refs") != null) {
        b.addAllEntityRefs(parse((byte[]) r.get("entity_refs")).getEntityRefsList());
      }
      out.add(new Res(b.build(), orEmpty(r.get("schema_url")), (Long) r.get("key")));
    }
    return out;
  }

  private static Resource parse(byte[] b) throws InvalidProtocolBufferException {
    return Resource.parseFrom(b);
  }

  public static List<Scope> scopes(Path block) throws IOException {
    ArrowTables.Rows rows = ArrowTables.read(block, "scopes.arrow");
    List<List<KeyValue>> attrs = attributes(ArrowTables.read(block, "scope_attrs.arrow"), rows.size());
    List<Scope> out = new ArrayList<>();
    for (int i = 0; i < rows.size(); i++) {
      Map<String, Object> r = rows.get(i);
      InstrumentationScope s = InstrumentationScope.newBuilder()
          .setName(orEmpty(r.get("name")))
          .setVersion(orEmpty(r.get("version")))
          .addAllAttributes(attrs.get(i))
          .setDroppedAttributesCount(((Long) r.get("dropped_attributes_count")).intValue())
          .build();
      out.add(new Scope(s, orEmpty(r.get("schema_url"))));
    }
    return out;
  }

  public static String orEmpty(Object o) {
    return o == null ? "" : (String) o;
  }

  public static ByteString bytesOrEmpty(Object o) {
    return o == null ? ByteString.EMPTY : ByteString.copyFrom((byte[]) o);
  }

  public static long longOrZero(Object o) {
    return o == null ? 0 : (Long) o;
  }
}
