//! What a shared futex call sent to the jail's init asks, and what the init answers: the
//! pure part of the emulation that `futex_waits.rs` serves (no system call here).
//!
//! The init emulates a shared wait without ever letting the kernel queue it (a waiter
//! queued on a file's page could be woken by another jail): it reads the word, answers
//! `EAGAIN` at once when it differs from the value the caller expects (futex semantics),
//! and otherwise keeps the call pending until the word changes (looked at again and again,
//! with a backoff), a shared wake comes from the same jail, or the timeout passes. Every
//! caller of a futex wait takes a wake-up without a change (a spurious one) and looks
//! again; every correct waker changes the word before it wakes (else it would lose
//! wake-ups against the kernel too), and the kernel clears a thread's tid word before it
//! wakes `pthread_join`'s waiter: so every waiter of the jail is woken, by nobody outside.

use std::time::Duration;

use nix::libc;

use crate::sandbox::futex::{FUTEX2_PRIVATE, SYS_FUTEX_WAIT, SYS_FUTEX_WAKE};

/// `futex_wait`, `futex_wake`: the size flag of a 32-bit word.
const FUTEX2_SIZE_U32: u64 = 2;

/// A notified call, decoded from its syscall number and arguments.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Call {
    /// A wait on the word at `addr` while it holds `value`.
    Wait {
        addr: u64,
        value: u32,
        timeout: Timeout,
    },
    /// A wake (or requeue): every pending wait of the jail is answered (each looks again).
    Wake,
    /// Answered at once with this errno (what the kernel would say).
    Fail(i32),
}

/// When a wait gives up.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Timeout {
    Never,
    /// A `struct timespec` at this address in the caller's memory: a duration from the
    /// call on `CLOCK_MONOTONIC` (`FUTEX_WAIT`).
    Relative(u64),
    /// A `struct timespec` at this address: an absolute time on `clock`.
    Absolute(u64, libc::clockid_t),
}

/// Decodes a call the futex filter sent (`nr`, `args`): `futex`, `futex_wait` or
/// `futex_wake`, shared. The kernel's checks that come before it would touch the word are
/// made here too, with its errors: a misaligned word, a zero bitset, unknown flags.
pub(crate) fn decode(nr: i64, args: [u64; 6]) -> Call {
    let addr = args[0];
    if !addr.is_multiple_of(4) {
        return Call::Fail(libc::EINVAL);
    }
    if nr == libc::SYS_futex {
        return decode_futex(addr, args);
    }
    // futex_wait(uaddr, val, mask, flags, timeout, clockid), futex_wake(uaddr, mask, nr, flags)
    let flags = args[3] & u64::from(u32::MAX) & !u64::from(FUTEX2_PRIVATE);
    if flags != FUTEX2_SIZE_U32 {
        return Call::Fail(libc::EINVAL);
    }
    if nr == i64::from(SYS_FUTEX_WAKE) {
        return if args[1] as u32 == 0 {
            Call::Fail(libc::EINVAL)
        } else {
            Call::Wake
        };
    }
    if nr != i64::from(SYS_FUTEX_WAIT) {
        return Call::Fail(libc::ENOSYS);
    }
    let Ok(value) = u32::try_from(args[1]) else {
        return Call::Fail(libc::EINVAL);
    };
    if args[2] as u32 == 0 {
        return Call::Fail(libc::EINVAL);
    }
    let timeout = match (args[4], args[5] as libc::clockid_t) {
        (0, _) => Timeout::Never,
        (at, clock @ (libc::CLOCK_MONOTONIC | libc::CLOCK_REALTIME)) => {
            Timeout::Absolute(at, clock)
        }
        _ => return Call::Fail(libc::EINVAL),
    };
    Call::Wait {
        addr,
        value,
        timeout,
    }
}

