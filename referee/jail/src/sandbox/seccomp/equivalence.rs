//! The filter against the reference it replaced (`chain.rs`: each table compiled by
//! `seccompiler` with a linear dispatch, the programs chained): the same answer for every
//! architecture the filter knows (native, i386, x32), every syscall number below 1024, and
//! for each number with argument checks, the values its rules compare against, one off,
//! 0, the largest, and with high bits set.

use std::collections::{BTreeMap, BTreeSet};

use nix::libc;

use super::bpf_run::{run, Call};
use super::dispatch::{self, Op, Table};
use super::reference::reference;
use super::{futex, tables};

/// i386's `AUDIT_ARCH_I386`: its numbers are not x86_64's.
const AUDIT_ARCH_I386: u32 = 0x4000_0003;
/// x32 calls come with x86_64's arch and this bit in the number.
const X32: u32 = 0x4000_0000;

/// The values worth trying for each argument some rule of `nr` compares.
fn samples(tables: &[Table], nr: u32) -> BTreeMap<u8, BTreeSet<u64>> {
    let mut values: BTreeMap<u8, BTreeSet<u64>> = BTreeMap::new();
    let mut add = |arg: u8, v: u32| {
        let set = values.entry(arg).or_default();
        let v = u64::from(v);
        for x in [v, v.wrapping_sub(1) & 0xffff_ffff, (v + 1) & 0xffff_ffff] {
            set.extend([x, x | 1 << 32, x | 0xffff_ffff_0000_0000]);
        }
    };
    for rule in tables.iter().filter_map(|t| t.rules.get(&nr)).flatten() {
        for c in rule {
            add(c.arg, c.value);
            if let Op::MaskedEq(mask) = c.op {
                add(c.arg, mask);
                add(c.arg, !mask);
            }
        }
    }
    if futex::NUMBERS.contains(&nr) {
        for op in 0..16u32 {
            for flags in [
                0,
                libc::FUTEX_PRIVATE_FLAG as u32,
                libc::FUTEX_CLOCK_REALTIME as u32,
            ] {
                add(1, op | flags);
            }
        }
        add(3, futex::FUTEX2_PRIVATE);
        add(3, 0);
    }
    // Masked comparisons hold for several bits at once: every two values together.
    for set in values.values_mut() {
        let low = set.iter().map(|v| v & 0xffff_ffff).collect::<Vec<_>>();
        for a in &low {
            for b in &low {
                set.insert(a | b);
            }
        }
        set.extend([0, 0xffff_ffff, u64::MAX]);
    }
    values
}

/// Every argument vector of `nr` to try: each combination of the sampled values.
fn argument_vectors(tables: &[Table], nr: u32) -> Vec<[u64; 6]> {
    let mut vectors = vec![[0u64; 6], [u64::MAX; 6]];
    for (arg, set) in samples(tables, nr) {
        vectors = vectors
            .iter()
            .flat_map(|v| {
                set.iter().map(move |&x| {
                    let mut v = *v;
                    v[usize::from(arg)] = x;
                    v
                })
            })
            .collect();
    }
    vectors
}

/// Every call the comparison covers.
fn calls(tables: &[Table]) -> Vec<Call> {
    let mut calls = Vec::new();
    for nr in 0..1024u32 {
        for (arch, nr) in [
            (futex::AUDIT_ARCH, nr),
            (futex::AUDIT_ARCH, nr | X32),
            (AUDIT_ARCH_I386, nr),
            (0, nr),
        ] {
            for args in argument_vectors(tables, nr & !X32) {
                calls.push(Call { nr, arch, args });
            }
        }
    }
    calls
}

/// The calls whose answers differ, shown.
fn differences(
    new: &[libc::sock_filter],
    old: &[libc::sock_filter],
    calls: &[Call],
) -> Vec<String> {
    calls
        .iter()
        .filter_map(|call| {
            let (n, o) = (run(new, call).0, run(old, call).0);
            (n != o).then(|| format!("{call:x?}: {n:#x}, before {o:#x}"))
        })
        .collect()
}

#[test]
fn the_search_answers_every_call_as_the_chained_programs_did() {
    for deny_shared_memory in [false, true] {
        let tables = tables(deny_shared_memory).unwrap();
        let calls = calls(&tables);
        assert!(calls.len() > 4 * 1024 * 2, "{} calls", calls.len());
        for variant in [futex::Variant::Notify, futex::Variant::Spin] {
            let futex = futex::build(variant).0;
            let new =
                dispatch::compile(futex::AUDIT_ARCH, &tables, &futex::NUMBERS, &futex).unwrap();
            let old = reference(&tables, &futex).unwrap();
            let wrong = differences(&new, &old, &calls);
            assert!(
                wrong.is_empty(),
                "{} of {} calls differ ({variant:?}, shared memory denied: \
                 {deny_shared_memory}), first ones:\n{}",
                wrong.len(),
                calls.len(),
                wrong[..wrong.len().min(10)].join("\n")
            );
        }
    }
}

/// Instructions walked per native number below 1024, all arguments 0: (mean, max).
fn walked(program: &[libc::sock_filter]) -> (f64, usize) {
    let counts = (0..1024u32)
        .map(|nr| {
            let call = Call {
                nr,
                arch: futex::AUDIT_ARCH,
                args: [0; 6],
            };
            run(program, &call).1
        })
        .collect::<Vec<_>>();
    let max = counts.iter().copied().max().unwrap_or(0);
    (
        counts.iter().sum::<usize>() as f64 / counts.len() as f64,
        max,
    )
}

/// What the kernel walks at installation (once per number and architecture) and at each
/// call its cache does not hold: a few instructions, against hundreds before
/// (`cargo test -p jail walks -- --nocapture` prints both).
#[test]
fn the_search_walks_a_few_instructions_per_number() {
    let tables = tables(true).unwrap();
    let futex = futex::build(futex::Variant::Notify).0;
    let new = dispatch::compile(futex::AUDIT_ARCH, &tables, &futex::NUMBERS, &futex).unwrap();
    let old = reference(&tables, &futex).unwrap();
    let (new_mean, new_max) = walked(&new);
    let (old_mean, old_max) = walked(&old);
    eprintln!(
        "instructions: {} (search), {} (chain); walked per number: mean {new_mean:.1}, \
         max {new_max} (search); mean {old_mean:.1}, max {old_max} (chain)",
        new.len(),
        old.len()
    );
    // The architecture check, the number, a search of depth log2(listed) rounded up, a
    // number's longest rule list (fcntl's twelve values, three instructions each), the
    // futex program's own walk.
    assert!(
        new_max <= 64,
        "{new_max} instructions walked for one number"
    );
    assert!(new_mean * 10.0 < old_mean, "{new_mean} against {old_mean}");
}
