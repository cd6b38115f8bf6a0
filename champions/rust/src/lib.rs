//! Rust champion kit.
