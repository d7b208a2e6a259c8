package mira.mcp;

import static mira.mcp.Tree.obj;

import java.io.IOException;
import java.net.URI;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.Function;
import mira.cluster.Cluster;
import mira.cluster.Peers;
import mira.query.LocalQueries;

/**
 * The MCP server behind {@code POST /mcp}: one JSON-RPC 2.0 message in, at most one out, nothing
 * remembered between requests (no session id is ever issued, and one sent is ignored), so any
 * replica answers any request.
 *
 * <p>Protocol revisions served: {@link #VERSIONS}, the ones with {@code initialize}. The client
 * proposes a version in {@code initialize}; the answer is that version if it is served, otherwise
 * the newest served, which the client may refuse. Later requests carry it in the
 * {@code MCP-Protocol-Version} header; an unserved value there is 400, a missing one means
 * 2025-03-26, as the specification says.
 *
 * <p>HTTP statuses: 200 with a JSON-RPC response (errors included) for a request; 202 with no
 * body for a notification or a response; 400 for a body that is not one JSON-RPC message (parse
 * error, batch, wrong {@code jsonrpc}) or an unserved protocol header; 403 for an {@code Origin}
 * not allowed (DNS-rebinding protection); 405 for any method but POST; 406 for an {@code Accept}
 * that excludes JSON.
 */
public final class McpServer {
  /** Served protocol revisions with {@code initialize} (the legacy era), newest first. */
  public static final List<String> VERSIONS = List.of("2025-11-25", "2025-06-18", "2025-03-26");

  /** Served revisions without {@code initialize} (the modern era: version and capabilities in each request's {@code _meta}). */
  public static final List<String> MODERN = List.of("2026-07-28");

  /** Every served revision, newest first: what an unsupported-version error lists. */
  static final List<String> ALL = List.of("2026-07-28", "2025-11-25", "2025-06-18", "2025-03-26");

  static final String META_VERSION = "io.modelcontextprotocol/protocolVersion";
  static final String META_CAPABILITIES = "io.modelcontextprotocol/clientCapabilities";
  static final String META_SERVER = "io.modelcontextprotocol/serverInfo";

  /** The modern era's own codes (2026-07-28, basic/index, "Error Codes"). */
  static final int HEADER_MISMATCH = -32020;
  static final int UNSUPPORTED_VERSION = -32022;

  /**
   * How long a client may keep server/discover and tools/list answers: they change only when the
   * server is upgraded, and are the same for every caller (so the scope is public).
   */
  static final long TTL_MS = 3_600_000;

  static final int PARSE_ERROR = -32700;
  static final int INVALID_REQUEST = -32600;
  static final int METHOD_NOT_FOUND = -32601;
  static final int INVALID_PARAMS = -32602;
  static final int INTERNAL_ERROR = -32603;

  static final String INSTRUCTIONS = """
      Mira stores the logs, traces and metrics of the services that send it OpenTelemetry.
      A good loop when investigating: list_services for what is running and where the span errors \
      are; query_metric (fn rate or quantile, group_by service.name) to see which service changed \
      and since when; query_records on traces with q "status_code=2" for its failing spans; \
      get_trace for one of them; correlate from a failing span or an error log (expand traces, \
      peers, or {"around": "5s"} for an untraced log) and send the answer's queries to \
      query_records for everything around it; service_map for who calls whom. Filters are the \
      text q (service.name=checkout severity_number>=17 "timeout") or where terms \
      ({"attr": "service.name", "eq": "checkout"}). Times are ns since the epoch, RFC 3339, or \
      relative (-15m). Answers are paged: pass next back as after.""";

  /** What to send back: a status and a JSON body, or no body when {@code body} is null. */
  public record Reply(int status, byte[] body) {}

  private final Tools tools;
  private final String version;

  /**
   * @param queries the engine the tools ask
   * @param version Mira's version, for {@code serverInfo}
   */
  public McpServer(LocalQueries queries, String version) {
    this(queries, version, () -> OFF);
  }

  /** As above, with {@code alerts} giving the {@code GET /api/v1/alerts} document for list_alerts. */
  public McpServer(LocalQueries queries, String version, java.util.function.Supplier<byte[]> alerts) {
    this(queries, version, alerts, "");
  }

  /**
   * As above; {@code linkBase} is the external URL Mira is published at (the {@code link_base}
   * setting, empty if none), whose origin browsers on that host send and which is allowed beside
   * the loopback ones.
   */
  public McpServer(LocalQueries queries, String version, java.util.function.Supplier<byte[]> alerts, String linkBase) {
    this(new Cluster("local", queries, Peers.NONE, java.time.Duration.ofSeconds(2)), version, alerts, linkBase);
  }

