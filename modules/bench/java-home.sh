# Sourced by the scripts beside it: sets JAVA_HOME to the JDK 25 under /usr/lib/jvm unless it is set.
if [ -z "${JAVA_HOME:-}" ]; then
  for j in /usr/lib/jvm/*/; do
    if [ -x "${j}bin/java" ] && "${j}bin/java" -version 2>&1 | head -1 | grep -q '"25'; then JAVA_HOME="${j%/}"; break; fi
  done
fi
