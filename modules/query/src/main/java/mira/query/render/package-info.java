/**
 * Rendering rows and envelopes as JSON: log and span rows with their resource, scope, events and
 * links, values in their OTLP type, 64-bit integers as strings.
 *
 * <p>Invariant: a rendered row is a shape a client can post back to the OTLP/JSON receiver.
 */
package mira.query.render;
