/** The Mira process: config, Helidon listeners, OTLP receivers, ingest pipeline, HTTP API. */
module mira.server {
  requires mira.proto;
  requires mira.block;
  requires mira.wal;
  requires mira.query;
  requires mira.cluster;
  requires mira.mcp;
  requires mira.alert;
  requires io.helidon.webserver;
  requires io.helidon.webserver.http2;
  requires io.helidon.common.task;
  requires io.helidon.webserver.grpc;
  requires io.helidon.http.encoding;
  requires io.grpc;
  requires io.grpc.protobuf;
  requires proto.google.common.protos;
  requires com.github.luben.zstd_jni;
  requires com.fasterxml.jackson.core;
  requires org.snakeyaml.engine;
  requires java.logging;
  requires jdk.unsupported;

  // Only the command line starts a node; nothing else uses the server's packages.
  exports mira.server.config to mira.cli;
  exports mira.server.launch to mira.cli;
}
