package mira.proto.json;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.StreamReadConstraints;
import com.fasterxml.jackson.core.StreamReadFeature;
import com.fasterxml.jackson.core.StreamWriteConstraints;
import com.fasterxml.jackson.core.util.JsonRecyclerPools;
import com.google.protobuf.Message;
import io.opentelemetry.proto.collector.logs.v1.ExportLogsServiceRequest;
import io.opentelemetry.proto.collector.metrics.v1.ExportMetricsServiceRequest;
import io.opentelemetry.proto.collector.trace.v1.ExportTraceServiceRequest;
import java.util.Objects;

/**
 * OTLP/JSON, the JSON encoding OTLP/HTTP carries on {@code /v1/logs}, {@code /v1/traces} and
 * {@code /v1/metrics}.
 *
 * <p>What the decoder accepts, beyond canonical proto3 JSON: field names in lowerCamelCase or in
 * the .proto's snake_case, mixed freely; trace and span ids as hex in either case (every other
 * bytes field is base64, standard or URL-safe, padded or not); 64-bit integers as strings or
 * numbers, 32-bit integers as numbers or numeric strings, doubles as numbers or strings
 * (including {@code "NaN"}, {@code "Infinity"}, {@code "-Infinity"}); enums by number or by name;
 * {@code null} for "unset". Unknown fields are skipped, however deeply nested, so a newer client
 * can talk to this server.
 *
 * <p>Limits, each refused with an {@link OtlpJsonException} rather than a stack overflow or an
 * unbounded allocation: {@value #MAX_ANY_VALUE_DEPTH} levels of AnyValue (an attribute, log body
 * or kvlist value holding arrays and kvlists), {@value #MAX_JSON_DEPTH} levels of JSON
 * objects and arrays overall, {@value #MAX_STRING_CHARS} characters in one string.
 *
 * <p>All methods are thread-safe and keep no state between calls.
 */
public final class OtlpJson {
  /**
   * How deep AnyValues may nest inside one attribute or log body; the outermost value is level 1.
   * Real data nests a handful of levels (a JSON log body converted to a kvlist); 64 is far above
   * that, while keeping the decoder's recursion at a few hundred stack frames.
   */
  public static final int MAX_ANY_VALUE_DEPTH = 64;

  /**
   * How deep JSON objects and arrays may nest in a body, counted by Jackson before Mira sees a
   * token. The deepest legal document is about 270 levels deep (an exemplar's filtered attribute
   * starts at level 15, and each further kvlist level costs four: kvlistValue, values, KeyValue,
   * value), so this bound only bites on unknown fields, which are skipped without recursion but
   * would otherwise cost parser memory per level.
   */
  public static final int MAX_JSON_DEPTH = 512;

  /**
   * The longest string, in chars, that one JSON string may decode to. Bodies may reach 1 GiB, but
   * a single attribute or log body in the hundreds of megabytes is a mistake or an attack, and the
   * parser would hold it twice (char buffer and String) at two bytes a char.
   */
  public static final int MAX_STRING_CHARS = 256 * 1024 * 1024;

  /** OTLP field names are at most a few dozen characters; this only bounds unknown ones. */
  static final int MAX_NAME_CHARS = 1024;

  /** A double needs about 25 characters; a longer run of digits can only be an attack. */
  static final int MAX_NUMBER_CHARS = 1000;

  static final JsonFactory FACTORY =
      JsonFactory.builder()
          .streamReadConstraints(
              StreamReadConstraints.builder()
                  .maxNestingDepth(MAX_JSON_DEPTH)
                  .maxStringLength(MAX_STRING_CHARS)
                  .maxNameLength(MAX_NAME_CHARS)
                  .maxNumberLength(MAX_NUMBER_CHARS)
                  .build())
          .streamWriteConstraints(
              StreamWriteConstraints.builder().maxNestingDepth(MAX_JSON_DEPTH).build())
          // Bodies can carry secrets; a parse error must not quote them back into a log line.
          .disable(StreamReadFeature.INCLUDE_SOURCE_IN_LOCATION)
          // Field names are matched with switch/equals, so interning buys nothing, and a client
          // inventing unknown names would otherwise fill the JVM's string table for us.
          .disable(JsonFactory.Feature.INTERN_FIELD_NAMES)
          // Requests run on virtual threads, where a thread-local pool would allocate fresh
          // buffers for every request and keep them until the thread dies; a bounded shared
          // pool reuses them.
          .recyclerPool(JsonRecyclerPools.sharedBoundedPool())
          .build();

