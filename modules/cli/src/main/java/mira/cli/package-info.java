/**
 * The command line of {@code bin/mira}: one entry point, {@link mira.cli.Main}, that dispatches on
 * the first argument.
 *
 * <p>Invariant: usage errors exit 2, a refusal to start exits 1 with one line on stderr, a clean
 * stop exits 0.
 */
package mira.cli;
