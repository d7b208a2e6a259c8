package mira.server.otlp;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.github.luben.zstd.Zstd;
import java.io.ByteArrayInputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.util.Arrays;
import java.util.Random;
import mira.server.testing.Samples;
import org.junit.jupiter.api.Test;

class BoundedBodiesTest {
  private static final int LIMIT = 100_000;

  /** An endless stream of ones that counts what it produced. */
  private static final class Endless extends InputStream {
    long produced;

    @Override
    public int read() {
      produced++;
      return 1;
    }

    @Override
    public int read(byte[] b, int off, int len) {
      Arrays.fill(b, off, off + len, (byte) 1);
      produced += len;
      return len;
    }
  }

  private static byte[] random(int n, long seed) {
    byte[] b = new byte[n];
    new Random(seed).nextBytes(b);
    return b;
  }

  @Test
  void readingStopsAtTheFirstBytePastTheLimit() {
    Endless in = new Endless();
    assertThatThrownBy(() -> BoundedBodies.readAtMost(in, -1, LIMIT)).isInstanceOf(TooLarge.class);
    assertThat(in.produced).isEqualTo(LIMIT + 1);
  }

  @Test
  void aHintAboveTheLimitDoesNotAllocatePastIt() {
    Endless in = new Endless();
    assertThatThrownBy(() -> BoundedBodies.readAtMost(in, Integer.MAX_VALUE, LIMIT)).isInstanceOf(TooLarge.class);
    assertThat(in.produced).isEqualTo(LIMIT + 1);
  }

  @Test
  void aBodyOfExactlyTheLimitIsAccepted() throws Exception {
    byte[] data = random(LIMIT, 1);
    Body b = BoundedBodies.readAtMost(new ByteArrayInputStream(data), -1, LIMIT);
    assertThat(Arrays.copyOf(b.bytes(), b.length())).isEqualTo(data);
  }

  @Test
  void aCorrectHintMeansOneArrayOfExactlyThatSize() throws Exception {
    byte[] data = random(12_345, 2);
    Body b = BoundedBodies.readAtMost(new ByteArrayInputStream(data), data.length, LIMIT);
    assertThat(b.bytes()).isEqualTo(data);
  }

  @Test
  void aWrongHintStillReadsEverything() throws Exception {
    byte[] data = random(50_000, 3);
    Body b = BoundedBodies.readAtMost(new ByteArrayInputStream(data), 10, LIMIT);
    assertThat(Arrays.copyOf(b.bytes(), b.length())).isEqualTo(data);
  }

  @Test
  void anEmptyBodyIsEmpty() throws Exception {
    assertThat(BoundedBodies.readAtMost(InputStream.nullInputStream(), -1, LIMIT).length()).isZero();
    assertThat(BoundedBodies.readAtMost(InputStream.nullInputStream(), 0, LIMIT).length()).isZero();
  }

  @Test
  void readExactlyRefusesAShortBody() {
    assertThatThrownBy(() -> BoundedBodies.readExactly(new ByteArrayInputStream(new byte[10]), 20))
        .isInstanceOf(EOFException.class).hasMessageContaining("after 10 of the 20 bytes");
  }

  @Test
  void gzipRoundTripsIncludingConcatenatedMembers() throws Exception {
    byte[] a = random(30_000, 4);
    byte[] b = "second member".getBytes();
    byte[] ga = Samples.gzip(a);
    byte[] gb = Samples.gzip(b);
    byte[] both = Arrays.copyOf(ga, ga.length + gb.length);
    System.arraycopy(gb, 0, both, ga.length, gb.length);
    Body out = BoundedBodies.gunzip(new Body(both, both.length), LIMIT);
    byte[] expected = Arrays.copyOf(a, a.length + b.length);
    System.arraycopy(b, 0, expected, a.length, b.length);
    assertThat(Arrays.copyOf(out.bytes(), out.length())).isEqualTo(expected);
  }

  @Test
  void gzipBombIsRefusedAtTheLimit() throws Exception {
    byte[] bomb = Samples.gzippedZeros(64L << 20);
    assertThat(bomb.length).isLessThan(LIMIT);
    assertThatThrownBy(() -> BoundedBodies.gunzip(new Body(bomb, bomb.length), LIMIT)).isInstanceOf(TooLarge.class);
  }

  @Test
  void corruptGzipIsAnIoException() throws Exception {
    byte[] gz = Samples.gzip(random(5_000, 5));
    Arrays.fill(gz, 12, gz.length - 8, (byte) 0x5a);
    assertThatThrownBy(() -> BoundedBodies.gunzip(new Body(gz, gz.length), LIMIT)).isInstanceOf(IOException.class);
  }

  @Test
  void truncatedGzipIsAnIoException() throws Exception {
    byte[] gz = Samples.gzip(random(5_000, 6));
    assertThatThrownBy(() -> BoundedBodies.gunzip(new Body(gz, gz.length / 2), LIMIT)).isInstanceOf(EOFException.class);
  }

  @Test
  void zstdRoundTrips() throws Exception {
    byte[] data = random(70_000, 7);
    byte[] z = Zstd.compress(data);
    Body out = BoundedBodies.unzstd(new Body(z, z.length), LIMIT);
    assertThat(Arrays.copyOf(out.bytes(), out.length())).isEqualTo(data);
  }

  @Test
  void zstdBombIsRefusedAtTheLimit() {
    byte[] z = Zstd.compress(new byte[64 << 20]);
    assertThat(z.length).isLessThan(LIMIT);
    assertThatThrownBy(() -> BoundedBodies.unzstd(new Body(z, z.length), LIMIT)).isInstanceOf(TooLarge.class);
  }

  @Test
  void corruptZstdIsAnIoException() {
    byte[] z = Zstd.compress(random(5_000, 8));
    Arrays.fill(z, 6, z.length, (byte) 0x5a);
    assertThatThrownBy(() -> BoundedBodies.unzstd(new Body(z, z.length), LIMIT)).isInstanceOf(IOException.class);
  }
}
