//! `kakurod explain` and `kakurod hint`: every path is sound (replayed from the givens, no
//! elimination removes the solution's digit, every placement is the solution's, and every
//! cell ends placed exactly once) and its hardest step is the grader's grade, on the
//! fixtures always and on the janko Kakuro and Sudoku and top1465 when the corpus is
//! there; Killer Sudoku paths are sound on the fixtures and the 608 janko Killer, with no
//! difficulty (they are not graded); the command line prints it, and a player's wrong
//! digit is named with its place.

use crate::common;

use common::{data, fixtures, puzzles_in, text};
use kakurod_engine::explain::{self, Path};
use kakurod_engine::format::{self, solution::read_sol};
use kakurod_engine::grade;
use kakurod_engine::pipeline::{self, PipelineOptions};
use kakurod_engine::puzzle::{Grid, Puzzle};
use kakurod_engine::report::Body;
use kakurod_engine::solver::Budget;
use serde_json::Value;
use std::fs;
use std::path::Path as FilePath;
use std::process::{Command, Output};

fn kakurod(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_kakurod")).args(args).output().unwrap()
}

/// Replays `path` against `solution`; panics with `name` on the first unsound step.
fn check(name: &str, puzzle: &Puzzle, solution: &Grid, path: &Path) {
    let cols = solution.cols;
    let mut placed: Vec<bool> = match puzzle {
        Puzzle::Sudoku(s) => s.givens.iter().map(|&g| g != 0).collect(),
        Puzzle::Kakuro(k) => k
            .cells
            .iter()
            .map(|c| !matches!(c, kakurod_engine::puzzle::KakuroCell::White))
            .collect(),
        Puzzle::Killer(k) => k.givens.iter().map(|&g| g != 0).collect(),
    };
    for step in &path.steps {
        for &[r, c, d] in &step.eliminate {
            assert_ne!(solution.cells[r * cols + c], Some(d as u32), "{name}: {}", step.text);
        }
        for &[r, c, d] in &step.place {
            assert_eq!(solution.cells[r * cols + c], Some(d as u32), "{name}: {}", step.text);
            assert!(!placed[r * cols + c], "{name}: placed twice: {}", step.text);
            placed[r * cols + c] = true;
        }
    }
    assert!(placed.iter().all(|&p| p), "{name}: cells left open");
    let hardest = path.steps.iter().filter_map(|s| s.level).max();
    if matches!(puzzle, Puzzle::Killer(_)) {
        assert_eq!(path.difficulty, None, "{name}: a Killer is not graded");
    } else if matches!(puzzle, Puzzle::Sudoku(s) if s.n == 9) {
        // HoDoKu's score of a long path may raise a 9x9's grade past its hardest step.
        assert!(hardest <= path.difficulty, "{name}: {hardest:?} {:?}", path.difficulty);
    } else if path.solved {
        assert_eq!(hardest, path.difficulty, "{name}");
    } else {
        // The search that ends a path logic cannot finish makes it the top grade, whatever
        // the steps before it used (257_24x28, two solutions, uses no trial since region
        // sums).
        assert!(hardest <= path.difficulty, "{name}: {hardest:?} {:?}", path.difficulty);
    }
    assert_eq!(path.solved, path.steps.last().is_none_or(|s| s.technique != "search"), "{name}");
}

/// The grade the grader gives, when its logic finishes the puzzle.
fn grade_of(puzzle: &Puzzle) -> Option<grade::Difficulty> {
    let grading = match puzzle {
        Puzzle::Kakuro(k) => grade::grade(k),
        Puzzle::Sudoku(s) => grade::grade_sudoku(s),
        Puzzle::Killer(_) => return None,
    };
    grading.solved_by_logic.then_some(grading.difficulty)
}

/// The solution the solver finds for `text`'s one puzzle.
fn solved(text: &str) -> Grid {
    let report = pipeline::process("x", text.as_bytes(), &PipelineOptions::default(), None);
    match report.body {
        Body::Single(r) => r.grid.unwrap(),
        Body::Batch { mut puzzles, .. } => puzzles.remove(0).grid.unwrap(),
        other => panic!("{other:?}"),
    }
}

