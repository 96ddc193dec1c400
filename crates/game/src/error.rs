//! Why an action is refused. Every refusal leaves the game unchanged.

use crate::{ActionKind, Seat};
use rami_cards::{Card, Face};
use rami_melds::GroupError;
use serde::{Deserialize, Serialize};

/// A refused action, with what a player needs to understand why.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error, Serialize, Deserialize)]
pub enum ActionError {
    #[error("there is no seat {0} at this table")]
    NoSuchSeat(Seat),
    #[error("the game is over")]
    GameOver,
    #[error("it is not your turn (seat {current} is playing)")]
    NotYourTurn { current: Seat },
    #[error("{kind} is not possible now: {why}")]
    NotNow { kind: ActionKind, why: NotNowReason },
    #[error("group {group} is not valid: {reason}")]
    InvalidGroup { group: usize, reason: GroupError },
    #[error("{card} is not in your hand")]
    CardNotInHand { card: Card },
    #[error("{card} was on the table and cannot go back to a hand")]
    TableCardTakenBack { card: Card },
    #[error("the table must stay as it was except for cards you add; {card} appeared from nowhere")]
    CardFromNowhere { card: Card },
    #[error("you must add at least one card from your hand")]
    NothingPlayed,
    #[error(
        "the joker in group {group} could stand for {}: say which",
        list(options)
    )]
    JokerNeedsName { group: usize, options: Vec<Face> },
    #[error(
        "the joker standing for {was} cannot take a new name until the real {was} is on the table"
    )]
    JokerRenamed { was: Face },
    #[error(
        "the joker standing for {face} must stay in its group until the real {face} is on the table"
    )]
    JokerMoved { face: Face },
    #[error("the freed joker that stood for {face} must take a new name")]
    FreedJokerNotRenamed { face: Face },
    #[error(
        "your first meld must include a run of three cards of one suit from your hand (jokers not counted)"
    )]
    FirstMeldNeedsRun,
    #[error(
        "group {group} holds a joker: its cards cannot move and only cards from your hand may join it"
    )]
    FrozenGroupChanged { group: usize },
    #[error("a card from the table cannot join group {group}, which holds a joker")]
    TableCardJoinsJokerGroup { group: usize },
    #[error(
        "{card} would be left alone on the table: only the loose cards dealt face up may stay alone"
    )]
    LoneCard { card: Card },
    #[error("you may knock only with 5 points or fewer left in hand (you would keep {points})")]
    KnockTooHigh { points: u32 },
    #[error("the discard pile has no card {depth} places down")]
    NoSuchDiscard { depth: usize },
    #[error("there is no meld {0} on the table")]
    NoSuchMeld(usize),
    #[error("seat {0} has been eliminated and no longer plays")]
    SeatEliminated(Seat),
    #[error(
        "your first meld must be worth at least {needed} points from your hand; these groups make {points}"
    )]
    OpeningTooLow { points: u32, needed: u32 },
    #[error("you must make your first meld ({needed} points) before you {what}")]
    NotOpened { needed: u32, what: Deed },
    #[error(
        "{card} was just taken from the discard pile: it cannot go back this turn unless it is your last card"
    )]
    DiscardTakenBack { card: Card },
    #[error("meld {meld} holds no joker standing for {face}")]
    NoJokerFor { meld: usize, face: Face },
    #[error("only a real card can free a joker; {card} is not one")]
    ExchangeNeedsRealCard { card: Card },
    #[error("your time for this move ran out at {deadline}: the host plays for you")]
    TimeUp { deadline: u64 },
    #[error(
        "group {group}: a joker cannot be {face}: the deck has {copies} of that card and they are all on the table"
    )]
    TooManyCopies {
        group: usize,
        face: Face,
        copies: u8,
    },
}

