package mira.proto.json;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonLocation;
import com.fasterxml.jackson.core.JsonParseException;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonStreamContext;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.core.exc.StreamConstraintsException;
import com.google.protobuf.ByteString;
import com.google.protobuf.Descriptors.EnumDescriptor;
import com.google.protobuf.Descriptors.EnumValueDescriptor;
import com.google.protobuf.UnsafeByteOperations;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;

/**
 * The decoders' view of one body: a cursor over Jackson tokens that reads OTLP/JSON scalars with
 * their leniencies, and turns every problem, Jackson's included, into an {@link
 * OtlpJsonException} naming the field.
 *
 * <p>Convention: every reader is called with the cursor on the first token of a value and leaves
 * it on the last token of that value (the same token for a scalar, the closing bracket for an
 * object or array). The path is never tracked; it is read from Jackson's own parsing context,
 * and only when an error is built.
 *
 * <p>Not thread-safe; one instance per body.
 */
final class JsonInput implements AutoCloseable {
  /** Paths longer than this many segments are shortened in the middle; the ends say the most. */
  private static final int MAX_PATH_SEGMENTS = 40;

  private final JsonParser p;
  private JsonToken token;

  private JsonInput(JsonParser p) {
    this.p = p;
  }

  static JsonInput open(JsonFactory factory, byte[] body, int off, int len)
      throws OtlpJsonException {
    try {
      return new JsonInput(factory.createParser(body, off, len));
    } catch (IOException e) {
      throw new OtlpJsonException("", "the body cannot be read as JSON: " + e.getMessage());
    }
  }

  // ---- structure ----

  /** Moves onto the first token, which must open an object. */
  void enterDocument() throws OtlpJsonException {
    if (advance() == null) throw error("the body is empty; expected a JSON object");
    if (token != JsonToken.START_OBJECT) {
      throw error("the top-level value must be a JSON object, got " + describe(token));
    }
  }

  /** Checks that nothing but whitespace follows the top-level object the cursor is closing. */
  void finishDocument() throws OtlpJsonException {
    if (advance() != null) {
      throw error("trailing content after the top-level object: " + describe(token));
    }
  }

  /** Checks that the current value is an object, so {@link #nextField} can walk it. */
  void enterObject() throws OtlpJsonException {
    if (token != JsonToken.START_OBJECT) throw wrongType("an object");
  }

  /**
   * Moves onto the value of the next field of the current object and returns the field's name, or
   * returns null at the end of the object. Fields whose value is {@code null} are passed over: in
   * OTLP/JSON null means "unset", which is what leaving the builder alone achieves.
   */
  String nextField() throws OtlpJsonException {
    while (true) {
      if (advance() == JsonToken.END_OBJECT) return null;
      String name = currentName();
      if (advance() != JsonToken.VALUE_NULL) return name;
    }
  }

  /** Checks that the current value is an array, so {@link #nextElement} can walk it. */
  void enterArray() throws OtlpJsonException {
    if (token != JsonToken.START_ARRAY) throw wrongType("an array");
  }

  /**
   * Moves onto the next element of the current array; false at its end. A null element is refused:
   * unlike a null field it cannot mean "unset", and dropping it would shift every later index.
   */
  boolean nextElement() throws OtlpJsonException {
    if (advance() == JsonToken.END_ARRAY) return false;
    if (token == JsonToken.VALUE_NULL) throw error("null is not allowed as an array element");
    return true;
  }

  /** Passes over the current value, however deep; Jackson counts brackets, it does not recurse. */
  void skip() throws OtlpJsonException {
    try {
      p.skipChildren();
      token = p.currentToken();
    } catch (IOException e) {
      throw translate(e);
    }
  }

  // ---- scalars ----

  String string() throws OtlpJsonException {
    if (token != JsonToken.VALUE_STRING) throw wrongType("a string");
    try {
      return p.getText();
    } catch (IOException e) {
      throw translate(e);
    }
  }

  boolean bool() throws OtlpJsonException {
    if (token == JsonToken.VALUE_TRUE) return true;
    if (token == JsonToken.VALUE_FALSE) return false;
    throw wrongType("true or false");
  }

  int int32() throws OtlpJsonException {
    return (int) integer(IntegerType.INT32);
  }

  /** A uint32 or fixed32, returned as the int with the same bits, as protobuf-java stores it. */
  int uint32() throws OtlpJsonException {
    return (int) integer(IntegerType.UINT32);
  }

  long int64() throws OtlpJsonException {
    return integer(IntegerType.INT64);
  }

  /** A uint64 or fixed64 up to 2^64-1, returned as the long with the same bits. */
  long uint64() throws OtlpJsonException {
    return integer(IntegerType.UINT64);
  }

  private long integer(IntegerType type) throws OtlpJsonException {
    try {
      return switch (token) {
        case VALUE_NUMBER_INT ->
            p.getNumberType() == JsonParser.NumberType.BIG_INTEGER
                ? type.check(p.getBigIntegerValue())
                : type.check(p.getLongValue());
        case VALUE_NUMBER_FLOAT -> type.check(NumberText.integral(p.getDecimalValue()));
        case VALUE_STRING -> NumberText.parseInteger(p.getText(), type);
        default -> throw wrongType(type.article() + " (a number or a decimal string)");
      };
    } catch (IllegalArgumentException e) {
      throw error(e.getMessage());
    } catch (IOException e) {
      throw translate(e);
    }
  }

