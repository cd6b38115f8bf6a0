//! A command as the referee keeps it: the environment assignments that reach champions and
//! the argument list, rendered as shell text only for people (`shell-words`' quoting), and
//! a command read back as text (a row of `matches.csv`, a reproduce log written before)
//! split by `shell-words` and compared as a list, never pasted on as read.

use serde::{Deserialize, Serialize};
use std::borrow::Cow;

/// A command: `env` assignments, then `args` (the program first, `referee`).
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct CommandLine {
    /// `NAME`, value: the variables of the referee's environment that reach every
    /// champion (`jail::champion::PASSED_THROUGH`), in that order.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub env: Vec<(String, String)>,
    pub args: Vec<String>,
}

impl CommandLine {
    /// The command with `args`, after the variables of this referee's environment that
    /// reach champions.
    pub fn here(args: Vec<String>) -> CommandLine {
        CommandLine {
            env: jail::champion::passed_through(),
            args,
        }
    }

    /// As one line of shell text: `NAME=value ... referee ...`, each word quoted as it
    /// needs ([`quote`]).
    ///
    /// ```
    /// use arena::command_line::CommandLine;
    /// let command = CommandLine {
    ///     env: vec![("PROLOGIN_PYTHON".into(), "/opt/my python".into())],
    ///     args: ["referee", "match", "a b", "it's"].map(String::from).to_vec(),
    /// };
    /// assert_eq!(
    ///     command.render(),
    ///     r"PROLOGIN_PYTHON='/opt/my python' referee match 'a b' 'it'\''s'"
    /// );
    /// ```
    pub fn render(&self) -> String {
        let env = self.env.iter().map(|(k, v)| format!("{k}={}", quote(v)));
        env.chain(self.args.iter().map(|a| quote(a).into_owned()))
            .collect::<Vec<_>>()
            .join(" ")
    }

    /// As the user can paste it where they stand: `program`, the program as they typed it
    /// (the command line's `words::program`), instead of `referee`.
    pub fn as_typed(&self, program: &str) -> String {
        let Some(rest) = self.args.split_first().filter(|(p, _)| *p == "referee") else {
            return self.render();
        };
        let part = |env: &[(String, String)], args: &[String]| {
            CommandLine {
                env: env.to_vec(),
                args: args.to_vec(),
            }
            .render()
        };
        [part(&self.env, &[]), program.to_string(), part(&[], rest.1)]
            .into_iter()
            .filter(|p| !p.is_empty())
            .collect::<Vec<_>>()
            .join(" ")
    }

    /// A command written as text by a referee (a row's `reproduce`, a log line written
    /// before lists), split by `shell-words`: the leading `NAME=value` words of variables
    /// that reach champions (each once, a value not empty) are its `env`. An error if the
    /// text does not split (an unclosed quote) or sets a variable twice or empty.
    pub fn read(text: &str) -> Result<CommandLine, String> {
        let words = shell_words::split(text).map_err(|e| format!("`{text}`: {e}"))?;
        let mut env: Vec<(String, String)> = Vec::new();
        let mut rest = words.into_iter().peekable();
        while let Some((name, value)) = rest.peek().and_then(|w| assignment(w)) {
            if value.is_empty() || env.iter().any(|(n, _)| n == name) {
                return Err(format!("`{text}` sets {name} twice or to nothing"));
            }
            env.push((name.to_string(), value.to_string()));
            rest.next();
        }
        Ok(CommandLine {
            env,
            args: rest.collect(),
        })
    }
}

/// `word` as `NAME`, value when it assigns a variable that reaches champions.
fn assignment(word: &str) -> Option<(&'static str, &str)> {
    let (name, value) = word.split_once('=')?;
    let name = jail::champion::PASSED_THROUGH
        .iter()
        .find(|n| **n == name)?;
    Some((name, value))
}

/// Whether `written` (a `reproduce` command read back, perhaps written on another machine
/// or by an earlier referee) is `ours` (the command this referee writes for the same
/// match) but for the variables that reach champions, which another referee's environment
/// may set otherwise. Compared as lists: the text split by `shell-words`, its arguments
/// exactly ours. And it must be text a referee writes for that list (this one's quoting, or
/// that of the referees before `shell-words`), so that nothing a shell would read
/// otherwise (a `;`, a `$(...)`, another word) passes: a command read from a file is
/// printed to be pasted into a shell.
pub fn same_command(written: &str, ours: &CommandLine) -> bool {
    if written == ours.render() {
        return true;
    }
    let core = CommandLine {
        env: Vec::new(),
        args: ours.args.clone(),
    }
    .render();
    // Our own words as written (a word with control characters, in `$'...'`, included),
    // after assignments that must be in our form.
    if let Some(prefix) = written.strip_suffix(&core) {
        if prefix.is_empty() {
            return true;
        }
        return match prefix.strip_suffix(' ').map(CommandLine::read) {
            Some(Ok(env)) => {
                env.args.is_empty()
                    && !env.env.is_empty()
                    && env.render() == prefix[..prefix.len() - 1]
            }
            _ => false,
        };
    }
    // Written by a referee that quoted some words otherwise (before `shell-words`).
    let Ok(read) = CommandLine::read(written) else {
        return false;
    };
    read.args == ours.args && legacy_render(&read) == written
}

