//! proptest: brute force on small positions, and metamorphic properties.
mod common;
#[path = "common/positions.rs"]
mod positions;

use common::check_play;
use positions::Gen;
use proptest::prelude::*;
use rami_cards::{Card, Face, Rank, Suit};
use rami_melds::{RuleSet, joker_namings, validate_group};
use rami_solver::{Goal, solve};

/// Can `cards` be split wholly into valid groups? (Plain search: first card's group.)
fn splits(cards: &[Card], rules: RuleSet) -> bool {
    let Some((&first, rest)) = cards.split_first() else {
        return true;
    };
    let gr = rules.group_rules();
    let n = rest.len();
    for mask in 0u32..(1 << n) {
        let k = mask.count_ones() as usize;
        if !(2..=12).contains(&k) {
            continue;
        }
        let mut group = vec![first];
        let mut others = Vec::new();
        for (i, &c) in rest.iter().enumerate() {
            if mask & (1 << i) != 0 {
                group.push(c);
            } else {
                others.push(c);
            }
        }
        let ok = if group.contains(&Card::JOKER) {
            !joker_namings(&group, gr).is_empty()
        } else {
            validate_group(&group, gr).is_ok()
        };
        if ok && splits(&others, rules) {
            return true;
        }
    }
    false
}

/// Most hand cards over every subset of the hand.
fn brute_force(rules: RuleSet, table: &[Vec<Card>], hand: &[Card]) -> usize {
    let base: Vec<Card> = table.iter().flatten().copied().collect();
    let mut best = 0;
    for mask in 1u32..(1 << hand.len()) {
        let k = mask.count_ones() as usize;
        if k <= best {
            continue;
        }
        let mut cards = base.clone();
        cards.extend(
            hand.iter()
                .enumerate()
                .filter(|(i, _)| mask & (1 << i) != 0)
                .map(|(_, &c)| c),
        );
        if splits(&cards, rules) {
            best = k;
        }
    }
    best
}

/// The fewest table groups (one or two) that one hand card can go down with, by
/// plain search; `None` when no single card goes down with two groups or fewer.
fn one_card_groups(rules: RuleSet, table: &[Vec<Card>], hand: &[Card]) -> Option<usize> {
    let with = |groups: &[usize], c: Card| {
        let mut cards: Vec<Card> = groups
            .iter()
            .flat_map(|&g| table[g].iter().copied())
            .collect();
        cards.push(c);
        splits(&cards, rules)
    };
    let n = table.len();
    if hand.iter().any(|&c| (0..n).any(|g| with(&[g], c))) {
        return Some(1);
    }
    let pairs = (0..n).flat_map(|a| (a + 1..n).map(move |b| [a, b]));
    pairs
        .into_iter()
        .any(|p| hand.iter().any(|&c| with(&p, c)))
        .then_some(2)
}

fn count(rules: RuleSet, table: &[Vec<Card>], hand: &[Card]) -> usize {
    match solve(rules, table, hand, Goal::MostCards).expect("valid position") {
        Some(p) => {
            check_play(rules, table, hand, &p);
            p.count
        }
        None => 0,
    }
}

const RULES: [RuleSet; 4] = [
    RuleSet::Manipulation,
    RuleSet::Shanghai,
    RuleSet::Machiavelli,
    RuleSet::Carousel,
];