/// Explains every puzzle of `text` (a file or a batch) and checks it; `solution` gives
/// each one's solution. Returns how many were explained.
fn explain_all(name: &str, text: &str, solution: impl Fn(usize, &Puzzle) -> Grid) -> usize {
    let document = format::read(text, None).unwrap();
    let mut count = 0;
    for (k, entry) in document.entries.into_iter().enumerate() {
        let puzzle = entry.unwrap().puzzle;
        let grid = solution(k, &puzzle);
        let path = explain::explain(&puzzle, &grid, None);
        check(&format!("{name} #{k}"), &puzzle, &grid, &path);
        if matches!(puzzle, Puzzle::Killer(_)) {
            // Not graded: logic may or may not finish it.
        } else if let Some(grade) = grade_of(&puzzle) {
            assert!(path.solved, "{name}: the grader finishes it, the path does not");
            assert_eq!(path.difficulty, Some(grade), "{name}");
        } else {
            assert!(!path.solved, "{name}");
        }
        count += 1;
    }
    count
}

/// Every `.txt` of `dir` with a `.sol` beside it.
fn explain_folder(dir: &FilePath) -> usize {
    let mut count = 0;
    for path in puzzles_in(dir) {
        let sol = path.with_extension("sol");
        if path.extension().is_some_and(|e| e == "txt") && sol.exists() {
            let solution = read_sol(&text(&sol)).unwrap();
            count +=
                explain_all(&path.display().to_string(), &text(&path), |_, _| solution.clone());
        }
    }
    count
}

#[test]
fn fixture_paths_are_sound_and_end_at_the_grade() {
    assert!(explain_folder(&fixtures().join("kakuro")) >= 7);
    assert!(explain_folder(&fixtures().join("sudoku")) >= 3);
    assert!(explain_folder(&fixtures().join("killer")) >= 3);
}

#[test]
fn janko_killer_paths_are_sound_and_mostly_logic_alone() {
    let Some(data) = data() else { return };
    let dir = data.join("killer-sudoku/janko");
    let (mut count, mut by_logic, mut cage_steps, mut trials, mut on_runs) = (0, 0, 0, 0, 0);
    for file in puzzles_in(&dir) {
        let sol = file.with_extension("sol");
        if file.extension().is_none_or(|e| e != "txt") || !sol.exists() {
            continue;
        }
        let solution = read_sol(&text(&sol)).unwrap();
        let document = format::read(&text(&file), None).unwrap();
        for entry in document.entries {
            let puzzle = entry.unwrap().puzzle;
            assert!(matches!(puzzle, Puzzle::Killer(_)), "{}", file.display());
            let path = explain::explain(&puzzle, &solution, None);
            check(&file.display().to_string(), &puzzle, &solution, &path);
            count += 1;
            by_logic += usize::from(path.solved);
            cage_steps += path.steps.iter().filter(|s| !s.because.cages.is_empty()).count();
            trials += path.steps.iter().filter(|s| s.technique == "trial").count();
            let rule_of_45 = |s: &&explain::Step| matches!(s.technique, "innies" | "outies");
            on_runs +=
                path.steps.iter().filter(rule_of_45).filter(|s| s.because.houses.len() > 1).count();
        }
    }
    assert_eq!(count, 608);
    // The cage techniques carry the janko Killer through without a search but for 10 (13
    // and 42 trial steps when the rule of 45 looked at single houses only).
    assert!(count - by_logic <= 10, "{by_logic} of {count} by logic alone");
    assert!(trials <= 11, "{trials} trial steps");
    assert!(cage_steps > count, "{cage_steps}");
    assert!(on_runs > 0, "the rule of 45 never used on neighbouring rows or columns");
}

#[test]
fn corpus_paths_are_sound_and_end_at_the_grade() {
    let Some(data) = data() else { return };
    assert_eq!(explain_folder(&data.join("kakuro/janko")), 751);
    assert_eq!(explain_folder(&data.join("sudoku/janko")), 96);
    let lines = text(&data.join("sudoku/lines/top1465.txt"));
    let puzzles: Vec<&str> =
        lines.lines().filter(|l| !l.trim().is_empty() && !l.starts_with('#')).collect();
    let count = explain_all("top1465", &lines, |k, _| solved(puzzles[k]));
    assert_eq!(count, 1465);
}

