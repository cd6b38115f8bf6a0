//! A game's options: what each accepts ([`OptionSpec`]) and the values of one match
//! ([`Options`]), written `name=value` on a command line and kept in records, reproduce
//! commands and tournament specs in one form for every game.

use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

/// One option of a game.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct OptionSpec {
    pub name: &'static str,
    /// What it changes, for `--help` and errors.
    pub help: &'static str,
    pub default: &'static str,
    pub kind: Kind,
}

/// The values an option takes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    /// One of these words.
    Choice(&'static [&'static str]),
    /// A whole number in this range (both ends included).
    Integer(i64, i64),
    /// Any text without `=` or a comma (checked by the game's `start`).
    Text,
}

impl OptionSpec {
    /// Whether `value` is one this option takes; if not, what it takes.
    pub fn check(&self, value: &str) -> Result<(), String> {
        let takes = match self.kind {
            Kind::Choice(words) if words.contains(&value) => return Ok(()),
            Kind::Choice(words) => format!("one of {}", words.join(", ")),
            Kind::Integer(low, high) => match value.parse::<i64>() {
                Ok(n) if (low..=high).contains(&n) => return Ok(()),
                _ => format!("a whole number from {low} to {high}"),
            },
            Kind::Text if !value.is_empty() && !value.contains(['=', ',']) => return Ok(()),
            Kind::Text => "some text without `=` or `,`".to_string(),
        };
        Err(format!(
            "option `{}` takes {takes}, not `{value}` ({})",
            self.name, self.help
        ))
    }
}

/// The options of one match: every option of its game, each with a value.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(transparent)]
pub struct Options(BTreeMap<String, String>);

impl Options {
    /// Every option at its default.
    pub fn defaults(specs: &[OptionSpec]) -> Options {
        Options(
            specs
                .iter()
                .map(|s| (s.name.to_string(), s.default.to_string()))
                .collect(),
        )
    }

    /// The options `given` as `name=value` (in any order, each once), the others at their
    /// defaults; an error names what is wrong and what is accepted.
    ///
    /// ```
    /// use game::{Options, OptionSpec, options::Kind};
    /// const SPECS: &[OptionSpec] = &[OptionSpec {
    ///     name: "board", help: "the map", default: "usa", kind: Kind::Choice(&["usa", "small"]),
    /// }];
    /// let options = Options::parse(SPECS, &["board=small"]).unwrap();
    /// assert_eq!(options.get("board"), "small");
    /// assert!(Options::parse(SPECS, &["board=moon"]).unwrap_err().contains("one of usa, small"));
    /// ```
    pub fn parse<S: AsRef<str>>(specs: &[OptionSpec], given: &[S]) -> Result<Options, String> {
        let mut options = Options::defaults(specs);
        let mut seen = Vec::new();
        for pair in given {
            let pair = pair.as_ref();
            let Some((name, value)) = pair.split_once('=') else {
                return Err(format!("an option is written name=value, not `{pair}`"));
            };
            let Some(spec) = specs.iter().find(|s| s.name == name) else {
                let known: Vec<&str> = specs.iter().map(|s| s.name).collect();
                return Err(match known.is_empty() {
                    true => format!("this game takes no option (`{name}` given)"),
                    false => format!("no option `{name}`: this game takes {}", known.join(", ")),
                });
            };
            if seen.contains(&name) {
                return Err(format!("option `{name}` is given twice"));
            }
            seen.push(name);
            spec.check(value)?;
            options.0.insert(name.to_string(), value.to_string());
        }
        Ok(options)
    }

    /// The options read back from a record or a run's description: none but the game's,
    /// each valid; one the game added after it was written takes its default. So a game
    /// adds an option only with a default that plays what the game played before it: an
    /// old record then replays, and an old run resumes, as they were.
    pub fn completed(&self, specs: &[OptionSpec]) -> Result<Options, String> {
        for name in self.0.keys() {
            if !specs.iter().any(|s| s.name == name) {
                return Err(format!("no option `{name}` in this game"));
            }
        }
        let mut options = self.clone();
        for spec in specs {
            match self.0.get(spec.name) {
                Some(value) => spec.check(value)?,
                None => {
                    options
                        .0
                        .insert(spec.name.to_string(), spec.default.to_string());
                }
            }
        }
        Ok(options)
    }

    /// The value of option `name` (one of the game's: every option has a value).
    pub fn get(&self, name: &str) -> &str {
        self.0.get(name).map_or("", String::as_str)
    }

    /// The value of integer option `name` (0 if it is not one).
    pub fn integer(&self, name: &str) -> i64 {
        self.get(name).parse().unwrap_or(0)
    }

    /// The options as `name=value` words, the form [`Options::parse`] reads.
    pub fn words(&self) -> Vec<String> {
        self.0.iter().map(|(k, v)| format!("{k}={v}")).collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const SPECS: &[OptionSpec] = &[
        OptionSpec {
            name: "board",
            help: "the map",
            default: "usa",
            kind: Kind::Choice(&["usa", "small"]),
        },
        OptionSpec {
            name: "wagons",
            help: "wagons a player starts with",
            default: "45",
            kind: Kind::Integer(5, 60),
        },
        OptionSpec {
            name: "name",
            help: "a label",
            default: "x",
            kind: Kind::Text,
        },
    ];

    #[test]
    fn defaults_then_given_values() {
        let o = Options::parse(SPECS, &["wagons=12"]).unwrap();
        assert_eq!(o.get("board"), "usa");
        assert_eq!(o.integer("wagons"), 12);
        assert_eq!(o.words(), ["board=usa", "name=x", "wagons=12"]);
        assert_eq!(Options::parse(SPECS, &o.words()).unwrap(), o);
        assert_eq!(o.completed(SPECS).unwrap(), o);
    }

    #[test]
    fn errors_name_the_option_and_what_it_takes() {
        let err = |given: &[&str]| Options::parse(SPECS, given).unwrap_err();
        assert!(err(&["wagons=4"]).contains("from 5 to 60"));
        assert!(err(&["wagons=61"]).contains("from 5 to 60"));
        assert!(err(&["wagons=x"]).contains("`wagons`"));
        assert!(err(&["board"]).contains("name=value"));
        assert!(err(&["colour=red"]).contains("board, wagons, name"));
        assert!(err(&["board=usa", "board=small"]).contains("twice"));
        assert!(err(&["name="]).contains("without"));
        assert!(err(&["name=a,b"]).contains("without"));
        assert!(Options::parse(&[], &["x=1"])
            .unwrap_err()
            .contains("no option"));
    }

    #[test]
    fn a_record_s_options_are_checked_and_completed() {
        let mut o = Options::defaults(SPECS);
        assert_eq!(o.completed(SPECS).unwrap(), o);
        o.0.insert("extra".into(), "1".into());
        assert!(o.completed(SPECS).unwrap_err().contains("extra"));
        // An option added to the game since: its default.
        let mut o = Options::parse(SPECS, &["board=small"]).unwrap();
        o.0.remove("wagons");
        let completed = o.completed(SPECS).unwrap();
        assert_eq!(completed.words(), ["board=small", "name=x", "wagons=45"]);
        let mut o = Options::defaults(SPECS);
        o.0.insert("board".into(), "moon".into());
        assert!(o.completed(SPECS).is_err());
        let json = serde_json::to_string(&Options::defaults(SPECS)).unwrap();
        assert_eq!(json, r#"{"board":"usa","name":"x","wagons":"45"}"#);
    }
}
