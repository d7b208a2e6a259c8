#!/bin/sh
# Builds the runnable image: assemble.sh JAVA_HOME JAR_DIR OUT_DIR
#   OUT_DIR/runtime   a jlinked JDK holding only the modules jdeps says the jars need
#   OUT_DIR/lib       the application jars (module path)
#   OUT_DIR/conf      jvm.options (read by the launcher as an @argfile)
#   OUT_DIR/bin/mira  the launcher
set -eu
java_home=$1
jars=$2
out=$3
here=$(cd "$(dirname "$0")" && pwd -P)

rm -rf "$out"
mkdir -p "$out/bin" "$out/lib" "$out/conf"
cp "$jars"/*.jar "$out/lib/"

# JDK modules the application needs, as jdeps computes them from the jars themselves.
# The graph is the one the launcher resolves: mira.cli and everything it requires.
modules=$("$java_home/bin/jdeps" --ignore-missing-deps --multi-release 25 --print-module-deps \
  --module-path "$out/lib" --add-modules ALL-MODULE-PATH -m mira.cli 2>/dev/null | tail -n 1)
case $modules in
  java.base*) ;;
  *) echo "jdeps did not print a module list: $modules" >&2; exit 1 ;;
esac
echo "jlink modules: $modules"
"$java_home/bin/jlink" --add-modules "$modules" --output "$out/runtime" \
  --strip-debug --no-man-pages --no-header-files --compress zip-6

cp "$here/jvm.options" "$out/conf/jvm.options"
cp "$here/mira" "$out/bin/mira"
chmod 755 "$out/bin/mira"
sh "$here/train-aot.sh" "$out"

echo "image: $out ($(du -sh "$out" | cut -f1))"
