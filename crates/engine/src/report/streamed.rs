//! A batch's result document written as its puzzles are answered, byte for byte as
//! [`FileReport::to_json`](super::FileReport::to_json) writes the whole batch: a file of
//! millions of puzzles is written without holding their reports. The document's pieces
//! are pretty-printed on their own and indented to their depth (two spaces a level, as
//! the pretty formatter writes them; no string holds a raw line break).

use super::{Numbered, PuzzleReport, Status, Summary, Uniqueness, pretty};
use crate::format::Format;
use serde::Serialize;
use std::collections::BTreeMap;
use std::io::{self, Write};

/// A batch document being written to `out`.
pub struct BatchDocument<W: Write> {
    out: W,
    /// The head (the input's name, checksum and format) until it is written with the
    /// first puzzle: a document that gets none writes nothing before its end.
    head: Option<String>,
    summary: Summary,
    invalid_lines: Vec<usize>,
    puzzles: usize,
}

impl<W: Write> BatchDocument<W> {
    /// The document of the input `file`, to be written to `out`.
    pub fn new(out: W, file: &str, checksum: &str, format: Format) -> io::Result<Self> {
        #[derive(Serialize)]
        struct Head<'a> {
            file: &'a str,
            checksum: &'a str,
            format: Format,
        }
        let head = to_text(&Head { file, checksum, format })?;
        let fields = head.strip_suffix("\n}").ok_or_else(|| io::Error::other("not an object"))?;
        Ok(BatchDocument {
            out,
            head: Some(format!("{fields},\n  \"puzzles\": [")),
            summary: Summary::default(),
            invalid_lines: Vec::new(),
            puzzles: 0,
        })
    }

    /// Writes the head, unless it is written already.
    fn write_head(&mut self) -> io::Result<()> {
        match self.head.take() {
            Some(head) => self.out.write_all(head.as_bytes()),
            None => Ok(()),
        }
    }

    /// Writes the next puzzle's report (in file order).
    pub fn puzzle(&mut self, report: &PuzzleReport) -> io::Result<()> {
        let text = puzzle_text(report)?;
        self.rendered_puzzle(&text, report.status, report.uniqueness, report.line)
    }

    /// Writes the next puzzle's entry rendered already by [`puzzle_text`] (on a queue
    /// worker), with what the summary counts of it.
    pub fn rendered_puzzle(
        &mut self,
        text: &str,
        status: Status,
        uniqueness: Uniqueness,
        line: usize,
    ) -> io::Result<()> {
        self.write_head()?;
        self.out.write_all(if self.puzzles == 0 { b"\n" } else { b",\n" })?;
        write_indented(&mut self.out, text, "    ", true)?;
        self.puzzles += 1;
        self.summary.add(status, uniqueness);
        if status == Status::Invalid {
            self.invalid_lines.push(line);
        }
        Ok(())
    }

    /// The counts so far.
    pub fn summary(&self) -> &Summary {
        &self.summary
    }

    /// The lines of the puzzles that could not be read, so far.
    pub fn invalid_lines(&self) -> &[usize] {
        &self.invalid_lines
    }

    /// The writer the document goes to.
    pub fn writer(&mut self) -> &mut W {
        &mut self.out
    }

    /// Writes the counts and the end of the document; returns the writer.
    pub fn finish(self) -> io::Result<W> {
        self.finish_with(None)
    }

    /// [`finish`](Self::finish), the summary saying how many puzzles each queue worker
    /// answered when `answered_by` is given.
    pub fn finish_with(mut self, answered_by: Option<&BTreeMap<String, usize>>) -> io::Result<W> {
        #[derive(Serialize)]
        struct ByWorker<'a> {
            #[serde(flatten)]
            summary: &'a Summary,
            answered_by: &'a BTreeMap<String, usize>,
        }
        self.write_head()?;
        self.out.write_all(if self.puzzles == 0 { b"]" } else { b"\n  ]" })?;
        self.out.write_all(b",\n  \"summary\": ")?;
        let summary = match answered_by {
            Some(answered_by) => to_text(&ByWorker { summary: &self.summary, answered_by })?,
            None => to_text(&self.summary)?,
        };
        write_indented(&mut self.out, &summary, "  ", false)?;
        self.out.write_all(b",\n  \"invalid_lines\": ")?;
        write_indented(&mut self.out, &to_text(&self.invalid_lines)?, "  ", false)?;
        self.out.write_all(b"\n}\n")?;
        Ok(self.out)
    }
}

/// A puzzle's entry of a batch document, pretty-printed, not yet indented.
pub fn puzzle_text(report: &PuzzleReport) -> io::Result<String> {
    to_text(&Numbered::of(report))
}

fn to_text(value: &impl Serialize) -> io::Result<String> {
    pretty::to_string(value).map_err(io::Error::other)
}

/// Writes `text` with `indent` before each line (before the first only with `first`).
fn write_indented(out: &mut impl Write, text: &str, indent: &str, first: bool) -> io::Result<()> {
    for (k, line) in text.split('\n').enumerate() {
        if k > 0 {
            out.write_all(b"\n")?;
        }
        if k > 0 || first {
            out.write_all(indent.as_bytes())?;
        }
        out.write_all(line.as_bytes())?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::pipeline::{self, PipelineOptions};
    use crate::report::Body;

    /// The document written piece by piece equals the whole batch's.
    fn same_as_whole(text: &str) {
        let report = pipeline::process("b.txt", text.as_bytes(), &PipelineOptions::default(), None);
        let Body::Batch { puzzles, .. } = &report.body else { panic!("{report:?}") };
        let format = report.format.unwrap();
        let mut document =
            BatchDocument::new(Vec::new(), "b.txt", &report.checksum, format).unwrap();
        puzzles.iter().for_each(|p| document.puzzle(p).unwrap());
        let written = String::from_utf8(document.finish().unwrap()).unwrap();
        assert_eq!(written, report.to_json());
    }

    #[test]
    fn a_streamed_batch_document_is_the_whole_batchs_byte_for_byte() {
        let top =
            "4...3.......6..8..........1....5..9..8....6...7.2........1.27..5.3....4.9........";
        same_as_whole(&format!("{top}\n"));
        // Rejected lines, a 4x4 with several solutions, a comment and a quote in an error.
        same_as_whole(&format!("# c\n{top}\nbad\"line\n1...............\n{top}\n"));
    }
}
