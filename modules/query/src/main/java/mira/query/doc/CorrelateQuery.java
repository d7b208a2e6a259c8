package mira.query.doc;

import java.util.List;
import mira.query.result.Frame;

/**
 * A parsed correlate document: an anchor query or an earlier frame, then expanders.
 *
 * @param anchor the anchor search, or null when continuing from {@code frame}
 * @param frame the frame to continue from, or null
 * @param expand the expanders, applied in order
 */
public record CorrelateQuery(SearchQuery anchor, Frame frame, List<Expand> expand, int maxTraces, int maxEntities) {
  public static final int DEFAULT_MAX = 1000;
  public static final int MAX = Term.MAX_IN;

  public CorrelateQuery {
    expand = List.copyOf(expand);
  }

  /** One expander. */
  public sealed interface Expand {
    /** The frame's trace ids; time widened to those traces' whole extent. */
    record Traces() implements Expand {}

    /** Every entity that emitted a span of the frame's traces. */
    record Peers() implements Expand {}

    /** Time widened by {@code nanos} on both sides. */
    record Around(long nanos) implements Expand {}
  }
}
