#!/usr/bin/env bash
# The container image, built offline by deploy/container/build.sh (a base made with
# mmdebstrap, imported with podman; no registry), then checked: podman finds it, it runs
# as user 65532 with the binary as its entrypoint, it carries no compiler, and it is small.
# Then it is started on a mounted folder to solve a fixture puzzle where this host lets
# containers run; where the kernel refuses (`podman run` fails inside the runtime before
# kakurod starts, as in some sandboxes), that is said and the build checks stand alone.
#
#   bash tests/container/run.sh
#
# Runs as root; installs Debian's podman and mmdebstrap with apt-get when missing.
set -euo pipefail
cd "$(dirname "$0")/../.."

fail() {
    echo "container test: FAILED: $*" >&2
    exit 1
}

[ "$(id -u)" -eq 0 ] || fail "run this as root: mmdebstrap makes the base in a chroot"
if ! command -v podman >/dev/null || ! command -v mmdebstrap >/dev/null; then
    echo "== installing podman and mmdebstrap"
    command -v apt-get >/dev/null || fail "podman or mmdebstrap is missing and there is no apt-get"
    apt-get update -qq
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq podman mmdebstrap >/dev/null
fi

version=$(sed -n 's/^version = "\(.*\)"/\1/p' Cargo.toml | head -1)
tag="localhost/kakurod-test:$version"
echo "== building $tag offline"
deploy/container/build.sh --new-base --tag "$tag" 2>&1 | grep -v '^ *\(Compiling\|Finished\)' || true
podman image exists "$tag" || fail "podman does not find $tag"

echo "== what podman says of it"
said=$(podman image inspect "$tag" --format \
    '{{.Config.User}}|{{json .Config.Entrypoint}}|{{index .Config.Labels "org.opencontainers.image.version"}}|{{.Size}}')
IFS='|' read -r user entrypoint label size <<<"$said"
[ "$user" = "65532:65532" ] || fail "it runs as $user"
[ "$entrypoint" = '["/usr/local/bin/kakurod"]' ] || fail "its entrypoint is $entrypoint"
[ "$label" = "$version" ] || fail "its version label is $label"
# bookworm's minbase (about 125 MB) and the binary (about 13 MB).
[ "$size" -lt 200000000 ] || fail "it weighs $size bytes"
echo "user $user, entrypoint $entrypoint, version $label, $((size / 1000000)) MB"

mounted=$(podman image mount "$tag")
unmount() { podman image unmount "$tag" >/dev/null 2>&1 || true; }
trap unmount EXIT
[ -x "$mounted/usr/local/bin/kakurod" ] || fail "no /usr/local/bin/kakurod in the image"
for compiler in cc gcc g++ rustc cargo; do
    [ ! -e "$mounted/usr/bin/$compiler" ] || fail "the image carries $compiler"
done

echo "== started on a mounted folder"
data=$(mktemp -d /tmp/kakurod-container.XXXXXX)
trap 'unmount; rm -rf "$data"' EXIT
cp tests/fixtures/kakuro/1_10x12.txt "$data/puzzle.txt"
chmod -R a+rwX "$data"
if run=$(podman run --rm --volume "$data:/data" "$tag" solve /data/puzzle.txt 2>&1); then
    grep -q ': solved unique kakuro 10x12' <<<"$run" || fail "the container said: $run"
    echo "solved inside the container"
elif grep -q 'OCI\|crun\|runc\|cgroup' <<<"$run"; then
    echo "podman run is refused on this host, before kakurod starts: $run"
    echo "(the image's build and contents were checked above)"
else
    fail "podman run: $run"
fi
podman rmi --force "$tag" >/dev/null
echo "container test: passed"
