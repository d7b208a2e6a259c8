package mira.fs.testing;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import mira.fs.testing.FaultyFs.Failure;
import mira.fs.testing.FaultyFs.Op;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The fault model itself: what a power cut keeps and drops, and how failures look. */
class FaultyFsTest {
  @TempDir Path tmp;

  private FaultyFs fs() throws IOException {
    Files.createDirectories(tmp.resolve("root"));
    return new FaultyFs(tmp.resolve("graves"));
  }

  private Path root() {
    return tmp.resolve("root");
  }

  private static void write(FileChannel ch, String s) throws IOException {
    ByteBuffer b = ByteBuffer.wrap(s.getBytes(StandardCharsets.UTF_8));
    while (b.hasRemaining()) {
      ch.write(b);
    }
  }

  @Test
  void aFileWhoseNameWasNeverMadeDurableIsGone() throws Exception {
    FaultyFs fs = fs();
    Path f = root().resolve("a");
    try (FileChannel ch = fs.create(f)) {
      write(ch, "hello");
      ch.force(false);
    }
    fs.losePower();
    assertThat(f).doesNotExist();
  }

  @Test
  void aFileKeepsExactlyWhatWasForced() throws Exception {
    FaultyFs fs = fs();
    Path f = root().resolve("a");
    try (FileChannel ch = fs.create(f)) {
      fs.fsyncDir(root());
      write(ch, "hello");
      ch.force(false);
      write(ch, " world");
    }
    fs.losePower();
    assertThat(Files.readString(f)).isEqualTo("hello");
  }

  @Test
  void aRenameIsUndoneUntilItsDestinationDirectoryIsSynced() throws Exception {
    FaultyFs fs = fs();
    Path staging = root().resolve("staging");
    Path target = root().resolve("part").resolve("block");
    fs.createDirectory(staging);
    fs.fsyncDir(root());
    try (FileChannel ch = fs.create(staging.resolve("t"))) {
      write(ch, "rows");
      ch.force(true);
    }
    fs.fsyncDir(staging);
    fs.createDirectories(target.getParent());
    fs.rename(staging, target);
    fs.losePower();
    assertThat(target).doesNotExist();
    assertThat(target.getParent()).as("its directory was never synced into root").doesNotExist();
    assertThat(Files.readString(staging.resolve("t"))).isEqualTo("rows");
  }

  @Test
  void aRenameMadeDurableSurvivesWithTheFilesForcedUnderItsOldName() throws Exception {
    FaultyFs fs = fs();
    Path staging = root().resolve("staging");
    Path target = root().resolve("block");
    fs.createDirectory(staging);
    try (FileChannel ch = fs.create(staging.resolve("t"))) {
      write(ch, "rows");
      ch.force(true);
    }
    fs.fsyncDir(staging);
    fs.rename(staging, target);
    fs.fsyncDir(root());
    fs.losePower();
    assertThat(Files.readString(target.resolve("t"))).isEqualTo("rows");
    assertThat(staging).doesNotExist();
  }

  @Test
  void aDurableRenameKeepsADirectoryWhoseOwnMkdirWasNeverSynced() throws Exception {
    FaultyFs fs = fs();
    Path stagingRoot = root().resolve(".staging");
    fs.createDirectory(stagingRoot);
    fs.fsyncDir(root());
    Path staging = stagingRoot.resolve("b");
    fs.createDirectory(staging);
    try (FileChannel ch = fs.create(staging.resolve("t"))) {
      write(ch, "rows");
      ch.force(true);
    }
    fs.fsyncDir(staging);
    Path target = root().resolve("b");
    fs.rename(staging, target);
    fs.fsyncDir(root());
    fs.losePower();
    assertThat(Files.readString(target.resolve("t"))).isEqualTo("rows");
    assertThat(staging).doesNotExist();
  }

  @Test
  void aDeleteIsUndoneUntilItsDirectoryIsSynced() throws Exception {
    Path f = root().resolve("a");
    Files.createDirectories(root());
    Files.writeString(f, "kept");
    FaultyFs fs = new FaultyFs(tmp.resolve("graves"));
    assertThat(fs.delete(f)).isTrue();
    assertThat(f).doesNotExist();
    fs.losePower();
    assertThat(Files.readString(f)).isEqualTo("kept");

    FaultyFs again = new FaultyFs(tmp.resolve("graves2"));
    again.delete(f);
    again.fsyncDir(root());
    again.losePower();
    assertThat(f).doesNotExist();
  }

  @Test
  void aReplaceIsUndoneToTheOldFile() throws Exception {
    Files.createDirectories(root());
    Path table = root().resolve("t");
    Files.writeString(table, "hot");
    FaultyFs fs = new FaultyFs(tmp.resolve("graves"));
    Path staged = root().resolve("t.staged");
    try (FileChannel ch = fs.create(staged)) {
      write(ch, "cold");
      ch.force(true);
    }
    fs.replace(staged, table);
    assertThat(Files.readString(table)).isEqualTo("cold");
    fs.losePower();
    assertThat(Files.readString(table)).isEqualTo("hot");
    assertThat(staged).doesNotExist();
  }

  @Test
  void theNthCallFailsOnceAndAShortWriteWritesPart() throws Exception {
    FaultyFs fs = fs().fail(Op.WRITE, 2, Failure.SHORT_WRITE).fail(Op.FORCE, 1, Failure.EIO);
    Path f = root().resolve("a");
    try (FileChannel ch = fs.create(f)) {
      write(ch, "1234");
      assertThatThrownBy(() -> ch.write(ByteBuffer.wrap("abcdefgh".getBytes(StandardCharsets.UTF_8))))
          .isInstanceOf(IOException.class).hasMessageContaining("SHORT_WRITE");
      assertThat(ch.size()).isEqualTo(8);
      assertThatThrownBy(() -> ch.force(false)).hasMessageContaining("EIO").hasMessageContaining("Input/output error");
      ch.force(false);
    }
    assertThat(fs.calls(Op.WRITE)).isEqualTo(2);
    assertThat(fs.calls(Op.FORCE)).isEqualTo(2);
  }

  @Test
  void afterThePowerCutEveryCallThrowsAndTouchesNothing() throws Exception {
    FaultyFs fs = fs().cutAt(2);
    fs.createDirectory(root().resolve("d"));
    assertThatThrownBy(() -> fs.createDirectory(root().resolve("e"))).isInstanceOf(FaultyFs.PowerCut.class);
    assertThatThrownBy(() -> fs.fsyncDir(root())).isInstanceOf(FaultyFs.PowerCut.class);
    assertThat(root().resolve("e")).doesNotExist();
    assertThat(fs.isCut()).isTrue();
    fs.losePower();
    assertThat(root().resolve("d")).as("never synced").doesNotExist();
  }
}
