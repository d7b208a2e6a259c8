package mira.block.column;

import mira.block.layout.Col;
import mira.block.layout.ColumnNames;

/** The write-side column for a column of the layout. */
public final class Columns {
  private Columns() {}

  public static Column of(Col c) {
    return switch (c.kind()) {
      case U8 -> FixedColumn.u8(c.name(), c.nullable());
      case U16 -> FixedColumn.u16(c.name(), c.nullable());
      case U64 -> FixedColumn.u64(c.name(), c.nullable());
      case F64 -> FixedColumn.f64(c.name(), c.nullable());
      case BOOL -> new BoolColumn(c.name(), c.nullable());
      case LIST_U64 -> new ListColumn(c.name(), c.nullable(), FixedColumn.u64(ColumnNames.ITEM, false));
      case LIST_F64 -> new ListColumn(c.name(), c.nullable(), FixedColumn.f64(ColumnNames.ITEM, false));
      case U32 -> FixedColumn.u32(c.name(), c.nullable());
      case I32 -> FixedColumn.i32(c.name(), c.nullable());
      case I64 -> FixedColumn.i64(c.name(), c.nullable());
      case TIMESTAMP_NS -> FixedColumn.timestampNs(c.name(), c.nullable());
      case FIXED_BINARY -> FixedColumn.fixedBinary(c.name(), c.width(), c.nullable());
      case UTF8 -> VarColumn.utf8(c.name(), c.nullable());
      case BINARY -> VarColumn.binary(c.name(), c.nullable());
      case DICT_UTF8 -> new DictColumn(c.name(), c.nullable());
    };
  }
}
