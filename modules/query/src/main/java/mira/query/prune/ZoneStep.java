package mira.query.prune;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import mira.block.layout.Layouts;
import mira.block.index.ZoneIndex;
import mira.proto.wire.Signal;
import mira.query.doc.Op;
import mira.query.doc.RootField;
import mira.query.doc.Scalar;
import mira.query.doc.Term;
import mira.query.match.ValueMatcher;

/**
 * Prunes by {@code zone.idx} for each term comparing with an unquoted number ({@code eq gt gte lt
 * lte}): on an attribute key at any level, or on an integer root field. A block whose interval for
 * the key or column cannot satisfy the comparison is skipped; a key the block's file does not hold
 * means the block has no scalar value of it.
 *
 * <p>Why this agrees with the scan: {@code ValueMatcher} reads a stored string as a number by
 * {@code NumericText}, the grammar the index was built with, compares int64 with int64 exactly and
 * int64 with double without rounding; the index answers "maybe" wherever any of those readings
 * could match. A quoted value is never probed: against a string it is a text comparison, which no
 * interval describes. An integer root field reads as 0 where it is null, while the index skips
 * nulls: so a term that 0 satisfies is probed only on a column the writer declares non-nullable
 * (a span's kind, status code and duration), never on one that may hold nulls (a log's severity
 * number and flags), where the block could hold a 0 its interval does not show.
 */
final class ZoneStep implements BlockPruner {
  /** Root columns the writer never leaves null, per signal: read from its own table layouts. */
  private static final Set<String> LOGS_NEVER_NULL = Layouts.LOGS.neverNull();
  private static final Set<String> SPANS_NEVER_NULL = Layouts.SPANS.neverNull();

  private final SidecarCache cache;

  ZoneStep(SidecarCache cache) {
    this.cache = cache;
  }

  /** One comparison: {@code value(name) op bound}, the bound a long or a double. */
  private record Check(String name, boolean attribute, ZoneIndex.Op op, boolean integer, long l, double d) {
    ZoneIndex.Answer ask(ZoneIndex z) {
      return integer ? z.mayOverlap(name, attribute, op, l) : z.mayOverlap(name, attribute, op, d);
    }
  }

  @Override
  public Test prepare(Probe probe) {
    List<Check> checks = new ArrayList<>();
    for (Term t : probe.where()) {
      switch (t) {
        case Term.Attr a -> {
          ZoneIndex.Op op = op(a.op());
          if (op != null && a.value().isNumber()) {
            checks.add(check(a.key(), true, op, a.value()));
          }
        }
        case Term.Field f -> {
          ZoneIndex.Op op = op(f.op());
          if (op != null && f.value().isNumber() && f.field().kind() == RootField.Kind.INT
              && (neverNull(probe.signal(), f.field().key()) || !new ValueMatcher(f.op(), f.value()).i64(0))) {
            checks.add(check(f.field().key(), false, op, f.value()));
          }
        }
        case Term.Text x -> {
          // no zone describes a substring
        }
        case Term.AttrIn x -> {
          // several values: the attribute filter and the trace filter probe them
        }
        case Term.FieldIn x -> {
          // as for attributes
        }
        case Term.Entity x -> {
          // the entity step reads the resources table
        }
        case Term.Not x -> {
          // a zone that may hold the value may hold others too: never a reason to skip
        }
      }
    }
    if (checks.isEmpty()) {
      return null;
    }
    Check[] c = checks.toArray(new Check[0]);
    return block -> {
      ZoneIndex z = cache.zone(block);
      if (!z.known()) {
        return true;
      }
      for (Check k : c) {
        if (k.ask(z) == ZoneIndex.Answer.NO) {
          return false;
        }
      }
      return true;
    };
  }

  private static boolean neverNull(Signal signal, String column) {
    return signal == Signal.LOGS ? LOGS_NEVER_NULL.contains(column)
        : signal == Signal.TRACES && SPANS_NEVER_NULL.contains(column);
  }

  private static Check check(String name, boolean attribute, ZoneIndex.Op op, Scalar v) {
    return v.kind() == Scalar.Kind.INT ? new Check(name, attribute, op, true, v.longValue(), 0)
        : new Check(name, attribute, op, false, 0, v.doubleValue());
  }

  private static ZoneIndex.Op op(Op op) {
    return switch (op) {
      case EQ -> ZoneIndex.Op.EQ;
      case GT -> ZoneIndex.Op.GT;
      case GTE -> ZoneIndex.Op.GTE;
      case LT -> ZoneIndex.Op.LT;
      case LTE -> ZoneIndex.Op.LTE;
      default -> null;
    };
  }
}
