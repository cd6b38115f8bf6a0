//! The reference the filter is checked against (tests only): the programs `seccompiler`
//! makes of each table (a linear dispatch, one comparison per listed number) and the futex
//! program, as one: where a program would allow the call, the next one looks at it. This
//! was the filter installed until `dispatch.rs` (the same answers, a binary search).
//!
//! The kernel runs every installed filter, the most recently installed first, and keeps the
//! answer of highest precedence (kill, then an error, then the listener, then allow), the
//! first one found among equals. A chain gives the first answer that is not "allow", its
//! programs taken in that same order; the two agree when every answer of a program but the
//! last is allow, an error, or a kill that every program gives alike (the architecture
//! check each program starts with): [`chain`] refuses anything else.

use nix::libc;

/// The largest program the kernel takes (`BPF_MAXINSNS`).
const MAX_INSNS: usize = 4096;

/// What [`chain`] refuses.
#[derive(Debug, PartialEq, Eq)]
pub enum Unchainable {
    /// A program but the last answers other than allow, an error or a kill.
    Answer(u32),
    /// Longer than the kernel takes.
    Length(usize),
}

impl std::fmt::Display for Unchainable {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Unchainable::Answer(k) => write!(f, "a program answers {k:#x}, not allow or an error"),
            Unchainable::Length(n) => write!(f, "{n} instructions, over the kernel's {MAX_INSNS}"),
        }
    }
}

impl std::error::Error for Unchainable {}

/// `programs` as one program, in the order the kernel would have run them installed one
/// by one: the one installed last first.
pub fn chain(programs: &[&[libc::sock_filter]]) -> Result<Vec<libc::sock_filter>, Unchainable> {
    let total = programs.iter().map(|p| p.len()).sum::<usize>();
    if total > MAX_INSNS {
        return Err(Unchainable::Length(total));
    }
    let ret = (libc::BPF_RET | libc::BPF_K) as u16;
    let mut out = Vec::with_capacity(total);
    for (n, program) in programs.iter().enumerate() {
        let last = n + 1 == programs.len();
        for (i, insn) in program.iter().enumerate() {
            if last || insn.code != ret {
                out.push(*insn);
                continue;
            }
            match insn.k & libc::SECCOMP_RET_ACTION_FULL {
                libc::SECCOMP_RET_ALLOW => out.push(libc::sock_filter {
                    // On to the next program's first instruction.
                    code: (libc::BPF_JMP | libc::BPF_JA) as u16,
                    jt: 0,
                    jf: 0,
                    k: (program.len() - 1 - i) as u32,
                }),
                libc::SECCOMP_RET_ERRNO | libc::SECCOMP_RET_KILL_PROCESS => out.push(*insn),
                _ => return Err(Unchainable::Answer(insn.k)),
            }
        }
    }
    Ok(out)
}

/// The instructions of a program made by `seccompiler`.
pub fn of(program: &seccompiler::BpfProgram) -> Vec<libc::sock_filter> {
    program
        .iter()
        .map(|i| libc::sock_filter {
            code: i.code,
            jt: i.jt,
            jf: i.jf,
            k: i.k,
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ret(k: u32) -> libc::sock_filter {
        libc::sock_filter {
            code: (libc::BPF_RET | libc::BPF_K) as u16,
            jt: 0,
            jf: 0,
            k,
        }
    }

    fn load(k: u32) -> libc::sock_filter {
        libc::sock_filter {
            code: (libc::BPF_LD | libc::BPF_W | libc::BPF_ABS) as u16,
            jt: 0,
            jf: 0,
            k,
        }
    }

    #[test]
    fn an_allow_goes_on_to_the_next_program_and_the_last_is_kept_whole() {
        let errno = libc::SECCOMP_RET_ERRNO | 1;
        let first = [load(0), ret(libc::SECCOMP_RET_ALLOW), ret(errno)];
        let last = [
            ret(libc::SECCOMP_RET_USER_NOTIF),
            ret(libc::SECCOMP_RET_ALLOW),
        ];
        let chained = chain(&[&first, &last]).unwrap();
        assert_eq!(chained.len(), 5);
        assert_eq!(chained[0].k, 0);
        // At index 1 of 3: jump over the one instruction left, to index 3.
        assert_eq!(
            (chained[1].code, chained[1].k),
            ((libc::BPF_JMP | libc::BPF_JA) as u16, 1)
        );
        assert_eq!(chained[2].k, errno);
        assert_eq!(chained[3].k, libc::SECCOMP_RET_USER_NOTIF);
        assert_eq!(chained[4].k, libc::SECCOMP_RET_ALLOW);
    }

    #[test]
    fn a_program_but_the_last_answering_otherwise_or_too_long_is_refused() {
        let notify = [ret(libc::SECCOMP_RET_USER_NOTIF)];
        let allow = [ret(libc::SECCOMP_RET_ALLOW)];
        assert_eq!(
            chain(&[&notify, &allow]),
            Err(Unchainable::Answer(libc::SECCOMP_RET_USER_NOTIF))
        );
        let long = vec![load(0); MAX_INSNS];
        assert_eq!(
            chain(&[&long, &allow]),
            Err(Unchainable::Length(MAX_INSNS + 1))
        );
        // As long as the kernel takes: taken.
        assert_eq!(chain(&[&long[1..], &allow]).unwrap().len(), MAX_INSNS);
        assert_eq!(
            Unchainable::Answer(libc::SECCOMP_RET_USER_NOTIF).to_string(),
            "a program answers 0x7fc00000, not allow or an error"
        );
        assert_eq!(
            Unchainable::Length(4097).to_string(),
            "4097 instructions, over the kernel's 4096"
        );
    }
}
