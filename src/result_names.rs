//! The names of result files, and the one rule that keeps them unambiguous. An input
//! `NAME.EXT` is answered under the stem `NAME` (its name without the last extension):
//! `NAME.json` when answered, `NAME.error.json` when rejected, beside `NAME.solution.txt`
//! and `NAME.svg`. Of these suffixes only `.json` ends another (`.error.json`), so two
//! inputs' results could share a name only when one stem is the other plus `.error`: a valid
//! `q.error.txt` would be answered as `q.error.json`, the very name a client waits on for
//! the rejection of `q.txt`. Hence `.error` is reserved at the end of a stem: such an input
//! is rejected (its answer is `q.error.error.json`, which says why), and `X.error.json` is
//! only ever the error document of an input whose stem is `X`.
//!
//! A generation job answered under `NAME` also writes, for its puzzle `N` (from 1),
//! `NAME.N.txt` (the puzzle), `NAME.N.sol` (its solution) and `NAME.N.puzzle.svg` (its
//! picture). No other result ends in `.txt` but `.solution.txt`, nor in `.sol`, so the
//! first two are nobody else's. The puzzle file can be dropped back into an inbox: its
//! stem `NAME.N` is answered as `NAME.N.json`, `NAME.N.solution.txt` and `NAME.N.svg`,
//! none of them the job's. Only the picture, `X.svg` with `X` = `NAME.N.puzzle`, could be
//! another input's, so a stem ending in `.N.puzzle` (`N` digits) is reserved too.

use crate::format::InputError;

/// The end of a stem that is reserved for error documents.
pub const RESERVED_STEM_END: &str = ".error";

/// The stem of the outputs for an input: its name without the last extension. A `.sol`
/// file, refused as a solution, keeps its whole name, so that its error document
/// (`NAME.sol.error.json`) never takes the name of the puzzle it was published beside.
pub fn stem_of(input_name: &str) -> String {
    if is_solution_name(input_name) {
        return input_name.to_string();
    }
    match input_name.rsplit_once('.') {
        Some((stem, _)) if !stem.is_empty() => stem.to_string(),
        _ => input_name.to_string(),
    }
}

/// The end of a generated puzzle's picture stem, after its number.
const PICTURE_STEM_END: &str = ".puzzle";

/// The suffixes (after the stem) of the files of puzzle `index` (from 1) of a generation
/// job: the puzzle, its solution and its picture.
pub fn generated_suffixes(index: usize) -> [String; 3] {
    [format!(".{index}.txt"), format!(".{index}.sol"), format!(".{index}{PICTURE_STEM_END}.svg")]
}

/// Why an input of this name is not answered, if it is not: a `.sol` file is a solution,
/// never a puzzle (`kakurod solve DIR` passes such files over, and the daemon and a `.sol`
/// named to `solve` refuse them alike), and some names cannot be answered under their
/// own stem.
pub fn reserved(input_name: &str) -> Option<InputError> {
    if let Some(error) = solution_file(input_name) {
        return Some(error);
    }
    let stem = stem_of(input_name);
    if let Some((job, index)) = picture_stem(&stem) {
        return Some(InputError::whole_file(
            format!(
                "the name `{input_name}` is reserved: its result `{stem}.svg` would read as \
                 the picture of puzzle {index} of a generation job answered as `{job}.json`"
            ),
            format!(
                "a name whose part before the extension does not end in `.N{PICTURE_STEM_END}`, \
                 e.g. `{job}.{index}-puzzle.txt`"
            ),
        ));
    }
    let base = stem.strip_suffix(RESERVED_STEM_END)?;
    Some(InputError::whole_file(
        format!(
            "the name `{input_name}` is reserved: its result `{stem}.json` would read as the \
             error document of an input named `{base}.*`"
        ),
        format!(
            "a name whose part before the extension does not end in `{RESERVED_STEM_END}`, e.g. `{base}-error.txt`"
        ),
    ))
}

/// Whether the name is a solution file's (`.sol`, any case).
fn is_solution_name(input_name: &str) -> bool {
    input_name.to_ascii_lowercase().ends_with(".sol")
}

/// The refusal of a `.sol` file, a solution and never a puzzle, if `input_name` is one.
pub fn solution_file(input_name: &str) -> Option<InputError> {
    is_solution_name(input_name).then(|| {
        InputError::whole_file(
            format!("`{input_name}` is a solution file (`.sol`), not a puzzle"),
            "a puzzle file; a `.sol` is the solution that `kakurod solve` prints and the \
             tests compare with",
        )
    })
}

/// `(NAME, N)` when `stem` is `NAME.N.puzzle`, the stem of a generated puzzle's picture.
fn picture_stem(stem: &str) -> Option<(&str, &str)> {
    let (job, index) = stem.strip_suffix(PICTURE_STEM_END)?.rsplit_once('.')?;
    let number = !index.is_empty() && index.bytes().all(|b| b.is_ascii_digit());
    (number && !job.is_empty()).then_some((job, index))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn stems_drop_only_the_last_extension() {
        assert_eq!(stem_of("a.txt"), "a");
        assert_eq!(stem_of("a.b.txt"), "a.b");
        assert_eq!(stem_of("plain"), "plain");
        assert_eq!(stem_of(".hidden"), ".hidden");
        assert_eq!(stem_of("241_9x9.sol"), "241_9x9.sol", "a refused solution keeps its name");
    }

    #[test]
    fn only_stems_ending_in_error_are_reserved() {
        let error = reserved("q.error.txt").expect("reserved");
        assert!(error.message.contains("`q.error.json`"), "{error:?}");
        assert!(reserved("q.error").is_none(), "its stem is `q`");
        assert!(reserved("q.errors.txt").is_none());
        assert!(reserved("q-error.txt").is_none());
        assert!(reserved("q.txt").is_none());
    }

    #[test]
    fn a_solution_file_is_never_answered_as_a_puzzle() {
        let error = reserved("1_10x12.sol").expect("refused");
        assert!(error.message.contains("is a solution file"), "{error:?}");
        assert!(reserved("BATCH.3.SOL").is_some());
        assert!(reserved("1_10x12.sol.txt").is_none());
    }

    #[test]
    fn stems_of_generated_pictures_are_reserved_and_generated_puzzles_are_not() {
        let [puzzle, solution, picture] = generated_suffixes(12);
        assert_eq!(
            [puzzle.as_str(), &solution, &picture],
            [".12.txt", ".12.sol", ".12.puzzle.svg"]
        );
        let error = reserved("batch.12.puzzle.txt").expect("reserved");
        assert!(error.message.contains("puzzle 12 of a generation job answered as `batch.json`"));
        assert!(error.expected.contains("`batch.12-puzzle.txt`"), "{error:?}");
        // The puzzle file itself is answered under `batch.12`, beside the job's files.
        assert!(reserved(&format!("batch{puzzle}")).is_none());
        assert!(reserved("batch.x.puzzle.txt").is_none());
        assert!(reserved("batch..puzzle.txt").is_none());
        assert!(reserved(".3.puzzle.txt").is_none(), "no job has an empty stem");
        assert!(reserved("3.puzzle.txt").is_none());
    }
}
