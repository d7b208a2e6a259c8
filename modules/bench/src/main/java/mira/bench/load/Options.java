package mira.bench.load;

import java.nio.file.Path;
import java.time.Duration;

/**
 * The command line of the load generator, parsed and checked. Every run is bounded: without
 * {@code --for} or {@code --exports} it runs for {@link #DEFAULT_FOR}, and {@code --for} may not
 * exceed {@link #MAX_FOR}.
 */
final class Options {
  static final Duration DEFAULT_FOR = Duration.ofSeconds(10);
  static final Duration MAX_FOR = Duration.ofHours(1);

  static final String USAGE = """
      usage: loadgen [options]
        --target HOST:PORT     where to send exports, for the chosen protocol (sets --grpc or --http)
        --grpc HOST:PORT       OTLP/gRPC listener (default 127.0.0.1:4317)
        --http HOST:PORT       OTLP/HTTP listener, also where readers query (default 127.0.0.1:4318)
        --protocol P           grpc | http-protobuf | http-json (default grpc)
        --conns N              concurrent exporters, one connection each (default 4)
        --batch N              records per export: log records, spans or data points (default 1024)
        --for DURATION         stop starting exports after this long: 500ms, 30s, 5m (max 1h)
        --exports N            stop after N exports in all; with --for, whichever comes first
                               (neither given: --for 10s)
        --mix W                signal weights (default logs=1,traces=1,metrics=0.1)
        --seed N               generator seed (default 1)
        --warmup DURATION      send load for this long first, unmeasured (JIT, page cache, pools)
        --rate N               records per second in all, paced: exports start on a fixed schedule
                               (open loop) instead of as soon as the last one was answered
        --gzip                 compress exports (gRPC message compression, HTTP Content-Encoding)
        --tls-ca FILE          export over TLS (gRPC with ALPN h2, HTTPS), trusting the PEM CA in FILE
        --incident A-B         the incident window as fractions of the run (default 0.4-0.6; off)
        --pid PID              the server process: CPU-seconds and memory from /proc/PID
        --data-dir PATH        the server's data directory: bytes of blocks added by the run
        --readers N            closed-loop readers issuing the query classes (default 0)
        --json FILE            also append the JSON result line to FILE
        --help                 this text
      """;

  enum Protocol {
    GRPC("grpc"), HTTP_PROTOBUF("http-protobuf"), HTTP_JSON("http-json");

    final String label;

    Protocol(String label) {
      this.label = label;
    }
  }

  String grpcHost = "127.0.0.1";
  int grpcPort = 4317;
  String httpHost = "127.0.0.1";
  int httpPort = 4318;
  Protocol protocol = Protocol.GRPC;
  int conns = 4;
  int batch = 1024;
  Duration runFor;
  long exports;
  Duration warmup;
  /** Records per second in all when paced; 0 for closed-loop exporters. */
  long rate;
  Mix mix = Mix.parse("logs=1,traces=1,metrics=0.1");
  long seed = 1;
  boolean gzip;
  /** The PEM CA the server's certificate chains to; null for plain TCP. */
  Path tlsCa;
  double incidentFrom = 0.4;
  double incidentTo = 0.6;
  long pid = -1;
  Path dataDir;
  int readers;
  Path jsonFile;
  boolean help;

  /**
   * Parses {@code args}.
   *
   * @throws IllegalArgumentException with a message naming the option, for anything malformed
   */
  static Options parse(String... args) {
    Options o = new Options();
    String target = null;
    for (int i = 0; i < args.length; i++) {
      String a = args[i];
      if (a.equals("--help") || a.equals("-h")) {
        o.help = true;
        continue;
      }
      if (a.equals("--gzip")) {
        o.gzip = true;
        continue;
      }
      String name = a;
      String value;
      int eq = a.indexOf('=');
      if (a.startsWith("--") && eq > 0) {
        name = a.substring(0, eq);
        value = a.substring(eq + 1);
      } else {
        if (i + 1 >= args.length) throw new IllegalArgumentException(a + ": missing value (see --help)");
        value = args[++i];
      }
      switch (name) {
        case "--target" -> target = value;
        case "--grpc" -> {
          o.grpcHost = host(name, value);
          o.grpcPort = port(name, value);
        }
        case "--http" -> {
          o.httpHost = host(name, value);
          o.httpPort = port(name, value);
        }
        case "--protocol" -> o.protocol = protocol(value);
        case "--conns" -> o.conns = (int) positive(name, value, 1024);
        case "--batch" -> o.batch = (int) positive(name, value, 1 << 20);
        case "--for" -> o.runFor = duration(name, value);
        case "--warmup" -> o.warmup = duration(name, value);
        case "--rate" -> o.rate = positive(name, value, 100_000_000);
        case "--exports" -> o.exports = positive(name, value, Long.MAX_VALUE);
        case "--mix" -> o.mix = Mix.parse(value);
        case "--seed" -> o.seed = number(name, value);
        case "--incident" -> incident(o, value);
        case "--pid" -> o.pid = positive(name, value, Long.MAX_VALUE);
        case "--data-dir" -> o.dataDir = Path.of(value);
        case "--readers" -> o.readers = (int) nonNegative(name, value, 256);
        case "--json" -> o.jsonFile = Path.of(value);
        case "--tls-ca" -> o.tlsCa = Path.of(value);
        default -> throw new IllegalArgumentException("unknown option " + name + " (see --help)");
      }
    }
    if (target != null) {
      if (o.protocol == Protocol.GRPC) {
        o.grpcHost = host("--target", target);
        o.grpcPort = port("--target", target);
      } else {
        o.httpHost = host("--target", target);
        o.httpPort = port("--target", target);
      }
    }
    if (o.runFor == null && o.exports == 0) o.runFor = DEFAULT_FOR;
    return o;
  }

