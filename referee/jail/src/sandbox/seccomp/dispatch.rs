//! The filter as one classic BPF program whose dispatch is a binary search on the system
//! call number: the architecture check, then a tree of `>=` comparisons over intervals of
//! numbers, each leaf an interval's answer (allow, or an answer whatever the arguments,
//! neighbours answered alike merged) or one listed number's argument checks.
//!
//! A call walks about log2(n) comparisons instead of one per listed number: the kernel runs
//! the filter at every call its action cache does not hold, and at installation it runs it
//! for every number of every architecture to fill that cache (`seccomp_cache_prepare`),
//! which a linear dispatch made a tenth of a trivial match's CPU time.
//!
//! A number's checks are its rules in the order of the tables given: the first rule whose
//! conditions all hold answers; when none does, the futex program (appended whole, it
//! has its own architecture check) answers for the numbers it knows, and every other call
//! is allowed. The numbers above every listed one (x32's, bit 30 set, included) fall in the
//! last interval and are allowed, as numbers no rule names.

use std::collections::{BTreeMap, BTreeSet};

use nix::libc;

/// A comparison of an argument's low 32 bits (the kernel reads every argument compared
/// here as an `int`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Op {
    Eq,
    Ne,
    /// `arg & mask == value & mask`.
    MaskedEq(u32),
}

/// One condition of a rule: argument `arg` (0 to 5) compared with `value`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Cond {
    pub(crate) arg: u8,
    pub(crate) op: Op,
    pub(crate) value: u32,
}

/// A rule holds when all its conditions do (never empty).
pub(crate) type Rule = Vec<Cond>;

/// A table: syscall number to rules, one answer (a `SECCOMP_RET_*` value) for all. No
/// rule: the number is always answered.
pub(crate) struct Table {
    pub(crate) answer: u32,
    pub(crate) rules: BTreeMap<u32, Vec<Rule>>,
}

/// Where a jump goes: the next instruction, or a label placed by [`Insn::At`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Target {
    Next,
    At(usize),
}

/// One instruction before its jumps are resolved.
#[derive(Clone, Copy, Debug)]
enum Insn {
    Load(u32),
    And(u32),
    Ret(u32),
    /// To the label, always (a 32-bit offset).
    Ja(usize),
    /// `code` is `BPF_JEQ` or `BPF_JGE`: to the first target when `A op k`, else to the second.
    Jump(u32, u32, Target, Target),
    At(usize),
}

/// Offset of `nr` in `struct seccomp_data`.
const NR: u32 = 0;
/// Offset of `arch`.
const ARCH: u32 = 4;

/// The low 32 bits of argument `i` (little-endian, as both supported architectures are).
const fn arg(i: u8) -> u32 {
    16 + 8 * i as u32
}

/// The largest program the kernel takes (`BPF_MAXINSNS`).
const MAX_INSNS: usize = 4096;

/// The filter for `arch` (an `AUDIT_ARCH_*` value; any other is killed): `tables` in turn,
/// then `futex` (a whole program, run for `futex_numbers`), then allow.
pub(crate) fn compile(
    arch: u32,
    tables: &[Table],
    futex_numbers: &[u32],
    futex: &[libc::sock_filter],
) -> Result<Vec<libc::sock_filter>, String> {
    let mut labels = 0usize;
    let mut label = || {
        labels += 1;
        labels - 1
    };
    let futex_label = label();
    let mut numbers = BTreeSet::new();
    for table in tables {
        numbers.extend(table.rules.keys().copied());
    }
    numbers.extend(futex_numbers.iter().copied());
    let numbers = numbers.into_iter().collect::<Vec<_>>();

    // Another architecture (i386's numbers are not x86_64's) is killed, as every program
    // of the chain did; the native one jumps over the kill.
    let native = label();
    let mut out = vec![
        Insn::Load(ARCH),
        Insn::Jump(libc::BPF_JEQ, arch, Target::At(native), Target::Next),
        Insn::Ret(libc::SECCOMP_RET_KILL_PROCESS),
        Insn::At(native),
        Insn::Load(NR),
    ];
    let mut tree = Tree {
        tables,
        futex_numbers,
        futex_label,
        label: &mut label,
        out: &mut out,
    };
    let intervals = tree.intervals(&numbers);
    tree.search(&intervals);
    out.push(Insn::At(futex_label));
    let mut program = assemble(&out)?;
    program.extend_from_slice(futex);
    if program.len() > MAX_INSNS {
        return Err(format!(
            "the filter has {} instructions, over the kernel's {MAX_INSNS}",
            program.len()
        ));
    }
    Ok(program)
}