#[test]
fn a_path_cut_short_by_its_budget_is_its_beginning_and_says_why() {
    use std::sync::atomic::AtomicBool;
    use std::time::{Duration, Instant};
    let raised = std::sync::Arc::new(AtomicBool::new(true));
    let cancelled = Budget { cancel: Some(&raised), ..Budget::default() };
    let past = Budget { deadline: Some(Instant::now()), ..Budget::default() };
    let later = Instant::now() + Duration::from_secs(3600);
    let ample = Budget { deadline: Some(later), ..Budget::default() };
    for rel in ["kakuro/1_10x12.txt", "sudoku/top1465-1_9x9.txt", "killer/111_9x9.txt"] {
        let text = fs::read_to_string(fixtures().join(rel)).unwrap();
        let puzzle = format::read(&text, None).unwrap().entries.remove(0).unwrap().puzzle;
        let grid = solved(&text);
        let full = explain::explain(&puzzle, &grid, None);
        assert_eq!(full.stopped_by, None, "{rel}");
        assert_eq!(explain::explain_within(&puzzle, &grid, None, ample), full, "{rel}");
        for (budget, why) in [(cancelled, "cancelled"), (past, "timeout")] {
            let cut = explain::explain_within(&puzzle, &grid, None, budget);
            assert_eq!(cut.stopped_by, Some(why), "{rel}");
            assert!(cut.steps.len() < full.steps.len(), "{rel}: not cut short");
            assert_eq!(cut.steps, full.steps[..cut.steps.len()], "{rel}: not its beginning");
            assert!(cut.steps.iter().all(|s| s.technique != "search"), "{rel}");
            assert_eq!((cut.difficulty, cut.solved), (None, false), "{rel}");
        }
    }
}

fn fixture(rel: &str) -> String {
    fixtures().join(rel).to_str().unwrap().to_string()
}

#[test]
fn explain_prints_numbered_steps_or_json_and_refuses_what_it_cannot_explain() {
    let kakuro = fixture("kakuro/281_6x6.txt");
    let out = kakurod(&["explain", &kakuro]);
    assert!(out.status.success());
    let printed = String::from_utf8(out.stdout).unwrap();
    let first = printed.lines().next().unwrap();
    assert!(
        first.starts_with("   1. [easy] unique_combination: run r2c1 across (16 in 2)"),
        "{first}"
    );
    assert!(printed.trim_end().ends_with("logic alone finishes the grid; 31 steps"), "{printed}");

    let out = kakurod(&["explain", "--json", &kakuro]);
    let path: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(path["difficulty"], "easy");
    assert_eq!(path["solved"], true);
    assert_eq!(path["steps"].as_array().unwrap().len(), 31);
    assert_eq!(path["steps"][0]["because"]["runs"][0]["clue"], serde_json::json!([1, 0]));

    let killer = kakurod(&["explain", "--json", &fixture("killer/111_9x9.txt")]);
    assert!(killer.status.success(), "{}", String::from_utf8_lossy(&killer.stderr));
    let path: Value = serde_json::from_slice(&killer.stdout).unwrap();
    assert_eq!(path["difficulty"], Value::Null);
    let steps = path["steps"].as_array().unwrap();
    let cage = steps.iter().find(|s| s["technique"] == "cage_combination").unwrap();
    let because = &cage["because"]["cages"][0];
    assert!(
        because["sum"].as_u64().unwrap() > 0 && !because["cells"].as_array().unwrap().is_empty()
    );
    let hint = kakurod(&["hint", "--json", &fixture("killer/111_9x9.txt")]);
    assert!(hint.status.success());
    let hint: Value = serde_json::from_slice(&hint.stdout).unwrap();
    assert_eq!(hint["steps_left"].as_u64(), Some(steps.len() as u64));
    assert_eq!(hint["step"], steps[0]);
    // From a player's grid: the solution with its last three rows taken out.
    let dir = tempfile::tempdir().unwrap();
    let solution = fs::read_to_string(fixture("killer/111_9x9.sol")).unwrap();
    let mut rows: Vec<String> = solution.lines().map(String::from).collect();
    for row in &mut rows[7..10] {
        *row = ["-"; 9].join(" ");
    }
    let progress = dir.path().join("progress.txt");
    fs::write(&progress, rows.join("\n") + "\n").unwrap();
    let killer = fixture("killer/111_9x9.txt");
    let out = kakurod(&["hint", "--json", "--progress", progress.to_str().unwrap(), &killer]);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let hint: Value = serde_json::from_slice(&out.stdout).unwrap();
    let step = &hint["step"];
    let marks: Vec<&Value> = step["eliminate"]
        .as_array()
        .unwrap()
        .iter()
        .chain(step["place"].as_array().unwrap())
        .collect();
    assert!(!marks.is_empty(), "{hint}");
    assert!(
        marks.iter().all(|m| m[0].as_u64().unwrap() >= 6),
        "a step about the filled rows: {hint}"
    );
    let batch = kakurod(&["explain", &fixture("daemon/lines-top3.txt")]);
    assert_eq!(batch.status.code(), Some(2));
}

