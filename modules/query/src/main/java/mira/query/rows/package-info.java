/**
 * Reading matched rows out of an open block into result records: log and span rows with their
 * attributes, resource, scope, events and links, values in their OTLP type.
 *
 * <p>Invariant: rows are read while their block is open and hold no reference into it (every
 * string and byte array is copied), so a result outlives the mapping it came from.
 */
package mira.query.rows;