/// Where the search leads for an interval of numbers.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Leaf {
    Allow,
    /// The same answer whatever the arguments.
    Answer(u32),
    /// The number's argument checks.
    Checks(u32),
    /// The futex program.
    Futex,
}

/// The search being written.
struct Tree<'a, F: FnMut() -> usize> {
    tables: &'a [Table],
    futex_numbers: &'a [u32],
    futex_label: usize,
    label: &'a mut F,
    out: &'a mut Vec<Insn>,
}

impl<F: FnMut() -> usize> Tree<'_, F> {
    /// What a listed number gets before its arguments are looked at.
    fn leaf(&self, nr: u32) -> Leaf {
        match self
            .tables
            .iter()
            .find_map(|t| t.rules.get(&nr).map(|r| (t, r)))
        {
            Some((table, rules)) if rules.is_empty() => Leaf::Answer(table.answer),
            Some(_) => Leaf::Checks(nr),
            None => Leaf::Futex,
        }
    }

    /// Every number from 0 up as intervals of one leaf each, by their first number: the
    /// numbers between the listed ones are allowed, and neighbours answered alike whatever
    /// the arguments are one interval.
    fn intervals(&self, numbers: &[u32]) -> Vec<(u32, Leaf)> {
        let mut intervals = vec![(0, Leaf::Allow)];
        let mut push = |start: u32, leaf: Leaf| {
            match intervals.last_mut() {
                Some(last) if last.0 == start => last.1 = leaf,
                _ => intervals.push((start, leaf)),
            }
            if let [.., (_, before), (_, last)] = intervals[..] {
                if before == last && !matches!(last, Leaf::Checks(_)) {
                    intervals.pop();
                }
            }
        };
        for &nr in numbers {
            push(nr, self.leaf(nr));
            if let Some(next) = nr.checked_add(1) {
                push(next, Leaf::Allow);
            }
        }
        intervals
    }

    /// The search over `intervals` (sorted, not empty), the number already in `A`.
    fn search(&mut self, intervals: &[(u32, Leaf)]) {
        if let [(_, leaf)] = intervals {
            match *leaf {
                Leaf::Allow => self.out.push(Insn::Ret(libc::SECCOMP_RET_ALLOW)),
                Leaf::Answer(answer) => self.out.push(Insn::Ret(answer)),
                Leaf::Futex => self.out.push(Insn::Ja(self.futex_label)),
                Leaf::Checks(nr) => self.checks(nr),
            }
            return;
        }
        let (low, high) = intervals.split_at(intervals.len() / 2);
        let right = (self.label)();
        self.out.push(Insn::Jump(
            libc::BPF_JGE,
            high[0].0,
            Target::At(right),
            Target::Next,
        ));
        self.search(low);
        self.out.push(Insn::At(right));
        self.search(high);
    }

    /// The checks of `nr`, in the tables' order, then the futex program or allow.
    fn checks(&mut self, nr: u32) {
        for table in self.tables {
            let Some(rules) = table.rules.get(&nr) else {
                continue;
            };
            if rules.is_empty() {
                self.out.push(Insn::Ret(table.answer));
                return;
            }
            for rule in rules {
                let fail = (self.label)();
                for cond in rule {
                    self.out.push(Insn::Load(arg(cond.arg)));
                    let (t, f) = (Target::Next, Target::At(fail));
                    let jump = match cond.op {
                        Op::Eq => Insn::Jump(libc::BPF_JEQ, cond.value, t, f),
                        Op::Ne => Insn::Jump(libc::BPF_JEQ, cond.value, f, t),
                        Op::MaskedEq(mask) => {
                            self.out.push(Insn::And(mask));
                            Insn::Jump(libc::BPF_JEQ, cond.value & mask, t, f)
                        }
                    };
                    self.out.push(jump);
                }
                self.out.push(Insn::Ret(table.answer));
                self.out.push(Insn::At(fail));
            }
        }
        if self.futex_numbers.contains(&nr) {
            self.out.push(Insn::Ja(self.futex_label));
        } else {
            self.out.push(Insn::Ret(libc::SECCOMP_RET_ALLOW));
        }
    }
}

