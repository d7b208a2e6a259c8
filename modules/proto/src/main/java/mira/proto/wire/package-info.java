/**
 * OTLP at the protobuf wire level: the signal enum, a zero-allocation reader over request bytes,
 * and the checks an export must pass before it is acknowledged.
 *
 * <p>Invariant: nothing here allocates per record; a malformed export is reported with a
 * {@link mira.proto.wire.WireException} naming the field, never a runtime exception.
 */
package mira.proto.wire;
