package mira.query.doc;

import java.util.List;
import java.util.Set;

/**
 * One condition of a document's {@code where} list; a row must satisfy all of them.
 */
public sealed interface Term {
  /** The most values an {@code in} list, or an entity list, may hold. */
  int MAX_IN = 10_000;

  /**
   * An attribute at any level: the record or span, its resource, its scope, and for spans also
   * its events and links (a match on a child selects the span). {@code value} is the query scalar;
   * for {@link Op#EXISTS} it is a boolean saying whether the key must be present or absent.
   */
  record Attr(String key, Op op, Scalar value) implements Term {}

  /**
   * An attribute at any level equal ({@link Op#EQ}'s rules) to at least one of {@code values}.
   */
  record AttrIn(String key, List<Scalar> values) implements Term {
    public AttrIn {
      values = List.copyOf(values);
    }
  }

  /** A root column of the signal's table; for {@link Op#EXISTS}, whether the field is set. */
  record Field(RootField field, Op op, Scalar value) implements Term {}

  /** A root column equal ({@link Op#EQ}'s rules) to at least one of {@code values}. */
  record FieldIn(RootField field, List<Scalar> values) implements Term {
    public FieldIn {
      values = List.copyOf(values);
    }
  }

  /** A substring of a log body, or of a span's name or status message. Case-sensitive. */
  record Text(String text) implements Term {}

  /**
   * The row's resource has one of these entity keys ({@code resources.key}); never
   * {@code 0}, the key of a resource without identity, which no entity term selects.
   */
  record Entity(Set<Long> keys) implements Term {
    public Entity {
      keys = Set.copyOf(keys);
    }
  }

  /**
   * A row that does not satisfy {@code term}: {@code service.name != "api"} keeps rows whose
   * service is another one and rows with no service at all. One level deep, and never over an
   * {@code exists} term, which says "absent" itself ({@code exists: false}).
   */
  record Not(Term term) implements Term {
    public Not {
      if (term instanceof Not) {
        throw new IllegalArgumentException("not over not: write the inner term");
      }
      if (term instanceof Attr a && a.op() == Op.EXISTS || term instanceof Field f && f.op() == Op.EXISTS) {
        throw new IllegalArgumentException("not over exists: use exists with the other boolean");
      }
    }
  }
}
