package mira.proto.json;

import static mira.proto.json.Docs.RECORD;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

import io.opentelemetry.proto.collector.logs.v1.ExportLogsServiceRequest;
import java.util.Arrays;
import org.junit.jupiter.api.Test;

/** Malformed JSON, wrong types and wrong documents are refused with the path that was wrong. */
class DocumentErrorsTest {

  @Test
  void malformedJsonIsRefusedWithPathAndPosition() {
    Docs.refusedAsLogs(Docs.logRecord("\"severityText\":\"a\",}"))
        .withMessageStartingWith(RECORD + ".severityText: malformed JSON at line 1, column ")
        .withMessageContaining("Unexpected character ('}'");
  }

  @Test
  void truncatedBodyIsRefused() {
    String full = Docs.logRecord("\"severityText\":\"abc\"");
    Docs.refusedAsLogs(full.substring(0, full.length() - 10))
        .withMessageStartingWith(RECORD + ".severityText: malformed JSON")
        .withMessageContaining("end-of-input");
  }

  @Test
  void objectWhereAStringIsExpectedIsRefusedNamingThePath() {
    Docs.refusedAsLogs(Docs.logRecord("\"severityText\":{\"a\":1}"))
        .withMessage(RECORD + ".severityText: expected a string, got an object");
  }

  @Test
  void wrongContainerTypesAreRefusedNamingThePath() {
    Docs.refusedAsLogs("{\"resourceLogs\":[{\"scopeLogs\":{}}]}")
        .withMessage("resourceLogs[0].scopeLogs: expected an array, got an object");
    Docs.refusedAsLogs("{\"resourceLogs\":[{\"resource\":\"r\"}]}")
        .withMessage("resourceLogs[0].resource: expected an object, got a string");
    Docs.refusedAsLogs(Docs.logRecord("\"attributes\":[{\"key\":\"a\"},\"b\"]"))
        .withMessage(RECORD + ".attributes[1]: expected an object, got a string");
    Docs.refusedAsLogs("{\"resourceLogs\":[{},{},{\"scopeLogs\":[{},{\"logRecords\":[{},{\"flags\":true}]}]}]}")
        .withMessage("resourceLogs[2].scopeLogs[1].logRecords[1].flags: "
            + "expected a uint32 (a number or a decimal string), got a boolean");
  }

  @Test
  void boolMustBeAJsonBoolean() {
    Docs.refusedAsLogs(Docs.attribute("{\"boolValue\":\"true\"}"))
        .withMessage(RECORD + ".attributes[0].value.boolValue: expected true or false, got a string");
  }

  @Test
  void trailingContentAfterTheTopLevelObjectIsRefused() {
    Docs.refusedAsLogs("{} {}").withMessage("trailing content after the top-level object: an object");
    Docs.refusedAsLogs("{\"resourceLogs\":[]}x").withMessageContaining("malformed JSON at line 1, column ");
  }

  @Test
  void trailingWhitespaceIsFine() throws Exception {
    assertThat(Docs.logs("{}\n \t\r\n")).isEqualTo(ExportLogsServiceRequest.getDefaultInstance());
  }

  @Test
  void topLevelValueMustBeAnObject() {
    Docs.refusedAsLogs("[]").withMessage("the top-level value must be a JSON object, got an array");
    Docs.refusedAsLogs("\"x\"").withMessage("the top-level value must be a JSON object, got a string");
    Docs.refusedAsLogs("null").withMessage("the top-level value must be a JSON object, got null");
    Docs.refusedAsLogs("12").withMessage("the top-level value must be a JSON object, got a number");
  }

  @Test
  void emptyBodyIsRefused() {
    Docs.refusedAsLogs("").withMessage("the body is empty; expected a JSON object");
    Docs.refusedAsTraces(" \n ").withMessage("the body is empty; expected a JSON object");
  }

  @Test
  void invalidUtf8IsRefused() {
    byte[] b = Docs.utf8(Docs.logRecord("\"severityText\":\"ab\""));
    int at = new String(b, java.nio.charset.StandardCharsets.ISO_8859_1).indexOf("ab\"");
    b[at] = (byte) 0xC3; // a two-byte lead followed by an ASCII byte
    assertThatExceptionOfType(OtlpJsonException.class)
        .isThrownBy(() -> OtlpJson.decodeLogs(b, 0, b.length))
        .withMessageStartingWith(RECORD + ".severityText: malformed JSON")
        .withMessageContaining("UTF-8");
  }

  @Test
  void decodesOnlyTheGivenSliceOfTheArray() throws Exception {
    byte[] doc = Docs.utf8(Docs.logRecord("\"severityText\":\"sliced\""));
    byte[] padded = new byte[doc.length + 20];
    Arrays.fill(padded, (byte) '}');
    System.arraycopy(doc, 0, padded, 7, doc.length);
    ExportLogsServiceRequest r = OtlpJson.decodeLogs(padded, 7, doc.length);
    assertThat(r.getResourceLogs(0).getScopeLogs(0).getLogRecords(0).getSeverityText()).isEqualTo("sliced");
  }

  @Test
  void sliceOutsideTheArrayIsAProgrammingError() {
    byte[] b = Docs.utf8("{}");
    assertThatExceptionOfType(IndexOutOfBoundsException.class).isThrownBy(() -> OtlpJson.decodeLogs(b, 1, 2));
  }

  @Test
  void exceptionSeparatesPathFromProblem() {
    OtlpJsonException e =
        Docs.refusedAsLogs(Docs.logRecord("\"spanId\":\"00\"")).actual();
    assertThat(e.path()).isEqualTo(RECORD + ".spanId");
    assertThat(e.problem()).isEqualTo("expected 16 hex digits (8 bytes), got 2 characters");
    assertThat(e.getStackTrace()).as("a refusal is an answer, not a fault: no stack trace").isEmpty();
  }

  @Test
  void veryDeepPathsAreShortenedInTheMiddle() {
    // An error 30 AnyValue levels down: the path keeps its start and its end.
    String inner = "{\"intValue\":\"bad\"}";
    for (int i = 0; i < 30; i++) inner = "{\"arrayValue\":{\"values\":[" + inner + "]}}";
    OtlpJsonException e = Docs.refusedAsLogs(Docs.attribute(inner)).actual();
    assertThat(e.path()).startsWith(RECORD + ".attributes[0].value.arrayValue.values[0]")
        .contains("...").endsWith("arrayValue.values[0].intValue").hasSizeLessThan(500);
  }
}
