#!/usr/bin/env python3
"""Times Google OR-Tools CP-SAT against `kakurod solve` on the largest janko Kakuro puzzles.

CP-SAT side: in this process, one worker, for each puzzle the model is built (one 1..9
variable per white cell, AllDifferent plus a linear sum per run) and solved for one
solution; the time of build + solve is summed over the puzzles (reading the files is not
counted). Each solution is checked against the published `.sol`.

kakurod side: `kakurod solve --out DIR FILES...` on the same files, timed as a whole
process (start-up, reading, solving, proving uniqueness, verifying, writing results), once
on all cores and once on one (RAYON_NUM_THREADS=1); the best and median of a few runs are
printed. Note the two sides do not answer the same
question: kakurod also proves each solution unique, CP-SAT stops at the first.

Usage: python3 benches/compare_ortools.py [--data DIR] [--kakurod PATH] [--count 60]
                                          [--runs 3]
Needs `pip install ortools` and a release build (`cargo build --release`).
"""

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def read_janko(path):
    """Returns (rows, cols, cells): cells[r][c] is None (white), or (down, right) clues."""
    tokens = path.read_text().split()
    rows, cols = int(tokens[0]), int(tokens[1])
    cells = []
    for r in range(rows):
        row = []
        for tok in tokens[2 + r * cols: 2 + (r + 1) * cols]:
            if tok == "0":
                row.append(None)
            elif tok == "-":
                row.append((None, None))
            else:
                down, right = tok.split(",")
                row.append((int(down) if down else None, int(right) if right else None))
        cells.append(row)
    return rows, cols, cells


def runs(rows, cols, cells):
    """Yields (total, [(r, c), ...]) for every clued run."""
    for r in range(rows):
        for c in range(cols):
            clue = cells[r][c]
            if clue is None:
                continue
            down, right = clue
            for total, (dr, dc) in ((down, (1, 0)), (right, (0, 1))):
                if total is None:
                    continue
                run, (rr, cc) = [], (r + dr, c + dc)
                while rr < rows and cc < cols and cells[rr][cc] is None:
                    run.append((rr, cc))
                    rr, cc = rr + dr, cc + dc
                yield total, run


def solve_cpsat(rows, cols, cells):
    """Builds and solves the model; returns {(r, c): digit} or None."""
    from ortools.sat.python import cp_model

    model = cp_model.CpModel()
    var = {}
    for r in range(rows):
        for c in range(cols):
            if cells[r][c] is None:
                var[(r, c)] = model.new_int_var(1, 9, f"x{r}_{c}")
    for total, run in runs(rows, cols, cells):
        xs = [var[p] for p in run]
        model.add_all_different(xs)
        model.add(sum(xs) == total)
    solver = cp_model.CpSolver()
    solver.parameters.num_workers = 1
    status = solver.solve(model)
    if status not in (cp_model.OPTIMAL, cp_model.FEASIBLE):
        return None
    return {p: solver.value(v) for p, v in var.items()}


def matches_sol(path, rows, cols, solution):
    """True when the CP-SAT solution equals the published one (when there is one)."""
    sol = path.with_suffix(".sol")
    if not sol.exists():
        return True
    tokens = sol.read_text().split()[2:]
    for r in range(rows):
        for c in range(cols):
            tok = tokens[r * cols + c]
            if tok != "-" and solution.get((r, c)) != int(tok):
                return False
    return True


def largest(folder, count):
    """The `count` largest puzzles by cell count (ties by name)."""
    def size(p):
        r, c = p.stem.split("_")[1].split("x")
        return int(r) * int(c)

    files = sorted(folder.glob("*.txt"), key=lambda p: (-size(p), p.name))
    return files[:count]


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    default_data = os.environ.get("KAKUROD_DATA", str(ROOT.parent / "shared" / "data"))
    parser.add_argument("--data", default=default_data)
    parser.add_argument("--kakurod", default=str(ROOT / "target" / "release" / "kakurod"))
    parser.add_argument("--count", type=int, default=60)
    parser.add_argument("--runs", type=int, default=3)
    args = parser.parse_args()

    folder = Path(args.data) / "kakuro" / "janko"
    files = largest(folder, args.count)
    if not files:
        sys.exit(f"no puzzles in {folder}")
    print(f"machine: {os.cpu_count()} cores; {len(files)} largest janko puzzles "
          f"({files[-1].stem} .. {files[0].stem})")

    try:
        import ortools
    except ImportError:
        ortools = None
        print("ortools is not installed (pip install ortools): CP-SAT side skipped")
    cpsat_total = None
    if ortools is not None:
        puzzles = [(p, read_janko(p)) for p in files]
        cpsat_total, wrong = 0.0, []
        for path, (rows, cols, cells) in puzzles:
            start = time.perf_counter()
            solution = solve_cpsat(rows, cols, cells)
            cpsat_total += time.perf_counter() - start
            if solution is None or not matches_sol(path, rows, cols, solution):
                wrong.append(path.stem)
        print(f"CP-SAT {ortools.__version__} (1 worker, build + solve, first solution): "
              f"{cpsat_total:.3f} s total")
        if wrong:
            print(f"  differs from the .sol (or unsolved): {', '.join(wrong)}")

    if not Path(args.kakurod).exists():
        sys.exit(f"{args.kakurod} not found: run cargo build --release")
    median = {}
    for label, threads in (("all cores", None), ("one core", "1")):
        env = dict(os.environ)
        if threads:
            env["RAYON_NUM_THREADS"] = threads
        times = []
        for _ in range(args.runs):
            with tempfile.TemporaryDirectory() as out:
                start = time.perf_counter()
                done = subprocess.run([args.kakurod, "solve", "--out", out, *map(str, files)],
                                      stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                                      text=True, env=env)
                times.append(time.perf_counter() - start)
                if done.returncode != 0:
                    print(f"kakurod exited with {done.returncode}: {done.stderr.strip()}")
        median[label] = statistics.median(times)
        print(f"kakurod solve --out ({label}, whole process, proves uniqueness): "
              f"best {min(times):.3f} s, median {median[label]:.3f} s of {len(times)} runs")
    if cpsat_total is not None:
        for label, value in median.items():
            print(f"ratio CP-SAT / kakurod ({label}, medians): {cpsat_total / value:.1f}x")

if __name__ == "__main__":
    main()
