package mira.wal;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.TreeSet;
import java.util.concurrent.locks.ReentrantLock;
import java.util.zip.CRC32C;
import mira.fs.Fs;

/**
 * An append-only log of opaque bodies on a fixed number of channels (Mira uses one per signal).
 *
 * <p>{@link #append} writes one frame with one gathering write and no fsync: the bytes are in the
 * kernel once it returns, which survives the process dying but not the machine losing power;
 * {@link #sync} (called on a timer by the owner) bounds what a power cut can take. Every sequence
 * handed out stays <em>pending</em> until {@link #published} retires it, and a block's watermark
 * ({@link #watermarkFor}) is the oldest pending sequence of its channel that the block does not
 * hold, so a block never claims a frame a sibling has not yet stored.
 *
 * <p>Thread-safe: appends are serialised by one lock, inside which the caller's {@code then} runs
 * (so a frame is pending and queued before any other append can observe a later sequence).
 */
public final class Wal implements AutoCloseable {
  /** Roll to a new segment past this size. Segments are the unit of deletion. */
  public static final long SEGMENT_BYTES = 64L << 20;

  /**
   * The channel of publication records: written by {@link #published} once a block's rename is
   * durable, listing the sequences it holds, so replay can skip frames that are in a block even
   * when they sit above the watermark (a block sealed while a sibling still held an older frame).
   */
  static final int PUBLISHED = 255;

  /** What to do with each frame found at open that is not yet in a published block. */
  @FunctionalInterface
  public interface Replay {
    /**
     * @return false if the body is unusable (it will never decode); the frame is then retired
     */
    boolean frame(int channel, long seq, byte[] body);
  }

  /** Runs inside the log's lock once a frame is written (the caller enqueues the export there). */
  @FunctionalInterface
  public interface Then {
    void run(long seq);
  }

  private final Path dir;
  private final int channels;
  private final int maxBody;
  private final long segmentBytes;
  private final Fs files;
  private final ReentrantLock lock = new ReentrantLock();
  private final List<Segment> segments = new ArrayList<>();
  private final TreeSet<Long>[] pending;
  private FileChannel current;
  /** Segments rolled away from and not yet fsynced (see {@link #roll}). */
  private final List<FileChannel> unsynced = new ArrayList<>();
  private boolean dirDirty;
  /**
   * The first failed fsync, or null. Once an fsync fails, Linux may already have dropped the dirty
   * pages it could not write and cleared the error, so a later fsync that succeeds proves nothing
   * about them: every frame appended before the failure counts as never durable. Appends are
   * refused until all of those frames are retired by durable blocks; then the log rolls to a fresh
   * segment and acknowledges again (see {@link #sync}).
   */
  private IOException syncFailure;
  /** Frames below this sequence were written before {@link #syncFailure}. */
  private long failedBelow;
  /** Segments written before the failure: never forced again, closed once retired. */
  private final List<FileChannel> poisoned = new ArrayList<>();
  private long currentBytes;
  private long next;
  private long bytes;
  private volatile boolean closed;

  @SuppressWarnings("unchecked")
  private Wal(Path dir, int channels, int maxBody, long segmentBytes, Fs files) {
    this.dir = dir;
    this.files = files;
    this.channels = channels;
    this.maxBody = maxBody;
    this.segmentBytes = segmentBytes;
    this.pending = new TreeSet[channels];
    for (int i = 0; i < channels; i++) {
      pending[i] = new TreeSet<>();
    }
  }

  /**
   * Opens the log in {@code dir} (created if missing), replays every frame at or above its
   * channel's watermark into {@code replay} (those frames are pending again, keeping their
   * sequence), and starts a new segment for appends.
   *
   * @param watermarks per channel, one past the highest sequence any published block covers
   * @param maxBody the largest body accepted by {@link #append} and believed on read
   */
  public static Opened open(Path dir, int channels, int maxBody, long[] watermarks, Replay replay) throws IOException {
    return open(dir, channels, maxBody, watermarks, replay, SEGMENT_BYTES);
  }

  /** As {@link #open(Path, int, int, long[], Replay)} with a chosen segment size (tests). */
  static Opened open(Path dir, int channels, int maxBody, long[] watermarks, Replay replay, long segmentBytes)
      throws IOException {
    return open(dir, channels, maxBody, watermarks, replay, segmentBytes, Fs.REAL);
  }

