package mira.server.auth;

import java.io.IOException;
import java.nio.charset.MalformedInputException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * The tokens of one file, kept only as SHA-256 digests. Immutable, so shared between request
 * threads without a lock.
 *
 * <p>A presented token is hashed and compared with every stored digest by
 * {@link MessageDigest#isEqual}, with no early exit: digests have a fixed length, so neither the
 * length of a stored token nor which one matched shows in the time a check takes.
 *
 * <p>The file: one token per line; blank lines and lines starting with {@code #} are skipped;
 * surrounding spaces are trimmed. A token is 16 to 512 characters of the RFC 6750 token alphabet
 * ({@code A-Z a-z 0-9 - . _ ~ + /}, then optional {@code =} padding).
 */
public final class Tokens {
  static final int MIN_LENGTH = 16;
  static final int MAX_LENGTH = 512;

  private final byte[][] digests;

  private Tokens(byte[][] digests) {
    this.digests = digests;
  }

  /**
   * Reads a token file.
   *
   * @throws BadTokenFile if the file cannot be read, holds no token, or a line is not a token
   *     (the message names the file and line number, not the line)
   */
  public static Tokens load(Path file) throws BadTokenFile {
    List<String> lines;
    try {
      lines = Files.readAllLines(file, StandardCharsets.UTF_8);
    } catch (NoSuchFileException e) {
      throw new BadTokenFile(file + ": no such file");
    } catch (MalformedInputException e) {
      throw new BadTokenFile(file + ": not UTF-8 text");
    } catch (IOException e) {
      throw new BadTokenFile(file + ": cannot be read (" + e.getClass().getSimpleName() + ")");
    }
    List<byte[]> out = new ArrayList<>();
    for (int i = 0; i < lines.size(); i++) {
      String t = lines.get(i).strip();
      if (t.isEmpty() || t.startsWith("#")) {
        continue;
      }
      if (t.length() < MIN_LENGTH || t.length() > MAX_LENGTH) {
        throw new BadTokenFile(file + ":" + (i + 1) + ": a token must be " + MIN_LENGTH + " to " + MAX_LENGTH
            + " characters long (this one is " + t.length() + ")");
      }
      if (!isTokenSyntax(t)) {
        throw new BadTokenFile(file + ":" + (i + 1) + ": a token may hold only A-Z a-z 0-9 - . _ ~ + / and"
            + " trailing =");
      }
      out.add(digest(t));
    }
    if (out.isEmpty()) {
      throw new BadTokenFile(file + ": holds no token (one per line; leave the key empty to turn the check off)");
    }
    return new Tokens(out.toArray(new byte[0][]));
  }

  /** Tokens from strings already in memory (tests). */
  static Tokens of(String... tokens) {
    byte[][] d = new byte[tokens.length][];
    for (int i = 0; i < tokens.length; i++) {
      d[i] = digest(tokens[i]);
    }
    return new Tokens(d);
  }

  /** True if {@code presented} is one of the tokens. Null is never one. */
  public boolean accepts(String presented) {
    if (presented == null) {
      return false;
    }
    byte[] d = digest(presented);
    boolean found = false;
    for (byte[] stored : digests) {
      found |= MessageDigest.isEqual(stored, d);
    }
    return found;
  }

  /** True if some token is in both sets. */
  boolean overlaps(Tokens other) {
    for (byte[] a : digests) {
      for (byte[] b : other.digests) {
        if (Arrays.equals(a, b)) {
          return true;
        }
      }
    }
    return false;
  }

  /** How many tokens the file held (for the reload log line). */
  public int size() {
    return digests.length;
  }

  static boolean isTokenSyntax(String t) {
    int i = 0;
    int n = t.length();
    while (i < n && tokenChar(t.charAt(i))) {
      i++;
    }
    if (i == 0) {
      return false;
    }
    while (i < n && t.charAt(i) == '=') {
      i++;
    }
    return i == n;
  }

  private static boolean tokenChar(char c) {
    return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9')
        || c == '-' || c == '.' || c == '_' || c == '~' || c == '+' || c == '/';
  }

  private static byte[] digest(String token) {
    try {
      return MessageDigest.getInstance("SHA-256").digest(token.getBytes(StandardCharsets.UTF_8));
    } catch (NoSuchAlgorithmException e) {
      throw new AssertionError("every JDK has SHA-256", e);
    }
  }
}
