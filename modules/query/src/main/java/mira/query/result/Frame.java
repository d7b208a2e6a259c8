package mira.query.result;

import java.util.List;

/**
 * A correlation frame: the records around something, defined by membership. A record is in the
 * frame when its time is in {@code [from, to]}, and its entity is one of {@code entities} (when
 * there are any), and its trace is one of {@code traces} (when there are any).
 *
 * @param entities sorted by key
 * @param traces lowercase hex, sorted
 */
public record Frame(long from, long to, List<Member> entities, List<String> traces) {
  public Frame {
    entities = List.copyOf(entities);
    traces = List.copyOf(traces);
  }

  /**
   * An entity of the frame, with what identifies it.
   *
   * @param serviceName its service.name, or null when not known
   * @param identity the identifying attributes (empty when not known)
   */
  public record Member(long key, String serviceName, List<Attribute> identity) {
    public Member {
      identity = List.copyOf(identity);
    }
  }
}