  private OtlpJson() {}

  /**
   * Decodes an OTLP/JSON logs export.
   *
   * @param body the request body, UTF-8 JSON; not modified, not retained
   * @param off where the JSON starts in {@code body}
   * @param len how many bytes it takes
   * @return the request, never null
   * @throws OtlpJsonException if the body is not an OTLP/JSON logs export; the message names the
   *     field path and what was wrong
   * @throws IndexOutOfBoundsException if {@code off} and {@code len} do not lie inside {@code body}
   */
  public static ExportLogsServiceRequest decodeLogs(byte[] body, int off, int len)
      throws OtlpJsonException {
    try (JsonInput in = open(body, off, len)) {
      ExportLogsServiceRequest.Builder b = ExportLogsServiceRequest.newBuilder();
      for (String f; (f = in.nextField()) != null; ) {
        switch (f) {
          case "resourceLogs", "resource_logs" -> {
            in.enterArray();
            while (in.nextElement()) b.addResourceLogs(LogsDecoder.resourceLogs(in));
          }
          default -> in.skip();
        }
      }
      in.finishDocument();
      return b.build();
    }
  }

  /**
   * Decodes an OTLP/JSON traces export. Parameters, result and exceptions as for {@link
   * #decodeLogs}.
   */
  public static ExportTraceServiceRequest decodeTraces(byte[] body, int off, int len)
      throws OtlpJsonException {
    try (JsonInput in = open(body, off, len)) {
      ExportTraceServiceRequest.Builder b = ExportTraceServiceRequest.newBuilder();
      for (String f; (f = in.nextField()) != null; ) {
        switch (f) {
          case "resourceSpans", "resource_spans" -> {
            in.enterArray();
            while (in.nextElement()) b.addResourceSpans(TraceDecoder.resourceSpans(in));
          }
          default -> in.skip();
        }
      }
      in.finishDocument();
      return b.build();
    }
  }

  /**
   * Decodes an OTLP/JSON metrics export. Parameters, result and exceptions as for {@link
   * #decodeLogs}.
   */
  public static ExportMetricsServiceRequest decodeMetrics(byte[] body, int off, int len)
      throws OtlpJsonException {
    try (JsonInput in = open(body, off, len)) {
      ExportMetricsServiceRequest.Builder b = ExportMetricsServiceRequest.newBuilder();
      for (String f; (f = in.nextField()) != null; ) {
        switch (f) {
          case "resourceMetrics", "resource_metrics" -> {
            in.enterArray();
            while (in.nextElement()) b.addResourceMetrics(MetricsDecoder.resourceMetrics(in));
          }
          default -> in.skip();
        }
      }
      in.finishDocument();
      return b.build();
    }
  }

  /**
   * Encodes any OTLP message (a request, a response such as {@code ExportLogsServiceResponse}, or
   * any part of one) as OTLP/JSON: lowerCamelCase names, trace and span ids as lowercase hex, other
   * bytes as padded standard base64, 64-bit integers as strings, enums as numbers, non-finite
   * doubles as {@code "NaN"}/{@code "Infinity"}/{@code "-Infinity"}, fields at their default value
   * left out. What this writes, the decoders read back to an equal message.
   *
   * @param m the message; not null
   * @return UTF-8 JSON, one object, no trailing newline
   * @throws IllegalArgumentException if {@code m} nests deeper than {@value #MAX_JSON_DEPTH} JSON
   *     levels, which the decoders would refuse anyway
   */
  public static byte[] encode(Message m) {
    return JsonEncoder.encode(FACTORY, Objects.requireNonNull(m, "m"));
  }

  private static JsonInput open(byte[] body, int off, int len) throws OtlpJsonException {
    Objects.checkFromIndexSize(off, len, body.length);
    JsonInput in = JsonInput.open(FACTORY, body, off, len);
    boolean ok = false;
    try {
      in.enterDocument();
      ok = true;
      return in;
    } finally {
      if (!ok) in.close();
    }
  }
}
