package mira.bench.load;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.atomic.AtomicReferenceArray;

/**
 * Closed-loop readers: each thread asks the query classes in turn, the next question as soon as
 * the last is answered, until told to stop. Before starting, each class's route is probed once; a
 * route that answers 404 with a body that is not JSON is not served by this build (Mira's own
 * answers are JSON), and its class is skipped with a message rather than counted as errors.
 */
final class Readers {
  /** What one class did over the run. */
  static final class ClassResult {
    final QueryClass query;
    final Latencies latencies = new Latencies();
    final AtomicLong errors = new AtomicLong();
    final AtomicReference<String> firstError = new AtomicReference<>();
    volatile String skipped;

    ClassResult(QueryClass query) {
      this.query = query;
    }
  }

  private final HttpClient client;
  private final String base;
  private final Known known;
  private final long seed;
  private final List<ClassResult> results = new ArrayList<>();
  private final AtomicBoolean stop = new AtomicBoolean();
  private final List<Thread> threads = new ArrayList<>();
  // Per class, the samples of each reader thread, merged at the end.
  private final AtomicReferenceArray<Latencies[]> perThread;

  Readers(String host, int port, Known known, long seed, List<QueryClass> classes) {
    this.client = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
        .connectTimeout(Duration.ofSeconds(5)).build();
    this.base = "http://" + HttpExporter.hostForUri(host) + ":" + port;
    this.known = known;
    this.seed = seed;
    for (QueryClass q : classes) results.add(new ClassResult(q));
    this.perThread = new AtomicReferenceArray<>(classes.size());
  }

  List<ClassResult> results() {
    return results;
  }

  /** Probes every route; returns the classes that will run. */
  List<ClassResult> probe() {
    List<ClassResult> live = new ArrayList<>();
    for (ClassResult c : results) {
      try {
        HttpResponse<byte[]> r = send(c.query.probe());
        if (routeMissing(r)) {
          c.skipped = c.query.route() + " answered 404 (" + HttpExporter.text(r.body())
              + "): the query API is not served by this build";
        } else {
          live.add(c);
        }
      } catch (IOException e) {
        c.skipped = c.query.route() + " could not be reached: " + e;
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        c.skipped = "interrupted";
      }
    }
    return live;
  }

  static boolean routeMissing(HttpResponse<byte[]> r) {
    if (r.statusCode() != 404) return false;
    String body = new String(r.body(), StandardCharsets.UTF_8).strip();
    return !body.startsWith("{");
  }

  /** Starts {@code n} reader threads over the live classes. */
  void start(int n, List<ClassResult> live) {
    for (int i = 0; i < results.size(); i++) {
      Latencies[] l = new Latencies[n];
      for (int t = 0; t < n; t++) l[t] = new Latencies();
      perThread.set(i, l);
    }
    for (int t = 0; t < n; t++) {
      int reader = t;
      Thread th = new Thread(() -> loop(reader, live), "loadgen-reader-" + t);
      th.setDaemon(true);
      threads.add(th);
      th.start();
    }
  }

  private void loop(int reader, List<ClassResult> live) {
    SplittableRandom rnd = new SplittableRandom(seed * 31 + 7919 + reader);
    int turn = reader;
    while (!stop.get() && !live.isEmpty()) {
      ClassResult c = live.get(turn++ % live.size());
      if (c.skipped != null) {
        if (allSkipped(live)) return;
        continue;
      }
      QueryClass.Request q = c.query.next(known, rnd);
      if (q == null) {
        sleep(20);
        continue;
      }
      long t0 = System.nanoTime();
      try {
        HttpResponse<byte[]> r = send(q);
        long took = System.nanoTime() - t0;
        if (r.statusCode() == 200) {
          perThread.get(results.indexOf(c))[reader].add(took);
        } else if (routeMissing(r)) {
          c.skipped = c.query.route() + " answered 404 during the run: the query API is not served by this build";
        } else {
          error(c, "HTTP " + r.statusCode() + ": " + HttpExporter.text(r.body()));
        }
      } catch (IOException e) {
        error(c, e.toString());
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        return;
      }
    }
  }

  private static boolean allSkipped(List<ClassResult> live) {
    for (ClassResult c : live) {
      if (c.skipped == null) return false;
    }
    return true;
  }

  private static void error(ClassResult c, String detail) {
    c.errors.incrementAndGet();
    c.firstError.compareAndSet(null, detail);
  }

  private HttpResponse<byte[]> send(QueryClass.Request q) throws IOException, InterruptedException {
    HttpRequest.Builder b = HttpRequest.newBuilder(URI.create(base + q.path()))
        .timeout(Duration.ofSeconds(Exporter.DEADLINE_SECONDS));
    if (q.body() == null) {
      b.GET();
    } else {
      b.header("Content-Type", "application/json").POST(HttpRequest.BodyPublishers.ofString(q.body()));
    }
    return client.send(b.build(), HttpResponse.BodyHandlers.ofByteArray());
  }

  /** Stops the readers, waits for their last question, and merges their samples. */
  void stop() {
    stop.set(true);
    for (Thread t : threads) {
      try {
        t.join(Exporter.DEADLINE_SECONDS * 1000 + 1000);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
    }
    for (int i = 0; i < results.size(); i++) {
      Latencies[] l = perThread.get(i);
      if (l == null) continue;
      for (Latencies x : l) results.get(i).latencies.addAll(x);
    }
    client.close();
  }

  private static void sleep(long ms) {
    try {
      Thread.sleep(ms);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}
