//! Every reader on real files: the fixture set in `tests/fixtures`, and, when the shared
//! puzzle data is found (`$KAKUROD_DATA`, else `../shared/data`), every file of it. Each puzzle
//! is also checked against its published `.sol` with the independent verifier, which proves
//! the reader understood the clues, cages and boxes the way the puzzle's author meant.

use kakurod_engine::format::solution::read_sol;
use kakurod_engine::format::{self, Document, Format, Parsed};
use kakurod_engine::puzzle::{Kind, Puzzle};
use kakurod_engine::verify;
use proptest::prelude::*;
use std::path::{Path, PathBuf};

use crate::common;
use common::{data, fixtures, puzzles_in, text};

/// Reads `path` as detected and as `expected` forced; both must give that format and the
/// same document.
fn read_both(path: &Path, expected: Format) -> Document {
    let content = text(path);
    let detected =
        format::read(&content, None).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    assert_eq!(detected.format, expected, "{}", path.display());
    let forced = format::read(&content, Some(expected)).unwrap();
    assert_eq!(detected, forced, "{}", path.display());
    detected
}

fn single(doc: &Document, path: &Path) -> Puzzle {
    assert!(!doc.batch, "{}", path.display());
    assert_eq!(doc.entries.len(), 1, "{}", path.display());
    match &doc.entries[0] {
        Ok(Parsed { puzzle, .. }) => puzzle.clone(),
        Err(e) => panic!("{}: {e}", path.display()),
    }
}

/// The `.sol` beside `path` (same stem, or the stem before the first `.`).
fn solution_of(path: &Path) -> Option<PathBuf> {
    let name = path.file_name()?.to_string_lossy().into_owned();
    let stem = name.split('.').next()?;
    let sol = path.with_file_name(format!("{stem}.sol"));
    sol.is_file().then_some(sol)
}

/// The published solution passes the verifier against the puzzle as read.
fn check_against_solution(puzzle: &Puzzle, path: &Path) -> bool {
    let Some(sol) = solution_of(path) else { return false };
    let grid = read_sol(&text(&sol)).unwrap_or_else(|e| panic!("{}: {e}", sol.display()));
    if let Err(v) = verify::check(puzzle, &grid) {
        panic!("{}: published solution refused: {v}", path.display());
    }
    true
}

fn format_of_name(path: &Path) -> Format {
    let name = path.file_name().unwrap().to_string_lossy().into_owned();
    let dir = path.parent().unwrap().file_name().unwrap().to_string_lossy().into_owned();
    match () {
        _ if name.ends_with(".ipuz") => Format::Ipuz,
        _ if name.ends_with(".json") => Format::Json,
        _ if name.ends_with(".dzn") => Format::Dzn,
        _ if name.contains(".backslash.") => Format::Backslash,
        _ if name.contains(".matrices.") => Format::Matrices,
        _ if name.contains(".puzzlink.") => Format::Puzzlink,
        _ if name.contains(".kanpen.") => Format::Kanpen,
        _ if name.contains(".fpuzzles.") => Format::Fpuzzles,
        _ if name.ends_with(".sdk") || name.contains(".boxed.") => Format::Sdk,
        _ if name.contains(".lines.") || name.starts_with("top1465-first") => Format::Lines,
        _ if dir == "kakuro" => Format::Janko,
        _ if dir == "killer" => Format::Killer,
        _ => Format::Sudoku,
    }
}

#[test]
fn every_fixture_reads_as_detected_and_forced_and_fits_its_solution() {
    let mut checked = 0;
    for dir in ["kakuro", "sudoku", "killer", "formats"] {
        for path in puzzles_in(&fixtures().join(dir)) {
            let doc = read_both(&path, format_of_name(&path));
            if doc.batch {
                assert!(doc.entries.iter().all(Result::is_ok), "{}", path.display());
                continue;
            }
            let puzzle = single(&doc, &path);
            if check_against_solution(&puzzle, &path) {
                checked += 1;
            }
        }
    }
    assert!(checked >= 20, "only {checked} fixtures had a solution to check");
}

/// The janko Kakuro that `path` (in a formats folder) is another spelling of.
fn janko_twin(path: &Path, janko_dir: &Path) -> Option<Puzzle> {
    let name = path.file_name()?.to_string_lossy().into_owned();
    let twin = janko_dir.join(format!("{}.txt", name.split('.').next()?));
    twin.is_file().then(|| single(&read_both(&twin, Format::Janko), &twin))
}

