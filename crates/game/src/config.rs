//! How a game is set up: rule set, number of players, table options, seed.

use rami_cards::Card;
use rami_melds::RuleSet;
use serde::{Deserialize, Serialize};

/// Must-meld check (Manipulation, Shanghai).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum MustMeldCheck {
    /// Draw (or Pass) while a play exists shows a hint instead; a second tap goes on.
    #[default]
    RemindWithHint,
    /// Draw and Pass act on the first tap.
    TrustThePlayer,
}

/// Unfinished move (Machiavelli, Guadalupe, Tahiti).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum UnfinishedMove {
    /// Reset puts everything back; nothing lost.
    #[default]
    UndoNoPenalty,
    /// Once the table is touched, Reset becomes Give up (+3).
    TakeBackDrawThree,
}

/// Every table option of every rule set. Only the ones that apply to the chosen
/// rule set are read; [`GameConfig::validate`] refuses a value an option cannot take.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(default)]
pub struct Options {
    /// Manipulation, Shanghai.
    pub must_meld_check: MustMeldCheck,
    /// Manipulation: 200 or 300.
    pub play_to: u32,
    /// Machiavelli, Guadalupe, Tahiti.
    pub unfinished_move: UnfinishedMove,
    /// Rummy 500 with two players: 7, 10 or 13 cards.
    pub two_player_hand: u8,
    /// Rummy 500: 250, 500 or 1000.
    pub target: u32,
    /// Rummy 500: play with two jokers.
    pub jokers: bool,
    /// Rami: the Claim button.
    pub claim: bool,
    /// Rami: points limit 1, 50 or 100 (1 = a single hand).
    pub points_limit: u32,
    /// Rami: time limit per move in milliseconds (`None`: no limit).
    pub move_time_limit_ms: Option<u64>,
}

impl Default for Options {
    fn default() -> Self {
        Options {
            must_meld_check: MustMeldCheck::default(),
            play_to: 200,
            unfinished_move: UnfinishedMove::default(),
            two_player_hand: 13,
            target: 500,
            jokers: false,
            claim: false,
            points_limit: 100,
            move_time_limit_ms: None,
        }
    }
}

/// A game to start: everything that, with the seed, decides it completely.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct GameConfig {
    pub rules: RuleSet,
    pub players: usize,
    pub options: Options,
    /// Shuffles every hand.
    pub seed: u64,
    /// An explicit order for the first hand's deck, top card first (tests and
    /// lessons). Later hands are shuffled from the seed.
    pub deck: Option<Vec<Card>>,
}

/// A configuration that cannot start a game.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error, Serialize, Deserialize)]
pub enum ConfigError {
    #[error("{rules} is played by {min} to {max} players, not {players}")]
    Players {
        rules: RuleSet,
        min: usize,
        max: usize,
        players: usize,
    },
    #[error("option {option} cannot be {value} (allowed: {allowed})")]
    Option {
        option: &'static str,
        value: String,
        allowed: &'static str,
    },
    #[error("the deck given has {given} cards; {rules} with {players} players needs {needed}")]
    DeckSize {
        rules: RuleSet,
        players: usize,
        given: usize,
        needed: usize,
    },
    #[error("the deck given does not hold the cards of a {rules} deck")]
    DeckCards { rules: RuleSet },
    #[error("this engine does not play {0}")]
    WrongEngine(RuleSet),
}

impl GameConfig {
    /// A game with the default options.
    pub fn new(rules: RuleSet, players: usize, seed: u64) -> Self {
        GameConfig {
            rules,
            players,
            options: Options::default(),
            seed,
            deck: None,
        }
    }

    /// The range of players the rule set allows.
    pub fn player_range(rules: RuleSet) -> (usize, usize) {
        match rules {
            RuleSet::Rummy500 => (2, 7),
            RuleSet::Rami => (2, 4),
            _ => (2, 5),
        }
    }

    /// Checks the player count and every option that applies to the rule set.
    pub fn validate(&self) -> Result<(), ConfigError> {
        let (min, max) = Self::player_range(self.rules);
        if !(min..=max).contains(&self.players) {
            return Err(ConfigError::Players {
                rules: self.rules,
                min,
                max,
                players: self.players,
            });
        }
        let o = &self.options;
        let bad = |option, value: String, allowed| {
            Err(ConfigError::Option {
                option,
                value,
                allowed,
            })
        };
        match self.rules {
            RuleSet::Manipulation if ![200, 300].contains(&o.play_to) => {
                bad("play_to", o.play_to.to_string(), "200, 300")
            }
            RuleSet::Rummy500 if ![250, 500, 1000].contains(&o.target) => {
                bad("target", o.target.to_string(), "250, 500, 1000")
            }
            RuleSet::Rummy500 if ![7, 10, 13].contains(&o.two_player_hand) => bad(
                "two_player_hand",
                o.two_player_hand.to_string(),
                "7, 10, 13",
            ),
            RuleSet::Rami if ![1, 50, 100].contains(&o.points_limit) => {
                bad("points_limit", o.points_limit.to_string(), "1, 50, 100")
            }
            RuleSet::Rami if o.move_time_limit_ms == Some(0) => {
                bad("move_time_limit_ms", "0".into(), "a positive number of ms")
            }
            _ => Ok(()),
        }
    }

    /// Checks that an explicit deck (`self.deck`) holds exactly `decks` copies of
    /// the 52 cards and `jokers` jokers, whatever the order.
    pub fn check_deck(&self, given: &[Card], decks: u8, jokers: u8) -> Result<(), ConfigError> {
        let full = rami_cards::deck(decks, jokers);
        if given.len() != full.len() {
            return Err(ConfigError::DeckSize {
                rules: self.rules,
                players: self.players,
                given: given.len(),
                needed: full.len(),
            });
        }
        let given: Vec<Card> = given.iter().map(|c| c.in_hand()).collect();
        if rami_cards::CardCounts::from_cards(&given) != rami_cards::CardCounts::from_cards(&full) {
            return Err(ConfigError::DeckCards { rules: self.rules });
        }
        Ok(())
    }

    /// The names of the options that apply to this rule set (for UIs and the CLI).
    pub fn options_that_apply(rules: RuleSet) -> &'static [&'static str] {
        match rules {
            RuleSet::Manipulation => &["must_meld_check", "play_to"],
            RuleSet::Shanghai => &["must_meld_check"],
            RuleSet::Machiavelli | RuleSet::Guadalupe | RuleSet::Tahiti => &["unfinished_move"],
            RuleSet::Carousel | RuleSet::Vatikan => &[],
            RuleSet::Rummy500 => &["two_player_hand", "target", "jokers"],
            RuleSet::Rami => &["claim", "points_limit", "move_time_limit_ms"],
        }
    }
}
