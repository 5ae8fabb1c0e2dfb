#!/usr/bin/env python3
"""Compare kakurod's human-style Sudoku path with HoDoKu's (via the hodoku-py package).

Usage:
    python compare.py PUZZLES KAKUROD [--json OUT] [--markdown OUT] [--limit N]
                      [--timeout S] [--jobs N]

PUZZLES is a file of 9x9 Sudoku lines (81 characters, digits and '.' or '0'); lines
starting with '#' are comments, and the nearest comment above a puzzle is recorded as
its source. KAKUROD is the kakurod binary; each puzzle is written to a temporary file
and run as `KAKUROD explain --json FILE`.

HoDoKu runs in this Python process's package (hodoku-py, `pip install hodoku-py`),
each puzzle in a forked child so that --timeout can stop a slow one (--timeout 0 runs
them in this very process, one after another, with no limit). kakurod runs first, one
puzzle at a time, so its timings are not disturbed by HoDoKu's children.

Without --json/--markdown the JSON summary goes to standard output.
See NOTES.md beside this file for HoDoKu's API, levels and scores.
"""

from __future__ import annotations

import argparse
import collections
import json
import multiprocessing
import os
import re
import statistics
import subprocess
import sys
import tempfile
import time

# ---------------------------------------------------------------------------
# Technique vocabulary
# ---------------------------------------------------------------------------

# HoDoKu steps that are not "logic" in the usual sense.
HODOKU_BRUTE = {"Brute Force"}
HODOKU_FORCING = {
    "Forcing Chain Contradiction", "Forcing Chain Verity",
    "Forcing Net Contradiction", "Forcing Net Verity",
    "Kraken Fish Type 1", "Kraken Fish Type 2",
    "Template Set", "Template Delete",
}

# kakurod steps that are not pattern logic: `trial` (assume a digit, follow it to a
# contradiction) and `search` (logic stuck, the rest is placed by backtracking).
KAKUROD_NON_LOGIC = {"trial", "search"}
# kakurod's forcing chains and nets, HoDoKu's Forcing Chain and Net Contradiction and
# Verity: logic, but set apart as HoDoKu's are, to compare pattern logic with pattern logic.
KAKUROD_FORCING = {"forcing_chain_contradiction", "forcing_chain_verity",
                   "forcing_net_contradiction", "forcing_net_verity"}

# HoDoKu technique -> what kakurod has for it (None: kakurod has no such technique;
# its `trial` step or its final `search` covers what these would do).
HODOKU_TO_KAKUROD = {
    "Full House": "naked_single/hidden_single",
    "Naked Single": "naked_single",
    "Hidden Single": "hidden_single",
    "Locked Candidates Type 1 (Pointing)": "pointing",
    "Locked Candidates Type 2 (Claiming)": "claiming",
    "Locked Pair": "locked_pair",
    "Locked Triple": "locked_triple",
    "Naked Pair": "naked_pair",
    "Naked Triple": "naked_triple",
    "Hidden Pair": "hidden_pair",
    "Hidden Triple": "hidden_triple",
    "X-Wing": "x_wing",
    "Swordfish": "swordfish",
    "Jellyfish": "jellyfish",
    "Naked Quadruple": "naked_quad",
    "Hidden Quadruple": "hidden_quad",
    "Skyscraper": "skyscraper",
    "2-String Kite": "two_string_kite",
    "Turbot Fish": "turbot_fish",
    "Empty Rectangle": "empty_rectangle",
    "W-Wing": "w_wing",
    "XY-Wing": "xy_wing",
    "XYZ-Wing": "xyz_wing",
    "Finned X-Wing": "finned_x_wing",
    "Sashimi X-Wing": "sashimi_x_wing",
    "Finned Swordfish": "finned_swordfish",
    "Sashimi Swordfish": "sashimi_swordfish",
    "Finned Jellyfish": "finned_jellyfish",
    "Sashimi Jellyfish": "sashimi_jellyfish",
    "Multi-Colors 1": "multi_colors_1",
    "Multi-Colors 2": "multi_colors_2",
    "Simple Colors Trap": "simple_colors",
    "Simple Colors Wrap": "simple_colors",
    "Uniqueness Test 1": "unique_rectangle_1",
    "Uniqueness Test 2": "unique_rectangle_2",
    "Uniqueness Test 3": "unique_rectangle_3",
    "Uniqueness Test 4": "unique_rectangle_4",
    "Uniqueness Test 5": "unique_rectangle_5",
    "Uniqueness Test 6": "unique_rectangle_6",
    "Bivalue Universal Grave + 1": "bug_plus_1",
    "Hidden Rectangle": "hidden_rectangle",
    "Avoidable Rectangle Type 1": "avoidable_rectangle_1",
    "Avoidable Rectangle Type 2": "avoidable_rectangle_2",
    "Remote Pair": "remote_pair",
    "X-Chain": "x_chain",
    "XY-Chain": "xy_chain",
    # A discontinuous nice loop is an AIC whose ends see each other or share a cell.
    "Discontinuous Nice Loop": "aic",
    "AIC": "aic",
    "Continuous Nice Loop": "continuous_nice_loop",
    "Grouped Discontinuous Nice Loop": "grouped_aic",
    "Grouped AIC": "grouped_aic",
    "Grouped Continuous Nice Loop": "grouped_continuous_nice_loop",
    "Almost Locked Set XZ-Rule": "als_xz",
    "Almost Locked Set XY-Wing": "als_xy_wing",
    "Sue de Coq": "sue_de_coq",
    "Forcing Chain Contradiction": "forcing_chain_contradiction",
    "Forcing Chain Verity": "forcing_chain_verity",
    "Forcing Net Contradiction": "forcing_net_contradiction",
    "Forcing Net Verity": "forcing_net_verity",
}

