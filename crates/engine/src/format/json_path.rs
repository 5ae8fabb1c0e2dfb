//! Finding where a value sits in JSON text, so that a rule broken by a value that
//! serde_json accepted (a clue nobody can reach, a cage that falls apart) is still reported
//! at its line and column. serde_json keeps no spans, hence this small scanner: it walks
//! keys and indices over text serde_json has already parsed, so it needs no error handling
//! of its own beyond stopping where the text ends.

/// One step down a JSON document.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Step<'a> {
    /// A member of an object.
    Key(&'a str),
    /// An element of an array.
    Index(usize),
}

/// Byte offset of the value at `path`, or of the deepest value on the way when the path
/// does not go through.
pub fn locate(text: &str, path: &[Step<'_>]) -> usize {
    let bytes = text.as_bytes();
    let mut at = skip_ws(bytes, 0);
    for step in path {
        match descend(bytes, at, *step) {
            Some(next) => at = next,
            None => break,
        }
    }
    at
}

/// Byte offset of the character at `decoded` bytes into the string starting (at its
/// opening quote) at `quote`, accounting for escapes.
pub fn in_string(text: &str, quote: usize, decoded: usize) -> usize {
    let bytes = text.as_bytes();
    if bytes.get(quote) != Some(&b'"') {
        return quote;
    }
    let (mut raw, mut seen) = (quote + 1, 0);
    while seen < decoded && raw < bytes.len() && bytes[raw] != b'"' {
        if bytes[raw] == b'\\' {
            let (raw_len, len) = escape_len(bytes, raw);
            raw += raw_len;
            seen += len;
        } else {
            let len = utf8_len(bytes[raw]);
            raw += len;
            seen += len;
        }
    }
    raw.min(bytes.len())
}

/// Raw and decoded byte lengths of the escape at `at` (which holds `\`).
fn escape_len(bytes: &[u8], at: usize) -> (usize, usize) {
    if bytes.get(at + 1) != Some(&b'u') {
        return (2, 1);
    }
    let hex = |from: usize| {
        std::str::from_utf8(bytes.get(from..from + 4).unwrap_or(b""))
            .ok()
            .and_then(|h| u32::from_str_radix(h, 16).ok())
    };
    match hex(at + 2) {
        Some(0xD800..=0xDBFF) => (12, 4),
        Some(code) => (6, char::from_u32(code).map_or(3, char::len_utf8)),
        None => (2, 1),
    }
}

fn utf8_len(first: u8) -> usize {
    match first {
        0xF0.. => 4,
        0xE0.. => 3,
        0xC0.. => 2,
        _ => 1,
    }
}

fn skip_ws(bytes: &[u8], mut at: usize) -> usize {
    while at < bytes.len() && bytes[at].is_ascii_whitespace() {
        at += 1;
    }
    at
}

/// Just past the string whose opening quote is at `at`.
fn skip_string(bytes: &[u8], mut at: usize) -> usize {
    at += 1;
    while at < bytes.len() {
        match bytes[at] {
            b'\\' => at += 2,
            b'"' => return at + 1,
            _ => at += 1,
        }
    }
    bytes.len()
}

/// Just past the value starting at `at`. Nesting is counted, not recursed into.
fn skip_value(bytes: &[u8], mut at: usize) -> usize {
    match bytes.get(at) {
        Some(b'"') => skip_string(bytes, at),
        Some(b'[' | b'{') => {
            let mut depth = 0usize;
            while at < bytes.len() {
                match bytes[at] {
                    b'"' => {
                        at = skip_string(bytes, at);
                        continue;
                    }
                    b'[' | b'{' => depth += 1,
                    b']' | b'}' => {
                        depth = depth.saturating_sub(1);
                        if depth == 0 {
                            return at + 1;
                        }
                    }
                    _ => {}
                }
                at += 1;
            }
            bytes.len()
        }
        _ => {
            while at < bytes.len() && !matches!(bytes[at], b',' | b']' | b'}') {
                at += 1;
            }
            at
        }
    }
}

/// The start of the member or element `step` of the container at `at`.
fn descend(bytes: &[u8], at: usize, step: Step<'_>) -> Option<usize> {
    let (open, close) = match step {
        Step::Key(_) => (b'{', b'}'),
        Step::Index(_) => (b'[', b']'),
    };
    if bytes.get(at) != Some(&open) {
        return None;
    }
    let mut at = skip_ws(bytes, at + 1);
    let mut index = 0;
    while at < bytes.len() && bytes[at] != close {
        let value = match step {
            Step::Key(key) => {
                let end = skip_string(bytes, at);
                let name = bytes.get(at + 1..end.saturating_sub(1))?;
                at = skip_ws(bytes, end);
                if bytes.get(at) != Some(&b':') {
                    return None;
                }
                let value = skip_ws(bytes, at + 1);
                if name == key.as_bytes() {
                    return Some(value);
                }
                value
            }
            Step::Index(wanted) => {
                if index == wanted {
                    return Some(at);
                }
                at
            }
        };
        at = skip_ws(bytes, skip_value(bytes, value));
        if bytes.get(at) == Some(&b',') {
            at = skip_ws(bytes, at + 1);
        }
        index += 1;
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;
    use Step::{Index, Key};

    const DOC: &str = r#"{
  "kind": "kakuro",
  "a": {"grid": [1, "x]", [2, {"b": 3}]]},
  "grid": ["- 4,\u0033 \"q\" 0", "é 0"]
}"#;

    #[test]
    fn walks_keys_and_indices() {
        let at = locate(DOC, &[Key("grid"), Index(1)]);
        assert_eq!(&DOC[at..at + 5], "\"é 0");
        let at = locate(DOC, &[Key("a"), Key("grid"), Index(2), Index(1), Key("b")]);
        assert_eq!(&DOC[at..at + 1], "3");
        let at = locate(DOC, &[Key("kind")]);
        assert_eq!(&DOC[at..at + 8], "\"kakuro\"");
    }

    #[test]
    fn stops_at_the_deepest_value_found() {
        let at = locate(DOC, &[Key("grid"), Index(7)]);
        assert_eq!(&DOC[at..at + 2], "[\"");
        assert_eq!(locate(DOC, &[Key("nope")]), 0);
    }

    #[test]
    fn string_offsets_skip_escapes() {
        let quote = locate(DOC, &[Key("grid"), Index(0)]);
        // Decoded: `- 4,3 "q" 0`; the final `0` is at decoded byte 10.
        let at = in_string(DOC, quote, 10);
        assert_eq!(&DOC[at..at + 1], "0");
        let quote = locate(DOC, &[Key("grid"), Index(1)]);
        let at = in_string(DOC, quote, 3);
        assert_eq!(&DOC[at..at + 1], "0");
    }
}
