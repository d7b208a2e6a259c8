package mira.block.index;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import mira.block.table.Batch;

/**
 * Writes a block's sidecar indexes at seal, built from the batch being published, into the block's
 * staging directory, each file fsynced, so they are published by the same rename as the tables.
 */
public final class Sidecars {
  private static final System.Logger LOG = System.getLogger(Sidecars.class.getName());

  private Sidecars() {}

  /**
   * Writes {@code trace.idx} (if the root table has trace ids), {@code attr.idx} (unless past
   * {@link AttrIndex#MAX_PAIRS}), {@code text.idx} (logs and spans, unless past
   * {@link TextIndex#MAX_TRIGRAMS}), {@code zone.idx} (unless past {@link ZoneIndex#MAX_KEYS}) and
   * {@code census.idx} (if the batch has resources).
   *
   * <p>A sidecar is derived and optional: one that cannot be built (a bug, not bad input — every
   * batch is valid by construction) is logged and left out, and the block reads as if it had none,
   * which costs only a scan. An I/O error fails the publish like any other file of the block.
   *
   * @return the names of the files written
   */
  public static List<String> write(Batch batch, Path dir, mira.fs.Fs fs) throws IOException {
    List<String> written = new ArrayList<>(4);
    byte[] trace = build(TraceIndex.FILE, batch, Kind.TRACE);
    if (trace != null) {
      SidecarFile.write(dir.resolve(TraceIndex.FILE), trace, fs);
      written.add(TraceIndex.FILE);
    }
    byte[] attr = build(AttrIndex.FILE, batch, Kind.ATTR);
    if (attr != null) {
      SidecarFile.write(dir.resolve(AttrIndex.FILE), attr, fs);
      written.add(AttrIndex.FILE);
    }
    byte[] text = build(TextIndex.FILE, batch, Kind.TEXT);
    if (text != null) {
      SidecarFile.write(dir.resolve(TextIndex.FILE), text, fs);
      written.add(TextIndex.FILE);
    }
    byte[] zone = build(ZoneIndex.FILE, batch, Kind.ZONE);
    if (zone != null) {
      SidecarFile.write(dir.resolve(ZoneIndex.FILE), zone, fs);
      written.add(ZoneIndex.FILE);
    }
    byte[] census = build(CensusIndex.FILE, batch, Kind.CENSUS);
    if (census != null) {
      SidecarFile.write(dir.resolve(CensusIndex.FILE), census, fs);
      written.add(CensusIndex.FILE);
    }
    return written;
  }

  private enum Kind { TRACE, ATTR, TEXT, ZONE, CENSUS }

  private static byte[] build(String file, Batch batch, Kind kind) {
    try {
      return switch (kind) {
        case TRACE -> {
          TraceIndex t = TraceIndex.build(batch);
          yield t == null ? null : t.toBytes();
        }
        case ATTR -> {
          AttrIndex a = AttrIndex.build(batch);
          yield a == null ? null : a.toBytes();
        }
        case TEXT -> {
          TextIndex t = TextIndex.build(batch);
          yield t == null ? null : t.toBytes();
        }
        case ZONE -> {
          ZoneIndex z = ZoneIndex.build(batch);
          yield z == null ? null : z.toBytes();
        }
        case CENSUS -> {
          CensusIndex c = CensusIndex.build(batch);
          yield c == null ? null : c.toBytes();
        }
      };
    } catch (RuntimeException e) {
      LOG.log(System.Logger.Level.WARNING, "not writing " + file + ": building it failed", e);
      return null;
    }
  }
}