  /** As {@link #open(Path, int, int, long[], Replay)}, writing through {@code files} (tests inject faults there). */
  public static Opened open(Path dir, int channels, int maxBody, long[] watermarks, Replay replay, Fs files)
      throws IOException {
    return open(dir, channels, maxBody, watermarks, replay, SEGMENT_BYTES, files);
  }

  /** As {@link #open(Path, int, int, long[], Replay, long)} writing through {@code files} (tests). */
  static Opened open(Path dir, int channels, int maxBody, long[] watermarks, Replay replay, long segmentBytes,
      Fs files) throws IOException {
    if (watermarks.length != channels) {
      throw new IllegalArgumentException(watermarks.length + " watermarks for " + channels + " channels");
    }
    Recovering r = recover(dir, channels, maxBody, watermarks, segmentBytes, files);
    return new Opened(r.wal(), r.replay(replay));
  }

  /** The log and what opening it replayed. */
  public record Opened(Wal wal, Replayed replayed) {}

  /**
   * Opens the log in {@code dir} as {@link #open(Path, int, int, long[], Replay, Fs)} does, but
   * hands back the frames to replay instead of replaying them: the log is ready for appends and
   * publications at once, and {@link Recovering#replay} reads the frames one at a time from their
   * segments afterwards. The owner can so start what consumes the frames first, and replay a log
   * of any size with backpressure, never holding more than one frame's body.
   */
  public static Recovering recover(Path dir, int channels, int maxBody, long[] watermarks, Fs files)
      throws IOException {
    return recover(dir, channels, maxBody, watermarks, SEGMENT_BYTES, files);
  }

  static Recovering recover(Path dir, int channels, int maxBody, long[] watermarks, long segmentBytes, Fs files)
      throws IOException {
    if (watermarks.length != channels) {
      throw new IllegalArgumentException(watermarks.length + " watermarks for " + channels + " channels");
    }
    files.createDirectoriesDurably(dir);
    Wal w = new Wal(dir, channels, maxBody, segmentBytes, files);
    Recovering r = w.recover(watermarks);
    w.roll();
    return r;
  }

  /** Where one frame to replay lies: its segment and the offset of its header. */
  private record Found(int channel, long seq, Path segment, long at, int len) {}

  /**
   * A log opened by {@link #recover}, with the frames it found that no published block holds. Each
   * is pending in the log until published or refused by the replay handler.
   */
  public static final class Recovering {
    private final Wal wal;
    private final List<Found> found;
    private final long skipped;
    private final int damaged;
    private final long unreadable;
    private final List<String> notes;
    private boolean replayed;

    private Recovering(Wal wal, List<Found> found, long skipped, int damaged, long unreadable, List<String> notes) {
      this.wal = wal;
      this.found = found;
      this.skipped = skipped;
      this.damaged = damaged;
      this.unreadable = unreadable;
      this.notes = notes;
    }

    /** The log, accepting appends. */
    public Wal wal() {
      return wal;
    }

    /** Frames to replay. */
    public int frames() {
      return found.size();
    }

    /**
     * Reads each frame found at open, in log order, and hands it to {@code replay}, which may block
     * (that is the backpressure). Once only.
     */
    public Replayed replay(Replay replay) throws IOException {
      if (replayed) {
        throw new IllegalStateException("already replayed");
      }
      replayed = true;
      long done = 0;
      long refused = 0;
      List<String> problems = new ArrayList<>(notes);
      FileChannel ch = null;
      Path open = null;
      try {
        for (Found f : found) {
          if (!f.segment().equals(open)) {
            if (ch != null) {
              ch.close();
            }
            ch = FileChannel.open(f.segment(), StandardOpenOption.READ);
            open = f.segment();
          }
          byte[] body = wal.reread(ch, f);
          if (body == null) {
            problems.add(open.getFileName() + ": the frame at offset " + f.at() + " changed after the log was opened");
          }
          if (body != null && replay.frame(f.channel(), f.seq(), body)) {
            done++;
          } else {
            wal.refused(f.channel(), f.seq());
            refused++;
          }
        }
      } finally {
        if (ch != null) {
          ch.close();
        }
      }
      found.clear();
      return new Replayed(done, skipped, refused, damaged, unreadable, problems);
    }
  }

