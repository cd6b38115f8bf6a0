//! The `referee` binary: parse, run, map failures to documented exit codes.

fn main() {
    // The same executable serves as the jails' zygote (jail::zygote).
    jail::zygote::serve_if_zygote();
    jail::interrupt::exit_on_broken_pipe();
    // The walks of the champions' processes keep their /proc files open: a seat of many
    // processes holds hundreds of them.
    jail::raise_open_files();
    referee::kits::install();
    let cli = referee::cli::Cli::parse_command_line();
    let result = referee::commands::run(cli);
    // An interrupted run exits from the thread that kills the champions, with code 130.
    jail::interrupt::wait_for_abort();
    if let Err(failure) = result {
        // Errors may quote champion names, paths and record contents.
        let mut message = format!("{:#}", failure.error);
        let full = failure.error.chain().any(|cause| {
            cause
                .downcast_ref::<std::io::Error>()
                .and_then(std::io::Error::raw_os_error)
                .is_some_and(|code| code == 28 || code == 122) // ENOSPC, EDQUOT
        });
        if full {
            message.push_str(
                "; that disk is full (or over quota): free space on it, or write elsewhere \
                 (--out for a match, --results for a tournament); a tournament resumes with \
                 --resume",
            );
        }
        eprintln!("error: {}", jail::untrusted::printable(&message));
        std::process::exit(failure.code);
    }
}
