//! The description of the API (`loi.toml`) as types, read and checked in one place: names
//! unique, every answer consistent with its kind, figures and cell strings that exist.

use serde::{Deserialize, Serialize};
use std::collections::BTreeSet;
use std::fmt;
use std::path::Path;

/// The whole description: the game, constants, functions, callbacks, the kits' fixed data.
#[derive(Clone, Debug, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct Description {
    pub game: GameInfo,
    #[serde(rename(deserialize = "constant"))]
    pub constants: Vec<Constant>,
    #[serde(rename(deserialize = "function"))]
    pub functions: Vec<Function>,
    #[serde(rename(deserialize = "callback"))]
    pub callbacks: Vec<Callback>,
    pub monuments: Monuments,
    pub etat: Etat,
}

#[derive(Clone, Debug, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct GameInfo {
    pub name: String,
    pub package: String,
    pub map_size: i32,
    pub players: i32,
}

/// A constant: an error code, an owner, a cell kind or a bound.
#[derive(Clone, Debug, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct Constant {
    pub name: String,
    pub value: i32,
    pub group: Group,
    pub en: String,
    pub fr: String,
}

#[derive(Clone, Copy, Debug, Deserialize, Serialize, PartialEq, Eq)]
#[serde(rename_all = "lowercase")]
pub enum Group {
    Error,
    Owner,
    Kind,
    Bound,
}

/// A function of the API: an information function or an action.
#[derive(Clone, Debug, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct Function {
    pub name: String,
    pub kind: FunctionKind,
    pub result: ResultType,
    pub args: Vec<Arg>,
    pub check: Check,
    pub answer: Answer,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub cell: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub figure: Option<usize>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub table: Option<String>,
    /// A rule of the board (`answer` is then `ask`): a kit with the shared rules (the C
    /// runtime's `prologin_rules.c`) answers it from the cached `etat`, any other asks.
    #[serde(default)]
    pub rule: bool,
    pub en: String,
    pub fr: String,
}

#[derive(Clone, Copy, Debug, Deserialize, Serialize, PartialEq, Eq)]
#[serde(rename_all = "lowercase")]
pub enum FunctionKind {
    Info,
    Action,
}

#[derive(Clone, Copy, Debug, Deserialize, Serialize, PartialEq, Eq)]
#[serde(rename_all = "lowercase")]
pub enum ResultType {
    Int,
    Bool,
}

/// An argument: always an `int`.
#[derive(Clone, Debug, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct Arg {
    pub name: String,
    pub en: String,
    pub fr: String,
}

/// The argument check a kit makes without a round trip.
#[derive(Clone, Copy, Debug, Deserialize, Serialize, PartialEq, Eq)]
#[serde(rename_all = "lowercase")]
pub enum Check {
    None,
    Coords,
    Player,
    Monument,
}

/// Where a kit's answer comes from (loi.toml's header).
#[derive(Clone, Copy, Debug, Deserialize, Serialize, PartialEq, Eq)]
#[serde(rename_all = "lowercase")]
pub enum Answer {
    Cell,
    Figure,
    Table,
    Ask,
    Act,
}

/// A callback the contestant writes.
#[derive(Clone, Debug, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct Callback {
    pub name: String,
    pub en: String,
    pub fr: String,
}

/// Monument id -> prestige and range (rule 5).
#[derive(Clone, Debug, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct Monuments {
    pub prestige: Vec<i32>,
    pub portee: Vec<i32>,
}

/// The layout of the `etat` answer (protocol.md section 4).
#[derive(Clone, Debug, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct Etat {
    pub figures: usize,
    #[serde(rename(deserialize = "string"))]
    pub strings: Vec<EtatString>,
}

#[derive(Clone, Debug, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct EtatString {
    pub name: String,
    pub offset: i32,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub none: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub none_answer: Option<String>,
}