  /** The body of a frame found at open, checked again, or null if it no longer checks. */
  private byte[] reread(FileChannel ch, Found f) throws IOException {
    ByteBuffer frame = ByteBuffer.allocate(Frame.HEADER + f.len() + Frame.TRAILER).order(ByteOrder.LITTLE_ENDIAN);
    if (!readFully(ch, frame, f.at())) {
      return null;
    }
    CRC32C crc = new CRC32C();
    crc.update(frame.array(), 0, Frame.HEADER + f.len());
    if ((int) crc.getValue() != frame.getInt(Frame.HEADER + f.len()) || frame.getLong(8) != f.seq()) {
      return null;
    }
    return Arrays.copyOfRange(frame.array(), Frame.HEADER, Frame.HEADER + f.len());
  }

  /** Retires a frame the replay handler could not use. */
  private void refused(int channel, long seq) {
    lock.lock();
    try {
      pending[channel].remove(seq);
    } finally {
      lock.unlock();
    }
  }

  /** Sees each whole, checksummed frame of a segment in order. */
  private interface FrameVisitor {
    void frame(int channel, long seq, byte[] body, long frameBytes, long at);
  }

  /**
   * Reads every good frame of {@code seg} into {@code visit}; returns a description of the damage
   * that stopped it (and the bytes left unread), or null if the whole segment was good.
   */
  private String scan(Segment seg, FrameVisitor visit, long[] unreadable) throws IOException {
    try (FileChannel ch = FileChannel.open(seg.path, StandardOpenOption.READ)) {
      long size = ch.size();
      long pos = 0;
      ByteBuffer header = ByteBuffer.allocate(Frame.HEADER).order(ByteOrder.LITTLE_ENDIAN);
      while (pos < size) {
        String problem;
        header.clear();
        if (!readFully(ch, header, pos)) {
          problem = "torn frame header";
        } else {
          header.flip();
          int magic = header.getInt(0);
          short version = header.getShort(4);
          int channel = header.get(6) & 0xFF;
          long seq = header.getLong(8);
          int len = header.getInt(16);
          if (magic != Frame.MAGIC) {
            problem = "bad magic";
          } else if (version != Frame.VERSION) {
            problem = "unsupported version " + version;
          } else if (len < 0 || len > maxBody) {
            problem = "frame length " + len + " outside 0.." + maxBody;
          } else if (pos + Frame.HEADER + len + Frame.TRAILER > size) {
            problem = "torn frame (" + len + " bytes claimed, " + (size - pos - Frame.HEADER) + " present)";
          } else {
            ByteBuffer body = ByteBuffer.allocate(len + Frame.TRAILER).order(ByteOrder.LITTLE_ENDIAN);
            readFully(ch, body, pos + Frame.HEADER);
            CRC32C crc = new CRC32C();
            crc.update(header.duplicate().rewind());
            crc.update(body.array(), 0, len);
            if ((int) crc.getValue() != body.getInt(len)) {
              problem = "checksum mismatch";
            } else if (channel >= channels && channel != PUBLISHED) {
              problem = "unknown channel " + channel;
            } else {
              long frame = Frame.HEADER + len + Frame.TRAILER;
              visit.frame(channel, seq, Arrays.copyOf(body.array(), len), frame, pos);
              pos += frame;
              continue;
            }
          }
        }
        unreadable[0] = size - pos;
        return seg.path.getFileName() + ": " + problem + " at offset " + pos + "; " + (size - pos)
            + " bytes after it cannot be replayed";
      }
      return null;
    }
  }

