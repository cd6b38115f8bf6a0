//! The `kits` test binary: the champion kits of every game and language, the champion
//! process layer, and the first steps of the README. One module per former test file (each
//! was its own binary, linking the whole referee); `common` is compiled once here.

#[path = "../common/mod.rs"]
mod common;

mod amazons_kits;
mod champion_process;
mod first_steps;
mod kit_errors;
mod kits;
mod kits2009;
mod kits_rules;
mod kits_script;
mod ticket_kits;
mod town_kits;
