package mira.fs.testing;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.MappedByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.channels.ReadableByteChannel;
import java.nio.channels.WritableByteChannel;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import mira.fs.Fs;

/**
 * A real filesystem underneath, with two powers over it: it fails chosen calls, and it loses power.
 *
 * <p><b>Failures.</b> {@link #fail} makes the n-th call of a kind (counted from when this instance
 * was made) throw: an {@link IOException} naming EIO or ENOSPC, or for a write a short write (part
 * of the buffer written, then the error), once or from then on.
 *
 * <p><b>Power loss.</b> Everything done through this instance is journalled until it is durable:
 * a file's bytes until {@code force} on its channel, a name (a created file or directory, a rename,
 * a delete) until {@link #fsyncDir} of its directory (the destination's, for a rename). {@link #cutAt}
 * makes the n-th call of any kind, and every call after it, throw {@link PowerCut} without touching
 * the disk; {@link #losePower} then undoes, newest first, every name change that is not durable and
 * cuts every file back to its last forced length. What is left on disk is the worst a real power cut
 * may leave (the kernel is allowed to have written none of it), which is what the tests restart on.
 *
 * <p>Not a model of everything a kernel may do: unsynced bytes are dropped whole, never torn in the
 * middle (the log's and the tables' checksums are tested against torn bytes separately), and a
 * rename's source directory is assumed to follow its destination's.
 *
 * <p>Thread-safe: every call takes this instance's lock, so counts are exact under concurrency
 * (though which thread gets the n-th call is then up to the scheduler).
 */
public final class FaultyFs implements Fs {
  /** The kinds of call counted and failed. */
  public enum Op { CREATE, OPEN_WRITE, WRITE, FORCE, TRUNCATE, MKDIR, RENAME, FSYNC_DIR, LIST, DELETE }

  /** How an injected failure looks to the caller. */
  public enum Failure {
    EIO("Input/output error"),
    ENOSPC("No space left on device"),
    /** For writes: some bytes written, then ENOSPC. Other calls fail as ENOSPC. */
    SHORT_WRITE("No space left on device");

    final String message;

    Failure(String message) {
      this.message = message;
    }
  }

  /** Thrown by every call once the power is cut. */
  public static final class PowerCut extends IOException {
    PowerCut(Op op, int call) {
      super("injected power cut at call " + call + " (" + op + ")");
    }
  }

  /** {@code op} null: the n-th call of any kind. */
  private record Plan(Op op, int nth, Failure failure, boolean sticky) {}

  /** A name change not yet durable, and how to undo it. */
  private record Change(Op op, Path path, Path from, Path dir, Path grave) {}

  private final Path graveyard;
  private final Map<Op, Integer> counts = new EnumMap<>(Op.class);
  private final List<Plan> plans = new ArrayList<>();
  private final List<Change> pending = new ArrayList<>();
  private final List<Op> history = new ArrayList<>();
  /** Files written through this instance: the length each had at its last successful force. */
  private final Map<Path, Long> durableLength = new HashMap<>();
  private final List<Channel> channels = new ArrayList<>();
  private int calls;
  private int cutAt = -1;
  private boolean cut;
  private int graves;

  /**
   * @param graveyard an empty directory outside the tree under test, on the same filesystem: deleted
   *     entries are moved there until their delete is durable, so a power cut can bring them back
   */
  public FaultyFs(Path graveyard) throws IOException {
    this.graveyard = Files.createDirectories(graveyard);
  }

  /** Fails the {@code nth} (1-based) call of {@code op} with {@code failure}, once. */
  public synchronized FaultyFs fail(Op op, int nth, Failure failure) {
    plans.add(new Plan(op, nth, failure, false));
    return this;
  }

  /** Fails the {@code nth} (1-based) call of whatever kind it is, once. */
  public synchronized FaultyFs failCall(int nth, Failure failure) {
    plans.add(new Plan(null, nth, failure, false));
    return this;
  }

  /** Fails the {@code nth} call of {@code op} and every later one (a disk gone bad). */
  public synchronized FaultyFs failFrom(Op op, int nth, Failure failure) {
    plans.add(new Plan(op, nth, failure, true));
    return this;
  }

  /** Cuts the power at the {@code nth} (1-based) call of any kind: it and every later call throw {@link PowerCut}. */
  public synchronized FaultyFs cutAt(int nth) {
    cutAt = nth;
    return this;
  }

