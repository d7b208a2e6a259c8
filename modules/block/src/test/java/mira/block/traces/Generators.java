package mira.block.traces;

import static mira.block.testing.OtlpArbitraries.attributes;
import static mira.block.testing.OtlpArbitraries.id;
import static mira.block.testing.OtlpArbitraries.presentId;
import static mira.block.testing.OtlpArbitraries.resource;
import static mira.block.testing.OtlpArbitraries.scope;
import static mira.block.testing.OtlpArbitraries.text;

import io.opentelemetry.proto.collector.trace.v1.ExportTraceServiceRequest;
import io.opentelemetry.proto.trace.v1.ResourceSpans;
import io.opentelemetry.proto.trace.v1.ScopeSpans;
import io.opentelemetry.proto.trace.v1.Span;
import io.opentelemetry.proto.trace.v1.Status;
import mira.block.testing.OtlpArbitraries;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;

/**
 * jqwik generators of OTLP trace requests covering every span, event, link and status field,
 * including the unset values the block stores as null (the shared parts come from
 * {@link OtlpArbitraries}). A generated span always has its two required ids.
 */
public final class Generators {
  private Generators() {}

  static Arbitrary<String> traceState() {
    return Arbitraries.of("", "rojo=00f067aa0ba902b7", "congo=t61rcWkgMzE,rojo=00f067aa0ba902b7");
  }

  /** Flags as SDKs send them (sampled bit, the W3C random bit, the has/is-remote bits) and odd ones. */
  static Arbitrary<Integer> flags() {
    return Arbitraries.oneOf(Arbitraries.of(0, 1, 0x100, 0x301), Arbitraries.integers());
  }

  static Arbitrary<Long> time() {
    return Arbitraries.oneOf(Arbitraries.just(0L), Arbitraries.longs().between(1, Long.MAX_VALUE));
  }

  static Arbitrary<Span.Event> event() {
    return Combinators.combine(time(), text(), attributes(), Arbitraries.integers().between(0, 3))
        .as((t, name, attrs, dropped) -> Span.Event.newBuilder().setTimeUnixNano(t).setName(name)
            .addAllAttributes(attrs).setDroppedAttributesCount(dropped).build());
  }

  static Arbitrary<Span.Link> link() {
    return Combinators.combine(id(16), id(8), traceState(), attributes(), Arbitraries.integers().between(0, 3), flags())
        .as((trace, span, state, attrs, dropped, flags) -> Span.Link.newBuilder().setTraceId(trace).setSpanId(span)
            .setTraceState(state).addAllAttributes(attrs).setDroppedAttributesCount(dropped).setFlags(flags).build());
  }

  /** Absent, explicitly empty, or set; the round trip normalises the first two to absent. */
  static Arbitrary<Status> status() {
    return Combinators.combine(Arbitraries.integers().between(0, 2), Arbitraries.oneOf(Arbitraries.just(""), text()))
        .as((code, message) -> Status.newBuilder().setCodeValue(code).setMessage(message).build())
        .injectNull(0.3);
  }

  static Arbitrary<Span> span() {
    Arbitrary<Span.Builder> ids = Combinators.combine(presentId(16), presentId(8), id(8), traceState(), flags(), text(),
            Arbitraries.integers().between(0, 5))
        .as((trace, span, parent, state, flags, name, kind) -> Span.newBuilder().setTraceId(trace).setSpanId(span)
            .setParentSpanId(parent).setTraceState(state).setFlags(flags).setName(name).setKindValue(kind));
    Arbitrary<Span.Builder> times = Combinators.combine(ids, time(), time(), attributes(),
            Arbitraries.integers().between(0, 4))
        .as((b, start, end, attrs, dropped) -> b.setStartTimeUnixNano(start).setEndTimeUnixNano(end)
            .addAllAttributes(attrs).setDroppedAttributesCount(dropped));
    return Combinators.combine(times, event().list().ofMaxSize(3), Arbitraries.integers().between(0, 2),
            link().list().ofMaxSize(3), Arbitraries.integers().between(0, 2), status())
        .as((b, events, droppedEvents, links, droppedLinks, status) -> {
          b.addAllEvents(events).setDroppedEventsCount(droppedEvents).addAllLinks(links)
              .setDroppedLinksCount(droppedLinks);
          if (status != null) {
            b.setStatus(status);
          }
          return b.build();
        });
  }

  static Arbitrary<ScopeSpans> scopeSpans() {
    return Combinators.combine(scope(), Arbitraries.of("", "https://schema/1"), span().list().ofMaxSize(4))
        .as((s, url, spans) -> ScopeSpans.newBuilder().setScope(s).setSchemaUrl(url).addAllSpans(spans).build());
  }

  static Arbitrary<ResourceSpans> resourceSpans() {
    return Combinators.combine(resource(), Arbitraries.of("", "https://schema/2"), scopeSpans().list().ofMaxSize(3))
        .as((r, url, scopes) -> ResourceSpans.newBuilder().setResource(r).setSchemaUrl(url).addAllScopeSpans(scopes)
            .build());
  }

  public static Arbitrary<ExportTraceServiceRequest> tracesRequests() {
    return resourceSpans().list().ofMinSize(1).ofMaxSize(3)
        .map(l -> ExportTraceServiceRequest.newBuilder().addAllResourceSpans(l).build());
  }
}
