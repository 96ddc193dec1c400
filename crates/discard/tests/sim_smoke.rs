//! Whole bot games finish for every player count, the same way twice.

use rami_discard::play_bot_game;
use rami_game::{Game, GameConfig, RuleSet};

#[test]
fn bot_games_finish_for_every_player_count() {
    for (rules, range) in [(RuleSet::Rummy500, 2..=7), (RuleSet::Rami, 2..=4)] {
        for players in range {
            for seed in 0..5 {
                let config = GameConfig::new(rules, players, seed);
                let a = play_bot_game(config.clone(), 200_000)
                    .unwrap_or_else(|e| panic!("{rules} {players}p seed {seed}: {e}"));
                let b = play_bot_game(config, 200_000).unwrap();
                assert_eq!(a.game, b.game);
                let o = a.game.outcome().unwrap();
                eprintln!(
                    "{rules} {players}p seed {seed}: hands {} turns {} actions {} winners {:?} totals {:?}",
                    a.game.hand_number(),
                    a.game.turns(),
                    a.actions,
                    o.winners,
                    o.totals
                );
            }
        }
    }
}