fn formats_match_janko(formats_dir: &Path, janko_dir: &Path) -> usize {
    let mut compared = 0;
    for path in puzzles_in(formats_dir) {
        let puzzle = single(&read_both(&path, format_of_name(&path)), &path);
        assert_eq!(puzzle.kind(), Kind::Kakuro, "{}", path.display());
        if let Some(twin) = janko_twin(&path, janko_dir) {
            assert_eq!(puzzle, twin, "{} differs from its janko version", path.display());
            compared += 1;
        }
    }
    compared
}

#[test]
fn fixture_formats_are_the_same_kakuro_as_janko() {
    let compared = formats_match_janko(&fixtures().join("formats"), &fixtures().join("kakuro"));
    // backslash, matrices, puzzlink, kanpen, 2 JSON for 1_10x12; backslash, matrices,
    // puzzlink for 960_31x46.
    assert_eq!(compared, 9);
}

#[test]
fn shared_formats_are_the_same_kakuro_as_janko() {
    let Some(data) = data() else { return };
    let compared = formats_match_janko(&data.join("kakuro/formats"), &data.join("kakuro/janko"));
    assert_eq!(compared, 4);
}

/// Reads every puzzle of a shared folder as `format` and checks it against its solution.
/// How many puzzles of `folder` read and fit their solutions; `None` only without the data
/// folder (named by `KAKUROD_DATA`, it must be there: `data` fails otherwise).
fn whole_folder(folder: &str, format: Format, kind: Kind) -> Option<usize> {
    let data = data()?;
    let mut count = 0;
    for path in puzzles_in(&data.join(folder)) {
        let puzzle = single(&read_both(&path, format), &path);
        assert_eq!(puzzle.kind(), kind);
        assert!(check_against_solution(&puzzle, &path), "{} has no .sol", path.display());
        count += 1;
    }
    Some(count)
}

#[test]
fn every_janko_kakuro_reads_and_fits_its_solution() {
    let count = whole_folder("kakuro/janko", Format::Janko, Kind::Kakuro);
    assert!(count.is_none_or(|count| count == 751), "{count:?}");
}

#[test]
fn every_janko_sudoku_reads_and_fits_its_solution() {
    let count = whole_folder("sudoku/janko", Format::Sudoku, Kind::Sudoku);
    assert!(count.is_none_or(|count| count == 96), "{count:?}");
}

#[test]
fn every_janko_killer_reads_and_fits_its_solution() {
    let count = whole_folder("killer-sudoku/janko", Format::Killer, Kind::Killer);
    assert!(count.is_none_or(|count| count == 608), "{count:?}");
}

#[test]
fn top1465_reads_as_a_batch_of_1465() {
    let Some(data) = data() else { return };
    let path = data.join("sudoku/lines/top1465.txt");
    let doc = read_both(&path, Format::Lines);
    assert!(doc.batch);
    assert_eq!(doc.entries.len(), 1465);
    for entry in &doc.entries {
        let parsed = entry.as_ref().unwrap();
        assert!(matches!(&parsed.puzzle, Puzzle::Sudoku(s) if s.n == 9));
    }
    assert_eq!(doc.entries[0].as_ref().unwrap().line, 3);
}

/// The malformed fixtures: file, line, column, words of the message.
const INVALID: &[(&str, usize, usize, &str)] = &[
    ("unknown-token.txt", 3, 6, "unknown cell `x`"),
    ("ragged-row.txt", 3, 5, "has 2 cells"),
    ("too-few-rows.txt", 4, 1, "has 2 rows, the header says 3"),
    ("too-many-rows.txt", 5, 1, "after the end"),
    ("huge-header.txt", 1, 1, "not a valid row count"),
    ("unreachable-clue.txt", 3, 2, "clue 3 cannot be made of 3"),
    ("clue-46.txt", 2, 3, "clue 46 cannot be made of 2"),
    ("clue-0.txt", 2, 3, "clue 0 cannot be made of 1"),
    ("run-without-clue.txt", 3, 1, "has no clue"),
    ("clue-points-at-nothing.txt", 4, 7, "points at no white cell"),
    ("lone-cell-clue-10.txt", 3, 2, "clue 10 cannot be made of 1"),
    ("matrices-white-mismatch.txt", 10, 3, "white in one matrix"),
    ("matrices-unreachable-down.txt", 8, 5, "clue 2 cannot be made of 2"),
    ("sudoku-not-square.txt", 1, 1, "side 6"),
    ("sudoku-given-out-of-range.txt", 3, 5, "given 5 is out of range"),
    ("sudoku-givens-clash.txt", 5, 1, "repeats in its column"),
    ("killer-disconnected-cage.txt", 7, 7, "not connected"),
    ("killer-impossible-sum.txt", 2, 1, "cage sum 8 cannot be made of 2"),
    ("killer-cage-without-sum.txt", 7, 1, "cage `3` has no sum"),
    ("killer-two-sums.txt", 2, 3, "has a second sum"),
    ("killer-sum-in-no-cage.txt", 5, 7, "in no cage"),
    ("dzn-ragged.dzn", 7, 3, "a row of 3 values"),
    ("json-syntax.json", 3, 20, "expected value"),
    ("json-unknown-field.json", 3, 3, "unknown field `grids`"),
    ("json-unreachable-clue.json", 5, 7, "clue 3 cannot be made of 3"),
    ("json-killer-disconnected.json", 5, 34, "not connected"),
    ("lines-bad-line.txt", 3, 1, "unknown cell `?`"),
    ("empty.txt", 1, 1, "empty"),
];