/// `futex(uaddr, op, val, timeout, uaddr2, val3)`.
fn decode_futex(addr: u64, args: [u64; 6]) -> Call {
    let op = args[1] as u32 as i32;
    let realtime = op & libc::FUTEX_CLOCK_REALTIME != 0;
    let command = op & !(libc::FUTEX_PRIVATE_FLAG | libc::FUTEX_CLOCK_REALTIME);
    let bitset = args[5] as u32;
    match command {
        // The timeout of FUTEX_WAIT is relative, whatever the clock flag says.
        libc::FUTEX_WAIT => Call::Wait {
            addr,
            value: args[2] as u32,
            timeout: match args[3] {
                0 => Timeout::Never,
                at => Timeout::Relative(at),
            },
        },
        libc::FUTEX_WAIT_BITSET if bitset == 0 => Call::Fail(libc::EINVAL),
        libc::FUTEX_WAIT_BITSET => Call::Wait {
            addr,
            value: args[2] as u32,
            timeout: match args[3] {
                0 => Timeout::Never,
                at if realtime => Timeout::Absolute(at, libc::CLOCK_REALTIME),
                at => Timeout::Absolute(at, libc::CLOCK_MONOTONIC),
            },
        },
        // The clock flag is for waits only.
        _ if realtime => Call::Fail(libc::ENOSYS),
        libc::FUTEX_WAKE_BITSET if bitset == 0 => Call::Fail(libc::EINVAL),
        libc::FUTEX_WAKE
        | libc::FUTEX_WAKE_BITSET
        | libc::FUTEX_REQUEUE
        | libc::FUTEX_CMP_REQUEUE => Call::Wake,
        _ => Call::Fail(libc::ENOSYS),
    }
}

/// When a wait ends: `at` on `clock` (a time since that clock's origin).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Deadline {
    pub clock: libc::clockid_t,
    pub at: Duration,
}

/// The deadline of `timeout` given the `timespec` read at its address (`seconds`,
/// `nanoseconds`) and `CLOCK_MONOTONIC` now; `EINVAL` for a `timespec` the kernel refuses.
pub(crate) fn deadline(
    timeout: Timeout,
    (seconds, nanoseconds): (i64, i64),
    monotonic_now: Duration,
) -> Result<Option<Deadline>, i32> {
    if matches!(timeout, Timeout::Never) {
        return Ok(None);
    }
    let (Ok(seconds), Ok(nanoseconds)) = (u64::try_from(seconds), u32::try_from(nanoseconds))
    else {
        return Err(libc::EINVAL);
    };
    if nanoseconds >= 1_000_000_000 {
        return Err(libc::EINVAL);
    }
    let span = Duration::new(seconds, nanoseconds);
    Ok(Some(match timeout {
        Timeout::Relative(_) => Deadline {
            clock: libc::CLOCK_MONOTONIC,
            at: monotonic_now.saturating_add(span),
        },
        Timeout::Absolute(_, clock) => Deadline { clock, at: span },
        Timeout::Never => unreachable!("returned above"),
    }))
}

/// What to do with a pending (or new) wait after a look at its word.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Verdict {
    /// Keep it pending.
    Pend,
    /// Answer it: a return value, or an errno.
    Answer(Result<i64, i32>),
    /// The caller is gone (its notification with it): drop it.
    Gone,
}

/// A wait's first look at its word (`read`: the word, or the errno of reading it): `EAGAIN`
/// when it is not `value`, `EFAULT` for an address not mapped (the kernel's answers); a word
/// the init may not read (the champion made itself non-dumpable) is answered as a spurious
/// wake-up, the champion's own choice.
pub(crate) fn first_look(read: Result<u32, i32>, value: u32) -> Verdict {
    match read {
        Ok(word) if word == value => Verdict::Pend,
        Ok(_) => Verdict::Answer(Err(libc::EAGAIN)),
        Err(libc::EFAULT) => Verdict::Answer(Err(libc::EFAULT)),
        Err(libc::ESRCH) => Verdict::Gone,
        Err(_) => Verdict::Answer(Ok(0)),
    }
}

