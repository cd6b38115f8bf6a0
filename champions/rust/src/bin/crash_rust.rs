//! `crash_rust`: panics in its first `jouer` (an index out of bounds), as a contestant's
//! bug would: the test of every kit's runtime error (`referee/tests/kits/kit_errors.rs`)
//! checks that the referee records it at once as a crash of that callback, with Rust's
//! message.

use prologin::*;

#[derive(Default)]
struct Crash {
    seen: Vec<i32>,
}

impl Champion for Crash {
    fn jouer(&mut self, api: &mut dyn Api) {
        let turn = api.numero_tour() as usize;
        eprintln!("[crash] jouer tour {turn}");
        self.seen.push(self.seen[turn + 6]);
    }
}

fn main() -> std::process::ExitCode {
    prologin::run(&mut Crash::default())
}
