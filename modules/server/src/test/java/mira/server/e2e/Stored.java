package mira.server.e2e;

import io.opentelemetry.proto.collector.logs.v1.ExportLogsServiceRequest;
import io.opentelemetry.proto.logs.v1.LogRecord;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import mira.block.testing.LogsReadBack;
import mira.block.testing.MetricsReadBack;
import mira.block.testing.TracesReadBack;
import mira.proto.wire.Signal;

/**
 * What a node's published blocks hold, read with Arrow Java's reader through the mira.block
 * oracles, and what they should hold for a logs request.
 */
final class Stored {
  private Stored() {}

  static List<LogsReadBack.Flat> logs(Node node) throws Exception {
    List<LogsReadBack.Flat> out = new ArrayList<>();
    for (Path b : node.blocks(Signal.LOGS)) {
      out.addAll(LogsReadBack.readBack(b));
    }
    return out;
  }

  static List<TracesReadBack.Flat> spans(Node node) throws Exception {
    List<TracesReadBack.Flat> out = new ArrayList<>();
    for (Path b : node.blocks(Signal.TRACES)) {
      out.addAll(TracesReadBack.readBack(b));
    }
    return out;
  }

  static List<MetricsReadBack.Flat> metrics(Node node) throws Exception {
    List<MetricsReadBack.Flat> out = new ArrayList<>();
    for (Path b : node.blocks(Signal.METRICS)) {
      out.addAll(MetricsReadBack.readBack(b));
    }
    return out;
  }

  /** The request's records as a block should give them back, time rule applied. */
  static List<LogsReadBack.Flat> expectedLogs(ExportLogsServiceRequest request) {
    List<LogsReadBack.Flat> out = new ArrayList<>();
    for (LogsReadBack.Flat f : LogsReadBack.flatten(request)) {
      out.add(withEffectiveTime(f));
    }
    return out;
  }

  /**
   * The block's documented rule: a record without a time takes its observed time. (One with
   * neither takes the receive time, which a test cannot predict; the tests send none.)
   */
  static LogsReadBack.Flat withEffectiveTime(LogsReadBack.Flat f) {
    LogRecord r = f.record();
    if (r.getTimeUnixNano() != 0) {
      return f;
    }
    return new LogsReadBack.Flat(f.resource(), f.resourceSchema(), f.scope(), f.scopeSchema(),
        r.toBuilder().setTimeUnixNano(r.getObservedTimeUnixNano()).build());
  }
}
