//! The [`Endpoint`] of a real champion process, on top of the containment layer in
//! `champion/`.

use crate::endpoint::{CallLimits, CallTiming, Endpoint};
use jail::champion::{Budget, Champion};
use jail::fault::{Fault, FaultKind};
use std::time::{Duration, Instant};

/// A running champion and the budget of its current callback.
pub struct ProcessEndpoint {
    champion: Option<Champion>,
    budget: Option<Budget>,
    /// Whether the current callback's `fin` already measured and froze the champion.
    paused: bool,
    /// Bytes of stderr written up to the end of the previous callback.
    stderr_mark: u64,
}

impl ProcessEndpoint {
    pub fn new(champion: Champion) -> ProcessEndpoint {
        ProcessEndpoint {
            champion: Some(champion),
            budget: None,
            paused: false,
            stderr_mark: 0,
        }
    }

    fn champion(&mut self) -> &mut Champion {
        self.champion
            .as_mut()
            .expect("the champion is used only while running")
    }

    /// When the current callback's wall allowance runs out.
    fn deadline(&self) -> Instant {
        self.budget
            .as_ref()
            .expect("inside a callback")
            .wall_deadline()
    }
}

impl Endpoint for ProcessEndpoint {
    fn unexpected_output(&mut self) -> Option<String> {
        let champion = self.champion();
        if !champion.has_pending_output() {
            return None;
        }
        let budget = Budget::start(
            champion,
            Duration::from_millis(100),
            Duration::from_millis(100),
        );
        Some(champion.recv(&budget).unwrap_or_else(|fault| fault.message))
    }

    fn begin(&mut self, callback: &str, limits: CallLimits) -> Result<(), Fault> {
        self.paused = false;
        let champion = self.champion();
        champion.resume();
        self.budget = Some(Budget::start(champion, limits.cpu, limits.wall));
        self.send(callback)
    }

    fn recv(&mut self) -> Result<String, Fault> {
        let champion = self.champion.as_mut().expect("running");
        let budget = self.budget.as_ref().expect("inside a callback");
        let line = champion.recv(budget)?;
        if line == "fin" {
            // The callback's last word: measure and freeze now, and hold the whole
            // callback to its budget (the checks while it ran may be a few ms behind).
            champion.pause();
            self.paused = true;
            let used = budget.cpu_measured(champion);
            if used > budget.cpu_allowance() {
                return Err(Fault::new(
                    FaultKind::Timeout,
                    format!(
                        "used {} ms of CPU (all its processes) in this callback; the budget \
                         is {} ms",
                        used.as_millis(),
                        budget.cpu_allowance().as_millis()
                    ),
                ));
            }
        }
        Ok(line)
    }

    fn send(&mut self, line: &str) -> Result<(), Fault> {
        let deadline = self.deadline();
        self.champion().send(line, deadline)
    }

    fn end(&mut self) -> CallTiming {
        let budget = self.budget.take().expect("inside a callback");
        let champion = self.champion.as_mut().expect("running");
        // Measures, then freezes a jailed champion until its next callback (unless its
        // `fin` did).
        if !self.paused {
            champion.pause();
        }
        // What it wrote up to now (the pipe included: it is frozen, or said `fin`).
        let written = champion.stderr_written();
        let stderr = [self.stderr_mark, written.max(self.stderr_mark)];
        self.stderr_mark = stderr[1];
        CallTiming {
            cpu: budget.cpu_measured(champion),
            wall: budget.wall_used(),
            stderr: Some(stderr),
        }
    }

    fn last_check(&mut self) -> Option<Fault> {
        self.champion.as_mut()?.last_check()
    }

    fn finish(&mut self, grace: Duration) {
        if let Some(champion) = self.champion.take() {
            champion.finish(grace);
        }
    }

    fn kill(&mut self) {
        if let Some(champion) = self.champion.take() {
            champion.kill();
        }
    }
}

impl Drop for ProcessEndpoint {
    /// Whatever happened, the champion and everything it spawned are gone.
    fn drop(&mut self) {
        if let Some(champion) = self.champion.take() {
            champion.kill();
        }
    }
}