/// A later look at a pending wait's word: woken (0) once it changed, or can no longer be
/// read (unmapped meanwhile: a spurious wake-up, the caller looks again).
pub(crate) fn later_look(read: Result<u32, i32>, value: u32) -> Verdict {
    match read {
        Ok(word) if word == value => Verdict::Pend,
        Err(libc::ESRCH) => Verdict::Gone,
        _ => Verdict::Answer(Ok(0)),
    }
}

/// The first pause before a pending wait's word is looked at again.
pub(crate) const FIRST_PAUSE: Duration = Duration::from_micros(50);
/// The longest: how late a waiter may learn of a change that came without a wake (a
/// thread's end in `pthread_join`, a robust lock's owner's death).
pub(crate) const LAST_PAUSE: Duration = Duration::from_millis(4);

/// The pause after `pause`: twice as long, up to [`LAST_PAUSE`].
pub(crate) fn next_pause(pause: Duration) -> Duration {
    pause.saturating_mul(2).min(LAST_PAUSE)
}

/// The first pause of a wait on `(addr, value)` by a thread whose previous wait, if any, was
/// on `previous` (its word, value and pause then) and is gone: a wait interrupted by a
/// freeze or a signal is made again at once on the same word, and goes on where its
/// backoff was (a thread that waits for the whole match, the JVM's launcher joining its
/// main thread, is not looked at from 50 µs again after every thaw).
pub(crate) fn first_pause(
    previous: Option<(u64, u32, Duration)>,
    addr: u64,
    value: u32,
) -> Duration {
    match previous {
        Some((a, v, pause)) if a == addr && v == value => pause,
        _ => FIRST_PAUSE,
    }
}

/// When to look next at a wait whose pause is `pause` and whose deadline is `left` away.
pub(crate) fn next_look(pause: Duration, left: Option<Duration>) -> Duration {
    left.map_or(pause, |left| left.min(pause))
}

#[cfg(test)]
mod tests {
    use super::*;

    const WAIT: u64 = libc::FUTEX_WAIT as u64;
    const WAIT_BITSET: u64 = libc::FUTEX_WAIT_BITSET as u64;
    const REALTIME: u64 = libc::FUTEX_CLOCK_REALTIME as u64;
    const PRIVATE: u64 = libc::FUTEX_PRIVATE_FLAG as u64;

    fn futex(args: [u64; 6]) -> Call {
        decode(libc::SYS_futex, args)
    }