# Level scales, easiest first: kakurod grades Sudoku on HoDoKu's.
KAKUROD_LEVELS = ["easy", "medium", "hard", "unfair", "extreme"]
HODOKU_LEVELS = ["EASY", "MEDIUM", "HARD", "UNFAIR", "EXTREME", "INCOMPLETE"]
# The kakurod level that corresponds to each HoDoKu level, for the agreement rate.
HODOKU_AS_KAKUROD = {"EASY": "easy", "MEDIUM": "medium", "HARD": "hard",
                     "UNFAIR": "unfair", "EXTREME": "extreme"}


# ---------------------------------------------------------------------------
# Input
# ---------------------------------------------------------------------------

def read_puzzles(path: str) -> list[dict]:
    """Puzzles of the file with their line number and nearest comment above."""
    puzzles = []
    source = ""
    with open(path, encoding="utf-8") as f:
        for number, raw in enumerate(f, 1):
            line = raw.strip()
            if not line:
                continue
            if line.startswith("#"):
                source = line.lstrip("#").strip()
                continue
            grid = line.split()[0].replace("0", ".")
            if len(grid) != 81 or any(c not in ".123456789" for c in grid):
                raise SystemExit(f"{path}:{number}: not an 81-character Sudoku line: {line!r}")
            label = re.split(r",? /|: hodoku-py| \(", source)[0].strip()
            puzzles.append({"line": number, "source": label, "puzzle": grid})
    return puzzles


# ---------------------------------------------------------------------------
# HoDoKu
# ---------------------------------------------------------------------------

def hodoku_solve(puzzle: str) -> dict:
    """HoDoKu's solution path of `puzzle`, summarised."""
    from hodoku import Solver
    from hodoku.core.scoring import STEP_CONFIG

    start = time.perf_counter()
    result = Solver().solve(puzzle)
    seconds = time.perf_counter() - start
    names = [step.type.value for step in result.steps]
    counts = collections.Counter(names)
    # Hardest technique level, before HoDoKu's score bump.
    levels = [STEP_CONFIG[s.type].level for s in result.steps if s.type in STEP_CONFIG]
    hardest = max(levels, key=lambda lv: lv.value).name if levels else None
    used = set(names)
    return {
        "level": result.level.name,
        "score": result.score,
        "hardest_technique_level": hardest,
        "solved": result.solved,
        "no_brute_force": result.solved and not (used & HODOKU_BRUTE),
        "no_forcing": result.solved and not (used & (HODOKU_BRUTE | HODOKU_FORCING)),
        "steps": len(names),
        "techniques": dict(counts.most_common()),
        "seconds": round(seconds, 4),
    }


def _hodoku_child(puzzle: str, conn) -> None:
    try:
        conn.send(hodoku_solve(puzzle))
    except BaseException as err:  # report anything, the parent decides
        conn.send({"error": f"{type(err).__name__}: {err}"})
    finally:
        conn.close()


