#!/usr/bin/env bash
# The Slurm recipe on a real Slurm: starts munged, slurmctld and slurmd on this host (one
# node, private ports, state and sockets under a temporary folder, nothing in /etc), submits
# deploy/slurm/kakurod-array.sh with its own defaults as a four-task array over the fixture
# puzzles, and checks that every puzzle file was answered exactly once, rightly where a
# published solution lies beside it, and that every task's log ends with its totals.
#
#   bash tests/slurm/run.sh
#
# Runs as root (the daemons run as root, SlurmUser=root); installs Debian's slurm-wlm,
# munge and jq with apt-get when missing. Builds and uses target/release/kakurod, or the
# binary named by KAKUROD.
# Exits non-zero with the reason on any failure; the daemons are stopped either way.
set -euo pipefail
cd "$(dirname "$0")/../.."
root=$(pwd)
tasks=4

fail() {
    echo "slurm test: FAILED: $*" >&2
    exit 1
}

[ "$(id -u)" -eq 0 ] || fail "run this as root: it starts slurmctld and slurmd as root"
if ! command -v slurmctld >/dev/null || ! command -v slurmd >/dev/null \
    || ! command -v sbatch >/dev/null || ! command -v munged >/dev/null \
    || ! command -v jq >/dev/null; then
    echo "== installing slurm-wlm, munge and jq"
    command -v apt-get >/dev/null || fail "slurm-wlm and munge are missing and there is no apt-get"
    apt-get update -qq
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq slurm-wlm munge jq >/dev/null
fi
echo "$(slurmctld -V), $(munged -V 2>&1 | head -1)"

if [ -z "${KAKUROD:-}" ]; then
    cargo build --release --locked --quiet
fi
kakurod=${KAKUROD:-$root/target/release/kakurod}
[ -x "$kakurod" ] || fail "no kakurod binary at $kakurod"

work=$(mktemp -d /tmp/kakurod-slurm.XXXXXX)
chmod 755 "$work"
pids=()
stop() {
    for pid in "${pids[@]}"; do
        kill "$pid" 2>/dev/null || true
    done
    for pid in "${pids[@]}"; do
        wait "$pid" 2>/dev/null || true
    done
    rm -rf "$work"
}
trap stop EXIT

# Two free loopback ports for slurmctld and slurmd (nothing answers on them now).
free_port() {
    local port
    for _ in $(seq 100); do
        port=$(( 20000 + RANDOM % 20000 ))
        if ! (exec 3<>"/dev/tcp/127.0.0.1/$port") 2>/dev/null && [ "$port" != "${1:-}" ]; then
            echo "$port"
            return
        fi
    done
    fail "no free port found"
}
ctld_port=$(free_port)
slurmd_port=$(free_port "$ctld_port")

# munged with its own key, socket and files; --force because it runs as root here.
mkdir -p "$work/munge" "$work/state" "$work/spool" "$work/jobs"
chmod 711 "$work/munge"
dd if=/dev/urandom of="$work/munge/munge.key" bs=1024 count=1 status=none
chmod 400 "$work/munge/munge.key"
socket="$work/munge/munge.socket"
munged --foreground --force --socket="$socket" --key-file="$work/munge/munge.key" \
    --log-file="$work/munge/munged.log" --pid-file="$work/munge/munged.pid" \
    --seed-file="$work/munge/munged.seed" 2>"$work/munge/stderr" &
pids+=($!)
for _ in $(seq 50); do
    [ -S "$socket" ] && break
    sleep 0.1
done
[ -S "$socket" ] || fail "munged did not start: $(cat "$work/munge/munged.log" 2>/dev/null)"

# One node, this host, as slurmd itself measures it; no cgroups (a container has none it
# may use), so processes are tracked by their parent and tasks are not confined.
host=$(hostname -s)
node=$(slurmd -C | head -1)
[[ $node == "NodeName=$host "* ]] || fail "slurmd -C gave '$node'"
export SLURM_CONF="$work/slurm.conf"
cat >"$SLURM_CONF" <<EOF
ClusterName=kakurod-test
SlurmctldHost=$host(127.0.0.1)
SlurmctldPort=$ctld_port
SlurmdPort=$slurmd_port
SlurmUser=root
SlurmdUser=root
AuthType=auth/munge
CredType=cred/munge
AuthInfo=socket=$socket
StateSaveLocation=$work/state
SlurmdSpoolDir=$work/spool
SlurmctldPidFile=$work/slurmctld.pid
SlurmdPidFile=$work/slurmd.pid
SlurmctldLogFile=$work/slurmctld.log
SlurmdLogFile=$work/slurmd.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
JobCompType=jobcomp/none
MpiDefault=none
SwitchType=switch/none
SchedulerType=sched/builtin
SelectType=select/cons_tres
SelectTypeParameters=CR_CPU_Memory
ReturnToService=2
$node NodeAddr=127.0.0.1 State=UNKNOWN
PartitionName=test Nodes=ALL Default=YES MaxTime=INFINITE State=UP
EOF

