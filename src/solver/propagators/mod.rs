//! propagators
