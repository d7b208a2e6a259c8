/**
 * OTLP/JSON: a hand-written decoder and encoder over Jackson's streaming API.
 *
 * <p>OTLP/JSON is not canonical proto3 JSON (ids are hex, 64-bit integers may be strings, field
 * names come in either case), so a reflective codec would silently decode ids into garbage. Every
 * rejection names the field that was wrong.
 */
package mira.proto.json;
