#!/bin/sh
# Makes the image's AOT cache (JDK 25, JEP 483/514) from a training run: start, wait until the
# server says it is listening, SIGTERM, and let the JVM write the cache on exit. The cache records
# the module path, so this must run where the image will live: train-aot.sh IMAGE_DIR
set -eu
out=$(cd "$1" && pwd -P)
rm -f "$out/lib/mira.aot" "$out/lib/mira.aot.home"
train=$(mktemp -d)
trap 'rm -rf "$train"' EXIT
cd "$train"
"$out/runtime/bin/java" @"$out/conf/jvm.options" -XX:AOTCacheOutput="$out/lib/mira.aot" \
  --module-path "$out/lib" -m mira.server/mira.server.Main serve \
  --data-dir "$train/data" --grpc-listen 127.0.0.1:0 --http-listen 127.0.0.1:0 >"$train/log" 2>&1 &
pid=$!
i=0
while ! grep -q ' listening ' "$train/log" 2>/dev/null; do
  i=$((i + 1))
  if [ $i -gt 600 ] || ! kill -0 $pid 2>/dev/null; then
    echo "training run did not start:" >&2; cat "$train/log" >&2; exit 1
  fi
  sleep 0.1
done
kill -TERM $pid
wait $pid || true
if [ -f "$out/lib/mira.aot" ]; then
  printf '%s\n' "$out" > "$out/lib/mira.aot.home"
  echo "AOT cache: $out/lib/mira.aot"
else
  echo "warning: no AOT cache was written; the image starts without one" >&2
  cat "$train/log" >&2
fi
