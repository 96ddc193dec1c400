//! Shared checks for the solver's tests: every answer is re-validated here, with
//! nothing but `rami_melds` and card counting.
#![allow(dead_code)]

use rami_cards::{Card, CardCounts, parse_cards, parse_table};
use rami_melds::{RuleSet, validate_group};
use rami_solver::{Goal, Play, solve};

pub fn cards(s: &str) -> Vec<Card> {
    parse_cards(s).expect("test notation")
}

pub fn table(s: &str) -> Vec<Vec<Card>> {
    parse_table(s).expect("test notation")
}

/// Panics with a reason if `play` is not a legal play of `hand` on `table`.
pub fn check_play(rules: RuleSet, table: &[Vec<Card>], hand: &[Card], play: &Play) {
    let gr = rules.group_rules();
    assert!(!play.played.is_empty(), "a play puts down a card");
    assert_eq!(play.count, play.played.len());
    let points: u32 = play.played.iter().map(|&c| rules.hand_points(c)).sum();
    assert_eq!(play.points, points, "points");
    let hand_counts =
        CardCounts::from_cards(hand.iter().map(|c| c.in_hand()).collect::<Vec<_>>().iter());
    let played = CardCounts::from_cards(&play.played);
    assert!(
        played.is_subset_of(&hand_counts),
        "played cards come from the hand"
    );
    let before = CardCounts::from_cards(table.iter().flatten());
    let after = CardCounts::from_cards(play.table.iter().flatten());
    assert_eq!(before.plus(&played), after, "cards conserved");
    let loose_before: Vec<Card> = table
        .iter()
        .filter(|g| g.len() == 1)
        .map(|g| g[0])
        .collect();
    for (i, g) in play.table.iter().enumerate() {
        if rules == RuleSet::Tahiti && g.len() == 1 {
            assert!(
                loose_before.iter().any(|c| c.in_hand() == g[0].in_hand()),
                "group {i} is a loose single that was not loose"
            );
            continue;
        }
        if let Err(e) = validate_group(g, gr) {
            panic!("group {i} {:?} invalid: {e}", g);
        }
        assert_eq!(
            &rami_melds::reading_order(g, rules.ace_mode()),
            g,
            "reading order"
        );
    }
    for &c in &play.changed {
        assert!(c < table.len());
    }
    // The table rules the engine holds a play to (joker names and the copies
    // rule of `solve`'s two decks, Vatikan's anchoring, Tahiti's groups).
    if let Err(e) = rami_melds::table_rules::check_table_rules(
        rules,
        table,
        &play.table,
        &play.played,
        rules.max_copies(),
    ) {
        panic!("the engine refuses the play: {e:?}");
    }
    // Groups the play leaves as they were keep their places (when the play
    // made no fewer groups than there were: else the table closes up).
    if play.table.len() >= table.len() {
        for (i, g) in table.iter().enumerate() {
            if !play.changed.contains(&i) {
                let mut a = g.clone();
                let mut b = play.table[i].clone();
                a.sort();
                b.sort();
                assert_eq!(a, b, "unchanged group {i} keeps its place");
            }
        }
    }
    // Untouched groups are still there, unchanged.
    let mut out: Vec<Vec<Card>> = play
        .table
        .iter()
        .map(|g| {
            let mut g = g.clone();
            g.sort();
            g
        })
        .collect();
    for (i, g) in table.iter().enumerate() {
        if play.changed.contains(&i) {
            continue;
        }
        let mut g = g.clone();
        g.sort();
        let k = out.iter().position(|o| *o == g);
        assert!(k.is_some(), "group {i} is not in changed but was changed");
        if let Some(k) = k {
            out.remove(k);
        }
    }
}

pub fn solve_checked(
    rules: RuleSet,
    table: &[Vec<Card>],
    hand: &[Card],
    goal: Goal,
) -> Option<Play> {
    let play = solve(rules, table, hand, goal).expect("valid position");
    if let Some(p) = &play {
        check_play(rules, table, hand, p);
    }
    play
}
