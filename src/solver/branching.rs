//! branching
