//! The `referee` binary: parse, run, map failures to documented exit codes.

fn main() {
    // The same executable serves as the jails' zygote (crate::jail::zygote).
    referee::jail::zygote::serve_if_zygote();
    let cli = referee::cli::Cli::parse_command_line();
    let result = referee::commands::run(cli);
    // An interrupted run exits from the thread that kills the champions, with code 130.
    referee::interrupt::wait_for_abort();
    if let Err(failure) = result {
        // Errors may quote champion names, paths and record contents.
        let message = format!("{:#}", failure.error);
        eprintln!("error: {}", referee::untrusted::printable(&message));
        std::process::exit(failure.code);
    }
}
