package mira.query.render;

import com.fasterxml.jackson.core.JsonGenerator;
import java.io.IOException;
import mira.proto.wire.WireException;
import mira.query.table.AttrTable;
import mira.query.table.Children;
import mira.query.table.Scratch;

/**
 * The attributes of selected parents of one attribute table, written as JSON objects
 * ({@code {"key": value, ...}} in stored order).
 */
public final class AttrMap {
  private final AttrTable table;
  private final Children children;
  private final String[] keys;

  /**
   * @param parents how many parent ids exist
   * @param selected the parents that will be written (null: all)
   */
  public AttrMap(AttrTable table, int parents, boolean[] selected) {
    this.table = table;
    this.children = Children.of(table.parent(), table.rows(), parents, selected);
    this.keys = new String[table.key().size()];
  }

  public void write(JsonGenerator g, int parent, Scratch s) throws IOException, WireException {
    g.writeStartObject();
    int n = children.count(parent);
    for (int k = 0; k < n; k++) {
      int j = children.row(parent, k);
      g.writeFieldName(key(j));
      Values.attr(g, table, j, s);
    }
    g.writeEndObject();
  }

  /**
   * Writes the parent's attributes with keys in sorted order (stable for repeated keys): the
   * canonical form that identifies a metric series.
   */
  public void writeSorted(JsonGenerator g, int parent, Scratch s) throws IOException, WireException {
    int n = children.count(parent);
    Integer[] order = new Integer[n];
    String[] names = new String[n];
    for (int k = 0; k < n; k++) {
      order[k] = k;
      names[k] = key(children.row(parent, k));
    }
    java.util.Arrays.sort(order, (a, b) -> names[a].compareTo(names[b]));
    g.writeStartObject();
    for (int k = 0; k < n; k++) {
      int j = children.row(parent, order[k]);
      g.writeFieldName(names[order[k]]);
      Values.attr(g, table, j, s);
    }
    g.writeEndObject();
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
