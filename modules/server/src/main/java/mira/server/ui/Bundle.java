package mira.server.ui;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.Base64;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.zip.Deflater;
import java.util.zip.GZIPOutputStream;

/**
 * The UI's files by request path ({@code /}, {@code /index.html}, {@code /assets/...}), read once
 * from this module's resources under {@code mira/ui/}. The build writes {@code bundle.txt} there,
 * one file name a line; a file not named in it is not served. Immutable, and so safe to share
 * between request threads.
 */
public final class Bundle {
  /** Where the build puts the UI's files among this module's resources. */
  static final String ROOT = "/mira/ui/";

  /** An element of index.html: its attributes and its text. */
  private static final Pattern SCRIPT = Pattern.compile("<script(\\s[^>]*)?>(.*?)</script>", Pattern.DOTALL | Pattern.CASE_INSENSITIVE);

  private final Map<String, Asset> byPath;
  private final List<String> inlineScripts;

  private Bundle(Map<String, Asset> byPath, List<String> inlineScripts) {
    this.byPath = byPath;
    this.inlineScripts = inlineScripts;
  }

  /**
   * One file as the listener sends it.
   *
   * @param identity the bytes as built
   * @param gzip the same bytes gzipped, or null when gzip does not make them smaller
   * @param etag a strong ETag over {@code identity}, quotes included
   */
  record Asset(String type, String cacheControl, byte[] identity, byte[] gzip, String etag) {
    /** The ETag of the gzip form: a different representation needs a different tag. */
    String gzipEtag() {
      return etag.substring(0, etag.length() - 1) + "-gz\"";
    }
  }

  /** The bundle on this module's class path; empty (every path is a 404) when the build has none. */
  public static Bundle load() {
    Map<String, Asset> out = new LinkedHashMap<>();
    byte[] list = read("bundle.txt");
    if (list == null) {
      return new Bundle(Map.of(), List.of());
    }
    List<String> inline = List.of();
    for (String line : new String(list, StandardCharsets.UTF_8).split("\n")) {
      String name = line.strip();
      if (name.isEmpty()) {
        continue;
      }
      byte[] bytes = read(name);
      if (bytes == null) {
        throw new IllegalStateException("the UI bundle lists " + name + " but does not hold it");
      }
      boolean hashed = name.startsWith("assets/");
      // Vite puts a content hash in every asset's name, so a name never changes meaning; index.html
      // keeps its name and must be revalidated (a 304 costs one round trip and no bytes).
      Asset a = new Asset(type(name), hashed ? "public, max-age=31536000, immutable" : "no-cache", bytes,
          gzip(bytes), etag(bytes));
      out.put("/" + name, a);
      if (name.equals("index.html")) {
        out.put("/", a);
        inline = inlineScriptHashes(new String(bytes, StandardCharsets.UTF_8));
      }
    }
    return new Bundle(Map.copyOf(out), inline);
  }

  /**
   * The CSP sources ({@code 'sha256-...'}) of index.html's inline scripts, in document order: the
   * build writes the boot script into the page so the first query leaves before the app's script
   * is fetched, and the policy allows exactly that text, never inline script in general.
   */
  public List<String> inlineScripts() {
    return inlineScripts;
  }

  /** The hash source of every {@code <script>} without {@code src} in {@code html}. */
  static List<String> inlineScriptHashes(String html) {
    List<String> out = new ArrayList<>();
    Matcher m = SCRIPT.matcher(html);
    while (m.find()) {
      String attrs = m.group(1) == null ? "" : m.group(1).toLowerCase(Locale.ROOT);
      if (attrs.contains("src=")) {
        continue;
      }
      out.add("'sha256-" + Base64.getEncoder().encodeToString(sha256(m.group(2).getBytes(StandardCharsets.UTF_8))) + "'");
    }
    return List.copyOf(out);
  }

  /** The file at exactly this raw (undecoded) request path, or null. */
  Asset find(String rawPath) {
    return byPath.get(rawPath);
  }

  /** How many request paths answer (index.html counts twice, as {@code /} and by name). */
  public int size() {
    return byPath.size();
  }

  private static byte[] read(String name) {
    try (InputStream in = Bundle.class.getResourceAsStream(ROOT + name)) {
      return in == null ? null : in.readAllBytes();
    } catch (IOException e) {
      throw new UncheckedIOException("cannot read the UI file " + name, e);
    }
  }

  static String type(String name) {
    String ext = name.substring(name.lastIndexOf('.') + 1).toLowerCase(Locale.ROOT);
    return switch (ext) {
      case "html" -> "text/html; charset=utf-8";
      case "js", "mjs" -> "text/javascript; charset=utf-8";
      case "css" -> "text/css; charset=utf-8";
      case "svg" -> "image/svg+xml";
      case "png" -> "image/png";
      case "ico" -> "image/x-icon";
      case "json", "map" -> "application/json";
      case "woff2" -> "font/woff2";
      case "txt" -> "text/plain; charset=utf-8";
      default -> "application/octet-stream";
    };
  }

  private static String etag(byte[] bytes) {
    return "\"" + HexFormat.of().formatHex(sha256(bytes), 0, 16) + "\"";
  }

  private static byte[] sha256(byte[] bytes) {
    try {
      return MessageDigest.getInstance("SHA-256").digest(bytes);
    } catch (NoSuchAlgorithmException e) {
      throw new AssertionError("SHA-256 is in every JDK", e);
    }
  }

  private static byte[] gzip(byte[] bytes) {
    ByteArrayOutputStream out = new ByteArrayOutputStream(bytes.length / 3 + 64);
    try (GZIPOutputStream z = new GZIPOutputStream(out) {
      {
        def.setLevel(Deflater.BEST_COMPRESSION);
      }
    }) {
      z.write(bytes);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return out.size() < bytes.length ? out.toByteArray() : null;
  }
}
