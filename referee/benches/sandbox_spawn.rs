//! The cost of the sandbox, layer by layer: spawn time of a trivial champion (a C program
//! that reads one line and exits) bare, with the layers but no jail, in the jail alone, and
//! in the jail with its inner layers (everything `probe(SandboxMode::Auto)` finds).
//! Two figures per configuration: `Champion::spawn` alone (fork, the child's setup, exec),
//! and the whole life (spawn, one line, `finish`: exit, sweep, cgroup removal, uid freed).
//!
//! Run: `scripts/bench-sandbox.sh` (as root, then as `nobody`), or
//! `cargo bench -p referee --bench sandbox_spawn`.

use std::path::PathBuf;
use std::process::Command;
use std::time::{Duration, Instant};

use jail::champion::{Champion, LaunchSpec, Limits};
use jail::sandbox::{probe, SandboxMode};

const WARM_UP: usize = 20;
const ROUNDS: usize = 300;

fn main() {
    // Jailed champions are cloned from a zygote: the referee binary serves as one.
    jail::use_helper(env!("CARGO_BIN_EXE_referee"));
    let dir = std::env::temp_dir().join(format!("referee-bench-sandbox-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let program = build_trivial(&dir);
    // SAFETY: no arguments.
    println!("uid {}", unsafe { nix::libc::geteuid() });
    let off = probe(SandboxMode::Off);
    let auto = probe(SandboxMode::Auto);
    println!("{}", auto.line());
    let cases = [
        ("bare (--sandbox off)", off.plan()),
        ("layers without the jail", auto.plan_with(false, true)),
        ("jail alone", auto.plan_with(true, false)),
        ("jail + landlock + seccomp", auto.plan()),
    ];
    for (name, plan) in cases {
        let limits = Limits {
            sandbox: plan,
            ..Limits::default()
        };
        let (spawn, life) = measure(&program, &dir, &limits);
        println!(
            "  {name:26} spawn: median {:.3} ms, p90 {:.3} ms | spawn + finish: median {:.3} ms, p90 {:.3} ms",
            ms(percentile(&spawn, 50)),
            ms(percentile(&spawn, 90)),
            ms(percentile(&life, 50)),
            ms(percentile(&life, 90)),
        );
    }
    let _ = std::fs::remove_dir_all(&dir);
}

fn measure(
    program: &PathBuf,
    dir: &std::path::Path,
    limits: &Limits,
) -> (Vec<Duration>, Vec<Duration>) {
    let mut spawn = Vec::new();
    let mut life = Vec::new();
    for i in 0..WARM_UP + ROUNDS {
        let case = dir.join(format!("c{i}"));
        let mut spec = LaunchSpec::new(program, case.join("scratch"), dir.join("stderr.txt"));
        spec.limits = limits.clone();
        let start = Instant::now();
        let mut champion = Champion::spawn(&spec).expect("spawn");
        let spawned = start.elapsed();
        champion
            .send("x", Instant::now() + Duration::from_secs(5))
            .expect("send");
        let report = champion.finish(Duration::from_secs(5));
        let lived = start.elapsed();
        assert!(report.fault.is_none(), "{report:?}");
        let _ = std::fs::remove_dir_all(&case);
        if i >= WARM_UP {
            spawn.push(spawned);
            life.push(lived);
        }
    }
    (spawn, life)
}

fn build_trivial(dir: &std::path::Path) -> PathBuf {
    let src = dir.join("trivial.c");
    std::fs::write(
        &src,
        "#include <unistd.h>\nint main(void){char c;while(read(0,&c,1)==1&&c!='\\n');return 0;}\n",
    )
    .unwrap();
    let out = dir.join("trivial");
    let ok = Command::new("cc")
        .args(["-O2", "-o"])
        .arg(&out)
        .arg(&src)
        .status()
        .expect("cc");
    assert!(ok.success());
    // Readable by the champions' uids.
    use std::os::unix::fs::PermissionsExt;
    std::fs::set_permissions(dir, std::fs::Permissions::from_mode(0o755)).unwrap();
    out
}

fn percentile(samples: &[Duration], p: usize) -> Duration {
    let mut sorted = samples.to_vec();
    sorted.sort();
    sorted[(sorted.len() * p / 100).min(sorted.len() - 1)]
}

fn ms(d: Duration) -> f64 {
    d.as_secs_f64() * 1e3
}
