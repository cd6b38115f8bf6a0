//! The table of what the generator owns (`surfaces.toml`): each generated file (a template
//! and its output) and each hand-written declaration list checked against the description.

use serde::Deserialize;
use std::path::Path;

/// `surfaces.toml`.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Surfaces {
    #[serde(rename = "file", default)]
    pub files: Vec<GeneratedFile>,
    #[serde(rename = "declared", default)]
    pub declared: Vec<Declared>,
}

/// A file written from a template: `template` under `champions/api/templates/`, `output`
/// from the repository's root.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct GeneratedFile {
    pub kit: String,
    pub template: String,
    pub output: String,
}

/// A hand-written file that must declare every function: `each_function` is a one-line
/// template rendered with each function (its fields: `name`, `args`, `result`, ...); every
/// rendered line must appear in `file`, in the description's order.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Declared {
    pub kit: String,
    pub file: String,
    pub each_function: String,
}

impl Surfaces {
    pub fn load(path: &Path) -> Result<Surfaces, String> {
        let text = std::fs::read_to_string(path)
            .map_err(|e| format!("cannot read {}: {e}", path.display()))?;
        toml::from_str(&text).map_err(|e| format!("{}: {e}", path.display()))
    }
}
