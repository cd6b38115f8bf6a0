//! The replay page's frame, written once for every game: the [`frame`] (title and seats,
//! the step timeline and its keys, the charts of a game's per-seat series, the result),
//! the champions' [`console`] (each callback's stderr and time, for the page by
//! [`console_page`], laid along the actions of a game whose steps are its actions by
//! [`console_moves`]), the footer's [`sandbox_words`], and the [`templates`]' engine that
//! escapes every value. A game's crate gives its board and panels (a template extending
//! `frame.html`, its CSS, script and steps' JSON) and its own [`templates::Templates`].

pub mod console;
pub mod console_moves;
pub mod console_page;
pub mod frame;
pub mod sandbox_words;
pub mod templates;
