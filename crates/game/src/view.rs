//! What one player may know: [`PlayerView`]. Its types cannot hold another
//! player's hand or the stock order, so a view can be sent as it is.

use crate::{ActionKind, GameConfig, Hint, Seat, Table};
use rami_cards::Card;
use serde::{Deserialize, Serialize};

/// Public facts about one seat.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct PlayerPublic {
    pub cards_in_hand: usize,
    /// Running total (what the rule set calls points).
    pub score: i64,
    /// Rami / Vatikan: has made the first meld this hand.
    pub opened: bool,
    /// Rami: out of the game.
    pub eliminated: bool,
}

/// The view of the game from one seat.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct PlayerView {
    pub config: ViewConfig,
    pub seat: Seat,
    pub hand: Vec<Card>,
    /// The groups (melds) on the table, jokers named.
    pub table: Table,
    /// Rummy 500: who put down each meld of `table` (same order); empty elsewhere.
    pub table_owners: Vec<Seat>,
    /// Discard rule sets: the discard pile, bottom first (the top is last).
    pub discard: Vec<Card>,
    pub stock_count: usize,
    pub players: Vec<PlayerPublic>,
    /// Whose turn it is (`None` once the game is over).
    pub current: Option<Seat>,
    /// What this seat may do now.
    pub legal: Vec<ActionKind>,
    /// 1-based number of the hand being played.
    pub hand_number: u32,
    /// Draws taken this turn (Carousel counts to three; Manipulation to "until you can").
    pub draws_this_turn: u32,
    /// Remind with hint: the hint being shown to this seat, if any.
    pub hint: Option<Hint>,
    /// Rami: until when the current discard may be claimed.
    pub claim_deadline: Option<u64>,
    /// Rami: until when the current player may think.
    pub move_deadline: Option<u64>,
    pub last_hand: Option<HandResult>,
    pub outcome: Option<Outcome>,
}

/// The public part of the configuration (everything but the seed and deck order).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ViewConfig {
    pub rules: crate::RuleSet,
    pub players: usize,
    pub options: crate::Options,
}

impl From<&GameConfig> for ViewConfig {
    fn from(c: &GameConfig) -> Self {
        ViewConfig {
            rules: c.rules,
            players: c.players,
            options: c.options.clone(),
        }
    }
}

/// How a hand ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum HandEnd {
    /// `seat` played their last card.
    WentOut { seat: Seat },
    /// Every player passed in a row.
    Blocked,
    /// Carousel: `seat` knocked.
    Knocked { seat: Seat },
    /// The stock ran out (Carousel's last turns, Rummy 500's third time).
    StockOut,
    /// The host ended the game (Shanghai).
    EndedByHost,
}

/// A bonus in a hand's scoring, for the breakdown on the end-of-hand screen.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Bonus {
    /// Carousel: someone other than the knocker has the fewest points (+10).
    Undercut,
    /// Carousel: emptied the hand (+25).
    GoingOut,
    /// Carousel end of game: reached 150 (+100).
    Reached150,
    /// Carousel end of game: 25 for each hand won.
    HandsWon,
    /// Rami: rami sec doubles every opponent's penalty.
    RamiSec,
}

/// The scoring of one hand, with its breakdown.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct HandResult {
    pub hand: u32,
    pub end: HandEnd,
    /// Winners of the hand (empty: a draw with no winner).
    pub winners: Vec<Seat>,
    /// The cards each seat held at the end (public once the hand is over).
    pub hands_left: Vec<Vec<Card>>,
    /// Points of the cards left in each hand, as the rule set counts them.
    pub hand_points: Vec<i64>,
    /// What this hand adds to each total.
    pub deltas: Vec<i64>,
    pub bonuses: Vec<(Seat, Bonus, i64)>,
    /// Totals after this hand.
    pub totals: Vec<i64>,
}

/// The end of the game.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Outcome {
    /// Winners (several when they share the win; empty for a draw).
    pub winners: Vec<Seat>,
    pub draw: bool,
    pub totals: Vec<i64>,
    pub bonuses: Vec<(Seat, Bonus, i64)>,
}
