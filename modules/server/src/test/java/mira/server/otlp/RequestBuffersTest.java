package mira.server.otlp;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.util.Arrays;
import java.util.Random;
import org.junit.jupiter.api.Test;

class RequestBuffersTest {

  @Test
  void anArrayGivenBackIsTakenAgainForABodyOfItsClass() {
    RequestBuffers pool = new RequestBuffers(8L << 20);
    byte[] a = pool.take(3_000_000);
    assertThat(a.length).isEqualTo(4 << 20);
    pool.give(a);
    assertThat(pool.held()).isEqualTo(1);
    assertThat(pool.take(2_500_000)).isSameAs(a);
    assertThat(pool.held()).isZero();
    assertThat(pool.heldBytes()).isZero();
  }

  @Test
  void smallAndHugeBodiesGetArraysOfTheirOwnSizeAndAreNotKept() {
    RequestBuffers pool = new RequestBuffers(64L << 20);
    byte[] small = pool.take(1000);
    assertThat(small.length).isEqualTo(1000);
    byte[] huge = pool.take(RequestBuffers.MAX_POOLED + 1);
    assertThat(huge.length).isEqualTo(RequestBuffers.MAX_POOLED + 1);
    pool.give(small);
    pool.give(huge);
    pool.give(new byte[RequestBuffers.MAX_POOLED * 2]);
    pool.give(new byte[100_000]);
    assertThat(pool.held()).isZero();
  }

  @Test
  void thePoolKeepsNoMoreThanItsBudget() {
    RequestBuffers pool = new RequestBuffers(4L << 20);
    for (int i = 0; i < 10; i++) {
      pool.give(new byte[1 << 20]);
    }
    assertThat(pool.heldBytes()).isEqualTo(4L << 20);
    assertThat(pool.held()).isEqualTo(4);
    pool.give(new byte[4 << 20]);
    assertThat(pool.heldBytes()).isEqualTo(4L << 20);
  }

  /**
   * A pooled array can be longer than the limit (the limit rounded up to its class): reading must
   * still refuse the first byte past the limit and accept a body of exactly the limit.
   */
  @Test
  void aPooledArrayLongerThanTheLimitIsNeverReadPastTheLimit() throws Exception {
    RequestBuffers pool = new RequestBuffers(8L << 20);
    int limit = 100_000;
    byte[] exact = new byte[limit];
    new Random(3).nextBytes(exact);
    Body b = BoundedBodies.readAtMost(new ByteArrayInputStream(exact), limit, limit, pool);
    assertThat(b.bytes().length).isEqualTo(128 * 1024);
    assertThat(Arrays.equals(b.bytes(), 0, b.length(), exact, 0, limit)).isTrue();
    pool.give(b.bytes());
    byte[] over = Arrays.copyOf(exact, limit + 1);
    assertThatThrownBy(() -> BoundedBodies.readAtMost(new ByteArrayInputStream(over), limit, limit, pool))
        .isInstanceOf(TooLarge.class);
    assertThat(pool.held()).as("the array in hand goes back when the read is refused").isEqualTo(1);
  }

  /**
   * Bodies read into reused (dirty) arrays, whatever the size hint, equal what was sent, or are
   * refused exactly when they exceed the limit; every array goes back. Seeded: the seed is in the
   * failure message.
   */
  @Test
  void bodiesReadIntoReusedArraysEqualTheirInputOrAreRefusedPastTheLimit() throws IOException {
    long seed = new Random().nextLong();
    Random r = new Random(seed);
    RequestBuffers pool = new RequestBuffers(16L << 20);
    for (int i = 0; i < 300; i++) {
      int length = r.nextInt(4) == 0 ? r.nextInt(100) : r.nextInt(600_000);
      int limit = r.nextInt(3) == 0 ? length + r.nextInt(3) - 1 : 1 + r.nextInt(700_000);
      limit = Math.max(1, limit);
      int hint = switch (r.nextInt(4)) {
        case 0 -> -1;
        case 1 -> length;
        case 2 -> r.nextInt(length + 1);
        default -> length + r.nextInt(200_000);
      };
      byte[] data = new byte[length];
      r.nextBytes(data);
      String what = "seed " + seed + ", try " + i + ": length " + length + ", limit " + limit + ", hint " + hint;
      try {
        Body b = r.nextBoolean()
            ? BoundedBodies.readAtMost(new ByteArrayInputStream(data), hint, limit, pool)
            : BoundedBodies.readAtMost(new Trickle(data, r.nextLong()), hint, limit, pool);
        assertThat(length).as(what).isLessThanOrEqualTo(limit);
        assertThat(b.length()).as(what).isEqualTo(length);
        assertThat(Arrays.equals(b.bytes(), 0, length, data, 0, length)).as(what).isTrue();
        // Scribble on it before it goes back, as the next request would.
        Arrays.fill(b.bytes(), (byte) 0x5a);
        pool.give(b.bytes());
      } catch (TooLarge e) {
        assertThat(length).as(what).isGreaterThan(limit);
      }
      assertThat(pool.heldBytes()).as(what).isLessThanOrEqualTo(16L << 20);
    }
  }

  /** Hands out its bytes a few at a time, as a socket does. */
  private static final class Trickle extends java.io.InputStream {
    private final byte[] data;
    private final Random r;
    private int at;

    Trickle(byte[] data, long seed) {
      this.data = data;
      this.r = new Random(seed);
    }

    @Override
    public int read() {
      return at < data.length ? data[at++] & 0xFF : -1;
    }

    @Override
    public int read(byte[] b, int off, int len) {
      if (at >= data.length) {
        return -1;
      }
      int n = Math.min(Math.min(len, data.length - at), 1 + r.nextInt(40_000));
      System.arraycopy(data, at, b, off, n);
      at += n;
      return n;
    }
  }
}
