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

With --large, instead: the large generated grids of `benches/hard/large.toml` (written by
`kakurod generate` into target/large-bench/), each solved by CP-SAT with 2 workers for a
first solution under a time limit (--cpsat-timeout, default 120 s; build + solve, checked
against the clues) and by `kakurod solve --mode first --threads 0 --timeout 60` as a whole
process (median of --runs); a Markdown table with the ratio CP-SAT / kakurod is printed.
`--only NAME` keeps the instances whose name contains NAME.

    python3 benches/compare_ortools.py --large [--runs 3] [--cpsat-timeout 120]
                                       [--cpsat-workers 2] [--only NAME]
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


def solve_cpsat(rows, cols, cells, workers=1, time_limit=None):
    """Builds and solves the model; returns {(r, c): digit} or None (none found in time)."""
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
    solver.parameters.num_workers = workers
    if time_limit is not None:
        solver.parameters.max_time_in_seconds = time_limit
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


def satisfies_clues(rows, cols, cells, solution):
    """True when every white cell has a digit and every run adds up, without repeats."""
    for total, run in runs(rows, cols, cells):
        digits = [solution.get(p) for p in run]
        if None in digits or sum(digits) != total or len(set(digits)) != len(digits):
            return False
    return True


def time_kakurod(kakurod, args, runs):
    """Median wall time of `kakurod ARGS` over `runs` runs, and the last statistics line."""
    times, figures = [], ""
    for _ in range(runs):
        start = time.perf_counter()
        done = subprocess.run([kakurod, *args], stdout=subprocess.DEVNULL,
                              stderr=subprocess.PIPE, text=True)
        times.append(time.perf_counter() - start)
        figures = done.stderr.strip().splitlines()[-1] if done.stderr.strip() else ""
        if done.returncode != 0:
            print(f"kakurod exited with {done.returncode}: {figures}", file=sys.stderr)
            return None, figures
    return statistics.median(times), figures


def large(args):
    """--large: CP-SAT against `kakurod solve --mode first` on the large generated grids."""
    import tomllib

    from ortools import __version__ as ortools_version

    if not Path(args.kakurod).exists():
        sys.exit(f"{args.kakurod} not found: run cargo build --release")
    listing = tomllib.loads((ROOT / "benches" / "hard" / "large.toml").read_text())
    folder = ROOT / "target" / "large-bench"
    folder.mkdir(parents=True, exist_ok=True)
    print(f"machine: {os.cpu_count()} cores; CP-SAT {ortools_version}, "
          f"{args.cpsat_workers} workers, first solution, limit {args.cpsat_timeout:g} s; "
          f"kakurod median of {args.runs} runs\n")
    print("| instance | white cells | CP-SAT s | kakurod first, all threads, s | engine "
          "| CP-SAT / kakurod |")
    print("|---|---:|---:|---:|---|---:|")
    for inst in listing["instance"]:
        if args.only and args.only not in inst["name"]:
            continue
        path = folder / f"{inst['name']}.txt"
        subprocess.run([args.kakurod, "generate", "--any-solution", "--rows", str(inst["rows"]),
                        "--cols", str(inst["cols"]), "--black", str(inst["black"]),
                        "--seed", str(inst["seed"]), "--out", str(path)], check=True)
        rows, cols, cells = read_janko(path)
        white = sum(cell is None for row in cells for cell in row)
        start = time.perf_counter()
        solution = solve_cpsat(rows, cols, cells, args.cpsat_workers, args.cpsat_timeout)
        cpsat = time.perf_counter() - start
        if solution is not None and not satisfies_clues(rows, cols, cells, solution):
            sys.exit(f"{inst['name']}: the CP-SAT solution breaks a clue")
        ours, figures = time_kakurod(
            args.kakurod,
            ["solve", "--mode", "first", "--threads", "0", "--timeout", "60", str(path)],
            args.runs)
        engine = next((w.split("=", 1)[1] for w in figures.split()
                       if w.startswith("engine=")), "?")
        ours_text = f"{ours:.2f}" if ours is not None else "> 60 (failed)"
        if solution is None:
            cpsat_text = f"> {args.cpsat_timeout:g}"
            ratio = f"> {args.cpsat_timeout / ours:.0f}x" if ours else "?"
        else:
            cpsat_text = f"{cpsat:.2f}"
            ratio = f"{cpsat / ours:.1f}x" if ours else "?"
        print(f"| {inst['name']} | {white} | {cpsat_text} | {ours_text} | {engine} | {ratio} |",
              flush=True)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    default_data = os.environ.get("KAKUROD_DATA", str(ROOT.parent / "shared" / "data"))
    parser.add_argument("--data", default=default_data)
    parser.add_argument("--kakurod", default=str(ROOT / "target" / "release" / "kakurod"))
    parser.add_argument("--count", type=int, default=60)
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--large", action="store_true",
                        help="the large generated grids of benches/hard/large.toml")
    parser.add_argument("--cpsat-timeout", type=float, default=120.0)
    parser.add_argument("--cpsat-workers", type=int, default=2)
    parser.add_argument("--only", default=None)
    args = parser.parse_args()
    if args.large:
        large(args)
        return

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
