//! The one interface every Rami rule set implements, modelled on OpenSpiel's
//! `State`: whose turn it is, which actions are legal, apply an action, is the game
//! over, the scores, and the view of one player.
//!
//! Everything here is plain data. A rule set is a deterministic state machine:
//! no clocks, threads or I/O. Time comes in as `now` (milliseconds on any clock the
//! driver likes) and randomness as the seed of the [`GameConfig`], so the same
//! inputs always give the same game (see `quinn-proto` beside `quinn` for the
//! pattern). Hosts, phones, computer players, the UI and tests all drive games
//! through [`Game`].

mod action;
mod config;
mod error;
mod level;
mod view;

pub use action::{Action, ActionKind, Audience, Event, Hint};
pub use config::{ConfigError, GameConfig, MustMeldCheck, Options, UnfinishedMove};
pub use error::{ActionError, Deed, NotNowReason};
pub use level::BotLevel;
pub use view::{Bonus, HandEnd, HandResult, Outcome, PlayerPublic, PlayerView, ViewConfig};

pub use rami_cards::{Card, Face};
pub use rami_melds::RuleSet;

/// A player's place at the table, 0-based. Seat 0 is the host's seat.
pub type Seat = usize;

/// A table as the engine sees it: groups of cards, jokers named.
pub type Table = Vec<Vec<Card>>;

/// The interface of every rule set.
///
/// Invariant of every implementation: an `apply` that returns `Err` leaves the
/// state exactly as it was.
pub trait Game {
    fn rules(&self) -> RuleSet;

    fn num_players(&self) -> usize;

    /// Whose turn it is; `None` once the game is over.
    fn current_player(&self) -> Option<Seat>;

    /// The kinds of action `seat` may take now (a `Done` carries a whole table, so
    /// legal actions are listed by kind, not enumerated).
    fn legal_actions(&self, seat: Seat) -> Vec<ActionKind>;

    /// Plays `action` for `seat` at time `now`. On error nothing changes.
    fn apply(&mut self, seat: Seat, action: Action, now: u64) -> Result<Vec<Event>, ActionError>;

    /// The next moment at which the game changes by itself (a claim window that
    /// closes, a move timer that runs out), if any.
    fn next_deadline(&self) -> Option<u64> {
        None
    }

    /// Lets time pass up to `now`: plays whatever the rules do when a deadline
    /// passes. Does nothing if no deadline is due.
    fn advance_time(&mut self, _now: u64) -> Vec<Event> {
        Vec::new()
    }

    fn is_terminal(&self) -> bool {
        self.outcome().is_some()
    }

    /// Winners and final totals once the game is over.
    fn outcome(&self) -> Option<&Outcome>;

    /// Running totals, one per seat (what the rule set calls points).
    fn scores(&self) -> Vec<i64>;

    /// Everything `seat` may know, and nothing more.
    fn view(&self, seat: Seat) -> PlayerView;
}
