/**
 * Process start-up: the command line, the data-directory checks and the listeners' lifecycle.
 *
 * <p>Invariant: nothing is reported as listening, and /readyz does not answer, until both sockets
 * are bound; every refusal to start is one line on stderr and a non-zero exit.
 */
package mira.server.launch;
