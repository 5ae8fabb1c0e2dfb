//! Pretty JSON that keeps an array inside an array on one line: a solved grid reads as one
//! line per row (a 100x100 answer is 100 lines, not 10,000), the rest as
//! `serde_json::to_string_pretty` writes it.

use serde::Serialize;
use serde_json::ser::{CompactFormatter, Formatter, PrettyFormatter};
use std::io::{self, Write};

/// Writes milliseconds to the microsecond (no float noise such as `0.24666800000000003`).
pub fn millis<S: serde::Serializer>(value: &f64, serializer: S) -> Result<S::Ok, S::Error> {
    serializer.serialize_f64((value * 1e3).round() / 1e3)
}

/// Writes seconds to the microsecond.
pub fn seconds<S: serde::Serializer>(value: &f64, serializer: S) -> Result<S::Ok, S::Error> {
    serializer.serialize_f64(crate::seconds::to_micros(*value))
}

/// Writes a share in percent to one decimal, as the messages print it (`None` as null).
pub fn percent<S: serde::Serializer>(value: &Option<f64>, s: S) -> Result<S::Ok, S::Error> {
    match value {
        Some(v) => s.serialize_f64((v * 10.0).round() / 10.0),
        None => s.serialize_none(),
    }
}

/// Serializes `value` pretty-printed, with nested arrays on one line.
pub fn to_string(value: &impl Serialize) -> serde_json::Result<String> {
    let mut out = Vec::new();
    let formatter = RowsFormatter { pretty: PrettyFormatter::new(), arrays: Vec::new(), inline: 0 };
    let mut serializer = serde_json::Serializer::with_formatter(&mut out, formatter);
    value.serialize(&mut serializer)?;
    // serde_json writes only valid UTF-8.
    String::from_utf8(out).map_err(|e| serde_json::Error::io(io::Error::other(e)))
}

/// The pretty formatter, handing over to a one-line one (the compact one with spaces after
/// `,` and `:`) inside an array nested in an array.
struct RowsFormatter {
    pretty: PrettyFormatter<'static>,
    /// For each open container, whether it is an array.
    arrays: Vec<bool>,
    /// Open containers written compactly (0: pretty).
    inline: usize,
}

impl RowsFormatter {
    fn open(&mut self, array: bool) -> bool {
        let nested = array && self.arrays.last() == Some(&true);
        if self.inline > 0 || nested {
            self.inline += 1;
        }
        self.arrays.push(array);
        self.inline > 0
    }

    fn close(&mut self) -> bool {
        self.arrays.pop();
        let inline = self.inline > 0;
        self.inline = self.inline.saturating_sub(1);
        inline
    }
}

macro_rules! either {
    ($self:ident, $method:ident($($arg:expr),*)) => {
        if $self.inline > 0 {
            CompactFormatter.$method($($arg),*)
        } else {
            $self.pretty.$method($($arg),*)
        }
    };
}

impl Formatter for RowsFormatter {
    fn begin_array<W: ?Sized + Write>(&mut self, writer: &mut W) -> io::Result<()> {
        if self.open(true) {
            CompactFormatter.begin_array(writer)
        } else {
            self.pretty.begin_array(writer)
        }
    }

    fn end_array<W: ?Sized + Write>(&mut self, writer: &mut W) -> io::Result<()> {
        if self.close() {
            CompactFormatter.end_array(writer)
        } else {
            self.pretty.end_array(writer)
        }
    }

    fn begin_array_value<W: ?Sized + Write>(&mut self, w: &mut W, first: bool) -> io::Result<()> {
        if self.inline > 0 {
            w.write_all(if first { b"" } else { b", " })
        } else {
            self.pretty.begin_array_value(w, first)
        }
    }

    fn end_array_value<W: ?Sized + Write>(&mut self, w: &mut W) -> io::Result<()> {
        either!(self, end_array_value(w))
    }

    fn begin_object<W: ?Sized + Write>(&mut self, writer: &mut W) -> io::Result<()> {
        if self.open(false) {
            CompactFormatter.begin_object(writer)
        } else {
            self.pretty.begin_object(writer)
        }
    }

    fn end_object<W: ?Sized + Write>(&mut self, writer: &mut W) -> io::Result<()> {
        if self.close() {
            CompactFormatter.end_object(writer)
        } else {
            self.pretty.end_object(writer)
        }
    }

    fn begin_object_key<W: ?Sized + Write>(&mut self, w: &mut W, first: bool) -> io::Result<()> {
        if self.inline > 0 {
            w.write_all(if first { b"" } else { b", " })
        } else {
            self.pretty.begin_object_key(w, first)
        }
    }

    fn end_object_key<W: ?Sized + Write>(&mut self, w: &mut W) -> io::Result<()> {
        either!(self, end_object_key(w))
    }

    fn begin_object_value<W: ?Sized + Write>(&mut self, w: &mut W) -> io::Result<()> {
        if self.inline > 0 { w.write_all(b": ") } else { self.pretty.begin_object_value(w) }
    }

    fn end_object_value<W: ?Sized + Write>(&mut self, w: &mut W) -> io::Result<()> {
        either!(self, end_object_value(w))
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    #[test]
    fn rows_of_a_grid_stay_on_one_line_and_the_rest_is_pretty() {
        let value = json!({"grid": [[1, null], [3, 4]], "list": [1, 2], "stats": {"n": 1}});
        let text = super::to_string(&value).unwrap();
        let expected = "{\n  \"grid\": [\n    [1, null],\n    [3, 4]\n  ],\n  \"list\": [\n    1,\n    2\n  ],\n  \"stats\": {\n    \"n\": 1\n  }\n}";
        assert_eq!(text, expected);
        let back: serde_json::Value = serde_json::from_str(&text).unwrap();
        assert_eq!(back, value);
    }
}
