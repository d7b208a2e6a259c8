package mira.query.scan;

import mira.block.layout.ColumnNames;
import mira.block.layout.TableFiles;
import java.nio.charset.StandardCharsets;
import java.util.HexFormat;
import mira.block.read.BlockReader;
import mira.block.catalog.BlockRef;
import mira.block.read.CorruptBlockException;
import mira.block.read.TableView;
import mira.block.table.AnyValueReader;
import mira.block.table.Attributes;
import mira.proto.wire.Signal;
import mira.proto.wire.WireException;
import mira.query.doc.Cursor;
import mira.query.doc.Op;
import mira.query.doc.RootField;
import mira.query.doc.Term;
import mira.query.entity.ResourceKeys;
import mira.query.match.BodyText;
import mira.query.match.Bytes;
import mira.query.match.ValueMatcher;
import mira.query.table.AttrTable;
import mira.query.table.DictReader;
import mira.query.table.IdReader;
import mira.query.table.IntReader;
import mira.query.table.Scratch;
import mira.query.table.Tables;
import mira.query.table.VarReader;

/**
 * The rows of one block's root table (logs or spans) that satisfy a document: first the time
 * window and the cursor, then each term narrowing a list of candidate row numbers in place.
 *
 * <p>An attribute term is a semi-join per level: each attribute table is walked once, marking the
 * ids whose value matches in a boolean array indexed by id (dense and block-local). Resources and
 * scopes are marked the same way and reached through the row's resource_id / scope_id; span
 * events and links are marked by their own id and mapped to the span they belong to through
 * their parent_id. A candidate row survives if any level marked it.
 *
 * <p>Not thread-safe: one per block scan.
 */
final class RowFilter {
  private final BlockReader reader;
  private final BlockRef ref;
  private final Signal signal;
  private final TableView root;
  private final int rows;
  private final long[] time;
  private final Scratch scratch = new Scratch();

  private RowFilter(BlockReader reader, Signal signal, TableView root) {
    this.reader = reader;
    this.ref = reader.ref();
    this.signal = signal;
    this.root = root;
    this.rows = root.rows();
    this.time = times();
  }

  /** The filter over {@code reader}'s root table, or null if the block has none. */
  static RowFilter open(BlockReader reader, Signal signal) throws CorruptBlockException {
    TableView root = Tables.get(reader, signal == Signal.LOGS ? TableFiles.LOGS : TableFiles.SPANS);
    return root == null ? null : new RowFilter(reader, signal, root);
  }

  TableView root() {
    return root;
  }

  int rows() {
    return rows;
  }

  /**
   * Each row's place in time: a log's time_unix_nano (already its observed or receive time when
   * unset); a span's start time, else its end time, else — a span with neither, whose block time
   * was its receive time, which is not stored — the block's max time, which lies in the range the
   * name advertises.
   */
  private long[] times() {
    long[] t = new long[rows];
    if (signal == Signal.LOGS) {
      IntReader c = IntReader.of(root.column(ColumnNames.TIME_UNIX_NANO));
      for (int i = 0; i < rows; i++) {
        t[i] = c.get(i);
      }
      return t;
    }
    IntReader start = IntReader.of(root.column(ColumnNames.START_TIME_UNIX_NANO));
    IntReader end = IntReader.of(root.column(ColumnNames.END_TIME_UNIX_NANO));
    long fallback = ref.name().maxTime();
    for (int i = 0; i < rows; i++) {
      long s = start.getOr(i, 0);
      if (s == 0) {
        s = end.getOr(i, 0);
      }
      t[i] = s != 0 ? s : fallback;
    }
    return t;
  }

  long time(int row) {
    return time[row];
  }

  /** Rows in {@code [from, to]} that come after {@code after} (null: all); returns the count. */
  int window(long from, long to, Cursor after, int[] out) {
    int node = ref.name().node();
    long seq = ref.name().seq();
    int m = 0;
    for (int i = 0; i < rows; i++) {
      long t = time[i];
      if (t < from || t > to) {
        continue;
      }
      if (after != null && !after.admits(t, node, seq, i)) {
        continue;
      }
      out[m++] = i;
    }
    return m;
  }

