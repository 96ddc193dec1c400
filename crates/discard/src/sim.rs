//! Whole games between computer players: what `rami sim`, the property tests and
//! the benchmarks run.

use crate::{DiscardGame, bot_action, claim_action, claim_order};
use rami_game::{Action, ActionError, ConfigError, Game, GameConfig, Seat};

/// Time the simulated players take per action, in ms (well inside the Claim
/// window and any move timer, so simulated games never time out).
const STEP_MS: u64 = 10;

/// A finished simulated game.
#[derive(Clone, Debug)]
pub struct SimGame {
    pub game: DiscardGame,
    /// Actions applied.
    pub actions: u64,
    /// Discards claimed (Rami with the Claim option).
    pub claims: u64,
}

/// Why a simulated game did not finish.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum SimError {
    #[error("bad configuration: {0}")]
    Config(#[from] ConfigError),
    #[error("the computer player of seat {seat} found nothing to do")]
    BotStuck { seat: Seat },
    #[error("the computer player of seat {seat} played {action:?}, refused: {error}")]
    Refused {
        seat: Seat,
        action: Action,
        error: ActionError,
    },
    #[error("the game did not end within {0} actions")]
    TooLong(u64),
}

/// Plays a whole game between [`bot_action`] players, one action every 10 ms of
/// game time, and gives up after `max_actions`. With the Claim option, the
/// players out of turn are asked ([`claim_action`], in [`claim_order`]) before
/// the next player draws: there is nobody to wait for.
pub fn play_bot_game(config: GameConfig, max_actions: u64) -> Result<SimGame, SimError> {
    let mut game = DiscardGame::new(config)?;
    let mut now = 0;
    let mut actions = 0;
    let mut claims = 0;
    loop {
        now += STEP_MS;
        // Deadlines first, so the bot decides on the position as it is now.
        game.advance_time(now);
        let Some(seat) = game.current_player() else {
            break;
        };
        if actions >= max_actions {
            return Err(SimError::TooLong(max_actions));
        }
        let view = game.view(seat);
        let claim = match view.claim_deadline {
            Some(_) => claim_order(view.players.len(), seat)
                .find_map(|s| claim_action(&game.view(s)).map(|a| (s, a))),
            None => None,
        };
        let (seat, action) = match claim {
            Some(claim) => {
                claims += 1;
                claim
            }
            None => (seat, bot_action(&view).ok_or(SimError::BotStuck { seat })?),
        };
        game.apply(seat, action.clone(), now)
            .map_err(|error| SimError::Refused {
                seat,
                action,
                error,
            })?;
        actions += 1;
    }
    Ok(SimGame {
        game,
        actions,
        claims,
    })
}
