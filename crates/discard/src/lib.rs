//! The discard-pile rule sets of Rami: **Rummy 500** and **Rami** (`RULES.md`
//! Parts 2 and 3), behind the same [`rami_game::Game`] interface as the
//! manipulation rule sets, so hosts, phones, bots and the app drive all nine alike.
//!
//! [`DiscardGame`] is a deterministic, sans-IO state machine: decks come from the
//! configuration's seed (or its explicit deck) and time only from the `now`
//! arguments, so a Claim window or a move timer plays out the same way on every
//! device and in every test. [`bot_action`] is a simple computer player that
//! decides from a [`rami_game::PlayerView`] alone ([`claim_action`] out of turn,
//! at [`claim_time`] where people play too), and [`play_bot_game`] runs a whole
//! game between such players (for `rami sim`, tests and benchmarks).

pub mod bot;
mod deal;
mod engine;
mod groups;
mod sim;

pub use bot::{COMPUTER_CLAIM_DELAY_MS, bot_action, claim_action, claim_order, claim_time};
pub use deal::{cards_per_player, composition, scripted_deck};
pub use engine::{CLAIM_WINDOW_MS, DiscardGame, MAX_DEADLINES_PER_CALL, RAMI_OPENING};
pub use groups::{group_value, value_in_group};
pub use sim::{SimError, SimGame, play_bot_game};
