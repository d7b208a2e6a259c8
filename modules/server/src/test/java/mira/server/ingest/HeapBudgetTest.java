package mira.server.ingest;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicReference;
import mira.block.Decoders;
import mira.block.table.Batch;
import mira.proto.wire.Signal;
import mira.server.ingest.IngestSink.Accepted;
import mira.server.ingest.IngestSink.Outcome;
import mira.server.ingest.IngestSink.Retry;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Ingest's heap budget: past it exports are told to retry, and pressure seals blocks early. */
class HeapBudgetTest {
  @TempDir Path data;
  private final AtomicReference<Throwable> fatal = new AtomicReference<>();

  /**
   * Takes the pooled logs batches out of the decoders' pool (it keeps up to four, shared by the
   * whole JVM): a batch an earlier test left there can hold megabytes, and an export decoded into it
   * is charged all of it, which against these small budgets sheds exports the test expects taken.
   */
  @BeforeEach
  void emptyTheBatchPool() throws Exception {
    byte[] one = IngestTest.logs(1, "pool");
    for (int i = 0; i < 8; i++) {
      Decoders.decode(Signal.LOGS, one, 0, one.length, 0);
    }
  }

  @AfterEach
  void noFlusherDied() {
    assertThat(fatal.get()).isNull();
  }

  /** The log on, one shard, blocks that would age for an hour: only the budget seals them early. */
  private Ingest start(long budget) throws Exception {
    Ingest.Options o = new Ingest.Options("n1", 1, 1024, true, 16 << 20, Duration.ofSeconds(5))
        .withBlockAge(Duration.ofHours(1)).withHeapBudget(budget);
    return Ingest.start(data, o, (t, e) -> fatal.set(e));
  }

  private IngestTest rows() {
    IngestTest t = new IngestTest();
    t.data = data;
    return t;
  }

  @Test
  void anExportThatDoesNotFitTheBudgetIsToldToRetryAndHoldsNothing() throws Exception {
    long accepted;
    try (Ingest in = start(1 << 20)) {
      byte[] small = IngestTest.logs(5, "small");
      assertThat(in.submit(Signal.LOGS, small, small.length)).isEqualTo(new Accepted(5));
      // A read waits until the shard has taken the export into its open block (and charged it).
      assertThat(in.snapshot(Signal.LOGS)).hasSize(1);
      long held = in.heapHeld();
      System.out.println("open block of 5 records charged " + held + " bytes; a decoded 500-record export holds "
          + mira.block.Decoders.decode(Signal.LOGS, IngestTest.logs(500, "x"), 0, IngestTest.logs(500, "x").length, 0)
              .capacityBytes());
      assertThat(held).as("the open block is charged").isPositive().isLessThan(1 << 20);

      byte[] big = IngestTest.logs(60_000, "big");
      assertThat(big.length).isGreaterThan(1 << 20);
      Outcome o = in.submit(Signal.LOGS, big, big.length);
      assertThat(o).isInstanceOf(Retry.class);
      assertThat(((Retry) o).message()).startsWith("overloaded: ingest holds ").endsWith(" of its 1024 KiB heap budget");
      assertThat(((Retry) o).after()).isEqualTo(Ingest.RETRY_AFTER);
      assertThat(in.heapHeld()).as("a shed export gives back what it took").isEqualTo(held);
      assertThat(in.stats().of(Signal.LOGS).exportsShedForMemory.sum()).isEqualTo(1);
      assertThat(in.stats().of(Signal.LOGS).exportsShed.sum()).isEqualTo(1);

      assertThat(in.submit(Signal.LOGS, small, small.length)).isEqualTo(new Accepted(5));
      accepted = in.stats().of(Signal.LOGS).recordsAccepted.sum();
    }
    assertThat(accepted).isEqualTo(10);
    assertThat(rows().storedLogRows()).isEqualTo(10);
  }

  /**
   * The open block is charged what its arrays hold and the room its largest column needs to double
   * (old and new array live at once while it grows), so a growth is in the budget before it
   * happens. Charging only the arrays let a doubling overrun a 128 MiB heap.
   */
  @Test
  void theOpenBlockIsChargedItsArraysAndItsLargestColumnsDoubling() throws Exception {
    byte[] b = IngestTest.logs(2000, "a body that makes the body column the largest one by far");
    Batch same = Decoders.empty(Signal.LOGS);
    assertThat(same.tryAppend(Decoders.decode(Signal.LOGS, b, 0, b.length, 0))).isTrue();
    long expected = same.capacityBytes() + 2 * same.largestColumnBytes();
    assertThat(same.largestColumnBytes()).isPositive();
    try (Ingest in = start(64 << 20)) {
      assertThat(in.submit(Signal.LOGS, b, b.length)).isEqualTo(new Accepted(2000));
      assertThat(in.snapshot(Signal.LOGS)).hasSize(1);
      assertThat(in.heapHeld()).isEqualTo(expected);
    }
  }

  @Test
  void underPressureBlocksAreSealedEarlyAndEveryAcceptedRecordIsStored() throws Exception {
    long budget = 4 << 20;
    long accepted = 0;
    int retried = 0;
    try (Ingest in = start(budget)) {
      for (int i = 0; i < 200; i++) {
        byte[] b = IngestTest.logs(500, "export " + i + " with a body long enough to weigh something");
        Outcome o = in.submit(Signal.LOGS, b, b.length);
        if (o instanceof Accepted a) {
          accepted += a.records();
        } else {
          assertThat(o).isInstanceOf(Retry.class);
          retried++;
          Thread.sleep(10);
        }
      }
      // Without early seals the first block would stay open for an hour and, once it filled the
      // budget, every later export would be refused.
      assertThat(rows().blocks()).as("blocks sealed before their age").isNotEmpty();
      assertThat(accepted).as("accepted (%d retried)", retried).isGreaterThan(100 * 500L);
      assertThat(in.stats().of(Signal.LOGS).exportsShedForMemory.sum()).isEqualTo(retried);
    }
    assertThat(rows().storedLogRows()).as("stored == acknowledged").isEqualTo(accepted);
  }

  @Test
  void anAmountLargerThanTheBudgetFitsOnlyWhenNothingElseIsHeld() {
    HeapBudget b = new HeapBudget(100);
    assertThat(b.tryTake(150)).isTrue();
    assertThat(b.tryTake(1)).isFalse();
    assertThat(b.tryTake(10, 150)).as("the caller's own bytes do not count against it").isTrue();
    b.give(160);
    assertThat(b.held()).isZero();
    assertThat(b.tryTake(75)).isTrue();
    assertThat(b.pressed()).isFalse();
    b.adjust(1);
    assertThat(b.pressed()).isTrue();
    assertThat(b.tryTake(25)).isFalse();
    assertThat(b.tryTake(24)).isTrue();
  }
}
