/**
 * OTLP protobuf classes (generated from the published OTLP .proto files at build time) and
 * Mira's OTLP/JSON codec.
 */
module mira.proto {
  requires transitive com.google.protobuf;
  requires com.fasterxml.jackson.core;

  exports io.opentelemetry.proto.common.v1;
  exports io.opentelemetry.proto.resource.v1;
  exports io.opentelemetry.proto.logs.v1;
  exports io.opentelemetry.proto.trace.v1;
  exports io.opentelemetry.proto.metrics.v1;
  exports io.opentelemetry.proto.collector.logs.v1;
  exports io.opentelemetry.proto.collector.trace.v1;
  exports io.opentelemetry.proto.collector.metrics.v1;
  exports mira.proto.json;
  exports mira.proto.wire;
}
