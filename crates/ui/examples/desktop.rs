//! Opens the app in a window: `cargo run -p rami-ui --example desktop`.
//! `-- table SEED TURNS [RULES]` opens a table (Manipulation unless RULES names
//! another rule set) after TURNS computer-played turns of the deal SEED (for
//! screenshots of a game in progress).

use rami_bots::{Level, choose_action, fallback};
use rami_game::{Game, GameConfig, RuleSet};

fn main() -> eframe::Result<()> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    if args.first().map(String::as_str) != Some("table") {
        return rami_ui::run_native();
    }
    let number = |i: usize, default: u64| {
        args.get(i)
            .and_then(|a| a.parse::<u64>().ok())
            .unwrap_or(default)
    };
    let rules = args
        .get(3)
        .and_then(|r| r.parse::<RuleSet>().ok())
        .unwrap_or(RuleSet::Manipulation);
    let config = GameConfig::new(rules, 3, number(1, 7));
    let Ok(mut game) = rami_engine::new_game(config) else {
        return rami_ui::run_native();
    };
    let mut turns = number(2, 9);
    while turns > 0 && !game.is_terminal() {
        let Some(seat) = game.current_player() else {
            break;
        };
        let view = game.view(seat);
        let Some(action) = choose_action(&view, Level::Greedy).or_else(|| fallback(&view)) else {
            break;
        };
        if game.apply(seat, action, 0).is_err() {
            let Some(a) = fallback(&view) else { break };
            if game.apply(seat, a, 0).is_err() {
                break;
            }
        }
        if game.current_player() != Some(seat) {
            turns -= 1;
        }
    }
    // Hand the turn to the person: let the computers finish theirs.
    while let Some(seat) = game.current_player().filter(|&s| s != 0) {
        let view = game.view(seat);
        let Some(action) = choose_action(&view, Level::Greedy).or_else(|| fallback(&view)) else {
            break;
        };
        if game.apply(seat, action, 0).is_err() {
            break;
        }
    }
    rami_ui::run_native_with(Some(game))
}