#[test]
fn explain_and_hint_give_up_at_their_time_limit_and_say_so() {
    let kakuro = fixture("kakuro/960_31x46.txt");
    let whole = kakurod(&["explain", "--json", "--timeout", "0", &kakuro]);
    assert!(whole.status.success(), "{}", String::from_utf8_lossy(&whole.stderr));
    let whole: Value = serde_json::from_slice(&whole.stdout).unwrap();
    assert!(whole.get("stopped_by").is_none(), "0 is no limit");
    // A microsecond runs out in the search or in the path: either way it says so. A path
    // cut short exits 1; a hint found before the cut is given, with the cut said.
    for command in ["explain", "hint"] {
        let out = kakurod(&[command, "--json", "--timeout", "0.000001", &kakuro]);
        let stderr = String::from_utf8_lossy(&out.stderr);
        if out.stdout.is_empty() {
            assert_eq!(out.status.code(), Some(1), "{command}");
            assert!(stderr.contains("within the time limit"), "{command}: {stderr}");
            continue;
        }
        let cut: Value = serde_json::from_slice(&out.stdout).unwrap();
        assert_eq!(cut["stopped_by"], "timeout", "{command}: {cut}");
        let code = if command == "hint" { 0 } else { 1 };
        assert_eq!(out.status.code(), Some(code), "{command}: {stderr}");
        if command == "hint" {
            assert!(cut["step"].is_object(), "{cut}");
        }
    }
}

#[test]
fn a_sudoku_hint_acts_on_the_open_cells_and_starts_from_the_cell_it_fills() {
    let dir = tempfile::tempdir().unwrap();
    let puzzle = fixture("sudoku/1_9x9.txt");
    let solution = fs::read_to_string(fixture("sudoku/1_9x9.sol")).unwrap();
    // The solution's first five rows filled, the last four open.
    let mut rows: Vec<String> = solution.lines().map(String::from).collect();
    for row in &mut rows[6..=9] {
        *row = ["-"; 9].join(" ");
    }
    let progress = dir.path().join("progress.txt");
    fs::write(&progress, rows.join("\n") + "\n").unwrap();
    let out = kakurod(&["hint", "--json", "--progress", progress.to_str().unwrap(), &puzzle]);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let hint: Value = serde_json::from_slice(&out.stdout).unwrap();
    let step = &hint["step"];
    let placed = step["place"].as_array().unwrap();
    for cell in step["eliminate"].as_array().unwrap().iter().chain(placed) {
        assert!(cell[0].as_u64().unwrap() >= 5, "a step about the filled rows: {hint}");
    }
    // Its text starts from the cell it fills, counted from 1.
    let first = &placed[0];
    let (r, c, d) =
        (first[0].as_u64().unwrap(), first[1].as_u64().unwrap(), first[2].as_u64().unwrap());
    let text = step["text"].as_str().unwrap();
    assert!(text.starts_with(&format!("r{}c{} = {d}", r + 1, c + 1)), "{text}");
}

