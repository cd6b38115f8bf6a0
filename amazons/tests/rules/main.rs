//! The Game of the Amazons' rules crate: the rule book's examples, the protocol's document,
//! the game model and the golden draws. One module per former test file (each was its own
//! binary).

mod golden_draws;
mod model;
mod protocol_doc;
mod rules_doc;
