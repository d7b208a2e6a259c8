/**
 * The configuration: one KYAML file, a closed set of keys, every value a double-quoted string.
 *
 * <p>Invariant: a {@link mira.server.config.Config} exists only if every key was known and every
 * value parsed; nothing is coerced, so what the operator wrote is what the process runs with.
 */
package mira.server.config;
