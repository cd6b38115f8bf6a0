//! The search against its tables read rule by rule (tests only): for tables shaped to reach
//! each corner of `dispatch.rs` (neighbours merged, rules long enough that their jumps need
//! trampolines both ways, masks whose value has bits outside them, numbers at the top of
//! the range), every number from 0 to just past the largest listed, with the x32 bit, and
//! another architecture get the answer the rules give; merged neighbours cost nothing; a
//! filter of exactly the kernel's size is taken.

use std::collections::{BTreeMap, BTreeSet};

use nix::libc;

use super::bpf_run::{run, Call};
use super::dispatch::{compile, Cond, Op, Rule, Table};

const ARCH: u32 = 0xc000_003e;
const X32: u32 = 0x4000_0000;
const EPERM: u32 = libc::SECCOMP_RET_ERRNO | libc::EPERM as u32;
const ENOSYS: u32 = libc::SECCOMP_RET_ERRNO | libc::ENOSYS as u32;
const TRAP: u32 = libc::SECCOMP_RET_TRAP;
/// What the stand-in futex program answers.
const FUTEX: u32 = libc::SECCOMP_RET_USER_NOTIF;

fn cond(arg: u8, op: Op, value: u32) -> Cond {
    Cond { arg, op, value }
}

fn holds(c: &Cond, args: &[u64; 6]) -> bool {
    let a = args[usize::from(c.arg)] as u32;
    match c.op {
        Op::Eq => a == c.value,
        Op::Ne => a != c.value,
        Op::MaskedEq(mask) => a & mask == c.value & mask,
    }
}

/// The answer the tables give, read as their documentation says: another architecture is
/// killed; the first rule whose conditions all hold (or a number with no rule) answers;
/// then the futex program for its numbers, else allow.
fn expected(tables: &[Table], futex_numbers: &[u32], call: &Call) -> u32 {
    if call.arch != ARCH {
        return libc::SECCOMP_RET_KILL_PROCESS;
    }
    for table in tables {
        let Some(rules) = table.rules.get(&call.nr) else {
            continue;
        };
        if rules.is_empty() || rules.iter().any(|r| r.iter().all(|c| holds(c, &call.args))) {
            return table.answer;
        }
    }
    if futex_numbers.contains(&call.nr) {
        FUTEX
    } else {
        libc::SECCOMP_RET_ALLOW
    }
}

/// Values of one argument worth trying against `conds`: each value, one off, its masked
/// form, the mask's other bits set, and with high bits set.
fn candidates(conds: &[&Cond]) -> BTreeSet<u64> {
    let mut set = BTreeSet::from([0, 0xffff_ffff]);
    for c in conds {
        let mut add = |v: u32| {
            set.extend([v, v ^ 1, v.wrapping_add(1)].map(u64::from));
            set.insert(u64::from(v) | 0xffff_ffff_0000_0000);
        };
        add(c.value);
        if let Op::MaskedEq(mask) = c.op {
            add(c.value & mask);
            add((c.value & mask) | !mask);
            add(c.value & !mask);
        }
    }
    set
}

/// For each rule of `nr`: arguments that meet all its conditions, then that vector with
/// each argument it names set to each of its candidates (one condition broken at a time).
fn argument_vectors(tables: &[Table], nr: u32) -> Vec<[u64; 6]> {
    let mut vectors = vec![[0; 6], [u64::MAX; 6]];
    for rule in tables.iter().filter_map(|t| t.rules.get(&nr)).flatten() {
        let mut by_arg: BTreeMap<u8, Vec<&Cond>> = BTreeMap::new();
        for c in rule {
            by_arg.entry(c.arg).or_default().push(c);
        }
        let mut meets = [0u64; 6];
        for (&arg, conds) in &by_arg {
            meets[usize::from(arg)] = candidates(conds)
                .into_iter()
                .find(|&v| conds.iter().all(|c| holds(c, &[v; 6])))
                .expect("each test rule can be met");
        }
        vectors.push(meets);
        for (&arg, conds) in &by_arg {
            for v in candidates(conds) {
                let mut broken = meets;
                broken[usize::from(arg)] = v;
                vectors.push(broken);
            }
        }
    }
    vectors
}

/// Every number from 0 to just past the largest listed below 2048, those around each listed
/// one, their x32 forms, and the largest.
fn numbers(tables: &[Table], futex_numbers: &[u32]) -> BTreeSet<u32> {
    let listed = tables
        .iter()
        .flat_map(|t| t.rules.keys().copied())
        .chain(futex_numbers.iter().copied())
        .collect::<BTreeSet<_>>();
    let top = listed
        .iter()
        .copied()
        .filter(|&n| n < 2048)
        .max()
        .unwrap_or(0);
    let mut numbers = (0..=top + 2).collect::<BTreeSet<_>>();
    for &n in &listed {
        numbers.extend([n.saturating_sub(1), n, n.saturating_add(1), n | X32]);
    }
    numbers.insert(u32::MAX);
    numbers
}

/// The calls of `tables` whose answer is not the rules', shown; and the answers seen.
fn check(tables: &[Table], futex_numbers: &[u32]) -> (Vec<String>, BTreeSet<u32>) {
    let futex = [libc::sock_filter {
        code: (libc::BPF_RET | libc::BPF_K) as u16,
        jt: 0,
        jf: 0,
        k: FUTEX,
    }];
    let program = compile(ARCH, tables, futex_numbers, &futex).unwrap();
    let (mut wrong, mut seen) = (Vec::new(), BTreeSet::new());
    for nr in numbers(tables, futex_numbers) {
        for args in argument_vectors(tables, nr & !X32) {
            for arch in [ARCH, 0x4000_0003, 0] {
                let call = Call { nr, arch, args };
                let (got, want) = (
                    run(&program, &call).0,
                    expected(tables, futex_numbers, &call),
                );
                seen.insert(got);
                if got != want {
                    wrong.push(format!("{call:x?}: {got:#x}, the rules say {want:#x}"));
                }
            }
        }
    }
    (wrong, seen)
}

