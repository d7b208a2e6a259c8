/**
 * The OTLP receivers: OTLP/gRPC on the default socket and OTLP/HTTP ({@code POST /v1/logs},
 * {@code /v1/traces}, {@code /v1/metrics}) on the {@code http} socket. They turn a request into the
 * protobuf bytes of one Export*ServiceRequest and hand those to the
 * {@link mira.server.ingest.IngestSink}; what the sink answers becomes the status.
 *
 * <p>Invariant: one limit, {@code ingest.max_request_bytes}, bounds every buffer a request can make
 * the server allocate (the bytes as sent and the bytes after gzip or zstd inflation); no request
 * ever gets past it, and none is left without a status. A bad request is an expected outcome: it
 * gets a specific message and no stack trace in the log.
 */
package mira.server.otlp;
