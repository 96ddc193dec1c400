//! The sweep against the integer-programming reference on seeded random
//! positions, every ace mode, with and without jokers. Every answer of `solve` is
//! also re-validated (groups, cards, points).
mod common;
#[path = "common/ip.rs"]
mod ip;
#[path = "common/positions.rs"]
mod positions;

use common::check_play;
use ip::Counts;
use positions::Gen;
use rami_cards::Card;
use rami_melds::{AceMode, GroupRules, JokerLimit, RuleSet};
use rami_solver::{Goal, internal, solve};

fn counts_of(
    ace: AceMode,
    one_joker: bool,
    table: &[Vec<Card>],
    hand: &[Card],
    named_fixed: bool,
) -> Counts {
    let mut c = Counts {
        ace,
        one_joker,
        table: [0; 52],
        table_jokers: 0,
        fixed: [0; 52],
        hand: [0; 52],
        hand_jokers: 0,
        weight: [1; 52],
        joker_weight: 1,
        // Named jokers (Carousel here): the copies rule, two decks (what
        // `solve` assumes).
        copies: None,
    };
    let on_table: Vec<usize> = table
        .iter()
        .flatten()
        .filter_map(|c| c.natural_face())
        .map(|f| f.index())
        .collect();
    for card in table.iter().flatten() {
        match (card.natural_face(), card.declared()) {
            (Some(f), _) => c.table[f.index()] += 1,
            (None, Some(f)) if named_fixed && !on_table.contains(&f.index()) => {
                c.fixed[f.index()] += 1
            }
            _ => c.table_jokers += 1,
        }
    }
    for card in hand {
        match card.natural_face() {
            Some(f) => c.hand[f.index()] += 1,
            None => c.hand_jokers += 1,
        }
    }
    c
}

/// One configuration: a public rule set, or (None) the bare sweep with `ace`.
#[allow(clippy::too_many_arguments)]
fn run(
    rules: Option<RuleSet>,
    ace: AceMode,
    jokers: u8,
    one_joker: bool,
    n: usize,
    seed: u64,
    max_table: usize,
    full: bool,
) {
    let group_rules = match rules {
        Some(r) => r.group_rules(),
        None => GroupRules {
            ace,
            jokers: if jokers == 0 {
                JokerLimit::None
            } else if one_joker {
                JokerLimit::One
            } else {
                JokerLimit::AtLeastOneNatural
            },
        },
    };
    let mut g = Gen::new(seed);
    let mut plays = 0;
    // Positions where the strict copies search (Carousel) ran out of its
    // state budget and its play fell below the reference: the one inexact
    // case allowed (a budget that bites is counted as a restricted bite).
    let mut cut_below = 0;
    internal::restricted_caps(true);
    for i in 0..n {
        if i > 0 && i % 1000 == 0 {
            eprintln!("{rules:?} {ace:?} jokers {jokers}: {i} positions agree so far");
        }
        // Mid-game positions; with `full`, one in eight a full two-deck table
        // (about 84 cards on the table, 20 in hand).
        let (t, h) = if full && i % 8 == 7 {
            (84, 20)
        } else {
            (g.rng_range(6, max_table), g.rng_range(1, 12))
        };
        let (table, hand) = g.position(group_rules, jokers, t, h, 0.35);
        let points = i % 3 == 2;
        let mut counts = counts_of(ace, one_joker, &table, &hand, rules.is_some());
        // Named jokers (Carousel here): the copies rule, two decks (what
        // `solve` assumes).
        if rules.is_some_and(|r| r.max_jokers() > 0) {
            counts.copies = Some(2);
        }
        if points && let Some(r) = rules {
            for f in rami_cards::Face::all() {
                counts.weight[f.index()] = r.hand_points(Card::from_face(f)) as i32;
            }
            counts.joker_weight = r.hand_points(Card::JOKER) as i32;
        }
        if std::env::var_os("RAMI_DIFF_TIMES").is_some() {
            eprintln!(
                "case {i}: {} / {}",
                rami_cards::format_table(&table),
                rami_cards::format_cards(&hand)
            );
        }
        let clock = std::time::Instant::now();
        let want = ip::optimum(&counts)
            .unwrap_or_else(|| panic!("reference failed on {table:?} / {hand:?}"));
        let ip_time = clock.elapsed();
        let clock = std::time::Instant::now();
        let got = match rules {
            Some(r) => {
                let goal = if points {
                    Goal::MostPoints
                } else {
                    Goal::MostCards
                };
                let play = solve(r, &table, &hand, goal).expect("valid position");
                if let Some(p) = &play {
                    check_play(r, &table, &hand, p);
                    plays += 1;
                }
                let value = play.map_or(0, |p| {
                    if points {
                        p.points as i32
                    } else {
                        p.count as i32
                    }
                });
                // The value-only entry the benchmark times agrees.
                let optimum = internal::optimum(r, &table, &hand, goal)
                    .expect("valid position")
                    .unwrap_or(0);
                // (It is the unrestricted optimum: with named jokers the
                // copies rule can only lower the play's value.)
                if counts.copies.is_some() {
                    assert!(optimum >= value, "case {i} seed {seed}: optimum alone");
                } else {
                    assert_eq!(optimum, value, "case {i} seed {seed}: optimum alone");
                }
                value
            }
            None => internal::best_value(
                ace,
                one_joker,
                &counts.table,
                counts.table_jokers,
                &counts.hand,
                counts.hand_jokers,
                &counts.weight,
                counts.joker_weight,
            )
            .expect("a valid table lays out"),
        };
        if std::env::var_os("RAMI_DIFF_TIMES").is_some() {
            eprintln!(
                "case {i} ({t}/{h}): ip {ip_time:?} sweep {:?}",
                clock.elapsed()
            );
        }
        let bitten = internal::restricted_caps(true) > 0;
        if got < want && bitten {
            cut_below += 1;
            eprintln!(
                "case {i} seed {seed}: {got} below the reference's {want}, the search cut short by its budget"
            );
            continue;
        }
        assert_eq!(
            got,
            want,
            "case {i} seed {seed}: {:?} table {} hand {}",
            rules,
            rami_cards::format_table(&table),
            rami_cards::format_cards(&hand)
        );
    }
    eprintln!(
        "{rules:?} {ace:?} jokers {jokers}: {n} positions agree ({plays} plays checked) but {cut_below} cut short below the reference"
    );
}

