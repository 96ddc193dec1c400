//! What players do ([`Action`]) and what the game tells them ([`Event`]).

use crate::{Seat, Table};
use rami_cards::Card;
use serde::{Deserialize, Serialize};

/// One thing a player does. Which actions a rule set accepts, and when, is in
/// `RULES.md`; the others are refused with [`crate::ActionError::NotNow`].
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Action {
    /// Draw from the stock (Carousel: the next of the turn's 1-3 draws).
    Draw,
    /// Stock empty: pass instead of drawing.
    Pass,
    /// Manipulation rule sets: play the private copy of the table. `table` is the
    /// whole proposed table; jokers may be unnamed (`*`) where only one card fits.
    Done { table: Table },
    /// Carousel: play the proposed table and end the hand (5 points or fewer left).
    Knock { table: Table },
    /// "Take back, draw 3" option: the player has started changing the table, so
    /// from now on the turn ends only with `Done` or `GiveUp`.
    TouchTable,
    /// "Take back, draw 3" option: the first tap arms, the second restores the
    /// table and draws up to three penalty cards, ending the turn.
    GiveUp,
    /// Shanghai has no fixed end: the host (seat 0) ends the game.
    EndGame,
    /// Discard rule sets: take the top card of the discard pile.
    TakeDiscard,
    /// Rummy 500: take the card `depth` places below the top (1 = just below the
    /// top; 0 = the top card itself, taken and melded at once) with every card
    /// above it, and meld the dug card at once. `onto: None`: the dug card and
    /// `with` form a new meld; `onto: Some(m)`: the dug card and `with` (may be
    /// empty) are laid off on meld `m`. `with` may hold hand cards and the cards
    /// picked up above the dug card. `name`: the card a dug joker stands for
    /// (needed only when several fit).
    Dig {
        depth: usize,
        with: Vec<Card>,
        onto: Option<usize>,
        #[serde(default)]
        name: Option<rami_cards::Face>,
    },
    /// Discard rule sets: put down new melds from the hand.
    Meld { groups: Table },
    /// Discard rule sets: add hand cards to meld `meld` on the table.
    LayOff { meld: usize, cards: Vec<Card> },
    /// Rami: put the real `card` in place of the joker in meld `meld`; the joker
    /// goes to the hand.
    ExchangeJoker { meld: usize, card: Card },
    /// Discard rule sets: end the turn by discarding `card`.
    Discard { card: Card },
    /// Rami with the Claim option: claim the discard out of turn.
    Claim,
}

/// The kind of an [`Action`], for listing what is legal now.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum ActionKind {
    Draw,
    Pass,
    Done,
    Knock,
    TouchTable,
    GiveUp,
    EndGame,
    TakeDiscard,
    Dig,
    Meld,
    LayOff,
    ExchangeJoker,
    Discard,
    Claim,
}

/// The action's name in plain English, for the engine's own refusals ("Taking
/// the discard is not possible now: …"); the app has its own in each language.
impl std::fmt::Display for ActionKind {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            ActionKind::Draw => "Draw",
            ActionKind::Pass => "Pass",
            ActionKind::Done => "Done",
            ActionKind::Knock => "Knock",
            ActionKind::TouchTable => "Changing the table",
            ActionKind::GiveUp => "Give up",
            ActionKind::EndGame => "Ending the game",
            ActionKind::TakeDiscard => "Taking the discard",
            ActionKind::Dig => "Digging",
            ActionKind::Meld => "Melding",
            ActionKind::LayOff => "Laying off",
            ActionKind::ExchangeJoker => "Exchanging a joker",
            ActionKind::Discard => "Discarding",
            ActionKind::Claim => "Claim",
        })
    }
}

impl Action {
    pub fn kind(&self) -> ActionKind {
        match self {
            Action::Draw => ActionKind::Draw,
            Action::Pass => ActionKind::Pass,
            Action::Done { .. } => ActionKind::Done,
            Action::Knock { .. } => ActionKind::Knock,
            Action::TouchTable => ActionKind::TouchTable,
            Action::GiveUp => ActionKind::GiveUp,
            Action::EndGame => ActionKind::EndGame,
            Action::TakeDiscard => ActionKind::TakeDiscard,
            Action::Dig { .. } => ActionKind::Dig,
            Action::Meld { .. } => ActionKind::Meld,
            Action::LayOff { .. } => ActionKind::LayOff,
            Action::ExchangeJoker { .. } => ActionKind::ExchangeJoker,
            Action::Discard { .. } => ActionKind::Discard,
            Action::Claim => ActionKind::Claim,
        }
    }
}

/// What the Remind-with-hint option shows: cards that can be played, the groups
/// that move changes, and whether the table must be rearranged.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Hint {
    /// Hand cards of one legal play (the fewest the finder could show).
    pub cards: Vec<Card>,
    /// Indexes of the table groups that play changes.
    pub groups: Vec<usize>,
    /// True when existing groups must be split or have cards moved out.
    pub rearrange: bool,
    /// The whole table after that play (what the player's copy would become), so
    /// the phone can show it on request and a computer player can play it.
    #[serde(default)]
    pub table: Table,
}

/// Who may see an event. The host forwards each event only to its audience.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Audience {
    Everyone,
    Only(Seat),
}

/// Something that happened. Events never carry a card that its audience may not
/// see: a drawn card shows only in the drawer's view.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Event {
    /// A new hand was dealt; `first` plays first.
    HandStarted {
        hand: u32,
        first: Seat,
    },
    TurnStarted {
        seat: Seat,
    },
    Drew {
        seat: Seat,
        count: usize,
    },
    Passed {
        seat: Seat,
    },
    /// Remind with hint: the draw (or pass) was held back because a play exists.
    Reminded {
        seat: Seat,
        hint: Hint,
    },
    /// The first Give up tap: the next one takes the penalty.
    GiveUpArmed {
        seat: Seat,
    },
    PenaltyDrawn {
        seat: Seat,
        count: usize,
    },
    /// A proposed table was accepted; `played` are the hand cards put down.
    TablePlayed {
        seat: Seat,
        played: Vec<Card>,
    },
    Knocked {
        seat: Seat,
    },
    TookDiscard {
        seat: Seat,
        card: Card,
    },
    Dug {
        seat: Seat,
        depth: usize,
        card: Card,
    },
    Melded {
        seat: Seat,
        groups: Table,
    },
    LaidOff {
        seat: Seat,
        meld: usize,
        cards: Vec<Card>,
    },
    JokerExchanged {
        seat: Seat,
        meld: usize,
        card: Card,
    },
    Discarded {
        seat: Seat,
        card: Card,
    },
    Claimed {
        seat: Seat,
        card: Card,
    },
    StockReshuffled {
        size: usize,
    },
    HandEnded {
        result: crate::HandResult,
    },
    Eliminated {
        seat: Seat,
    },
    GameEnded {
        outcome: crate::Outcome,
    },
    /// Rami move timer: `seat`'s time ran out, so the host played for them (the
    /// events that follow show what it played).
    TimedOut {
        seat: Seat,
    },
    /// Rami: the Claim window on the discard closed with no claim.
    ClaimWindowClosed,
}

impl Event {
    pub fn audience(&self) -> Audience {
        match self {
            Event::Reminded { seat, .. } | Event::GiveUpArmed { seat } => Audience::Only(*seat),
            _ => Audience::Everyone,
        }
    }
}
