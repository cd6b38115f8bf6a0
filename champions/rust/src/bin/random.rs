//! The engine's `random` bot as a protocol-speaking champion, seeded from `PROLOGIN_SEED`.

fn main() -> std::process::ExitCode {
    prologin::run(&mut engine::bots::Random::new(prologin::seed()))
}
