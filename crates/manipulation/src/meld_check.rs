//! The must-meld check of Remind-with-hint (Manipulation, Shanghai): "could the
//! player who wants to draw have put something down?", asked of the exact move
//! finder with a bounded question, so that no hand can freeze the table.
//!
//! The engine is pure and deterministic, so the bound is not a clock: it is a
//! number of hand cards ([`MeldCheckBudget`]) the finder is given at once. A hand
//! within the budget is asked about whole (the exact answer). A larger hand is
//! asked about through a sub-hand of `budget` cards chosen by a fixed rule (the
//! cards with the most partners first, see [`sub_hand`]): a play found there is a
//! legal play of the whole hand (more hand cards never make a play illegal, and a
//! hint names the cards it puts down), and when none is found the answer is
//! [`MeldCheck::OutOfBudget`]: the rule book's decision is that the draw is then
//! allowed, as when no play exists (docs/RULES.md, "Must meld within a budget").
//!
//! The finder (`rami_solver::solve`) takes no step budget of its own; when it
//! gains one, the budget here should also bound its states.

use rami_cards::Card;
use rami_game::{Hint, RuleSet, Table};
use rami_melds::validate_group;

/// How much the must-meld check may ask of the move finder at once: the number
/// of hand cards it is given. Deterministic: the same position and budget always
/// give the same answer.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct MeldCheckBudget {
    /// Hand cards the finder is asked about at once (a larger hand is asked
    /// about through its `hand_cards` best-connected cards).
    pub hand_cards: usize,
}

impl MeldCheckBudget {
    /// 32 hand cards: more than three times the largest deal of the must-meld
    /// rule sets (Manipulation deals 7, Shanghai 10). Measured with today's
    /// finder: 45-card hands on 15-card tables and 10-20-card hands on 64-70-card
    /// tables took at most 10 ms a question (docs/BENCHMARKS.md, "The must-meld
    /// check"); the budget bounds what a hand that keeps growing can ask.
    pub const DEFAULT: MeldCheckBudget = MeldCheckBudget { hand_cards: 32 };
}

impl Default for MeldCheckBudget {
    fn default() -> Self {
        MeldCheckBudget::DEFAULT
    }
}

/// The answer of the must-meld check.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum MeldCheck {
    /// A legal play exists: the hint the reminder shows.
    Play(Hint),
    /// The finder proved that no play exists (the whole hand was asked about).
    NoPlay,
    /// The hand was larger than the budget and its sub-hand has no play: no play
    /// was found within the budget (the draw is allowed).
    OutOfBudget,
}

impl MeldCheck {
    /// The hint to show, if any.
    pub fn hint(&self) -> Option<&Hint> {
        match self {
            MeldCheck::Play(h) => Some(h),
            _ => None,
        }
    }
}

/// Asks the move finder whether `hand` has a play on `table`, within `budget`,
/// in a game whose deck holds `copies` of each card (`RuleSet::copies`).
/// A table the finder cannot read (never the case for a table the engine
/// accepted) counts as "no play".
pub fn check(
    rules: RuleSet,
    copies: u8,
    table: &Table,
    hand: &[Card],
    budget: MeldCheckBudget,
) -> MeldCheck {
    let whole = hand.len() <= budget.hand_cards;
    let asked: Vec<Card> = if whole {
        hand.to_vec()
    } else {
        sub_hand(rules, table, hand, budget.hand_cards)
    };
    let found = if asked.is_empty() {
        None
    } else {
        rami_solver::solve_with_copies(rules, copies, table, &asked, rami_solver::Goal::Hint)
            .ok()
            .flatten()
    };
    match found {
        Some(play) => MeldCheck::Play(Hint {
            cards: play.played,
            groups: play.changed,
            rearrange: play.rearranged,
            table: play.table,
        }),
        None if whole => MeldCheck::NoPlay,
        None => MeldCheck::OutOfBudget,
    }
}

/// The `size` cards of `hand` most likely to be part of a play, by a fixed rule:
/// each card scores 2 per table group it extends on its own, plus 1 per other
/// hand card of its rank in another suit and per hand card of its suit within two
/// ranks (either way round the ace); higher scores first, ties in hand order.
pub fn sub_hand(rules: RuleSet, table: &Table, hand: &[Card], size: usize) -> Vec<Card> {
    let group_rules = rules.group_rules();
    let mut scored: Vec<(usize, usize, Card)> = hand
        .iter()
        .enumerate()
        .map(|(i, &c)| {
            let extends = table
                .iter()
                .filter(|g| {
                    let mut cards = (*g).clone();
                    cards.push(c);
                    validate_group(&cards, group_rules).is_ok()
                })
                .count();
            let partners = hand
                .iter()
                .enumerate()
                .filter(|&(j, &o)| j != i && partners(c, o))
                .count();
            (2 * extends + partners, i, c)
        })
        .collect();
    scored.sort_by(|a, b| b.0.cmp(&a.0).then(a.1.cmp(&b.1)));
    scored.into_iter().take(size).map(|(_, _, c)| c).collect()
}

/// Two hand cards that could sit in one group: a joker with anything, the same
/// rank in another suit, or the same suit within two ranks (round the ace too).
fn partners(a: Card, b: Card) -> bool {
    if a.is_joker() || b.is_joker() {
        return true;
    }
    let (Some(fa), Some(fb)) = (a.face(), b.face()) else {
        return false;
    };
    if fa.rank() == fb.rank() {
        return fa.suit() != fb.suit();
    }
    if fa.suit() != fb.suit() {
        return false;
    }
    let d = (i32::from(fa.rank().value()) - i32::from(fb.rank().value())).rem_euclid(13);
    d.min(13 - d) <= 2
}