/// Why an action is not possible at this moment ([`ActionError::NotNow`]): a code a
/// phone can translate, travelling in the protocol; `Display` gives the English text.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, thiserror::Error, Serialize, Deserialize)]
pub enum NotNowReason {
    #[error("you changed the table: play it with Done or Give up (+3)")]
    TableChanged,
    #[error("the stock is empty: pass instead")]
    StockEmptyPass,
    #[error("no drawing in the last turns after the stock ran out")]
    NoDrawInLastTurns,
    #[error("three draws already")]
    ThreeDraws,
    #[error("the stock is not empty: draw instead")]
    StockNotEmpty,
    #[error("only with the option Take back, draw 3")]
    TakeBackOptionOnly,
    #[error("you have not changed the table: just draw")]
    TableUnchanged,
    #[error("draw your first card before you meld")]
    DrawBeforeMeld,
    #[error("only in Carousel")]
    CarouselOnly,
    #[error("no knocking in the last turns after the stock ran out")]
    NoKnockInLastTurns,
    #[error("knock only after your first or second draw")]
    KnockAfterDraw,
    #[error("only Shanghai is ended by the host")]
    ShanghaiOnly,
    #[error("only the host (seat 0) ends the game")]
    HostOnly,
    #[error("only the host ends a Shanghai game")]
    HostEndsShanghai,
    #[error("this rule set has no such action")]
    NoSuchAction,
    #[error("you have already drawn this turn")]
    AlreadyDrawn,
    #[error("draw first: from the stock or the discard pile")]
    DrawFirst,
    #[error("the discard-pile rule sets have no such action")]
    NotInDiscardGames,
    #[error("the stock is empty: take the discard")]
    StockEmptyTakeDiscard,
    #[error("the discard pile is empty")]
    DiscardEmpty,
    #[error("only Rummy 500 lets you dig in the discard pile")]
    DigRummy500Only,
    #[error("in Rummy 500 a joker on the table is never taken back")]
    JokerStaysRummy500,
    #[error("the Claim button is off at this table")]
    ClaimOff,
    #[error("the claim window has closed")]
    ClaimClosed,
    #[error("there is no discard to claim now")]
    NothingToClaim,
    #[error("you cannot claim your own discard")]
    OwnDiscard,
    #[error("the player whose turn is next may not claim: take the discard instead")]
    NextPlayerTakes,
}

/// What a player must open before doing ([`ActionError::NotOpened`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, thiserror::Error, Serialize, Deserialize)]
pub enum Deed {
    #[error("lay off cards")]
    LayOff,
    #[error("exchange a joker")]
    ExchangeJoker,
}

impl ActionError {
    /// The group of the proposed table (or the meld) at fault, if the refusal
    /// names one: the UI highlights it.
    pub fn group(&self) -> Option<usize> {
        match self {
            ActionError::InvalidGroup { group, .. }
            | ActionError::JokerNeedsName { group, .. }
            | ActionError::FrozenGroupChanged { group }
            | ActionError::TableCardJoinsJokerGroup { group }
            | ActionError::TooManyCopies { group, .. } => Some(*group),
            ActionError::NoSuchMeld(meld) | ActionError::NoJokerFor { meld, .. } => Some(*meld),
            _ => None,
        }
    }

    /// The card at fault, if the refusal names one.
    pub fn card(&self) -> Option<Card> {
        match self {
            ActionError::CardNotInHand { card }
            | ActionError::TableCardTakenBack { card }
            | ActionError::CardFromNowhere { card }
            | ActionError::LoneCard { card }
            | ActionError::DiscardTakenBack { card }
            | ActionError::ExchangeNeedsRealCard { card } => Some(*card),
            _ => None,
        }
    }
}

fn list(faces: &[Face]) -> String {
    faces
        .iter()
        .map(|f| f.to_string())
        .collect::<Vec<_>>()
        .join(" or ")
}

impl From<rami_melds::table_rules::TableRuleError> for ActionError {
    fn from(e: rami_melds::table_rules::TableRuleError) -> ActionError {
        use rami_melds::table_rules::TableRuleError as T;
        match e {
            T::JokerRenamed { was } => ActionError::JokerRenamed { was },
            T::TooManyCopies {
                group,
                face,
                copies,
            } => ActionError::TooManyCopies {
                group,
                face,
                copies,
            },
            T::JokerMoved { face } => ActionError::JokerMoved { face },
            T::FreedJokerNotRenamed { face } => ActionError::FreedJokerNotRenamed { face },
            T::FrozenGroupChanged { group } => ActionError::FrozenGroupChanged { group },
            T::TableCardJoinsJokerGroup { group } => {
                ActionError::TableCardJoinsJokerGroup { group }
            }
            T::LoneCard { card } => ActionError::LoneCard { card },
        }
    }
}
