package mira.block.table;

import mira.block.layout.ColumnNames;
import mira.block.layout.Layouts;

/**
 * The one attribute table layout every level shares (record, resource, scope, span event, span
 * link, data point, exemplar, metric metadata): one row per key-value pair.
 *
 * <p>Columns: {@code parent_id} UInt32 (the owning row's id), {@code key} Dictionary(UInt16, Utf8),
 * {@code type} UInt8 (see the {@code TYPE_*} constants, OTAP's numbering), and one value column
 * per type, exactly one of them non-null per row — none for an empty value. Arrays and key-value
 * lists are kept as the protobuf encoding of the AnyValue in {@code ser}, so nothing is lost.
 */
public final class Attributes {
  public static final int TYPE_EMPTY = 0;
  public static final int TYPE_STR = 1;
  public static final int TYPE_INT = 2;
  public static final int TYPE_DOUBLE = 3;
  public static final int TYPE_BOOL = 4;
  public static final int TYPE_MAP = 5;
  public static final int TYPE_SLICE = 6;
  public static final int TYPE_BYTES = 7;

  public static final int PARENT_ID = 0;
  public static final int KEY = 1;
  public static final int TYPE = 2;
  public static final int STR = 3;
  public static final int INT = 4;
  public static final int DOUBLE = 5;
  public static final int BOOL = 6;
  public static final int BYTES = 7;
  public static final int SER = 8;

  private Attributes() {}

  /**
   * An attribute table whose parent_id refers to table {@code parentTable}; {@code parentRebase}
   * says how parent ids change on append ({@link Rebase#ROWS} for record-level tables,
   * {@link Rebase#RESOURCE} / {@link Rebase#SCOPE} for those two).
   */
  public static Table table(String file, Rebase parentRebase, int parentTable) {
    return LayoutTables.build(Layouts.attributes(file), new LayoutTables.Role(ColumnNames.PARENT_ID, parentRebase, parentTable));
  }
}
