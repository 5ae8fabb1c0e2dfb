//! `kakurod convert --to FORMAT FILE...`: every puzzle of every input, read as `solve`
//! reads it, written in another format. The readers are the solver's own, so a file that
//! converts is a file the daemon answers; the writers are the generator's native grids,
//! Sudoku lines and rows (`sdk`), ipuz, puzz.link and f-puzzles URLs, kanpen files,
//! kakurod's JSON, and the empty grid as SVG.

use super::{located, read_text};
use crate::cli::{ConvertArgs, Target};
use crate::format::{self, puzzlink};
use crate::generate;
use crate::puzzle::value_char;
use crate::puzzle::{Kind, Puzzle, Sudoku};
use crate::render;
use anyhow::{Context, bail};
use std::io::Write;
use std::process::ExitCode;

/// One converted puzzle: its text, its kind, and the name of its file when each puzzle is
/// written apart (`--out DIR`).
struct Converted {
    text: String,
    kind: Kind,
    name: String,
}

/// Converts the files; exit 1 when any input or puzzle could not be converted.
pub fn run(args: ConvertArgs) -> anyhow::Result<ExitCode> {
    let mut written = Vec::new();
    let mut failed = false;
    for path in &super::puzzle_files(&args.files)? {
        let name = path.display().to_string();
        let text = match read_text(path) {
            Ok(text) => text,
            Err(error) => {
                eprintln!("{name}: {error:#}");
                failed = true;
                continue;
            }
        };
        let document = match format::read(&text, args.format) {
            Ok(document) => document,
            Err(error) => {
                eprintln!("{}", located(&name, &error));
                failed = true;
                continue;
            }
        };
        let stem = crate::result_names::stem_of(&super::file_name(path));
        for entry in document.entries {
            let converted = entry.map_err(|error| located(&name, &error)).and_then(|parsed| {
                let file = match document.batch {
                    true => format!("{stem}-{}.{}", parsed.line, args.to.extension()),
                    false => format!("{stem}.{}", args.to.extension()),
                };
                write(&parsed.puzzle, args.to)
                    .map(|text| Converted { text, kind: parsed.puzzle.kind(), name: file })
                    .map_err(|why| format!("{name}:{}: {why}", parsed.line))
            });
            match converted {
                Ok(converted) => written.push(converted),
                Err(message) => {
                    eprintln!("{message}");
                    failed = true;
                }
            }
        }
    }
    match &args.out {
        Some(out) if out.is_dir() => write_apart(out, &written, args.force)?,
        Some(out) => {
            one_file_holds_them(&written, args.to)?;
            super::refuse_overwrite(out, args.force)?;
            let output: String = written.iter().map(|c| c.text.as_str()).collect();
            std::fs::write(out, output)
                .with_context(|| format!("cannot write {}", out.display()))?;
        }
        None => {
            one_file_holds_them(&written, args.to)?;
            let mut stdout = std::io::stdout().lock();
            for converted in &written {
                stdout.write_all(converted.text.as_bytes())?;
            }
            stdout.flush()?;
        }
    }
    Ok(if failed { ExitCode::from(1) } else { ExitCode::SUCCESS })
}

/// Refuses many puzzles for a format that holds one, naming what would hold them all: a
/// folder (one file each) and the formats of many puzzles that take every kind among them.
fn one_file_holds_them(written: &[Converted], to: Target) -> anyhow::Result<()> {
    if written.len() <= 1 || to.many_per_file() {
        return Ok(());
    }
    let holding: Vec<&str> = Target::ALL
        .into_iter()
        .filter(|t| t.many_per_file())
        .filter(|&t| written.iter().all(|c| refusal(c.kind, t).is_none()))
        .map(Target::name)
        .collect();
    let or_formats = match holding.as_slice() {
        [] => String::new(),
        [one] => format!(", or convert to {one}"),
        [rest @ .., last] => format!(", or convert to {} or {last}", rest.join(", ")),
    };
    bail!(
        "{} puzzles to write, but {} holds one puzzle a file: give --out an existing folder \
         to write one file per puzzle{or_formats}",
        written.len(),
        to.name()
    )
}

