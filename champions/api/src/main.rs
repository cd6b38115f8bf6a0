//! `loi-api`: writes or checks every kit's API surface from the description
//! (`cargo run -p loi_api -- write`, `-- check`). Exit codes: 0 all agree (or written),
//! 1 a committed file or a hand-written declaration differs, 2 the inputs are wrong.

use clap::{Parser, Subcommand};
use std::path::PathBuf;
use std::process::ExitCode;

#[derive(Parser)]
#[command(about = "The API of 2009 described once: generate or check every kit's API surface")]
struct Cli {
    /// The repository's root (default: the one this program was built from).
    #[arg(long)]
    root: Option<PathBuf>,
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Write every generated file that differs from the description.
    Write,
    /// Fail (exit 1) if a generated file or a hand-written declaration differs.
    Check,
    /// List the generated files and the checked ones, by kit.
    List,
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    let root = cli
        .root
        .unwrap_or_else(|| PathBuf::from(concat!(env!("CARGO_MANIFEST_DIR"), "/../..")));
    let result = match cli.command {
        Command::Write => loi_api::write(&root).map(|written| {
            for path in &written {
                println!("wrote {}", path.display());
            }
            println!("{} file(s) written", written.len());
            ExitCode::SUCCESS
        }),
        Command::Check => loi_api::check(&root).map(|problems| {
            for p in &problems {
                eprintln!("loi-api: {p}");
            }
            if problems.is_empty() {
                println!(
                    "every kit's API surface agrees with {}",
                    loi_api::DESCRIPTION
                );
                ExitCode::SUCCESS
            } else {
                ExitCode::from(1)
            }
        }),
        Command::List => loi_api::Inputs::load(&root).map(|inputs| {
            for f in &inputs.surfaces.files {
                println!("{:8} generated  {} (from {})", f.kit, f.output, f.template);
            }
            for d in &inputs.surfaces.declared {
                println!("{:8} checked    {}", d.kit, d.file);
            }
            ExitCode::SUCCESS
        }),
    };
    result.unwrap_or_else(|e| {
        eprintln!("loi-api: {e}");
        ExitCode::from(2)
    })
}
