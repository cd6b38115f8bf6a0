//! The filter as it was built before `dispatch.rs`, for the equivalence test and the
//! installation bench only: each table compiled by `seccompiler` (a linear dispatch, one
//! comparison per listed number, its own architecture check), the programs chained
//! (`chain.rs`), then the futex program.

use nix::libc;
use seccompiler::{
    SeccompAction, SeccompCmpArgLen, SeccompCmpOp, SeccompCondition, SeccompFilter, SeccompRule,
    TargetArch,
};

use super::chain;
use super::dispatch::{Op, Table};

/// The filter as it was built before the search: `seccompiler`'s programs, chained.
pub(super) fn reference(
    tables: &[Table],
    futex: &[libc::sock_filter],
) -> Result<Vec<libc::sock_filter>, Box<dyn std::error::Error>> {
    let arch = TargetArch::try_from(std::env::consts::ARCH)?;
    let programs = tables
        .iter()
        .map(|table| {
            let rules = table
                .rules
                .iter()
                .map(|(&nr, rules)| {
                    let rules = rules
                        .iter()
                        .map(|rule| {
                            let conditions = rule
                                .iter()
                                .map(|c| {
                                    let op = match c.op {
                                        Op::Eq => SeccompCmpOp::Eq,
                                        Op::Ne => SeccompCmpOp::Ne,
                                        Op::MaskedEq(m) => SeccompCmpOp::MaskedEq(u64::from(m)),
                                    };
                                    let len = SeccompCmpArgLen::Dword;
                                    SeccompCondition::new(c.arg, len, op, u64::from(c.value))
                                })
                                .collect::<Result<Vec<_>, _>>()?;
                            SeccompRule::new(conditions)
                        })
                        .collect::<Result<Vec<_>, _>>()?;
                    Ok((i64::from(nr), rules))
                })
                .collect::<Result<_, seccompiler::BackendError>>()?;
            let errno = SeccompAction::Errno(table.answer & libc::SECCOMP_RET_DATA);
            let filter = SeccompFilter::new(rules, SeccompAction::Allow, errno, arch)?;
            Ok(chain::of(&filter.try_into()?))
        })
        .collect::<Result<Vec<_>, Box<dyn std::error::Error>>>()?;
    let mut parts = programs.iter().map(Vec::as_slice).collect::<Vec<_>>();
    parts.push(futex);
    Ok(chain::chain(&parts)?)
}
