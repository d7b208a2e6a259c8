package mira.block.table;

import mira.block.layout.ColumnNames;
import mira.block.layout.Layouts;
import mira.block.layout.TableFiles;
import java.util.Arrays;
import mira.block.column.FixedColumn;
import mira.block.column.VarColumn;
import mira.proto.wire.ProtoReader;
import mira.proto.wire.WireException;

/**
 * Writes the parts every signal shares — {@code Resource} and {@code InstrumentationScope} with
 * their schema URLs — into tables 0..3 of a {@link Batch}, de-duplicated by their bytes.
 *
 * <p>resources: {@code id} UInt16, {@code key} UInt64 (see {@link EntityKey}),
 * {@code dropped_attributes_count} UInt32, {@code schema_url} Utf8, {@code entity_refs} Binary (the
 * Resource's entity_refs fields as they arrived, re-parseable as a Resource fragment).
 * scopes: {@code id} UInt16, {@code name}, {@code version}, {@code dropped_attributes_count},
 * {@code schema_url}.
 */
public final class ResourceScopeWriter {
  private final Batch batch;
  private final AttrWriter resourceAttrs;
  private final AttrWriter scopeAttrs;
  private final ProtoReader r = new ProtoReader();
  private final ProtoReader kv = new ProtoReader();
  private final AnyValueReader value = new AnyValueReader();
  private final EntityKey entity = new EntityKey();

  public ResourceScopeWriter(Batch batch) {
    this.batch = batch;
    this.resourceAttrs = new AttrWriter(batch.table(Batch.RESOURCE_ATTRS));
    this.scopeAttrs = new AttrWriter(batch.table(Batch.SCOPE_ATTRS));
  }

  /** The resources table of a new batch. */
  public static Table resourcesTable() {
    return LayoutTables.build(Layouts.RESOURCES, LayoutTables.Role.shared(ColumnNames.ID, Rebase.RESOURCE));
  }

  public static Table scopesTable() {
    return LayoutTables.build(Layouts.SCOPES, LayoutTables.Role.shared(ColumnNames.ID, Rebase.SCOPE));
  }

  /** The four shared tables of a new batch, in table order. */
  public static Table[] sharedTables() {
    return new Table[] {
      resourcesTable(),
      Attributes.table(TableFiles.RESOURCE_ATTRS, Rebase.RESOURCE, Batch.RESOURCES),
      scopesTable(),
      Attributes.table(TableFiles.SCOPE_ATTRS, Rebase.SCOPE, Batch.SCOPES)
    };
  }

  /**
   * Returns the resource id for a {@code Resource{Logs,Spans,Metrics}} envelope, writing the
   * resource if this batch has not seen it.
   *
   * @param buf the request bytes
   * @param resStart start of the Resource message, or -1 if the envelope has none
   * @param schemaStart start of schema_url (or -1)
   */
  public int resource(byte[] buf, int resStart, int resEnd, int schemaStart, int schemaEnd)
      throws WireException, TooLargeException {
    byte[] identity = identity(buf, resStart, resEnd, schemaStart, schemaEnd);
    int id = batch.findResource(identity);
    if (id >= 0) {
      return id;
    }
    id = batch.resourceCount();
    if (id >= Batch.MAX_RESOURCES) {
      throw new TooLargeException("more than " + Batch.MAX_RESOURCES + " distinct resources in one export");
    }
    Table t = batch.table(Batch.RESOURCES);
    int dropped = 0;
    int refsLen = 0;
    byte[] refs = null;
    entity.clear();
    if (resStart >= 0) {
      r.reset(buf, resStart, resEnd);
      int attr = 0;
      while (r.next()) {
        switch (r.field()) {
          case 1 -> {
            try {
              resourceAttrs.append(r, id);
              identifying(r);
            } catch (WireException e) {
              throw WireException.at("resource.attributes[" + attr + "]", e);
            }
            attr++;
          }
          case 2 -> dropped = (int) Fields.uint32(r, "resource.dropped_attributes_count");
          case 3 -> {
            try {
              r.expect(ProtoReader.LEN);
            } catch (WireException e) {
              throw new WireException("resource.entity_refs: " + e.getMessage());
            }
            // Keep the field as it arrived (tag, length, payload).
            int tagStart = r.fieldStart();
            int len = r.end() - tagStart;
            if (refs == null) {
              refs = new byte[Math.max(64, len)];
            } else if (refsLen + len > refs.length) {
              refs = Arrays.copyOf(refs, Math.max(refs.length * 2, refsLen + len));
            }
            System.arraycopy(buf, tagStart, refs, refsLen, len);
            refsLen += len;
          }
          default -> { }
        }
      }
    }
    ((FixedColumn) t.column(0)).appendShort(id);
    ((FixedColumn) t.column(1)).appendLong(entity.key());
    ((FixedColumn) t.column(2)).appendInt(dropped);
    VarColumn schema = (VarColumn) t.column(3);
    if (schemaStart >= 0 && schemaEnd > schemaStart) {
      schema.append(buf, schemaStart, schemaEnd - schemaStart);
    } else {
      schema.appendNull();
    }
    VarColumn er = (VarColumn) t.column(4);
    if (refs != null) {
      er.append(refs, 0, refsLen);
    } else {
      er.appendNull();
    }
    batch.registerResource(id, identity);
    return id;
  }

