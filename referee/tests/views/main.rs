//! The `views` test binary: what a person sees: terminal views, consoles, HTML pages and
//! their browser tests, hostile text in pages. One module per former test file (each was
//! its own binary, linking the whole referee); `common` is compiled once here.

#[path = "../common/mod.rs"]
mod common;
mod viewer_page;

mod amazons_frame_browser;
mod amazons_view;
mod amazons_view_browser;
mod browser_host;
mod browser_tmpdir;
mod console;
mod index_browser;
mod loi_arena_view;
mod pages_hostile_text;
mod score_words;
mod spoiler_free_browser;
mod ticket_frame_browser;
mod town_view_browser;
mod untrusted_text;
mod view_browser;
mod view_browser_layout;
mod view_browser_modes;
mod view_browser_reading;
mod view_browser_steps;
mod view_html;
mod view_palette;
mod view_terminal;

/// A replay page's footer (its text) says in words whether and how the champions were
/// jailed (`view::sandbox_words`), never the record's raw sandbox line.
fn assert_sandbox_in_words(footer: &serde_json::Value) {
    let footer = footer.as_str().expect("the footer's text");
    assert!(
        !footer.contains("jail=") && !footer.contains("seccomp="),
        "{footer}"
    );
    assert!(
        footer.contains("champions jailed (") || footer.contains("champions not jailed"),
        "{footer}"
    );
}
