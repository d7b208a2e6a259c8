package mira.query.result;

/**
 * A block a read skipped because it is damaged ({@code CorruptBlockException}); nothing from it is
 * in the answer.
 *
 * @param block the block's path under the data directory ({@code logs/p=<hour>/<name>})
 * @param reason what was wrong, naming the file
 */
public record Refused(String block, String reason) {}