  /** Calls of {@code op} so far. */
  public synchronized int calls(Op op) {
    return counts.getOrDefault(op, 0);
  }

  /** Calls of every kind so far. */
  public synchronized int calls() {
    return calls;
  }

  /** The kind of every call so far, in order (call n is element n - 1). */
  public synchronized List<Op> history() {
    return List.copyOf(history);
  }

  /** True once a call has hit the power cut. */
  public synchronized boolean isCut() {
    return cut;
  }

  /** Clears every planned failure (the disk is repaired); counts and the journal stay. */
  public synchronized void heal() {
    plans.clear();
  }

  /**
   * Counts a call and decides its fate: throws if it is the power cut (or after it) or a planned
   * failure; returns the failure for a short write (the caller writes part, then throws); else null.
   */
  private Failure enter(Op op) throws IOException {
    calls++;
    history.add(op);
    int n = counts.merge(op, 1, Integer::sum);
    if (cut || calls == cutAt) {
      cut = true;
      throw new PowerCut(op, calls);
    }
    for (Plan p : plans) {
      boolean hit = p.op() == null ? calls == p.nth() : p.op() == op && (p.sticky() ? n >= p.nth() : n == p.nth());
      if (hit) {
        if (p.failure() == Failure.SHORT_WRITE && op == Op.WRITE) {
          return p.failure();
        }
        throw new IOException("injected " + p.failure().name() + ": " + p.failure().message + " (" + op + " #" + n + ")");
      }
    }
    return null;
  }

  @Override
  public synchronized FileChannel create(Path file) throws IOException {
    enter(Op.CREATE);
    FileChannel ch = Fs.super.create(file);
    durableLength.put(file, 0L);
    pending.add(new Change(Op.CREATE, file, null, file.getParent(), null));
    return new Channel(file, ch);
  }

  @Override
  public synchronized FileChannel openWrite(Path file) throws IOException {
    enter(Op.OPEN_WRITE);
    boolean existed = Files.exists(file);
    FileChannel ch = Fs.super.openWrite(file);
    if (!existed) {
      durableLength.put(file, 0L);
      pending.add(new Change(Op.CREATE, file, null, file.getParent(), null));
    } else {
      // Cut to 0 bytes: none of the old content is durable any more (worst case).
      durableLength.put(file, 0L);
    }
    return new Channel(file, ch);
  }

  @Override
  public synchronized void createDirectory(Path dir) throws IOException {
    enter(Op.MKDIR);
    Fs.super.createDirectory(dir);
    pending.add(new Change(Op.MKDIR, dir, null, dir.getParent(), null));
  }

  @Override
  public synchronized void createDirectories(Path dir) throws IOException {
    enter(Op.MKDIR);
    List<Path> made = new ArrayList<>();
    for (Path p = dir.toAbsolutePath(); p != null && !Files.exists(p); p = p.getParent()) {
      made.add(0, p);
    }
    Fs.super.createDirectories(dir);
    for (Path p : made) {
      pending.add(new Change(Op.MKDIR, p, null, p.getParent(), null));
    }
  }

  @Override
  public synchronized void rename(Path from, Path to) throws IOException {
    enter(Op.RENAME);
    Fs.super.rename(from, to);
    moved(from, to);
    pending.add(new Change(Op.RENAME, to, from, to.getParent(), null));
  }

  @Override
  public synchronized void replace(Path from, Path to) throws IOException {
    enter(Op.RENAME);
    Path grave = null;
    if (Files.exists(to, LinkOption.NOFOLLOW_LINKS)) {
      // Keep the file being replaced: undoing the rename puts it back.
      grave = graveyard.resolve("g" + graves++);
      Files.move(to, grave, StandardCopyOption.ATOMIC_MOVE);
      moved(to, grave);
    }
    try {
      Fs.super.rename(from, to);
    } catch (IOException e) {
      if (grave != null) {
        Files.move(grave, to, StandardCopyOption.ATOMIC_MOVE);
        moved(grave, to);
      }
      throw e;
    }
    moved(from, to);
    pending.add(new Change(Op.RENAME, to, from, to.getParent(), grave));
  }

  @Override
  public synchronized void fsyncDir(Path dir) throws IOException {
    enter(Op.FSYNC_DIR);
    Fs.super.fsyncDir(dir);
    Path d = dir.toAbsolutePath().normalize();
    for (java.util.Iterator<Change> it = pending.iterator(); it.hasNext(); ) {
      Change c = it.next();
      if (c.dir().toAbsolutePath().normalize().equals(d)) {
        it.remove();
        if (c.op() == Op.DELETE || c.grave() != null) {
          // The delete (or the replaced file's disappearance) is durable: let it go for real.
          Fs.REAL.deleteTree(c.grave());
        }
      }
    }
  }

