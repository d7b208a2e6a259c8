package mira.bench;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import mira.wal.Wal;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

/**
 * The write-ahead log's append alone: one frame per invocation (what an acknowledged export
 * costs), no fsync, into a log in a temporary directory. Sample mode, so percentiles are reported.
 * Every 64 frames are retired together (as a published block retires its exports) and fully
 * published segments reclaimed, so the log stays bounded; that work is in the measured path, as
 * it is in the server. A background thread syncs the log every 200 ms, as the server's does, so
 * appends compete with fsyncs of the segment they write to and of segments rolled away from.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.SampleTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Fork(1)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
public class WalAppendBench {
  @Param({"4096", "1048576"})
  public int bodyBytes;

  private Path dir;
  private Wal wal;
  private byte[] body;
  private final long[] held = new long[64];
  private int count;
  private Thread syncer;
  private volatile boolean stop;

  @Setup(Level.Trial)
  public void open() throws IOException {
    dir = Files.createTempDirectory("mira-wal-bench");
    wal = Wal.open(dir, 3, 64 << 20, new long[3], (c, s, b) -> true).wal();
    body = Corpus.logs(Math.max(1, bodyBytes / 300), 1).toByteArray();
    body = java.util.Arrays.copyOf(body, bodyBytes);
    syncer = Thread.ofPlatform().daemon().name("wal-bench-sync").start(() -> {
      while (!stop) {
        try {
          Thread.sleep(200);
          wal.sync();
        } catch (InterruptedException e) {
          return;
        } catch (IOException e) {
          throw new java.io.UncheckedIOException(e);
        }
      }
    });
  }

  @Benchmark
  public long append() throws IOException {
    long seq = wal.append(0, body, 0, body.length, s -> { });
    held[count++] = seq;
    if (count == held.length) {
      wal.published(0, held);
      wal.reclaim();
      count = 0;
    }
    return seq;
  }

  @TearDown(Level.Trial)
  public void close() throws IOException, InterruptedException {
    stop = true;
    syncer.interrupt();
    syncer.join();
    wal.close();
    try (Stream<Path> s = Files.walk(dir)) {
      for (Path p : s.sorted(Comparator.reverseOrder()).toList()) {
        Files.delete(p);
      }
    }
  }
}