#[test]
fn hint_gives_the_next_step_from_a_players_grid_and_names_a_wrong_digit() {
    let dir = tempfile::tempdir().unwrap();
    let puzzle = fixture("kakuro/281_6x6.txt");
    let solution = fs::read_to_string(fixture("kakuro/281_6x6.sol")).unwrap();
    // The solution with its last two rows taken out.
    let mut rows: Vec<String> = solution.lines().map(String::from).collect();
    rows[5] = "- - - - - -".into();
    rows[6] = "- - - - - -".into();
    let progress = dir.path().join("progress.txt");
    fs::write(&progress, rows.join("\n") + "\n").unwrap();
    let out = kakurod(&["hint", "--json", "--progress", progress.to_str().unwrap(), &puzzle]);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let hint: Value = serde_json::from_slice(&out.stdout).unwrap();
    let eliminated = hint["step"]["eliminate"].as_array().unwrap();
    let placed = hint["step"]["place"].as_array().unwrap();
    assert!(!eliminated.is_empty() || !placed.is_empty());
    for cell in eliminated.iter().chain(placed) {
        assert!(cell[0].as_u64().unwrap() >= 4, "a step about the filled rows: {hint}");
    }

    // A wrong digit: row 1 is `- 9 7 - 6 4`; its 6 becomes a 5.
    rows[2] = "- 9 7 - 5 4".into();
    fs::write(&progress, rows.join("\n") + "\n").unwrap();
    let out = kakurod(&["hint", "--progress", progress.to_str().unwrap(), &puzzle]);
    assert_eq!(out.status.code(), Some(1));
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(stderr.contains("progress.txt:3:9: 5 in r2c5 is wrong"), "{stderr}");

    // The wrong size, a digit out of range, a digit in a clue cell.
    for (text, expected) in [
        ("2 2\n- -\n- -\n", ":1:1: the grid is 2x2, the puzzle 6x6"),
        (
            "6 6\n- - - - - -\n- 12 - - - -\n- - - - - -\n- - - - - -\n- - - - - -\n- - - - - -\n",
            ":3:3: 12 in r2c2 is not a digit",
        ),
        (
            "6 6\n3 - - - - -\n- - - - - -\n- - - - - -\n- - - - - -\n- - - - - -\n- - - - - -\n",
            ":2:1: r1c1 is a clue cell",
        ),
    ] {
        fs::write(&progress, text).unwrap();
        let out = kakurod(&["hint", "--progress", progress.to_str().unwrap(), &puzzle]);
        assert_eq!(out.status.code(), Some(1));
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert!(stderr.contains(expected), "{stderr}");
    }
}

