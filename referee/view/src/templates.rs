//! The pages' templates (minijinja, compiled in from each crate's `assets/`), rendered with
//! every value HTML-escaped: a page shows a champion's name or output as text whatever it
//! contains. Code and JSON come in through [`script_json`] and [`code`] only, as safe text.

use minijinja::{AutoEscape, Environment, Value};
use serde::Serialize;
use std::sync::OnceLock;

/// The frame's own template, which every game's page extends.
const FRAME: (&str, &str) = ("frame.html", include_str!("../assets/frame/frame.html"));

/// A set of templates (a game's page, or the referee's own pages) with the frame's, each by
/// the name the others extend it by, compiled once, on first use: each game registers its
/// own in its crate (`static PAGE: Templates = Templates::new(&[("amazons.html", ...)])`),
/// so that no list of every game's pages is kept anywhere.
pub struct Templates {
    sources: &'static [(&'static str, &'static str)],
    environment: OnceLock<Environment<'static>>,
}

impl Templates {
    /// The templates `sources` (name, text), beside the frame's.
    pub const fn new(sources: &'static [(&'static str, &'static str)]) -> Templates {
        Templates {
            sources,
            environment: OnceLock::new(),
        }
    }

    fn environment(&self) -> &Environment<'static> {
        self.environment.get_or_init(|| {
            let mut env = Environment::new();
            // `.html` templates escape every value (minijinja's default for the extension),
            // as [`escape`] does: a link's `/` stays as it is.
            env.set_formatter(|out, state, value| match value.as_str() {
                Some(text) if state.auto_escape() == AutoEscape::Html && !value.is_safe() => {
                    Ok(out.write_str(&escape(text))?)
                }
                _ => minijinja::escape_formatter(out, state, value),
            });
            for &(name, text) in std::iter::once(&FRAME).chain(self.sources) {
                env.add_template(name, text)
                    .unwrap_or_else(|e| panic!("the template {name} is compiled in: {e:#}"));
            }
            env
        })
    }

    /// `name` rendered with `context`.
    pub fn render(&self, name: &str, context: impl Serialize) -> anyhow::Result<String> {
        let template = self.environment().get_template(name)?;
        template
            .render(context)
            .map_err(|e| anyhow::anyhow!("rendering the page template {name}: {e:#}"))
    }
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