/// Resolves the labels. A conditional jump reaches 255 instructions: one that must go
/// further jumps to a `ja` placed right after it (a trampoline), found by laying the program
/// out again until no jump is too long: each pass but the last gives a trampoline to one side
/// of a jump at least, and none loses one, so it ends within two passes a jump and one more
/// (a layout that would not is an error, never a hang).
fn assemble(insns: &[Insn]) -> Result<Vec<libc::sock_filter>, String> {
    // Per instruction: whether its first and second targets go through a trampoline.
    let mut far = vec![(false, false); insns.len()];
    for _ in 0..=2 * insns.len() {
        // Index of each instruction and label.
        let mut at = Vec::with_capacity(insns.len());
        let mut places = BTreeMap::new();
        let mut index = 0usize;
        for (i, insn) in insns.iter().enumerate() {
            at.push(index);
            match insn {
                Insn::At(l) => {
                    places.insert(*l, index);
                }
                Insn::Jump(..) => index += 1 + usize::from(far[i].0) + usize::from(far[i].1),
                _ => index += 1,
            }
        }
        let place = |l: &usize| {
            places
                .get(l)
                .copied()
                .ok_or_else(|| format!("label {l} is never placed"))
        };
        let mut grew = false;
        let mut out = Vec::with_capacity(index);
        for (i, insn) in insns.iter().enumerate() {
            let here = at[i];
            let offset = |target: usize, from: usize| {
                target
                    .checked_sub(from + 1)
                    .ok_or_else(|| format!("a jump backwards, from {from} to {target}"))
            };
            let sock = |code: u32, jt: u8, jf: u8, k: u32| libc::sock_filter {
                code: code as u16,
                jt,
                jf,
                k,
            };
            match *insn {
                Insn::At(_) => {}
                Insn::Load(k) => {
                    out.push(sock(libc::BPF_LD | libc::BPF_W | libc::BPF_ABS, 0, 0, k))
                }
                Insn::And(k) => {
                    out.push(sock(libc::BPF_ALU | libc::BPF_AND | libc::BPF_K, 0, 0, k))
                }
                Insn::Ret(k) => out.push(sock(libc::BPF_RET | libc::BPF_K, 0, 0, k)),
                Insn::Ja(l) => {
                    let k = u32::try_from(offset(place(&l)?, here)?).map_err(|e| e.to_string())?;
                    out.push(sock(libc::BPF_JMP | libc::BPF_JA, 0, 0, k));
                }
                Insn::Jump(op, k, t, f) => {
                    let (far_t, far_f) = far[i];
                    // The trampolines, in order, right after the jump.
                    let after = here + 1 + usize::from(far_t) + usize::from(far_f);
                    let target = |t: Target| match t {
                        Target::Next => Ok(after),
                        Target::At(l) => place(&l),
                    };
                    let (to_t, to_f) = (target(t)?, target(f)?);
                    let trampoline_t = here + 1;
                    let trampoline_f = here + 1 + usize::from(far_t);
                    let jt = offset(if far_t { trampoline_t } else { to_t }, here)?;
                    let jf = offset(if far_f { trampoline_f } else { to_f }, here)?;
                    let (Ok(jt), Ok(jf)) = (u8::try_from(jt), u8::try_from(jf)) else {
                        let wider = (far_t || jt > 255, far_f || jf > 255);
                        // A side too long gains a trampoline right after the jump, which
                        // it always reaches: a jump too long with no side left to widen
                        // would never settle.
                        if wider == far[i] {
                            return Err(format!("a jump at {here} too long for a trampoline"));
                        }
                        far[i] = wider;
                        grew = true;
                        out.push(sock(0, 0, 0, 0));
                        continue;
                    };
                    out.push(sock(libc::BPF_JMP | op | libc::BPF_K, jt, jf, k));
                    for (is_far, from, to) in
                        [(far_t, trampoline_t, to_t), (far_f, trampoline_f, to_f)]
                    {
                        if is_far {
                            let k = u32::try_from(offset(to, from)?).map_err(|e| e.to_string())?;
                            out.push(sock(libc::BPF_JMP | libc::BPF_JA, 0, 0, k));
                        }
                    }
                }
            }
        }
        if !grew {
            return Ok(out);
        }
    }
    Err("the jumps' layout does not settle".into())
}

#[cfg(test)]
mod tests {
    use super::super::bpf_run::{run, Call};
    use super::*;

    const ARCH_HERE: u32 = 0xc000_003e;
    const EPERM: u32 = libc::SECCOMP_RET_ERRNO | libc::EPERM as u32;

    fn call(nr: u32, arg0: u64) -> Call {
        Call {
            nr,
            arch: ARCH_HERE,
            args: [arg0, 0, 0, 0, 0, 0],
        }
    }

