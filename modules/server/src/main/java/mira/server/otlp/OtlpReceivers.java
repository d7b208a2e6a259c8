package mira.server.otlp;

import io.grpc.ServerInterceptors;
import io.helidon.http.encoding.ContentEncodingContext;
import io.helidon.webserver.grpc.GrpcRouting;
import io.helidon.webserver.http.HttpRouting;
import mira.proto.wire.Signal;
import mira.server.auth.Access;
import mira.server.auth.IngestGuard;
import mira.server.ingest.IngestSink;

/**
 * Wires the OTLP receivers into the two Helidon listeners. {@code limit} is
 * {@code ingest.max_request_bytes}; {@code sink} receives every export that decodes and fits.
 */
public final class OtlpReceivers {
  private final int limit;
  private final IngestSink sink;
  private final JsonDecoder json;
  private final Access access;

  /** As {@link #OtlpReceivers(long, IngestSink, Access)} with no ingest tokens. */
  public OtlpReceivers(long limit, IngestSink sink) {
    this(limit, sink, Access.open());
  }

  /**
   * @param limit the one size limit, in bytes, on a request as sent and after inflation (1 KiB..1 GiB)
   * @param sink where exports go; called on the request's (virtual) thread and may block
   * @param access whose ingest tokens every export must carry (checked before its body is read)
   */
  public OtlpReceivers(long limit, IngestSink sink, Access access) {
    if (limit < 1 || limit > Integer.MAX_VALUE - 8) {
      throw new IllegalArgumentException("limit out of range: " + limit);
    }
    this.limit = (int) limit;
    this.sink = sink;
    this.json = JsonDecoder.OTLP_JSON;
    this.access = access;
  }

  /** Adds {@code /v1/logs}, {@code /v1/traces} and {@code /v1/metrics} to the HTTP listener's routing. */
  public void routeHttp(HttpRouting.Builder routing) {
    for (Signal s : Signal.values()) {
      routing.any("/v1/" + s.dir(), new HttpExportHandler(s, limit, sink, json, access));
    }
  }

  /** Adds the three Export services to the gRPC listener's routing. */
  public void routeGrpc(GrpcRouting.Builder routing) {
    GrpcRefusalLog.install();
    for (Signal s : Signal.values()) {
      routing.service(ServerInterceptors.intercept(GrpcExport.service(s, limit, sink), new IngestGuard(access)));
    }
  }

  /**
   * The content-encoding context the HTTP listener must use: request bodies reach the handlers
   * undecoded (see {@link RawRequestBodies}).
   */
  public static ContentEncodingContext httpContentEncoding() {
    return new RawRequestBodies();
  }

  /**
   * The value for {@code GrpcConfig.maxReadBufferSize}: the limit itself, so Helidon never buffers
   * more than that for one message as sent. Helidon's refusal of a longer message is answered by the
   * receivers (see {@link GrpcExport}).
   */
  public int grpcMaxReadBufferSize() {
    return limit;
  }
}