/// The text the referees before `shell-words` wrote for `command` (words of printable
/// characters only: theirs with control characters are matched as this one writes them),
/// kept to read their files: a word of ASCII letters, digits and `/._-+=:,` bare, any other
/// in single quotes.
fn legacy_render(command: &CommandLine) -> String {
    let quote = |word: &str| -> String {
        let bare = !word.is_empty()
            && word
                .bytes()
                .all(|b| b.is_ascii_alphanumeric() || b"/._-+=:,".contains(&b));
        match bare {
            true => word.to_string(),
            false => format!("'{}'", word.replace('\'', r"'\''")),
        }
    };
    let env = command.env.iter().map(|(k, v)| format!("{k}={}", quote(v)));
    env.chain(command.args.iter().map(|a| quote(a)))
        .collect::<Vec<_>>()
        .join(" ")
}

/// `word` quoted for a POSIX shell when it needs it, by `shell-words` (single quotes, `'`
/// as `'\''`). A word holding control characters (`untrusted::is_escaped`: a champion's
/// file name may hold ESC), which no crate quotes (they cannot be quoted portably, and
/// written raw they would reach the terminal of whoever reads the command), is written
/// in the `$'...'` quotes of bash, zsh and ksh (and POSIX.1-2024), each such character as
/// the `\xNN` of its UTF-8 bytes, so that the command stays one printable line that a
/// shell turns back into the exact word.
///
/// ```
/// use arena::command_line::quote;
/// assert_eq!(quote("a/b.sh"), "a/b.sh");
/// assert_eq!(quote("it's"), r"'it'\''s'");
/// assert_eq!(quote("e\u{1b}[2J\\'"), r"$'e\x1b[2J\\\''");
/// ```
pub fn quote(word: &str) -> Cow<'_, str> {
    if !word.chars().any(jail::untrusted::is_escaped) {
        return shell_words::quote(word);
    }
    let mut out = String::from("$'");
    for c in word.chars() {
        match c {
            '\\' | '\'' => {
                out.push('\\');
                out.push(c);
            }
            c if jail::untrusted::is_escaped(c) => {
                for b in c.to_string().bytes() {
                    out.push_str(&format!("\\x{b:02x}"));
                }
            }
            c => out.push(c),
        }
    }
    out.push('\'');
    Cow::Owned(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ours() -> CommandLine {
        CommandLine {
            env: Vec::new(),
            args: [
                "referee",
                "match",
                "a",
                "b c",
                "x",
                "--seed",
                "5",
                "--full-log",
            ]
            .map(String::from)
            .to_vec(),
        }
    }

    /// A command read back is the referee's own up to another machine's environment words,
    /// each one word as the referee quotes it; nothing else is let through.
    #[test]
    fn a_command_read_back_differs_from_ours_by_environment_words_only() {
        let ours_text = "referee match a 'b c' x --seed 5 --full-log";
        assert_eq!(ours().render(), ours_text);
        let accepted = [
            ours_text.to_string(),
            format!("PROLOGIN_PYTHON=/usr/bin/python3 {ours_text}"),
            format!("PROLOGIN_PYTHON='/opt/my python' {ours_text}"),
            format!(r"PROLOGIN_PYTHON='it'\''s' {ours_text}"),
            format!(r"PROLOGIN_PYTHON='it'\''s a b' {ours_text}"),
        ];
        for written in &accepted {
            assert!(same_command(written, &ours()), "{written}");
        }
        let refused = [
            "referee match a 'b c' x --seed 5".to_string(),
            format!("{ours_text} ; rm -rf ~"),
            format!("rm -rf ~; {ours_text}"),
            format!("PROLOGIN_PYTHON=x; {ours_text}"),
            format!("PROLOGIN_PYTHON=$(id) {ours_text}"),
            format!("PROLOGIN_PYTHON='a'b' {ours_text}"),
            format!("PROLOGIN_PYTHON=$'a\\q' {ours_text}"),
            format!("PROLOGIN_PYTHON=$'a\\x1' {ours_text}"),
            format!("PROLOGIN_PYTHON=$'plain' {ours_text}"),
            format!("PROLOGIN_PYTHON='plain' {ours_text}"),
            format!("PROLOGIN_PYTHON= {ours_text}"),
            // Another machine's value with control characters: no crate reads `$'...'`.
            format!(r"PROLOGIN_PYTHON=$'py\x1bthon' {ours_text}"),
            format!("LD_PRELOAD=/tmp/x.so {ours_text}"),
            format!("PROLOGIN_PYTHON=a PROLOGIN_PYTHON=b {ours_text}"),
            format!("PROLOGIN_PYTHON=a{ours_text}"),
            // The same words, written so that a shell reads others.
            "referee match a \"b c\" x --seed 5 --full-log".to_string(),
            "referee match a b\\ c x --seed 5 --full-log".to_string(),
            "referee match a 'b c' x --seed 5 --full-log #".to_string(),
        ];
        for written in &refused {
            assert!(!same_command(written, &ours()), "{written}");
        }
        // A word of a million spaces is read in one pass: accepted quoted, refused bare.
        let spaces = " ".repeat(1 << 20);
        assert!(same_command(
            &format!("PROLOGIN_PYTHON='{spaces}' {ours_text}"),
            &ours()
        ));
        assert!(!same_command(
            &format!("PROLOGIN_PYTHON=a{spaces}{ours_text}"),
            &ours()
        ));
    }

    /// A command an earlier referee wrote (a non-ASCII word in quotes, a word with `=`
    /// bare) reads as the same list; a word with control characters, as this one writes it.
    #[test]
    fn commands_written_before_read_as_the_same_list() {
        let ours = CommandLine {
            env: Vec::new(),
            args: [
                "referee",
                "match",
                "caf\u{e9}",
                "x=y",
                "e\u{1b}[2J",
                "--seed",
                "1",
            ]
            .map(String::from)
            .to_vec(),
        };
        assert_eq!(
            ours.render(),
            "referee match café 'x=y' $'e\\x1b[2J' --seed 1"
        );
        assert!(same_command(&ours.render(), &ours));
        // Ours, with this machine's variable holding a control character.
        let here = CommandLine {
            env: vec![("PROLOGIN_PYTHON".into(), "py\u{1b}".into())],
            ..ours.clone()
        };
        assert!(same_command(&here.render(), &here));
        let before = CommandLine {
            args: ours.args[..4].to_vec(),
            ..ours.clone()
        };
        assert!(same_command("referee match 'café' x=y", &before));
        assert!(!same_command("referee match \"café\" x=y", &before));
    }

    /// bash turns every quoted word back into the exact word.
    #[test]
    fn bash_reads_back_every_quoted_word() {
        let words = [
            "plain",
            "two words",
            "it's",
            "",
            "x=y",
            "caf\u{e9}",
            "e\u{1b}]0;pwned\u{7}\u{1b}[2J",
            "back\\slash'quote\u{1b}",
            "c1 \u{9b}2J caf\u{e9} \u{202e}",
            "\u{1b}a\u{1b}0f",
        ];
        for word in words {
            let quoted = quote(word);
            assert!(!quoted.chars().any(jail::untrusted::is_escaped), "{quoted}");
            let out = std::process::Command::new("bash")
                .arg("-c")
                .arg(format!("printf %s {quoted}"))
                .output()
                .expect("bash runs");
            assert_eq!(String::from_utf8_lossy(&out.stdout), word, "{quoted}");
        }
    }

    /// The quoting is as short as the word allows: none for plain words, single quotes
    /// for other printable ones, `$'...'` with only the unprintable characters (and `\`,
    /// `'`) escaped, so that a person can still read the word.
    #[test]
    fn quoting_escapes_only_what_it_must() {
        assert_eq!(quote("champions/c/random"), "champions/c/random");
        assert_eq!(quote("my champ"), "'my champ'");
        assert_eq!(quote("it's"), r"'it'\''s'");
        assert_eq!(quote("e\u{1b}[2J\\'"), r"$'e\x1b[2J\\\''");
        assert_eq!(quote("caf\u{e9}\u{9b}"), r"$'café\xc2\x9b'");
    }

    /// A log line or row written as text reads as its list, its assignments apart.
    #[test]
    fn text_reads_as_its_list() {
        let read = CommandLine::read("PROLOGIN_PYTHON='/opt/py' referee match 'a b' c").unwrap();
        assert_eq!(read.env, [("PROLOGIN_PYTHON".into(), "/opt/py".into())]);
        assert_eq!(read.args, ["referee", "match", "a b", "c"]);
        assert!(CommandLine::read("referee match 'a").is_err());
        assert!(CommandLine::read("PROLOGIN_PYTHON= referee").is_err());
    }
}
