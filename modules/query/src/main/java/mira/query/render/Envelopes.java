package mira.query.render;

import com.fasterxml.jackson.core.JsonGenerator;
import java.io.IOException;
import mira.block.read.BlockReader;
import mira.block.read.CorruptBlockException;
import mira.block.read.TableView;
import mira.proto.wire.WireException;
import mira.query.table.AttrTable;
import mira.query.table.IntColumn;
import mira.query.table.Scratch;
import mira.query.table.Tables;
import mira.query.table.VarColumn;

/**
 * Writes a row's {@code resource} and {@code scope} objects from the block's shared tables. The
 * schema URLs (which OTLP carries on the ResourceLogs / ScopeLogs style envelopes) are written inside these
 * objects as {@code schema_url} when set.
 */
final class Envelopes {
  private final IntColumn resDropped;
  private final VarColumn resSchema;
  private final AttrMap resAttrs;
  private final int resources;
  private final VarColumn scopeName;
  private final VarColumn scopeVersion;
  private final IntColumn scopeDropped;
  private final VarColumn scopeSchema;
  private final AttrMap scopeAttrs;
  private final int scopes;

  /**
   * @param usedResources resource ids that will be written (indexed by id; may be shorter than
   *     the table, ids past its end are not used)
   */
  Envelopes(BlockReader r, boolean[] usedResources, boolean[] usedScopes) throws CorruptBlockException {
    TableView res = Tables.get(r, Tables.RESOURCES);
    TableView sc = Tables.get(r, Tables.SCOPES);
    resources = res == null ? 0 : res.rows();
    scopes = sc == null ? 0 : sc.rows();
    resDropped = IntColumn.of(res == null ? null : res.column("dropped_attributes_count"));
    resSchema = VarColumn.of(res == null ? null : res.column("schema_url"));
    resAttrs = new AttrMap(AttrTable.of(Tables.get(r, Tables.RESOURCE_ATTRS)), resources, fit(usedResources, resources));
    scopeName = VarColumn.of(sc == null ? null : sc.column("name"));
    scopeVersion = VarColumn.of(sc == null ? null : sc.column("version"));
    scopeDropped = IntColumn.of(sc == null ? null : sc.column("dropped_attributes_count"));
    scopeSchema = VarColumn.of(sc == null ? null : sc.column("schema_url"));
    scopeAttrs = new AttrMap(AttrTable.of(Tables.get(r, Tables.SCOPE_ATTRS)), scopes, fit(usedScopes, scopes));
  }

  private static boolean[] fit(boolean[] used, int n) {
    boolean[] out = new boolean[n];
    System.arraycopy(used, 0, out, 0, Math.min(n, used.length));
    return out;
  }

  void resource(JsonGenerator g, int id, Scratch s) throws IOException, WireException {
    if (id < 0 || id >= resources) {
      throw new WireException("resource id " + id + " outside the resources table (" + resources + " rows)");
    }
    g.writeObjectFieldStart("resource");
    g.writeFieldName("attributes");
    resAttrs.write(g, id, s);
    g.writeNumberField("dropped_attributes_count", resDropped.getOr(id, 0));
    if (!resSchema.isNull(id)) {
      g.writeStringField("schema_url", resSchema.string(id));
    }
    g.writeEndObject();
  }

  void scope(JsonGenerator g, int id, Scratch s) throws IOException, WireException {
    if (id < 0 || id >= scopes) {
      throw new WireException("scope id " + id + " outside the scopes table (" + scopes + " rows)");
    }
    g.writeObjectFieldStart("scope");
    g.writeStringField("name", orEmpty(scopeName.string(id)));
    g.writeStringField("version", orEmpty(scopeVersion.string(id)));
    g.writeFieldName("attributes");
    scopeAttrs.write(g, id, s);
    g.writeNumberField("dropped_attributes_count", scopeDropped.getOr(id, 0));
    if (!scopeSchema.isNull(id)) {
      g.writeStringField("schema_url", scopeSchema.string(id));
    }
    g.writeEndObject();
  }

  static String orEmpty(String s) {
    return s == null ? "" : s;
  }
}
