//! A result as the files it is written as (suffix and text, the JSON document last), so
//! that a worker on another host renders it and the writer of the outbox only writes it.
//! A generation job's JSON names its puzzles' files, so it is rendered for a stem: the
//! writer then takes exactly that stem ([`Outbox::reserve_exact`]) or has the job made
//! again for a free one.

use super::generated;
use super::stems::{self, Reservation};
use super::{Outbox, Prepared, Stem};
use crate::render::svg;
use crate::report::{Body, FileReport};
use crate::result_names::stem_of;
use std::io;

/// The files of a puzzle's result (or a rejection's), suffix and text, the JSON last.
pub(crate) fn files(report: &FileReport, pictures: bool) -> Vec<(String, String)> {
    let rejected = report.is_rejected();
    let mut files = Vec::new();
    if !rejected {
        if let Some(text) = report.solution_text() {
            files.push((".solution.txt".to_string(), text));
        }
        if pictures && let Some(picture) = picture(report) {
            files.push((".svg".to_string(), picture));
        }
    }
    let json_suffix = if rejected { ".error.json" } else { ".json" };
    files.push((json_suffix.to_string(), report.to_json()));
    files
}

/// Every file of `report`'s result; a generation job's named for `stem`.
pub(crate) fn render(report: &FileReport, stem: &str, pictures: bool) -> Vec<(String, String)> {
    match &report.body {
        Body::Generation(generation) => generated::files(report, generation, stem, pictures),
        _ => files(report, pictures),
    }
}

/// The SVG picture of a solved single puzzle (batches and unsolved puzzles get none).
fn picture(report: &FileReport) -> Option<String> {
    match &report.body {
        Body::Single(r) => Some(svg::svg(r.puzzle.as_ref()?, Some(r.grid.as_ref()?))),
        Body::Batch { .. }
        | Body::Generation(_)
        | Body::Cancelled { .. }
        | Body::Rejected { .. } => None,
    }
}

impl Outbox {
    /// The first stem for `input_name` without a committed result (not reserved: a
    /// generation job is rendered for it and the stem is taken when the result comes).
    pub(crate) fn free_stem(&self, input_name: &str) -> String {
        let base = stem_of(input_name);
        (1..=1_000_000u32)
            .map(|n| super::numbered_stem(&base, n))
            .find(|stem| !self.committed(stem))
            .unwrap_or(base)
    }

    /// Reserves exactly `stem`, when no result and no other writer has it.
    pub(crate) fn reserve_exact(&self, stem: &str) -> io::Result<Option<Reservation>> {
        if self.committed(stem) {
            return Ok(None);
        }
        let record_file = self.write_temp(&self.owner.to_record())?;
        let Some(reservation) = stems::reserve(&self.dir, stem, &record_file, &self.owner)? else {
            return Ok(None);
        };
        Ok((!self.committed(stem)).then_some(reservation))
    }

    /// Writes rendered files as a prepared set: under a stem reserved already (a generation
    /// job's), or under the first free one from the input's name at commit.
    pub(crate) fn prepare_rendered(
        &self,
        input_name: &str,
        files: Vec<(String, String)>,
        reserved: Option<(String, Reservation)>,
    ) -> io::Result<Prepared> {
        let stem = match reserved {
            Some(held) => Stem::Reserved(Box::new(held)),
            None => Stem::Wanted(stem_of(input_name)),
        };
        self.write_set(stem, files)
    }

    /// Writes each file to a temporary file; on a failure none is left.
    pub(super) fn write_set(
        &self,
        stem: Stem,
        files: Vec<(String, String)>,
    ) -> io::Result<Prepared> {
        let mut prepared = Prepared { stem, temps: Vec::with_capacity(files.len()) };
        for (suffix, content) in files {
            match self.write_temp(&content) {
                Ok(temp) => prepared.temps.push((suffix, temp)),
                Err(e) => {
                    prepared.discard();
                    return Err(e);
                }
            }
        }
        Ok(prepared)
    }
}
