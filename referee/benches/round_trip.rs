//! Round-trip micro-benchmark (placeholder).
fn main() {}
