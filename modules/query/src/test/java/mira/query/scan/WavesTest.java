package mira.query.scan;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import mira.block.catalog.BlockName;
import mira.block.catalog.BlockRef;
import mira.proto.wire.Signal;
import org.junit.jupiter.api.Test;

class WavesTest {
  static List<BlockRef> blocks(int n) {
    List<BlockRef> out = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      BlockName name = new BlockName(1000 - i, 1000 - i, 1, i, 0);
      out.add(new BlockRef(Signal.LOGS, name, Path.of("/nowhere", name.dirName())));
    }
    return out;
  }

  @Test
  void withNoHelperFreeEveryBlockIsScannedOnTheCallingThreadNewestFirst() throws Exception {
    List<Long> order = Collections.synchronizedList(new ArrayList<>());
    Set<Thread> threads = ConcurrentHashMap.newKeySet();
    Waves.run(blocks(40), b -> false, b -> {
      order.add(b.name().seq());
      threads.add(Thread.currentThread());
    }, new ScanThreads(0));
    assertThat(order).hasSize(40);
    assertThat(order).isSorted();
    assertThat(threads).containsExactly(Thread.currentThread());
  }

  @Test
  void helpersAreTakenWithoutWaiting() throws Exception {
    ScanThreads budget = new ScanThreads(2);
    assertThat(budget.tryTake(5)).isEqualTo(2); // another query holds the whole budget
    Set<Thread> threads = ConcurrentHashMap.newKeySet();
    AtomicInteger n = new AtomicInteger();
    Waves.run(blocks(31), b -> false, b -> {
      n.incrementAndGet();
      threads.add(Thread.currentThread());
    }, budget);
    assertThat(n).hasValue(31);
    assertThat(threads).containsExactly(Thread.currentThread());
    budget.give(2);
  }

  @Test
  void freeHelpersScanInParallelAndAreGivenBack() throws Exception {
    ScanThreads budget = new ScanThreads(3);
    Set<String> threads = ConcurrentHashMap.newKeySet();
    Set<Long> seen = ConcurrentHashMap.newKeySet();
    Waves.run(blocks(31), b -> false, b -> {
      assertThat(seen.add(b.name().seq())).as("scanned once").isTrue();
      threads.add(Thread.currentThread().getName());
      try {
        Thread.sleep(5);
      } catch (InterruptedException e) {
        throw new IOException(e);
      }
    }, budget);
    assertThat(seen).hasSize(31);
    assertThat(threads).anyMatch(t -> t.startsWith("mira-scan-"));
    assertThat(budget.tryTake(3)).as("every helper was given back").isEqualTo(3);
  }

  @Test
  void theFirstWaveIsOneBlockSoTheNewestBlockCanAnswerAlone() throws Exception {
    AtomicInteger scanned = new AtomicInteger();
    Waves.run(blocks(50), b -> scanned.get() >= 1, b -> scanned.incrementAndGet(), new ScanThreads(3));
    assertThat(scanned).hasValue(1);
  }

  @Test
  void wavesWidenOneTwoFourEightSixteen() throws Exception {
    // With no helpers the order is serial, so the gate sees each wave's start: record where it is asked.
    List<Integer> waveStarts = new ArrayList<>();
    AtomicInteger scanned = new AtomicInteger();
    List<BlockRef> all = blocks(60);
    Waves.run(all, b -> {
      if (scanned.get() == all.indexOf(b) && !waveStarts.contains(scanned.get())) {
        waveStarts.add(scanned.get());
      }
      return false;
    }, b -> scanned.incrementAndGet(), new ScanThreads(0));
    assertThat(scanned).hasValue(60);
    // Gate calls come before each wave and before each block; wave starts are 0, 1, 3, 7, 15, 31, 47.
    assertThat(waveStarts).contains(0, 1, 3, 7, 15, 31, 47);
  }

  @Test
  void anIoFailureOfOneBlockFailsTheScanAfterItsWave() {
    ScanThreads budget = new ScanThreads(2);
    assertThatThrownBy(() -> Waves.run(blocks(10), b -> false, b -> {
      if (b.name().seq() == 4) {
        throw new IOException("disk gone");
      }
    }, budget)).isInstanceOf(IOException.class).hasMessage("disk gone");
    assertThat(budget.tryTake(2)).isEqualTo(2);
  }
}