trait RngRange {
    fn rng_range(&mut self, lo: usize, hi: usize) -> usize;
}
impl RngRange for Gen {
    fn rng_range(&mut self, lo: usize, hi: usize) -> usize {
        use rand::Rng;
        self.rng.random_range(lo..=hi)
    }
}

const QUICK_DEFAULT: usize = 30;
/// Positions per configuration of the quick runs: 30, or `RAMI_DIFF_N`.
fn quick() -> usize {
    std::env::var("RAMI_DIFF_N")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(QUICK_DEFAULT)
}

#[test]
fn high_no_jokers() {
    run(
        Some(RuleSet::Manipulation),
        AceMode::High,
        0,
        false,
        quick(),
        1,
        40,
        true,
    );
}
#[test]
fn low_no_jokers() {
    run(
        Some(RuleSet::Shanghai),
        AceMode::Low,
        0,
        false,
        quick(),
        2,
        40,
        true,
    );
}
#[test]
fn either_no_jokers() {
    run(
        Some(RuleSet::Machiavelli),
        AceMode::Either,
        0,
        false,
        quick(),
        3,
        36,
        true,
    );
}
/// Carousel (two decks) against the reference holding the copies rule: the
/// old finder returned plays no renaming mends (case 7, a full table: the
/// engine refuses its play); the strict copies search finds the legal best.
#[test]
fn either_jokers_carousel() {
    run(
        Some(RuleSet::Carousel),
        AceMode::Either,
        2,
        false,
        quick(),
        4,
        24,
        true,
    );
}
/// Carousel's play for `goal`, checked, after exactly one strict copies
/// search (the plain play broke the copies rule) that ended within its
/// budget, with no other cap biting: a play the search proved optimal.
fn proven_by_one_strict_search(
    table: &[Vec<Card>],
    hand: &[Card],
    goal: Goal,
) -> rami_solver::Play {
    internal::restricted_caps(true);
    internal::take_stats();
    let play = solve(RuleSet::Carousel, table, hand, goal).expect("valid position");
    let stats = internal::take_stats();
    let play = play.expect("a play");
    check_play(RuleSet::Carousel, table, hand, &play);
    assert_eq!(
        stats.strict_runs, 1,
        "the plain play breaks the copies rule"
    );
    assert_eq!(
        stats.strict_cut, 0,
        "the strict search ends within its budget"
    );
    assert_eq!(internal::restricted_caps(true), 0);
    play
}

