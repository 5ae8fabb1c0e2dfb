//! `kakurod print --out FILE.pdf FILE...`: printable sheets. Every puzzle of every input is
//! read as `solve` reads it and solved by the same pipeline (so each printed solution is
//! verified against the puzzle's clues, and a Kakuro is graded); [`sheet`] lays out the
//! pages and [`pdf`] writes them, or `--svg` writes each page as SVG.

use super::{located, read_text};
use crate::cli::PrintArgs;
use crate::format;
use crate::grade;
use crate::pipeline::{self, PipelineOptions};
use crate::puzzle::{Grid, Puzzle};
use crate::render::sheet::{self, Entry};
use crate::render::{Drawing, pdf};
use crate::report::Status;
use crate::solver::Control;
use crate::util::plural;
use anyhow::Context;
use rayon::prelude::*;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

/// One puzzle read, and what solving it gave.
struct Printed {
    title: String,
    puzzle: Puzzle,
    solution: Option<Grid>,
    grade: Option<&'static str>,
}

/// Prints the files; exit 1 when a puzzle could not be read or has no solution.
pub fn run(args: PrintArgs) -> anyhow::Result<ExitCode> {
    let mut options = PipelineOptions { format: args.format, ..PipelineOptions::default() };
    options.solve.timeout = args.timeout;
    let mut failed = false;
    let mut read = Vec::new();
    // Before any puzzle is solved; the numbered pages of --svg are checked once counted.
    if !args.svg {
        super::refuse_overwrite(&args.out, args.force)?;
    }
    for path in &super::puzzle_files(&args.files)? {
        let name = shown(path);
        let text = match read_text(path) {
            Ok(text) => text,
            Err(error) => {
                eprintln!("{}: {error:#}", path.display());
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
        for entry in document.entries {
            match entry {
                Ok(parsed) => {
                    let title = if document.batch {
                        format!("{name}, line {}", parsed.line)
                    } else {
                        name.clone()
                    };
                    read.push((title, parsed));
                }
                Err(error) => {
                    eprintln!("{}", located(&name, &error));
                    failed = true;
                }
            }
        }
    }
    let printed: Vec<Printed> =
        read.into_par_iter().map(|(title, parsed)| solve(title, parsed, &options)).collect();
    for unsolved in printed.iter().filter(|p| p.solution.is_none()) {
        eprintln!("{}: no solution was found; printed without one", unsolved.title);
        failed = true;
    }
    if printed.is_empty() {
        anyhow::bail!("no puzzle to print");
    }
    let entries: Vec<Entry<'_>> = printed
        .iter()
        .map(|p| Entry {
            title: p.title.clone(),
            grade: p.grade,
            puzzle: &p.puzzle,
            solution: p.solution.as_ref(),
        })
        .collect();
    let pages = sheet::pages(&entries, args.paper)?;
    if args.svg {
        write_svg(&pages, &args.out, args.force)?;
    } else {
        let title = args.out.file_stem().map_or_else(String::new, |s| s.to_string_lossy().into());
        let document = pdf::pdf(&pages, &title);
        std::fs::write(&args.out, document)
            .with_context(|| format!("cannot write {}", args.out.display()))?;
    }
    eprintln!(
        "{}: {} on {}",
        args.out.display(),
        plural(printed.len(), "puzzle"),
        plural(pages.len(), "page")
    );
    Ok(if failed { ExitCode::from(1) } else { ExitCode::SUCCESS })
}

/// What errors and titles call the file: its name without its folders, or `<stdin>`.
fn shown(path: &Path) -> String {
    match path.file_name() {
        Some(name) if !super::is_stdin(path) => name.to_string_lossy().into(),
        _ => "<stdin>".into(),
    }
}

/// Solves one puzzle; the solution only when verified, the grade when there is one.
fn solve(title: String, parsed: format::Parsed, options: &PipelineOptions) -> Printed {
    let puzzle = parsed.puzzle.clone();
    let report = pipeline::solve_parsed(parsed, options, Control::default());
    let solved = report.status == Status::Solved;
    let grade = match (&puzzle, report.difficulty) {
        (_, Some(difficulty)) => Some(difficulty.name()),
        (Puzzle::Sudoku(sudoku), None) if solved => {
            Some(grade::grade_sudoku(sudoku).difficulty.name())
        }
        _ => None,
    };
    let solution = report.grid.filter(|_| solved);
    Printed { title, puzzle, solution, grade }
}

/// The pages as SVG files: `out` for one page, `STEM-1.svg`, `STEM-2.svg`, ... for more.
/// Files there already are kept unless `force`.
fn write_svg(pages: &[Drawing], out: &Path, force: bool) -> anyhow::Result<()> {
    let paths: Vec<PathBuf> = if pages.len() == 1 {
        vec![out.to_path_buf()]
    } else {
        let stem = out.file_stem().map_or_else(|| "sheet".into(), |s| s.to_string_lossy());
        let folder = out.parent().unwrap_or(Path::new(""));
        (1..=pages.len()).map(|n| folder.join(format!("{stem}-{n}.svg"))).collect()
    };
    for path in &paths {
        super::refuse_overwrite(path, force)?;
    }
    for (page, path) in pages.iter().zip(&paths) {
        std::fs::write(path, page.to_svg())
            .with_context(|| format!("cannot write {}", path.display()))?;
    }
    Ok(())
}
