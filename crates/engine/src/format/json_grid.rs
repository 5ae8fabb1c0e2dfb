//! The `grid` and `givens` fields of the JSON format: rows that are either strings of
//! janko tokens or arrays of tokens and numbers. Deserialised with hand-written visitors
//! (not `#[serde(untagged)]`, which buffers the value and loses serde_json's positions),
//! then turned into a Kakuro with each cell's place remembered for error messages.

use super::InputError;
use super::janko;
use super::json_path::{self, Step};
use super::text::{self, MAX_SIDE};
use crate::puzzle::Kakuro;
use crate::puzzle::validate::Aspect;
use serde::de::{self, Deserialize, Deserializer, SeqAccess, Visitor};
use std::borrow::Cow;
use std::fmt;

/// One row: a string of whitespace-separated tokens, or an array of items.
#[derive(Debug)]
pub enum Row {
    /// `"- 16, 0 0"`
    Text(String),
    /// `["-", "16,", 0]`
    Items(Vec<Item>),
}

/// One element of an array row.
#[derive(Debug)]
pub enum Item {
    /// A token string.
    Token(String),
    /// A non-negative number.
    Number(u64),
}

impl<'de> Deserialize<'de> for Row {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Row, D::Error> {
        struct RowVisitor;
        impl<'de> Visitor<'de> for RowVisitor {
            type Value = Row;
            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("a row: a string of tokens or an array")
            }
            fn visit_str<E: de::Error>(self, v: &str) -> Result<Row, E> {
                Ok(Row::Text(v.to_string()))
            }
            fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Row, A::Error> {
                let mut items = Vec::new();
                while let Some(item) = seq.next_element()? {
                    items.push(item);
                }
                Ok(Row::Items(items))
            }
        }
        d.deserialize_any(RowVisitor)
    }
}

impl<'de> Deserialize<'de> for Item {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Item, D::Error> {
        struct ItemVisitor;
        impl Visitor<'_> for ItemVisitor {
            type Value = Item;
            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("a token string or a non-negative number")
            }
            fn visit_str<E: de::Error>(self, v: &str) -> Result<Item, E> {
                Ok(Item::Token(v.to_string()))
            }
            fn visit_u64<E: de::Error>(self, v: u64) -> Result<Item, E> {
                Ok(Item::Number(v))
            }
        }
        d.deserialize_any(ItemVisitor)
    }
}

/// Where a Kakuro cell was written: row `row` of `grid`, element `item` of that row when
/// the row is an array, and byte offsets (decoded) of the token and of its right clue
/// within its string.
#[derive(Clone, Copy, Debug)]
pub struct Place {
    row: usize,
    item: Option<usize>,
    start: usize,
    right: usize,
}

impl Place {
    /// Byte offset in `text` of the part of the cell that `aspect` speaks of.
    pub fn offset(&self, text: &str, aspect: Aspect) -> usize {
        let mut path = vec![Step::Key("grid"), Step::Index(self.row)];
        path.extend(self.item.map(Step::Index));
        let value = json_path::locate(text, &path);
        let within = if aspect == Aspect::RightClue { self.right } else { self.start };
        json_path::in_string(text, value, within)
    }
}

/// The Kakuro of a `grid`, with the place of every cell (row-major).
pub fn kakuro(text: &str, rows: &[Row]) -> Result<(Kakuro, Vec<Place>), InputError> {
    let at = |place: Place, within: usize, message: String, expected: String| {
        let offset = Place { start: place.start + within, ..place }.offset(text, Aspect::Cell);
        text::error_at(text, offset, message, expected)
    };
    if rows.is_empty() || rows.len() > MAX_SIDE {
        let message = format!("a grid of {} rows", rows.len());
        let offset = json_path::locate(text, &[Step::Key("grid")]);
        return Err(text::error_at(text, offset, message, format!("1 to {MAX_SIDE} rows")));
    }
    let mut cells = Vec::new();
    let mut places = Vec::new();
    let mut cols = None;
    for (row, written) in rows.iter().enumerate() {
        let tokens: Vec<(Place, Cow<'_, str>)> = match written {
            Row::Text(line) => text::lines(line)
                .next()
                .into_iter()
                .flat_map(|l| l.tokens())
                .map(|(start, token)| {
                    (Place { row, item: None, start, right: start }, token.into())
                })
                .collect(),
            Row::Items(items) => items
                .iter()
                .enumerate()
                .map(|(i, item)| {
                    let token = match item {
                        Item::Token(t) => Cow::Borrowed(t.as_str()),
                        Item::Number(n) => Cow::Owned(n.to_string()),
                    };
                    (Place { row, item: Some(i), start: 0, right: 0 }, token)
                })
                .collect(),
        };
        let want = *cols.get_or_insert(tokens.len());
        let row_place = Place { row, item: None, start: 0, right: 0 };
        if tokens.len() != want || want == 0 || want > MAX_SIDE {
            let message =
                format!("row {} has {} cells, the first row {want}", row + 1, tokens.len());
            return Err(at(
                row_place,
                0,
                message,
                format!("1 to {MAX_SIDE} cells, the same in every row"),
            ));
        }
        for (mut place, token) in tokens {
            let token = token.as_ref();
            let separator = if token.contains('\\') { '\\' } else { ',' };
            let cell = janko::parse_token(token, separator).map_err(|fault| {
                let (within, message, expected) = fault.describe(token, separator);
                at(place, within, message, expected)
            })?;
            place.right = place.start + janko::aspect_offset(token, Aspect::RightClue, separator);
            cells.push(cell);
            places.push(place);
        }
    }
    let kakuro = Kakuro { rows: rows.len(), cols: cols.unwrap_or(0), cells };
    Ok((kakuro, places))
}