/// A full reachable Carousel table (case 15 of `either_jokers_carousel`)
/// whose plain best play (all 20 cards) breaks the copies rule beyond
/// renaming: the strict search used to spend its whole 2M-state budget
/// proving its play of 19 optimal (cut short, so possibly inexact). The
/// copies ceiling (`copies_ceiling` in `lib.rs`: each joker on the new table
/// needs a copy of its card outside it) is 19, so the first play of 19
/// ends the search, exact: against the reference holding the copies rule.
#[test]
fn carousel_full_table_the_copies_ceiling_proves_the_optimum() {
    let table = rami_cards::parse_table(
        "3C 4C 5C 6C 7C 8C | 9D *10D JD QD KD | *9C 10C JC QC KC | 3H 3D 3C | 8C 9C 10C | 4S 4H 4D 4C | 7H 8H 9H 10H JH | 5S 5H 5D | 6D 7D 8D 9D 10D | AH AD AC | QS QD QC | 6S 7S 8S 9S 10S JS | 5H 6H 7H 8H 9H 10H | 2S 2H 2D 2C | 2S 2H 2D 2C | JS JH JC | AS AD AC | 4S 5S 6S 7S 8S 9S | 3D 4D 5D 6D 7D | QH KH AH",
    )
    .expect("table");
    let hand =
        rami_cards::parse_cards("3H 6H 7C 10D 4H 6C KS 3S KS 5C AS QH 10S KC JD QS 9C KD 8D KH")
            .expect("hand");
    assert!(rami_melds::table_rules::check_copies(&table, 2).is_ok());
    let mut counts = counts_of(AceMode::Either, false, &table, &hand, true);
    counts.copies = Some(2);
    let want = ip::optimum(&counts).expect("reference");
    let play = proven_by_one_strict_search(&table, &hand, Goal::MostCards);
    assert_eq!(play.count as i32, want);
    assert_eq!(want, 19);
}

/// Case 143 of `either_jokers_carousel` at `RAMI_DIFF_N=300`, most points: a
/// full two-deck table where the plain best play breaks the copies rule and
/// no renaming mends it. The copies ceiling (152: keep the least worth
/// natural card, play both jokers) is the optimum, but the strict search
/// found only 150 within its budget (cut): the ace-split branch and bound's
/// leaves all tie at the plain bound and cost hundreds of thousands of
/// states each. The try at the ceiling (`try_at_ceiling` in `lib.rs`: the
/// hand without the cards the ceiling keeps, nothing below it) finds 152
/// first, exact: against the reference holding the copies rule.
#[test]
fn carousel_full_table_most_points_the_try_at_the_ceiling_finds_the_optimum() {
    let table = rami_cards::parse_table(
        "*AS AD AC | 5S 5H 5D 5C | AH *2H 3H | 9S 9H 9C | JS JH JD JC | 3D 4D 5D 6D 7D | AS AH AD AC | 9S 9H 9D 9C | 3S 3H 3D 3C | 8S 8H 8C | KS KH KD KC | 8S 8D 8C | 6S 6H 6D 6C | 2H 2D 2C | 7S 7H 7D 7C | JS JD JC | 10S 10H 10D 10C | 2S 2H 2D 2C | 3C 4C 5C 6C 7C | 4S 5S 6S | 10S 10D 10C | JH QH KH | 4H 5H 6H | 4S 4H 4D 4C",
    )
    .expect("table");
    let hand = rami_cards::parse_cards("QC 8H AS QS QD 10H 2S QC KD QS 7S QH KC QD 9D 3S 7H KS 8D")
        .expect("hand");
    // (Drawn by the differential generator, which does not hold tables to
    // the copies rule: this one is not reachable in a game, the search and
    // the reference take it as it is.)
    let mut counts = counts_of(AceMode::Either, false, &table, &hand, true);
    counts.copies = Some(2);
    for f in rami_cards::Face::all() {
        counts.weight[f.index()] = RuleSet::Carousel.hand_points(Card::from_face(f)) as i32;
    }
    counts.joker_weight = RuleSet::Carousel.hand_points(Card::JOKER) as i32;
    let want = ip::optimum(&counts).expect("reference");
    let play = proven_by_one_strict_search(&table, &hand, Goal::MostPoints);
    assert_eq!(play.points as i32, want);
    assert_eq!(want, 152);
}
#[test]
fn high_jokers() {
    run(None, AceMode::High, 2, false, quick(), 5, 24, true);
}
#[test]
fn low_jokers() {
    run(None, AceMode::Low, 2, false, quick(), 6, 24, true);
}
#[test]
fn either_one_joker_per_group() {
    // Mid-game only: four wild jokers that must go down on a full table (a
    // position Tahiti itself never hands the sweep: its table jokers stay in
    // frozen groups) can take the sweep minutes.
    run(None, AceMode::Either, 4, true, quick(), 7, 18, false);
}

