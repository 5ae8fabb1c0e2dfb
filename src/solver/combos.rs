//! combos
