package mira.block.catalog;

import java.nio.file.Path;
import mira.proto.wire.Signal;

/** A published block as the catalogue knows it: its signal, its parsed name and its directory. */
public record BlockRef(Signal signal, BlockName name, Path dir) {}
