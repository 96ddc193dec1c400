//! Hand-made positions with known answers.
mod common;
use common::*;
use rami_melds::RuleSet;
use rami_solver::{Goal, SolveError, solve};

#[test]
fn extends_and_rebuilds() {
    let t = table("5S 6S 7S | 9H 9D 9C");
    let h = cards("8S 9S KD");
    let p = solve_checked(RuleSet::Manipulation, &t, &h, Goal::MostCards).unwrap();
    assert_eq!(p.count, 2);
    let p = solve_checked(RuleSet::Manipulation, &t, &h, Goal::Hint).unwrap();
    assert_eq!(p.count, 1);
    assert_eq!(p.changed.len(), 1);
    assert!(!p.rearranged);
}

#[test]
fn needs_a_split() {
    // 4S needs the run split: 3S 4S 5S + 5S 6S 7S ... no: 3..7 and 4 → 3 4 5 | 4 5? use sets.
    let t = table("7S 7H 7D 7C | 8S 9S 10S");
    let h = cards("6S");
    let p = solve_checked(RuleSet::Manipulation, &t, &h, Goal::Hint).unwrap();
    assert_eq!(p.count, 1);
    let t = table("7S 7H 7D 7C | 8H 9H 10H");
    let h = cards("6H");
    let p = solve_checked(RuleSet::Manipulation, &t, &h, Goal::Hint).unwrap();
    assert_eq!(p.count, 1);
    assert!(p.rearranged);
    assert_eq!(p.changed, vec![0, 1]);
}

#[test]
fn nothing_to_play() {
    let t = table("5S 6S 7S");
    let h = cards("KD 2C");
    assert!(solve_checked(RuleSet::Manipulation, &t, &h, Goal::MostCards).is_none());
    assert!(solve_checked(RuleSet::Manipulation, &t, &h, Goal::Hint).is_none());
}

#[test]
fn ace_modes() {
    let t = table("");
    let h = cards("AS 2S 3S QH KH AH");
    assert_eq!(
        solve_checked(RuleSet::Manipulation, &t, &h, Goal::MostCards)
            .unwrap()
            .count,
        3
    );
    assert_eq!(
        solve_checked(RuleSet::Shanghai, &t, &h, Goal::MostCards)
            .unwrap()
            .count,
        3
    );
    assert_eq!(
        solve_checked(RuleSet::Machiavelli, &t, &h, Goal::MostCards)
            .unwrap()
            .count,
        6
    );
    // Never around the corner.
    let h = cards("KS AS 2S");
    assert!(solve_checked(RuleSet::Machiavelli, &t, &h, Goal::MostCards).is_none());
}

#[test]
fn jokers() {
    let t = table("5H 6H *7H");
    let h = cards("* 9C 9D");
    let p = solve_checked(RuleSet::Carousel, &t, &h, Goal::MostCards).unwrap();
    assert_eq!(p.count, 3);
    // The named joker is freed by its real card.
    let t = table("5H 6H *7H | 2C 3C 4C");
    let h = cards("7H 9D 9S");
    let p = solve_checked(RuleSet::Carousel, &t, &h, Goal::MostCards).unwrap();
    assert_eq!(p.count, 3, "{:?}", p.table);
}

#[test]
fn bad_input() {
    let t = table("5H 6H 8H");
    let e = solve(RuleSet::Manipulation, &t, &cards("2C"), Goal::MostCards).unwrap_err();
    assert!(matches!(e, SolveError::InvalidTable { group: 0, .. }));
    assert!(e.to_string().contains("group 0"));
    let t = table("5H 6H 7H");
    let e = solve(RuleSet::Manipulation, &t, &cards("5H 5H"), Goal::MostCards).unwrap_err();
    assert!(matches!(e, SolveError::ImpossibleCards { .. }), "{e}");
    let e = solve(RuleSet::Rami, &t, &cards("5C"), Goal::MostCards).unwrap_err();
    assert!(matches!(e, SolveError::NotManipulation(RuleSet::Rami)));
}

#[test]
fn tahiti_loose_and_frozen() {
    // A loose single may be used or left.
    let t = table("5H | KC");
    let h = cards("6H 7H");
    let p = solve_checked(RuleSet::Tahiti, &t, &h, Goal::MostCards).unwrap();
    assert_eq!(p.count, 2);
    // A frozen group only grows with hand cards.
    let t = table("5H *6H 7H | 8H");
    let h = cards("9H 10H");
    let p = solve_checked(RuleSet::Tahiti, &t, &h, Goal::MostCards).unwrap();
    // 8H may not join the joker group: 8H 9H 10H makes a run of its own.
    assert_eq!(p.count, 2);
    assert!(
        p.table
            .iter()
            .any(|g| g.len() == 3 && g.contains(&cards("8H")[0])),
        "{:?}",
        p.table
    );
}

/// Carousel: the branch freeing the named joker (the hand holds its real
/// card) is searched first. Here it puts every hand card down, the most any
/// branch can, so the branch keeping the joker (worth two) ends before any
/// sweep: one narrow sweep in all. (Kept first, as before session 6, its own
/// narrow and exact sweeps ran first: 3 sweeps.)
#[test]
fn carousel_searches_the_freed_joker_branch_first() {
    let t = table("3H *4H 5H | 7S 8S 9S");
    let h = cards("4H 6H 10S");
    rami_solver::internal::take_stats();
    let v = rami_solver::internal::optimum(RuleSet::Carousel, &t, &h, Goal::MostCards).unwrap();
    let st = rami_solver::internal::take_stats();
    assert_eq!(v, Some(3));
    assert_eq!(st.beam_sweeps + st.exact_sweeps, 1, "{st:?}");
    let p = solve_checked(RuleSet::Carousel, &t, &h, Goal::MostCards).unwrap();
    assert_eq!(p.count, 3);
}

/// A Carousel hint searches the branch keeping the named joker first: the
/// fewest cards, which freeing (its real card forced down) cannot beat here,
/// so the freed branch ends before any sweep. One sweep either way, but the
/// kept branch's is the small one: 69 states kept first, 123 freed first.
#[test]
fn carousel_hint_searches_the_kept_joker_branch_first() {
    let t = table("3H *4H 5H | 7S 8S 9S");
    let h = cards("4H 6H 10S");
    rami_solver::internal::take_stats();
    let v = rami_solver::internal::optimum(RuleSet::Carousel, &t, &h, Goal::Hint).unwrap();
    let st = rami_solver::internal::take_stats();
    assert!(v.is_some());
    assert_eq!(st.beam_sweeps + st.exact_sweeps, 1, "{st:?}");
    assert!(st.states < 100, "{st:?}");
    let p = solve_checked(RuleSet::Carousel, &t, &h, Goal::Hint).unwrap();
    assert_eq!(p.count, 1);
}