  @Override
  public synchronized List<Path> list(Path dir, String glob) throws IOException {
    enter(Op.LIST);
    return Fs.super.list(dir, glob);
  }

  @Override
  public synchronized boolean delete(Path p) throws IOException {
    enter(Op.DELETE);
    if (!Files.exists(p, LinkOption.NOFOLLOW_LINKS)) {
      return false;
    }
    if (Files.isDirectory(p, LinkOption.NOFOLLOW_LINKS)) {
      try (Stream<Path> s = Files.list(p)) {
        if (s.findAny().isPresent()) {
          throw new java.nio.file.DirectoryNotEmptyException(p.toString());
        }
      }
    }
    Path grave = graveyard.resolve("g" + graves++);
    Files.move(p, grave, StandardCopyOption.ATOMIC_MOVE);
    moved(p, grave);
    pending.add(new Change(Op.DELETE, p, null, p.getParent(), grave));
    return true;
  }

  /** Renames the bookkeeping of every tracked file at or under {@code from}. */
  private void moved(Path from, Path to) {
    Map<Path, Long> moved = new HashMap<>();
    for (java.util.Iterator<Map.Entry<Path, Long>> it = durableLength.entrySet().iterator(); it.hasNext(); ) {
      Map.Entry<Path, Long> e = it.next();
      if (e.getKey().startsWith(from)) {
        moved.put(to.resolve(from.relativize(e.getKey())), e.getValue());
        it.remove();
      }
    }
    durableLength.putAll(moved);
    for (Channel c : channels) {
      if (c.path.startsWith(from)) {
        c.path = to.resolve(from.relativize(c.path));
      }
    }
    // Changes journalled under a moved directory now live under its new name (and move back with
    // it when a power cut undoes the move). A change of the moved entry itself keeps the old name:
    // it happened to that name (a mkdir of a staging directory that is later renamed undoes the
    // staging name, never the block the rename made).
    for (int i = 0; i < pending.size(); i++) {
      Change c = pending.get(i);
      pending.set(i, new Change(c.op(), inside(c.path(), from, to), inside(c.from(), from, to), atOrInside(c.dir(), from, to),
          c.grave()));
    }
  }

  private static Path inside(Path p, Path from, Path to) {
    return p != null && p.startsWith(from) && !p.equals(from) ? to.resolve(from.relativize(p)) : p;
  }

  private static Path atOrInside(Path p, Path from, Path to) {
    return p != null && p.startsWith(from) ? to.resolve(from.relativize(p)) : p;
  }

  /**
   * What a power cut leaves: every name change not made durable is undone, newest first, and every
   * file written through this instance is cut to its last forced length. Afterwards the instance is
   * spent (every call throws); restart on {@link Fs#REAL} or a new instance.
   */
  public synchronized void losePower() throws IOException {
    cut = true;
    for (int i = pending.size() - 1; i >= 0; i--) {
      Change c = pending.get(i);
      switch (c.op()) {
        case CREATE -> {
          Files.deleteIfExists(c.path());
          durableLength.remove(c.path());
        }
        case MKDIR -> {
          if (Files.exists(c.path(), LinkOption.NOFOLLOW_LINKS)) {
            dropTracked(c.path());
            Fs.REAL.deleteTree(c.path());
          }
        }
        case RENAME -> {
          if (Files.exists(c.path(), LinkOption.NOFOLLOW_LINKS)) {
            Files.move(c.path(), c.from(), StandardCopyOption.ATOMIC_MOVE);
            moved(c.path(), c.from());
          }
          if (c.grave() != null) {
            Files.move(c.grave(), c.path(), StandardCopyOption.ATOMIC_MOVE);
            moved(c.grave(), c.path());
          }
        }
        case DELETE -> {
          Files.move(c.grave(), c.path(), StandardCopyOption.ATOMIC_MOVE);
          moved(c.grave(), c.path());
        }
        default -> throw new IllegalStateException(c.op().toString());
      }
    }
    pending.clear();
    for (Map.Entry<Path, Long> e : durableLength.entrySet()) {
      Path f = e.getKey();
      if (Files.isRegularFile(f, LinkOption.NOFOLLOW_LINKS) && Files.size(f) > e.getValue()) {
        try (FileChannel ch = FileChannel.open(f, java.nio.file.StandardOpenOption.WRITE)) {
          ch.truncate(e.getValue());
        }
      }
    }
  }

