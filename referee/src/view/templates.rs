//! The pages' templates (minijinja, compiled in from `assets/`), rendered with every value
//! HTML-escaped: a page shows a champion's name or output as text whatever it contains.
//! Code and JSON come in through [`script_json`] and [`code`] only, as safe text.

use minijinja::{AutoEscape, Environment, Value};
use serde::Serialize;
use std::sync::OnceLock;

/// Every template, by the name the others extend it by.
const TEMPLATES: [(&str, &str); 24] = [
    ("frame.html", include_str!("assets/frame/frame.html")),
    ("loi.html", include_str!("assets/loi/page.html")),
    ("amazons.html", include_str!("assets/amazons/page.html")),
    ("ticket.html", include_str!("assets/ticket/page.html")),
    ("town.html", include_str!("assets/town/page.html")),
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
];

fn environment() -> &'static Environment<'static> {
    static ENV: OnceLock<Environment<'static>> = OnceLock::new();
    ENV.get_or_init(|| {
        let mut env = Environment::new();
        // `.html` templates escape every value (minijinja's default for the extension), as
        // [`escape`] does: a link's `/` stays as it is.
        env.set_formatter(|out, state, value| match value.as_str() {
            Some(text) if state.auto_escape() == AutoEscape::Html && !value.is_safe() => {
                Ok(out.write_str(&escape(text))?)
            }
            _ => minijinja::escape_formatter(out, state, value),
        });
        for (name, text) in TEMPLATES {
            env.add_template(name, text)
                .unwrap_or_else(|e| panic!("the template {name} is compiled in: {e:#}"));
        }
        env
    })
}

/// `name` rendered with `context`.
pub fn render(name: &str, context: impl Serialize) -> anyhow::Result<String> {
    let template = environment().get_template(name)?;
    template
        .render(context)
        .map_err(|e| anyhow::anyhow!("rendering the page template {name}: {e:#}"))
}

/// `value` as JSON for a `<script type="application/json">` element: no `<` at all inside
/// it (neither `</script>` nor `<!--`, which switches the HTML tokenizer to a state where a
/// later `<script>` keeps the element open past its end, can come from a champion's text).
pub fn script_json(value: &impl Serialize) -> Value {
    let json = serde_json::to_string(value).expect("page data serialises");
    Value::from_safe_string(jail::untrusted::escape_json(&json, true))
}

/// The page's own code or style, inlined as it is.
pub fn code(parts: &[&str]) -> Value {
    Value::from_safe_string(parts.concat())
}

/// Text for HTML content and attribute values: `&`, `<`, `>`, `"` and `'` as entities.
pub fn escape(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            c => out.push(c),
        }
    }
    out
}
