package mira.block;

import static org.assertj.core.api.Assertions.assertThat;

import com.google.protobuf.MessageLite;
import mira.block.table.Batch;
import mira.block.testing.SampleRequests;
import mira.proto.wire.Signal;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/** The pool of decoded batches: what a new batch starts with when the pool is empty. */
class BatchPoolTest {
  private static byte[] export(Signal signal, int n) {
    MessageLite req = switch (signal) {
      case LOGS -> SampleRequests.logs(n, 7);
      case TRACES -> SampleRequests.traces(n, 7);
      case METRICS -> SampleRequests.metrics(n, 7);
    };
    return req.toByteArray();
  }

  private static Batch decodeInto(Signal signal, byte[] b, Batch into) throws Exception {
    return switch (signal) {
      case LOGS -> new mira.block.logs.LogsDecoder().decode(b, 0, b.length, 0, (mira.block.logs.LogsBatch) into);
      case TRACES -> new mira.block.traces.TracesDecoder().decode(b, 0, b.length, 0, (mira.block.traces.TracesBatch) into);
      case METRICS -> new mira.block.metrics.MetricsDecoder().decode(b, 0, b.length, 0, (mira.block.metrics.MetricsBatch) into);
    };
  }

  @ParameterizedTest
  @EnumSource(Signal.class)
  void aNewBatchMadeWhileThePoolIsEmptyHasTheArraysOfTheLastOneGivenBack(Signal signal) throws Exception {
    byte[] b = export(signal, 2000);
    BatchPool pool = new BatchPool(signal);
    Batch fresh = pool.take();
    long empty = fresh.capacityBytes();
    Batch first = decodeInto(signal, b, fresh);
    long grown = first.capacityBytes();
    long records = first.records();
    assertThat(grown).isGreaterThan(empty);
    pool.offer(first);
    assertThat(pool.take()).isSameAs(first);

    Batch sized = pool.take();
    assertThat(sized).isNotSameAs(first);
    assertThat(sized.isEmpty()).isTrue();
    assertThat(sized.capacityBytes()).isGreaterThanOrEqualTo(grown);
    // The same export decoded into it grows nothing.
    assertThat(decodeInto(signal, b, sized).capacityBytes()).isEqualTo(sized.capacityBytes());
    assertThat(sized.records()).isEqualTo(records);
  }

  @ParameterizedTest
  @EnumSource(Signal.class)
  void anExportOfTheSameSizeGetsThePooledBatchAndASmallOneAFreshSmallBatch(Signal signal) throws Exception {
    byte[] big = export(signal, 2000);
    byte[] small = export(signal, 3);
    BatchPool pool = new BatchPool(signal);
    Batch first = decodeInto(signal, big, pool.take(big.length));
    long grown = first.capacityBytes();
    System.out.printf("%s: %d records, %d body bytes, %d bytes of arrays (%.1f per body byte)%n", signal,
        first.records(), big.length, grown, grown / (double) big.length);
    pool.offer(first);

    Batch forSmall = pool.take(small.length);
    assertThat(forSmall).as("the large pooled batch is kept for a large export").isNotSameAs(first);
    assertThat(forSmall.capacityBytes()).as("nor is a fresh one sized like it")
        .isLessThanOrEqualTo(BatchPool.SMALL_CAPACITY).isLessThan(grown);
    assertThat(pool.take(big.length)).as("an export like the one that grew it reuses it").isSameAs(first);
    Batch sized = pool.take(big.length);
    assertThat(sized.capacityBytes()).as("and a new batch for one is sized like it").isGreaterThanOrEqualTo(grown);
  }
}
