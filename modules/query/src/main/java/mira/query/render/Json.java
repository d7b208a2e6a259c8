package mira.query.render;

import com.fasterxml.jackson.core.JsonEncoding;
import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.util.JsonRecyclerPools;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;

/** The JSON generator factory for responses, and a helper to render one value to bytes. */
public final class Json {
  /**
   * Responses are written on query threads (platform threads), but a bounded shared pool is
   * still the safer default for buffers: callers may be virtual threads in-process.
   */
  public static final JsonFactory FACTORY = JsonFactory.builder()
      .recyclerPool(JsonRecyclerPools.sharedBoundedPool())
      .build();

  private Json() {}

  /** Something that writes one JSON value. */
  @FunctionalInterface
  public interface Writer<E extends Exception> {
    void write(JsonGenerator g) throws IOException, E;
  }

  /** Renders one JSON value into a new byte array. */
  public static <E extends Exception> byte[] render(Writer<E> w) throws E {
    ByteArrayOutputStream out = new ByteArrayOutputStream(512);
    try (JsonGenerator g = FACTORY.createGenerator(out, JsonEncoding.UTF8)) {
      w.write(g);
    } catch (IOException e) {
      // Writing to a byte array does not fail; a generator refusing its input is a bug here.
      throw new UncheckedIOException(e);
    }
    return out.toByteArray();
  }
}
