//! The exact move finder of Rami (skeleton; being filled in).

use rami_cards::Card;
use rami_melds::{GroupError, RuleSet};
use serde::{Deserialize, Serialize};

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Goal {
    Hint,
    MostCards,
    MostPoints,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Play {
    pub played: Vec<Card>,
    pub table: Vec<Vec<Card>>,
    pub changed: Vec<usize>,
    pub count: usize,
    pub points: u32,
    pub rearranged: bool,
}

#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum SolveError {
    #[error("group {group} of the table is not valid: {reason}")]
    InvalidTable { group: usize, reason: GroupError },
    #[error("the cards cannot come from the {rules} deck: {card} appears {copies} times")]
    ImpossibleCards {
        rules: RuleSet,
        card: Card,
        copies: usize,
    },
    #[error("{0} is not a manipulation rule set: its table cannot be rebuilt")]
    NotManipulation(RuleSet),
}

pub fn solve(
    _rules: RuleSet,
    _table: &[Vec<Card>],
    _hand: &[Card],
    _goal: Goal,
) -> Result<Option<Play>, SolveError> {
    Ok(None)
}

pub fn best_opening(_rules: RuleSet, _hand: &[Card]) -> Result<Option<Play>, SolveError> {
    Ok(None)
}