  /**
   * As above, the tools asking {@code cluster}: on a replica with peers every answer is the
   * cluster's, and its summary says which nodes answered.
   */
  public McpServer(Cluster cluster, String version, java.util.function.Supplier<byte[]> alerts, String linkBase) {
    this.tools = new Tools(cluster, alerts);
    this.version = version;
    this.published = origin(linkBase);
  }

  /** The origin of {@code link_base} ({@code scheme://host[:port]}, lowercase), or null. */
  private final String published;

  /** The alerts document of a node without alerting. */
  private static final byte[] OFF = "{\"enabled\":false,\"alerts\":[]}".getBytes(java.nio.charset.StandardCharsets.UTF_8);

  /**
   * Answers one HTTP request to {@code /mcp}.
   *
   * @param method the HTTP method
   * @param header a request header by lowercase name, or null if absent
   * @param body the request body (empty if none)
   */
  public Reply handle(String method, Function<String, String> header, byte[] body) {
    if (!method.equals("POST")) {
      return error(405, null, INVALID_REQUEST, method + " is not served on /mcp: this server opens no event stream; "
          + "POST one JSON-RPC message");
    }
    String origin = header.apply("origin");
    if (origin != null && !originAllowed(origin, published)) {
      return error(403, null, INVALID_REQUEST, "Origin " + origin + " is not allowed");
    }
    String accept = header.apply("accept");
    if (accept != null && !accept.contains("application/json") && !accept.contains("*/*")) {
      return error(406, null, INVALID_REQUEST, "the client must accept application/json");
    }
    Object doc;
    try {
      doc = Tree.parse(body);
    } catch (IOException e) {
      return error(400, null, PARSE_ERROR, "parse error: " + e.getMessage());
    }
    if (doc instanceof List<?>) {
      return error(400, null, INVALID_REQUEST, "JSON-RPC batches are not supported: send one message per request");
    }
    if (!(doc instanceof Map<?, ?> raw)) {
      return error(400, null, INVALID_REQUEST, "a JSON-RPC message is an object");
    }
    @SuppressWarnings("unchecked")
    Map<String, Object> msg = (Map<String, Object>) raw;
    Object id = msg.get("id");
    if (!"2.0".equals(msg.get("jsonrpc"))) {
      return error(400, validId(id) ? id : null, INVALID_REQUEST, "\"jsonrpc\" must be \"2.0\"");
    }
    if (!msg.containsKey("method")) {
      return new Reply(202, null); // a response to nothing we asked: accepted, nothing to do
    }
    if (!(msg.get("method") instanceof String name)) {
      return error(400, validId(id) ? id : null, INVALID_REQUEST, "\"method\" must be a string");
    }
    if (!msg.containsKey("id")) {
      return new Reply(202, null); // a notification (initialized, cancelled, ...): nothing to answer
    }
    if (!validId(id)) {
      return error(400, null, INVALID_REQUEST, "\"id\" must be a string or an integer");
    }
    String protocol = header.apply("mcp-protocol-version");
    Object params = msg.get("params");
    if (modern(name, params, protocol)) {
      return Modern.handle(this, id, name, params, header);
    }
    if (!name.equals("initialize") && protocol != null && !VERSIONS.contains(protocol)) {
      return error(400, id, INVALID_REQUEST, "unsupported MCP-Protocol-Version " + protocol + "; served: "
          + String.join(", ", VERSIONS));
    }
    if (params != null && !(params instanceof Map<?, ?>)) {
      return error(200, id, INVALID_PARAMS, "\"params\" must be an object");
    }
    @SuppressWarnings("unchecked")
    Map<String, Object> p = params == null ? Map.of() : (Map<String, Object>) params;
    return switch (name) {
      case "initialize" -> result(id, initialize(p));
      case "ping" -> result(id, obj());
      case "tools/list" -> result(id, obj("tools", Tools.list()));
      case "tools/call" -> call(id, p);
      default -> error(200, id, METHOD_NOT_FOUND, "method not found: " + name);
    };
  }

  private Map<String, Object> initialize(Map<String, Object> p) {
    Object asked = p.get("protocolVersion");
    String chosen = asked instanceof String s && VERSIONS.contains(s) ? s : VERSIONS.get(0);
    return obj("protocolVersion", chosen,
        "capabilities", obj("tools", obj("listChanged", false)),
        "serverInfo", serverInfo(),
        "instructions", INSTRUCTIONS);
  }

