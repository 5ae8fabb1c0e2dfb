//! `kakurod print`, checked by poppler (`pdfinfo`, `pdftotext`, `pdftoppm`): the pages
//! counted, the clues and titles read back from the PDF's text, every page rendered.
//! Without poppler the checks say so and pass, except under `CI=true`, where they fail.

use std::fs;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use crate::common;

fn kakurod(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_kakurod")).args(args).output().unwrap()
}

fn fixture(rel: &str) -> String {
    common::fixtures().join(rel).to_str().unwrap().to_string()
}

/// Runs a poppler tool; `None` when poppler is not installed.
fn poppler(tool: &str, args: &[&str]) -> Option<String> {
    match Command::new(tool).args(args).output() {
        Ok(out) => {
            assert!(
                out.status.success(),
                "{tool} {args:?}: {}",
                String::from_utf8_lossy(&out.stderr)
            );
            Some(String::from_utf8_lossy(&out.stdout).into_owned())
        }
        Err(_) => common::skipped("the PDF checks", "poppler-utils is not installed"),
    }
}

fn pages(pdf: &Path) -> Option<usize> {
    let info = poppler("pdfinfo", &[pdf.to_str().unwrap()])?;
    let line = info.lines().find(|l| l.starts_with("Pages:")).unwrap();
    Some(line["Pages:".len()..].trim().parse().unwrap())
}

/// The text poppler reads from page `n`.
fn page_text(pdf: &Path, n: usize) -> Option<String> {
    let n = n.to_string();
    poppler("pdftotext", &["-layout", "-f", &n, "-l", &n, pdf.to_str().unwrap(), "-"])
}

/// The numbers on a page, in any order.
fn numbers(text: &str) -> Vec<u32> {
    let mut found: Vec<u32> = text
        .split(|c: char| !c.is_ascii_digit())
        .filter(|w| !w.is_empty())
        .map(|w| w.parse().unwrap())
        .collect();
    found.sort_unstable();
    found
}

/// The clue numbers of a janko Kakuro file.
fn clues(path: &str) -> Vec<u32> {
    let text = fs::read_to_string(path).unwrap();
    let all = numbers(&text.lines().skip(1).collect::<Vec<_>>().join(" "));
    all.into_iter().filter(|&n| n != 0).collect()
}

#[test]
fn a_sheet_has_a_page_per_puzzle_then_the_solutions_and_every_page_renders() {
    let dir = tempfile::tempdir().unwrap();
    let pdf = dir.path().join("sheet.pdf");
    let kakuro = fixture("kakuro/1_10x12.txt");
    let giant = fixture("kakuro/960_31x46.txt");
    let files = [
        kakuro.clone(),
        giant.clone(),
        fixture("sudoku/1_9x9.txt"),
        fixture("killer/111_9x9.txt"),
        fixture("sudoku/generated_25x25.txt"),
    ];
    let mut args = vec!["print", "--out", pdf.to_str().unwrap()];
    args.extend(files.iter().map(String::as_str));
    let out = kakurod(&args);
    assert_eq!(out.status.code(), Some(0), "{}", String::from_utf8_lossy(&out.stderr));
    let Some(count) = pages(&pdf) else { return };
    // Five puzzle pages; the solutions: the 10x12 and the 9x9s four to a page, the 31x46
    // and the 25x25 on pages of their own.
    assert_eq!(count, 5 + 4, "pages");
    let first = page_text(&pdf, 1).unwrap();
    assert!(
        first.contains("1_10x12.txt") && first.contains("Kakuro 10x12, grade: easy"),
        "{first}"
    );
    assert!(first.contains("page 1 of 9"), "{first}");
    // Every clue is on the page, and nothing else but the title's and footer's numbers.
    let mut expected = clues(&kakuro);
    expected.extend([1, 10, 12, 10, 12, 1, 9]);
    expected.sort_unstable();
    assert_eq!(numbers(&first), expected);
    let mut expected = clues(&giant);
    expected.extend([960, 31, 46, 31, 46, 2, 9]);
    expected.sort_unstable();
    assert_eq!(numbers(&page_text(&pdf, 2).unwrap()), expected, "the 31x46 page");
    let solutions = page_text(&pdf, 6).unwrap();
    assert!(solutions.contains("Solutions") && solutions.contains("1_10x12.txt"), "{solutions}");
    let png = dir.path().join("page");
    poppler("pdftoppm", &["-r", "30", "-png", pdf.to_str().unwrap(), png.to_str().unwrap()])
        .unwrap();
    let rendered: Vec<PathBuf> = fs::read_dir(dir.path())
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "png"))
        .collect();
    assert_eq!(rendered.len(), count);
    assert!(rendered.iter().all(|p| fs::metadata(p).unwrap().len() > 1000));
}