  /** Keeps the candidates {@code cand[0, m)} that satisfy {@code term}; returns how many remain. */
  int apply(Term term, int[] cand, int m) throws CorruptBlockException {
    try {
      return switch (term) {
        case Term.Attr a -> attr(a.key(), new ValueMatcher(a.op(), a.value()),
            a.op() == Op.EXISTS && !a.value().bool(), cand, m);
        case Term.AttrIn a -> attr(a.key(), ValueMatcher.anyOf(a.values()), false, cand, m);
        case Term.Field f -> field(f, cand, m);
        case Term.FieldIn f -> fieldIn(f, cand, m);
        case Term.Text t -> text(t, cand, m);
        case Term.Entity e -> entity(e, cand, m);
        case Term.Not n -> not(n, cand, m);
      };
    } catch (WireException e) {
      throw new CorruptBlockException(ref.dir(), signal == Signal.LOGS ? TableFiles.LOGS : TableFiles.SPANS,
          "cannot read a value: " + e.getMessage());
    }
  }

  /** The candidates the inner term drops: the inner term runs over a copy, then the two are merged. */
  private int not(Term.Not t, int[] cand, int m) throws CorruptBlockException {
    int[] kept = java.util.Arrays.copyOf(cand, m);
    int k = apply(t.term(), kept, m);
    // Both lists are ascending (apply keeps its candidates in order).
    int out = 0;
    for (int i = 0, j = 0; i < m; i++) {
      if (j < k && kept[j] == cand[i]) {
        j++;
      } else {
        cand[out++] = cand[i];
      }
    }
    return out;
  }

  // ---- attributes ----------------------------------------------------------------------------

  private int attr(String name, ValueMatcher vm, boolean absent, int[] cand, int m) throws CorruptBlockException {
    byte[] key = name.getBytes(StandardCharsets.UTF_8);
    boolean any = false;

    boolean[] hit = new boolean[rows];
    any |= AttrTable.of(Tables.get(reader, signal == Signal.LOGS ? TableFiles.LOG_ATTRS : TableFiles.SPAN_ATTRS))
        .mark(key, vm, hit, scratch);
    if (signal == Signal.TRACES) {
      any |= child(TableFiles.SPAN_EVENTS, TableFiles.SPAN_EVENT_ATTRS, key, vm, hit);
      any |= child(TableFiles.SPAN_LINKS, TableFiles.SPAN_LINK_ATTRS, key, vm, hit);
    }
    boolean[] res = new boolean[Tables.rows(reader, TableFiles.RESOURCES)];
    any |= AttrTable.of(Tables.get(reader, TableFiles.RESOURCE_ATTRS)).mark(key, vm, res, scratch);
    boolean[] scope = new boolean[Tables.rows(reader, TableFiles.SCOPES)];
    any |= AttrTable.of(Tables.get(reader, TableFiles.SCOPE_ATTRS)).mark(key, vm, scope, scratch);
    if (!any) {
      // No level of this block has the key at all.
      return absent ? m : 0;
    }
    IntReader resId = IntReader.of(root.column(ColumnNames.RESOURCE_ID));
    IntReader scopeId = IntReader.of(root.column(ColumnNames.SCOPE_ID));
    // Resources and scopes number in the tens: when none matched (the usual case for a record-level
    // key), the row's own mark decides and their id columns are not read at all.
    boolean anyRes = anyTrue(res);
    boolean anyScope = anyTrue(scope);
    int out = 0;
    for (int k = 0; k < m; k++) {
      int i = cand[k];
      boolean h = hit[i];
      if (!h && anyRes) {
        int r = resId.getInt(i);
        h = r < res.length && res[r];
      }
      if (!h && anyScope) {
        int s = scopeId.getInt(i);
        h = s < scope.length && scope[s];
      }
      if (h != absent) {
        cand[out++] = i;
      }
    }
    return out;
  }

  private static boolean anyTrue(boolean[] marks) {
    for (boolean b : marks) {
      if (b) {
        return true;
      }
    }
    return false;
  }

  /** Marks spans whose event (or link) has a matching attribute; false if none has the key. */
  private boolean child(String file, String attrFile, byte[] key, ValueMatcher vm, boolean[] spans)
      throws CorruptBlockException {
    TableView children = Tables.get(reader, file);
    if (children == null) {
      return false;
    }
    boolean[] marked = new boolean[children.rows()];
    if (!AttrTable.of(Tables.get(reader, attrFile)).mark(key, vm, marked, scratch)) {
      return false;
    }
    // A child id is its row in the child table, not a span row: parent_id is the hop.
    IntReader parent = IntReader.of(children.column(ColumnNames.PARENT_ID));
    for (int e = 0; e < marked.length; e++) {
      if (marked[e]) {
        int p = parent.getInt(e);
        if (p >= 0 && p < spans.length) {
          spans[p] = true;
        }
      }
    }
    return true;
  }

