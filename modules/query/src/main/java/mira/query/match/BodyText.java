package mira.query.match;

import mira.block.table.AttrWriter;
import mira.proto.wire.ProtoReader;
import mira.proto.wire.WireException;

/**
 * Substring search inside an AnyValue's protobuf bytes: true if any string value in it — the
 * value itself, or any string nested in its arrays and kvlists (values, not keys) — contains the
 * needle. What a {@code text} term means for a log body that is not a plain string.
 */
public final class BodyText {
  private BodyText() {}

  public static boolean contains(byte[] buf, int from, int to, byte[] needle) throws WireException {
    return contains(buf, from, to, needle, 1);
  }

  private static boolean contains(byte[] buf, int from, int to, byte[] needle, int depth) throws WireException {
    if (depth > AttrWriter.MAX_DEPTH + 1) {
      throw new WireException("value nested deeper than " + AttrWriter.MAX_DEPTH + " levels");
    }
    ProtoReader r = new ProtoReader(buf, from, to);
    int kind = 0;
    int vs = 0;
    int ve = 0;
    while (r.next()) {
      int f = r.field();
      if (f == 1 || f == 5 || f == 6) {
        r.expect(ProtoReader.LEN);
        kind = f;
        vs = r.start();
        ve = r.end();
      } else if (f >= 2 && f <= 8) {
        kind = 0; // a later scalar of another kind replaces an earlier string or list
      }
    }
    switch (kind) {
      case 1:
        return Bytes.contains(buf, vs, ve - vs, needle);
      case 5: {
        ProtoReader a = new ProtoReader(buf, vs, ve);
        while (a.next()) {
          if (a.field() == 1) {
            a.expect(ProtoReader.LEN);
            if (contains(buf, a.start(), a.end(), needle, depth + 1)) {
              return true;
            }
          }
        }
        return false;
      }
      case 6: {
        ProtoReader list = new ProtoReader(buf, vs, ve);
        ProtoReader kv = new ProtoReader();
        while (list.next()) {
          if (list.field() != 1) {
            continue;
          }
          list.expect(ProtoReader.LEN);
          kv.enter(list);
          int s = -1;
          int e = -1;
          while (kv.next()) {
            if (kv.field() == 2) {
              kv.expect(ProtoReader.LEN);
              s = kv.start();
              e = kv.end();
            }
          }
          if (s >= 0 && contains(buf, s, e, needle, depth + 1)) {
            return true;
          }
        }
        return false;
      }
      default:
        return false;
    }
  }
}