  private static Protocol protocol(String v) {
    for (Protocol p : Protocol.values()) {
      if (p.label.equals(v)) return p;
    }
    throw new IllegalArgumentException("--protocol: expected grpc, http-protobuf or http-json, got '" + v + "'");
  }

  private static void incident(Options o, String v) {
    if (v.equals("off")) {
      o.incidentFrom = 2;
      o.incidentTo = 2;
      return;
    }
    int dash = v.indexOf('-');
    try {
      if (dash < 0) throw new NumberFormatException();
      o.incidentFrom = Double.parseDouble(v.substring(0, dash));
      o.incidentTo = Double.parseDouble(v.substring(dash + 1));
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException("--incident: expected FROM-TO as fractions of the run, e.g. 0.4-0.6, or off");
    }
    if (!(0 <= o.incidentFrom && o.incidentFrom < o.incidentTo && o.incidentTo <= 1)) {
      throw new IllegalArgumentException("--incident: need 0 ≤ FROM < TO ≤ 1, got " + v);
    }
  }

  private static Duration duration(String name, String v) {
    try {
      return duration(v);
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException(name + ": " + e.getMessage());
    }
  }

  /** Parses 500ms, 30s, 5m, 1h or a bare number of seconds. */
  static Duration duration(String v) {
    Duration d;
    try {
      if (v.endsWith("ms")) d = Duration.ofMillis(Long.parseLong(v.substring(0, v.length() - 2)));
      else if (v.endsWith("s")) d = Duration.ofMillis(Math.round(Double.parseDouble(v.substring(0, v.length() - 1)) * 1000));
      else if (v.endsWith("m")) d = Duration.ofSeconds(Math.round(Double.parseDouble(v.substring(0, v.length() - 1)) * 60));
      else if (v.endsWith("h")) d = Duration.ofSeconds(Math.round(Double.parseDouble(v.substring(0, v.length() - 1)) * 3600));
      else d = Duration.ofMillis(Math.round(Double.parseDouble(v) * 1000));
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException("expected a duration such as 500ms, 30s or 5m, got '" + v + "'");
    }
    if (d.isNegative() || d.isZero()) throw new IllegalArgumentException("a duration must be positive, got '" + v + "'");
    if (d.compareTo(MAX_FOR) > 0) throw new IllegalArgumentException("a duration is at most " + MAX_FOR.toMinutes() + " minutes");
    return d;
  }

  private static String host(String name, String v) {
    int c = v.lastIndexOf(':');
    if (c <= 0) throw new IllegalArgumentException(name + ": expected HOST:PORT, got '" + v + "'");
    String h = v.substring(0, c);
    return h.startsWith("[") && h.endsWith("]") ? h.substring(1, h.length() - 1) : h;
  }

  private static int port(String name, String v) {
    return (int) positive(name + " port", v.substring(v.lastIndexOf(':') + 1), 65535);
  }

  private static long number(String name, String v) {
    try {
      return Long.parseLong(v);
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException(name + ": expected an integer, got '" + v + "'");
    }
  }

  private static long positive(String name, String v, long max) {
    long n = number(name, v);
    if (n < 1 || n > max) throw new IllegalArgumentException(name + ": expected 1 to " + max + ", got " + n);
    return n;
  }

  private static long nonNegative(String name, String v, long max) {
    long n = number(name, v);
    if (n < 0 || n > max) throw new IllegalArgumentException(name + ": expected 0 to " + max + ", got " + n);
    return n;
  }

  /** Whether the incident is on at {@code progress} (0 at the start of the run, 1 at its end). */
  boolean incidentAt(double progress) {
    return progress >= incidentFrom && progress < incidentTo;
  }

  private static String seconds(Duration d) {
    return d.toMillis() % 1000 == 0 ? d.toSeconds() + "s" : d.toMillis() + "ms";
  }

  /** The options as a command line that reproduces the run. */
  String commandLine() {
    StringBuilder b = new StringBuilder("modules/bench/loadgen --protocol ").append(protocol.label);
    if (protocol == Protocol.GRPC) b.append(" --grpc ").append(grpcHost).append(':').append(grpcPort);
    if (protocol != Protocol.GRPC || readers > 0) b.append(" --http ").append(httpHost).append(':').append(httpPort);
    b.append(" --conns ").append(conns).append(" --batch ").append(batch);
    if (runFor != null) b.append(" --for ").append(seconds(runFor));
    if (exports > 0) b.append(" --exports ").append(exports);
    if (warmup != null) b.append(" --warmup ").append(seconds(warmup));
    if (rate > 0) b.append(" --rate ").append(rate);
    b.append(" --mix ").append(mix).append(" --seed ").append(seed);
    if (gzip) b.append(" --gzip");
    if (tlsCa != null) b.append(" --tls-ca ").append(tlsCa);
    if (incidentFrom > 1) b.append(" --incident off");
    else if (incidentFrom != 0.4 || incidentTo != 0.6) b.append(" --incident ").append(incidentFrom).append('-').append(incidentTo);
    if (readers > 0) b.append(" --readers ").append(readers);
    if (pid > 0) b.append(" --pid ").append(pid);
    if (dataDir != null) b.append(" --data-dir ").append(dataDir);
    return b.toString();
  }
}
