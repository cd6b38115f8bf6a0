//! A seat's action (rule 11) and its text, as records keep it and a protocol may send it:
//! `collect X,Y`, `collect X,Y activate X,Y X,Y`, `build X,Y KIND`.

use crate::buildings::Kind;
use std::fmt;
use std::str::FromStr;

/// A position's coordinates, `(x, y)`.
pub type Xy = (u16, u16);

/// Place a worker at `at`, then collect or build there.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Action {
    /// Collect from the neighbouring mines, then activate these neighbouring buildings
    /// (rule 12).
    Collect { at: Xy, activate: Vec<Xy> },
    /// Build a building of this kind at the worker's position (rule 13).
    Build { at: Xy, kind: Kind },
}

impl Action {
    /// Where the worker goes.
    pub fn at(&self) -> Xy {
        match self {
            Action::Collect { at, .. } | Action::Build { at, .. } => *at,
        }
    }
}

impl fmt::Display for Action {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Action::Collect { at, activate } => {
                write!(f, "collect {},{}", at.0, at.1)?;
                if !activate.is_empty() {
                    f.write_str(" activate")?;
                    for (x, y) in activate {
                        write!(f, " {x},{y}")?;
                    }
                }
                Ok(())
            }
            Action::Build { at, kind } => write!(f, "build {},{} {}", at.0, at.1, kind.name()),
        }
    }
}

/// Why a text is no action.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BadAction(pub String);

impl fmt::Display for BadAction {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

fn xy(word: &str) -> Result<Xy, BadAction> {
    let bad = || BadAction(format!("`{word}` is no position (write X,Y, such as 2,3)"));
    let (x, y) = word.split_once(',').ok_or_else(bad)?;
    Ok((x.parse().map_err(|_| bad())?, y.parse().map_err(|_| bad())?))
}

impl FromStr for Action {
    type Err = BadAction;

    /// ```
    /// use town::Action;
    /// let a: Action = "collect 1,2 activate 0,2 2,2".parse().unwrap();
    /// assert_eq!(a.to_string(), "collect 1,2 activate 0,2 2,2");
    /// assert!("build 1,2 palace".parse::<Action>().unwrap_err().0.contains("farm"));
    /// ```
    fn from_str(text: &str) -> Result<Action, BadAction> {
        let words: Vec<&str> = text.split(' ').collect();
        match words.as_slice() {
            ["collect", at] => Ok(Action::Collect {
                at: xy(at)?,
                activate: Vec::new(),
            }),
            ["collect", at, "activate", rest @ ..] if !rest.is_empty() => Ok(Action::Collect {
                at: xy(at)?,
                activate: rest.iter().map(|w| xy(w)).collect::<Result<_, _>>()?,
            }),
            ["build", at, kind] => Ok(Action::Build {
                at: xy(at)?,
                kind: Kind::named(kind).ok_or_else(|| {
                    BadAction(format!(
                        "no building `{kind}`: the kinds are farm, sawmill, pontoon, quarry \
                         (and cathedral, castle, watchtower, market with powers=on)"
                    ))
                })?,
            }),
            _ => Err(BadAction(format!(
                "`{text}` is no action: write `collect X,Y`, `collect X,Y activate X,Y ...` or \
                 `build X,Y KIND`"
            ))),
        }
    }
}
