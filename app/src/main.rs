//! `rami`: play rummy against the computer, host or join a table nearby, and the
//! scripting commands of `CLI.md` (`check`, `sim`, …).

mod cmd_check;
mod cmd_sim;
mod cmd_solve;
mod play_text;

use clap::{Parser, Subcommand};
use std::process::ExitCode;

#[derive(Parser)]
#[command(
    name = "rami",
    version,
    about = "Rummy the way families play it: against the computer or together nearby."
)]
struct Cli {
    #[command(subcommand)]
    command: Option<Command>,
}

#[derive(Subcommand)]
enum Command {
    /// Play a game against the computer in this terminal (`rami` alone opens the
    /// window, or plays here when there is no display).
    Play(play_text::PlayArgs),
    /// Say whether a table is valid for a rule set: prints {"valid": …}.
    Check {
        /// Rule set: manipulation machiavelli shanghai guadalupe carousel vatikan tahiti rummy500 rami.
        #[arg(long)]
        rules: String,
        /// The table: groups separated by `|`, e.g. "QS KS AS | 7H 7D 7C".
        #[arg(long, allow_hyphen_values = true)]
        table: String,
    },
    /// The best play (or a hint) for a hand on a table: prints one JSON object.
    Solve {
        /// Rule set.
        #[arg(long, required_unless_present = "batch")]
        rules: Option<String>,
        /// The table: groups separated by `|`.
        #[arg(long, allow_hyphen_values = true, default_value = "")]
        table: String,
        /// The hand: cards separated by spaces.
        #[arg(long, allow_hyphen_values = true, default_value = "")]
        hand: String,
        /// hint, most-cards (default) or most-points.
        #[arg(long, default_value = "most-cards")]
        goal: String,
        /// Read JSON lines {"rules","table","hand","goal"} from standard input.
        #[arg(long)]
        batch: bool,
        /// Players at the table (2 to 7), which picks the deck: two-player
        /// Carousel plays with one. Without it, the rule set's largest deck.
        #[arg(long)]
        players: Option<u64>,
    },
    /// Play whole games between computer players and print one JSON line per game.
    Sim(cmd_sim::SimArgs),
    /// Host a table nearby (Wi-Fi or hotspot): prints the join code and runs the game.
    Host(rami_net::cli::HostArgs),
    /// Join a table nearby, found by mDNS or by address (as a computer player for now).
    Join(rami_net::cli::JoinArgs),
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    match cli.command {
        None => match rami_ui::run_native() {
            Ok(()) => ExitCode::SUCCESS,
            // No display (a terminal over SSH, a server): play in the terminal.
            Err(e) => {
                eprintln!("rami: cannot open the window ({e}); playing in the terminal instead");
                play_text::run(play_text::PlayArgs::default())
            }
        },
        Some(Command::Play(args)) => play_text::run(args),
        Some(Command::Check { rules, table }) => cmd_check::run(&rules, &table),
        Some(Command::Sim(args)) => cmd_sim::run(args),
        Some(Command::Solve {
            rules,
            table,
            hand,
            goal,
            batch,
            players,
        }) => {
            let code = if batch {
                let stdin = std::io::stdin();
                cmd_solve::solve_batch(&mut stdin.lock(), &mut std::io::stdout())
            } else {
                let (out, code) = cmd_solve::solve_json(
                    rules.as_deref().unwrap_or(""),
                    &table,
                    &hand,
                    &goal,
                    players,
                );
                println!("{out}");
                if code != 0 {
                    eprintln!("rami solve: {out}");
                }
                code
            };
            ExitCode::from(u8::try_from(code).unwrap_or(1))
        }
        Some(Command::Host(args)) => rami_net::cli::run_host(args),
        Some(Command::Join(args)) => rami_net::cli::run_join(args),
    }
}
