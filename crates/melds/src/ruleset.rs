//! The nine rule sets and the facts about them that group validity and card
//! values depend on.

use crate::{AceMode, GroupRules, JokerLimit};
use rami_cards::Card;
use serde::{Deserialize, Serialize};
use std::fmt;
use std::str::FromStr;

/// The nine rule sets of `RULES.md`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum RuleSet {
    Manipulation,
    Machiavelli,
    Shanghai,
    Guadalupe,
    Carousel,
    Vatikan,
    Tahiti,
    Rummy500,
    Rami,
}

impl RuleSet {
    pub const ALL: [RuleSet; 9] = [
        RuleSet::Manipulation,
        RuleSet::Machiavelli,
        RuleSet::Shanghai,
        RuleSet::Guadalupe,
        RuleSet::Carousel,
        RuleSet::Vatikan,
        RuleSet::Tahiti,
        RuleSet::Rummy500,
        RuleSet::Rami,
    ];

    /// The name used on the command line and in files.
    pub fn name(self) -> &'static str {
        match self {
            RuleSet::Manipulation => "manipulation",
            RuleSet::Machiavelli => "machiavelli",
            RuleSet::Shanghai => "shanghai",
            RuleSet::Guadalupe => "guadalupe",
            RuleSet::Carousel => "carousel",
            RuleSet::Vatikan => "vatikan",
            RuleSet::Tahiti => "tahiti",
            RuleSet::Rummy500 => "rummy500",
            RuleSet::Rami => "rami",
        }
    }

    /// One of the seven rule sets where the table is rebuilt freely (Part 1).
    pub fn is_manipulation(self) -> bool {
        !matches!(self, RuleSet::Rummy500 | RuleSet::Rami)
    }

    pub fn ace_mode(self) -> AceMode {
        match self {
            RuleSet::Manipulation => AceMode::High,
            RuleSet::Shanghai => AceMode::Low,
            _ => AceMode::Either,
        }
    }

    pub fn group_rules(self) -> GroupRules {
        let jokers = match self {
            RuleSet::Manipulation
            | RuleSet::Machiavelli
            | RuleSet::Shanghai
            | RuleSet::Guadalupe => JokerLimit::None,
            RuleSet::Carousel | RuleSet::Vatikan | RuleSet::Rummy500 => {
                JokerLimit::AtLeastOneNatural
            }
            RuleSet::Tahiti => JokerLimit::One,
            RuleSet::Rami => JokerLimit::NoMoreThanNaturals,
        };
        GroupRules {
            ace: self.ace_mode(),
            jokers,
        }
    }

    /// The most jokers the rule set's deck holds.
    pub fn max_jokers(self) -> u8 {
        match self {
            RuleSet::Carousel | RuleSet::Vatikan | RuleSet::Rummy500 => 2,
            RuleSet::Tahiti => 4,
            RuleSet::Rami => 6,
            _ => 0,
        }
    }

    /// How many copies of each card the game's deck holds with `players` at the
    /// table: one deck for two-player Carousel and Rummy 500 below five players.
    pub fn copies(self, players: usize) -> u8 {
        match self {
            RuleSet::Carousel if players == 2 => 1,
            RuleSet::Rummy500 if players < 5 => 1,
            _ => 2,
        }
    }

    /// The most copies of one card the rule set's deck holds (two decks at most).
    pub fn max_copies(self) -> u8 {
        2
    }

    /// What a card left in hand counts at the end of a hand (penalty or, in
    /// Carousel, hand points). Rule sets without card values count 1 a card.
    pub fn hand_points(self, card: Card) -> u32 {
        let Some(rank) = card.rank().filter(|_| !card.is_joker()) else {
            return match self {
                RuleSet::Carousel => 25,
                RuleSet::Tahiti | RuleSet::Rami => 30,
                RuleSet::Rummy500 => 15,
                _ => 1,
            };
        };
        let v = u32::from(rank.value());
        match self {
            RuleSet::Manipulation => match v {
                1 => 15,
                10..=13 => 10,
                _ => 5,
            },
            RuleSet::Machiavelli | RuleSet::Shanghai | RuleSet::Guadalupe => 1,
            // Vatikan has no score; its "points" (for the move finder) are Carousel's.
            RuleSet::Carousel | RuleSet::Vatikan => match v {
                1 => 1,
                11..=13 => 10,
                _ => v,
            },
            RuleSet::Tahiti => match v {
                1 => 11,
                11..=13 => 10,
                _ => v,
            },
            RuleSet::Rummy500 | RuleSet::Rami => match v {
                1 => 15,
                11..=13 => 10,
                _ => v,
            },
        }
    }
}

impl fmt::Display for RuleSet {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// A rule set name that is not one of the nine.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error(
    "unknown rule set `{0}`: expected one of manipulation machiavelli shanghai guadalupe carousel vatikan tahiti rummy500 rami"
)]
pub struct UnknownRuleSet(pub String);

impl FromStr for RuleSet {
    type Err = UnknownRuleSet;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        let lower = s.trim().to_ascii_lowercase();
        RuleSet::ALL
            .into_iter()
            .find(|r| r.name() == lower)
            .ok_or_else(|| UnknownRuleSet(s.to_string()))
    }
}
