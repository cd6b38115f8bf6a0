//! What installing the seccomp filter costs: `seccomp(SECCOMP_SET_MODE_FILTER)` timed in a
//! fresh child per sample (a filter cannot be removed), for the filter the jail installs
//! (a binary search on the syscall number), the chained programs it replaced (a linear
//! dispatch: the kernel walks it for every number of every architecture to fill its action
//! cache) and, as the floor, a one-instruction filter that allows everything. The three
//! are sampled in turn, and the medians printed with their ratios.
//!
//! Run: `cargo bench -p jail --bench seccomp_install --features bench-reference`.

use std::io;
use std::time::Duration;

use nix::libc;

const ROUNDS: usize = 400;

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let [search, chain] = jail::seccomp_programs_for_bench()?;
    let floor = vec![libc::sock_filter {
        code: (libc::BPF_RET | libc::BPF_K) as u16,
        jt: 0,
        jf: 0,
        k: libc::SECCOMP_RET_ALLOW,
    }];
    let programs = [
        ("search (installed)", search),
        ("chain (before)", chain),
        ("allow only (floor)", floor),
    ];
    let mut samples = vec![Vec::with_capacity(ROUNDS); programs.len()];
    for _ in 0..ROUNDS {
        for (i, (_, program)) in programs.iter().enumerate() {
            samples[i].push(install_in_child(program)?);
        }
    }
    let medians = samples
        .iter_mut()
        .map(|s| {
            s.sort();
            s[s.len() / 2]
        })
        .collect::<Vec<_>>();
    println!("seccomp() installation, median of {ROUNDS} children each:");
    for ((name, program), median) in programs.iter().zip(&medians) {
        println!(
            "  {name:<20} {:>5} instructions  {:>8.1} µs  ({:.2}x the search)",
            program.len(),
            median.as_secs_f64() * 1e6,
            median.as_secs_f64() / medians[0].as_secs_f64()
        );
    }
    Ok(())
}

/// How long `seccomp()` took to install `program` in a new child.
fn install_in_child(program: &[libc::sock_filter]) -> io::Result<Duration> {
    let mut fds = [0; 2];
    // SAFETY: a two-int array.
    if unsafe { libc::pipe(fds.as_mut_ptr()) } != 0 {
        return Err(io::Error::last_os_error());
    }
    let [read, write] = fds;
    // SAFETY: the bench is single-threaded; the child makes only plain system calls.
    let pid = unsafe { libc::fork() };
    if pid < 0 {
        return Err(io::Error::last_os_error());
    }
    if pid == 0 {
        let prog = libc::sock_fprog {
            len: program.len() as u16,
            filter: program.as_ptr().cast_mut(),
        };
        let mut t = [libc::timespec {
            tv_sec: 0,
            tv_nsec: 0,
        }; 2];
        // SAFETY: plain calls on live locals; the child leaves by `_exit`.
        unsafe {
            libc::prctl(libc::PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0);
            libc::clock_gettime(libc::CLOCK_MONOTONIC, &mut t[0]);
            let r = libc::syscall(libc::SYS_seccomp, libc::SECCOMP_SET_MODE_FILTER, 0, &prog);
            libc::clock_gettime(libc::CLOCK_MONOTONIC, &mut t[1]);
            let ns: i64 = if r == 0 {
                (t[1].tv_sec - t[0].tv_sec) * 1_000_000_000 + (t[1].tv_nsec - t[0].tv_nsec)
            } else {
                -1
            };
            libc::write(write, (&raw const ns).cast(), 8);
            libc::_exit(0);
        }
    }
    let mut ns = 0i64;
    // SAFETY: reads 8 bytes into a live i64, then reaps the child.
    let n = unsafe {
        libc::close(write);
        let n = libc::read(read, (&raw mut ns).cast(), 8);
        libc::close(read);
        libc::waitpid(pid, std::ptr::null_mut(), 0);
        n
    };
    if n != 8 || ns < 0 {
        return Err(io::Error::other("the child could not install the filter"));
    }
    Ok(Duration::from_nanos(ns as u64))
}
