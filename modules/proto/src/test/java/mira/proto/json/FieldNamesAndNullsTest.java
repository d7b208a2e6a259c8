package mira.proto.json;

import static org.assertj.core.api.Assertions.assertThat;

import io.opentelemetry.proto.collector.logs.v1.ExportLogsServiceRequest;
import io.opentelemetry.proto.common.v1.AnyValue;
import io.opentelemetry.proto.logs.v1.LogRecord;
import io.opentelemetry.proto.trace.v1.Span;
import org.junit.jupiter.api.Test;

/** Either spelling of a field name, unknown fields skipped, null meaning unset. */
class FieldNamesAndNullsTest {
  private static final String CAMEL =
      """
      {"resourceLogs":[{"resource":{"attributes":[{"key":"a","value":{"stringValue":"x"}}],
        "droppedAttributesCount":1},"schemaUrl":"s1",
        "scopeLogs":[{"scope":{"name":"lib","droppedAttributesCount":2},"schemaUrl":"s2",
          "logRecords":[{"timeUnixNano":"1","observedTimeUnixNano":"2","severityNumber":9,
            "severityText":"INFO","body":{"kvlistValue":{"values":[{"key":"b","value":{"boolValue":true}}]}},
            "droppedAttributesCount":3,"flags":1,"traceId":"5b8efff798038103d269b633813fc60c",
            "spanId":"eee19b7ec3c1b174","eventName":"e"}]}]}]}
      """;

  @Test
  void snakeCaseAndCamelCaseMixInOneDocument() throws Exception {
    String mixed =
        """
        {"resource_logs":[{"resource":{"attributes":[{"key":"a","value":{"string_value":"x"}}],
          "dropped_attributes_count":1},"schema_url":"s1",
          "scopeLogs":[{"scope":{"name":"lib","dropped_attributes_count":2},"schemaUrl":"s2",
            "log_records":[{"time_unix_nano":"1","observedTimeUnixNano":"2","severity_number":9,
              "severityText":"INFO","body":{"kvlist_value":{"values":[{"key":"b","value":{"bool_value":true}}]}},
              "dropped_attributes_count":3,"flags":1,"trace_id":"5b8efff798038103d269b633813fc60c",
              "spanId":"eee19b7ec3c1b174","event_name":"e"}]}]}]}
        """;
    ExportLogsServiceRequest camel = Docs.logs(CAMEL);
    assertThat(camel.getResourceLogs(0).getScopeLogs(0).getLogRecords(0).getEventName()).isEqualTo("e");
    assertThat(Docs.logs(mixed)).isEqualTo(camel);
  }

  @Test
  void unknownFieldsAreSkipped() throws Exception {
    String withUnknowns =
        """
        {"future":{"resourceLogs":[1,2,{"x":[[]]}]},"resourceLogs":[{"resource":{"attributes":[{"key":"a",
          "value":{"stringValue":"x","futureKind":{"values":[{"values":[]}]}},"note":null}],
          "droppedAttributesCount":1,"entityRefs2":[{}]},"schemaUrl":"s1","n":1.5e300,
          "scopeLogs":[{"scope":{"name":"lib","droppedAttributesCount":2,"t":true},"schemaUrl":"s2",
            "logRecords":[{"timeUnixNano":"1","observedTimeUnixNano":"2","severityNumber":9,"x":"traceId",
              "severityText":"INFO","body":{"kvlistValue":{"values":[{"key":"b","value":{"boolValue":true}}],"more":[{}]}},
              "droppedAttributesCount":3,"flags":1,"traceId":"5b8efff798038103d269b633813fc60c",
              "spanId":"eee19b7ec3c1b174","eventName":"e","nested":[[[[{"a":[{"b":{}}]}]]]]}]}]}],
          "trailer":"done"}
        """;
    assertThat(Docs.logs(withUnknowns)).isEqualTo(Docs.logs(CAMEL));
  }

  @Test
  void unknownFieldsAreNotCountedAsAnyValueNesting() throws Exception {
    // 200 levels of an unknown shape: far past the AnyValue limit, inside the JSON limit.
    String deep = "[".repeat(200) + "]".repeat(200);
    LogRecord r = Docs.decodeLogRecord("\"futureField\":" + deep + ",\"severityText\":\"after\"");
    assertThat(r.getSeverityText()).isEqualTo("after");
  }

  @Test
  void nullMeansUnset() throws Exception {
    LogRecord r =
        Docs.decodeLogRecord(
            "\"timeUnixNano\":null,\"severityNumber\":null,\"severityText\":null,\"body\":null,"
                + "\"attributes\":null,\"flags\":null,\"traceId\":null,\"spanId\":null,\"eventName\":null");
    assertThat(r).isEqualTo(LogRecord.getDefaultInstance());
    assertThat(r.hasBody()).isFalse();
    Span s = Docs.decodeSpan("\"status\":null,\"kind\":null,\"links\":null");
    assertThat(s.hasStatus()).isFalse();
  }

  @Test
  void nullAnyValueMemberLeavesTheValueEmpty() throws Exception {
    var v = Docs.logs(Docs.attribute("{\"stringValue\":null}"))
        .getResourceLogs(0).getScopeLogs(0).getLogRecords(0).getAttributes(0);
    assertThat(v.hasValue()).isTrue();
    assertThat(v.getValue().getValueCase()).isEqualTo(AnyValue.ValueCase.VALUE_NOT_SET);
  }

  @Test
  void emptyObjectStillSetsAMessageField() throws Exception {
    Span s = Docs.decodeSpan("\"status\":{}");
    assertThat(s.hasStatus()).isTrue();
  }

  @Test
  void nullArrayElementIsRefused() {
    Docs.refusedAsLogs(Docs.logRecord("\"attributes\":[{\"key\":\"a\"},null]"))
        .withMessage(Docs.RECORD + ".attributes[1]: null is not allowed as an array element");
  }

  @Test
  void aBodyForAnotherSignalDecodesToAnEmptyRequest() throws Exception {
    // resourceSpans is unknown to the logs decoder and skipped like any unknown field; telling a
    // client it posted to the wrong path is the HTTP layer's job, which can see the empty result.
    assertThat(Docs.logs(Docs.span("\"name\":\"x\""))).isEqualTo(ExportLogsServiceRequest.getDefaultInstance());
  }
}
