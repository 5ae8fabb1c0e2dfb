//! The one-shot commands of the binary: `solve`, `bench`, `generate`.

pub mod bench;
pub mod generate;
pub mod solve;
