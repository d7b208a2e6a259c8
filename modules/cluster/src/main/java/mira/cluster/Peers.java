package mira.cluster;

import java.net.InetAddress;
import java.net.Inet6Address;
import java.net.UnknownHostException;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.function.LongSupplier;

/**
 * The peers of {@code cluster.peers}: a comma-separated list of {@code HOST:PORT} entries, which are
 * asked as they are, and {@code dns:NAME:PORT} entries, whose A and AAAA records are the peers (a
 * Kubernetes headless Service lists every ready pod). A name is re-resolved when its answer is
 * older than {@link #RESOLVE_EVERY_NS}; a failed resolution keeps the previous addresses and is
 * reported as an error by {@link #addresses}' caller.
 *
 * <p>Thread-safe: {@link #addresses} may be called by any number of queries at once; at most one
 * of them re-resolves a name, the others use the addresses it had.
 */
public final class Peers {
  /** How old a DNS answer may be before it is asked again: 5 s. */
  public static final long RESOLVE_EVERY_NS = 5_000_000_000L;

  /** Resolves a host name to its addresses (A and AAAA). */
  @FunctionalInterface
  public interface Resolver {
    List<InetAddress> resolve(String name) throws UnknownHostException;

    /** The JDK's resolver (the platform's: hosts file, then DNS). */
    Resolver SYSTEM = name -> List.of(InetAddress.getAllByName(name));
  }

  /** One entry of the list. */
  private sealed interface Entry permits Fixed, Named {}

  private record Fixed(String address) implements Entry {}

  private static final class Named implements Entry {
    final String name;
    final int port;
    volatile List<String> addresses = List.of();
    volatile long resolvedAt = Long.MIN_VALUE;
    volatile String error;
    boolean resolving;

    Named(String name, int port) {
      this.name = name;
      this.port = port;
    }
  }

  private final List<Entry> entries;
  private final Resolver resolver;
  private final LongSupplier nanoClock;

  private Peers(List<Entry> entries, Resolver resolver, LongSupplier nanoClock) {
    this.entries = entries;
    this.resolver = resolver;
    this.nanoClock = nanoClock;
  }

  /** No peers: every read is answered by this node alone. */
  public static final Peers NONE = new Peers(List.of(), Resolver.SYSTEM, System::nanoTime);

  /**
   * Parses a {@code cluster.peers} value (empty or blank: {@link #NONE}).
   *
   * @throws IllegalArgumentException naming the entry that is not {@code HOST:PORT} or {@code dns:NAME:PORT}
   */
  public static Peers parse(String spec) {
    return parse(spec, Resolver.SYSTEM, System::nanoTime);
  }

  /** {@link #parse(String)} with the resolver and the clock (ns, monotonic) given. */
  public static Peers parse(String spec, Resolver resolver, LongSupplier nanoClock) {
    if (spec == null || spec.isBlank()) {
      return new Peers(List.of(), resolver, nanoClock);
    }
    List<Entry> out = new ArrayList<>();
    for (String raw : spec.split(",")) {
      String e = raw.strip();
      if (e.isEmpty()) {
        continue;
      }
      boolean dns = e.startsWith("dns:");
      String hp = dns ? e.substring(4) : e;
      int colon = hp.lastIndexOf(':');
      if (colon <= 0 || colon == hp.length() - 1) {
        throw new IllegalArgumentException("cluster.peers: \"" + e + "\" is not HOST:PORT or dns:NAME:PORT");
      }
      String host = hp.substring(0, colon);
      int port;
      try {
        port = Integer.parseInt(hp.substring(colon + 1));
      } catch (NumberFormatException x) {
        port = -1;
      }
      if (port < 1 || port > 65535) {
        throw new IllegalArgumentException("cluster.peers: \"" + e + "\" has no port in 1..65535");
      }
      if (host.startsWith("[") != host.endsWith("]") || host.isEmpty()) {
        throw new IllegalArgumentException("cluster.peers: \"" + e + "\" has a malformed host");
      }
      out.add(dns ? new Named(host, port) : new Fixed(host + ":" + port));
    }
    return new Peers(List.copyOf(out), resolver, nanoClock);
  }

  /** Whether the list is empty (no fan-out). */
  public boolean isEmpty() {
    return entries.isEmpty();
  }

  /** What resolving the named entries last said went wrong, one line each; empty when nothing did. */
  public List<String> errors() {
    List<String> out = new ArrayList<>();
    for (Entry e : entries) {
      if (e instanceof Named n && n.error != null) {
        out.add(n.error);
      }
    }
    return out;
  }

  /**
   * Every peer address ({@code host:port}, IPv6 in brackets), each once, in list order; names
   * re-resolved first if their answer is stale.
   */
  public List<String> addresses() {
    Set<String> out = new LinkedHashSet<>();
    for (Entry e : entries) {
      switch (e) {
        case Fixed f -> out.add(f.address());
        case Named n -> out.addAll(resolved(n));
      }
    }
    return List.copyOf(out);
  }

  private List<String> resolved(Named n) {
    long now = nanoClock.getAsLong();
    boolean mine;
    synchronized (n) {
      mine = !n.resolving && (n.resolvedAt == Long.MIN_VALUE || now - n.resolvedAt >= RESOLVE_EVERY_NS);
      if (mine) {
        n.resolving = true;
      }
    }
    if (!mine) {
      return n.addresses;
    }
    try {
      List<String> a = new ArrayList<>();
      for (InetAddress ip : resolver.resolve(n.name)) {
        String host = ip.getHostAddress();
        a.add((ip instanceof Inet6Address ? "[" + stripScope(host) + "]" : host) + ":" + n.port);
      }
      n.addresses = List.copyOf(a);
      n.error = null;
    } catch (UnknownHostException | RuntimeException x) {
      // Keep what the name resolved to last; the caller names the failure.
      n.error = "dns:" + n.name + ":" + n.port + ": cannot resolve " + n.name + (x.getMessage() == null ? ""
          : " (" + x.getMessage() + ")");
    } finally {
      synchronized (n) {
        n.resolvedAt = now;
        n.resolving = false;
      }
    }
    return n.addresses;
  }

  private static String stripScope(String host) {
    int pct = host.indexOf('%');
    return pct < 0 ? host : host.substring(0, pct);
  }
}