def run_hodoku(puzzles: list[dict], timeout: float, jobs: int, progress) -> list[dict]:
    """HoDoKu's summary per puzzle, in order."""
    if timeout <= 0:
        out = []
        for k, p in enumerate(puzzles):
            try:
                out.append(hodoku_solve(p["puzzle"]))
            except Exception as err:
                out.append({"error": f"{type(err).__name__}: {err}"})
            progress(f"hodoku {k + 1}/{len(puzzles)}")
        return out
    ctx = multiprocessing.get_context("fork")
    results: list[dict | None] = [None] * len(puzzles)
    pending = list(range(len(puzzles)))
    running: dict[int, tuple] = {}
    done = 0
    while pending or running:
        while pending and len(running) < max(1, jobs):
            k = pending.pop(0)
            parent, child = ctx.Pipe(duplex=False)
            proc = ctx.Process(target=_hodoku_child, args=(puzzles[k]["puzzle"], child))
            proc.start()
            child.close()
            running[k] = (proc, parent, time.monotonic())
        finished = []
        for k, (proc, parent, began) in running.items():
            if parent.poll():
                try:
                    results[k] = parent.recv()
                except EOFError:
                    results[k] = {"error": f"child exited with {proc.exitcode}"}
                proc.join()
                finished.append(k)
            elif not proc.is_alive():
                results[k] = {"error": f"child exited with {proc.exitcode}"}
                finished.append(k)
            elif time.monotonic() - began > timeout:
                proc.kill()
                proc.join()
                results[k] = {"error": f"timeout after {timeout:g} s", "timed_out": True,
                              "seconds": round(timeout, 4)}
                finished.append(k)
        for k in finished:
            running[k][1].close()
            del running[k]
            done += 1
            progress(f"hodoku {done}/{len(puzzles)}")
        if not finished:
            time.sleep(0.01)
    return results  # type: ignore[return-value]


# ---------------------------------------------------------------------------
# kakurod
# ---------------------------------------------------------------------------

def run_kakurod(binary: str, puzzle: str, timeout: float, workdir: str) -> dict:
    """kakurod's explained path of `puzzle`, summarised."""
    path = os.path.join(workdir, "puzzle.txt")
    with open(path, "w", encoding="utf-8") as f:
        f.write(puzzle + "\n")
    start = time.perf_counter()
    try:
        proc = subprocess.run([binary, "explain", "--json", path], capture_output=True,
                              text=True, timeout=timeout if timeout > 0 else None)
    except subprocess.TimeoutExpired:
        return {"error": f"timeout after {timeout:g} s", "timed_out": True,
                "seconds": round(timeout, 4)}
    seconds = time.perf_counter() - start
    if proc.returncode != 0:
        return {"error": f"exit {proc.returncode}: {proc.stderr.strip()[:300]}",
                "seconds": round(seconds, 4)}
    try:
        data = json.loads(proc.stdout)
    except json.JSONDecodeError as err:
        return {"error": f"bad JSON: {err}", "seconds": round(seconds, 4)}
    names = [step.get("technique", "?") for step in data.get("steps", [])]
    counts = collections.Counter(names)
    stopped = data.get("stopped_by")
    solved = bool(data.get("solved"))
    return {
        "difficulty": data.get("difficulty"),
        "solved": solved,
        "stopped_by": stopped,
        # Logic alone, trial included (kakurod's own `solved`): no final `search`.
        "logic_with_trial": solved and stopped is None and "search" not in counts,
        # Pattern logic only: neither `trial` nor `search`.
        "logic_no_trial": solved and stopped is None and not (set(counts) & KAKUROD_NON_LOGIC),
        # Pattern logic only: no forcing chains either (as HoDoKu's `no_forcing`).
        "logic_no_forcing": solved and stopped is None
        and not (set(counts) & (KAKUROD_NON_LOGIC | KAKUROD_FORCING)),
        "trial_steps": counts.get("trial", 0),
        "steps": len(names),
        "techniques": dict(counts.most_common()),
        "seconds": round(seconds, 4),
    }


# ---------------------------------------------------------------------------
# Report
# ---------------------------------------------------------------------------

