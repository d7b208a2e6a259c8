package mira.server.otlp;

/**
 * A request body: the first {@code length} bytes of {@code bytes}. The array may be longer than the
 * body (it grew while the body was read); nothing copies it to trim the tail.
 */
record Body(byte[] bytes, int length) {}