  // ---- entities ------------------------------------------------------------------------------

  /** Keeps the rows whose resource's key is one of the term's: one pass over the resources table. */
  private int entity(Term.Entity t, int[] cand, int m) throws CorruptBlockException {
    boolean[] res = ResourceKeys.marks(reader, t.keys());
    if (res == null) {
      return 0;
    }
    IntReader resId = IntReader.of(root.column(ColumnNames.RESOURCE_ID));
    int out = 0;
    for (int k = 0; k < m; k++) {
      int r = resId.getInt(cand[k]);
      if (r >= 0 && r < res.length && res[r]) {
        cand[out++] = cand[k];
      }
    }
    return out;
  }

  // ---- root fields ---------------------------------------------------------------------------

  /** A root field equal to one of the term's values. */
  private int fieldIn(Term.FieldIn t, int[] cand, int m) throws WireException {
    RootField f = t.field();
    if (f.kind() == RootField.Kind.ID) {
      java.util.Set<java.nio.ByteBuffer> ids = new java.util.HashSet<>();
      for (var v : t.values()) {
        ids.add(java.nio.ByteBuffer.wrap(HexFormat.of().parseHex(v.text().toLowerCase(java.util.Locale.ROOT))));
      }
      IdReader c = IdReader.of(root.column(f.key()), f.idBytes());
      int out = 0;
      for (int k = 0; k < m; k++) {
        int i = cand[k];
        if (!c.isNull(i) && ids.contains(java.nio.ByteBuffer.wrap(c.bytes(i)))) {
          cand[out++] = i;
        }
      }
      return out;
    }
    return field(f, Op.IN, null, ValueMatcher.anyOf(t.values()), cand, m);
  }

  private int field(Term.Field t, int[] cand, int m) throws WireException {
    return field(t.field(), t.op(), t, new ValueMatcher(t.op(), t.value()), cand, m);
  }

  /** {@code t} is the term for id fields (null for in, which reads ids itself). */
  private int field(RootField f, Op op, Term.Field t, ValueMatcher vm, int[] cand, int m) throws WireException {
    boolean exists = op == Op.EXISTS;
    boolean want = !exists || t.value().bool();
    int out = 0;
    switch (f.kind()) {
      case INT -> {
        IntReader c = IntReader.of(root.column(f.key()));
        for (int k = 0; k < m; k++) {
          int i = cand[k];
          long v = c.getOr(i, 0);
          if (exists ? (v != 0) == want : vm.i64(v)) {
            cand[out++] = i;
          }
        }
      }
      case STRING -> {
        if (root.dictionary(f.key()) != null) {
          out = dictField(DictReader.of(root, f.key()), exists, want, vm, cand, m);
        } else {
          VarReader c = VarReader.of(root.column(f.key()));
          for (int k = 0; k < m; k++) {
            int i = cand[k];
            int len = c.isNull(i) ? 0 : c.copy(i, scratch);
            if (exists ? (len != 0) == want : vm.str(scratch.buf(), 0, len)) {
              cand[out++] = i;
            }
          }
        }
      }
      case ID -> out = idField(t, IdReader.of(root.column(f.key()), f.idBytes()), exists, want, cand, m);
      case ANY -> out = body(exists, want, vm, cand, m);
    }
    return out;
  }

  private int dictField(DictReader c, boolean exists, boolean want, ValueMatcher vm, int[] cand, int m) {
    // One comparison per dictionary entry, then a lookup per row.
    boolean[] entry = new boolean[c.size()];
    for (int d = 0; d < entry.length; d++) {
      int len = c.values().isNull(d) ? 0 : c.values().copy(d, scratch);
      entry[d] = exists ? (len != 0) == want : vm.str(scratch.buf(), 0, len);
    }
    boolean nullMatches = exists ? !want : vm.str(scratch.buf(), 0, 0);
    int out = 0;
    for (int k = 0; k < m; k++) {
      int i = cand[k];
      boolean ok;
      if (c.isNull(i)) {
        ok = nullMatches;
      } else {
        int d = c.index(i);
        ok = d < entry.length && entry[d];
      }
      if (ok) {
        cand[out++] = i;
      }
    }
    return out;
  }

