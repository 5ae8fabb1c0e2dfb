#!/usr/bin/env bash
# Seeds fuzz/seeds/TARGET from tests/fixtures (and the examples of the docs for settings
# and generation jobs). fuzz/run.sh starts every target from them, the crash reproducers
# (fuzz/regressions) and the local corpus it grows (fuzz/corpus, not kept in git); see
# docs/testing.md.
set -euo pipefail
cd "$(dirname "$0")"
fixtures=../tests/fixtures
rm -rf seeds
mkdir -p seeds

# Every puzzle fixture (valid and invalid, every format) seeds detection and every
# forced reader: a file of another format is exactly what `--format` may be handed.
for target in detect janko backslash matrices sudoku lines puzzlink sdk ipuz kanpen fpuzzles killer dzn json; do
    mkdir -p "seeds/$target"
    find "$fixtures" -type f ! -name '*.sol' ! -name '*.md' -exec cp {} "seeds/$target/" \;
done

mkdir -p seeds/solution
for sol in "$fixtures"/*/*.sol; do
    cp "$sol" "seeds/solution/$(basename "$(dirname "$sol")")-$(basename "$sol")"
done

# The `settings` objects of the JSON fixtures, then one per key and value the docs list.
mkdir -p seeds/settings
python3 - "$fixtures" seeds/settings <<'EOF'
import glob, json, sys
fixtures, out = sys.argv[1], sys.argv[2]
n = 0
for path in sorted(glob.glob(f"{fixtures}/**/*.json", recursive=True)):
    try:
        doc = json.load(open(path))
    except ValueError:
        continue
    if isinstance(doc, dict) and "settings" in doc:
        n += 1
        open(f"{out}/fixture-{n}.json", "w").write(json.dumps(doc["settings"]))
EOF
i=0
for s in '{}' '{"algorithm": "bt"}' '{"algorithm": "fc"}' '{"algorithm": "mac"}' \
    '{"algorithm": "sat"}' '{"var_order": "input_order"}' '{"var_order": "smallest"}' \
    '{"val_order": "max"}' '{"mode": "count", "count_limit": 3}' '{"threads": 0}' \
    '{"threads": 8}' '{"timeout_seconds": 0.5}' '{"timeout_seconds": -1}' \
    '{"timeout_seconds": 1e300}' '{"node_limit": 18446744073709551615}' \
    '{"mode": "unique", "threads": 2, "timeout_seconds": 30, "node_limit": 1000}' \
    '{"speed": 3}' 'null'; do
    i=$((i + 1))
    printf '%s' "$s" >"seeds/settings/doc-$i.json"
done

# Generation jobs: the docs' and the tests' examples, and one per rule of the reader.
mkdir -p seeds/generation
i=0
for job in \
    '{"kind": "generate", "rows": 30, "cols": 30, "count": 5, "seed": 1, "difficulty": "medium"}' \
    '{"kind": "generate", "puzzle": "killer", "size": 9, "count": 10, "seed": 1}' \
    '{"kind": "generate", "puzzle": "sudoku", "size": 9, "count": 2}' \
    '{"kind": "generate", "rows": 10, "cols": 11, "count": 2, "seed": 7, "black": 35.5, "symmetry": "mirror", "name": "n"}' \
    '{"kind": "generate", "rows": 10, "cols": 10, "count": 10000}' \
    '{"kind": "generate", "rows": 2, "cols": 10}' \
    '{"kind": "generate", "rows": 10, "cols": 10, "black": 95}' \
    '{"kind": "generate", "rows": 10, "cols": 10, "seed": 18446744073709551615, "count": 2}' \
    '{"kind": "generate", "puzzle": "sudoku", "size": 6}' \
    '{"kind": "generate", "puzzle": "killer", "size": 25, "symmetry": "none"}' \
    '{"kind": "generate", "puzzle": "sudoku", "rows": 9}' \
    '{"kind": "generate", "rows": 10}' \
    '{"kind": "generate", "rows": 10, "cols": 10, "colour": 1}' \
    $'\xef\xbb\xbf{\n  "kind": "generate",\n  "rows": 12,\n  "cols": 12\n}'; do
    i=$((i + 1))
    printf '%s' "$job" >"seeds/generation/job-$i.json"
done
# A JSON puzzle is no job: the reader must tell them apart.
cp "$fixtures"/formats/*.json "seeds/generation/"
find seeds -type f | wc -l | xargs echo "seed files:"
