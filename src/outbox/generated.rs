//! The files of a generation job's result under its stem `NAME`, as `result_names` names
//! them: per puzzle `N`, the puzzle in its kind's format (`NAME.N.txt`: janko for Kakuro;
//! solvable by kakurod itself), its solution in the `.sol` layout (`NAME.N.sol`) and, when pictures are on, the
//! empty puzzle drawn (`NAME.N.puzzle.svg`); then `NAME.json`, last, listing them.

use crate::generate::to_text;
use crate::render::svg;
use crate::report::{Body, FileReport, GenerationReport, PuzzleFiles};
use crate::result_names::generated_suffixes;

/// `(suffix, text)` of every file of the result, the JSON document last.
pub(super) fn files(
    report: &FileReport,
    generation: &GenerationReport,
    stem: &str,
    pictures: bool,
) -> Vec<(String, String)> {
    let mut named = generation.clone();
    let mut files = Vec::with_capacity(3 * named.puzzles.len() + 1);
    for (i, puzzle) in named.puzzles.iter_mut().enumerate() {
        let [puzzle_suffix, solution_suffix, picture_suffix] = generated_suffixes(i + 1);
        puzzle.files = Some(PuzzleFiles {
            puzzle: format!("{stem}{puzzle_suffix}"),
            solution: format!("{stem}{solution_suffix}"),
            svg: pictures.then(|| format!("{stem}{picture_suffix}")),
        });
        files.push((puzzle_suffix, to_text(&puzzle.puzzle)));
        files.push((solution_suffix, puzzle.filling.to_string()));
        if pictures {
            let drawn = svg::svg(&puzzle.puzzle, None);
            files.push((picture_suffix, drawn));
        }
    }
    let document = FileReport { body: Body::Generation(Box::new(named)), ..report.clone() };
    files.push((".json".to_string(), document.to_json()));
    files
}

#[cfg(test)]
mod tests {
    use super::super::{Outbox, Written};
    use crate::format::generation::{self, Limits};
    use crate::generate::{self, GenOptions};
    use crate::report::{Body, FileReport, GeneratedPuzzle, GenerationReport, GenerationStatus};

    fn report(seeds: &[u64]) -> FileReport {
        let text = r#"{"kind": "generate", "rows": 6, "cols": 6, "count": 2}"#;
        let limits = Limits { max_rows: 10, max_cols: 10, max_count: 10 };
        let job = generation::read(text, &limits).unwrap();
        let puzzles = seeds
            .iter()
            .map(|&seed| {
                let made =
                    generate::generate(&GenOptions::unique(6, 6, 40.0, seed), Default::default());
                GeneratedPuzzle::new(seed, made.unwrap())
            })
            .collect::<Vec<_>>();
        let generation = GenerationReport {
            kind: "generate",
            status: GenerationStatus::Generated,
            message: None,
            job,
            made: puzzles.len(),
            puzzles,
            seconds: 0.0,
            threads: 1,
            cancelled: false,
        };
        FileReport {
            file: "job.json".into(),
            checksum: "c".into(),
            format: None,
            body: Body::Generation(Box::new(generation)),
        }
    }

    fn write(outbox: &Outbox, report: &FileReport) -> Written {
        let prepared = outbox.prepare("job.json", report).unwrap();
        outbox.commit(vec![prepared], None).remove(0).unwrap()
    }

    #[test]
    fn the_document_names_the_files_of_the_stem_it_is_written_under() {
        let dir = tempfile::tempdir().unwrap();
        let outbox = Outbox::new(dir.path().to_path_buf(), true, true, "n");
        assert_eq!(write(&outbox, &report(&[1, 2])).stem, "job");
        let second = write(&outbox, &report(&[3]));
        assert_eq!(second.stem, "job-2");
        let doc: serde_json::Value =
            serde_json::from_str(&std::fs::read_to_string(&second.json).unwrap()).unwrap();
        let entry = &doc["puzzles"][0];
        assert_eq!(
            [&entry["puzzle"], &entry["solution"], &entry["svg"]],
            ["job-2.1.txt", "job-2.1.sol", "job-2.1.puzzle.svg"]
        );
        assert_eq!(
            (doc["kind"].as_str(), doc["status"].as_str()),
            (Some("generate"), Some("generated"))
        );
        let mut names: Vec<String> = std::fs::read_dir(dir.path())
            .unwrap()
            .map(|e| e.unwrap().file_name().into_string().unwrap())
            .collect();
        names.sort();
        let expected = [
            "job-2.1.puzzle.svg",
            "job-2.1.sol",
            "job-2.1.txt",
            "job-2.json",
            "job.1.puzzle.svg",
            "job.1.sol",
            "job.1.txt",
            "job.2.puzzle.svg",
            "job.2.sol",
            "job.2.txt",
            "job.json",
        ];
        assert_eq!(names, expected, "no temporary file or reservation may be left");
        let puzzle = std::fs::read_to_string(dir.path().join("job-2.1.txt")).unwrap();
        assert!(puzzle.starts_with("6 6\n"), "{puzzle}");
    }

    #[test]
    fn without_pictures_none_is_drawn_or_named() {
        let dir = tempfile::tempdir().unwrap();
        let outbox = Outbox::new(dir.path().to_path_buf(), false, false, "n");
        let written = write(&outbox, &report(&[5]));
        let doc: serde_json::Value =
            serde_json::from_str(&std::fs::read_to_string(&written.json).unwrap()).unwrap();
        assert!(doc["puzzles"][0]["svg"].is_null(), "{doc}");
        assert!(!dir.path().join("job.1.puzzle.svg").exists());
    }
}
