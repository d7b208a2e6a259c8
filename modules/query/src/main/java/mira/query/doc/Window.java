package mira.query.doc;

/** A time window, ns since the epoch, both ends inclusive. */
public record Window(long from, long to) {}
