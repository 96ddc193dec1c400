//! The levels of computer players. The bots (`rami-bots`) implement them; the
//! lobby of a nearby table names them when the host seats a computer player.

use serde::{Deserialize, Serialize};

/// How well a computer player plays.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum BotLevel {
    /// New groups from the hand and cards added to groups; never rearranges the
    /// table. Quick on any table.
    #[default]
    Greedy,
    /// The play that puts down the most cards, found by the exact move finder
    /// (rearranging the table as needed). Slow on large tables until the finder
    /// meets its speed targets.
    Best,
}

impl BotLevel {
    /// The name used on the command line (`greedy`, `best`).
    pub fn name(self) -> &'static str {
        match self {
            BotLevel::Greedy => "greedy",
            BotLevel::Best => "best",
        }
    }
}

impl std::fmt::Display for BotLevel {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

impl std::str::FromStr for BotLevel {
    type Err = String;
    fn from_str(s: &str) -> Result<BotLevel, String> {
        match s.trim().to_ascii_lowercase().as_str() {
            "greedy" | "1" => Ok(BotLevel::Greedy),
            "best" | "2" => Ok(BotLevel::Best),
            other => Err(format!(
                "unknown computer level `{other}` (known: greedy, best)"
            )),
        }
    }
}
