//! The `docs` test binary: the documents hold: every claim's test, every command as typed,
//! protocol, README, rules and results pages. One module per former test file (each was its
//! own binary, linking the whole referee); `common` is compiled once here.

#[path = "../common/mod.rs"]
mod common;

mod architecture_doc;
mod champions_doc;
mod claims_table;
mod docs_commands;
mod protocol_doc;
mod readme_doc;
mod results_doc;
mod rules_doc;
mod tournament_doc;
