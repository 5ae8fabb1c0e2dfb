//! The generated Kakuro of the hard benchmarks (`benches/hard/*.toml`): each entry is a
//! grid shape, a share of black cells and a generator seed, so every machine rebuilds the
//! same puzzles.

use kakurod_engine::generate;
use kakurod_engine::puzzle::Kakuro;
use kakurod_engine::solver::Mode;
use serde::Deserialize;

/// One `[[instance]]` of a list.
#[derive(Debug, Deserialize)]
pub struct Instance {
    pub name: String,
    pub rows: usize,
    pub cols: usize,
    pub black: f64,
    pub seed: u64,
    /// What to solve for, where the list fixes it.
    pub mode: Option<Mode>,
    #[serde(default)]
    pub note: String,
}

#[derive(Debug, Deserialize)]
struct InstanceFile {
    instance: Vec<Instance>,
}

impl Instance {
    /// The puzzle the generator makes of this entry.
    pub fn kakuro(&self) -> Kakuro {
        generate::any_solution(self.rows, self.cols, self.black, self.seed)
    }
}

/// The entries of `benches/hard/NAME` whose name contains `only` (every one without it).
pub fn load(name: &str, only: Option<&str>) -> Vec<Instance> {
    let path = format!("{}/benches/hard/{name}", env!("CARGO_MANIFEST_DIR"));
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("read {path}: {e}"));
    let file: InstanceFile = toml::from_str(&text).unwrap_or_else(|e| panic!("parse {path}: {e}"));
    file.instance.into_iter().filter(|i| only.is_none_or(|only| i.name.contains(only))).collect()
}