def summarise(rows: list[dict]) -> dict:
    """Totals over the puzzles."""
    n = len(rows)
    h = [r["hodoku"] for r in rows]
    k = [r["kakurod"] for r in rows]
    both = lambda f, g: sum(1 for a, b in zip(h, k) if f(a) and g(b))  # noqa: E731
    h_logic = lambda a: a.get("no_forcing", False)  # noqa: E731
    k_logic = lambda b: b.get("logic_no_forcing", False)  # noqa: E731
    table: dict[str, dict[str, int]] = {lv: {hl: 0 for hl in HODOKU_LEVELS} for lv in
                                        KAKUROD_LEVELS + ["none/error"]}
    agree = graded = agree_tech = graded_tech = 0
    for a, b in zip(h, k):
        ht = a.get("hardest_technique_level")
        if ht in HODOKU_AS_KAKUROD and b.get("difficulty") in KAKUROD_LEVELS:
            graded_tech += 1
            agree_tech += HODOKU_AS_KAKUROD[ht] == b["difficulty"]
        kl = b.get("difficulty") if b.get("difficulty") in KAKUROD_LEVELS else "none/error"
        hl = a.get("level", "INCOMPLETE") if "error" not in a else "INCOMPLETE"
        table[kl][hl] += 1
        if hl in HODOKU_AS_KAKUROD and kl in KAKUROD_LEVELS:
            graded += 1
            agree += HODOKU_AS_KAKUROD[hl] == kl

    def uses(side: list[dict]) -> dict[str, dict[str, int]]:
        total: collections.Counter = collections.Counter()
        puzzles: collections.Counter = collections.Counter()
        for s in side:
            for name, count in s.get("techniques", {}).items():
                total[name] += count
                puzzles[name] += 1
        return {name: {"uses": total[name], "puzzles": puzzles[name]}
                for name, _ in total.most_common()}

    def timing(side: list[dict]) -> dict:
        secs = [s["seconds"] for s in side if "seconds" in s]
        if not secs:
            return {}
        worst = max(range(len(side)), key=lambda i: side[i].get("seconds", -1))
        return {"median_s": round(statistics.median(secs), 4), "worst_s": max(secs),
                "total_s": round(sum(secs), 2), "worst_line": rows[worst]["line"]}

    hodoku_uses = uses(h)
    missing = {name: v for name, v in hodoku_uses.items() if name not in HODOKU_TO_KAKUROD}
    return {
        "puzzles": n,
        "hodoku": {
            "errors": sum(1 for a in h if "error" in a),
            "solved": sum(1 for a in h if a.get("solved")),
            "no_brute_force": sum(1 for a in h if a.get("no_brute_force")),
            "no_forcing": sum(1 for a in h if h_logic(a)),
            "levels": dict(collections.Counter(a.get("level", "error") for a in h)),
            "techniques": hodoku_uses,
            "time": timing(h),
        },
        "kakurod": {
            "errors": sum(1 for b in k if "error" in b),
            "solved": sum(1 for b in k if b.get("solved")),
            "logic_with_trial": sum(1 for b in k if b.get("logic_with_trial")),
            "logic_no_trial": sum(1 for b in k if b.get("logic_no_trial")),
            "logic_no_forcing": sum(1 for b in k if k_logic(b)),
            "levels": dict(collections.Counter(b.get("difficulty") or "none" for b in k)),
            "techniques": uses(k),
            "time": timing(k),
        },
        "logic_cross": {
            "both": both(h_logic, k_logic),
            "hodoku_only": both(h_logic, lambda b: not k_logic(b)),
            "kakurod_only": both(lambda a: not h_logic(a), k_logic),
            "neither": both(lambda a: not h_logic(a), lambda b: not k_logic(b)),
        },
        "level_table": table,
        "level_agreement": {"agree": agree, "graded": graded},
        # The same against HoDoKu's hardest technique level, before its score bump.
        "technique_level_agreement": {"agree": agree_tech, "graded": graded_tech},
        "hodoku_techniques_kakurod_lacks": missing,
    }


