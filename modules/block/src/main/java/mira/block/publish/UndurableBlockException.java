package mira.block.publish;

import java.io.IOException;
import java.nio.file.Path;

/**
 * A block was renamed into place (it is visible to readers and must never be published again) but
 * the directory fsyncs that make the rename survive a power cut failed. The caller treats the
 * block as published and retries {@link Publisher#makeDurable} until it succeeds before it relies
 * on the block surviving a power cut (with the write-ahead log: before retiring the block's frames).
 */
public final class UndurableBlockException extends IOException {
  private final transient Path block;

  public UndurableBlockException(Path block, IOException cause) {
    super("block " + block.getFileName() + " is published but not yet durable: " + cause.getMessage(), cause);
    this.block = block;
  }

  /** The published block's directory. */
  public Path block() {
    return block;
  }
}
