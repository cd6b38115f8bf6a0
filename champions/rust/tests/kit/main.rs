//! The Rust kit through its public API: the client on scripted input, and the kit's
//! exactness against a scripted referee. One module per former test file (each was its own
//! binary, linking the engine and the kit).

mod client;
mod protocol;