def markdown(summary: dict, rows: list[dict], args) -> str:
    s = summary
    h, k = s["hodoku"], s["kakurod"]
    n = s["puzzles"]
    out = [f"# kakurod vs HoDoKu (hodoku-py): {n} puzzles from `{args.puzzles}`", ""]
    out += [f"kakurod: `{args.kakurod} explain --json`; HoDoKu: hodoku-py {hodoku_version()} "
            "with its default configuration (HoDoKu 2.2 defaults).", ""]
    out += ["## Finished by logic", "",
            "| | puzzles |", "|---|---:|",
            f"| HoDoKu solved (any step) | {h['solved']} |",
            f"| HoDoKu without Brute Force | {h['no_brute_force']} |",
            f"| HoDoKu without forcing chains/nets, kraken, templates or brute force | "
            f"{h['no_forcing']} |",
            f"| kakurod without a final `search` (trial allowed) | {k['logic_with_trial']} |",
            f"| kakurod without `trial` or `search` (forcing chains allowed) | "
            f"{k['logic_no_trial']} |",
            f"| kakurod without forcing chains, `trial` or `search` | {k['logic_no_forcing']} |",
            f"| errors / time-outs: HoDoKu, kakurod | {h['errors']}, {k['errors']} |", ""]
    c = s["logic_cross"]
    out += ["Pattern logic only (HoDoKu: no forcing/brute force; kakurod: no forcing chains, "
            "trial or search):", "",
            "| | kakurod finishes | kakurod does not |", "|---|---:|---:|",
            f"| HoDoKu finishes | {c['both']} | {c['hodoku_only']} |",
            f"| HoDoKu does not | {c['kakurod_only']} | {c['neither']} |", ""]
    out += ["## Level agreement (rows kakurod, columns HoDoKu)", ""]
    cols = [hl for hl in HODOKU_LEVELS if any(s["level_table"][r][hl] for r in s["level_table"])]
    out += ["| kakurod \\ HoDoKu | " + " | ".join(cols) + " | total |",
            "|---|" + "---:|" * (len(cols) + 1)]
    for r, line in s["level_table"].items():
        total = sum(line.values())
        if total:
            out.append(f"| {r} | " + " | ".join(str(line[c2]) for c2 in cols) + f" | {total} |")
    a = s["level_agreement"]
    out += ["", f"Agreement, level for level: **{a['agree']} of {a['graded']}**.", ""]
    # HoDoKu levels before the score bump, for reference.
    hard = collections.Counter(r["hodoku"].get("hardest_technique_level") or "-" for r in rows)
    t = s["technique_level_agreement"]
    out += ["HoDoKu's hardest technique level (before its score bump): "
            + ", ".join(f"{lv} {hard[lv]}" for lv in HODOKU_LEVELS if hard[lv])
            + f"; the same agreement against it: **{t['agree']} of {t['graded']}**.", ""]
    out += ["## Techniques", "", "### HoDoKu", "",
            "| technique | level | score | uses | puzzles | kakurod equivalent |",
            "|---|---|---:|---:|---:|---|"]
    cfg = hodoku_step_config()
    for name, v in h["techniques"].items():
        lv, sc = cfg.get(name, ("?", "?"))
        eq = HODOKU_TO_KAKUROD.get(name, "**none**")
        out.append(f"| {name} | {lv} | {sc} | {v['uses']} | {v['puzzles']} | {eq} |")
    out += ["", "### kakurod", "", "| technique | uses | puzzles |", "|---|---:|---:|"]
    for name, v in k["techniques"].items():
        out.append(f"| {name} | {v['uses']} | {v['puzzles']} |")
    out += ["", "### HoDoKu techniques used here that kakurod lacks", ""]
    missing = s["hodoku_techniques_kakurod_lacks"]
    out += [", ".join(f"{name} ({v['puzzles']} puzzles)" for name, v in missing.items()) or "none",
            ""]
    out += ["## Time", "", "| | median s | worst s | worst at line | total s |",
            "|---|---:|---:|---:|---:|"]
    for side, t in (("kakurod explain (process wall time)", k["time"]),
                    ("HoDoKu solve (in Python)", h["time"])):
        if t:
            out.append(f"| {side} | {t['median_s']} | {t['worst_s']} | {t['worst_line']} | "
                       f"{t['total_s']} |")
    out += ["", "## By source", "",
            "| source | puzzles | HoDoKu levels | HoDoKu no forcing | kakurod levels | "
            "kakurod no trial |", "|---|---:|---|---:|---|---:|"]
    groups: dict[str, list[dict]] = {}
    for r in rows:
        groups.setdefault(re.split(r":| \d{4}\b", r["source"])[0], []).append(r)
    for name, rs in groups.items():
        hl = collections.Counter(r["hodoku"].get("level", "error") for r in rs)
        kl = collections.Counter(r["kakurod"].get("difficulty") or "error" for r in rs)
        out.append(
            f"| {name} | {len(rs)} | "
            + " ".join(f"{lv}:{hl[lv]}" for lv in HODOKU_LEVELS + ["error"] if hl[lv])
            + f" | {sum(1 for r in rs if r['hodoku'].get('no_forcing'))} | "
            + " ".join(f"{lv}:{kl[lv]}" for lv in KAKUROD_LEVELS + ["error"] if kl[lv])
            + f" | {sum(1 for r in rs if r['kakurod'].get('logic_no_trial'))} |")
    out += ["", "## Per puzzle", "",
            "| line | source | HoDoKu level (score) | HoDoKu forcing/brute | kakurod | "
            "kakurod trial | kakurod search | kakurod s | HoDoKu s |",
            "|---:|---|---|---|---|---:|---|---:|---:|"]
    for r in rows:
        a, b = r["hodoku"], r["kakurod"]
        forcing = sorted(set(a.get("techniques", {})) & (HODOKU_FORCING | HODOKU_BRUTE))
        hl = a.get("error") or f"{a['level']} ({a['score']})"
        kl = b.get("error") or b.get("difficulty")
        search = "yes" if "search" in b.get("techniques", {}) else ""
        src = r["source"][:32]
        out.append(f"| {r['line']} | {src} | {hl} | {', '.join(forcing)} | {kl} | "
                   f"{b.get('trial_steps', '')} | {search} | {b.get('seconds', '')} | "
                   f"{a.get('seconds', '')} |")
    return "\n".join(out) + "\n"


