//! Positions where an earlier hint was not the least disturbing play (most
//! found by `crates/manipulation/tests/finder_hint.rs` against brute force
//! judged by the engine): one hand card was the fewest, but the finder
//! changed two groups where one group was enough; it played more cards than
//! needed, or found no play at all; or its `changed`/`rearranged` did not
//! describe its own table.

mod common;

use common::{cards, check_play, table};
use rami_melds::RuleSet;
use rami_solver::{Goal, solve};

/// (cards, groups changed, rearranged) of the hint.
fn hint(rules: RuleSet, t: &str, h: &str) -> (usize, usize, bool) {
    let (t, h) = (table(t), cards(h));
    let play = solve(rules, &t, &h, Goal::Hint)
        .expect("a valid position")
        .expect("a play");
    check_play(rules, &t, &h, &play);
    (play.count, play.changed.len(), play.rearranged)
}

#[test]
fn carousel_one_card_one_group() {
    // Before: 7C took the set joker's place and the joker went to the run,
    // `*JH QH KH *AH | 7S 7H 7D 7C` (two groups).
    assert_eq!(
        hint(RuleSet::Carousel, "QH KH *AH | 7S 7H 7D *7C", "AH 6S 5H 7C"),
        (1, 1, true)
    );
}

#[test]
fn tahiti_one_card_one_group() {
    // Before: `*6C 7C 8C | 6S 6H 6D | 6H 6D 6C`, the set of four and the
    // loose 6D (two groups).
    assert_eq!(
        hint(RuleSet::Tahiti, "*6C 7C 8C | 6S 6H 6D 6C | 6D", "6C 7S 6H"),
        (1, 1, true)
    );
}

#[test]
fn vatikan_one_card_one_group() {
    // Before: `4H *4D 4C | 2S 3S *4S | 4S 5S 6S`, the run split and the set's
    // joker renamed (two groups).
    assert_eq!(
        hint(RuleSet::Vatikan, "*4S 4H 4C | 2S 3S *4S 5S 6S", "4S 2H 4S"),
        (1, 1, true)
    );
}

#[test]
fn tahiti_hand_copy_of_a_loose_single() {
    // The hand's 7S goes in the run while the loose 7S stays lying. The
    // hint counted loose copies before hand copies, so placing one 7S read
    // as no hand card, and the hint said "no play" while the best play had
    // one (found by finder_hint in session 6).
    assert_eq!(
        hint(RuleSet::Tahiti, "9S 10S JS QS | 8S 8H 8D 8C | 7S", "7S KD"),
        (1, 2, true)
    );
}

#[test]
fn vatikan_hint_when_the_fewest_cards_break_the_copies_rule() {
    // The search's one-card play (the hand's 4S) names the joker for a four
    // whose copies are all down; no renaming mends it, and the restricted
    // search found nothing for the hint, which said "no play" (found by
    // finder_hint in session 6). Then the best play stood in, 3 cards; now
    // the counts below it are tried: 6S alone takes the freed joker,
    // `4H 4D 4C | 4H 4D 4C | 4S *5S 6S` (finder_hint, RAMI_EXACT_N=3,
    // Vatikan case 1533).
    assert_eq!(
        hint(RuleSet::Vatikan, "4S 4H 4D 4C | *4S 4H 4D 4C", "6S 4S 7S"),
        (1, 2, true)
    );
}

#[test]
fn tahiti_freed_joker_stays_in_its_set() {
    // The exact hint's one sweep of the run alone put the freed joker where
    // the rules refuse it and no other layout of that group was tried: the
    // hint moved it to the set, `7S 7H 7D *7C` (two groups). Now the finder
    // on that group alone gives `*9S 10S JS` (finder_hint at
    // RAMI_EXACT_N=10, Tahiti case 3160).
    assert_eq!(
        hint(RuleSet::Tahiti, "7S 7H 7D | 10S JS *QS KS AS | 6H", "QS JH"),
        (1, 1, true)
    );
}

#[test]
fn vatikan_renaming_does_not_widen_a_set_of_groups() {
    // The sweep of the second set alone named its joker QS, which the copies
    // rule refuses; the renaming that mended it renamed the other set's joker
    // too, and that two-group play passed for one of the one-group set, so
    // the one-group play `QH QD *QC | JS QS KS` was never looked for
    // (finder_hint at RAMI_EXACT_N=10, Vatikan case 4269).
    assert_eq!(
        hint(RuleSet::Vatikan, "*QS QD QC | QS QH QD *QC", "KS 9S JS 3S"),
        (2, 1, true)
    );
}

#[test]
fn carousel_table_breaking_the_copies_rule() {
    // Both jokers stand for a card whose two copies lie on the table (a
    // random table: no game makes one), so every legal play renames or moves
    // both. The renaming that mended a one-group play took in the other
    // joker groups, and that play passed for one of a single group with its
    // three groups changed, flagged as not rearranged (`probe car 2 30 10
    // 100 h` #68). Now only plays changing both joker groups are tried.
    let t = "*7H 8H 9H | *9H 10H JH | 7S 7H 7D 7C | KS KH KD KC | 5S 6S 7S 8S \
             | 4H 5H 6H 7H 8H 9H | 2S 2H 2D | AH 2H 3H";
    assert_eq!(
        hint(RuleSet::Carousel, t, "4D 2S 9S 4S 7D JH QD 4C JD 5D"),
        (1, 2, true)
    );
}

#[test]
fn a_renamed_joker_that_splits_a_group_is_a_rearrangement() {
    // The search extends `AH 2H 3H 4H` with 5H; the copies rule then refuses
    // its table (a random one: `*3S` with both 3S down), and the renaming
    // that mends it splits `3S *3H 3D` into `3S 3D 3C` and `*3H 3D *3C`. That
    // play kept the search's "not rearranged" (`probe car 2 30 10 30 h` #23).
    let t = "6S 6H 6D 6C | 4S 4D 4C | AH 2H 3H 4H | 3S *3H 3D | 2H 2D 2C | 7S 7H 7D \
             | *3S 3D 3C | 3S 4S 5S | 6S 6H 6D | 8S 9S 10S JS QS";
    let (cards, _, rearranged) = hint(RuleSet::Carousel, t, "5H 8C AH AC 8C JD KD JH JC 4H");
    assert_eq!(cards, 1);
    assert!(rearranged, "`3S *3H 3D` is split");
}
