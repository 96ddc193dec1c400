//! Whole bot games per second, for each discard rule set.

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use rami_discard::play_bot_game;
use rami_game::{GameConfig, RuleSet};
use std::hint::black_box;

const GAMES: u64 = 10;

fn games(c: &mut Criterion) {
    for (rules, players) in [(RuleSet::Rummy500, 4), (RuleSet::Rami, 4)] {
        let mut group = c.benchmark_group(format!("{rules}_{players}p"));
        group.throughput(Throughput::Elements(GAMES));
        group.sample_size(10);
        group.bench_function("bot_games", |b| {
            b.iter(|| {
                for seed in 0..GAMES {
                    let config = GameConfig::new(rules, players, seed);
                    black_box(play_bot_game(config, 1_000_000).ok());
                }
            })
        });
        group.finish();
    }
}

criterion_group!(benches, games);
criterion_main!(benches);
