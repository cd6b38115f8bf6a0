//! Which processes a jail held, and the CPU each had used, at one walk of its tree: taken
//! when a champion stopped with `SIGSTOP` is frozen and again before it is thawed. A
//! stopped process neither runs, ends nor starts anything, so any difference between the
//! two is evidence that something of the champion worked while frozen, whatever it did with
//! `SIGCHLD`: a worker that ran and was reaped at once by the kernel is gone from the
//! second census, although no measurement of CPU can see what it used.

use std::time::Duration;

/// One process as a walk saw it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Seen {
    pub pid: i32,
    /// Start time in clock ticks after boot (tells a reused pid from the process seen).
    pub start: u64,
    /// CPU it used, its reaped children's included.
    pub cpu: Duration,
    /// Already ended (a zombie) or ending (exiting): its parent, or the jail's init, may
    /// reap it at any time.
    pub zombie: bool,
}

/// The processes of a jail at one walk (the init excluded), by pid.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Census {
    seen: Vec<Seen>,
}

/// What changed between a census taken while frozen and a later one.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Change {
    /// Processes that were alive and are gone or ended.
    pub ended: u32,
    /// Processes that were not there.
    pub appeared: u32,
    /// CPU used meanwhile by the processes present both times (sum of what each gained).
    pub cpu: Duration,
}

impl Change {
    /// Whether it shows work: a process that ended or appeared, or more CPU than `slack`.
    pub fn is_work(&self, slack: Duration) -> bool {
        self.ended > 0 || self.appeared > 0 || self.cpu > slack
    }
}

impl Census {
    /// Starts a new walk's census (keeps the allocation).
    pub(crate) fn clear(&mut self) {
        self.seen.clear();
    }

    pub(crate) fn push(&mut self, seen: Seen) {
        self.seen.push(seen);
    }

    /// Ends a walk: sorted by pid, for [`Census::since`].
    pub(crate) fn finish(&mut self) {
        self.seen.sort_unstable_by_key(|s| s.pid);
    }

