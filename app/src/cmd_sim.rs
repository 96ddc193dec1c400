//! `rami sim --rules R --players N --games G --seed S [--bots L,L,…]`, and the
//! table options of `rami host` (`--claim`: Rami's computers claim discards).

use clap::Args;
use rami_bots::{Level, play_game};
use rami_game::{GameConfig, RuleSet};
use rami_net::cli::TableOptionArgs;
use serde_json::json;
use std::process::ExitCode;
use std::time::Instant;

#[derive(Args)]
pub struct SimArgs {
    /// Rule set.
    #[arg(long)]
    rules: String,
    /// Number of players.
    #[arg(long)]
    players: usize,
    /// Number of games.
    #[arg(long, default_value_t = 1)]
    games: u64,
    /// Seed of the first game; game i uses seed + i.
    #[arg(long, default_value_t = 0)]
    seed: u64,
    /// Computer level of each seat, comma-separated (default: greedy for all).
    #[arg(long, value_delimiter = ',')]
    bots: Vec<String>,
    /// The rule set's table options (the same flags as `rami host`).
    #[command(flatten)]
    table_options: TableOptionArgs,
}

/// A game is cut after this many actions (no real game comes near).
const MAX_ACTIONS: u64 = 200_000;

pub fn run(args: SimArgs) -> ExitCode {
    let rules: RuleSet = match args.rules.parse() {
        Ok(r) => r,
        Err(e) => {
            eprintln!("rami sim: {e}");
            return ExitCode::from(2);
        }
    };
    let levels: Result<Vec<Level>, String> = args.bots.iter().map(|b| b.parse()).collect();
    let levels = match levels {
        Ok(l) => l,
        Err(e) => {
            eprintln!("rami sim: {e}");
            return ExitCode::from(2);
        }
    };
    let options = match args.table_options.options() {
        Ok(o) => o,
        Err(e) => {
            eprintln!("rami sim: {e}");
            return ExitCode::from(2);
        }
    };
    let mut wins = vec![0u64; args.players];
    let started = Instant::now();
    for i in 0..args.games {
        let seed = args.seed.wrapping_add(i);
        let config = GameConfig {
            options: options.clone(),
            ..GameConfig::new(rules, args.players, seed)
        };
        let mut game = match rami_engine::new_game(config) {
            Ok(g) => g,
            Err(e) => {
                eprintln!("rami sim: {e}");
                return ExitCode::from(2);
            }
        };
        let summary = play_game(&mut game, &levels, MAX_ACTIONS);
        for &w in &summary.winners {
            wins[w] += 1;
        }
        let winner = if summary.winners.len() == 1 {
            json!(summary.winners[0])
        } else {
            json!(null)
        };
        println!(
            "{}",
            json!({
                "game": i,
                "seed": seed,
                "winner": winner,
                "winners": summary.winners,
                "draw": summary.draw,
                "scores": summary.scores,
                "turns": summary.turns,
                "claims": summary.claims,
                "finished": summary.finished,
            })
        );
    }
    let seconds = started.elapsed().as_secs_f64();
    let per_second = if seconds > 0.0 {
        args.games as f64 / seconds
    } else {
        0.0
    };
    println!(
        "{}",
        json!({ "games": args.games, "games_per_second": (per_second * 10.0).round() / 10.0, "wins": wins })
    );
    ExitCode::SUCCESS
}
