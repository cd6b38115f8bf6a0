//! A champion as a match sees it: a line channel with a budget per callback. Real champions
//! are processes (`ProcessEndpoint`); tests may script one without any process.

use crate::fault::Fault;
use std::time::Duration;

/// The allowance of one callback (protocol.md section 5, `timeout`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct CallLimits {
    /// CPU time of the champion's whole process tree.
    pub cpu: Duration,
    /// Wall-clock backstop, from the callback name to `fin`.
    pub wall: Duration,
}

/// What one callback cost.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct CallTiming {
    pub cpu: Duration,
    pub wall: Duration,
}

/// The match's view of a champion.
pub trait Endpoint {
    /// What the champion wrote while no callback was running (a line, or its start), if
    /// anything: output outside a callback is a protocol fault.
    fn unexpected_output(&mut self) -> Option<String>;
    /// Start a callback: arm its budget and send the callback name.
    fn begin(&mut self, callback: &str, limits: CallLimits) -> Result<(), Fault>;
    /// The next line of the champion, within the callback's budget.
    fn recv(&mut self) -> Result<String, Fault>;
    /// Send one answer line.
    fn send(&mut self, line: &str) -> Result<(), Fault>;
    /// End the callback and say what it cost.
    fn end(&mut self) -> CallTiming;
    /// The match is over for this champion: close its stdin, let it exit within `grace`,
    /// then kill it and everything it spawned. How it exits is ignored (protocol.md
    /// section 6).
    fn finish(&mut self, grace: Duration);
    /// Kill it now, and everything it spawned.
    fn kill(&mut self);
}
