package mira.server.auth;

import java.lang.System.Logger;
import java.lang.System.Logger.Level;
import java.nio.file.Path;
import java.util.Optional;

/**
 * Who may ingest and who may read: the ingest tokens and the read tokens, each from its file or
 * absent (that side is open). An ingest token does not read and a read token does not ingest; a
 * token in both files is refused at load, so the two never blur.
 *
 * <p>Shared by every request thread: each set is an immutable {@link Tokens} behind a volatile
 * field, replaced whole by {@link #reload}.
 */
public final class Access {
  private static final Logger LOG = System.getLogger(Access.class.getName());

  /** What a request does, and so which tokens it needs. */
  public enum Need { INGEST, READ }

  private final Optional<Path> ingestFile;
  private final Optional<Path> readFile;
  private volatile Tokens ingest;
  private volatile Tokens read;

  private Access(Optional<Path> ingestFile, Optional<Path> readFile, Tokens ingest, Tokens read) {
    this.ingestFile = ingestFile;
    this.readFile = readFile;
    this.ingest = ingest;
    this.read = read;
  }

  /** No tokens anywhere: every request is let through. */
  public static Access open() {
    return new Access(Optional.empty(), Optional.empty(), null, null);
  }

  /**
   * Loads both files (an absent path leaves that side open).
   *
   * @throws BadTokenFile naming the key's file and line, if either cannot be used
   */
  public static Access load(Optional<Path> ingestFile, Optional<Path> readFile) throws BadTokenFile {
    Tokens i = ingestFile.isPresent() ? Tokens.load(ingestFile.get()) : null;
    Tokens r = readFile.isPresent() ? Tokens.load(readFile.get()) : null;
    requireDisjoint(i, r);
    return new Access(ingestFile, readFile, i, r);
  }

  /** Whether {@code need} is checked at all (its file is set). */
  public boolean checks(Need need) {
    return (need == Need.INGEST ? ingest : read) != null;
  }

  /**
   * Whether a request with this {@code Authorization} header value (null if absent) may do
   * {@code need}: always when that side is open, else only with one of its tokens.
   */
  public boolean allows(Need need, String authorization) {
    Tokens t = need == Need.INGEST ? ingest : read;
    return t == null || t.accepts(Bearer.token(authorization));
  }

  /**
   * Reads both files again (SIGHUP). A file that cannot be used is logged and that side keeps the
   * tokens it had; the other file is still applied. Keys that were empty at start stay open: turning
   * a check on or off is a restart, so a reload never changes which routes are open.
   */
  public void reload() {
    Tokens i = ingest;
    Tokens r = read;
    if (ingestFile.isPresent()) {
      i = reloaded("auth.ingest_tokens", ingestFile.get(), i);
    }
    if (readFile.isPresent()) {
      r = reloaded("auth.read_tokens", readFile.get(), r);
    }
    try {
      requireDisjoint(i, r);
    } catch (BadTokenFile e) {
      LOG.log(Level.ERROR, "token reload refused, the previous tokens stay: " + e.getMessage());
      return;
    }
    ingest = i;
    read = r;
  }

  private static Tokens reloaded(String key, Path file, Tokens previous) {
    try {
      Tokens t = Tokens.load(file);
      LOG.log(Level.INFO, key + ": " + t.size() + " token(s) loaded from " + file);
      return t;
    } catch (BadTokenFile e) {
      LOG.log(Level.ERROR, key + ": reload failed, the previous tokens stay: " + e.getMessage());
      return previous;
    }
  }

  private static void requireDisjoint(Tokens ingest, Tokens read) throws BadTokenFile {
    if (ingest != null && read != null && ingest.overlaps(read)) {
      throw new BadTokenFile("auth.ingest_tokens and auth.read_tokens share a token; an ingest token must not"
          + " read, so give each its own");
    }
  }
}
