//! protocol.md's champion end, for Rust: [`etat`] (the whole state on one line, encoded by
//! the referee and decoded by a champion), [`Client`] (the [`Api`] of docs/rules.md
//! section 6 spoken over the line protocol, and the callback loop) and [`run`] (a
//! [`Champion`] on the standard streams). The Rust kit (`champions/rust`, crate
//! `prologin`) re-exports it for contestants; the referee uses it to encode `etat` and to
//! run its built-in bots as protocol-speaking champions. One crate for both ends, so that
//! they cannot drift apart; the referee depends on it, never on a kit.

pub mod client;
pub mod etat;

pub use client::{Client, KitError};
pub use engine::bots::Champion;
pub use engine::constants::{self, *};
pub use engine::Api;

use std::fs::File;
use std::io::{BufReader, BufWriter};
use std::os::fd::{AsFd, AsRawFd, RawFd};
use std::process::ExitCode;
use std::sync::atomic::{AtomicBool, Ordering};

extern "C" {
    // POSIX, from the C library std already links; std has no dup2.
    fn dup2(old: RawFd, new: RawFd) -> RawFd;
}

/// Point `target` at what `source` is open on.
fn redirect(source: RawFd, target: RawFd) -> std::io::Result<()> {
    // SAFETY: dup2 on two open descriptors; `target` is a standard descriptor whose users
    // (std's Stdin/Stdout) go through the fd number and so follow the redirection.
    if unsafe { dup2(source, target) } < 0 {
        return Err(std::io::Error::last_os_error());
    }
    Ok(())
}

static TAKEN: AtomicBool = AtomicBool::new(false);

impl Client<BufReader<File>, BufWriter<File>> {
    /// The client on the real stdin and stdout, taken away from the rest of the program
    /// (protocol.md section 8): the protocol moves to private descriptors, fd 1 then points
    /// at stderr and fd 0 at `/dev/null`, so a `println!` lands in the log. The rules of the
    /// board are answered here ([`Client::with_local_rules`]). Only once per process.
    pub fn stdio() -> std::io::Result<Self> {
        Ok(Self::stdio_asking()?.with_local_rules())
    }

    /// [`Client::stdio`], but every rule asked of the referee: the conversation of the
    /// referee's built-in bots, as the records of before hold it.
    pub fn stdio_asking() -> std::io::Result<Self> {
        if TAKEN.swap(true, Ordering::SeqCst) {
            return Err(std::io::Error::other(
                "the standard streams are already taken",
            ));
        }
        let input = std::io::stdin().as_fd().try_clone_to_owned()?;
        let output = std::io::stdout().as_fd().try_clone_to_owned()?;
        redirect(std::io::stderr().as_raw_fd(), std::io::stdout().as_raw_fd())?;
        redirect(
            File::open("/dev/null")?.as_raw_fd(),
            std::io::stdin().as_raw_fd(),
        )?;
        Ok(Client::new(
            BufReader::with_capacity(64 * 1024, File::from(input)),
            BufWriter::new(File::from(output)),
        ))
    }
}

/// Play a match on the standard streams with `champion`; the exit code for `main`. A kit
/// error (the referee's input ends mid-callback, an answer does not parse, an unknown
/// callback) is reported on stderr and exits with 1.
pub fn run(champion: &mut dyn Champion) -> ExitCode {
    play(champion, Client::stdio())
}

/// [`run`], every rule asked of the referee ([`Client::stdio_asking`]): the referee's
/// built-in bots, whose conversations the records of before hold.
pub fn run_asking(champion: &mut dyn Champion) -> ExitCode {
    play(champion, Client::stdio_asking())
}

fn play(
    champion: &mut dyn Champion,
    client: std::io::Result<Client<BufReader<File>, BufWriter<File>>>,
) -> ExitCode {
    let result = client
        .map_err(KitError::Io)
        .and_then(|mut client| client.run(champion));
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("prologin kit: {e}");
            ExitCode::FAILURE
        }
    }
}

/// The seed the referee gives this champion (`PROLOGIN_SEED`, protocol.md section 6); 0
/// when it is missing or malformed.
pub fn seed() -> u64 {
    std::env::var("PROLOGIN_SEED")
        .ok()
        .and_then(|s| s.trim().parse().ok())
        .unwrap_or(0)
}
