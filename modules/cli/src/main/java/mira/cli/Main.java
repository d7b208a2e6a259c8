package mira.cli;

import java.io.PrintStream;
import java.nio.file.Path;
import java.util.EnumMap;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CountDownLatch;
import mira.server.config.Config;
import mira.server.config.ConfigException;
import mira.server.config.ConfigLoader;
import mira.server.config.Key;
import mira.server.launch.LogSetup;
import mira.server.launch.Running;
import mira.server.launch.Training;
import mira.server.launch.Termination;
import mira.server.launch.StartupException;
import mira.server.launch.Version;
import mira.tui.Tui;

/** The {@code mira} command. Exit status: 0 ok, 1 refused to start or failed, 2 bad usage. */
public final class Main {
  private Main() {}


  static final String USAGE = """
      usage: mira serve [--config FILE] [--data-dir DIR] [--node NAME]
                        [--grpc-listen HOST:PORT] [--http-listen HOST:PORT]
             mira tui [--addr HOST:PORT | --data-dir DIR] [--token TOKEN]
             mira version
             mira train
             mira --help

      serve    run the server. With no --config it uses the embedded defaults:
               OTLP/gRPC on 127.0.0.1:4317, OTLP/HTTP + API on 127.0.0.1:4318, data in ./data.
               Flags override the file. Config keys are listed in docs/config.md.
      tui      the terminal UI over a running node (default 127.0.0.1:4318) or a data
               directory; mira tui --help lists the keys
      version  print the version and exit
      train    start a node on loopback with a temporary data directory, send it one export of
               every signal, stop (the workload the image's AOT cache is recorded from)
      """;

  public static void main(String[] args) {
    System.exit(run(args, System.out, System.err));
  }

  static int run(String[] args, PrintStream out, PrintStream err) {
    if (args.length == 0 || args[0].equals("--help") || args[0].equals("-h") || args[0].equals("help")) {
      (args.length == 0 ? err : out).print(USAGE);
      return args.length == 0 ? 2 : 0;
    }
    return switch (args[0]) {
      case "version", "--version" -> {
        out.println("mira " + Version.current());
        yield 0;
      }
      case "serve" -> serve(args, out, err);
      case "train" -> Training.run(err);
      case "tui" -> Tui.run(args, out, err);
      default -> {
        err.println("mira: unknown command \"" + args[0] + "\"; commands are serve, tui, version, train");
        err.print(USAGE);
        yield 2;
      }
    };
  }

  private static int serve(String[] args, PrintStream out, PrintStream err) {
    Optional<Path> configFile = Optional.empty();
    Map<Key, String> flags = new EnumMap<>(Key.class);
    for (int i = 1; i < args.length; i++) {
      String a = args[i];
      if (a.equals("--help") || a.equals("-h")) {
        out.print(USAGE);
        return 0;
      }
      String name = a;
      String value = null;
      int eq = a.indexOf('=');
      if (a.startsWith("--") && eq > 0) {
        name = a.substring(0, eq);
        value = a.substring(eq + 1);
      }
      Key key = null;
      if (!name.equals("--config")) {
        for (Key k : Key.values()) {
          if (k.flag().isPresent() && k.flag().get().equals(name)) {
            key = k;
          }
        }
        if (key == null) {
          err.println("mira serve: unknown flag " + name + "; flags are --config, --data-dir, --node, --grpc-listen, --http-listen");
          return 2;
        }
      }
      if (value == null) {
        if (i + 1 >= args.length) {
          err.println("mira serve: " + name + " needs a value");
          return 2;
        }
        value = args[++i];
      }
      if (key == null) {
        configFile = Optional.of(Path.of(value));
      } else {
        flags.put(key, value);
      }
    }

    LogSetup.install();
    Config config;
    try {
      config = ConfigLoader.load(configFile, flags, Runtime.getRuntime().availableProcessors());
    } catch (ConfigException e) {
      err.println("mira: " + e.getMessage());
      return 1;
    }
    System.Logger log = System.getLogger("mira");
    // SIGTERM and SIGINT start an orderly stop and the process exits 0. Registered before the
    // listeners start so a stop that arrives during start-up is not lost; anything else that ends
    // the JVM (System.exit elsewhere) still closes the listeners through the hook below.
    CountDownLatch stop = new CountDownLatch(1);
    Termination.onTerminate(stop::countDown);
    long t0 = System.nanoTime();
    Running node;
    try {
      node = Running.start(config, Path.of("/proc/self/mountinfo"));
      log.log(System.Logger.Level.INFO, "mira " + Version.current() + " node=" + config.node() + " data=" + node.data().path()
          + " listening grpc=" + config.grpcListen().host() + ":" + node.server().grpcPort()
          + " http=" + config.httpListen().host() + ":" + node.server().httpPort()
          + " (" + (System.nanoTime() - t0) / 1_000_000 + " ms)");
    } catch (StartupException e) {
      err.println("mira: " + e.getMessage());
      return 1;
    }

    Running started = node;
    Termination.onHangup(started::reload);
    Thread hook = new Thread(node::close, "mira-shutdown");
    Runtime.getRuntime().addShutdownHook(hook);
    try {
      stop.await();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
    log.log(System.Logger.Level.INFO, "stopping");
    node.close();
    Runtime.getRuntime().removeShutdownHook(hook);
    log.log(System.Logger.Level.INFO, "stopped");
    return 0;
  }
}
