package mira.wal;

import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

/**
 * How the log opens a new segment for appending: the seam a test uses to fail a roll. Called only
 * when a segment is started (once per {@link Wal#SEGMENT_BYTES}), never per frame, so the append path
 * pays nothing for it.
 */
@FunctionalInterface
interface SegmentFiles {
  /** The real filesystem: a new file, refused if one of that name exists. */
  SegmentFiles REAL = path -> FileChannel.open(path, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE);

  /** Creates {@code path} (which must not exist) and opens it for writing. */
  FileChannel create(Path path) throws IOException;
}
