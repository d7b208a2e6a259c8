package mira.block.read;

import mira.block.catalog.BlockRef;
import java.io.IOException;
import java.lang.foreign.MemorySegment;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import mira.block.index.AttrIndex;
import mira.block.index.TraceIndex;
import mira.block.index.ZoneIndex;
import org.apache.arrow.memory.BufferAllocator;

/**
 * The block reader: every table file is memory-mapped read-only and its vectors point into the
 * mapping, so opening a table copies nothing and reading a column faults in only the pages it
 * touches.
 *
 * <p>On the first call to {@link #table}, every {@code *.arrow} file of the block is mapped (one
 * directory listing, one mapping per file; nothing is read). From then on the block reads
 * correctly even if retention unlinks its directory: a mapping keeps its file alive. A block that
 * retention was removing while it was being mapped (a listed file could not be opened, or the
 * directory was gone by the end) reads as having no tables, never as a block with some missing. A
 * table is
 * verified — both Arrow magics, the footer, the CRC32C of its body — the first time it is asked
 * for, and only then are vectors handed out; verification reads the file once, in place.
 *
 * <p>Memory: every buffer belongs to a child allocator of the one given to {@link #open}, named
 * after the block, which {@link #close} closes; a mapping's bytes are charged to it (accounting
 * only, nothing is allocated). Each file is unmapped when the last vector buffer over it is
 * released, which {@link #close} does.
 *
 * <p>The vectors are read-only views of a read-only mapping: writing to one, or reading a buffer
 * kept past {@link #close}, touches unmapped or protected memory and can crash the process rather
 * than throw. Not thread-safe: one thread opens and closes a block; the vectors themselves may be
 * read from any thread while the block is open.
 */
public final class MappedBlockReader implements BlockReader {
  /** A table file's mapping: where it lies in the process's address space. */
  public record Mapping(long address, long size) {
    /** True if {@code [address, address + length)} lies inside this mapping. */
    public boolean contains(long address, long length) {
      return address >= this.address && length >= 0 && address + length <= this.address + size;
    }
  }

  private final BlockRef ref;
  private final BufferAllocator allocator;
  /** File name → mapped table; null until the first {@link #table} call maps the block. */
  private Map<String, MappedTable> tables;
  /** Files that could not be mapped, with the reason; thrown when asked for. */
  private final Map<String, CorruptBlockException> unmappable = new HashMap<>();
  /** Set if the directory could not be listed (other than being gone); thrown for every table. */
  private CorruptBlockException listingFailure;
  private TraceIndex traceIndex;
  private AttrIndex attrIndex;
  private ZoneIndex zoneIndex;
  private boolean closed;

  private MappedBlockReader(BlockRef ref, BufferAllocator parent) {
    this.ref = ref;
    this.allocator = parent.newChildAllocator("block " + ref.dir().getFileName(), 0, Long.MAX_VALUE);
  }

  /**
   * Initialises the library classes the first table load of a process goes through, so that a
   * query does not pay for them: Arrow's {@code Schema} builds a JSON object mapper and its reader
   * and writer in its static initialiser, which was about half of the CPU of a restarted node's
   * first service listing (an AOT cache loads classes but does not run their initialisers).
   * Idempotent and cheap after the first call; a class that cannot be initialised is left to fail
   * where it is used, as before.
   */
  public static void initialiseClasses() {
    try {
      Class.forName("org.apache.arrow.vector.types.pojo.Schema", true, MappedBlockReader.class.getClassLoader());
    } catch (ClassNotFoundException | LinkageError e) {
      // Reported by the first table load instead.
    }
  }

  /**
   * Opens {@code ref} for reading; touches no file until a table is asked for.
   *
   * @param parent the allocator the block's child allocator is made from; it must outlive the block
   */
  public static MappedBlockReader open(BlockRef ref, BufferAllocator parent) {
    return new MappedBlockReader(ref, parent);
  }