#[test]
fn letter_paper_a_batch_and_svg_pages() {
    let dir = tempfile::tempdir().unwrap();
    let pdf = dir.path().join("letter.pdf");
    let batch = fixture("daemon/lines-top3.txt");
    let out = kakurod(&["print", "--paper", "letter", "--out", pdf.to_str().unwrap(), &batch]);
    assert_eq!(out.status.code(), Some(0), "{}", String::from_utf8_lossy(&out.stderr));
    if let Some(count) = pages(&pdf) {
        assert_eq!(count, 3 + 1);
        let info = poppler("pdfinfo", &[pdf.to_str().unwrap()]).unwrap();
        assert!(info.contains("612 x 792 pts (letter)"), "{info}");
        assert!(page_text(&pdf, 2).unwrap().contains("lines-top3.txt, line 2"));
    }
    let svg = dir.path().join("sheet.svg");
    let out = kakurod(&["print", "--svg", "--out", svg.to_str().unwrap(), &batch]);
    assert!(out.status.success());
    for n in 1..=4 {
        let page = fs::read_to_string(dir.path().join(format!("sheet-{n}.svg"))).unwrap();
        assert!(page.starts_with("<svg") && page.contains(&format!("page {n} of 4")));
    }
    assert!(!svg.exists());
}

#[test]
fn a_grid_too_large_for_the_paper_is_refused_and_a_bad_input_is_placed() {
    let dir = tempfile::tempdir().unwrap();
    // A 45x60 Kakuro of 2x2 white blocks, every run of two cells summing to 3.
    let (rows, cols) = (45, 60);
    let mut text = format!("{rows} {cols}\n");
    for r in 0..rows {
        let row: Vec<&str> = (0..cols)
            .map(|c| match (r % 3 == 0, c % 3 == 0) {
                (true, false) if r + 2 < rows => "3,",
                (false, true) if c + 2 < cols => ",3",
                (false, false) => "0",
                _ => "-",
            })
            .collect();
        text.push_str(&row.join(" "));
        text.push('\n');
    }
    let big = dir.path().join("big.txt");
    fs::write(&big, text).unwrap();
    let pdf = dir.path().join("big.pdf");
    let out = kakurod(&["print", "--out", pdf.to_str().unwrap(), big.to_str().unwrap()]);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{stderr}");
    assert!(stderr.contains("big.txt: a 45x60 grid would get cells of"), "{stderr}");
    assert!(!pdf.exists());

    let bad = dir.path().join("bad.txt");
    fs::write(&bad, "3 3\n- 4, 3,\n,4 0 0\n,3 0 x\n").unwrap();
    let good = fixture("kakuro/281_6x6.txt");
    let out = kakurod(&["print", "--out", pdf.to_str().unwrap(), bad.to_str().unwrap(), &good]);
    assert_eq!(out.status.code(), Some(1));
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(stderr.contains("bad.txt:4:"), "{stderr}");
    assert!(pdf.exists(), "the good puzzle is still printed");
}
