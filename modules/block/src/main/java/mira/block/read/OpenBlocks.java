package mira.block.read;

import java.util.List;
import mira.proto.wire.Signal;

/**
 * Where readers get copies of the blocks still being filled (the ingest pipeline provides them).
 * Every export acknowledged before the call is in a published block or in one of these.
 */
@FunctionalInterface
public interface OpenBlocks {
  /** Snapshots of the signal's open blocks that hold rows. */
  List<Snapshot> snapshot(Signal signal);

  /** No open blocks (a data directory read without a running pipeline). */
  OpenBlocks NONE = s -> List.of();
}
