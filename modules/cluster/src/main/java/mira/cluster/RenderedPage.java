package mira.cluster;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import mira.client.ResultReader;
import mira.query.doc.Cursor;
import mira.query.result.QueryException;
import mira.query.result.Refused;
import mira.query.result.SearchResult;
import mira.query.result.Stats;
import mira.query.render.ResponseJson;

/**
 * One node's page of {@code POST /api/v1/query} as it was rendered with positions (a peer's
 * answer to a hop, or this node's own page rendered the same way), its rows kept as the bytes they
 * were written as. A cluster page is merged from these by the rows' positions alone and written by
 * copying the chosen rows' bytes ({@link #merge}), so no row is parsed into fields or rendered a
 * second time; the bytes are the ones the answering node wrote, which is what it would have sent a
 * client asking it alone.
 *
 * @param body the answer as received
 * @param starts where each row's object begins in {@code body}
 * @param ends where each row's object ends (exclusive)
 */
record RenderedPage(byte[] body, int[] starts, int[] ends, Cursor[] positions, String next, Stats stats,
    List<Refused> refused) {
  private static final JsonFactory JSON = new JsonFactory();
  private static final byte[] EMPTY_ROWS = "{\"rows\":[]".getBytes(StandardCharsets.US_ASCII);

  /** This node's own page, rendered as a peer would send it. */
  static RenderedPage of(SearchResult local) throws IOException {
    return read(ResponseJson.search(local, true));
  }

  /**
   * Reads an answer. One without {@code positions} (a node that does not write them) is read
   * field by field and rendered again with them, so it merges like any other.
   */
  static RenderedPage read(byte[] body) throws IOException {
    List<int[]> spans = new ArrayList<>();
    List<Cursor> positions = null;
    String next = null;
    int[] stats = null;
    int[] refused = null;
    try (JsonParser p = JSON.createParser(body)) {
      if (p.nextToken() != JsonToken.START_OBJECT) {
        throw new IOException("the answer is not a JSON object");
      }
      while (p.nextToken() == JsonToken.FIELD_NAME) {
        String field = p.currentName();
        JsonToken t = p.nextToken();
        switch (field) {
          case "rows" -> {
            expect(t, JsonToken.START_ARRAY, "rows");
            while ((t = p.nextToken()) != JsonToken.END_ARRAY) {
              expect(t, JsonToken.START_OBJECT, "a row");
              int start = offset(p);
              p.skipChildren();
              spans.add(new int[] {start, offset(p) + 1});
            }
          }
          case "positions" -> {
            expect(t, JsonToken.START_ARRAY, "positions");
            positions = new ArrayList<>();
            while ((t = p.nextToken()) != JsonToken.END_ARRAY) {
              expect(t, JsonToken.VALUE_STRING, "a position");
              positions.add(cursor(p.getText(), "positions[" + positions.size() + "]"));
            }
          }
          case "next" -> next = t == JsonToken.VALUE_NULL ? null : p.getText();
          case "stats" -> stats = span(p);
          case "refused" -> refused = span(p);
          default -> p.skipChildren();
        }
      }
    }
    if (positions == null) {
      return of(ResultReader.search(body));
    }
    if (positions.size() != spans.size()) {
      throw new IOException("the answer has " + spans.size() + " rows but " + positions.size() + " positions");
    }
    if (stats == null) {
      throw new IOException("the answer has no stats");
    }
    // Stats and refusals are a few fields: read by the client's reader from an answer with no rows.
    ByteArrayOutputStream rest = new ByteArrayOutputStream(256);
    rest.writeBytes("{\"rows\":[],\"stats\":".getBytes(StandardCharsets.US_ASCII));
    rest.write(body, stats[0], stats[1] - stats[0]);
    if (refused != null) {
      rest.writeBytes(",\"refused\":".getBytes(StandardCharsets.US_ASCII));
      rest.write(body, refused[0], refused[1] - refused[0]);
    }
    rest.write('}');
    SearchResult tail = ResultReader.search(rest.toByteArray());
    int[] starts = new int[spans.size()];
    int[] ends = new int[spans.size()];
    for (int i = 0; i < starts.length; i++) {
      starts[i] = spans.get(i)[0];
      ends[i] = spans.get(i)[1];
    }
    return new RenderedPage(body, starts, ends, positions.toArray(Cursor[]::new), next, tail.stats(), tail.refused());
  }

  /**
   * The first {@code limit} rows of all pages in the one total order (newest first), as the
   * answer of {@code POST /api/v1/query}: what {@link Merge#search} gives, rendered, for the same
   * pages. A next page exists when rows were left over or a page had a next of its own; its cursor
   * is the last row's position.
   */
  static byte[] merge(List<RenderedPage> pages, int limit, long started) {
    int total = 0;
    boolean more = false;
    for (RenderedPage p : pages) {
      total += p.positions.length;
      more |= p.next != null;
    }
    List<Pick> picks = new ArrayList<>(total);
    for (RenderedPage p : pages) {
      for (int r = 0; r < p.positions.length; r++) {
        picks.add(new Pick(p, r, p.positions[r]));
      }
    }
    picks.sort((x, y) -> Cursor.compare(y.at.time(), y.at.node(), y.at.seq(), y.at.row(),
        x.at.time(), x.at.node(), x.at.seq(), x.at.row()));
    List<Pick> kept = picks.subList(0, Math.min(limit, total));
    more |= total > limit;
    String next = more && !kept.isEmpty() ? kept.get(kept.size() - 1).at.encode() : null;
    Stats stats = Merge.stats(pages.stream().map(RenderedPage::stats).toList(), started);
    List<Refused> refused = Merge.refused(pages.stream().map(RenderedPage::refused).toList());
    byte[] tail = ResponseJson.search(new SearchResult(List.of(), next, stats, refused));
    if (!Arrays.equals(tail, 0, EMPTY_ROWS.length, EMPTY_ROWS, 0, EMPTY_ROWS.length)) {
      throw new IllegalStateException("a page with no rows does not begin {\"rows\":[]");
    }
    int size = tail.length;
    for (Pick x : kept) {
      size += x.page.ends[x.row] - x.page.starts[x.row] + 1;
    }
    ByteArrayOutputStream out = new ByteArrayOutputStream(size);
    out.write(tail, 0, EMPTY_ROWS.length - 1); // {"rows":[
    for (int i = 0; i < kept.size(); i++) {
      Pick x = kept.get(i);
      if (i > 0) {
        out.write(',');
      }
      out.write(x.page.body, x.page.starts[x.row], x.page.ends[x.row] - x.page.starts[x.row]);
    }
    out.write(tail, EMPTY_ROWS.length - 1, tail.length - EMPTY_ROWS.length + 1); // ], then next, stats, refused
    return out.toByteArray();
  }

  /** One row of one page, at its place in the total order. */
  private record Pick(RenderedPage page, int row, Cursor at) {}

  private static int offset(JsonParser p) {
    return (int) p.currentTokenLocation().getByteOffset();
  }

  /** Skips the value at the parser, returning where it begins and ends (exclusive) in the body. */
  private static int[] span(JsonParser p) throws IOException {
    int start = offset(p);
    p.skipChildren();
    return new int[] {start, offset(p) + 1};
  }

  private static Cursor cursor(String text, String what) throws IOException {
    try {
      return Cursor.parse(text);
    } catch (QueryException e) {
      throw new IOException(what + " is not a cursor: " + e.getMessage());
    }
  }

  private static void expect(JsonToken got, JsonToken want, String what) throws IOException {
    if (got != want) {
      throw new IOException(what + " is " + got + ", not " + want);
    }
  }
}
