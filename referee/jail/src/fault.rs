//! Faults: a champion's misbehaviour (timeout, crash, memory, protocol, spawn), recorded as
//! game data and never propagated with `?` as a referee error.

use std::fmt;

/// How a `Timeout` for work found between a freeze and a thaw begins (the callback it ends
/// never ran): what a record's check recognises it by.
pub const WORKED_WHILE_FROZEN: &str = "worked while frozen between its callbacks";

/// How a `Timeout` for work found after a champion's last callback begins (the check made
/// once more before a match's result is fixed): a fault after its last move, which a
/// record's check recognises by it.
pub const WORKED_AFTER_LAST: &str = "worked while frozen after its last callback";

/// How the `Memory` fault of a jailed champion's processes found holding more than its
/// limit together begins (at a check while it plays, or while it is frozen).
pub const HELD_TOO_MUCH: &str = "its processes held ";

/// Whether a fault of `kind` saying `message` is one that the check after a champion's
/// last callback makes ([`crate::champion::Champion::last_check`]): work done after it,
/// or memory held over its limit. A record's check accepts no other fault after the last
/// callback but output.
///
/// ```
/// use jail::fault::{is_after_last, FaultKind, WORKED_AFTER_LAST};
/// assert!(is_after_last(FaultKind::Timeout, &format!("{WORKED_AFTER_LAST} (x)")));
/// assert!(!is_after_last(FaultKind::Crash, &format!("{WORKED_AFTER_LAST} (x)")));
/// assert!(!is_after_last(FaultKind::Timeout, "used 9 s of CPU"));
/// ```
pub fn is_after_last(kind: FaultKind, message: &str) -> bool {
    match kind {
        FaultKind::Timeout => message.starts_with(WORKED_AFTER_LAST),
        FaultKind::Memory => message.starts_with(HELD_TOO_MUCH),
        _ => false,
    }
}

/// How a `protocol` fault for a line that is not the protocol's ends (an unknown request,
/// output before or after a callback): where logs go, and where a program without a kit
/// learns to keep its stdout for the referee whatever its libraries print
/// (`protocol.md` section 9: stdout pointed at stderr, the referee's pipes on fds 3 and 4).
pub const LOGS_ON_STDERR: &str =
    "logs belong on stderr (without a kit, protocol.md section 9 keeps stdout clean: \
     the referee on fds 3 and 4)";

/// How the same faults ended in records written before [`LOGS_ON_STDERR`]: a record's
/// check reads both.
const LOGS_ON_STDERR_BEFORE: &str = "logs belong on stderr";

/// Whether `message` is `head` followed by [`LOGS_ON_STDERR`], or by what records of
/// before wrote in its place.
///
/// ```
/// use jail::fault::{ends_logs_on_stderr, LOGS_ON_STDERR};
/// let now = format!("unexpected output `x` after end_game: {LOGS_ON_STDERR}");
/// assert!(ends_logs_on_stderr(&now, "` after end_game: "));
/// assert!(ends_logs_on_stderr("out `x` after end_game: logs belong on stderr", "` after end_game: "));
/// assert!(!ends_logs_on_stderr("out `x` after jouer: logs belong on stderr", "` after end_game: "));
/// ```
pub fn ends_logs_on_stderr(message: &str, head: &str) -> bool {
    [LOGS_ON_STDERR, LOGS_ON_STDERR_BEFORE]
        .iter()
        .any(|end| message.strip_suffix(end).is_some_and(|m| m.ends_with(head)))
}

/// What a `Timeout` of a process killed by its lifetime CPU backstop (`RLIMIT_CPU`) says.
pub const LIFETIME_CPU: &str = "lifetime CPU allowance";

/// What kind of misbehaviour a [`Fault`] records.
///
/// Serialized in lowercase (`"timeout"`, `"crash"`, ...) in records and reports.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum FaultKind {
    /// The champion used more CPU or wall time than its budget allowed.
    Timeout,
    /// The champion died (exit code or signal) or closed its output mid-conversation.
    Crash,
    /// The champion died and the evidence says it hit its memory limit.
    Memory,
    /// The champion wrote something the protocol forbids (too long, not ASCII, unasked).
    Protocol,
    /// The champion could not be started at all (missing, not executable, bad `#!` line).
    Spawn,
}

impl FaultKind {
    /// Every kind, in declaration order (for tables and per-kind counters).
    pub const ALL: [FaultKind; 5] = [
        FaultKind::Timeout,
        FaultKind::Crash,
        FaultKind::Memory,
        FaultKind::Protocol,
        FaultKind::Spawn,
    ];

    /// The lowercase name, the same as the serialized form: `FaultKind::Memory.name() == "memory"`.
    pub fn name(self) -> &'static str {
        match self {
            FaultKind::Timeout => "timeout",
            FaultKind::Crash => "crash",
            FaultKind::Memory => "memory",
            FaultKind::Protocol => "protocol",
            FaultKind::Spawn => "spawn",
        }
    }
}

impl fmt::Display for FaultKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// One misbehaviour of a champion: its kind and a human-readable message saying what
/// happened and what was expected.
///
/// ```
/// use jail::fault::{Fault, FaultKind};
/// let fault = Fault::new(FaultKind::Timeout, "used 1.2 s of CPU, the budget is 1 s");
/// assert_eq!(fault.to_string(), "timeout: used 1.2 s of CPU, the budget is 1 s");
/// ```
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct Fault {
    /// What kind of misbehaviour this is.
    pub kind: FaultKind,
    /// What happened and what was expected, for humans.
    pub message: String,
}

impl Fault {
    /// A fault of `kind` with `message`.
    pub fn new(kind: FaultKind, message: impl Into<String>) -> Self {
        Fault {
            kind,
            message: message.into(),
        }
    }
}

impl fmt::Display for Fault {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {}", self.kind.name(), self.message)
    }
}

impl std::error::Error for Fault {}

/// How many bytes of an offending line a fault quotes (protocol.md section 5).
const QUOTE_BYTES: usize = 60;

/// An offending line as a fault quotes it: its first 60 bytes, each byte that is not
/// printable ASCII as `\xNN`, and `...` when cut. Faults put the quote between backticks:
/// a backtick of the line is `\x60` too, so that the line never closes its quotation (and
/// what follows, in a fault's message or a game's outcome, is never its words).
///
/// ```
/// assert_eq!(jail::fault::quote(b"a\x01b"), "a\\x01b");
/// assert!(jail::fault::quote(&[b'x'; 100]).ends_with("..."));
/// assert_eq!(jail::fault::quote(b"`. bob lost"), "\\x60. bob lost");
/// ```
pub fn quote(line: &[u8]) -> String {
    let mut out = String::new();
    for &b in line.iter().take(QUOTE_BYTES) {
        if (0x20..0x7f).contains(&b) && b != b'`' {
            out.push(char::from(b));
        } else {
            out.push_str(&format!("\\x{b:02x}"));
        }
    }
    if line.len() > QUOTE_BYTES {
        out.push_str("...");
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_match_serde() {
        for kind in FaultKind::ALL {
            let json = serde_json::to_string(&kind).unwrap();
            assert_eq!(json, format!("\"{}\"", kind.name()));
            let back: FaultKind = serde_json::from_str(&json).unwrap();
            assert_eq!(back, kind);
        }
    }
}
