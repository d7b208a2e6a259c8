/**
 * TLS for both listeners from PEM files ({@code tls.cert}, {@code tls.key}, {@code tls.client_ca}):
 * parsing with the JDK alone, and swapping the certificate while the listeners run.
 *
 * <p>Invariant: a listener always has a whole, validated certificate and key; material that does
 * not load is never installed (at start it stops the start, at reload the old material stays).
 */
package mira.server.tls;