#[test]
fn every_invalid_fixture_is_refused_at_its_place() {
    let dir = fixtures().join("invalid");
    let listed: Vec<&str> = INVALID.iter().map(|i| i.0).collect();
    for path in puzzles_in(&dir) {
        let name = path.file_name().unwrap().to_string_lossy().into_owned();
        assert!(listed.contains(&name.as_str()), "{name} has no expectation");
    }
    for &(name, line, column, words) in INVALID {
        let content = text(&dir.join(name));
        // A batch is read; its bad entry carries the error.
        let error = match format::read(&content, None) {
            Err(e) => e,
            Ok(doc) => match doc.entries.into_iter().find_map(Result::err) {
                Some(e) => e,
                None => panic!("{name} was read without error"),
            },
        };
        assert_eq!((error.line, error.column), (line, column), "{name}: {error}");
        assert!(error.message.contains(words), "{name}: {error}");
        assert!(!error.expected.is_empty(), "{name}");
    }
}

/// Reading never panics; any error it gives points inside the text (or just past it).
fn reads_safely(content: &str) {
    let forced = Format::ALL.into_iter().map(Some);
    for forced in std::iter::once(None).chain(forced) {
        let errors = match format::read(content, forced) {
            Err(e) => vec![e],
            Ok(doc) => doc.entries.into_iter().filter_map(Result::err).collect(),
        };
        for e in errors {
            assert!(e.line >= 1 && e.column >= 1);
            assert!(e.line <= content.split('\n').count() + 1, "{e}");
        }
    }
}

fn seeds() -> Vec<String> {
    [
        "kakuro/1_10x12.txt",
        "formats/1_10x12.backslash.txt",
        "formats/1_10x12.matrices.txt",
        "formats/1_10x12.json",
        "sudoku/1_9x9.dzn",
        "sudoku/generated_4x4.txt",
        "killer/101_4x4.txt",
        "killer/101_4x4.json",
        "sudoku/top1465-first20.txt",
        "sudoku/four-sizes.puzzlink.txt",
    ]
    .iter()
    .map(|f| text(&fixtures().join(f)))
    .collect()
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(400))]

    #[test]
    fn random_bytes_never_panic(bytes in proptest::collection::vec(any::<u8>(), 0..400)) {
        reads_safely(&String::from_utf8_lossy(&bytes));
    }

    #[test]
    fn mutated_puzzles_never_panic(
        seed in 0usize..10,
        edits in proptest::collection::vec((any::<prop::sample::Index>(), any::<u8>(), 0u8..3), 1..8),
    ) {
        let mut bytes = seeds()[seed].clone().into_bytes();
        for (at, byte, how) in edits {
            let table = b" \n,\\-0123456789#.|[]{}\"xA";
            let byte = table[usize::from(byte) % table.len()];
            match how {
                0 if !bytes.is_empty() => { let i = at.index(bytes.len()); bytes[i] = byte; }
                1 => { let i = at.index(bytes.len() + 1); bytes.insert(i, byte); }
                _ if !bytes.is_empty() => { let i = at.index(bytes.len()); bytes.remove(i); }
                _ => {}
            }
        }
        reads_safely(&String::from_utf8_lossy(&bytes));
    }
}

