package mira.query.rows;

import java.util.ArrayList;
import java.util.List;
import mira.proto.wire.WireException;
import mira.query.result.Attribute;
import mira.query.table.AttrTable;
import mira.query.table.Children;
import mira.query.table.Scratch;

/**
 * The attributes of selected parents of one attribute table, read as lists of
 * {@link Attribute}s in stored order.
 */
public final class AttrLists {
  private final AttrTable table;
  private final Children children;
  private final String[] keys;

  /**
   * @param parents how many parent ids exist
   * @param selected the parents that will be read (null: all)
   */
  public AttrLists(AttrTable table, int parents, boolean[] selected) {
    this.table = table;
    this.children = Children.of(table.parent(), table.rows(), parents, selected);
    this.keys = new String[table.key().size()];
  }

  /** The parent's attributes in stored order. */
  public List<Attribute> get(int parent, Scratch s) throws WireException {
    int n = children.count(parent);
    if (n == 0) {
      return List.of();
    }
    List<Attribute> out = new ArrayList<>(n);
    for (int k = 0; k < n; k++) {
      int j = children.row(parent, k);
      out.add(new Attribute(key(j), StoredValues.attr(table, j, s)));
    }
    return out;
  }

  /**
   * The parent's attributes with keys in sorted order (stable for repeated keys): the canonical
   * form that identifies a metric series.
   */
  public List<Attribute> sorted(int parent, Scratch s) throws WireException {
    List<Attribute> out = new ArrayList<>(get(parent, s));
    out.sort((a, b) -> a.key().compareTo(b.key()));
    return out;
  }

  private String key(int j) throws WireException {
    if (table.key().isNull(j)) {
      return "";
    }
    int d = table.key().index(j);
    if (d < 0 || d >= keys.length) {
      throw new WireException("attribute key index " + d + " outside the dictionary");
    }
    String k = keys[d];
    if (k == null) {
      k = keys[d] = table.key().values().string(d);
    }
    return k == null ? "" : k;
  }
}