  /** A double from a number, a numeric string, or "NaN", "Infinity", "-Infinity". */
  double float64() throws OtlpJsonException {
    try {
      return switch (token) {
        case VALUE_NUMBER_INT, VALUE_NUMBER_FLOAT -> p.getDoubleValue();
        case VALUE_STRING -> NumberText.parseDouble(p.getText());
        default -> throw wrongType("a number");
      };
    } catch (IllegalArgumentException e) {
      throw error(e.getMessage());
    } catch (IOException e) {
      throw translate(e);
    }
  }

  /**
   * An enum's number, from a number or from a value name of {@code type}. A number the enum does
   * not know is returned as is (proto3 enums are open); a name it does not know is refused.
   */
  int enumNumber(EnumDescriptor type) throws OtlpJsonException {
    if (token != JsonToken.VALUE_STRING) {
      if (token == JsonToken.VALUE_NUMBER_INT || token == JsonToken.VALUE_NUMBER_FLOAT) {
        return int32();
      }
      throw wrongType("a " + type.getName() + " number or name");
    }
    String name = string();
    EnumValueDescriptor v = type.findValueByName(name);
    if (v != null) return v.getNumber();
    if (NumberText.isDecimal(name)) return int32();
    throw error(NumberText.quote(name) + " is not a " + type.getName() + " name");
  }

  /** A trace id (16 bytes) or span id (8 bytes) written as hex in any case; "" means unset. */
  ByteString hexId(int bytes) throws OtlpJsonException {
    if (token != JsonToken.VALUE_STRING) throw wrongType("a hex string");
    try {
      int len = p.getTextLength();
      if (len == 0) return ByteString.EMPTY;
      return UnsafeByteOperations.unsafeWrap(
          HexId.decode(p.getTextCharacters(), p.getTextOffset(), len, bytes));
    } catch (IllegalArgumentException e) {
      throw error(e.getMessage());
    } catch (IOException e) {
      throw translate(e);
    }
  }

  /** Bytes written as base64, standard or URL-safe alphabet, padded or not. */
  ByteString base64() throws OtlpJsonException {
    String text = string();
    try {
      return UnsafeByteOperations.unsafeWrap(Base64Text.decode(text));
    } catch (IllegalArgumentException e) {
      throw error(e.getMessage());
    }
  }

  // ---- errors ----

  /** An error about the value under the cursor. */
  OtlpJsonException error(String problem) {
    return new OtlpJsonException(path(), problem);
  }

  private OtlpJsonException wrongType(String expected) {
    return error("expected " + expected + ", got " + describe(token));
  }

  private OtlpJsonException translate(IOException e) {
    if (e instanceof StreamConstraintsException c) return error(LimitText.describe(c));
    if (e instanceof JsonParseException j) {
      JsonLocation at = j.getLocation();
      String where =
          at == null ? "" : " at line " + at.getLineNr() + ", column " + at.getColumnNr();
      return error("malformed JSON" + where + ": " + j.getOriginalMessage());
    }
    return error("the body cannot be read as JSON: " + e.getMessage());
  }

  private JsonToken advance() throws OtlpJsonException {
    try {
      return token = p.nextToken();
    } catch (IOException e) {
      throw translate(e);
    }
  }

  private String currentName() throws OtlpJsonException {
    try {
      return p.currentName();
    } catch (IOException e) {
      throw translate(e);
    }
  }

  private static String describe(JsonToken t) {
    if (t == null) return "the end of the body";
    return switch (t) {
      case START_OBJECT -> "an object";
      case START_ARRAY -> "an array";
      case VALUE_STRING -> "a string";
      case VALUE_NUMBER_INT, VALUE_NUMBER_FLOAT -> "a number";
      case VALUE_TRUE, VALUE_FALSE -> "a boolean";
      case VALUE_NULL -> "null";
      default -> t.asString() == null ? t.name() : "'" + t.asString() + "'";
    };
  }

  /**
   * Renders Jackson's parsing context as {@code a[0].b.c[3]}. On an opening bracket Jackson has
   * already entered the new, still empty context, which renders as nothing, so the path ends at
   * the field that holds the value.
   */
  private String path() {
    List<JsonStreamContext> chain = new ArrayList<>();
    for (JsonStreamContext c = p.getParsingContext(); c != null && !c.inRoot(); c = c.getParent()) {
      chain.add(c);
    }
    StringBuilder sb = new StringBuilder();
    int n = chain.size();
    for (int i = n - 1; i >= 0; i--) {
      int fromTop = n - 1 - i;
      if (n > MAX_PATH_SEGMENTS && fromTop == MAX_PATH_SEGMENTS / 2) {
        sb.append("...");
        i = MAX_PATH_SEGMENTS / 2 - 1;
      }
      JsonStreamContext c = chain.get(i);
      if (c.inArray()) {
        if (c.getEntryCount() > 0) sb.append('[').append(c.getEntryCount() - 1).append(']');
      } else if (c.getCurrentName() != null) {
        if (!sb.isEmpty()) sb.append('.');
        sb.append(c.getCurrentName());
      }
    }
    return sb.toString();
  }

  @Override
  public void close() {
    try {
      p.close();
    } catch (IOException e) {
      // A parser over a byte array has nothing to flush or release that can fail.
    }
  }
}
