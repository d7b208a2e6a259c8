package mira.block.read;

import java.io.IOException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import org.apache.arrow.memory.ArrowBuf;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.ForeignAllocation;

/**
 * One file mapped read-only into its own shared {@link Arena} and wrapped as an Arrow buffer.
 *
 * <p>The arena is closed (the file unmapped) by {@link #release0()}, which Arrow calls when the
 * last buffer sharing this allocation is released: the wrapper returned by {@link #map} and every
 * vector buffer sliced from it. Shared, not confined, because that last release may happen on any
 * thread.
 */
final class MappedFile extends ForeignAllocation {
  private final Arena arena;

  private MappedFile(Arena arena, MemorySegment segment) {
    super(segment.byteSize(), segment.address());
    this.arena = arena;
  }

  /** A mapped file: the Arrow buffer over all of it (one reference, the caller's) and its segment. */
  record Mapping(ArrowBuf buf, MemorySegment segment) {}

  /** Maps {@code file} and wraps it as one Arrow buffer charged to {@code allocator}. */
  static Mapping map(Path file, BufferAllocator allocator) throws IOException {
    Arena arena = Arena.ofShared();
    boolean owned = false;
    try {
      MemorySegment seg;
      try (FileChannel ch = FileChannel.open(file, StandardOpenOption.READ)) {
        seg = ch.map(FileChannel.MapMode.READ_ONLY, 0, ch.size(), arena);
      }
      ArrowBuf buf = allocator.wrapForeignAllocation(new MappedFile(arena, seg));
      owned = true;
      return new Mapping(buf, seg);
    } finally {
      if (!owned) {
        arena.close();
      }
    }
  }

  @Override
  protected void release0() {
    arena.close();
  }
}
