/**
 * Comparing stored values with query scalars: the stored type decides, canonical text makes
 * {@code "200"} and {@code 200} meet, numbers compare exactly across int64 and double.
 *
 * <p>Invariant: one rule for every level and every table, written once here.
 */
package mira.query.match;