/// Every puzzle of a corpus folder read, written by `write` and read back: the
/// same puzzle. Returns how many went round.
fn round_trips(dir: &Path, write: impl Fn(&Puzzle) -> Option<String>) -> usize {
    round_trips_where(dir, |_| true, write)
}

/// [`round_trips`] over the puzzles `take` accepts; every one of those must be written.
fn round_trips_where(
    dir: &Path,
    take: impl Fn(&Puzzle) -> bool,
    write: impl Fn(&Puzzle) -> Option<String>,
) -> usize {
    let mut count = 0;
    for path in puzzles_in(dir).into_iter().filter(|p| p.extension().is_some_and(|e| e == "txt")) {
        let doc = format::read(&text(&path), None).unwrap();
        for entry in doc.entries {
            let puzzle = entry.unwrap().puzzle;
            if !take(&puzzle) {
                continue;
            }
            let written = write(&puzzle).unwrap_or_else(|| panic!("{}", path.display()));
            let back =
                format::read(&written, None).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
            assert_eq!(back.entries[0].as_ref().unwrap().puzzle, puzzle, "{}", path.display());
            count += 1;
        }
    }
    count
}

#[test]
fn the_whole_corpus_goes_to_puzzlink_ipuz_and_json_and_back() {
    let Some(data) = data() else { return };
    let url = |p: &Puzzle| format::puzzlink::play_url(p);
    assert_eq!(round_trips(&data.join("kakuro/janko"), url), 751);
    assert_eq!(round_trips(&data.join("sudoku/janko"), url), 96);
    assert_eq!(round_trips(&data.join("sudoku/lines"), url), 1465);
    let ipuz = |p: &Puzzle| match p {
        Puzzle::Sudoku(s) => Some(format::ipuz::write(s)),
        _ => None,
    };
    assert_eq!(round_trips(&data.join("sudoku/janko"), ipuz), 96);
    assert_eq!(round_trips(&data.join("sudoku/lines"), ipuz), 1465);
    let json = |p: &Puzzle| Some(format::json::write(p));
    assert_eq!(round_trips(&data.join("kakuro/janko"), json), 751);
    assert_eq!(round_trips(&data.join("sudoku/janko"), json), 96);
    assert_eq!(round_trips(&data.join("killer-sudoku/janko"), json), 608);
}

/// The side of a Sudoku or Killer Sudoku (0 for a Kakuro).
fn side(puzzle: &Puzzle) -> usize {
    match puzzle {
        Puzzle::Sudoku(s) => s.n,
        Puzzle::Killer(k) => k.n,
        Puzzle::Kakuro(_) => 0,
    }
}

fn kanpen(puzzle: &Puzzle) -> Option<String> {
    match puzzle {
        Puzzle::Kakuro(k) => format::kanpen::write(k),
        _ => None,
    }
}

fn fpuzzles(puzzle: &Puzzle) -> Option<String> {
    format::fpuzzles::write(puzzle).ok()
}

#[test]
fn every_fixture_goes_to_kanpen_or_fpuzzles_and_back() {
    let fixtures = fixtures();
    assert_eq!(round_trips(&fixtures.join("kakuro"), kanpen), 7);
    let small = |p: &Puzzle| side(p) <= format::fpuzzles::MAX_SIDE;
    // 4x4, 9x9 (grid, top1465 grid and 20 lines, the puzz.link batch's three), 16x16.
    assert_eq!(round_trips_where(&fixtures.join("sudoku"), small, fpuzzles), 28);
    assert_eq!(round_trips(&fixtures.join("killer"), fpuzzles), 4);
    // f-puzzles stops at 16: a 25x25 is refused with the reason.
    let big = format::read(&text(&fixtures.join("sudoku/generated_25x25.txt")), None).unwrap();
    let refused = format::fpuzzles::write(&big.entries[0].as_ref().unwrap().puzzle);
    assert!(refused.unwrap_err().contains("up to 16x16"));
}

#[test]
fn the_whole_corpus_goes_to_kanpen_and_fpuzzles_and_back() {
    let Some(data) = data() else { return };
    assert_eq!(round_trips(&data.join("kakuro/janko"), kanpen), 751);
    // Every Sudoku and Killer of the corpus is 16x16 or smaller: all go to f-puzzles.
    assert_eq!(round_trips(&data.join("sudoku/janko"), fpuzzles), 96);
    assert_eq!(round_trips(&data.join("sudoku/lines"), fpuzzles), 1465);
    assert_eq!(round_trips(&data.join("killer-sudoku/janko"), fpuzzles), 608);
}
