package mira.server.launch;

import sun.misc.Signal;

/** SIGTERM / SIGINT handling, so an orchestrator's stop is an orderly stop with exit status 0. */
public final class Termination {
  private Termination() {}

  /** Runs {@code action} on the first SIGTERM or SIGINT (on the JVM's signal thread). */
  public static void onTerminate(Runnable action) {
    Signal.handle(new Signal("TERM"), s -> action.run());
    Signal.handle(new Signal("INT"), s -> action.run());
  }
}
