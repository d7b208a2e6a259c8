package mira.server.ingest;

import java.time.Duration;
import mira.proto.wire.Signal;

/**
 * Where the OTLP receivers hand an export once they have its protobuf bytes (inflated, within the
 * size limit, JSON already converted). The implementation validates, queues and acknowledges.
 *
 * <p>Thread-safe; called from many request threads at once. May block (up to the admission wait)
 * when every shard's queue is full.
 */
public interface IngestSink {

  /**
   * Submits one export request.
   *
   * @param signal which Export*ServiceRequest {@code body} holds
   * @param body the serialized Export*ServiceRequest; the sink must not keep a reference to the
   *     array or read it after returning, because the receivers hand it back to be reused for the next
   *     request (whatever the sink needs later, it copies or writes before it returns)
   * @param length how many bytes of {@code body} are the request
   * @return what to tell the client
   */
  Outcome submit(Signal signal, byte[] body, int length);

  /**
   * Asked by a receiver before it reads and converts a body: holds {@code bytes} of ingest's heap
   * budget for it until {@link #release} (the receiver's estimate of what reading and converting the
   * body will hold). Null if they were taken; else the {@link Retry} to answer with, counted as
   * shed, and nothing is held.
   */
  default Retry reserve(Signal signal, long bytes) {
    return null;
  }

  /** Gives back what a successful {@link #reserve} took. */
  default void release(long bytes) {}

  /**
   * Counts an export the receiver refused before it reached the pipeline: {@code httpStatus} is
   * 405 (wrong method), 413 (too large) or 415 (unsupported content type or encoding).
   */
  default void refusedAtReceiver(Signal signal, int httpStatus) {}

  /** What became of a submitted export. */
  sealed interface Outcome {}

  /** Stored (or durably logged): answer 200 / OK with an empty Export*ServiceResponse. */
  record Accepted(long records) implements Outcome {}

  /** The export does not decode or is invalid: 400 / INVALID_ARGUMENT, naming what was wrong. */
  record Invalid(String message) implements Outcome {}

  /** Overloaded or storage failing for now: 503 + Retry-After / UNAVAILABLE + RetryInfo. */
  record Retry(String message, Duration after) implements Outcome {}

  /** Can never be stored (e.g. cannot fit an empty block): 500 / INTERNAL. */
  record Permanent(String message) implements Outcome {}
}