  private Recovering recover(long[] watermarks) throws IOException {
    List<Long> firsts = new ArrayList<>();
    for (Path p : files.list(dir, "*.wal")) {
      long first = Segment.parse(p.getFileName().toString());
      if (first >= 0) {
        firsts.add(first);
      }
    }
    firsts.sort(null);
    long[] maxSeq = {-1};
    for (long w : watermarks) {
      maxSeq[0] = Math.max(maxSeq[0], w - 1);
    }
    // Pass 1: which frames are known to be in a published block.
    java.util.HashSet<Long> inBlocks = new java.util.HashSet<>();
    long[] ignored = new long[1];
    for (long first : firsts) {
      Segment seg = new Segment(dir.resolve(Segment.name(first)), first);
      scan(seg, (channel, seq, body, bytes, at) -> {
        if (channel == PUBLISHED) {
          ByteBuffer b = ByteBuffer.wrap(body).order(ByteOrder.LITTLE_ENDIAN);
          while (b.remaining() >= 8) {
            inBlocks.add(b.getLong());
          }
        }
      }, ignored);
    }
    // Pass 2: find the rest (replayed later, one frame at a time, by Recovering.replay).
    long[] counts = new long[1]; // skipped
    List<Found> found = new ArrayList<>();
    int damaged = 0;
    long unreadable = 0;
    List<String> notes = new ArrayList<>();
    for (long first : firsts) {
      Segment seg = new Segment(dir.resolve(Segment.name(first)), first);
      // A segment's name is the first sequence handed out to it, even if that frame is unreadable:
      // new sequences (and the next segment's name) must stay above it.
      maxSeq[0] = Math.max(maxSeq[0], first);
      long[] lost = new long[1];
      String problem = scan(seg, (channel, seq, body, bytes, at) -> {
        maxSeq[0] = Math.max(maxSeq[0], seq);
        seg.lastSeq = Math.max(seg.lastSeq, seq);
        seg.bytes += bytes;
        this.bytes += bytes;
        if (channel == PUBLISHED) {
          return;
        }
        if (seq < watermarks[channel] || inBlocks.contains(seq)) {
          counts[0]++;
          return;
        }
        pending[channel].add(seq);
        found.add(new Found(channel, seq, seg.path, at, body.length));
      }, lost);
      if (problem != null) {
        damaged++;
        unreadable += lost[0];
        notes.add(problem);
      }
      segments.add(seg);
    }
    next = maxSeq[0] + 1;
    return new Recovering(this, found, counts[0], damaged, unreadable, notes);
  }

  private static boolean readFully(FileChannel ch, ByteBuffer b, long pos) throws IOException {
    while (b.hasRemaining()) {
      int n = ch.read(b, pos + b.position());
      if (n < 0) {
        return false;
      }
    }
    return true;
  }

  /**
   * Starts a new segment. The previous one's fsync and the directory entry of the new one are left
   * to the next {@link #sync}: a roll happens inside an append, on the acknowledgement path, where an
   * fsync would put tens of milliseconds in front of one export in every 64 MiB (measured: the 1 MiB
   * append's p99 was 49 ms with the fsync here).
   *
   * <p>The new segment is opened before anything changes: if that fails the old segment stays
   * current (and is still forced by every sync), nothing is queued, and the next append tries the
   * roll again.
   */
  private void roll() throws IOException {
    Segment seg = new Segment(dir.resolve(Segment.name(next)), next);
    FileChannel opened = files.create(seg.path);
    if (current != null) {
      unsynced.add(current);
    }
    current = opened;
    currentBytes = 0;
    segments.add(seg);
    dirDirty = true;
  }

  private void fsyncDir() throws IOException {
    files.fsyncDir(dir);
  }

  /**
   * Appends {@code body[off, off + len)} on {@code channel}, then runs {@code then} with the
   * frame's sequence while still holding the log's lock.
   *
   * @return the frame's sequence
   * @throws WalException if the frame could not be written (nothing of it remains in the log)
   */
  public long append(int channel, byte[] body, int off, int len, Then then) throws WalException {
    if (len > maxBody) {
      throw new IllegalArgumentException("body of " + len + " bytes exceeds " + maxBody);
    }
    lock.lock();
    try {
      if (closed) {
        throw new WalException("the write-ahead log is closed", null);
      }
      if (syncFailure != null) {
        throw new WalException("the write-ahead log could not be made durable (fsync failed: "
            + syncFailure.getMessage() + "); exports are refused until the " + pendingBelow(failedBelow)
            + " exports it held before the failure are stored in blocks", syncFailure);
      }
      long seq;
      try {
        seq = writeFrame(channel, body, off, len);
      } catch (IOException e) {
        throw new WalException("writing to the write-ahead log failed: " + e.getMessage(), e);
      }
      pending[channel].add(seq);
      then.run(seq);
      return seq;
    } finally {
      lock.unlock();
    }
  }

  /** Writes one frame with the next sequence (lock held); nothing of it remains if this throws. */
  private long writeFrame(int channel, byte[] body, int off, int len) throws IOException {
    long seq = next;
    ByteBuffer h = Frame.header(channel, seq, len);
    ByteBuffer t = Frame.trailer(h, body, off, len);
    ByteBuffer[] parts = {h, ByteBuffer.wrap(body, off, len), t};
    long frame = Frame.HEADER + (long) len + Frame.TRAILER;
    long at = currentBytes;
    try {
      if (currentBytes > 0 && currentBytes + frame > segmentBytes) {
        roll();
        at = 0;
      }
      long written = 0;
      while (written < frame) {
        written += current.write(parts);
      }
    } catch (IOException e) {
      undo(at);
      throw e;
    }
    currentBytes = at + frame;
    bytes += frame;
    next = seq + 1;
    Segment last = segments.getLast();
    last.lastSeq = seq;
    last.bytes += frame;
    return seq;
  }