    /// What changed since `before` (a census taken while the same jail was frozen). A
    /// process that was already a zombie may be gone (reaped): that is no work.
    pub fn since(&self, before: &Census) -> Change {
        let mut change = Change::default();
        let (mut i, mut j) = (0, 0);
        let (old, new) = (&before.seen, &self.seen);
        while i < old.len() || j < new.len() {
            match (old.get(i), new.get(j)) {
                (Some(a), Some(b)) if a.pid == b.pid && a.start == b.start => {
                    if b.zombie && !a.zombie {
                        change.ended += 1;
                    }
                    change.cpu += b.cpu.saturating_sub(a.cpu);
                    i += 1;
                    j += 1;
                }
                (Some(a), Some(b)) if a.pid == b.pid => {
                    // The pid was reused: the old process is gone, a new one started.
                    change.ended += u32::from(!a.zombie);
                    change.appeared += 1;
                    i += 1;
                    j += 1;
                }
                (Some(a), b) if b.is_none_or(|b| a.pid < b.pid) => {
                    change.ended += u32::from(!a.zombie);
                    i += 1;
                }
                _ => {
                    change.appeared += 1;
                    j += 1;
                }
            }
        }
        change
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn census(seen: &[(i32, u64, u64, bool)]) -> Census {
        let mut c = Census::default();
        for &(pid, start, cpu_ms, zombie) in seen {
            c.push(Seen {
                pid,
                start,
                cpu: Duration::from_millis(cpu_ms),
                zombie,
            });
        }
        c.finish();
        c
    }

    #[test]
    fn nothing_changed_is_no_work() {
        let a = census(&[(5, 1, 30, false), (9, 2, 1, false), (12, 3, 0, true)]);
        assert_eq!(a.since(&a), Change::default());
        // A zombie reaped meanwhile is no work either.
        let b = census(&[(5, 1, 30, false), (9, 2, 1, false)]);
        assert_eq!(b.since(&a), Change::default());
        assert!(!b.since(&a).is_work(Duration::ZERO));
    }

    #[test]
    fn a_worker_that_ran_and_was_reaped_is_work() {
        // Worker 9 ran while frozen and was reaped at once: its CPU is gone with it, and
        // the sum of what is left is lower than before.
        let before = census(&[(5, 1, 30, false), (9, 2, 1, false), (10, 2, 1, false)]);
        let after = census(&[(5, 1, 30, false), (10, 2, 1, false)]);
        let change = after.since(&before);
        assert_eq!(change.ended, 1);
        assert!(change.is_work(Duration::from_secs(1)));
    }

    #[test]
    fn cpu_gained_appeared_ended_and_reused_pids_are_counted() {
        let before = census(&[(5, 1, 30, false), (9, 2, 1, false), (11, 4, 0, false)]);
        let after = census(&[
            (5, 1, 55, false),
            (9, 7, 0, false),
            (11, 4, 3, true),
            (20, 8, 0, false),
        ]);
        let change = after.since(&before);
        assert_eq!(
            change,
            Change {
                ended: 2,
                appeared: 2,
                cpu: Duration::from_millis(28),
            }
        );
        let only_cpu = census(&[(5, 1, 40, false)]).since(&census(&[(5, 1, 30, false)]));
        assert!(!only_cpu.is_work(Duration::from_millis(20)));
        assert!(only_cpu.is_work(Duration::from_millis(5)));
    }

    /// A walk of a real tree (`sh` standing for a jail's init, three children asleep): each
    /// process once, in pid order; walked again with nothing changed, nothing ended or
    /// appeared. (`Census::push`, `clear` and `finish` as the jail's tracker uses them.)
    #[test]
    fn a_walk_lists_each_process_once_in_pid_order() {
        use std::io::{BufRead, BufReader};
        use std::os::unix::process::CommandExt;
        use std::process::{Command, Stdio};
        let mut init = Command::new("sh")
            .args(["-c", "sleep 600 & sleep 600 & sleep 600 & echo ready; wait"])
            .stdout(Stdio::piped())
            .process_group(0)
            .spawn()
            .expect("sh");
        let mut lines = BufReader::new(init.stdout.take().unwrap()).lines();
        assert_eq!(lines.next().unwrap().unwrap(), "ready");
        let mut tracker = crate::usage::Tracker::default();
        let init_pid = init.id() as i32;
        tracker.measure(init_pid);
        let first = tracker.census().clone();
        tracker.measure(init_pid);
        let second = tracker.census().clone();
        nix::sys::signal::killpg(
            nix::unistd::Pid::from_raw(init_pid),
            nix::sys::signal::Signal::SIGKILL,
        )
        .unwrap();
        init.wait().unwrap();
        let pids: Vec<i32> = first.seen.iter().map(|s| s.pid).collect();
        assert_eq!(pids.len(), 3, "{first:?}");
        assert!(
            pids.windows(2).all(|w| w[0] < w[1]),
            "not in pid order: {pids:?}"
        );
        assert_eq!(second.seen.len(), 3, "{second:?}");
        let change = second.since(&first);
        assert_eq!((change.ended, change.appeared), (0, 0), "{change:?}");
    }

    /// The process with the highest pid ends while frozen (the new census is walked to its
    /// end first), and a new one takes a pid lower than every old one (pids wrap around):
    /// each is counted, and the CPU gained by the one present both times too.
    #[test]
    fn the_highest_pid_ending_and_a_lower_pid_appearing_are_counted() {
        let before = census(&[(5, 1, 30, false), (9, 2, 1, false)]);
        let after = census(&[(5, 1, 30, false)]);
        let ended = Change {
            ended: 1,
            ..Change::default()
        };
        assert_eq!(after.since(&before), ended);
        let before = census(&[(300, 1, 30, false)]);
        let after = census(&[(7, 9, 0, false), (300, 1, 45, false)]);
        let appeared = Change {
            appeared: 1,
            cpu: Duration::from_millis(15),
            ..Change::default()
        };
        assert_eq!(after.since(&before), appeared);
    }

    /// A process that appeared while frozen is work by itself, whatever the slack.
    #[test]
    fn a_process_that_appeared_alone_is_work() {
        let change = Change {
            appeared: 1,
            ..Change::default()
        };
        assert!(change.is_work(Duration::from_secs(1)));
    }

    /// CPU gained while frozen is work only past the slack, not at it.
    #[test]
    fn cpu_up_to_the_slack_is_no_work() {
        let change = Change {
            cpu: Duration::from_millis(10),
            ..Change::default()
        };
        assert!(!change.is_work(Duration::from_millis(10)));
        assert!(change.is_work(Duration::from_millis(9)));
    }
}
