/**
 * Bearer tokens: who may ingest and who may read. Two token files (ingest and read), each a set
 * of SHA-256 digests held in memory; a request is checked against the set for what it does.
 *
 * <p>Invariant: a token never leaves this package — not in a log line, an error message or an
 * exception — and a check takes the same time whichever stored token (if any) it matches.
 */
package mira.server.auth;