/// What is wrong with a description file.
#[derive(Debug)]
pub enum DescriptionError {
    Read(String, std::io::Error),
    Parse(String, String),
    Invalid(String, String),
}

impl fmt::Display for DescriptionError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            DescriptionError::Read(path, e) => write!(f, "cannot read {path}: {e}"),
            DescriptionError::Parse(path, e) => write!(f, "{path} is not a valid description: {e}"),
            DescriptionError::Invalid(path, e) => write!(f, "{path}: {e}"),
        }
    }
}

impl std::error::Error for DescriptionError {}

impl Description {
    /// Reads and checks the description at `path`.
    pub fn load(path: &Path) -> Result<Description, DescriptionError> {
        let shown = path.display().to_string();
        let text =
            std::fs::read_to_string(path).map_err(|e| DescriptionError::Read(shown.clone(), e))?;
        Description::parse(&text).map_err(|e| match e {
            DescriptionError::Parse(_, m) => DescriptionError::Parse(shown, m),
            DescriptionError::Invalid(_, m) => DescriptionError::Invalid(shown, m),
            other => other,
        })
    }

    /// Parses and checks a description's text.
    pub fn parse(text: &str) -> Result<Description, DescriptionError> {
        let d: Description = toml::from_str(text)
            .map_err(|e| DescriptionError::Parse(String::new(), e.to_string()))?;
        d.validate()
            .map_err(|m| DescriptionError::Invalid(String::new(), m))?;
        Ok(d)
    }

    /// The constant named `name`.
    pub fn constant(&self, name: &str) -> Option<&Constant> {
        self.constants.iter().find(|c| c.name == name)
    }

    /// The function named `name`.
    pub fn function(&self, name: &str) -> Option<&Function> {
        self.functions.iter().find(|f| f.name == name)
    }

