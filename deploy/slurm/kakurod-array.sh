#!/usr/bin/env bash
# kakurod for offline batches on a Slurm cluster: an array job whose tasks share out a
# folder of puzzle files and solve their share with `kakurod solve --out`. No daemon, no
# inbox: each file is read where it is and answered once.
#
#   sbatch --array=0-15 deploy/slurm/kakurod-array.sh PUZZLES_DIR RESULTS_DIR
#
# Task k of n takes every n-th file of the sorted list, starting at the k-th, so the tasks
# get equal shares whatever the order of the files' difficulty. Task k writes into
# RESULTS_DIR/task-k/ (NAME.solution.txt and NAME.json, or NAME.error.json, per file NAME.ext),
# so two inputs with the same NAME in different tasks never write the same file. The files
# in one task are solved in parallel on the task's CPUs (--cpus-per-task).
#
# Each task's log (kakurod-JOB_TASK.log) ends with its totals, `kakurod: N files, M
# puzzles: S solved, U unsatisfiable, I invalid, T timeout in X s`; the array's totals:
#   grep -h '^kakurod: ' kakurod-JOB_*.log
#
# Exit status of a task: that of `kakurod solve`: 0 when every puzzle of its share was
# solved, 1 when any was not (invalid, unsatisfiable, timeout; see its NAME.json) or a
# result could not be written, 2 on a usage error. `sacct -j JOB` shows them.
#
# Set the path of the binary with KAKUROD (default: kakurod on PATH); further options of
# `kakurod solve` (e.g. --timeout 60, --mode first) go in KAKUROD_OPTIONS.
#
# The defaults fit a small node (2 CPUs, 1 GB per task); on bigger nodes raise
# --cpus-per-task (or give it on the command line, which overrides these lines): a task
# solves as many of its files at once as it has CPUs.
#
#SBATCH --job-name=kakurod
#SBATCH --cpus-per-task=2
#SBATCH --mem-per-cpu=512M
#SBATCH --time=01:00:00
#SBATCH --output=kakurod-%A_%a.log

set -euo pipefail

if [ $# -ne 2 ]; then
    echo "usage: sbatch --array=0-N $0 PUZZLES_DIR RESULTS_DIR" >&2
    exit 2
fi
puzzles=$1
results=$2
kakurod=${KAKUROD:-kakurod}
read -r -a options <<< "${KAKUROD_OPTIONS:-}"

# The task's place among the array's tasks (arrays may start at any index, e.g. --array=1-8).
task=$(( ${SLURM_ARRAY_TASK_ID:?run this as an array job: sbatch --array=0-N} - ${SLURM_ARRAY_TASK_MIN:-0} ))
tasks=${SLURM_ARRAY_TASK_COUNT:-1}

# The share: every tasks-th file of the sorted list (names may hold spaces), skipping
# names that start with "." (files still being written under a temporary name) and
# published solutions (NAME.sol beside NAME.txt), as `kakurod bench` does.
mapfile -d '' all < <(find "$puzzles" -maxdepth 1 -type f ! -name '.*' ! -name '*.sol' -print0 | sort -z)
share=()
for (( i = task; i < ${#all[@]}; i += tasks )); do
    share+=("${all[i]}")
done

out="$results/task-$task"
mkdir -p "$out"
echo "task $task of $tasks: ${#share[@]} of ${#all[@]} files -> $out"
if [ ${#share[@]} -eq 0 ]; then
    exit 0
fi
exec "$kakurod" solve --out "$out" "${options[@]}" -- "${share[@]}"
