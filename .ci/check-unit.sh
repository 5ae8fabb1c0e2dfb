#!/bin/sh
# Checks the hardening of systemd/kakurod.service: `systemd-analyze security` must rate its
# exposure at 2.0 or less. Skips (exit 0, with a message) where systemd-analyze is missing;
# .ci/run installs the `systemd` package first so that the check really runs there.
set -eu
cd "$(dirname "$0")/.."
unit=systemd/kakurod.service
limit=2.0
if ! command -v systemd-analyze >/dev/null 2>&1; then
    echo "check-unit: systemd-analyze not found; skipping the exposure check of $unit"
    exit 0
fi
report=$(systemd-analyze security --offline=true --no-pager "$unit" 2>&1) || {
    echo "$report"
    echo "check-unit: systemd-analyze failed on $unit"
    exit 1
}
exposure=$(printf '%s\n' "$report" | sed -n 's/.*Overall exposure level for [^:]*: \([0-9.]*\).*/\1/p')
if [ -z "$exposure" ]; then
    echo "$report"
    echo "check-unit: no exposure level in the report"
    exit 1
fi
if awk -v e="$exposure" -v l="$limit" 'BEGIN { exit !(e > l) }'; then
    printf '%s\n' "$report" | grep '✗' || true
    echo "check-unit: $unit exposure $exposure is above $limit"
    exit 1
fi
echo "check-unit: $unit exposure $exposure (limit $limit)"
