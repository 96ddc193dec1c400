//! Whole games between greedy computer players per second, per rule set (what
//! `rami sim` does; target >= 5,000 Manipulation games per second on one core).

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use rami_bots::{Level, play_game};
use rami_game::{GameConfig, RuleSet};

fn bench(c: &mut Criterion) {
    let mut group = c.benchmark_group("sim");
    group.throughput(Throughput::Elements(1));
    group.sample_size(20);
    for rules in [
        RuleSet::Manipulation,
        RuleSet::Machiavelli,
        RuleSet::Shanghai,
        RuleSet::Guadalupe,
        RuleSet::Carousel,
        RuleSet::Vatikan,
        RuleSet::Tahiti,
    ] {
        let mut seed = 0u64;
        group.bench_function(format!("{rules}/4 players/whole game"), |b| {
            b.iter(|| {
                seed += 1;
                let mut game =
                    rami_engine::new_game(GameConfig::new(rules, 4, seed)).expect("config");
                play_game(&mut game, &[Level::Greedy], 200_000)
            })
        });
    }
    group.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
