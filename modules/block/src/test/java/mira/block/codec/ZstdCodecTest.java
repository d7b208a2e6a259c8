package mira.block.codec;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.github.luben.zstd.Zstd;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.Random;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;
import org.apache.arrow.memory.ArrowBuf;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.compression.CompressionUtil;
import org.junit.jupiter.api.Test;

class ZstdCodecTest {
  /** Bytes of the kinds a table holds: growing offsets, timestamps, noise, text; any length. */
  static byte[] buffer(long seed, int words, int tail, int kind) {
    Random r = new Random(seed);
    ByteBuffer b = ByteBuffer.allocate(words * 8 + tail).order(ByteOrder.LITTLE_ENDIAN);
    long acc = r.nextLong();
    for (int i = 0; i < words; i++) {
      switch (kind) {
        case 0 -> { b.putInt((int) acc); acc += r.nextInt(40); b.putInt((int) acc); acc += r.nextInt(40); }
        case 1 -> { acc += r.nextInt(1_000_000); b.putLong(acc); }
        case 2 -> b.putLong(r.nextLong());
        default -> b.put(String.format("%-8s", "k" + r.nextInt(30) + "=v;").getBytes(), 0, 8);
      }
    }
    for (int i = 0; i < tail; i++) {
      b.put((byte) r.nextInt());
    }
    return b.array();
  }

  private static byte[] roundTrip(BufferAllocator a, byte[] data, int[] shapeSeen) {
    ZstdCodec codec = new ZstdCodec(ZstdCodec.LEVEL);
    try (ArrowBuf in = a.buffer(Math.max(1, data.length))) {
      in.setBytes(0, data);
      in.writerIndex(data.length);
      in.getReferenceManager().retain();
      try (ArrowBuf packed = codec.compress(a, in)) {
        if (packed.writerIndex() > CompressionUtil.SIZE_OF_UNCOMPRESSED_LENGTH + 4 && packed.getLong(0) != -1) {
          shapeSeen[0] = packed.getByte(CompressionUtil.SIZE_OF_UNCOMPRESSED_LENGTH + 3);
        }
        packed.getReferenceManager().retain();
        try (ArrowBuf out = codec.decompress(a, packed)) {
          byte[] back = new byte[(int) out.writerIndex()];
          out.getBytes(0, back);
          return back;
        }
      }
    }
  }

  @Property(tries = 200)
  void everyBufferComesBackByteForByte(@ForAll long seed, @ForAll @IntRange(min = 0, max = 20_000) int words,
      @ForAll @IntRange(min = 0, max = 7) int tail, @ForAll @IntRange(min = 0, max = 3) int kind) {
    byte[] data = buffer(seed, words, tail, kind);
    try (RootAllocator a = new RootAllocator()) {
      assertThat(roundTrip(a, data, new int[1])).isEqualTo(data);
      assertThat(a.getAllocatedMemory()).isZero();
    }
  }

  @Property(tries = 50)
  void everyShapeUndoesItself(@ForAll long seed, @ForAll @IntRange(min = 0, max = 3000) int words,
      @ForAll @IntRange(min = 0, max = 7) int tail) {
    byte[] data = buffer(seed, words, tail, (int) Math.floorMod(seed, 4));
    for (Shape s : Shape.values()) {
      byte[] shaped = new byte[data.length];
      byte[] back = new byte[data.length];
      s.apply(data, shaped, data.length);
      s.undo(shaped, back, data.length);
      assertThat(back).as(s.name()).isEqualTo(data);
    }
  }

  @Test
  void growingOffsetsAreStoredAsDifferencesAndShrink() {
    byte[] offsets = buffer(7, 50_000, 0, 0);
    int[] shape = new int[1];
    try (RootAllocator a = new RootAllocator()) {
      assertThat(roundTrip(a, offsets, shape)).isEqualTo(offsets);
    }
    assertThat(Shape.byId(shape[0])).isIn(Shape.DELTA4, Shape.DELTA4_SPLIT);
    byte[] shaped = new byte[offsets.length];
    Shape.DELTA4_SPLIT.apply(offsets, shaped, offsets.length);
    assertThat(Zstd.compress(shaped, ZstdCodec.LEVEL).length).isLessThan(Zstd.compress(offsets, ZstdCodec.LEVEL).length / 3);
  }

  @Test
  void aBareZstdFrameWrittenBeforeShapesStillReads() {
    byte[] data = buffer(11, 4000, 3, 1);
    byte[] frame = Zstd.compress(data, 3);
    try (RootAllocator a = new RootAllocator(); ArrowBuf packed = a.buffer(8 + frame.length)) {
      packed.setLong(0, data.length);
      packed.setBytes(8, frame);
      packed.writerIndex(8 + frame.length);
      packed.getReferenceManager().retain();
      try (ArrowBuf out = new ZstdCodec(3).decompress(a, packed)) {
        byte[] back = new byte[(int) out.writerIndex()];
        out.getBytes(0, back);
        assertThat(back).isEqualTo(data);
      }
    }
  }

  @Test
  void aBodyWithAnUnknownHeaderIsRefusedNotGuessed() {
    try (RootAllocator a = new RootAllocator(); ArrowBuf packed = a.buffer(32)) {
      packed.setLong(0, 16);
      packed.setBytes(8, new byte[] {'M', 'Z', 1, 99, 0, 0, 0, 0});
      packed.writerIndex(16);
      ZstdCodec codec = new ZstdCodec(3);
      assertThatThrownBy(() -> codec.decompress(a, packed)).hasMessageContaining("neither a zstd frame nor a shaped one");
    }
  }
}
