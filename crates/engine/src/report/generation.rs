//! The result document of a generation job (`NAME.json`): the job echoed with its defaults,
//! how it ended, and one entry per puzzle made, naming that puzzle's files in the outbox.
//! The names depend on the stem the result is written under, which the outbox writer
//! picks; it fills them in ([`GeneratedPuzzle::files`]) before the document is written.

use crate::format::generation::Job;
use crate::format::puzzlink;
use crate::generate::{Generated, GridGenerated, Proof};
use crate::grade::Difficulty;
use crate::puzzle::{Grid, Puzzle};
use serde::Serialize;

/// How a generation job ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum GenerationStatus {
    /// Every puzzle asked for was made.
    Generated,
    /// The job's time limit passed first; the puzzles made before it are kept and listed.
    Timeout,
}

impl GenerationStatus {
    /// Lower-case name, as in the JSON.
    pub fn name(self) -> &'static str {
        match self {
            GenerationStatus::Generated => "generated",
            GenerationStatus::Timeout => "timeout",
        }
    }
}

/// The result of a generation job.
#[derive(Clone, Debug, Serialize)]
pub struct GenerationReport {
    /// Always `generate`: tells this document from a puzzle's.
    pub kind: &'static str,
    /// How the job ended.
    pub status: GenerationStatus,
    /// Why fewer puzzles than asked for are listed (status `timeout`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub message: Option<String>,
    /// The job, with its defaults filled in.
    pub job: Job,
    /// How many puzzles were made (all of them listed).
    pub made: usize,
    /// The puzzles, in seed order.
    pub puzzles: Vec<GeneratedPuzzle>,
    /// Seconds the whole job took.
    #[serde(serialize_with = "super::pretty::seconds")]
    pub seconds: f64,
    /// Threads each puzzle's uniqueness checks could use.
    pub threads: usize,
    /// Shutdown cancelled the job: such a result is not final, and is never written.
    #[serde(skip)]
    pub cancelled: bool,
}

/// One puzzle of a generation job.
#[derive(Clone, Debug, Serialize)]
pub struct GeneratedPuzzle {
    /// Its files in the outbox; set by the writer, which picks the result's stem.
    #[serde(flatten)]
    pub files: Option<PuzzleFiles>,
    /// The seed it was made from: the same job and seed give the same puzzle.
    pub seed: u64,
    /// Its grade (within the job's `difficulty`).
    pub difficulty: Option<Difficulty>,
    /// A Kakuro's share of black cells reached, in percent, the border included (the
    /// generator keeps near the job's `black`, as far as runs of 2 to 9 cells and one
    /// solution allow).
    #[serde(skip_serializing_if = "Option::is_none", serialize_with = "super::pretty::percent")]
    pub black_percent: Option<f64>,
    /// Proved to have exactly one solution (always true for a listed puzzle).
    pub unique: bool,
    /// How uniqueness was proved.
    pub proof: Option<Proof>,
    /// Its puzz.link URL (Kakuro and Sudoku): one click from being played.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub play_url: Option<String>,
    /// Seconds this puzzle took.
    #[serde(serialize_with = "super::pretty::seconds")]
    pub seconds: f64,
    /// The puzzle, for its files.
    #[serde(skip)]
    pub puzzle: Puzzle,
    /// Its only solution, for its files.
    #[serde(skip)]
    pub filling: Grid,
}

impl GeneratedPuzzle {
    /// The entry of a puzzle made from `seed`.
    pub fn new(seed: u64, generated: Generated) -> GeneratedPuzzle {
        let black_percent = Some(generated.black_percent());
        let puzzle = Puzzle::Kakuro(generated.puzzle);
        GeneratedPuzzle {
            files: None,
            seed,
            difficulty: generated.difficulty,
            black_percent,
            unique: generated.proof.is_some(),
            proof: generated.proof,
            seconds: generated.seconds,
            play_url: puzzlink::play_url(&puzzle),
            puzzle,
            filling: generated.filling,
        }
    }

    /// The entry of a Sudoku or Killer Sudoku made from `seed`.
    pub fn of_grid(seed: u64, generated: GridGenerated) -> GeneratedPuzzle {
        GeneratedPuzzle {
            files: None,
            seed,
            difficulty: generated.difficulty,
            black_percent: None,
            unique: true,
            proof: Some(generated.proof),
            seconds: generated.seconds,
            play_url: puzzlink::play_url(&generated.puzzle),
            puzzle: generated.puzzle,
            filling: generated.solution,
        }
    }
}

/// Where a generated puzzle's files are, by name relative to the outbox.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct PuzzleFiles {
    /// The puzzle in its kind's format (janko for Kakuro): drop it into an inbox to have it
    /// solved.
    pub puzzle: String,
    /// Its solution, in the `.sol` layout.
    pub solution: String,
    /// A picture of the empty puzzle (`null` when the daemon draws none).
    pub svg: Option<String>,
}
