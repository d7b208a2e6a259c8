package mira.wal;

/**
 * What opening the log found: frames handed back for replay, frames skipped because blocks already
 * hold them, frames the handler could not use, and damage (a torn or corrupt tail) per segment.
 *
 * @param replayed frames at or above their channel's watermark, handed to the handler
 * @param skipped frames below their channel's watermark (already published)
 * @param rejected frames the handler refused (they are retired: they will never decode)
 * @param damaged segments that ended in a torn or corrupt frame
 * @param unreadableBytes bytes after the last good frame of the damaged segments
 * @param notes one line per damaged segment, for the log
 */
public record Replayed(long replayed, long skipped, long rejected, int damaged, long unreadableBytes,
    java.util.List<String> notes) {}