// The long runs of the issue, one per configuration (recorded in
// docs/BENCHMARKS.md, "Move finder"):
// `cargo test -p rami-solver --test differential -- --ignored --nocapture`
#[test]
#[ignore]
fn long_high_no_jokers() {
    run(
        Some(RuleSet::Manipulation),
        AceMode::High,
        0,
        false,
        10_000,
        101,
        40,
        true,
    );
}
#[test]
#[ignore]
fn long_low_no_jokers() {
    run(
        Some(RuleSet::Shanghai),
        AceMode::Low,
        0,
        false,
        10_000,
        103,
        40,
        true,
    );
}
#[test]
#[ignore]
fn long_either_no_jokers() {
    run(
        Some(RuleSet::Machiavelli),
        AceMode::Either,
        0,
        false,
        10_000,
        105,
        36,
        true,
    );
}
#[test]
#[ignore]
fn long_high_jokers() {
    run(None, AceMode::High, 2, false, 10_000, 102, 24, true);
}
#[test]
#[ignore]
fn long_low_jokers() {
    run(None, AceMode::Low, 2, false, 10_000, 104, 24, true);
}
#[test]
#[ignore]
fn long_either_jokers_carousel() {
    run(
        Some(RuleSet::Carousel),
        AceMode::Either,
        2,
        false,
        10_000,
        106,
        24,
        true,
    );
}
#[test]
#[ignore]
fn long_either_one_joker_per_group() {
    run(None, AceMode::Either, 4, true, 10_000, 107, 24, false);
}

/// Hints with jokers (where the hint tries one card and one rebuilt group
/// before the full search): every hint is a valid play, and there is one
/// exactly when there is a best play.
#[test]
fn hints_with_jokers_are_valid_plays() {
    for (rules, seed) in [
        (RuleSet::Carousel, 21),
        (RuleSet::Tahiti, 22),
        (RuleSet::Vatikan, 23),
    ] {
        let mut g = Gen::new(seed);
        for i in 0..quick() * 3 {
            let (t, h) = (g.rng_range(6, 30), g.rng_range(1, 12));
            let (table, hand) = g.position(
                rules.group_rules(),
                rami_solver::deck_jokers(rules) as u8,
                t,
                h,
                0.35,
            );
            let hint = solve(rules, &table, &hand, Goal::Hint).expect("valid position");
            let best = solve(rules, &table, &hand, Goal::MostCards).expect("valid position");
            if let Some(p) = &hint {
                check_play(rules, &table, &hand, p);
            }
            assert_eq!(
                hint.is_some(),
                best.is_some(),
                "case {i} {rules:?}: table {} hand {}",
                rami_cards::format_table(&table),
                rami_cards::format_cards(&hand)
            );
            if let (Some(hp), Some(bp)) = (&hint, &best) {
                assert!(hp.count <= bp.count);
            }
        }
    }
}

/// Strict copies mode at ace-either against the reference with the copies
/// rule: aces of every suit over-represented next to both ends, set and run
/// jokers, one or two copies of each card (see `strict_next_key`).
fn strict_aces(n: usize, seed: u64) {
    let mut state = seed;
    let mut next = |m: u64| {
        state = state
            .wrapping_mul(6_364_136_223_846_793_005)
            .wrapping_add(1_442_695_040_888_963_407);
        (state >> 33) % m
    };
    let mut with_play = 0;
    for case in 0..n {
        let copies = 1 + (case % 2) as u8;
        let (mut table, mut hand) = ([0u8; 52], [0u8; 52]);
        for _ in 0..5 + next(8) {
            let rank = [0, 0, 0, 1, 2, 10, 11, 12][next(8) as usize];
            let f = (next(4) * 13 + rank) as usize;
            if table[f] + hand[f] < copies {
                hand[f] += 1;
            }
        }
        // A table group of three aces now and then (every copy placed).
        if next(3) == 0 {
            for s in 0..3 {
                let f = s * 13;
                if table[f] + hand[f] < copies {
                    table[f] += 1;
                }
            }
        }
        let jokers = 1 + next(3) as u8;
        let got = internal::best_value_strict(AceMode::Either, &table, &hand, jokers, copies);
        let want = ip::optimum(&Counts {
            ace: AceMode::Either,
            one_joker: false,
            table,
            table_jokers: 0,
            fixed: [0; 52],
            hand,
            hand_jokers: jokers,
            weight: [1; 52],
            joker_weight: 1,
            copies: Some(copies),
        });
        assert_eq!(
            got, want,
            "case {case}: copies {copies}, table {table:?}, hand {hand:?}, jokers {jokers}"
        );
        with_play += usize::from(got.is_some_and(|v| v > 0));
    }
    assert!(with_play > n / 2, "{with_play} of {n} with a play");
}

#[test]
fn strict_aces_against_the_reference() {
    strict_aces(200, 21);
}

#[test]
#[ignore]
fn long_strict_aces_against_the_reference() {
    strict_aces(3000, 22);
}
