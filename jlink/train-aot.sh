#!/bin/sh
# Makes the image's AOT cache (JDK 25, JEP 483/514) from a training run: `mira train` starts a node
# on loopback, sends it a probe and an export of every signal, stops it, and the JVM writes the
# cache on exit. The cache records the module path, so this must run where the image will live:
#   train-aot.sh IMAGE_DIR          the image is at IMAGE_DIR on this machine
#   train-aot.sh IMAGE_DIR ROOT     the image is at IMAGE_DIR (absolute) inside the root filesystem
#                                   ROOT, and the JVM runs there under chroot (in-root.sh), as it
#                                   will in a container image that has no shell to train in
set -eu
here=$(cd "$(dirname "$0")" && pwd -P)
if [ $# -ge 2 ]; then
  root=$(cd "$2" && pwd -P)
  out=$1
  run="sh $here/in-root.sh $root"
else
  root=
  out=$(cd "$1" && pwd -P)
  run=
fi
rm -f "$root$out/lib/mira.aot" "$root$out/lib/mira.aot.home"
log=$(mktemp)
trap 'rm -f "$log"' EXIT
# Trained with the collector the launcher uses by default (the cache is only valid with it).
# shellcheck disable=SC2086
if $run "$out/runtime/bin/java" @"$out/conf/jvm.options" -XX:+UseParallelGC -Xmn64m -XX:AOTCacheOutput="$out/lib/mira.aot" \
    --module-path "$out/lib" -m mira.cli/mira.cli.Main train >"$log" 2>&1 && [ -f "$root$out/lib/mira.aot" ]; then
  printf '%s\n' "$out" > "$root$out/lib/mira.aot.home"
  echo "AOT cache: $root$out/lib/mira.aot"
else
  echo "warning: no AOT cache was written; the image starts without one" >&2
  cat "$log" >&2
fi
