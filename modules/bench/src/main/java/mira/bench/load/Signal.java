package mira.bench.load;

/** The three OTLP signals, with where each is sent on either transport. */
enum Signal {
  LOGS("logs", "/v1/logs", "opentelemetry.proto.collector.logs.v1.LogsService/Export"),
  TRACES("traces", "/v1/traces", "opentelemetry.proto.collector.trace.v1.TraceService/Export"),
  METRICS("metrics", "/v1/metrics", "opentelemetry.proto.collector.metrics.v1.MetricsService/Export");

  final String label;
  final String httpPath;
  final String grpcMethod;

  Signal(String label, String httpPath, String grpcMethod) {
    this.label = label;
    this.httpPath = httpPath;
    this.grpcMethod = grpcMethod;
  }
}
