//! The move finder against the engine, on seeded random Vatikan and Tahiti
//! positions: every play `rami_solver::solve` returns (best play by cards and by
//! points, and the hint) is accepted by the engine's own validation. These are
//! the two rule sets whose table rules the sweep does not model by itself
//! (anchored jokers, joker groups and loose singles): the finder checks its plays
//! with a copy of those rules, and this holds the copy to the engine.

#[path = "../../solver/tests/common/positions.rs"]
#[allow(dead_code)]
mod positions;

use positions::Gen;
use rami_cards::{Card, format_cards, format_table};
use rami_game::RuleSet;
use rami_manipulation::proposal;
use rami_solver::{Goal, deck_jokers, solve};
use rand::Rng;

/// A position as `Gen` deals it, and for Tahiti some hand cards turned into
/// loose singles (the table may hold them; a lone joker never lies loose).
fn position(g: &mut Gen, rules: RuleSet) -> (Vec<Vec<Card>>, Vec<Card>) {
    let t = g.rng.random_range(6..=30);
    let h = g.rng.random_range(2..=14);
    let (mut table, mut hand) =
        g.position(rules.group_rules(), deck_jokers(rules) as u8, t, h, 0.5);
    if rules == RuleSet::Tahiti {
        let loose = g.rng.random_range(0..=2usize);
        for _ in 0..loose {
            if hand.len() > 1 {
                let i = g.rng.random_range(0..hand.len());
                if !hand[i].is_joker() {
                    table.push(vec![hand.swap_remove(i)]);
                }
            }
        }
    }
    (table, hand)
}

fn check_all(rules: RuleSet, seed: u64, positions: usize) {
    let mut g = Gen::new(seed);
    for i in 0..positions {
        let (table, hand) = position(&mut g, rules);
        for goal in [Goal::MostCards, Goal::MostPoints, Goal::Hint] {
            let Some(play) = solve(rules, &table, &hand, goal).expect("a valid position") else {
                continue;
            };
            let verdict = proposal::check(rules, &table, &hand, play.table.clone(), false, 2);
            match verdict {
                Ok(accepted) => assert_eq!(
                    accepted.played.len(),
                    play.count,
                    "{rules} case {i} {goal:?}: table {} hand {}",
                    format_table(&table),
                    format_cards(&hand)
                ),
                Err(e) => panic!(
                    "{rules} case {i} {goal:?}: the engine refuses the finder's play: {e}\n\
                     table {}\nhand {}\nplay {}",
                    format_table(&table),
                    format_cards(&hand),
                    format_table(&play.table)
                ),
            }
        }
    }
}

#[test]
fn the_finders_vatikan_plays_are_accepted_by_the_engine() {
    check_all(RuleSet::Vatikan, 41, 300);
}

#[test]
fn the_finders_tahiti_plays_are_accepted_by_the_engine() {
    check_all(RuleSet::Tahiti, 42, 300);
}
