use rami_bots::{Level, play_game};
use rami_game::{GameConfig, RuleSet};
fn main() {
    let rules: RuleSet = std::env::args().nth(1).unwrap().parse().unwrap();
    let games: u64 = std::env::args().nth(2).unwrap().parse().unwrap();
    let t = std::time::Instant::now();
    for seed in 1..=games {
        let mut game = rami_engine::new_game(GameConfig::new(rules, 4, seed)).expect("config");
        play_game(&mut game, &[Level::Greedy], 200_000);
    }
    eprintln!("{} games in {:?}", games, t.elapsed());
}
