#!/usr/bin/env bash
# Builds the kakurod container image offline: the binary compiled here, a Debian base root
# made with mmdebstrap from the Debian archive and imported with `podman import`, and
# deploy/container/Containerfile built on it. No container registry is reached.
#
#   deploy/container/build.sh [--tag NAME] [--suite SUITE] [--new-base] [--registry-base]
#
#   --tag NAME       the image's name (default kakurod:VERSION)
#   --suite SUITE    the Debian release of the base (default bookworm); it must be the
#                    release this host builds on or a newer one (the binary links glibc)
#   --new-base       make the base again even if localhost/kakurod-base:SUITE exists
#   --registry-base  use docker.io/library/debian:SUITE-slim instead (needs the registry)
#
# Needs root (mmdebstrap's chroot), podman and mmdebstrap (Debian packages of those names).
set -euo pipefail
cd "$(dirname "$0")/../.."

version=$(sed -n 's/^version = "\(.*\)"/\1/p' Cargo.toml | head -1)
tag="kakurod:$version"
suite=bookworm
new_base=false
registry_base=false
while [ $# -gt 0 ]; do
    case "$1" in
        --tag) tag=$2; shift 2 ;;
        --suite) suite=$2; shift 2 ;;
        --new-base) new_base=true; shift ;;
        --registry-base) registry_base=true; shift ;;
        *) echo "unknown argument $1 (see the head of $0)" >&2; exit 2 ;;
    esac
done
for tool in podman cargo; do
    command -v "$tool" >/dev/null || { echo "$tool is required" >&2; exit 1; }
done

cargo build --release --locked --bin kakurod
target_dir=$(cargo metadata --no-deps --format-version 1 \
    | python3 -c 'import json, sys; print(json.load(sys.stdin)["target_directory"])')
context=target/container
rm -rf "$context"
mkdir -p "$context"
# The release profile keeps line tables for backtraces; the image does without them.
strip -o "$context/kakurod" "$target_dir/release/kakurod"
cp deploy/container/Containerfile "$context/Containerfile"

if $registry_base; then
    base="docker.io/library/debian:$suite-slim"
else
    base="localhost/kakurod-base:$suite"
    if $new_base || ! podman image exists "$base"; then
        command -v mmdebstrap >/dev/null || { echo "mmdebstrap is required" >&2; exit 1; }
        root=$(mktemp -d /tmp/kakurod-base.XXXXXX)
        trap 'rm -rf "$root"' EXIT
        # minbase: essential packages and apt, nothing else; no manuals, docs or locales.
        mmdebstrap --quiet --variant=minbase \
            --dpkgopt='path-exclude=/usr/share/man/*' \
            --dpkgopt='path-exclude=/usr/share/locale/*' \
            --dpkgopt='path-exclude=/usr/share/doc/*' \
            --dpkgopt='path-include=/usr/share/doc/*/copyright' \
            --customize-hook='rm -rf "$1"/var/lib/apt/lists/* "$1"/var/cache/apt/*' \
            "$suite" "$root"
        # The binary must run on this base: its glibc must be as new as the host's.
        cp "$context/kakurod" "$root/kakurod"
        if ! chroot "$root" /kakurod --version >/dev/null; then
            echo "the binary built here does not run on Debian $suite; use a newer --suite" >&2
            exit 1
        fi
        rm "$root/kakurod"
        tar -C "$root" --numeric-owner -c . | podman import --quiet \
            --change 'CMD ["/bin/bash"]' - "$base" >/dev/null
    fi
fi

podman build --quiet --build-arg "BASE=$base" --build-arg "VERSION=$version" \
    --tag "$tag" --file "$context/Containerfile" "$context" >/dev/null
echo "built $tag on $base"
