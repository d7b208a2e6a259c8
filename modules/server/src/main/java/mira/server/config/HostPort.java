package mira.server.config;

/**
 * A listen address. {@code port} 0 asks the kernel for a free port (tests use it).
 *
 * @param host a host name or IP literal, never empty
 * @param port 0..65535
 */
public record HostPort(String host, int port) {

  /** Parses {@code HOST:PORT}, {@code [v6]:PORT} or {@code :PORT} (all interfaces). */
  static HostPort parse(String where, String text) throws ConfigException {
    int colon = text.lastIndexOf(':');
    if (colon < 0) {
      throw new ConfigException(where + ": \"" + text + "\" is not HOST:PORT (e.g. \"127.0.0.1:4317\")");
    }
    String host = text.substring(0, colon);
    String portText = text.substring(colon + 1);
    if (host.startsWith("[") && host.endsWith("]")) {
      host = host.substring(1, host.length() - 1);
    } else if (host.contains(":")) {
      throw new ConfigException(where + ": \"" + text + "\" has an IPv6 host without brackets; write \"[" + host + "]:" + portText + "\"");
    }
    if (host.isEmpty()) {
      host = "0.0.0.0";
    }
    int port;
    try {
      port = Integer.parseInt(portText);
    } catch (NumberFormatException e) {
      throw new ConfigException(where + ": \"" + text + "\" has no numeric port");
    }
    if (port < 0 || port > 65535) {
      throw new ConfigException(where + ": port " + port + " is outside 0..65535");
    }
    return new HostPort(host, port);
  }

  @Override
  public String toString() {
    return (host.contains(":") ? "[" + host + "]" : host) + ":" + port;
  }
}
