#!/bin/sh
# Builds the OCI image of jlink/Containerfile with podman, without a Docker engine and without
# running a container (no RUN step):
#   oci-image.sh IMAGE_DIR WORK_DIR TAG
#     IMAGE_DIR  the assembled image (target/mira)
#     WORK_DIR   scratch space, emptied first: WORK_DIR/context is the build context
#     TAG        the name the image gets, e.g. mira:latest
# MIRA_PODMAN_OPTS adds podman global options (e.g. --root DIR --runroot DIR, absolute, for a store
# of its own). MIRA_CONTEXT_ONLY=1 stops once WORK_DIR/context is ready, for another OCI builder.
# Needs root (mmdebstrap's root mode, chroot for the training run), podman and mmdebstrap.
#
# 1. The base: mmdebstrap extracts libc6, libstdc++6 and zlib1g (and what they depend on) from the
#    host's Debian suite and apt sources, without installing them (there is no shell to run their
#    maintainer scripts); docs, locales, iconv modules and apt/dpkg state are removed, and an
#    /etc/passwd with root and nonroot (65532) is added. The tarball is cached by a hash of this
#    recipe and the apt sources, under MIRA_CACHE (default ~/.cache/mira), so it is made once.
# 2. The image goes to /opt/mira of a copy of the base and its AOT cache is made there under chroot.
# 3. podman build --storage-driver vfs (no overlay mounts needed) on base.tar + mira/.
set -eu
image=$(cd "$1" && pwd -P)
work=$2
tag=$3
here=$(cd "$(dirname "$0")" && pwd -P)
podman="podman --storage-driver vfs ${MIRA_PODMAN_OPTS:-}"

. /etc/os-release
suite=${MIRA_BASE_SUITE:-$VERSION_CODENAME}
sources=${MIRA_APT_SOURCES:-/etc/apt/sources.list.d/debian.sources}
[ -f "$sources" ] || sources=/etc/apt/sources.list
packages=libc6,libstdc++6,zlib1g
recipe="base v1 $suite $packages"
cache=${MIRA_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/mira}
key=$( { echo "$recipe"; cat "$sources"; } | sha256sum | cut -c1-16)
base=$cache/base-$suite-$key.tar

if [ ! -f "$base" ]; then
  mkdir -p "$cache"
  tmp=$(mktemp -d "$cache/base.XXXXXX")
  trap 'rm -rf "$tmp"' EXIT
  mmdebstrap --quiet --mode=root --variant=extract --include="$packages" "$suite" "$tmp/root" "$sources"
  r=$tmp/root
  rm -rf "$r/etc/apt" "$r/etc/dpkg" "$r/etc/ld.so.conf.d" "$r/etc/fstab" "$r/etc/hostname" "$r/etc/resolv.conf" \
    "$r/var/cache" "$r/var/lib/apt" "$r/var/lib/dpkg" "$r/var/log" "$r/usr/share" \
    "$r/usr/lib/x86_64-linux-gnu/gconv" "$r/usr/lib/aarch64-linux-gnu/gconv"
  # The container runtime provides /dev, /proc and the resolver files; only the mount points stay.
  find "$r/dev" -mindepth 1 -delete
  mkdir -p "$r/proc" "$r/opt" "$r/var/lib/mira"
  chmod 1777 "$r/tmp"
  printf 'root:x:0:0:root:/root:/sbin/nologin\nnonroot:x:65532:65532:nonroot:/home/nonroot:/sbin/nologin\n' > "$r/etc/passwd"
  printf 'root:x:0:\nnonroot:x:65532:\n' > "$r/etc/group"
  if [ -e "$r/bin/sh" ] || [ -e "$r/usr/bin/sh" ]; then
    echo "the base has a shell; it must not" >&2
    exit 1
  fi
  tar --sort=name --numeric-owner --owner=0 --group=0 --mtime=@0 -C "$r" -cf "$tmp/base.tar" .
  mv "$tmp/base.tar" "$base"
  rm -rf "$tmp"
  trap - EXIT
  echo "base: $base (made)"
else
  echo "base: $base (cached)"
fi

rm -rf "$work"
mkdir -p "$work/context" "$work/root"
cp "$base" "$work/context/base.tar"
tar -xf "$base" -C "$work/root"
cp -a "$image" "$work/root/opt/mira"
# The AOT cache records each jar's modification time in whole seconds, and podman's COPY rounds
# times to whole seconds (a file changed at .9 s comes out a second later), so a cache trained on
# the copy as it stands can fail to match the image by one second. Whole-second times on every file
# before training make the two agree.
stamp=$(date +%s)
find "$work/root/opt/mira" -exec touch -h -d "@$stamp" {} +
sh "$here/train-aot.sh" /opt/mira "$work/root"
if [ ! -f "$work/root/opt/mira/lib/mira.aot" ]; then
  echo "no AOT cache was made under chroot" >&2
  exit 1
fi
mv "$work/root/opt/mira" "$work/context/mira"
rm -rf "$work/root"
if [ "${MIRA_CONTEXT_ONLY:-}" = 1 ]; then
  echo "context: $work/context"
  exit 0
fi

# shellcheck disable=SC2086
$podman build --quiet --no-cache --file "$here/Containerfile" --tag "$tag" "$work/context"
# shellcheck disable=SC2086
echo "image: $tag ($($podman image inspect --format '{{.Size}}' "$tag") bytes)"
