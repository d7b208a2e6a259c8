package mira.server.otlp;

import io.helidon.http.Headers;
import io.helidon.http.encoding.ContentDecoder;
import io.helidon.http.encoding.ContentEncoder;
import io.helidon.http.encoding.ContentEncodingContext;
import io.helidon.http.encoding.ContentEncodingContextConfig;

/**
 * A listener's content-encoding context that leaves request bodies exactly as they arrived, whatever
 * their Content-Encoding, and keeps Helidon's defaults for responses.
 *
 * <p>Why: Helidon 4.5 either decodes a request body itself (with no size cap on the inflated bytes)
 * or, when it has no decoder for the encoding, or decoding is off, refuses the request with its own
 * 400 before any handler runs. OTLP needs 415 for an unknown encoding and a cap on the inflated size,
 * so the handler must see the raw bytes. Consequence for every route on the listener: a request body
 * arrives still encoded, and a handler that reads bodies must look at Content-Encoding itself.
 */
final class RawRequestBodies implements ContentEncodingContext {
  private final ContentEncodingContext responses = ContentEncodingContext.create();

  @Override
  public boolean contentDecodingEnabled() {
    return true;
  }

  @Override
  public boolean contentDecodingSupported(String encodingId) {
    return true;
  }

  @Override
  public ContentDecoder decoder(String encodingId) {
    return ContentDecoder.NO_OP;
  }

  @Override
  public boolean contentEncodingEnabled() {
    return responses.contentEncodingEnabled();
  }

  @Override
  public boolean contentEncodingSupported(String encodingId) {
    return responses.contentEncodingSupported(encodingId);
  }

  @Override
  public ContentEncoder encoder(String encodingId) {
    return responses.encoder(encodingId);
  }

  @Override
  public ContentEncoder encoder(Headers headers) {
    return responses.encoder(headers);
  }

  @Override
  public ContentEncodingContextConfig prototype() {
    return responses.prototype();
  }
}