  private int idField(Term.Field t, IdReader c, boolean exists, boolean want, int[] cand, int m) {
    int out = 0;
    if (exists) {
      for (int k = 0; k < m; k++) {
        if (!c.isNull(cand[k]) == want) {
          cand[out++] = cand[k];
        }
      }
      return out;
    }
    String q = t.value().text().toLowerCase(java.util.Locale.ROOT);
    if (t.op() == Op.EQ) {
      byte[] id = HexFormat.of().parseHex(q);
      for (int k = 0; k < m; k++) {
        int i = cand[k];
        if (!c.isNull(i) && c.equalsAt(i, id)) {
          cand[out++] = i;
        }
      }
      return out;
    }
    for (int k = 0; k < m; k++) {
      int i = cand[k];
      if (c.isNull(i)) {
        continue;
      }
      String hex = c.hex(i);
      boolean ok = t.op() == Op.CONTAINS ? hex.contains(q) : t.op().accepts(Integer.signum(hex.compareTo(q)));
      if (ok) {
        cand[out++] = i;
      }
    }
    return out;
  }

  /** The log body, compared by its stored type like an attribute value. */
  private int body(boolean exists, boolean want, ValueMatcher vm, int[] cand, int m) throws WireException {
    VarReader body = VarReader.of(root.column(ColumnNames.BODY));
    VarReader ser = VarReader.of(root.column(ColumnNames.BODY_SER));
    AnyValueReader any = null;
    int out = 0;
    for (int k = 0; k < m; k++) {
      int i = cand[k];
      boolean ok;
      if (!body.isNull(i)) {
        int len = body.copy(i, scratch);
        ok = exists ? want : vm.str(scratch.buf(), 0, len);
      } else if (!ser.isNull(i)) {
        if (exists) {
          ok = want;
        } else {
          if (any == null) {
            any = new AnyValueReader();
          }
          byte[] b = ser.bytes(i);
          any.read(b, 0, b.length);
          ok = switch (any.kind()) {
            case Attributes.TYPE_STR -> vm.str(b, any.start(), any.length());
            case Attributes.TYPE_INT -> vm.i64(any.bits());
            case Attributes.TYPE_DOUBLE -> vm.f64(Double.longBitsToDouble(any.bits()));
            case Attributes.TYPE_BOOL -> vm.bool(any.bits() != 0);
            case Attributes.TYPE_BYTES -> vm.bytes(b, any.start(), any.length());
            default -> vm.structured();
          };
        }
      } else {
        ok = exists && !want;
      }
      if (ok) {
        cand[out++] = i;
      }
    }
    return out;
  }

  // ---- text ----------------------------------------------------------------------------------

  private int text(Term.Text t, int[] cand, int m) throws WireException {
    byte[] needle = t.text().getBytes(StandardCharsets.UTF_8);
    int out = 0;
    if (signal == Signal.LOGS) {
      VarReader body = VarReader.of(root.column(ColumnNames.BODY));
      VarReader ser = VarReader.of(root.column(ColumnNames.BODY_SER));
      for (int k = 0; k < m; k++) {
        int i = cand[k];
        boolean ok;
        if (!body.isNull(i)) {
          int len = body.copy(i, scratch);
          ok = Bytes.contains(scratch.buf(), 0, len, needle);
        } else if (!ser.isNull(i)) {
          int len = ser.copy(i, scratch);
          ok = BodyText.contains(scratch.buf(), 0, len, needle);
        } else {
          ok = false;
        }
        if (ok) {
          cand[out++] = i;
        }
      }
      return out;
    }
    VarReader name = VarReader.of(root.column(ColumnNames.NAME));
    VarReader message = VarReader.of(root.column(ColumnNames.STATUS_MESSAGE));
    for (int k = 0; k < m; k++) {
      int i = cand[k];
      boolean ok = false;
      if (!name.isNull(i)) {
        int len = name.copy(i, scratch);
        ok = Bytes.contains(scratch.buf(), 0, len, needle);
      }
      if (!ok && !message.isNull(i)) {
        int len = message.copy(i, scratch);
        ok = Bytes.contains(scratch.buf(), 0, len, needle);
      }
      if (ok) {
        cand[out++] = i;
      }
    }
    return out;
  }
}
