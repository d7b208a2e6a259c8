package mira.block.publish;

import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.file.DirectoryStream;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Comparator;
import java.util.Optional;
import java.util.stream.Stream;
import mira.block.catalog.BlockName;
import mira.block.index.Sidecars;
import mira.block.table.Batch;
import mira.block.table.Table;
import mira.fs.Fs;
import mira.proto.wire.Signal;
import org.apache.arrow.memory.BufferAllocator;

/**
 * Publishes sealed blocks of one signal for one node under {@code <data>/<signal>/}.
 *
 * <p>Steps: write every non-empty table and the sidecar indexes ({@link Sidecars}) into
 * {@code <signal>/.staging/<block name>} (created with create-not-exists, so a leftover is never
 * merged into a new block), fsync each file and the staging directory, rename it to {@code <signal>/p=<hour>/<block name>}, fsync the partition
 * directory and the signal directory (the partition may be new, and its own entry lives there).
 * The staging name is the final name, unique per block content, so two writers can never share one.
 *
 * <p>Thread-safe: shards of one signal publish concurrently with distinct sequence numbers.
 */
public final class Publisher {
  public static final String STAGING = ".staging";

  private final Path signalDir;
  private final Signal signal;
  private final int node;
  private final BufferAllocator allocator;
  private final Fs files;

  /**
   * @param dataDir the data directory (already checked)
   * @param allocator owned by the caller; no longer used while writing (tables are written from
   *     their heap columns), kept so callers need not change
   */
  public Publisher(Path dataDir, Signal signal, String node, BufferAllocator allocator) throws IOException {
    this(dataDir, signal, node, allocator, Fs.REAL);
  }

  /** As {@link #Publisher(Path, Signal, String, BufferAllocator)}, through {@code files} (tests inject faults). */
  public Publisher(Path dataDir, Signal signal, String node, BufferAllocator allocator, Fs files)
      throws IOException {
    this.files = files;
    this.signalDir = dataDir.resolve(signal.dir());
    this.signal = signal;
    this.node = BlockName.nodeId(node);
    this.allocator = allocator;
    files.createDirectoriesDurably(signalDir.resolve(STAGING));
  }

  public Signal signal() {
    return signal;
  }

  public int node() {
    return node;
  }

  /** {@code <data>/<signal>}. */
  public Path signalDir() {
    return signalDir;
  }

  /**
   * Publishes {@code batch} as block number {@code seq}.
   *
   * @param walHi the write-ahead log position the block covers (0 without a log)
   * @return the published block's directory
   * @throws IOException if any step fails; nothing is then visible and the staging directory is
   *     removed (best effort) if this call created it. {@link FileAlreadyExistsException} if the
   *     staging directory already exists: another writer (a second process given the same
   *     {@code --node}) is publishing the same block, and its directory is left to it.
   *     {@link UndurableBlockException} if the rename happened but the directory fsyncs after it
   *     failed: the block is visible and must be treated as published (never published again);
   *     call {@link #makeDurable} until it succeeds.
   */
  public Path publish(Batch batch, long seq, long walHi) throws IOException {
    if (batch.isEmpty()) {
      throw new IllegalArgumentException("empty block");
    }
    BlockName name = new BlockName(batch.minTime(), batch.maxTime(), node, seq, walHi);
    Path staging = signalDir.resolve(STAGING).resolve(name.dirName());
    // Until this succeeds the directory is not ours. A collision must fail without deleting the
    // other writer's directory: that writer would go on to rename whatever tables it wrote after.
    files.createDirectory(staging);
    Path target = signalDir.resolve(name.partition()).resolve(name.dirName());
    boolean published = false;
    try {
      for (Table t : batch.tables()) {
        if (t.rows() > 0) {
          TableWriter.write(t, t.rows(), staging.resolve(t.file()), files);
        }
      }
      Sidecars.write(batch, staging, files);
      files.fsyncDir(staging);
      files.createDirectories(target.getParent());
      if (Files.exists(target)) {
        throw new FileAlreadyExistsException(target.toString(), null, "block already published");
      }
      files.rename(staging, target);
      published = true;
    } finally {
      if (!published) {
        deleteTree(staging);
      }
    }
    // Visible from here on: a failure now must not make the caller publish these rows again.
    try {
      makeDurable(target);
    } catch (IOException e) {
      throw new UndurableBlockException(target, e);
    }
    return target;
  }

  /**
   * Makes the rename of the published block {@code target} durable: fsyncs its partition directory
   * and the signal directory. Idempotent; retried by the caller after an {@link UndurableBlockException}.
   */
  public void makeDurable(Path target) throws IOException {
    files.fsyncDir(target.getParent());
    files.fsyncDir(signalDir);
  }



  /**
   * The next sequence number for this node and signal: one above the highest published, or 0.
   * Read once at boot, before any shard publishes.
   */
  public long resumeSequence() throws IOException {
    return scanOwn().maxSeq + 1;
  }

  /**
   * Where this node's write-ahead log resumes for this signal: the highest {@code wal_hi} of its
   * published blocks (every frame below it is in some block), or 0.
   */
  public long walWatermark() throws IOException {
    return scanOwn().maxWalHi;
  }

  private record Own(long maxSeq, long maxWalHi) {}

  private Own scanOwn() throws IOException {
    long max = -1;
    long walHi = 0;
    try (DirectoryStream<Path> parts = Files.newDirectoryStream(signalDir, "p=*")) {
      for (Path p : parts) {
        try (DirectoryStream<Path> blocks = Files.newDirectoryStream(p)) {
          for (Path b : blocks) {
            Optional<BlockName> n = BlockName.parse(b.getFileName().toString());
            if (n.isPresent() && n.get().node() == node) {
              max = Math.max(max, n.get().seq());
              walHi = Math.max(walHi, n.get().walHi());
            }
          }
        }
      }
    }
    return new Own(max, walHi);
  }

  /**
   * Removes this node's staging directories left by a crash. Other nodes' are left alone: on a
   * shared data directory they may be publishing right now.
   *
   * @return how many were removed
   */
  public int sweepStaging() throws IOException {
    int n = 0;
    try (DirectoryStream<Path> s = Files.newDirectoryStream(signalDir.resolve(STAGING))) {
      for (Path p : s) {
        Optional<BlockName> b = BlockName.parse(p.getFileName().toString());
        if (b.isPresent() && b.get().node() == node) {
          deleteTree(p);
          n++;
        }
      }
    }
    return n;
  }

  private void deleteTree(Path root) {
    try {
      files.deleteTree(root);
    } catch (IOException e) {
      // Best effort: a leftover staging directory is removed at the next boot.
    }
  }
}
