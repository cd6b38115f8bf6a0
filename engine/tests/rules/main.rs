//! The 2009 game's rules crate, through its public API: every rule of docs/rules.md, the API's
//! checks, the built-in bots, the game model, properties over seeded games and the golden
//! draws. One module per former test file (each was its own binary, linking the engine and
//! the test dependencies); `common` is compiled once here.

#[path = "../common/mod.rs"]
mod common;

mod api_checks;
mod bots;
mod golden_draws;
mod model;
mod properties;
mod rules_auction;
mod rules_board;
mod rules_placement;
mod rules_prices;
mod rules_turns;