/// `--out DIR`: each puzzle in a file of its own, named after its input (and its line, for
/// a batch's puzzles); files there already are kept unless `force`.
fn write_apart(dir: &std::path::Path, written: &[Converted], force: bool) -> anyhow::Result<()> {
    for converted in written {
        super::refuse_overwrite(&dir.join(&converted.name), force)?;
    }
    for converted in written {
        let file = dir.join(&converted.name);
        std::fs::write(&file, &converted.text)
            .with_context(|| format!("cannot write {}", file.display()))?;
    }
    eprintln!("{} files written in {}", written.len(), dir.display());
    Ok(())
}

/// One puzzle in the target format, ending with a newline; the reason when the target
/// cannot hold it.
pub(super) fn write(puzzle: &Puzzle, to: Target) -> Result<String, String> {
    let kind = puzzle.kind();
    if let Some(holds) = refusal(kind, to) {
        return Err(format!("a {} cannot be written as {}: {holds}", kind.name(), to.name()));
    }
    match (to, puzzle) {
        (Target::Janko | Target::Sudoku | Target::Killer, _) => Ok(generate::to_text(puzzle)),
        (Target::Lines, Puzzle::Sudoku(sudoku)) => Ok(line(sudoku)),
        (Target::Sdk, Puzzle::Sudoku(sudoku)) => Ok(rows(sudoku)),
        (Target::Ipuz, Puzzle::Sudoku(sudoku)) => Ok(format::ipuz::write(sudoku)),
        (Target::Json, _) => Ok(format::json::write(puzzle)),
        (Target::Svg, _) => Ok(render::svg(puzzle, None)),
        (Target::Puzzlink, _) => match puzzlink::play_url(puzzle) {
            Some(url) => Ok(format!("{url}\n")),
            None => Err(format!(
                "a {} cannot be written as puzzlink: its border holds clues a puzz.link board \
                 cannot",
                kind.name()
            )),
        },
        (Target::Kanpen, Puzzle::Kakuro(kakuro)) => format::kanpen::write(kakuro).ok_or_else(|| {
            format!(
                "a {} cannot be written as kanpen: its border holds what a kanpen border cannot",
                kind.name()
            )
        }),
        (Target::Fpuzzles, _) => format::fpuzzles::write(puzzle)
            .map_err(|why| format!("a {} cannot be written as fpuzzles: {why}", kind.name())),
        (Target::Lines | Target::Sdk | Target::Ipuz | Target::Kanpen, _) => {
            Err(format!("a {} cannot be written as {}", kind.name(), to.name()))
        }
    }
}

/// What the target holds, when it cannot hold a puzzle of `kind`.
pub(super) fn refusal(kind: Kind, to: Target) -> Option<&'static str> {
    match (to, kind) {
        (Target::Janko, Kind::Kakuro)
        | (Target::Sudoku | Target::Lines | Target::Sdk | Target::Ipuz, Kind::Sudoku)
        | (Target::Killer, Kind::Killer)
        | (Target::Puzzlink | Target::Kanpen, Kind::Kakuro)
        | (Target::Puzzlink | Target::Fpuzzles, Kind::Sudoku)
        | (Target::Fpuzzles, Kind::Killer)
        | (Target::Json | Target::Svg, _) => None,
        (Target::Janko, _) => Some("janko grids hold Kakuro"),
        (Target::Sudoku, _) => Some("Sudoku grids hold plain Sudoku"),
        (Target::Killer, _) => Some("killer grids hold Killer Sudoku"),
        (Target::Lines, _) => Some("lines hold plain Sudoku"),
        (Target::Sdk, _) => Some("sdk grids hold plain Sudoku"),
        (Target::Ipuz, _) => Some("kakurod writes ipuz for plain Sudoku"),
        (Target::Puzzlink, _) => Some("puzz.link (pzprjs) has no Killer Sudoku"),
        (Target::Kanpen, _) => Some("kanpen files hold Kakuro"),
        (Target::Fpuzzles, _) => Some("f-puzzles holds Sudoku and Killer Sudoku"),
    }
}

/// A Sudoku as N rows of N characters, as [`line()`] writes them.
fn rows(sudoku: &Sudoku) -> String {
    let line = line(sudoku);
    let cells: Vec<char> = line.trim_end().chars().collect();
    cells.chunks(sudoku.n.max(1)).map(|row| row.iter().collect::<String>() + "\n").collect()
}

/// A Sudoku as one line: `.` for a blank, `1`-`9`, then `A` for 10 and up.
fn line(sudoku: &Sudoku) -> String {
    let mut text: String = sudoku.givens.iter().map(|&v| value_char(v)).collect();
    text.push('\n');
    text
}
