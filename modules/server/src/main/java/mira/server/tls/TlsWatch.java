package mira.server.tls;

import java.io.IOException;
import java.lang.System.Logger;
import java.lang.System.Logger.Level;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * Notices when the certificate, key or CA file changes (modification time, size or file key, so a
 * Kubernetes secret's symlink swap counts) by polling, and then runs the reload. Polling rather
 * than a WatchService: a WatchService misses changes behind symlinks and on some volume types,
 * and a few stat calls every couple of seconds cost nothing.
 *
 * <p>One daemon thread; {@link #close} stops it.
 */
public final class TlsWatch implements AutoCloseable {
  private static final Logger LOG = System.getLogger(TlsWatch.class.getName());

  private final List<Path> files;
  private final Runnable reload;
  private final Duration period;
  private final Thread thread;
  private volatile boolean closed;

  public TlsWatch(List<Path> files, Duration period, Runnable reload) {
    this.files = List.copyOf(files);
    this.period = period;
    this.reload = reload;
    this.thread = Thread.ofPlatform().daemon().name("mira-tls-watch").unstarted(this::run);
  }

  public TlsWatch start() {
    thread.start();
    return this;
  }

  private void run() {
    List<Object> seen = stamp();
    while (!closed) {
      try {
        Thread.sleep(period);
      } catch (InterruptedException e) {
        return;
      }
      List<Object> now = stamp();
      if (!now.equals(seen)) {
        seen = now;
        LOG.log(Level.INFO, "a TLS file changed; reloading the certificate");
        try {
          reload.run();
        } catch (RuntimeException e) {
          LOG.log(Level.ERROR, "TLS reload failed: " + e);
        }
      }
    }
  }

  /** What identifies each file's current content cheaply; a missing file stamps as null. */
  private List<Object> stamp() {
    List<Object> out = new ArrayList<>(files.size());
    for (Path f : files) {
      try {
        BasicFileAttributes a = Files.readAttributes(f, BasicFileAttributes.class);
        out.add(List.of(a.lastModifiedTime(), a.size(), Objects.toString(a.fileKey())));
      } catch (IOException e) {
        out.add("missing");
      }
    }
    return out;
  }

  @Override
  public void close() {
    closed = true;
    thread.interrupt();
  }
}