#[test]
fn generate_needs_makes_a_puzzle_whose_path_uses_the_technique_and_nothing_harder() {
    let dir = tempfile::tempdir().unwrap();
    let cases: [(&[&str], &str, &str); 3] = [
        (&["--kind", "sudoku", "--size", "9"], "x_wing", "hard"),
        (&["--kind", "sudoku", "--size", "9"], "pointing", "medium"),
        (&["--rows", "10", "--cols", "10"], "bounds", "medium"),
    ];
    for (k, (kind, technique, level)) in cases.into_iter().enumerate() {
        let mut args = vec!["generate", "--seed", "3", "--json", "--needs", technique];
        args.extend(kind);
        let out = kakurod(&args);
        assert!(out.status.success(), "{technique}: {}", String::from_utf8_lossy(&out.stderr));
        let made: Value = serde_json::from_slice(&out.stdout).unwrap();
        assert_eq!(made["difficulty"], level, "{technique}");
        let file = dir.path().join(format!("{k}.txt"));
        fs::write(&file, made["text"].as_str().unwrap()).unwrap();
        let out = kakurod(&["explain", "--json", file.to_str().unwrap()]);
        let path: Value = serde_json::from_slice(&out.stdout).unwrap();
        assert_eq!(path["difficulty"], level, "{technique}");
        assert_eq!(path["solved"], true);
        let used = path["steps"].as_array().unwrap().iter().any(|s| s["technique"] == technique);
        assert!(used, "{technique} is not on the path");
    }
    // A Killer is not graded: its puzzles are explained until one needs the technique.
    for technique in ["innies", "cage_pointing"] {
        let args = ["generate", "--kind", "killer", "--size", "9", "--json", "--needs", technique];
        let out = kakurod(&args);
        assert!(out.status.success(), "{technique}: {}", String::from_utf8_lossy(&out.stderr));
        let made: Value = serde_json::from_slice(&out.stdout).unwrap();
        let file = dir.path().join(format!("{technique}.txt"));
        fs::write(&file, made["text"].as_str().unwrap()).unwrap();
        let out = kakurod(&["explain", "--json", file.to_str().unwrap()]);
        let path: Value = serde_json::from_slice(&out.stdout).unwrap();
        assert_eq!(path["solved"], true, "{technique}");
        let steps = path["steps"].as_array().unwrap();
        assert!(steps.iter().any(|s| s["technique"] == technique), "{technique} not on the path");
        let medium_at_most = |s: &&Value| matches!(s["level"].as_str(), Some("easy" | "medium"));
        assert!(steps.iter().all(|s| medium_at_most(&s)), "{technique}: a harder step");
    }
    let refused = kakurod(&["generate", "--kind", "killer", "--size", "9", "--needs", "bounds"]);
    assert_eq!(refused.status.code(), Some(2));
    let refused = kakurod(&[
        "generate",
        "--kind",
        "killer",
        "--size",
        "9",
        "--needs",
        "innies",
        "--difficulty",
        "hard",
    ]);
    assert_eq!(refused.status.code(), Some(2));
    let refused = kakurod(&["generate", "--kind", "sudoku", "--size", "9", "--needs", "bounds"]);
    assert_eq!(refused.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&refused.stderr).contains("no such technique"));
}

proptest::proptest! {
    #![proptest_config(proptest::prelude::ProptestConfig { cases: 48, ..Default::default() })]

    /// Random puzzles with one solution, of every kind and every grade, expert included:
    /// every path is sound and ends at the grade (a Killer's at none).
    #[test]
    fn random_unique_puzzles_have_sound_paths(seed in 0u64..1_000_000, pick in 0usize..6) {
        use kakurod_engine::generate::{self, GenOptions, GradeGoal, GridKind, GridOptions};
        let (puzzle, solution) = if !(2..4).contains(&pick) {
            let size = if pick % 2 == 0 { 4 } else { 9 };
            let kind = if pick < 2 { GridKind::Sudoku } else { GridKind::Killer };
            let options = GridOptions {
                kind,
                size,
                seed,
                symmetry: Default::default(),
                threads: 1,
                difficulty: GradeGoal::Any,
            };
            let made = generate::generate_grid(&options, Default::default()).unwrap();
            (made.puzzle, made.solution)
        } else {
            let (rows, cols) = if pick == 2 { (7, 7) } else { (12, 10) };
            let black = generate::default_black(rows, cols);
            let options = GenOptions {
                difficulty: GradeGoal::Any,
                threads: 1,
                ..GenOptions::unique(rows, cols, black, seed)
            };
            let made = generate::generate(&options, Default::default()).unwrap();
            (Puzzle::Kakuro(made.puzzle), made.filling)
        };
        let path = explain::explain(&puzzle, &solution, None);
        check(&format!("seed {seed}, pick {pick}"), &puzzle, &solution, &path);
        if matches!(puzzle, Puzzle::Killer(_)) {
            proptest::prop_assert_eq!(path.difficulty, None);
        } else if let Some(grade) = grade_of(&puzzle) {
            proptest::prop_assert!(path.solved);
            proptest::prop_assert_eq!(path.difficulty, Some(grade));
        } else {
            proptest::prop_assert!(!path.solved);
        }
    }
}