    fn validate(&self) -> Result<(), String> {
        let mut names = BTreeSet::new();
        let all = self
            .constants
            .iter()
            .map(|c| &c.name)
            .chain(self.functions.iter().map(|f| &f.name))
            .chain(self.callbacks.iter().map(|c| &c.name));
        for name in all {
            if !names.insert(name.as_str()) {
                return Err(format!("the name `{name}` is described twice"));
            }
        }
        let strings: Vec<&str> = self.etat.strings.iter().map(|s| s.name.as_str()).collect();
        for s in &self.etat.strings {
            if let Some(answer) = &s.none_answer {
                if self.constant(answer).is_none() {
                    return Err(format!(
                        "etat string `{}`: none_answer `{answer}` is not a constant",
                        s.name
                    ));
                }
            }
            if s.none.is_some() != s.none_answer.is_some()
                || s.none.as_ref().is_some_and(|c| c.chars().count() != 1)
            {
                return Err(format!(
                    "etat string `{}`: `none` is one character, and comes with `none_answer`",
                    s.name
                ));
            }
        }
        let monuments = self.monuments.prestige.len();
        if self.monuments.portee.len() != monuments {
            return Err("monuments: prestige and portee differ in length".into());
        }
        for f in &self.functions {
            let arity = f.args.len();
            let fail = |what: &str| Err(format!("function `{}`: {what}", f.name));
            let expected_args = match f.check {
                Check::Coords => Some(2),
                Check::Player | Check::Monument => Some(1),
                Check::None => None,
            };
            if expected_args.is_some_and(|n| n != arity) {
                return fail("its check does not fit its arguments");
            }
            let given = (f.cell.is_some(), f.figure.is_some(), f.table.is_some());
            match f.answer {
                Answer::Cell => {
                    if given != (true, false, false) || f.check != Check::Coords {
                        return fail("answer `cell` takes `cell` only, and check `coords`");
                    }
                    let cell = f.cell.as_deref().unwrap_or_default();
                    if !strings.contains(&cell) {
                        return fail(&format!("`cell = \"{cell}\"` is not an etat string"));
                    }
                }
                Answer::Figure => {
                    if given != (false, true, false) {
                        return fail("answer `figure` takes `figure` only");
                    }
                    let last =
                        f.figure.unwrap_or_default() + if f.check == Check::Player { 2 } else { 0 };
                    if last >= self.etat.figures || !(arity == 0 || f.check == Check::Player) {
                        return fail("its figure is not in etat, or takes an argument");
                    }
                }
                Answer::Table => {
                    let table = f.table.as_deref().unwrap_or_default();
                    if given != (false, false, true)
                        || f.check != Check::Monument
                        || !["prestige", "portee"].contains(&table)
                    {
                        return fail("answer `table` takes `table` (prestige or portee) and check `monument`");
                    }
                }
                Answer::Ask | Answer::Act => {
                    if given != (false, false, false) || f.check != Check::None {
                        return fail("a round trip takes no cell, figure, table or check");
                    }
                    if (f.answer == Answer::Act) != (f.kind == FunctionKind::Action) {
                        return fail("actions, and only they, answer `act`");
                    }
                }
            }
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn real() -> String {
        std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/loi.toml")).unwrap()
    }

    /// The real description with `from` (once) replaced by `to`: its error message.
    fn broken(from: &str, to: &str) -> String {
        let text = real();
        assert_eq!(text.matches(from).count(), 1, "`{from}` once in loi.toml");
        match Description::parse(&text.replacen(from, to, 1)) {
            Ok(_) => panic!("`{from}` -> `{to}` was accepted"),
            Err(e) => e.to_string(),
        }
    }

    #[test]
    fn the_real_description_is_valid() {
        let d = Description::parse(&real()).unwrap();
        assert_eq!(d.functions.len(), 26);
        assert_eq!(d.constants.len(), 22);
        assert_eq!(d.callbacks.len(), 5);
        assert_eq!(d.constant("TROP_LOIN").map(|c| c.value), Some(50));
        assert_eq!(d.function("distance").map(|f| f.args.len()), Some(4));
        assert!(d.function("nope").is_none());
    }

    #[test]
    fn each_inconsistency_is_named() {
        let cases = [
            ("name = \"BLOCAGE\"", "name = \"SUCCES\"", "`SUCCES` is described twice"),
            ("cell = \"kinds\"", "cell = \"kind\"", "`cell = \"kind\"` is not an etat string"),
            ("table = \"portee\"", "table = \"range\"", "answer `table` takes"),
            ("figure = 10\n", "figure = 15\n", "figure is not in etat"),
            ("figure = 6\n", "figure = 16\n", "figure is not in etat"),
            ("none_answer = \"PAS_DE_MONUMENT\"", "none_answer = \"NOPE\"", "is not a constant"),
            ("none = \".\"", "none = \"..\"", "`none` is one character"),
            ("prestige = [5, 4,", "prestige = [4,", "prestige and portee differ"),
            (
                "name = \"encherir\"\nkind = \"action\"",
                "name = \"encherir\"\nkind = \"info\"",
                "actions, and only they, answer `act`",
            ),
            (
                "name = \"portee_monument\"\nkind = \"info\"\nresult = \"int\"\nargs = [\n  { name = \"num_monument\", en = \"the monument's id\", fr = \"le numéro du monument\" },\n]",
                "name = \"portee_monument\"\nkind = \"info\"\nresult = \"int\"\nargs = []",
                "its check does not fit its arguments",
            ),
            ("figure = 4\n", "figure = 4\ncell = \"kinds\"\n", "answer `figure` takes `figure` only"),
            ("rule = true\nen = \"The shortest", "rule = true\nfigure = 1\nen = \"The shortest", "a round trip takes no"),
            ("value = 30000", "value = \"x\"", "not a valid description"),
        ];
        for (from, to, expected) in cases {
            let message = broken(from, to);
            assert!(message.contains(expected), "`{to}`: {message}");
        }
    }
}