def hodoku_version() -> str:
    try:
        from importlib.metadata import version
        return version("hodoku-py")
    except Exception:
        return "?"


def hodoku_step_config() -> dict[str, tuple[str, int]]:
    from hodoku.core.scoring import STEP_CONFIG
    return {t.value: (c.level.name, c.base_score) for t, c in STEP_CONFIG.items()}


# ---------------------------------------------------------------------------

def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("puzzles", help="file of Sudoku lines")
    ap.add_argument("kakurod", help="path of the kakurod binary")
    ap.add_argument("--json", metavar="OUT", help="write the JSON summary here")
    ap.add_argument("--markdown", metavar="OUT", help="write the Markdown report here")
    ap.add_argument("--limit", type=int, metavar="N", help="only the first N puzzles")
    ap.add_argument("--timeout", type=float, default=300, metavar="S",
                    help="per puzzle and side, seconds (default 300; 0: none, HoDoKu in-process)")
    ap.add_argument("--jobs", type=int, default=1, metavar="N",
                    help="HoDoKu puzzles solved at once (default 1)")
    ap.add_argument("--quiet", action="store_true", help="no progress on standard error")
    args = ap.parse_args(argv)

    try:
        import hodoku  # noqa: F401
    except ImportError:
        print("hodoku-py is not installed: pip install hodoku-py", file=sys.stderr)
        return 2
    if not os.access(args.kakurod, os.X_OK):
        print(f"{args.kakurod}: not an executable", file=sys.stderr)
        return 2

    puzzles = read_puzzles(args.puzzles)
    if args.limit is not None:
        puzzles = puzzles[: args.limit]

    def progress(msg: str) -> None:
        if not args.quiet:
            print(f"\r{msg}   ", end="", file=sys.stderr, flush=True)

    kakurod = []
    with tempfile.TemporaryDirectory(prefix="kakurod-hodoku-") as tmp:
        for i, p in enumerate(puzzles):
            kakurod.append(run_kakurod(args.kakurod, p["puzzle"], args.timeout, tmp))
            progress(f"kakurod {i + 1}/{len(puzzles)}")
    if not args.quiet:
        print(file=sys.stderr)
    hodoku = run_hodoku(puzzles, args.timeout, args.jobs, progress)
    if not args.quiet:
        print(file=sys.stderr)

    rows = [dict(p, hodoku=a, kakurod=b) for p, a, b in zip(puzzles, hodoku, kakurod)]
    summary = summarise(rows)
    doc = {"summary": summary, "puzzles": rows}
    if args.json:
        with open(args.json, "w", encoding="utf-8") as f:
            json.dump(doc, f, indent=1)
    if args.markdown:
        with open(args.markdown, "w", encoding="utf-8") as f:
            f.write(markdown(summary, rows, args))
    if not args.json and not args.markdown:
        json.dump(doc, sys.stdout, indent=1)
        print()
    return 0


if __name__ == "__main__":
    sys.exit(main())