/// Checks that `svg` is well-formed XML of the shapes the drawing writes: every element
/// closed in order, attribute values quoted, text free of a bare `<` or `&`.
fn assert_well_formed(name: &str, svg: &str) {
    let mut open: Vec<String> = Vec::new();
    let mut rest = svg;
    while let Some(at) = rest.find('<') {
        let text = &rest[..at];
        assert!(!text.contains('>'), "{name}: stray `>` in {text:?}");
        assert!(
            text.split('&')
                .skip(1)
                .all(|t| ["amp;", "lt;", "gt;"].iter().any(|e| t.starts_with(e))),
            "{name}: bare `&` in {text:?}"
        );
        let end = rest[at..].find('>').map(|e| at + e).expect("an unclosed tag");
        let tag = &rest[at + 1..end];
        assert_eq!(tag.matches('"').count() % 2, 0, "{name}: unbalanced quotes in <{tag}>");
        if let Some(closing) = tag.strip_prefix('/') {
            assert_eq!(open.pop().as_deref(), Some(closing), "{name}: </{closing}> out of order");
        } else if !tag.ends_with('/') {
            open.push(tag.split_whitespace().next().unwrap_or_default().to_string());
        }
        rest = &rest[end + 1..];
    }
    assert!(open.is_empty(), "{name}: unclosed {open:?}");
    assert!(svg.starts_with("<svg ") && svg.trim_end().ends_with("</svg>"), "{name}");
}

#[test]
fn explain_svg_draws_each_step_with_its_marks() {
    let dir = tempfile::tempdir().unwrap();
    for (file, chosen) in
        [("kakuro/281_6x6.txt", None), ("killer/111_9x9.txt", Some("1,5,10-12,29"))]
    {
        let out_dir = dir.path().join(file.replace('/', "-"));
        let out_str = out_dir.to_str().unwrap();
        let mut args = vec!["explain", "--json", "--svg", out_str];
        if let Some(list) = chosen {
            args.extend(["--steps", list]);
        }
        let puzzle = fixture(file);
        args.push(&puzzle);
        let out = kakurod(&args);
        assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
        let path: Value = serde_json::from_slice(&out.stdout).unwrap();
        let steps = path["steps"].as_array().unwrap();
        let numbers: Vec<usize> = match chosen {
            Some(_) => vec![1, 5, 10, 11, 12, 29],
            None => (1..=steps.len()).collect(),
        };
        let mut names: Vec<String> = fs::read_dir(&out_dir)
            .unwrap()
            .map(|e| e.unwrap().file_name().into_string().unwrap())
            .collect();
        names.sort();
        let expected: Vec<String> = numbers.iter().map(|k| format!("step-{k:03}.svg")).collect();
        assert_eq!(names, expected, "{file}");
        let (mut struck, mut placed) = (0, 0);
        for k in numbers {
            let name = format!("{file} step {k}");
            let svg = fs::read_to_string(out_dir.join(format!("step-{k:03}.svg"))).unwrap();
            assert_well_formed(&name, &svg);
            let step = &steps[k - 1];
            let count = |key: &str| step[key].as_array().unwrap().len();
            let texts = |colour: &str| {
                svg.lines().filter(|l| l.starts_with("<text") && l.contains(colour)).count()
            };
            assert_eq!(texts("fill=\"#d0021b\""), count("eliminate"), "{name}: struck candidates");
            assert_eq!(texts("fill=\"#1a8a3a\""), count("place"), "{name}: placed digits");
            let mut because: Vec<&Value> =
                step["because"]["cells"].as_array().unwrap().iter().collect();
            because.sort_by_key(|c| c.to_string());
            because.dedup();
            assert_eq!(svg.matches("class=\"because\"").count(), because.len(), "{name}");
            struck += count("eliminate");
            placed += count("place");
        }
        assert!(struck > 0 && placed > 0, "{file}: the steps drawn mark nothing");
    }
    // A step past the path is refused before anything is written.
    let out = kakurod(&[
        "explain",
        "--svg",
        dir.path().join("none").to_str().unwrap(),
        "--steps",
        "9999",
        &fixture("kakuro/281_6x6.txt"),
    ]);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("steps 1 to 31"));
    assert!(!dir.path().join("none").exists());
}
