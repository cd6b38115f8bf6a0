//! A champion as a match sees it: a line channel with a budget per callback. Real champions
//! are processes (`ProcessEndpoint`); tests may script one without any process.

use jail::fault::Fault;
use std::time::Duration;

/// The allowance of one callback (protocol.md section 5, `timeout`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct CallLimits {
    /// CPU time of the champion's whole process tree.
    pub cpu: Duration,
    /// Wall-clock backstop, from the callback name to `fin`.
    pub wall: Duration,
}

/// Per-callback time allowances (protocol.md section 5).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct TimeLimits {
    /// CPU budget of `init_game` (start-up included).
    pub init_cpu: Duration,
    /// CPU budget of every other callback.
    pub call_cpu: Duration,
    /// Multiplies every budget and deadline (slow machines, debuggers, quick tests).
    pub scale: f64,
}

impl Default for TimeLimits {
    fn default() -> TimeLimits {
        TimeLimits {
            init_cpu: Duration::from_secs(10),
            call_cpu: Duration::from_secs(1),
            scale: 1.0,
        }
    }
}

impl TimeLimits {
    /// The allowance of the first callback (`init`, start-up included) or of any other,
    /// for any game: its CPU budget, and a wall deadline of 3x that + 1 s, scaled.
    pub fn allowance(&self, init: bool) -> CallLimits {
        let cpu = if init { self.init_cpu } else { self.call_cpu };
        let wall = cpu * 3 + Duration::from_secs(1);
        CallLimits {
            cpu: cpu.mul_f64(self.scale),
            wall: wall.mul_f64(self.scale),
        }
    }
}

/// What one callback cost, and what it wrote on stderr.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct CallTiming {
    pub cpu: Duration,
    pub wall: Duration,
    /// The bytes `[start, end)` of the champion's stderr stream that belong to this
    /// callback: from the end of its previous callback (what it wrote between two
    /// callbacks belongs to the next) to the end of this one. Offsets count every byte
    /// written, also those dropped past the stderr file's cap. `None` without a process.
    pub stderr: Option<[u64; 2]>,
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
    /// After its last callback, before the match's result is fixed: the fault of work it
    /// did since (the check made before each of its callbacks, made once more), if any; a
    /// champion stopped by it is then only finished. Without a process, nothing to check.
    fn last_check(&mut self) -> Option<Fault> {
        None
    }
    /// The match is over for this champion: close its stdin, let it exit within `grace`,
    /// then kill it and everything it spawned. How it exits is ignored (protocol.md
    /// section 6).
    fn finish(&mut self, grace: Duration);
    /// Kill it now, and everything it spawned.
    fn kill(&mut self);
}
