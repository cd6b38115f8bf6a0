//! `slow_rust`: prints a line in its first `jouer` with `println!`, as a contestant's
//! debug print, then loops without calling the API until the referee stops it at its time
//! limit: the Rust kit's champion of the test that every kit keeps what a callback printed
//! before its timeout (`referee/tests/kits/kits2009.rs`).

use prologin::*;

struct Slow;

impl Champion for Slow {
    fn jouer(&mut self, _api: &mut dyn Api) {
        println!("[slow] printed");
        let mut n = 0u64;
        loop {
            n = std::hint::black_box(n.wrapping_add(1));
        }
    }
}

fn main() -> std::process::ExitCode {
    prologin::run(&mut Slow)
}
