package mira.proto.json;

import com.fasterxml.jackson.core.exc.StreamConstraintsException;

/** Turns Jackson's limit violations into messages that name Mira's limits, not Jackson's API. */
final class LimitText {
  private LimitText() {}

  static String describe(StreamConstraintsException e) {
    String m = String.valueOf(e.getOriginalMessage());
    // Jackson reports which constraint only in prose; an unrecognised wording still says "limit".
    if (m.startsWith("Document nesting depth")) {
      return "nesting deeper than " + OtlpJson.MAX_JSON_DEPTH
          + " levels of JSON objects and arrays";
    }
    if (m.startsWith("String value length")) {
      return "a string longer than " + OtlpJson.MAX_STRING_CHARS + " characters";
    }
    if (m.startsWith("Name length")) {
      return "a field name longer than " + OtlpJson.MAX_NAME_CHARS + " characters";
    }
    if (m.startsWith("Number value length")) {
      return "a number longer than " + OtlpJson.MAX_NUMBER_CHARS + " characters";
    }
    return "a decoding limit was exceeded: " + m;
  }
}
