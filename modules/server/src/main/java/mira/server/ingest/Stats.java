package mira.server.ingest;

import java.util.EnumMap;
import java.util.Map;
import java.util.concurrent.atomic.LongAdder;
import mira.proto.wire.Signal;

/** Ingest counters per signal, cheap to bump from any thread. */
public final class Stats {
  /** The counters of one signal. */
  public static final class Counters {
    public final LongAdder recordsAccepted = new LongAdder();
    public final LongAdder exportsAccepted = new LongAdder();
    public final LongAdder recordsShed = new LongAdder();
    public final LongAdder exportsShed = new LongAdder();
    public final LongAdder exportsInvalid = new LongAdder();
    public final LongAdder recordsFailed = new LongAdder();
    public final LongAdder blocksPublished = new LongAdder();
    public final LongAdder bytesPublished = new LongAdder();
    public final LongAdder publishFailures = new LongAdder();
    /** Refused by the HTTP receiver before decoding: 405 wrong method. */
    public final LongAdder refusedMethod = new LongAdder();
    /** Refused by the HTTP receiver before decoding: 413 too large (on the wire or inflated). */
    public final LongAdder refusedTooLarge = new LongAdder();
    /** Refused by the HTTP receiver before decoding: 415 unsupported content type or encoding. */
    public final LongAdder refusedMediaType = new LongAdder();
    /** Exports shed because ingest's heap budget was spent (also counted in {@link #exportsShed}). */
    public final LongAdder exportsShedForMemory = new LongAdder();
    /** Reads that used a shard's previous snapshot because it did not answer in time (see Ingest.snapshot). */
    public final LongAdder staleSnapshots = new LongAdder();
  }

  private final Map<Signal, Counters> bySignal = new EnumMap<>(Signal.class);

  public Stats() {
    for (Signal s : Signal.values()) {
      bySignal.put(s, new Counters());
    }
  }

  public Counters of(Signal s) {
    return bySignal.get(s);
  }

  /** Counts a receiver-level refusal by its HTTP status (405, 413, 415; others are not counted here). */
  public void refusedAtReceiver(Signal s, int httpStatus) {
    Counters c = bySignal.get(s);
    switch (httpStatus) {
      case 405 -> c.refusedMethod.increment();
      case 413 -> c.refusedTooLarge.increment();
      case 415 -> c.refusedMediaType.increment();
      default -> { }
    }
  }

  void accepted(Signal s, long records, int exports) {
    Counters c = bySignal.get(s);
    c.recordsAccepted.add(records);
    c.exportsAccepted.add(exports);
  }

  void shed(Signal s, long records) {
    Counters c = bySignal.get(s);
    c.recordsShed.add(records);
    c.exportsShed.increment();
  }

  void shedForMemory(Signal s) {
    bySignal.get(s).exportsShedForMemory.increment();
  }

  void invalid(Signal s) {
    bySignal.get(s).exportsInvalid.increment();
  }

  void failed(Signal s, long records) {
    bySignal.get(s).recordsFailed.add(records);
  }

  void published(Signal s, long bytes) {
    Counters c = bySignal.get(s);
    c.blocksPublished.increment();
    c.bytesPublished.add(bytes);
  }

  void staleSnapshot(Signal s) {
    bySignal.get(s).staleSnapshots.increment();
  }

  void publishFailed(Signal s, long records) {
    Counters c = bySignal.get(s);
    c.publishFailures.increment();
    c.recordsFailed.add(records);
  }
}