    fn cond(arg: u8, op: Op, value: u32) -> Cond {
        Cond { arg, op, value }
    }

    /// 100 numbers of ten rules each: the search's jumps span thousands of instructions,
    /// through trampolines; every number still gets its own answers.
    #[test]
    fn long_jumps_go_through_trampolines() {
        let rules = (0..100u32)
            .map(|nr| {
                (
                    nr * 3,
                    (0..10).map(|v| vec![cond(0, Op::Eq, nr + v)]).collect(),
                )
            })
            .collect();
        let table = Table {
            answer: EPERM,
            rules,
        };
        let program = compile(ARCH_HERE, &[table], &[], &[]).unwrap();
        assert!(program.len() > 3000, "{}", program.len());
        for nr in 0..400u32 {
            let listed = nr % 3 == 0 && nr < 300;
            let first = u64::from(nr / 3);
            for (arg, denied) in [(first, listed), (first + 9, listed), (first + 10, false)] {
                let want = if denied {
                    EPERM
                } else {
                    libc::SECCOMP_RET_ALLOW
                };
                assert_eq!(run(&program, &call(nr, arg)).0, want, "{nr}({arg})");
            }
        }
        assert_eq!(
            run(&program, &call(0x4000_0000, 0)).0,
            libc::SECCOMP_RET_ALLOW
        );
        let i386 = Call {
            arch: 0x4000_0003,
            ..call(0, 0)
        };
        assert_eq!(run(&program, &i386).0, libc::SECCOMP_RET_KILL_PROCESS);
    }

    /// The first table that answers wins; a number's rules fall to the futex program only
    /// for the futex numbers; conditions of a rule all hold or it does not answer.
    #[test]
    fn tables_answer_in_order_and_fall_to_the_futex_program_or_allow() {
        let first = Table {
            answer: libc::SECCOMP_RET_ERRNO | 1,
            rules: BTreeMap::from([(5, vec![vec![cond(0, Op::Eq, 7)]])]),
        };
        let second = Table {
            answer: EPERM,
            rules: BTreeMap::from([
                (5, vec![]),
                (
                    9,
                    vec![vec![cond(0, Op::MaskedEq(6), 6), cond(1, Op::Ne, 0)]],
                ),
            ]),
        };
        let futex = [libc::sock_filter {
            code: (libc::BPF_RET | libc::BPF_K) as u16,
            jt: 0,
            jf: 0,
            k: libc::SECCOMP_RET_USER_NOTIF,
        }];
        let program = compile(ARCH_HERE, &[first, second], &[9, 11], &futex).unwrap();
        let answer = |nr, args: [u64; 6]| {
            run(
                &program,
                &Call {
                    nr,
                    arch: ARCH_HERE,
                    args,
                },
            )
            .0
        };
        assert_eq!(answer(5, [7, 0, 0, 0, 0, 0]), libc::SECCOMP_RET_ERRNO | 1);
        assert_eq!(answer(5, [8, 0, 0, 0, 0, 0]), EPERM);
        assert_eq!(answer(9, [0xe, 1, 0, 0, 0, 0]), EPERM);
        assert_eq!(
            answer(9, [0xe, 0, 0, 0, 0, 0]),
            libc::SECCOMP_RET_USER_NOTIF
        );
        assert_eq!(
            answer(9, [0x4, 1, 0, 0, 0, 0]),
            libc::SECCOMP_RET_USER_NOTIF
        );
        assert_eq!(answer(11, [0; 6]), libc::SECCOMP_RET_USER_NOTIF);
        assert_eq!(answer(10, [0; 6]), libc::SECCOMP_RET_ALLOW);
        assert_eq!(answer(0, [0; 6]), libc::SECCOMP_RET_ALLOW);
    }

    #[test]
    fn an_empty_list_allows_and_a_filter_too_long_is_refused() {
        let program = compile(ARCH_HERE, &[], &[], &[]).unwrap();
        assert_eq!(run(&program, &call(1, 0)).0, libc::SECCOMP_RET_ALLOW);
        let rules = (0..1500u32)
            .map(|nr| (nr, vec![vec![cond(0, Op::Eq, 1)]]))
            .collect();
        let table = Table {
            answer: EPERM,
            rules,
        };
        let err = compile(ARCH_HERE, &[table], &[], &[]).unwrap_err();
        assert!(err.contains("over the kernel's 4096"), "{err}");
    }
}
