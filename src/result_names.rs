//! The names of result files, and the one rule that keeps them unambiguous. An input
//! `NAME.EXT` is answered under the stem `NAME` (its name without the last extension):
//! `NAME.json` when answered, `NAME.error.json` when rejected, beside `NAME.solution.txt`
//! and `NAME.svg`. Of these suffixes only `.json` ends another (`.error.json`), so two
//! inputs' results could share a name only when one stem is the other plus `.error`: a valid
//! `q.error.txt` would be answered as `q.error.json`, the very name a client waits on for
//! the rejection of `q.txt`. Hence `.error` is reserved at the end of a stem: such an input
//! is rejected (its answer is `q.error.error.json`, which says why), and `X.error.json` is
//! only ever the error document of an input whose stem is `X`.

use crate::format::InputError;

/// The end of a stem that is reserved for error documents.
pub const RESERVED_STEM_END: &str = ".error";

/// The stem of the outputs for an input: its name without the last extension.
pub fn stem_of(input_name: &str) -> String {
    match input_name.rsplit_once('.') {
        Some((stem, _)) if !stem.is_empty() => stem.to_string(),
        _ => input_name.to_string(),
    }
}

/// Why an input of this name cannot be answered under its own stem, if it cannot.
pub fn reserved(input_name: &str) -> Option<InputError> {
    let stem = stem_of(input_name);
    let base = stem.strip_suffix(RESERVED_STEM_END)?;
    Some(InputError {
        line: 1,
        column: 1,
        message: format!(
            "the name `{input_name}` is reserved: its result `{stem}.json` would read as the \
             error document of an input named `{base}.*`"
        ),
        expected: format!(
            "a name whose part before the extension does not end in `{RESERVED_STEM_END}`, e.g. `{base}-error.txt`"
        ),
    })
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
}
