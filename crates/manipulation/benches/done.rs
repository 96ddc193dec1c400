//! Validating a Done on a full two-deck table (RULES.md Part 1; target <= 20 us).

use criterion::{Criterion, criterion_group, criterion_main};
use rami_cards::{parse_cards, parse_table};
use rami_game::RuleSet;
use rami_manipulation::proposal;
use std::hint::black_box;

/// 84 cards on the table: both decks' A-K runs of spades and hearts as runs of
/// 3-5, the diamonds and clubs as sets and runs.
const FULL_TABLE: &str = "2S 3S 4S 5S | 6S 7S 8S 9S | 10S JS QS KS AS | \
2S 3S 4S | 5S 6S 7S 8S | 9S 10S JS QS KS AS | \
2H 3H 4H 5H | 6H 7H 8H 9H | 10H JH QH KH AH | \
2H 3H 4H | 5H 6H 7H 8H | 9H 10H JH QH KH AH | \
2D 3D 4D 5D 6D | 7D 8D 9D | 10D JD QD KD | \
2C 3C 4C 5C 6C | 7C 8C 9C | 10C JC QC KC";

fn bench(c: &mut Criterion) {
    let old = parse_table(FULL_TABLE).expect("table");
    let hand =
        parse_cards("AD 7D 2C 9C QD 4D 5C 8D 6C 3D JC KC 10D 9D AC 2D 3C 4C 5D 6D").expect("hand");
    // AD extends the Q-K run of diamonds; 7D moves a card around.
    let mut proposed = old.clone();
    proposed[14].push(parse_cards("AD").expect("card")[0]);
    assert!(
        proposal::check(
            RuleSet::Manipulation,
            &old,
            &hand,
            proposed.clone(),
            false,
            2
        )
        .is_ok()
    );
    let mut refused = old.clone();
    refused[14].push(parse_cards("9D").expect("card")[0]);
    c.bench_function("done/accept/full two-deck table + 20-card hand", |b| {
        b.iter(|| {
            proposal::check(
                RuleSet::Manipulation,
                black_box(&old),
                black_box(&hand),
                black_box(proposed.clone()),
                false,
                2,
            )
        })
    });
    c.bench_function("done/refuse/full two-deck table + 20-card hand", |b| {
        b.iter(|| {
            proposal::check(
                RuleSet::Manipulation,
                black_box(&old),
                black_box(&hand),
                black_box(refused.clone()),
                false,
                2,
            )
        })
    });
}

criterion_group!(benches, bench);
criterion_main!(benches);