  /**
   * Returns the scope id for an InstrumentationScope at {@code [scopeStart, scopeEnd)} (or -1 for
   * none) with the envelope's schema_url.
   */
  public int scope(byte[] buf, int scopeStart, int scopeEnd, int schemaStart, int schemaEnd)
      throws WireException, TooLargeException {
    byte[] identity = identity(buf, scopeStart, scopeEnd, schemaStart, schemaEnd);
    int id = batch.findScope(identity);
    if (id >= 0) {
      return id;
    }
    id = batch.scopeCount();
    if (id >= Batch.MAX_RESOURCES) {
      throw new TooLargeException("more than " + Batch.MAX_RESOURCES + " distinct scopes in one export");
    }
    Table t = batch.table(Batch.SCOPES);
    int nameStart = -1;
    int nameEnd = -1;
    int versionStart = -1;
    int versionEnd = -1;
    int dropped = 0;
    if (scopeStart >= 0) {
      r.reset(buf, scopeStart, scopeEnd);
      int attr = 0;
      while (r.next()) {
        switch (r.field()) {
          case 1 -> {
            Fields.utf8(r, "scope.name");
            nameStart = r.start();
            nameEnd = r.end();
          }
          case 2 -> {
            Fields.utf8(r, "scope.version");
            versionStart = r.start();
            versionEnd = r.end();
          }
          case 3 -> {
            try {
              scopeAttrs.append(r, id);
            } catch (WireException e) {
              throw WireException.at("scope.attributes[" + attr + "]", e);
            }
            attr++;
          }
          case 4 -> dropped = (int) Fields.uint32(r, "scope.dropped_attributes_count");
          default -> { }
        }
      }
    }
    ((FixedColumn) t.column(0)).appendShort(id);
    Fields.text((VarColumn) t.column(1), buf, nameStart, nameEnd);
    Fields.text((VarColumn) t.column(2), buf, versionStart, versionEnd);
    ((FixedColumn) t.column(3)).appendInt(dropped);
    Fields.text((VarColumn) t.column(4), buf, schemaStart, schemaEnd);
    batch.registerScope(id, identity);
    return id;
  }

  private void identifying(ProtoReader attr) throws WireException {
    kv.enter(attr);
    int which = -1;
    int vStart = -1;
    int vEnd = -1;
    byte[] buf = kv.buffer();
    while (kv.next()) {
      if (kv.field() == 1) {
        which = EntityKey.indexOf(buf, kv.start(), kv.length());
      } else if (kv.field() == 2) {
        vStart = kv.start();
        vEnd = kv.end();
      }
    }
    if (which < 0 || vStart < 0) {
      return;
    }
    value.read(buf, vStart, vEnd);
    byte[] text = CanonicalText.of(value, buf);
    if (text != null) {
      entity.put(which, text);
    }
  }

  private static byte[] identity(byte[] buf, int start, int end, int schemaStart, int schemaEnd) {
    int a = start >= 0 ? end - start : 0;
    int b = schemaStart >= 0 ? schemaEnd - schemaStart : 0;
    byte[] id = new byte[a + 1 + b];
    if (a > 0) {
      System.arraycopy(buf, start, id, 0, a);
    }
    id[a] = (byte) (start >= 0 ? 0x7F : 0x7E);
    if (b > 0) {
      System.arraycopy(buf, schemaStart, id, a + 1, b);
    }
    return id;
  }
}
