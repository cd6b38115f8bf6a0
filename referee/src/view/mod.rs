//! Seeing a match: the [`timeline`] built from a record by replaying it through the engine
//! (what each callback did in [`step_actions`], the auction's tie and lost monuments in
//! [`auction`]),
//! and two views of it, the [`terminal`] text and the self-contained [`html`] replay page
//! (plus a tournament's `index.html`). Views never re-implement a rule: everything they
//! show comes from the timeline. The [`console`] adds, step by step, what each champion
//! wrote on stderr and the time each callback took against its budget. Every game's replay
//! page is one [`frame`] (timeline, keys, console, charts, result: the crate `replay_view`,
//! below the referee) with the game's board and panels inside: the 2009 game's ([`html`],
//! [`loi_frame`]; from the one record of every game, [`loi_arena`]); the other games' are
//! their own crates' (`amazons_arena::page`, `ticket_arena::page`, `town_arena::page`),
//! whose steps are their actions and whose console is laid along them by
//! [`console_moves`]. Pages are [`templates`] that escape every value.

pub mod auction;
pub mod console;
pub mod console_text;
pub mod fault_words;
pub mod fit;
pub mod html;
pub mod index;
pub mod loi_arena;
pub mod loi_frame;
mod loi_history;
pub mod seat_table;
pub mod step_actions;
pub mod templates;
pub mod terminal;
pub mod timeline;

// The frame every game shares, below the referee, under its old paths.
pub use replay_view::{console_moves, console_page, frame, sandbox_words};
// Two games' pages under their old paths (their crates' now).
pub use amazons_arena::page as amazons_html;
pub use town_arena::page as town_html;

pub use timeline::Timeline;

/// Whether to colour terminal output.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum ColourChoice {
    /// When stdout is a terminal and `NO_COLOR` is unset or empty.
    Auto,
    Always,
    Never,
}

impl ColourChoice {
    /// Resolve `auto` against stdout and `NO_COLOR` (<https://no-color.org>).
    pub fn is_on(self) -> bool {
        use std::io::IsTerminal;
        match self {
            ColourChoice::Always => true,
            ColourChoice::Never => false,
            ColourChoice::Auto => {
                std::io::stdout().is_terminal()
                    && std::env::var_os("NO_COLOR").is_none_or(|v| v.is_empty())
            }
        }
    }
}
