//! Computer players. A bot decides from a [`PlayerView`] alone, the same view a
//! phone receives, so it can run on the host or on a phone and can never cheat.

mod greedy;
mod play;

pub use greedy::greedy_table;

pub use play::{GameSummary, SHANGHAI_SIM_HANDS, play_game};

use rami_game::{Action, ActionKind, PlayerView, RuleSet};
use rami_solver::Goal;

/// Claims out of turn (Rami's Claim option): when a computer player claims
/// where people play too ([`claim_time`], [`COMPUTER_CLAIM_DELAY_MS`] after the
/// discard) and the order in which the seats are asked ([`claim_order`]).
pub use rami_discard::{COMPUTER_CLAIM_DELAY_MS, claim_order, claim_time};

/// How well a computer player plays (defined in `rami-game` so the nearby-play
/// lobby can name a level without depending on the bots).
pub use rami_game::BotLevel as Level;

/// The action `view.seat` takes now, or `None` when it has nothing to do (not its
/// turn, or the game is over). Out of turn, see [`choose_claim`].
pub fn choose_action(view: &PlayerView, level: Level) -> Option<Action> {
    if view.legal.is_empty() || view.current != Some(view.seat) {
        return None;
    }
    let rules = view.config.rules;
    if !rules.is_manipulation() {
        // The discard rule sets bring their own player.
        return rami_discard::bot_action(view).or_else(|| fallback(view));
    }
    let can = |k: ActionKind| view.legal.contains(&k);
    if rules == RuleSet::Carousel && view.draws_this_turn == 0 && can(ActionKind::Draw) {
        return Some(Action::Draw);
    }
    if can(ActionKind::Done) {
        let opening = rules == RuleSet::Vatikan && !view.players[view.seat].opened;
        // Remind with hint showed a play: it is a legal one, take it.
        let shown = view
            .hint
            .as_ref()
            .filter(|h| !h.table.is_empty())
            .map(|h| h.table.clone());
        let play = if shown.is_some() {
            shown
        } else if level == Level::Greedy {
            greedy_table(
                rules,
                &view.table,
                &view.hand,
                !opening,
                rules.copies(view.config.players),
            )
        } else if opening {
            rami_solver::best_opening_on(rules, &view.table, &view.hand)
                .ok()
                .flatten()
                .map(|p| {
                    let mut table = view.table.clone();
                    table.extend(p.table);
                    table
                })
        } else {
            let copies = rules.copies(view.config.players);
            rami_solver::solve_with_copies(rules, copies, &view.table, &view.hand, Goal::MostCards)
                .ok()
                .flatten()
                .map(|p| p.table)
        };
        if let Some(table) = play {
            let left = leftover_points(view, &table);
            if can(ActionKind::Knock) && left.is_some_and(|p| p <= 5) {
                return Some(Action::Knock { table });
            }
            return Some(Action::Done { table });
        }
    }
    fallback(view)
}

/// `Some(Action::Claim)` when the computer player of `view.seat`, out of turn,
/// claims the card just discarded (Rami with the Claim option; every level
/// plays the discard rule sets with `rami_discard`'s player, whose rule is
/// [`rami_discard::claim_action`]'s). A driver with people at the table asks
/// only from [`claim_time`] on; a game between computers may ask at once.
/// After a claim the seat's turn is [`choose_action`]'s, as any turn.
pub fn choose_claim(view: &PlayerView) -> Option<Action> {
    rami_discard::claim_action(view)
}

/// [`choose_action`] on `view.seat`'s turn, [`choose_claim`] out of it: the
/// one function a host gives its computer seats (it asks a seat out of turn
/// only from [`claim_time`] on).
pub fn choose_action_or_claim(view: &PlayerView, level: Level) -> Option<Action> {
    if view.current == Some(view.seat) {
        choose_action(view, level)
    } else {
        choose_claim(view)
    }
}

/// Hand points left after playing `table` (for Carousel's knock).
fn leftover_points(view: &PlayerView, table: &[Vec<rami_cards::Card>]) -> Option<u32> {
    let before = rami_cards::CardCounts::from_cards(view.table.iter().flatten());
    let after = rami_cards::CardCounts::from_cards(table.iter().flatten());
    let played = after.minus(&before)?;
    let hand = rami_cards::CardCounts::from_cards(&view.hand).minus(&played)?;
    Some(
        hand.cards()
            .iter()
            .map(|&c| view.config.rules.hand_points(c))
            .sum(),
    )
}

/// Draw if possible, else pass (also the way out when a planned play is refused).
pub fn fallback(view: &PlayerView) -> Option<Action> {
    let can = |k: ActionKind| view.legal.contains(&k);
    if can(ActionKind::Draw) {
        Some(Action::Draw)
    } else if can(ActionKind::Pass) {
        Some(Action::Pass)
    } else if can(ActionKind::GiveUp) {
        Some(Action::GiveUp)
    } else {
        None
    }
}