  @Override
  public BlockRef ref() {
    return ref;
  }

  @Override
  public Optional<TableView> table(String file) throws CorruptBlockException {
    MappedTable t = mapped().get(file);
    if (t == null) {
      if (listingFailure != null) {
        throw new CorruptBlockException(ref.dir(), file, listingFailure.getMessage());
      }
      CorruptBlockException e = unmappable.get(file);
      if (e != null) {
        throw e;
      }
      return Optional.empty();
    }
    t.load();
    return Optional.of(t);
  }

  /**
   * Where {@code file} is mapped, or empty if the block has no such table. Maps the block if no
   * table has been asked for yet; verifies nothing.
   */
  public Optional<Mapping> mapping(String file) {
    MappedTable t = mapped().get(file);
    if (t == null) {
      return Optional.empty();
    }
    MemorySegment s = t.segment();
    return Optional.of(new Mapping(s.address(), s.byteSize()));
  }

  /** The mapped segment of {@code file}, or null (for tests: whether it is still mapped). */
  MemorySegment segment(String file) {
    MappedTable t = mapped().get(file);
    return t == null ? null : t.segment();
  }

  @Override
  public TraceIndex traceIndex() {
    ensureOpen();
    if (traceIndex == null) {
      traceIndex = TraceIndex.read(ref.dir());
    }
    return traceIndex;
  }

  @Override
  public AttrIndex attrIndex() {
    ensureOpen();
    if (attrIndex == null) {
      attrIndex = AttrIndex.read(ref.dir());
    }
    return attrIndex;
  }

  @Override
  public ZoneIndex zoneIndex() {
    ensureOpen();
    if (zoneIndex == null) {
      zoneIndex = ZoneIndex.read(ref.dir());
    }
    return zoneIndex;
  }

  private Map<String, MappedTable> mapped() {
    ensureOpen();
    if (tables == null) {
      tables = mapAll();
    }
    return tables;
  }

  private Map<String, MappedTable> mapAll() {
    Map<String, MappedTable> out = new TreeMap<>();
    boolean listed = false;
    try (DirectoryStream<Path> files = Files.newDirectoryStream(ref.dir(), "*.arrow")) {
      boolean vanished = false;
      for (Path p : files) {
        String name = p.getFileName().toString();
        try {
          out.put(name, new MappedTable(ref.dir(), name, allocator, MappedFile.map(p, allocator)));
        } catch (NoSuchFileException e) {
          // Listed, then unlinked: a published block loses files only to retention.
          vanished = true;
        } catch (IOException | RuntimeException e) {
          unmappable.put(name, new CorruptBlockException(ref.dir(), name, "cannot map: " + e));
        }
      }
      // Mapped files stay readable whatever happens to the directory from now on. But if retention
      // was removing the block while it was listed, what got mapped may be part of it: the block
      // then reads as absent (no tables) rather than as a block with tables missing.
      listed = !vanished && Files.isDirectory(ref.dir());
    } catch (NoSuchFileException e) {
      // The block is gone (retention): it has no tables.
      listed = true;
    } catch (IOException | RuntimeException e) {
      listingFailure = new CorruptBlockException(ref.dir(), "", "cannot list the block: " + e);
    } finally {
      if (!listed) {
        for (MappedTable t : out.values()) {
          t.close();
        }
        out.clear();
        unmappable.clear();
      }
    }
    return out;
  }

  private void ensureOpen() {
    if (closed) {
      throw new IllegalStateException("block " + ref.dir() + " is closed");
    }
  }

  /**
   * Releases every vector and mapping and closes the block's allocator.
   *
   * @throws IllegalStateException if a buffer of this block is still referenced elsewhere (a leak)
   */
  @Override
  public void close() {
    if (closed) {
      return;
    }
    closed = true;
    if (tables != null) {
      for (MappedTable t : tables.values()) {
        t.close();
      }
      tables = null;
    }
    allocator.close();
  }
}
