#!/usr/bin/env bash
# Builds the Debian package target/debian/kakurod_VERSION-1_ARCH.deb (docs/service.md).
#
# cargo-deb packs files that exist; the manual pages, the completions and the package's
# unit are made from the binary and from systemd/kakurod.service first, into
# target/deb-assets/, which [package.metadata.deb] in Cargo.toml names.
#
#   deploy/debian/build.sh [CARGO-DEB OPTIONS...]
set -euo pipefail
cd "$(dirname "$0")/../.."

command -v cargo-deb >/dev/null || {
    echo "cargo-deb is required: cargo install cargo-deb" >&2
    exit 1
}
cargo build --release --locked --bin kakurod
target_dir=$(cargo metadata --no-deps --format-version 1 \
    | python3 -c 'import json, sys; print(json.load(sys.stdin)["target_directory"])')
kakurod="$target_dir/release/kakurod"

stage=target/deb-assets
rm -rf "$stage"
mkdir -p "$stage/man" "$stage/completions" "$stage/units"
"$kakurod" man "$stage/man"
"$kakurod" completions bash >"$stage/completions/kakurod"
"$kakurod" completions zsh >"$stage/completions/_kakurod"
"$kakurod" completions fish >"$stage/completions/kakurod.fish"
# The package installs under /usr, where the hand-made install of the same units uses
# /usr/local: the daemon's, and the queue worker's for the hosts that only answer jobs.
for unit in systemd/kakurod.service deploy/nats/kakurod-worker.service; do
    staged="$stage/units/$(basename "$unit")"
    sed -e 's#/usr/local/bin/kakurod#/usr/bin/kakurod#' \
        -e 's#/usr/local/share/doc/kakurod#/usr/share/doc/kakurod#' \
        "$unit" >"$staged"
    if grep -n '/usr/local' "$staged"; then
        echo "the package's unit $staged still names /usr/local" >&2
        exit 1
    fi
done

# The release profile keeps line tables for backtraces; the package strips them.
cargo deb --no-build --strip "$@"
