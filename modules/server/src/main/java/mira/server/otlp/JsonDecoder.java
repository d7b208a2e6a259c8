package mira.server.otlp;

import mira.proto.json.OtlpJson;
import mira.proto.json.OtlpJsonException;
import mira.proto.wire.Signal;

/**
 * Turns an OTLP/JSON export into the protobuf bytes of the same Export*ServiceRequest. The only
 * place JSON enters the receivers: everything after it sees protobuf bytes.
 */
@FunctionalInterface
interface JsonDecoder {

  /**
   * @param body the inflated JSON body; only the first {@code length} bytes are the export
   * @return the serialized Export*ServiceRequest for {@code signal}
   * @throws BadBody if the JSON is not a valid export (400, naming the field) or cannot be handled
   */
  byte[] toProtobuf(Signal signal, byte[] body, int length) throws BadBody;

  /** OTLP/JSON through {@link OtlpJson}; errors are 400s naming the field. */
  JsonDecoder OTLP_JSON = (signal, body, length) -> {
    try {
      return switch (signal) {
        case LOGS -> OtlpJson.decodeLogs(body, 0, length).toByteArray();
        case TRACES -> OtlpJson.decodeTraces(body, 0, length).toByteArray();
        case METRICS -> OtlpJson.decodeMetrics(body, 0, length).toByteArray();
      };
    } catch (OtlpJsonException e) {
      throw new BadBody(400, "invalid OTLP/JSON: " + e.getMessage());
    }
  };
}
