#!/usr/bin/env bash
# The Debian package, built and installed for real: builds it with deploy/debian/build.sh,
# checks what it holds, runs lintian (no error allowed), then installs it into a fresh
# Debian bookworm root made with mmdebstrap and checks, in that root, that the binary runs
# and solves, the user exists, the daemon's unit is enabled and the worker's is not, a
# local edit of the conffile survives a reinstall, and a purge removes what the package made but keeps an answer left in the outbox.
#
#   bash tests/package/run.sh
#
# Runs as root (chroot); installs Debian's lintian and mmdebstrap with apt-get, and
# cargo-deb with cargo, when missing. mmdebstrap fetches the root's packages from the
# Debian archive. Exits non-zero with the reason on any failure.
set -euo pipefail
cd "$(dirname "$0")/../.."

fail() {
    echo "package test: FAILED: $*" >&2
    exit 1
}

[ "$(id -u)" -eq 0 ] || fail "run this as root: the install test uses chroot"
if ! command -v lintian >/dev/null || ! command -v mmdebstrap >/dev/null; then
    echo "== installing lintian and mmdebstrap"
    command -v apt-get >/dev/null || fail "lintian or mmdebstrap is missing and there is no apt-get"
    apt-get update -qq
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq lintian mmdebstrap >/dev/null
fi
if ! command -v cargo-deb >/dev/null; then
    echo "== installing cargo-deb"
    cargo install cargo-deb --locked --quiet
fi

echo "== building the package"
deploy/debian/build.sh >/dev/null 2>&1 || deploy/debian/build.sh
version=$(sed -n 's/^version = "\(.*\)"/\1/p' Cargo.toml | head -1)
deb=target/debian/kakurod_${version}-1_$(dpkg --print-architecture).deb
[ -f "$deb" ] || fail "no package at $deb"

echo "== its contents"
contents=$(dpkg-deb --contents "$deb" | awk '{print $6}')
for path in ./usr/bin/kakurod ./usr/lib/systemd/system/kakurod.service \
    ./usr/lib/sysusers.d/kakurod.conf ./etc/kakurod/config.toml \
    ./usr/share/man/man1/kakurod.1.gz ./usr/share/man/man1/kakurod-serve.1.gz \
    ./usr/share/man/man1/kakurod-solve.1.gz \
    ./usr/share/bash-completion/completions/kakurod \
    ./usr/share/zsh/vendor-completions/_kakurod \
    ./usr/share/fish/vendor_completions.d/kakurod.fish \
    ./usr/share/doc/kakurod/copyright ./usr/share/doc/kakurod/service.md; do
    grep -qx "$path" <<<"$contents" || fail "the package lacks $path"
done
control=$(mktemp -d)
dpkg-deb --control "$deb" "$control"
[ "$(cat "$control/conffiles")" = "/etc/kakurod/config.toml" ] \
    || fail "the conffiles are: $(cat "$control/conffiles")"
unit=$(dpkg-deb --fsys-tarfile "$deb" | tar -xO ./usr/lib/systemd/system/kakurod.service)
grep -q '^ExecStart=/usr/bin/kakurod serve' <<<"$unit" || fail "the unit does not start /usr/bin/kakurod"
! grep -q '/usr/local' <<<"$unit" || fail "the package's unit names /usr/local"
grep -q 'systemd-sysusers' "$control/postinst" || fail "the postinst does not make the user"
grep -q 'deb-systemd-invoke \$_dh_action kakurod.service' "$control/postinst" \
    || fail "the postinst does not start the service"
# The queue worker's unit is there, under /usr, but neither enabled nor started.
worker=$(dpkg-deb --fsys-tarfile "$deb" | tar -xO ./usr/lib/systemd/system/kakurod-worker.service)
grep -q '^ExecStart=/usr/bin/kakurod worker' <<<"$worker" || fail "the worker's unit does not start /usr/bin/kakurod"
! grep -q '/usr/local' <<<"$worker" || fail "the worker's unit names /usr/local"
rm -rf "$control"

echo "== lintian"
report=$(lintian --fail-on none "$deb" 2>&1 | { grep -v '^running with root privileges' || true; })
if [ -n "$report" ]; then echo "$report"; else echo "lintian: no error, no warning"; fi
! grep -q '^E: ' <<<"$report" || fail "lintian reports errors"

echo "== installed into a fresh Debian root"
root=$(mktemp -d /tmp/kakurod-package.XXXXXX)
cleanup() { rm -rf "$root"; }
trap cleanup EXIT
mmdebstrap --quiet --variant=minbase --include=systemd-standalone-sysusers bookworm "$root"
cp "$deb" "$root/tmp/kakurod.deb"
cp tests/fixtures/kakuro/1_10x12.txt "$root/tmp/puzzle.txt"
in_root() { chroot "$root" "$@"; }
in_root dpkg -i /tmp/kakurod.deb >/dev/null
# Outputs are taken whole: `grep -q` would close the pipe early under pipefail.
said=$(in_root kakurod --version)
grep -q "^kakurod $version" <<<"$said" || fail "kakurod --version said: $said"
said=$(in_root kakurod solve /tmp/puzzle.txt 2>&1)
grep -q ': solved unique kakuro' <<<"$said" || fail "kakurod solve in the root said: $said"
said=$(in_root getent passwd kakurod)
grep -q ':/var/lib/kakurod:' <<<"$said" || fail "no user kakurod: $said"
in_root getent group kakurod >/dev/null || fail "no group kakurod"
[ -f "$root/usr/share/man/man1/kakurod-serve.1.gz" ] || fail "no manual page kakurod-serve(1)"
# The daemon is enabled; the worker, which needs its queue's URL first, is not.
wants="$root/etc/systemd/system/multi-user.target.wants"
[ -L "$wants/kakurod.service" ] || fail "the install did not enable kakurod.service"
[ ! -e "$wants/kakurod-worker.service" ] || fail "the install enabled kakurod-worker.service"
[ -f "$root/usr/lib/systemd/system/kakurod-worker.service" ] || fail "no kakurod-worker.service"

echo "# a local edit" >>"$root/etc/kakurod/config.toml"
in_root dpkg -i /tmp/kakurod.deb >/dev/null
grep -q '^# a local edit$' "$root/etc/kakurod/config.toml" || fail "a reinstall lost the local edit"

# What the daemon makes at its first start, and an answer that a user has not fetched.
mkdir -p "$root/var/lib/kakurod/"{inbox,outbox,done,failed,claim}
touch "$root/var/lib/kakurod/claim/.kakurod.lock"
echo "an answer" >"$root/var/lib/kakurod/outbox/puzzle.json"
purge=$(in_root dpkg --purge kakurod 2>&1)
[ ! -e "$root/usr/bin/kakurod" ] || fail "the purge left /usr/bin/kakurod"
[ ! -e "$root/etc/kakurod" ] || fail "the purge left /etc/kakurod"
[ -f "$root/var/lib/kakurod/outbox/puzzle.json" ] || fail "the purge removed an answer"
for folder in inbox done failed claim; do
    [ ! -e "$root/var/lib/kakurod/$folder" ] || fail "the purge left the empty $folder"
done
grep -q 'still holds puzzles or answers' <<<"$purge" || fail "the purge did not say what it kept: $purge"
in_root getent passwd kakurod >/dev/null || fail "the purge removed the user"
echo "package test: passed ($deb)"