fn assert_follows_the_rules(tables: &[Table], futex_numbers: &[u32], answers: &[u32]) {
    let (wrong, seen) = check(tables, futex_numbers);
    assert!(
        wrong.is_empty(),
        "{} calls answered otherwise, first ones:\n{}",
        wrong.len(),
        wrong[..wrong.len().min(10)].join("\n")
    );
    for answer in answers {
        assert!(
            seen.contains(answer),
            "no call answered {answer:#x}: {seen:x?}"
        );
    }
}

fn table(answer: u32, rules: impl IntoIterator<Item = (u32, Vec<Rule>)>) -> Table {
    Table {
        answer,
        rules: rules.into_iter().collect(),
    }
}

/// Runs of neighbours answered alike whatever the arguments (in one table and across two),
/// next to neighbours answered otherwise, a number with checks among them, the futex
/// numbers in a run, 0 and the largest number listed.
#[test]
fn neighbours_and_the_ends_of_the_range_answer_as_their_rules() {
    let first = table(
        EPERM,
        (10..=40)
            .map(|nr| (nr, vec![]))
            .chain([(41, vec![vec![cond(0, Op::Eq, 3)]]), (0, vec![])])
            .chain([(u32::MAX - 1, vec![]), (u32::MAX, vec![])]),
    );
    let second = table(
        ENOSYS,
        (42..=50)
            .map(|nr| (nr, vec![]))
            .chain([(20, vec![]), (51, vec![vec![cond(2, Op::Ne, 0)]])]),
    );
    let futex_numbers = (60..=70).chain([41, 51, 52]).collect::<Vec<_>>();
    assert_follows_the_rules(
        &[first, second],
        &futex_numbers,
        &[EPERM, ENOSYS, FUTEX, libc::SECCOMP_RET_ALLOW],
    );
}

/// Rules of a hundred conditions (`==`, `!=`, masked): their jumps to the next rule are too
/// long for one instruction, on the true side (`!=`) and on the false side (`==`); masks
/// whose value has bits outside them compare the masked bits only.
#[test]
fn long_rules_and_masks_answer_as_their_rules() {
    let equal = (0..100u32)
        .map(|i| cond((i % 6) as u8, Op::Eq, 0x1000 + i % 6))
        .collect::<Rule>();
    let unequal = (0..100u32)
        .map(|i| cond((i % 6) as u8, Op::Ne, 0x2000 + i))
        .collect::<Rule>();
    let masked = (0..100u32)
        .map(|i| cond((i % 6) as u8, Op::MaskedEq(0xf0f0), 0x1_5050 + (i % 6)))
        .collect::<Rule>();
    let rules = [
        (100, vec![equal, vec![cond(0, Op::Eq, 7)]]),
        (101, vec![unequal, vec![cond(1, Op::Eq, 8)]]),
        (102, vec![masked]),
        (103, vec![vec![cond(0, Op::MaskedEq(0xf0), 0x130)]]),
    ];
    assert_follows_the_rules(
        &[table(TRAP, rules)],
        &[101, 103],
        &[TRAP, FUTEX, libc::SECCOMP_RET_ALLOW],
    );
}

/// Enough numbers that the search's own jumps need trampolines, two tables over them.
#[test]
fn a_deep_search_answers_as_its_rules() {
    let first = table(
        EPERM,
        (0..120u32).map(|i| {
            (
                i * 3,
                (0..6).map(|v| vec![cond(0, Op::Eq, i + v)]).collect(),
            )
        }),
    );
    let second = table(ENOSYS, (0..60u32).map(|i| (i * 6 + 1, vec![])));
    assert_follows_the_rules(
        &[first, second],
        &[5, 6, 7],
        &[EPERM, ENOSYS, FUTEX, libc::SECCOMP_RET_ALLOW],
    );
}

/// Neighbours answered alike whatever the arguments are one interval of the search: a run
/// of thirty costs what one number costs, answered always or by the futex program.
#[test]
fn neighbours_answered_alike_cost_what_one_number_costs() {
    let length = |numbers: std::ops::RangeInclusive<u32>, futex: &[u32]| {
        let t = table(EPERM, numbers.map(|nr| (nr, vec![])));
        compile(ARCH, &[t], futex, &[]).unwrap().len()
    };
    assert_eq!(length(10..=40, &[]), length(10..=10, &[]));
    let futex = (60..=90).collect::<Vec<_>>();
    assert_eq!(length(10..=40, &futex), length(10..=10, &[60]));
}

/// A filter of exactly the kernel's 4096 instructions is taken; one more is refused.
#[test]
fn a_filter_of_exactly_the_kernels_size_is_taken() {
    let ret = libc::sock_filter {
        code: (libc::BPF_RET | libc::BPF_K) as u16,
        jt: 0,
        jf: 0,
        k: libc::SECCOMP_RET_ALLOW,
    };
    let base = compile(ARCH, &[], &[], &[]).unwrap().len();
    let program = compile(ARCH, &[], &[], &vec![ret; 4096 - base]).unwrap();
    assert_eq!(program.len(), 4096);
    let err = compile(ARCH, &[], &[], &vec![ret; 4097 - base]).unwrap_err();
    assert!(
        err.contains("4097 instructions, over the kernel's 4096"),
        "{err}"
    );
}
