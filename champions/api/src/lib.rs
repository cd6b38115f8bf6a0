//! The 2009 API described once (`loi.toml`) and every kit's API surface made from it: the
//! generator renders the templates of `surfaces.toml` with the description and the
//! cross-language script (`scenario.toml`), [`check`] compares the committed files with
//! what it would write and the hand-written declaration lists with the description.
//! README.md beside this file says how to add a kit.

pub mod description;
pub mod render;
pub mod scenario;
pub mod surfaces;

use description::Description;
use scenario::Scenario;
use std::fmt;
use std::path::{Path, PathBuf};
use surfaces::Surfaces;

/// Where the generator's inputs lie, from the repository's root.
pub const DIR: &str = "champions/api";
pub const DESCRIPTION: &str = "champions/api/loi.toml";
pub const SCENARIO: &str = "champions/api/scenario.toml";
pub const SURFACES: &str = "champions/api/surfaces.toml";
pub const TEMPLATES: &str = "champions/api/templates";

/// A failure of the generator itself (its inputs are wrong), never a drift.
#[derive(Debug)]
pub struct GenError(pub String);

impl fmt::Display for GenError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for GenError {}

/// A generated file: where it goes (from the root) and its text.
#[derive(Debug)]
pub struct Generated {
    pub kit: String,
    pub template: String,
    pub output: PathBuf,
    pub text: String,
}

/// Everything the generator reads, loaded from the repository at `root`.
pub struct Inputs {
    pub root: PathBuf,
    pub api: Description,
    pub scenario: Scenario,
    pub surfaces: Surfaces,
}

impl Inputs {
    pub fn load(root: &Path) -> Result<Inputs, GenError> {
        let api =
            Description::load(&root.join(DESCRIPTION)).map_err(|e| GenError(e.to_string()))?;
        let scenario =
            Scenario::load(&root.join(SCENARIO), &api).map_err(|e| GenError(e.to_string()))?;
        let surfaces = Surfaces::load(&root.join(SURFACES)).map_err(GenError)?;
        Ok(Inputs {
            root: root.to_path_buf(),
            api,
            scenario,
            surfaces,
        })
    }

    /// Every generated file's text, in the order of `surfaces.toml`.
    pub fn generate(&self) -> Result<Vec<Generated>, GenError> {
        let env = render::environment(&self.root.join(TEMPLATES));
        let api = render::value(&self.api);
        let scenario = render::value(&self.scenario);
        self.surfaces
            .files
            .iter()
            .map(|file| {
                let template = env
                    .get_template(&file.template)
                    .map_err(|e| GenError(format!("{TEMPLATES}/{}: {e:#}", file.template)))?;
                let notice = format!(
                    "Generated from {DESCRIPTION} by `cargo run -p loi_api -- write` with the \
                     template {TEMPLATES}/{}: edit those, not this file.",
                    file.template
                );
                let text = template
                    .render(minijinja::context! { api, scenario, notice })
                    .map_err(|e| GenError(format!("{TEMPLATES}/{}: {e:#}", file.template)))?;
                Ok(Generated {
                    kit: file.kit.clone(),
                    template: file.template.clone(),
                    output: PathBuf::from(&file.output),
                    text,
                })
            })
            .collect()
    }

    /// The problems of the hand-written declaration lists: every function's rendered line
    /// must appear in its file, in order.
    pub fn check_declared(&self) -> Result<Vec<String>, GenError> {
        let env = render::environment(&self.root.join(TEMPLATES));
        let mut problems = Vec::new();
        for declared in &self.surfaces.declared {
            let path = self.root.join(&declared.file);
            let text = std::fs::read_to_string(&path)
                .map_err(|e| GenError(format!("cannot read {}: {e}", declared.file)))?;
            let mut from = 0;
            for f in &self.api.functions {
                let line = env
                    .render_str(&declared.each_function, render::value(f))
                    .map_err(|e| GenError(format!("{SURFACES}, {}: {e:#}", declared.file)))?;
                match text[from..].find(&line) {
                    Some(at) => from += at + line.len(),
                    None => problems.push(format!(
                        "{} ({} kit, hand-written): `{line}` is missing{}: the description \
                         ({DESCRIPTION}) says function `{}` takes {} arguments",
                        declared.file,
                        declared.kit,
                        if text.contains(&line) {
                            " at its place (functions go in the description's order)"
                        } else {
                            ""
                        },
                        f.name,
                        f.args.len()
                    )),
                }
            }
        }
        Ok(problems)
    }
}

/// The committed files that differ from what the generator writes, and the hand-written
/// declarations that differ from the description: one message per problem, empty when all
/// agree.
pub fn check(root: &Path) -> Result<Vec<String>, GenError> {
    let inputs = Inputs::load(root)?;
    let mut problems = Vec::new();
    for file in inputs.generate()? {
        let path = root.join(&file.output);
        match std::fs::read_to_string(&path) {
            Ok(text) if text == file.text => {}
            Ok(text) => problems.push(format!(
                "{} ({} kit) differs from what {TEMPLATES}/{} makes of the description, {}; \
                 run `cargo run -p loi_api -- write` (and edit the template or the \
                 description, not the file)",
                file.output.display(),
                file.kit,
                file.template,
                first_difference(&text, &file.text)
            )),
            Err(e) => problems.push(format!(
                "{} ({} kit): {e}; run `cargo run -p loi_api -- write`",
                file.output.display(),
                file.kit
            )),
        }
    }
    problems.extend(inputs.check_declared()?);
    Ok(problems)
}

/// Writes every generated file that differs; returns those written.
pub fn write(root: &Path) -> Result<Vec<PathBuf>, GenError> {
    let inputs = Inputs::load(root)?;
    let mut written = Vec::new();
    for file in inputs.generate()? {
        let path = root.join(&file.output);
        if std::fs::read_to_string(&path).ok().as_deref() == Some(file.text.as_str()) {
            continue;
        }
        if let Some(dir) = path.parent() {
            std::fs::create_dir_all(dir)
                .map_err(|e| GenError(format!("cannot create {}: {e}", dir.display())))?;
        }
        std::fs::write(&path, &file.text)
            .map_err(|e| GenError(format!("cannot write {}: {e}", path.display())))?;
        written.push(file.output);
    }
    Ok(written)
}

/// "line N: `committed` where the generator writes `generated`".
fn first_difference(committed: &str, generated: &str) -> String {
    let mut a = committed.lines();
    let mut b = generated.lines();
    for n in 1.. {
        match (a.next(), b.next()) {
            (Some(x), Some(y)) if x == y => continue,
            (x, y) => {
                return format!(
                    "line {n}: `{}` where the generator writes `{}`",
                    x.unwrap_or("(end of file)"),
                    y.unwrap_or("(end of file)")
                )
            }
        }
    }
    unreachable!("the loop returns")
}
