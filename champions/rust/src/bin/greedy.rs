//! The engine's `greedy` bot as a protocol-speaking champion.

fn main() -> std::process::ExitCode {
    prologin::run(&mut engine::bots::Greedy::new())
}
