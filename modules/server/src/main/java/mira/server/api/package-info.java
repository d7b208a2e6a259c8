/**
 * The HTTP API on the http listener ({@code /api/v1/...}): JSON bodies written with Jackson's
 * streaming generator. 64-bit integers are JSON strings (a browser's number is a double), 32-bit
 * and smaller are numbers.
 */
package mira.server.api;