  private void dropTracked(Path dir) {
    durableLength.keySet().removeIf(p -> p.startsWith(dir));
  }

  /** A real channel whose writes, truncates and forces are counted, failed and journalled. */
  private final class Channel extends FileChannel {
    /** Where the file is now: {@link #moved} follows renames of it or of a directory above it. */
    private Path path;
    private final FileChannel ch;

    Channel(Path file, FileChannel ch) {
      this.path = file;
      this.ch = ch;
      channels.add(this);
    }

    private int shortWrite(ByteBuffer src, long pos, boolean positional) throws IOException {
      int half = src.remaining() / 2;
      ByteBuffer part = src.slice(src.position(), half);
      int n = positional ? ch.write(part, pos) : ch.write(part);
      src.position(src.position() + n);
      throw new IOException("injected SHORT_WRITE: " + n + " bytes written, then: " + Failure.SHORT_WRITE.message);
    }

    @Override
    public int write(ByteBuffer src) throws IOException {
      synchronized (FaultyFs.this) {
        if (enter(Op.WRITE) != null) {
          return shortWrite(src, 0, false);
        }
        return ch.write(src);
      }
    }

    @Override
    public long write(ByteBuffer[] srcs, int offset, int length) throws IOException {
      synchronized (FaultyFs.this) {
        if (enter(Op.WRITE) != null) {
          for (int i = offset; i < offset + length; i++) {
            if (srcs[i].hasRemaining()) {
              shortWrite(srcs[i], 0, false);
            }
          }
          throw new IOException("injected SHORT_WRITE: nothing to write");
        }
        return ch.write(srcs, offset, length);
      }
    }

    @Override
    public int write(ByteBuffer src, long position) throws IOException {
      synchronized (FaultyFs.this) {
        if (enter(Op.WRITE) != null) {
          return shortWrite(src, position, true);
        }
        return ch.write(src, position);
      }
    }

    @Override
    public FileChannel truncate(long size) throws IOException {
      synchronized (FaultyFs.this) {
        enter(Op.TRUNCATE);
        ch.truncate(size);
        for (Map.Entry<Path, Long> e : durableLength.entrySet()) {
          if (e.getKey().equals(path) && e.getValue() > size) {
            e.setValue(size);
          }
        }
        return this;
      }
    }

    @Override
    public void force(boolean metaData) throws IOException {
      synchronized (FaultyFs.this) {
        enter(Op.FORCE);
        ch.force(metaData);
        durableLength.put(path, ch.size());
      }
    }

    @Override
    public int read(ByteBuffer dst) throws IOException {
      return ch.read(dst);
    }

    @Override
    public long read(ByteBuffer[] dsts, int offset, int length) throws IOException {
      return ch.read(dsts, offset, length);
    }

    @Override
    public int read(ByteBuffer dst, long position) throws IOException {
      return ch.read(dst, position);
    }

    @Override
    public long position() throws IOException {
      return ch.position();
    }

    @Override
    public FileChannel position(long newPosition) throws IOException {
      ch.position(newPosition);
      return this;
    }

    @Override
    public long size() throws IOException {
      return ch.size();
    }

    @Override
    public long transferTo(long position, long count, WritableByteChannel target) throws IOException {
      return ch.transferTo(position, count, target);
    }

    @Override
    public long transferFrom(ReadableByteChannel src, long position, long count) throws IOException {
      throw new UnsupportedOperationException("transferFrom is not behind the seam");
    }

    @Override
    public MappedByteBuffer map(MapMode mode, long position, long size) throws IOException {
      if (mode != MapMode.READ_ONLY) {
        throw new UnsupportedOperationException("writable mappings are not behind the seam");
      }
      return ch.map(mode, position, size);
    }

    @Override
    public FileLock lock(long position, long size, boolean shared) throws IOException {
      return ch.lock(position, size, shared);
    }

    @Override
    public FileLock tryLock(long position, long size, boolean shared) throws IOException {
      return ch.tryLock(position, size, shared);
    }

    @Override
    protected void implCloseChannel() throws IOException {
      synchronized (FaultyFs.this) {
        channels.remove(this);
      }
      ch.close();
    }
  }
}
