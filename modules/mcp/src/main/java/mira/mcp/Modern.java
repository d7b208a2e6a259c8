package mira.mcp;

import static mira.mcp.Tree.obj;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Base64;
import java.util.Map;
import java.util.function.Function;

/**
 * A request of the 2026-07-28 revision: no initialize and no session, so every request stands
 * alone. It carries its protocol version and the client's capabilities in
 * {@code params._meta}, and mirrors the version, the method and (for tools/call) the tool name
 * in the {@code MCP-Protocol-Version}, {@code Mcp-Method} and {@code Mcp-Name} headers, which must
 * agree with the body, so a proxy routing on headers and this server reading the body cannot be
 * told different things.
 *
 * <p>Refusals, as the revision specifies them: a missing or disagreeing header is 400 with
 * HeaderMismatch (-32020); a missing {@code _meta} field is 400 with -32602; a version not served
 * is 400 with UnsupportedProtocolVersion (-32022) listing the served ones; a method not served
 * (ping and initialize are not methods of this revision) is 404 with -32601. Results carry
 * {@code resultType: "complete"} and the server's identity in {@code _meta}; server/discover and
 * tools/list also carry {@code ttlMs} and {@code cacheScope}.
 */
final class Modern {
  private Modern() {}

  static McpServer.Reply handle(McpServer server, Object id, String method, Object params,
      Function<String, String> header) {
    if (!(params instanceof Map<?, ?> raw)) {
      return McpServer.error(400, id, McpServer.INVALID_PARAMS, "params with _meta is required: \""
          + McpServer.META_VERSION + "\" and \"" + McpServer.META_CAPABILITIES + "\"");
    }
    @SuppressWarnings("unchecked")
    Map<String, Object> p = (Map<String, Object>) raw;
    if (!(p.get("_meta") instanceof Map<?, ?> meta)) {
      return McpServer.error(400, id, McpServer.INVALID_PARAMS, "params._meta is required, with \""
          + McpServer.META_VERSION + "\" and \"" + McpServer.META_CAPABILITIES + "\"");
    }
    if (!(meta.get(McpServer.META_VERSION) instanceof String version)) {
      return McpServer.error(400, id, McpServer.INVALID_PARAMS, "params._meta[\"" + McpServer.META_VERSION
          + "\"] is required: the protocol version of this request");
    }
    if (!(meta.get(McpServer.META_CAPABILITIES) instanceof Map<?, ?>)) {
      return McpServer.error(400, id, McpServer.INVALID_PARAMS, "params._meta[\"" + McpServer.META_CAPABILITIES
          + "\"] is required: an object (empty when the client declares none)");
    }
    String protocol = header.apply("mcp-protocol-version");
    if (protocol == null) {
      return McpServer.error(400, id, McpServer.HEADER_MISMATCH, "the MCP-Protocol-Version header is required");
    }
    if (!protocol.equals(version)) {
      return McpServer.error(400, id, McpServer.HEADER_MISMATCH, "MCP-Protocol-Version " + protocol
          + " does not match params._meta's protocol version " + version);
    }
    if (!McpServer.MODERN.contains(version)) {
      return unsupported(id, version);
    }
    String m = header.apply("mcp-method");
    if (m == null) {
      return McpServer.error(400, id, McpServer.HEADER_MISMATCH, "the Mcp-Method header is required");
    }
    if (!m.equals(method)) {
      return McpServer.error(400, id, McpServer.HEADER_MISMATCH, "Mcp-Method " + m + " does not match the body's "
          + "method " + method);
    }
    if (method.equals("tools/call")) {
      String n = header.apply("mcp-name");
      if (n == null) {
        return McpServer.error(400, id, McpServer.HEADER_MISMATCH, "the Mcp-Name header is required on tools/call");
      }
      String decoded = decode(n);
      if (decoded == null || !decoded.equals(p.get("name"))) {
        return McpServer.error(400, id, McpServer.HEADER_MISMATCH, "Mcp-Name " + n + " does not match the body's "
            + "params.name " + p.get("name"));
      }
    }
    return switch (method) {
      case "server/discover" -> complete(server, id, cacheable(server.discover()));
      case "tools/list" -> complete(server, id, cacheable(obj("tools", Tools.list())));
      case "tools/call" -> {
        yield withEnvelope(server, server.call(id, p));
      }
      default -> McpServer.error(404, id, McpServer.METHOD_NOT_FOUND, "method not found: " + method
          + " (this revision serves server/discover, tools/list, tools/call)");
    };
  }

  /** 400 with UnsupportedProtocolVersion and the versions served. */
  static McpServer.Reply unsupported(Object id, String requested) {
    Map<String, Object> err = obj("code", McpServer.UNSUPPORTED_VERSION, "message", "Unsupported protocol version",
        "data", obj("supported", new ArrayList<Object>(McpServer.ALL), "requested", requested));
    return new McpServer.Reply(400, Tree.bytes(obj("jsonrpc", "2.0", "id", id, "error", err)));
  }

  /**
   * A header value in the Base64 sentinel form ({@code =?base64?...?=}) decoded, others as they
   * are; null if the sentinel holds no valid Base64.
   */
  static String decode(String v) {
    if (v.startsWith("=?base64?") && v.endsWith("?=") && v.length() >= 11) {
      try {
        return new String(Base64.getDecoder().decode(v.substring(9, v.length() - 2)), StandardCharsets.UTF_8);
      } catch (IllegalArgumentException e) {
        return null;
      }
    }
    return v;
  }

  private static Map<String, Object> cacheable(Map<String, Object> result) {
    result.put("ttlMs", McpServer.TTL_MS);
    result.put("cacheScope", "public");
    return result;
  }

  private static McpServer.Reply complete(McpServer server, Object id, Map<String, Object> result) {
    Map<String, Object> out = obj("resultType", "complete");
    out.putAll(result);
    out.put("_meta", obj(McpServer.META_SERVER, server.serverInfo()));
    return McpServer.result(id, out);
  }

  /** A tools/call result with the modern envelope fields added; an error as it is. */
  @SuppressWarnings("unchecked")
  private static McpServer.Reply withEnvelope(McpServer server, McpServer.Reply r) {
    try {
      Map<String, Object> doc = (Map<String, Object>) Tree.parse(r.body());
      if (!(doc.get("result") instanceof Map<?, ?> result)) {
        return r;
      }
      return complete(server, doc.get("id"), (Map<String, Object>) result);
    } catch (java.io.IOException e) {
      throw new IllegalStateException("a reply of this server does not parse", e);
    }
  }
}
