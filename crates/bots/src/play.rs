//! Playing a whole game between computer players (for `rami sim`, tests and
//! benchmarks).

use crate::{Level, choose_action, choose_claim, claim_order, fallback};
use rami_game::{Action, Event, Game, RuleSet, Seat};

/// Shanghai has no fixed end; a simulated game is ended by the host after this
/// many hands.
pub const SHANGHAI_SIM_HANDS: u32 = 3;

/// How a simulated game went.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GameSummary {
    pub winners: Vec<Seat>,
    pub draw: bool,
    pub scores: Vec<i64>,
    /// Turns started (a turn passes to the next player).
    pub turns: u64,
    /// Discards claimed (Rami with the Claim option).
    pub claims: u64,
    pub actions: u64,
    /// False if the game was cut at `max_actions` (a bug if it ever happens).
    pub finished: bool,
}

/// Plays `game` to its end with computer players of `levels` (one per seat; the
/// last level is repeated for missing seats). Time advances one second an action.
/// With Rami's Claim option, while a discard may be claimed the other seats are
/// asked first ([`choose_claim`], in [`claim_order`]): with no person at the
/// table, a computer claims at once rather than after the delay people get.
pub fn play_game<G: Game>(game: &mut G, levels: &[Level], max_actions: u64) -> GameSummary {
    let mut now = 0u64;
    let mut turns = 0u64;
    let mut actions = 0u64;
    let mut claims = 0u64;
    let level = |seat: Seat| {
        levels
            .get(seat)
            .or(levels.last())
            .copied()
            .unwrap_or_default()
    };
    while !game.is_terminal() && actions < max_actions {
        actions += 1;
        now += 1000;
        if game.next_deadline().is_some_and(|d| d <= now) {
            turns += count_turns(&game.advance_time(now));
            continue;
        }
        let Some(seat) = game.current_player() else {
            break;
        };
        let view = game.view(seat);
        if game.rules() == RuleSet::Shanghai && view.hand_number > SHANGHAI_SIM_HANDS {
            if game.apply(0, Action::EndGame, now).is_err() {
                break;
            }
            continue;
        }
        // The current player's view shows an open Claim window to everyone.
        if view.claim_deadline.is_some() {
            let claimed = claim_order(game.num_players(), seat).find_map(|s| {
                let action = choose_claim(&game.view(s))?;
                game.apply(s, action, now).ok()
            });
            if let Some(events) = claimed {
                claims += 1;
                turns += count_turns(&events);
                continue;
            }
        }
        let Some(action) = choose_action(&view, level(seat)) else {
            break;
        };
        match game.apply(seat, action, now) {
            Ok(events) => turns += count_turns(&events),
            // A refused plan: draw or pass instead, so the game always moves on.
            Err(_) => match fallback(&view).map(|a| game.apply(seat, a, now)) {
                Some(Ok(events)) => turns += count_turns(&events),
                _ => break,
            },
        }
    }
    let outcome = game.outcome().cloned();
    GameSummary {
        winners: outcome
            .as_ref()
            .map(|o| o.winners.clone())
            .unwrap_or_default(),
        draw: outcome.as_ref().is_some_and(|o| o.draw),
        scores: outcome.map(|o| o.totals).unwrap_or_else(|| game.scores()),
        turns,
        claims,
        actions,
        finished: game.is_terminal(),
    }
}

fn count_turns(events: &[Event]) -> u64 {
    events
        .iter()
        .filter(|e| matches!(e, Event::TurnStarted { .. }))
        .count() as u64
}
