//! The cross-language script (`scenario.toml`): which API calls the `script` champion of
//! every kit makes in which callback, checked against the description (names, arity).
//! Each kit's script champion embeds the steps through its generated file and logs every
//! answer in one common format (README.md beside this file), so that all logs can be
//! compared with the C kit's.

use crate::description::Description;
use serde::{Deserialize, Serialize};
use std::fmt;
use std::path::Path;

/// The pseudo-call that digests the four cell getters over the whole map.
pub const SCAN: &str = "scan";

#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct RawScenario {
    #[serde(rename = "step")]
    steps: Vec<RawStep>,
}

#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct RawStep {
    callback: String,
    turn: i32,
    calls: Vec<String>,
}

/// The checked script.
#[derive(Clone, Debug, Serialize)]
pub struct Scenario {
    pub steps: Vec<Step>,
}

/// The calls made in `callback` when `numero_tour()` is `turn` (0: in every turn).
#[derive(Clone, Debug, Serialize)]
pub struct Step {
    pub callback: String,
    pub turn: i32,
    pub calls: Vec<Call>,
}

/// One call: an API function (or `scan`) and its arguments.
#[derive(Clone, Debug, Serialize)]
pub struct Call {
    pub name: String,
    pub args: Vec<i32>,
}

/// What is wrong with a scenario file.
#[derive(Debug)]
pub struct ScenarioError(pub String);

impl fmt::Display for ScenarioError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for ScenarioError {}

impl Scenario {
    /// Reads `path` and checks every call against `api`.
    pub fn load(path: &Path, api: &Description) -> Result<Scenario, ScenarioError> {
        let shown = path.display();
        let text = std::fs::read_to_string(path)
            .map_err(|e| ScenarioError(format!("cannot read {shown}: {e}")))?;
        Scenario::parse(&text, api).map_err(|e| ScenarioError(format!("{shown}: {}", e.0)))
    }

    /// Parses a scenario's text and checks every call against `api`.
    pub fn parse(text: &str, api: &Description) -> Result<Scenario, ScenarioError> {
        let raw: RawScenario =
            toml::from_str(text).map_err(|e| ScenarioError(format!("not a scenario: {e}")))?;
        let mut steps = Vec::new();
        for step in raw.steps {
            if !api.callbacks.iter().any(|c| c.name == step.callback) {
                return Err(ScenarioError(format!(
                    "`{}` is not a callback of the description",
                    step.callback
                )));
            }
            if !(0..=15).contains(&step.turn) {
                return Err(ScenarioError(format!(
                    "turn {} of `{}`: a turn is 1..15, or 0 for every turn",
                    step.turn, step.callback
                )));
            }
            let calls = step
                .calls
                .iter()
                .map(|line| parse_call(line, api))
                .collect::<Result<_, _>>()?;
            steps.push(Step {
                callback: step.callback,
                turn: step.turn,
                calls,
            });
        }
        Ok(Scenario { steps })
    }
}

fn parse_call(line: &str, api: &Description) -> Result<Call, ScenarioError> {
    let mut words = line.split_ascii_whitespace();
    let name = words.next().unwrap_or_default().to_string();
    let args = words
        .map(|w| w.parse::<i32>())
        .collect::<Result<Vec<i32>, _>>()
        .map_err(|_| ScenarioError(format!("`{line}`: arguments are integers")))?;
    let arity = if name == SCAN {
        0
    } else {
        api.function(&name)
            .ok_or_else(|| {
                ScenarioError(format!("`{line}`: `{name}` is not a function of the API"))
            })?
            .args
            .len()
    };
    if args.len() != arity {
        return Err(ScenarioError(format!(
            "`{line}`: `{name}` takes {arity} arguments"
        )));
    }
    Ok(Call { name, args })
}
