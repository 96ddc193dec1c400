//! All nine Rami rule sets behind one type, [`AnyGame`], so that the host, the
//! phones, the computer players, the app and the tests start, drive, save and
//! resume any game the same way, through [`rami_game::Game`].

use rami_discard::DiscardGame;
use rami_game::{
    Action, ActionError, ActionKind, ConfigError, Event, Game, GameConfig, Outcome, PlayerView,
    RuleSet, Seat,
};
use rami_manipulation::ManipulationGame;
use serde::{Deserialize, Serialize};

pub use rami_game;

/// A game of any rule set.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub enum AnyGame {
    Manipulation(ManipulationGame),
    Discard(DiscardGame),
}

/// Starts a game of the configured rule set.
pub fn new_game(config: GameConfig) -> Result<AnyGame, ConfigError> {
    if config.rules.is_manipulation() {
        return ManipulationGame::new(config).map(AnyGame::Manipulation);
    }
    DiscardGame::new(config).map(AnyGame::Discard)
}

/// A saved game that cannot be read back.
#[derive(Debug, thiserror::Error)]
#[error("the saved game cannot be read: {0}")]
pub struct LoadError(#[from] serde_json::Error);

impl AnyGame {
    /// The whole state as JSON (an autosave); [`AnyGame::load`] reads it back.
    pub fn save(&self) -> String {
        // Serializing plain data to a String cannot fail.
        serde_json::to_string(self).unwrap_or_default()
    }

    pub fn load(text: &str) -> Result<AnyGame, LoadError> {
        Ok(serde_json::from_str(text)?)
    }

    fn inner(&self) -> &dyn Game {
        match self {
            AnyGame::Manipulation(g) => g,
            AnyGame::Discard(g) => g,
        }
    }

    fn inner_mut(&mut self) -> &mut dyn Game {
        match self {
            AnyGame::Manipulation(g) => g,
            AnyGame::Discard(g) => g,
        }
    }
}

impl Game for AnyGame {
    fn rules(&self) -> RuleSet {
        self.inner().rules()
    }
    fn num_players(&self) -> usize {
        self.inner().num_players()
    }
    fn current_player(&self) -> Option<Seat> {
        self.inner().current_player()
    }
    fn legal_actions(&self, seat: Seat) -> Vec<ActionKind> {
        self.inner().legal_actions(seat)
    }
    fn apply(&mut self, seat: Seat, action: Action, now: u64) -> Result<Vec<Event>, ActionError> {
        self.inner_mut().apply(seat, action, now)
    }
    fn next_deadline(&self) -> Option<u64> {
        self.inner().next_deadline()
    }
    fn advance_time(&mut self, now: u64) -> Vec<Event> {
        self.inner_mut().advance_time(now)
    }
    fn is_terminal(&self) -> bool {
        self.inner().is_terminal()
    }
    fn outcome(&self) -> Option<&Outcome> {
        self.inner().outcome()
    }
    fn scores(&self) -> Vec<i64> {
        self.inner().scores()
    }
    fn view(&self, seat: Seat) -> PlayerView {
        self.inner().view(seat)
    }
}
