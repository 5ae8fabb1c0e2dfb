//! Pictures of puzzles and their solutions: one [`Drawing`] of a grid, written as SVG
//! ([`svg()`]) or laid out on the pages of a printable sheet ([`sheet`]) and written as PDF
//! ([`pdf`]).

pub mod drawing;
pub mod pdf;
pub mod sheet;
pub mod svg;

pub use drawing::Drawing;
pub use svg::svg;
