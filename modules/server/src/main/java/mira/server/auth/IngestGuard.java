package mira.server.auth;

import io.grpc.Metadata;
import io.grpc.ServerCall;
import io.grpc.ServerCallHandler;
import io.grpc.ServerInterceptor;
import io.grpc.Status;

/**
 * OTLP/gRPC's check: a call without an ingest token is closed UNAUTHENTICATED before its message
 * is asked for, so nothing of it reaches the receiver. Applied to each Export service (not to the
 * whole listener), so the check travels with the route it guards.
 */
public final class IngestGuard implements ServerInterceptor {
  private static final Metadata.Key<String> AUTHORIZATION =
      Metadata.Key.of("authorization", Metadata.ASCII_STRING_MARSHALLER);

  private final Access access;

  public IngestGuard(Access access) {
    this.access = access;
  }

  @Override
  public <Q, R> ServerCall.Listener<Q> interceptCall(ServerCall<Q, R> call, Metadata headers, ServerCallHandler<Q, R> next) {
    String authorization = headers.get(AUTHORIZATION);
    if (access.allows(Access.Need.INGEST, authorization)) {
      return next.startCall(call, headers);
    }
    call.close(Status.UNAUTHENTICATED.withDescription(Challenge.message("OTLP export", authorization)), new Metadata());
    return new ServerCall.Listener<>() { };
  }
}
