//! `host` / `join` as a standalone binary (what `rami host` / `rami join` run),
//! for trying nearby play before the subcommands are wired into the app.

use clap::{Parser, Subcommand};
use rami_net::cli::{HostArgs, JoinArgs, run_host, run_join};

#[derive(Parser)]
struct Cli {
    #[command(subcommand)]
    cmd: Cmd,
}

#[derive(Subcommand)]
enum Cmd {
    Host(HostArgs),
    Join(JoinArgs),
}

fn main() -> std::process::ExitCode {
    match Cli::parse().cmd {
        Cmd::Host(a) => run_host(a),
        Cmd::Join(a) => run_join(a),
    }
}