    /// The table of `futex` operations: (name, args, expected).
    #[test]
    fn futex_calls_decode_as_the_kernel_reads_them() {
        let wait = |timeout| Call::Wait {
            addr: 64,
            value: 7,
            timeout,
        };
        let cases: [(&str, [u64; 6], Call); 18] = [
            ("wait", [64, WAIT, 7, 0, 0, 0], wait(Timeout::Never)),
            (
                "wait, timeout",
                [64, WAIT, 7, 800, 0, 0],
                wait(Timeout::Relative(800)),
            ),
            (
                "wait, clock flag: still relative",
                [64, WAIT | REALTIME, 7, 800, 0, 0],
                wait(Timeout::Relative(800)),
            ),
            (
                "wait, high bits of op and val",
                [64, (1 << 40) | WAIT, (1 << 40) | 7, 0, 0, 0],
                wait(Timeout::Never),
            ),
            (
                "wait, private flag (never sent, read the same)",
                [64, WAIT | PRIVATE, 7, 0, 0, 0],
                wait(Timeout::Never),
            ),
            (
                "wait_bitset",
                [64, WAIT_BITSET, 7, 0, 0, u64::MAX],
                wait(Timeout::Never),
            ),
            (
                "wait_bitset, monotonic",
                [64, WAIT_BITSET, 7, 800, 0, 1],
                wait(Timeout::Absolute(800, libc::CLOCK_MONOTONIC)),
            ),
            (
                "wait_bitset, realtime",
                [64, WAIT_BITSET | REALTIME, 7, 800, 0, 1],
                wait(Timeout::Absolute(800, libc::CLOCK_REALTIME)),
            ),
            (
                "wait_bitset, no bit",
                [64, WAIT_BITSET, 7, 0, 0, 1 << 32],
                Call::Fail(libc::EINVAL),
            ),
            (
                "wait, misaligned",
                [66, WAIT, 7, 0, 0, 0],
                Call::Fail(libc::EINVAL),
            ),
            ("wake", [64, 1, 1, 0, 0, 0], Call::Wake),
            ("wake_bitset", [64, 10, 1, 0, 0, 1], Call::Wake),
            (
                "wake_bitset, no bit",
                [64, 10, 1, 0, 0, 0],
                Call::Fail(libc::EINVAL),
            ),
            ("requeue", [64, 3, 1, 1, 128, 0], Call::Wake),
            ("cmp_requeue", [64, 4, 1, 1, 128, 0], Call::Wake),
            (
                "wake, clock flag",
                [64, 1 | REALTIME, 1, 0, 0, 0],
                Call::Fail(libc::ENOSYS),
            ),
            (
                "wake, misaligned",
                [65, 1, 1, 0, 0, 0],
                Call::Fail(libc::EINVAL),
            ),
            (
                "wake_op (never sent)",
                [64, 5, 1, 0, 0, 0],
                Call::Fail(libc::ENOSYS),
            ),
        ];
        for (name, args, expected) in cases {
            assert_eq!(futex(args), expected, "{name}");
        }
    }

    #[test]
    fn futex2_calls_decode_as_the_kernel_reads_them() {
        let wait = i64::from(SYS_FUTEX_WAIT);
        let wake = i64::from(SYS_FUTEX_WAKE);
        let u32_size = FUTEX2_SIZE_U32;
        let monotonic = libc::CLOCK_MONOTONIC as u64;
        let cases: [(&str, i64, [u64; 6], Call); 11] = [
            (
                "wait",
                wait,
                [64, 7, 1, u32_size, 0, 0],
                Call::Wait {
                    addr: 64,
                    value: 7,
                    timeout: Timeout::Never,
                },
            ),
            (
                "wait, timeout",
                wait,
                [64, 7, 1, u32_size, 800, monotonic],
                Call::Wait {
                    addr: 64,
                    value: 7,
                    timeout: Timeout::Absolute(800, libc::CLOCK_MONOTONIC),
                },
            ),
            (
                "wait, other clock",
                wait,
                [64, 7, 1, u32_size, 800, 7],
                Call::Fail(libc::EINVAL),
            ),
            (
                "wait, value past 32 bits",
                wait,
                [64, 1 << 32, 1, u32_size, 0, 0],
                Call::Fail(libc::EINVAL),
            ),
            (
                "wait, no bit",
                wait,
                [64, 7, 0, u32_size, 0, 0],
                Call::Fail(libc::EINVAL),
            ),
            (
                "wait, 64-bit word",
                wait,
                [64, 7, 1, 3, 0, 0],
                Call::Fail(libc::EINVAL),
            ),
            (
                "wait, misaligned",
                wait,
                [62, 7, 1, u32_size, 0, 0],
                Call::Fail(libc::EINVAL),
            ),
            ("wake", wake, [64, 1, 1, u32_size, 0, 0], Call::Wake),
            (
                "wake, private flag (never sent)",
                wake,
                [64, 1, 1, u32_size | u64::from(FUTEX2_PRIVATE), 0, 0],
                Call::Wake,
            ),
            (
                "wake, no bit",
                wake,
                [64, 0, 1, u32_size, 0, 0],
                Call::Fail(libc::EINVAL),
            ),
            (
                "another call",
                i64::from(SYS_FUTEX_WAIT) + 1,
                [64, 1, 1, u32_size, 0, 0],
                Call::Fail(libc::ENOSYS),
            ),
        ];
        for (name, nr, args, expected) in cases {
            assert_eq!(decode(nr, args), expected, "{name}");
        }
    }

