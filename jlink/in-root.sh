#!/bin/sh
# Runs a command inside a root filesystem the way a container runtime would start it, without one:
# in a mount namespace of its own (so every mount below is gone when the command exits), with
# /proc, /dev and a fresh /tmp mounted, optionally with the root read-only, as a given user, in a
# given working directory, with only the environment given. Needs root (mount, chroot).
#   in-root.sh [--read-only] [--user UID:GID] [--wd DIR] [--bind HOST_DIR:DIR]... [--env NAME]...
#              ROOT COMMAND [ARG...]
# --env NAME passes this process's NAME on; nothing else of the environment is. Bind targets must
# exist in ROOT, and paths must not contain spaces. The command replaces this
# shell (every step execs), so a signal sent to the caller's child reaches the command itself.
set -eu
if [ "${MIRA_IN_ROOT_NAMESPACE:-}" != "$$" ]; then
  MIRA_IN_ROOT_NAMESPACE=$$ exec unshare --mount --propagation private sh "$0" "$@"
fi
ro= uid= gid= wd=/ binds= names=
while [ $# -gt 0 ]; do
  case $1 in
    --read-only) ro=1; shift ;;
    --user) uid=${2%%:*}; gid=${2#*:}; shift 2 ;;
    --wd) wd=$2; shift 2 ;;
    --bind) binds="$binds $2"; shift 2 ;;
    --env) names="$names $2"; shift 2 ;;
    *) break ;;
  esac
done
root=$(cd "$1" && pwd -P)
shift
# The root becomes a mount of its own so that it can be made read-only (readOnlyRootFilesystem).
mount --bind "$root" "$root"
if [ -n "$ro" ]; then
  mount -o remount,bind,ro "$root"
fi
mount -t proc proc "$root/proc"
mount --rbind /dev "$root/dev"
mount -t tmpfs -o mode=1777 tmpfs "$root/tmp"
for b in $binds; do
  mount --bind "${b%%:*}" "$root${b#*:}"
done
if [ -n "$uid" ]; then
  set -- --setgid "$gid" --setuid "$uid" "$@"
fi
set -- unshare --root="$root" --wd="$wd" "$@"
for n in $names; do
  eval "v=\${$n-}"
  set -- "$n=$v" "$@"
done
exec env -i "$@"
