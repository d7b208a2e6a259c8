package mira.server.api;

import com.fasterxml.jackson.core.JsonEncoding;
import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import io.helidon.http.HeaderNames;
import io.helidon.webserver.http.HttpRouting;
import io.helidon.webserver.http.ServerRequest;
import io.helidon.webserver.http.ServerResponse;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import mira.proto.wire.Signal;
import mira.server.ingest.Ingest;
import mira.server.ingest.Stats;
import mira.server.retention.RetentionSweeper;

/** {@code GET /api/v1/stats}: what the node has accepted, refused and stored, per signal. */
public final class StatsRoute {
  private static final JsonFactory JSON = new JsonFactory();

  private final String node;
  private final Ingest ingest;
  private final RetentionSweeper retention;
  private final long startedAtMillis = System.currentTimeMillis();

  /** @param retention the sweeper, or null where none runs (tests of ingest alone) */
  public StatsRoute(String node, Ingest ingest, RetentionSweeper retention) {
    this.node = node;
    this.ingest = ingest;
    this.retention = retention;
  }

  public void route(HttpRouting.Builder r) {
    r.get("/api/v1/stats", this::handle);
  }

  private void handle(ServerRequest req, ServerResponse res) throws IOException {
    res.header(HeaderNames.CONTENT_TYPE, "application/json");
    res.send(render());
  }

  /** The stats document; see docs/api.md. */
  byte[] render() throws IOException {
    ByteArrayOutputStream out = new ByteArrayOutputStream(1024);
    try (JsonGenerator g = JSON.createGenerator(out, JsonEncoding.UTF8)) {
      g.writeStartObject();
      g.writeStringField("node", node);
      g.writeStringField("uptime_ms", Long.toString(System.currentTimeMillis() - startedAtMillis));
      g.writeObjectFieldStart("signals");
      for (Signal s : Signal.values()) {
        Stats.Counters c = ingest.stats().of(s);
        g.writeObjectFieldStart(s.dir());
        g.writeStringField("records_accepted", Long.toString(c.recordsAccepted.sum()));
        g.writeStringField("exports_accepted", Long.toString(c.exportsAccepted.sum()));
        g.writeStringField("records_shed", Long.toString(c.recordsShed.sum()));
        g.writeStringField("exports_shed", Long.toString(c.exportsShed.sum()));
        g.writeStringField("exports_shed_memory", Long.toString(c.exportsShedForMemory.sum()));
        g.writeStringField("exports_invalid", Long.toString(c.exportsInvalid.sum()));
        g.writeStringField("records_failed", Long.toString(c.recordsFailed.sum()));
        g.writeStringField("blocks_published", Long.toString(c.blocksPublished.sum()));
        g.writeStringField("bytes_published", Long.toString(c.bytesPublished.sum()));
        g.writeStringField("publish_failures", Long.toString(c.publishFailures.sum()));
        g.writeObjectFieldStart("receiver_refused");
        g.writeStringField("method_not_allowed", Long.toString(c.refusedMethod.sum()));
        g.writeStringField("too_large", Long.toString(c.refusedTooLarge.sum()));
        g.writeStringField("unsupported_media_type", Long.toString(c.refusedMediaType.sum()));
        g.writeEndObject();
        g.writeStringField("stale_snapshots", Long.toString(c.staleSnapshots.sum()));
        g.writeNumberField("open_blocks", ingest.openBlocks(s));
        g.writeEndObject();
      }
      g.writeEndObject();
      g.writeStringField("wal_bytes", Long.toString(ingest.walBytes()));
      g.writeStringField("ingest_heap_bytes", Long.toString(ingest.heapHeld()));
      g.writeStringField("ingest_heap_budget_bytes", Long.toString(ingest.heapBudget()));
      String walFailure = ingest.walFailure();
      if (walFailure == null) {
        g.writeNullField("wal_failure");
      } else {
        g.writeStringField("wal_failure", walFailure);
      }
      if (retention != null) {
        g.writeObjectFieldStart("retention");
        g.writeStringField("ttl_ms", Long.toString(retention.ttl().toMillis()));
        g.writeStringField("last_sweep_unix_ms", Long.toString(retention.lastSweepMillis()));
        g.writeStringField("blocks_removed", Long.toString(retention.blocksRemoved()));
        g.writeStringField("bytes_removed", Long.toString(retention.bytesRemoved()));
        g.writeStringField("blocks_compacted", Long.toString(retention.blocksCompacted()));
        g.writeBooleanField("stalled", retention.stalled());
        if (retention.lastError() != null) {
          g.writeStringField("last_error", retention.lastError());
        }
        g.writeEndObject();
      }
      g.writeStringField("degraded_syncs", "0");
      g.writeEndObject();
    }
    return out.toByteArray();
  }
}
