package mira.cluster;

import com.fasterxml.jackson.core.JsonGenerator;
import java.io.IOException;
import java.util.List;
import mira.query.render.Json;

/**
 * Which nodes a cluster answer came from: {@code asked} nodes (this one included), {@code answered}
 * of them, and one entry per node. A node that failed or was too slow is listed with its error,
 * never left out silently.
 */
public record Sources(int asked, int answered, List<Node> nodes, Timing timing) {
  public Sources {
    nodes = List.copyOf(nodes);
  }

  /** Sources with no timing. */
  public Sources(int asked, int answered, List<Node> nodes) {
    this(asked, answered, nodes, null);
  }

  /**
   * One node's part.
   *
   * @param node its node name as it answered ({@code null} if it never answered)
   * @param address where it was asked ({@code "local"} for this node)
   * @param tookUs µs from when the asked node sent its questions until this node's part was in hand
   * @param error why it has no part ({@code null} when ok)
   */
  public record Node(String node, String address, boolean ok, long tookUs, String error) {
    /** Whole milliseconds of {@link #tookUs}, truncated ({@code took_ms}). */
    public long tookMs() {
      return tookUs / 1000;
    }
  }

  /**
   * Where the asked node spent a cluster answer's time, in µs from when the document was in hand
   * (read from the request) until each step ended: the document parsed, every peer's question
   * handed to the HTTP client, this node's own part ready, every part in hand, the merged answer
   * written to bytes. For an answer built from several rounds (a frame, a map) the last round's.
   * Written only when the question asks for it ({@code Mira-Timing: 1}).
   */
  public record Timing(long parsedUs, long askedUs, long localUs, long gatheredUs, long mergedUs, List<PeerTiming> peers) {
    public Timing {
      peers = List.copyOf(peers);
    }
  }

  /**
   * One peer's answer as the asked node saw it, in µs from the same start as {@link Timing}: its
   * status line and headers received, its last byte received, and its answer read (scanned or parsed).
   */
  public record PeerTiming(String address, long headersUs, long bodyUs, long readUs) {}

  /** Whether some node asked has no part in the answer. */
  public boolean partial() {
    return answered < asked;
  }

  /** The nodes that failed, as {@code "address: error"}, for a one-line summary. */
  public List<String> failures() {
    return nodes.stream().filter(n -> !n.ok()).map(n -> (n.node() != null ? n.node() + " at " : "") + n.address()
        + ": " + n.error()).toList();
  }

  /**
   * One line for a partial answer, {@code "2 of 3 nodes answered (n2 at 10.0.0.3:8080: timeout after 2s)"};
   * null when every node answered.
   */
  public String partialLine() {
    return partial() ? answered + " of " + asked + " nodes answered (" + String.join("; ", failures()) + ")" : null;
  }

  /**
   * Writes {@code {"asked", "answered", "partial", "nodes": [...]}}, and {@code "timing": {...}}
   * when there is one.
   */
  public void write(JsonGenerator g) throws IOException {
    g.writeStartObject();
    g.writeNumberField("asked", asked);
    g.writeNumberField("answered", answered);
    g.writeBooleanField("partial", partial());
    g.writeArrayFieldStart("nodes");
    for (Node n : nodes) {
      g.writeStartObject();
      if (n.node() == null) {
        g.writeNullField("node");
      } else {
        g.writeStringField("node", n.node());
      }
      g.writeStringField("address", n.address());
      g.writeBooleanField("ok", n.ok());
      g.writeNumberField("took_ms", n.tookMs());
      g.writeNumberField("took_us", n.tookUs());
      if (n.error() != null) {
        g.writeStringField("error", n.error());
      }
      g.writeEndObject();
    }
    g.writeEndArray();
    if (timing != null) {
      g.writeObjectFieldStart("timing");
      g.writeNumberField("parsed_us", timing.parsedUs());
      g.writeNumberField("asked_us", timing.askedUs());
      g.writeNumberField("local_us", timing.localUs());
      g.writeNumberField("gathered_us", timing.gatheredUs());
      g.writeNumberField("merged_us", timing.mergedUs());
      g.writeArrayFieldStart("peers");
      for (PeerTiming p : timing.peers()) {
        g.writeStartObject();
        g.writeStringField("address", p.address());
        g.writeNumberField("headers_us", p.headersUs());
        g.writeNumberField("body_us", p.bodyUs());
        g.writeNumberField("read_us", p.readUs());
        g.writeEndObject();
      }
      g.writeEndArray();
      g.writeEndObject();
    }
    g.writeEndObject();
  }

  /**
   * {@code document} (a rendered JSON object) with {@code "cluster": this} as its last member. Every
   * read answer is an object rendered whole before it is sent, so appending to its closing brace
   * keeps each renderer ignorant of the cluster.
   */
  public byte[] appendTo(byte[] document) {
    int end = document.length - 1;
    while (end >= 0 && document[end] != '}') {
      end--;
    }
    if (end < 0) {
      throw new IllegalArgumentException("not a JSON object");
    }
    boolean empty = true;
    for (int i = end - 1; i >= 0; i--) {
      byte b = document[i];
      if (b == '{') {
        break;
      }
      if (b != ' ' && b != '\n' && b != '\r' && b != '\t') {
        empty = false;
        break;
      }
    }
    byte[] tail = Json.render(g -> write(g));
    byte[] head = (empty ? "\"cluster\":" : ",\"cluster\":").getBytes(java.nio.charset.StandardCharsets.US_ASCII);
    byte[] out = new byte[end + head.length + tail.length + 1];
    System.arraycopy(document, 0, out, 0, end);
    System.arraycopy(head, 0, out, end, head.length);
    System.arraycopy(tail, 0, out, end + head.length, tail.length);
    out[out.length - 1] = '}';
    return out;
  }
}