    #[test]
    fn deadlines_are_relative_to_now_or_absolute_on_their_clock() {
        let now = Duration::from_secs(100);
        assert_eq!(deadline(Timeout::Never, (-1, -1), now), Ok(None));
        assert_eq!(
            deadline(Timeout::Relative(8), (2, 500), now),
            Ok(Some(Deadline {
                clock: libc::CLOCK_MONOTONIC,
                at: Duration::new(102, 500),
            }))
        );
        assert_eq!(
            deadline(
                Timeout::Absolute(8, libc::CLOCK_REALTIME),
                (2, 999_999_999),
                now
            ),
            Ok(Some(Deadline {
                clock: libc::CLOCK_REALTIME,
                at: Duration::new(2, 999_999_999),
            }))
        );
        for bad in [(-1, 0), (0, -1), (0, 1_000_000_000)] {
            assert_eq!(
                deadline(Timeout::Relative(8), bad, now),
                Err(libc::EINVAL),
                "{bad:?}"
            );
        }
        assert_eq!(
            deadline(Timeout::Relative(8), (i64::MAX, 0), now).map(|d| d.map(|d| d.at)),
            Ok(Some(Duration::from_secs(i64::MAX as u64 + 100)))
        );
    }

    #[test]
    fn a_look_at_the_word_pends_or_answers() {
        assert_eq!(first_look(Ok(7), 7), Verdict::Pend);
        assert_eq!(first_look(Ok(8), 7), Verdict::Answer(Err(libc::EAGAIN)));
        assert_eq!(
            first_look(Err(libc::EFAULT), 7),
            Verdict::Answer(Err(libc::EFAULT))
        );
        assert_eq!(first_look(Err(libc::EPERM), 7), Verdict::Answer(Ok(0)));
        assert_eq!(first_look(Err(libc::ESRCH), 7), Verdict::Gone);
        assert_eq!(later_look(Ok(7), 7), Verdict::Pend);
        assert_eq!(later_look(Ok(0), 7), Verdict::Answer(Ok(0)));
        assert_eq!(later_look(Err(libc::EFAULT), 7), Verdict::Answer(Ok(0)));
        assert_eq!(later_look(Err(libc::EPERM), 7), Verdict::Answer(Ok(0)));
        assert_eq!(later_look(Err(libc::ESRCH), 7), Verdict::Gone);
    }

    #[test]
    fn pauses_double_up_to_the_last_and_end_at_the_deadline() {
        assert_eq!(next_pause(FIRST_PAUSE), FIRST_PAUSE * 2);
        assert_eq!(next_pause(LAST_PAUSE / 2), LAST_PAUSE);
        assert_eq!(next_pause(LAST_PAUSE), LAST_PAUSE);
        assert_eq!(next_pause(Duration::MAX), LAST_PAUSE);
        let mut pause = FIRST_PAUSE;
        let mut looks = 0;
        while pause < LAST_PAUSE {
            pause = next_pause(pause);
            looks += 1;
        }
        assert_eq!(looks, 7, "50 µs to 4 ms");
        let ms = Duration::from_millis;
        assert_eq!(first_pause(None, 64, 7), FIRST_PAUSE);
        assert_eq!(first_pause(Some((64, 7, ms(2))), 64, 7), ms(2));
        assert_eq!(first_pause(Some((68, 7, ms(2))), 64, 7), FIRST_PAUSE);
        assert_eq!(first_pause(Some((64, 8, ms(2))), 64, 7), FIRST_PAUSE);
        assert_eq!(next_look(ms(4), None), ms(4));
        assert_eq!(next_look(ms(4), Some(ms(1))), ms(1));
        assert_eq!(next_look(ms(1), Some(ms(4))), ms(1));
    }
}
