package mira.query.rows;

import mira.block.layout.ColumnNames;
import mira.block.layout.TableFiles;
import mira.block.read.BlockReader;
import mira.block.read.CorruptBlockException;
import mira.block.read.TableView;
import mira.proto.wire.WireException;
import mira.query.result.Resource;
import mira.query.result.Scope;
import mira.query.table.AttrTable;
import mira.query.table.IntReader;
import mira.query.table.Scratch;
import mira.query.table.Tables;
import mira.query.table.VarReader;

/**
 * Reads the {@link Resource} and {@link Scope} of rows from a block's shared tables, once per id:
 * rows of one resource share one record. The schema URLs (which OTLP carries beside the resource
 * and the scope) are kept in these records.
 */
final class ResourceScopes {
  private final IntReader resDropped;
  private final VarReader resSchema;
  private final IntReader resKey;
  private final AttrLists resAttrs;
  private final int resources;
  private final VarReader scopeName;
  private final VarReader scopeVersion;
  private final IntReader scopeDropped;
  private final VarReader scopeSchema;
  private final AttrLists scopeAttrs;
  private final int scopes;
  private final Resource[] resourceById;
  private final Scope[] scopeById;

  /**
   * @param usedResources resource ids that will be read (indexed by id; may be shorter than
   *     the table, ids past its end are not used)
   */
  ResourceScopes(BlockReader r, boolean[] usedResources, boolean[] usedScopes) throws CorruptBlockException {
    TableView res = Tables.get(r, TableFiles.RESOURCES);
    TableView sc = Tables.get(r, TableFiles.SCOPES);
    resources = res == null ? 0 : res.rows();
    scopes = sc == null ? 0 : sc.rows();
    resDropped = IntReader.of(res == null ? null : res.column(ColumnNames.DROPPED_ATTRIBUTES_COUNT));
    resSchema = VarReader.of(res == null ? null : res.column(ColumnNames.SCHEMA_URL));
    resKey = IntReader.of(res == null ? null : res.column(ColumnNames.KEY));
    resAttrs = new AttrLists(AttrTable.of(Tables.get(r, TableFiles.RESOURCE_ATTRS)), resources, fit(usedResources, resources));
    scopeName = VarReader.of(sc == null ? null : sc.column(ColumnNames.NAME));
    scopeVersion = VarReader.of(sc == null ? null : sc.column(ColumnNames.VERSION));
    scopeDropped = IntReader.of(sc == null ? null : sc.column(ColumnNames.DROPPED_ATTRIBUTES_COUNT));
    scopeSchema = VarReader.of(sc == null ? null : sc.column(ColumnNames.SCHEMA_URL));
    scopeAttrs = new AttrLists(AttrTable.of(Tables.get(r, TableFiles.SCOPE_ATTRS)), scopes, fit(usedScopes, scopes));
    resourceById = new Resource[resources];
    scopeById = new Scope[scopes];
  }

  private static boolean[] fit(boolean[] used, int n) {
    boolean[] out = new boolean[n];
    System.arraycopy(used, 0, out, 0, Math.min(n, used.length));
    return out;
  }

  Resource resource(int id, Scratch s) throws WireException {
    if (id < 0 || id >= resources) {
      throw new WireException("resource id " + id + " outside the resources table (" + resources + " rows)");
    }
    Resource out = resourceById[id];
    if (out == null) {
      out = resourceById[id] = new Resource(resAttrs.get(id, s), resDropped.getOr(id, 0),
          resSchema.isNull(id) ? null : resSchema.string(id), resKey.getOr(id, Resource.NO_ENTITY));
    }
    return out;
  }

  Scope scope(int id, Scratch s) throws WireException {
    if (id < 0 || id >= scopes) {
      throw new WireException("scope id " + id + " outside the scopes table (" + scopes + " rows)");
    }
    Scope out = scopeById[id];
    if (out == null) {
      out = scopeById[id] = new Scope(orEmpty(scopeName.string(id)), orEmpty(scopeVersion.string(id)),
          scopeAttrs.get(id, s), scopeDropped.getOr(id, 0), scopeSchema.isNull(id) ? null : scopeSchema.string(id));
    }
    return out;
  }

  static String orEmpty(String s) {
    return s == null ? "" : s;
  }
}