proptest! {
    #![proptest_config(ProptestConfig::with_cases(48))]

    #[test]
    fn matches_brute_force(seed in any::<u64>(), r in 0usize..4) {
        let rules = RULES[r];
        let mut g = Gen::new(seed);
        // Table jokers are left out: the brute force knows nothing of freeing.
        let (table, hand) = g.position(rules.group_rules(), if rules == RuleSet::Carousel { 2 } else { 0 }, 6, 6, 0.0);
        prop_assert_eq!(count(rules, &table, &hand), brute_force(rules, &table, &hand));
        // A hint exists exactly when some play does.
        let hint = solve(rules, &table, &hand, Goal::Hint).expect("valid");
        if let Some(h) = &hint {
            check_play(rules, &table, &hand, h);
        }
        prop_assert_eq!(hint.is_some(), count(rules, &table, &hand) > 0);
    }

    #[test]
    fn an_extra_card_never_lowers_the_optimum(seed in any::<u64>(), r in 0usize..4, extra in 0usize..52) {
        let rules = RULES[r];
        let mut g = Gen::new(seed);
        let (table, hand) = g.position(rules.group_rules(), if rules == RuleSet::Carousel { 2 } else { 0 }, 20, 7, 0.3);
        let card = Card::from_face(Face::from_index(extra).expect("face"));
        let copies = table.iter().flatten().chain(hand.iter()).filter(|&&c| c == card).count();
        prop_assume!(copies < 2);
        let mut more = hand.clone();
        more.push(card);
        prop_assert!(count(rules, &table, &more) >= count(rules, &table, &hand));
    }

    #[test]
    fn permuting_suits_changes_nothing(seed in any::<u64>(), r in 0usize..4, perm in 0usize..24) {
        let rules = RULES[r];
        let mut g = Gen::new(seed);
        let (table, hand) = g.position(rules.group_rules(), if rules == RuleSet::Carousel { 2 } else { 0 }, 20, 7, 0.3);
        let mut order = vec![0usize, 1, 2, 3];
        let mut p = perm;
        let mut map = Vec::new();
        for k in (1..=4).rev() {
            map.push(order.remove(p % k));
            p /= k;
        }
        let swap = |c: Card| -> Card {
            let move_face = |f: Face| Face::new(f.rank(), Suit::from_index(map[f.suit().index()]).expect("suit"));
            match (c.natural_face(), c.declared()) {
                (Some(f), _) => Card::from_face(move_face(f)),
                (None, Some(f)) => Card::named_joker(move_face(f)),
                _ => c,
            }
        };
        let t2: Vec<Vec<Card>> = table.iter().map(|g| g.iter().map(|&c| swap(c)).collect()).collect();
        let h2: Vec<Card> = hand.iter().map(|&c| swap(c)).collect();
        prop_assert_eq!(count(rules, &table, &hand), count(rules, &t2, &h2));
    }

    #[test]
    fn either_is_at_least_high_and_low(seed in any::<u64>()) {
        let mut g = Gen::new(seed);
        let (table, hand) = g.position(RuleSet::Machiavelli.group_rules(), 0, 24, 8, 0.0);
        // Keep the groups valid in all three modes (no ace in a run).
        let table: Vec<Vec<Card>> = table
            .into_iter()
            .filter(|grp| [RuleSet::Manipulation, RuleSet::Shanghai]
                .iter()
                .all(|r| validate_group(grp, r.group_rules()).is_ok()))
            .collect();
        let either = count(RuleSet::Machiavelli, &table, &hand);
        let high = count(RuleSet::Manipulation, &table, &hand);
        let low = count(RuleSet::Shanghai, &table, &hand);
        prop_assert!(either >= high.max(low), "either {} high {} low {}", either, high, low);
    }
}

#[test]
fn ranks_exist() {
    assert!(Rank::new(13).is_some());
}

proptest! {
    // Cheap positions (a 15-card table, 5 cards in hand): more cases, so a
    // wrong card is caught.
    #![proptest_config(ProptestConfig::with_cases(400))]

    #[test]
    fn a_one_card_hint_changes_the_fewest_groups(seed in any::<u64>(), r in 0usize..3) {
        let rules = RULES[r];
        let mut g = Gen::new(seed);
        let (table, hand) = g.position(rules.group_rules(), 0, 15, 5, 0.0);
        let Some(groups) = one_card_groups(rules, &table, &hand) else {
            return Ok(());
        };
        let hint = solve(rules, &table, &hand, Goal::Hint).expect("valid").expect("a play exists");
        check_play(rules, &table, &hand, &hint);
        prop_assert_eq!(hint.count, 1);
        prop_assert_eq!(hint.changed.len(), groups, "hint {:?}", hint);
        // A card that simply extends a group is shown before any rearrangement.
        let extends = hand.iter().any(|&c| table.iter().any(|t| {
            let mut cards = t.clone();
            cards.push(c);
            validate_group(&cards, rules.group_rules()).is_ok()
        }));
        if extends {
            prop_assert!(!hint.rearranged);
        }
    }
}