  /**
   * Whether a request is of the modern era: it carries the protocol version in {@code _meta}
   * (the specification's test), or it is {@code server/discover}, or its header names a modern
   * revision. Everything else, {@code initialize} first of all, is served as the legacy era.
   */
  static boolean modern(String method, Object params, String protocolHeader) {
    if (method.equals("initialize")) {
      return false;
    }
    if (method.equals("server/discover") || (protocolHeader != null && MODERN.contains(protocolHeader))) {
      return true;
    }
    return params instanceof Map<?, ?> p && p.get("_meta") instanceof Map<?, ?> meta && meta.containsKey(META_VERSION);
  }

  /** What server/discover answers (without the modern envelope fields, which {@link Modern} adds). */
  Map<String, Object> discover() {
    return obj("supportedVersions", new java.util.ArrayList<Object>(MODERN),
        "capabilities", obj("tools", obj()),
        "instructions", INSTRUCTIONS);
  }

  Map<String, Object> serverInfo() {
    return obj("name", "mira", "title", "Mira telemetry store", "version", version);
  }

  /** tools/call of either era; the reply is 200 with a result or a JSON-RPC error. */
  Reply call(Object id, Map<String, Object> p) {
    if (!(p.get("name") instanceof String name)) {
      return error(200, id, INVALID_PARAMS, "tools/call needs params.name, the tool's name");
    }
    if (!Tools.exists(name)) {
      return error(200, id, INVALID_PARAMS, "unknown tool: " + name);
    }
    Object a = p.get("arguments");
    if (a != null && !(a instanceof Map<?, ?>)) {
      return error(200, id, INVALID_PARAMS, "params.arguments must be an object");
    }
    @SuppressWarnings("unchecked")
    Map<String, Object> args = a == null ? Map.of() : (Map<String, Object>) a;
    try {
      Tools.Answer ans = tools.call(name, args);
      String text = ans.summary() + "\n" + new String(ans.json(), java.nio.charset.StandardCharsets.UTF_8);
      return result(id, obj("content", List.of(obj("type", "text", "text", text)),
          "structuredContent", new Tree.Raw(ans.json()), "isError", false));
    } catch (Tools.Refusal e) {
      return result(id, obj("content", List.of(obj("type", "text", "text", e.getMessage())), "isError", true));
    } catch (IOException | RuntimeException e) {
      return error(200, id, INTERNAL_ERROR, name + " failed: " + e.getMessage());
    }
  }

  /**
   * Loopback origins, and the origin Mira is published at. Not an origin that merely names the
   * {@code Host} the request was sent to: a page on a name an attacker controls, re-pointed at this
   * address (DNS rebinding), sends that name as both Host and Origin, so agreeing headers prove
   * nothing.
   *
   * @param published the origin of {@code link_base}, or null
   */
  static boolean originAllowed(String origin, String published) {
    URI u;
    try {
      u = URI.create(origin);
    } catch (IllegalArgumentException e) {
      return false;
    }
    String h = u.getHost();
    if (h == null) {
      return false;
    }
    h = h.toLowerCase(Locale.ROOT);
    if (h.equals("localhost") || h.equals("127.0.0.1") || h.equals("[::1]") || h.equals("::1")) {
      return true;
    }
    return published != null && published.equals(origin(origin));
  }

  /** {@code scheme://host[:port]} of a URL, lowercase, the default port left out; null if it has none. */
  static String origin(String url) {
    if (url == null || url.isEmpty()) {
      return null;
    }
    try {
      URI u = URI.create(url);
      if (u.getScheme() == null || u.getHost() == null) {
        return null;
      }
      String scheme = u.getScheme().toLowerCase(Locale.ROOT);
      int port = u.getPort();
      boolean standard = port == -1 || (scheme.equals("http") && port == 80) || (scheme.equals("https") && port == 443);
      return scheme + "://" + u.getHost().toLowerCase(Locale.ROOT) + (standard ? "" : ":" + port);
    } catch (IllegalArgumentException e) {
      return null;
    }
  }

  private static boolean validId(Object id) {
    return id instanceof String || id instanceof Long;
  }

  static Reply result(Object id, Object result) {
    return new Reply(200, Tree.bytes(obj("jsonrpc", "2.0", "id", id, "result", result)));
  }

  static Reply error(int status, Object id, int code, String message) {
    return new Reply(status, Tree.bytes(obj("jsonrpc", "2.0", "id", id, "error", obj("code", code, "message", message))));
  }
}