slurmctld -D -i 2>"$work/slurmctld.stderr" &
pids+=($!)
slurmd -D 2>"$work/slurmd.stderr" &
pids+=($!)
state=
for _ in $(seq 60); do
    state=$(sinfo --noheader --nodes="$host" --format=%t 2>/dev/null || true)
    [ "$state" = idle ] && break
    sleep 0.5
done
if [ "$state" != idle ]; then
    tail -n 20 "$work/slurmctld.log" "$work/slurmd.log" >&2 || true
    fail "the node is '$state', not idle, after 30 s"
fi
sinfo

# The puzzles: the Kakuro, Sudoku and Killer Sudoku fixtures (with their published
# solutions, which the recipe skips), several files sharing a name (1_9x9.txt, .json and
# .dzn), a batch file, and a name with a space.
puzzles="$work/puzzles"
results="$work/results"
mkdir -p "$puzzles"
cp tests/fixtures/kakuro/* tests/fixtures/sudoku/* tests/fixtures/killer/* "$puzzles/"
cp tests/fixtures/kakuro/281_6x6.txt "$puzzles/with space.txt"
cp tests/fixtures/kakuro/281_6x6.sol "$puzzles/with space.sol"

echo "== sbatch --array=0-$((tasks - 1)) deploy/slurm/kakurod-array.sh"
start=$SECONDS
job=$(cd "$work/jobs" && KAKUROD="$kakurod" sbatch --parsable --array=0-$((tasks - 1)) \
    "$root/deploy/slurm/kakurod-array.sh" "$puzzles" "$results") || fail "sbatch refused the job"
# Polled rather than `sbatch --wait`, whose checks grow seconds apart. A finished job
# stays in slurmctld's memory (MinJobAge, 300 s) with each task's state and exit code.
while [ -n "$(squeue --noheader --jobs="$job" 2>/dev/null)" ]; do
    [ $((SECONDS - start)) -lt 300 ] || fail "job $job still queued or running after 300 s"
    sleep 0.5
done
echo "the array ran in $((SECONDS - start)) s"
mapfile -t ended < <(scontrol --oneliner show job "$job" | grep -o 'JobState=[A-Z_]* .*ExitCode=[0-9:]*' | sed 's/ .* / /')
printf '%s\n' "${ended[@]}"
if [ "${#ended[@]}" -ne "$tasks" ] || printf '%s\n' "${ended[@]}" | grep -qv '^JobState=COMPLETED ExitCode=0:0$'; then
    tail -n 20 "$work"/jobs/*.log "$work/slurmctld.log" "$work/slurmd.log" >&2 || true
    fail "the array's tasks did not all complete with exit code 0"
fi

# Every task's log ends with its totals; they add up to the folder.
inputs=()
for f in "$puzzles"/*; do
    [[ $f == *.sol ]] || inputs+=("$(basename "$f")")
done
logs=("$work"/jobs/kakurod-*.log)
[ "${#logs[@]}" -eq "$tasks" ] || fail "${#logs[@]} task logs, not $tasks"
files=0
for log in "${logs[@]}"; do
    totals=$(tail -n 1 "$log")
    [[ $totals =~ ^kakurod:\ ([0-9]+)\ files,\ .*\ 0\ unsatisfiable,\ 0\ invalid,\ 0\ timeout ]] \
        || fail "$(basename "$log") ends with '$totals', not the totals line"
    files=$((files + BASH_REMATCH[1]))
    echo "$(basename "$log"): $totals"
done
[ "$files" -eq "${#inputs[@]}" ] || fail "the totals count $files files, the folder ${#inputs[@]}"

# One answer per input across the tasks, each naming its input, every puzzle solved, and
# the solution the published one where it is unique.
answered=()
for json in "$results"/task-*/*.json; do
    file=$(jq -r .file "$json")
    [[ $json != *.error.json ]] || fail "$file was answered with an error: $(cat "$json")"
    unsolved=$(jq '[.puzzles // [.] | .[] | select(.status != "solved")] | length' "$json")
    [ "$unsolved" -eq 0 ] || fail "$json: $unsolved puzzles not solved"
    answered+=("$file")
    sol="$puzzles/${file%.*}.sol"
    if [ -f "$sol" ] && [ "$(jq -r '.uniqueness // "unique"' "$json")" = unique ]; then
        diff <(tr -s ' \n' '\n' <"$sol" | grep .) \
            <(tr -s ' \n' '\n' <"${json%.json}.solution.txt" | grep .) >/dev/null \
            || fail "$json: the solution differs from $(basename "$sol")"
    fi
done
expected=$(printf '%s\n' "${inputs[@]}" | sort)
got=$(printf '%s\n' "${answered[@]}" | sort)
[ "$expected" = "$got" ] || fail "answers differ from inputs: $(diff <(echo "$expected") <(echo "$got"))"
echo "slurm test: OK: ${#inputs[@]} files answered once each by $tasks tasks"
