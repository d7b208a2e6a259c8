/**
 * OTLP/JSON: a hand-written decoder and a descriptor-driven encoder over Jackson's streaming API.
 * {@link mira.proto.json.OtlpJson} is the entry point.
 *
 * <p>OTLP/JSON is not canonical proto3 JSON (ids are hex, 64-bit integers may be strings, field
 * names come in either case), so a reflective codec would silently decode ids into garbage. Every
 * rejection names the field that was wrong.
 *
 * <p>Invariant: decoding is one pass over the tokens with no intermediate tree, and its stack
 * depth is bounded by {@link mira.proto.json.OtlpJson#MAX_ANY_VALUE_DEPTH}, not by the input.
 */
package mira.proto.json;