  /** Cuts a partly written frame off the segment so the log never holds half of one. */
  private void undo(long at) {
    try {
      current.truncate(at);
      current.position(at);
    } catch (IOException ignored) {
      // If even the truncate fails the torn frame stays; replay stops at it and says so.
    }
  }

  /**
   * The watermark a block holding {@code seqs} of {@code channel} may claim: the oldest pending
   * sequence of the channel that is not in {@code seqs}, or one past every sequence handed out.
   * Errs low (re-ingesting a frame) rather than high (losing one).
   */
  public long watermarkFor(int channel, long[] seqs) {
    long[] sorted = seqs.clone();
    Arrays.sort(sorted);
    lock.lock();
    try {
      for (long p : pending[channel]) {
        if (Arrays.binarySearch(sorted, p) < 0) {
          return p;
        }
      }
      return next;
    } finally {
      lock.unlock();
    }
  }

  /**
   * Retires {@code seqs} of {@code channel}: their block's rename is durable. Also logs a
   * publication record listing them, so a replay after a crash skips them even if they sit above the
   * signal's watermark; if that record cannot be written the frames may be ingested a second time
   * after a crash (never lost), so the failure is not raised.
   */
  public void published(int channel, long[] seqs) {
    lock.lock();
    try {
      for (long s : seqs) {
        pending[channel].remove(s);
      }
      if (seqs.length > 0 && !closed) {
        ByteBuffer body = ByteBuffer.allocate(8 * seqs.length).order(ByteOrder.LITTLE_ENDIAN);
        for (long s : seqs) {
          body.putLong(s);
        }
        try {
          writeFrame(PUBLISHED, body.array(), 0, body.capacity());
        } catch (IOException e) {
          // Duplicates on the next replay are the worst case; the data itself is published.
        }
      }
    } finally {
      lock.unlock();
    }
  }

  /** Frames of every channel still pending below {@code seq} (lock held). */
  private int pendingBelow(long seq) {
    int n = 0;
    for (TreeSet<Long> p : pending) {
      n += p.headSet(seq).size();
    }
    return n;
  }

  /**
   * Records the first failed fsync (lock held by the caller or not; takes it): every segment
   * written so far is poisoned and appends stop until {@link #sync} heals the log.
   */
  private void failed(IOException e, List<FileChannel> rolled, FileChannel cur) {
    lock.lock();
    try {
      if (syncFailure == null) {
        syncFailure = e;
        failedBelow = next;
      }
      for (FileChannel c : rolled) {
        if (!poisoned.contains(c)) {
          poisoned.add(c);
        }
      }
      if (cur != null && !poisoned.contains(cur)) {
        poisoned.add(cur);
      }
      dirDirty = true;
    } finally {
      lock.unlock();
    }
  }

  /**
   * Makes everything appended so far durable: fsyncs the segments written since the last sync.
   *
   * <p>A failed fsync is not retried on the same segment (see {@link #syncFailure}): the log stops
   * accepting appends and throws the failure. Each later call checks whether every frame written
   * before the failure has been retired by a durable block; once so, it rolls to a new segment,
   * closes the poisoned ones unforced (their frames are all in blocks, so {@link #reclaim} deletes
   * them), fsyncs the directory, and appends are accepted again. Until then it returns quietly.
   *
   * @throws IOException the fsync that failed, when this call's fsync failed
   */
  public void sync() throws IOException {
    FileChannel c;
    List<FileChannel> rolled;
    boolean dir;
    lock.lock();
    try {
      if (syncFailure != null && !heal()) {
        return;
      }
      c = current;
      rolled = new ArrayList<>(unsynced);
      unsynced.clear();
      dir = dirDirty;
      dirDirty = false;
    } finally {
      lock.unlock();
    }
    try {
      for (FileChannel r : rolled) {
        r.force(false);
      }
      if (dir) {
        fsyncDir();
      }
      if (c != null && c.isOpen()) {
        c.force(false);
      }
    } catch (IOException e) {
      failed(e, rolled, c);
      throw e;
    }
    for (FileChannel r : rolled) {
      r.close();
    }
  }

