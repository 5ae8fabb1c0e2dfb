#!/usr/bin/env bash
# Fuzzes every input reader (fuzz/fuzz_targets) for FUZZ_SECONDS each (20 by default),
# one target after another on one job. Each target starts from the seeds (made by
# seed.sh from tests/fixtures when fuzz/seeds is missing), the crash reproducers kept in
# fuzz/regressions/TARGET, and the local corpus fuzz/corpus/TARGET, which grows with what
# the fuzzer finds (kept out of git, as cargo-fuzz projects do; cache it to carry it
# from run to run). Fails on the first crash or hang (an input running over 2 s); the
# input is then in fuzz/artifacts/TARGET. Prints each target's executions and executions
# per second.
# Usage: fuzz/run.sh [TARGET...]  (all targets when none is named)
set -euo pipefail
cd "$(dirname "$0")"

seconds="${FUZZ_SECONDS:-20}"
[ -d seeds ] || bash seed.sh
logs=$(mktemp -d)
trap 'rm -rf "$logs"' EXIT
targets=("$@")
if [ ${#targets[@]} -eq 0 ]; then
    targets=(detect janko backslash matrices sudoku lines puzzlink sdk ipuz kanpen fpuzzles killer dzn json settings generation
        solution)
fi

# Stable Rust has no sanitizers: `--sanitizer none` builds with libFuzzer's coverage and
# with debug assertions and overflow checks, which is what catches a reader's bugs.
if ! cargo fuzz --version >/dev/null 2>&1; then
    echo "== installing cargo-fuzz"
    cargo install cargo-fuzz --locked --version 0.13.2
fi
echo "== cargo fuzz build"
cargo fuzz build --sanitizer none

total=0
for target in "${targets[@]}"; do
    mkdir -p "corpus/$target" "regressions/$target"
    log="$logs/$target.log"
    if ! cargo fuzz run --sanitizer none "$target" "corpus/$target" "seeds/$target" \
        "regressions/$target" -- \
        -max_total_time="$seconds" -timeout=2 -print_final_stats=1 >"$log" 2>&1; then
        tail -n 60 "$log"
        echo "fuzz target $target failed: its input is in fuzz/artifacts/$target"
        exit 1
    fi
    runs=$(awk '/stat::number_of_executed_units/ {print $2}' "$log")
    rate=$(awk '/stat::average_exec_per_sec/ {print $2}' "$log")
    printf '%-11s %12s executions %8s exec/s  0 crashes  0 hangs\n' "$target" "$runs" "$rate"
    total=$((total + runs))
done
echo "fuzz: $total executions in all, 0 crashes, 0 hangs"
