package mira.server.launch;

import sun.misc.Signal;

/** SIGTERM / SIGINT / SIGHUP handling, so an orchestrator's stop is an orderly stop with exit status 0. */
public final class Termination {
  private Termination() {}

  /** Runs {@code action} on the first SIGTERM or SIGINT (on the JVM's signal thread). */
  public static void onTerminate(Runnable action) {
    Signal.handle(new Signal("TERM"), s -> action.run());
    Signal.handle(new Signal("INT"), s -> action.run());
  }

  /** Runs {@code action} on every SIGHUP (token, certificate and rules reload), on a fresh thread each time. */
  public static void onHangup(Runnable action) {
    Signal.handle(new Signal("HUP"), s -> Thread.ofVirtual().name("mira-sighup").start(action));
  }
}
