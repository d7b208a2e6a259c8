#!/bin/sh
# Makes the image's AOT cache (JDK 25, JEP 483/514) from a training run: `mira train` starts a node
# on loopback, sends it a probe and an export of every signal, stops it, and the JVM writes the
# cache on exit. The cache records the module path, so this must run where the image will live:
#   train-aot.sh IMAGE_DIR
set -eu
out=$(cd "$1" && pwd -P)
rm -f "$out/lib/mira.aot" "$out/lib/mira.aot.home"
log=$(mktemp)
trap 'rm -f "$log"' EXIT
# Trained with the collector the launcher uses by default (the cache is only valid with it).
if "$out/runtime/bin/java" @"$out/conf/jvm.options" -XX:+UseParallelGC -Xmn64m -XX:AOTCacheOutput="$out/lib/mira.aot" \
    --module-path "$out/lib" -m mira.cli/mira.cli.Main train >"$log" 2>&1 && [ -f "$out/lib/mira.aot" ]; then
  printf '%s\n' "$out" > "$out/lib/mira.aot.home"
  echo "AOT cache: $out/lib/mira.aot"
else
  echo "warning: no AOT cache was written; the image starts without one" >&2
  cat "$log" >&2
fi