  /**
   * With the lock held and the log failed: if no frame from before the failure is pending, starts
   * a new segment and lets the poisoned ones go. True if the log is healed.
   */
  private boolean heal() {
    if (pendingBelow(failedBelow) > 0 || closed) {
      return false;
    }
    try {
      FileChannel old = current;
      roll();
      // roll() queued the old segment for a force: it is poisoned, never forced again.
      unsynced.remove(old);
      if (!poisoned.contains(old)) {
        poisoned.add(old);
      }
    } catch (IOException e) {
      return false;
    }
    for (FileChannel p : poisoned) {
      unsynced.remove(p);
      try {
        p.close();
      } catch (IOException ignored) {
        // Closing a segment no frame of which is needed: nothing to lose.
      }
    }
    poisoned.clear();
    syncFailure = null;
    dirDirty = true;
    return true;
  }

  /** The fsync failure that stopped appends, or null while the log accepts them. */
  public String failure() {
    lock.lock();
    try {
      return syncFailure == null ? null : syncFailure.getMessage();
    } finally {
      lock.unlock();
    }
  }

  /**
   * Deletes segments whose every frame is published (below the oldest pending sequence of any
   * channel). The segment being appended to is never deleted while it may still be needed; once
   * every frame of the log is published and it holds at least {@link #retireBytes} of them, the
   * log rolls to a fresh segment first, so a node that has stopped receiving (or keeps up between
   * two seals) does not keep a segment's worth of frames that are all in blocks.
   *
   * @return bytes reclaimed
   */
  public long reclaim() throws IOException {
    List<Segment> doomed = new ArrayList<>();
    FileChannel retired = null;
    lock.lock();
    try {
      long oldest = next;
      for (TreeSet<Long> p : pending) {
        if (!p.isEmpty()) {
          oldest = Math.min(oldest, p.first());
        }
      }
      if (oldest == next && syncFailure == null && !closed && current != null && currentBytes >= retireBytes()) {
        FileChannel old = current;
        try {
          roll();
          // Every frame in it is in a durable block: it needs no force, only deleting.
          unsynced.remove(old);
          retired = old;
        } catch (IOException e) {
          // The new segment could not be made: the old one stays current and is tried again later.
        }
      }
      for (int i = 0; i < segments.size() - 1; i++) {
        Segment s = segments.get(i);
        if (s.lastSeq < oldest) {
          doomed.add(s);
        }
      }
      segments.removeAll(doomed);
    } finally {
      lock.unlock();
    }
    // Counted as recovery and append count: whole frames, not file sizes (a torn tail left by a
    // crash is on disk but was never in bytes()).
    long freed = 0;
    if (retired != null) {
      retired.close();
    }
    for (Segment s : doomed) {
      files.delete(s.path);
      freed += s.bytes;
    }
    if (!doomed.isEmpty()) {
      lock.lock();
      try {
        bytes -= freed;
      } finally {
        lock.unlock();
      }
      fsyncDir();
    }
    return freed;
  }

  /**
   * The fill of the current segment past which {@link #reclaim} retires it when every frame is
   * published: 1 MiB, or a quarter of a segment when segments are smaller (tests).
   */
  long retireBytes() {
    return Math.min(1L << 20, segmentBytes / 4);
  }

  /** Bytes of whole frames held in segments on disk (a torn tail is not counted). */
  public long bytes() {
    lock.lock();
    try {
      return bytes;
    } finally {
      lock.unlock();
    }
  }

  /** The next sequence {@link #append} will hand out. */
  public long nextSequence() {
    lock.lock();
    try {
      return next;
    } finally {
      lock.unlock();
    }
  }

  /** Sequences of {@code channel} appended and not yet published. */
  public int pendingCount(int channel) {
    lock.lock();
    try {
      return pending[channel].size();
    } finally {
      lock.unlock();
    }
  }

  /** Syncs and closes the current segment. Appends after this fail. */
  @Override
  public void close() throws IOException {
    lock.lock();
    try {
      if (closed) {
        return;
      }
      closed = true;
      for (FileChannel p : poisoned) {
        unsynced.remove(p);
        p.close();
      }
      boolean failed = syncFailure != null;
      for (FileChannel r : unsynced) {
        r.force(false);
        r.close();
      }
      unsynced.clear();
      if (current != null) {
        if (!failed) {
          current.force(false);
        }
        current.close();
      }
      if (!failed) {
        fsyncDir();
      }
    } finally {
      lock.unlock();
    }
  }
}
