//! The referee's own pages' templates (minijinja, compiled in from `assets/`): the 2009
//! game's replay page, a tournament's index, the game server's site. Rendered by the
//! engine every page shares ([`replay_view::templates`]), which escapes every value; each
//! other game's page is its own crate's.

pub use replay_view::templates::{code, escape, script_json, Templates};
use serde::Serialize;

/// The referee's templates, by the name the others extend them by (the frame's beside).
pub static PAGES: Templates = Templates::new(&[
    ("loi.html", include_str!("assets/loi/page.html")),
    ("index/page.html", include_str!("assets/index/page.html")),
    ("index/parts.html", include_str!("assets/index/parts.html")),
    ("index/index.html", include_str!("assets/index/index.html")),
    (
        "index/champion.html",
        include_str!("assets/index/champion.html"),
    ),
    ("index/nav.html", include_str!("assets/index/nav.html")),
    ("web/site.html", include_str!("assets/web/site.html")),
    ("web/games.html", include_str!("assets/web/games.html")),
    ("web/rows.html", include_str!("assets/web/rows.html")),
    ("web/results.html", include_str!("assets/web/results.html")),
    ("web/game.html", include_str!("assets/web/game.html")),
    ("web/summary.html", include_str!("assets/web/summary.html")),
    ("web/player.html", include_str!("assets/web/player.html")),
    ("web/pages.html", include_str!("assets/web/pages.html")),
    ("web/waiting.html", include_str!("assets/web/waiting.html")),
    (
        "web/tournaments.html",
        include_str!("assets/web/tournaments.html"),
    ),
    (
        "web/tournament.html",
        include_str!("assets/web/tournament.html"),
    ),
    (
        "web/tournament_parts.html",
        include_str!("assets/web/tournament_parts.html"),
    ),
    (
        "web/organiser.html",
        include_str!("assets/web/organiser.html"),
    ),
    ("web/refused.html", include_str!("assets/web/refused.html")),
]);

/// The referee's page `name` rendered with `context`.
pub fn render(name: &str, context: impl Serialize) -> anyhow::Result<String> {
    PAGES.render(name, context)
}
