//! The computer players' plans against the engine: every table a bot proposes
//! (the move finder's best play, its opening, the greedy player's, the hint that
//! Remind-with-hint shows) must be accepted. `play_game` falls back to drawing
//! when a plan is refused, which would hide a finder that disagrees with the
//! rules; this walks the same games and fails on the first refusal instead.

use rami_bots::{Level, choose_action, fallback};
use rami_game::{Action, ActionError, Game, GameConfig, MustMeldCheck, PlayerView, RuleSet};

fn walk(rules: RuleSet, players: usize, seed: u64, level: Level, hint: bool, max_actions: u32) {
    walk_with(
        rules,
        players,
        seed,
        level,
        hint,
        max_actions,
        &mut |action, view, e| {
            panic!(
                "{rules} seed {seed} {level:?}: the plan {action:?} was refused: {e}\ntable {:?}\nhand {:?}",
                view.table, view.hand
            )
        },
    );
}

/// One seeded game between `level` players; `refused` hears of every plan
/// the engine refuses (the game then goes on by the fallback). Returns the
/// number of plans made.
fn walk_with(
    rules: RuleSet,
    players: usize,
    seed: u64,
    level: Level,
    hint: bool,
    max_actions: u32,
    refused: &mut dyn FnMut(&Action, &PlayerView, &ActionError),
) -> usize {
    let mut config = GameConfig::new(rules, players, seed);
    if !hint {
        config.options.must_meld_check = MustMeldCheck::TrustThePlayer;
    }
    let mut game = rami_engine::new_game(config).expect("config");
    let mut now = 0;
    let mut plans = 0;
    for _ in 0..max_actions {
        if game.is_terminal() {
            break;
        }
        now += 1000;
        if game.next_deadline().is_some_and(|d| d <= now) {
            game.advance_time(now);
            continue;
        }
        let Some(seat) = game.current_player() else {
            break;
        };
        let view = game.view(seat);
        if rules == RuleSet::Shanghai && view.hand_number > 2 {
            break;
        }
        let Some(action) = choose_action(&view, level) else {
            break;
        };
        let planned = matches!(action, Action::Done { .. } | Action::Knock { .. });
        plans += usize::from(planned);
        match game.apply(seat, action.clone(), now) {
            Ok(_) => {}
            Err(e) => {
                if planned {
                    refused(&action, &view, &e);
                }
                let a = fallback(&view).expect("a way on");
                game.apply(seat, a, now).expect("fallback");
            }
        }
    }
    plans
}

/// Every manipulation rule set, Tahiti and Vatikan included: the finder checks
/// its plays against their joker rules (anchoring, joker groups) before
/// answering.
#[test]
fn the_move_finders_plays_are_accepted_by_the_engine() {
    for rules in RuleSet::ALL.into_iter().filter(|r| r.is_manipulation()) {
        for seed in 1..=3 {
            walk(rules, 3, seed, Level::Best, false, 400);
        }
    }
}

#[test]
fn the_greedy_players_plays_are_accepted_by_the_engine() {
    for rules in RuleSet::ALL.into_iter().filter(|r| r.is_manipulation()) {
        for seed in 1..=5 {
            walk(rules, 2, seed, Level::Greedy, false, 2000);
        }
    }
}

#[test]
fn the_hints_of_remind_with_hint_are_accepted_by_the_engine() {
    for rules in [
        RuleSet::Manipulation,
        RuleSet::Shanghai,
        RuleSet::Vatikan,
        RuleSet::Tahiti,
    ] {
        for seed in 1..=3 {
            walk(rules, 3, seed, Level::Greedy, true, 400);
        }
    }
}

/// Tahiti and Vatikan, whose joker rules the finder's sweep does not model by
/// itself, on more games: the best player (its opening included) and the hints.
#[test]
fn tahiti_and_vatikan_plans_are_accepted_by_the_engine() {
    for rules in [RuleSet::Tahiti, RuleSet::Vatikan] {
        for seed in 4..=16 {
            walk(rules, 3, seed, Level::Best, false, 400);
            walk(rules, 2, seed, Level::Best, true, 400);
        }
    }
}

/// Every player count each rule set allows (the deck and the hands change
/// with it): the best player and the greedy one with hints. A greedy plan
/// refused by the copies rule turned up with four Vatikan players. Carousel
/// also on seed 1, whose two-player game (one deck) once had a best plan
/// the engine refused: a run joker `*QC KC AC` beside the only QC, which
/// the finder returned when no renaming mended its play.
#[test]
fn plans_are_accepted_at_every_player_count() {
    for rules in RuleSet::ALL.into_iter().filter(|r| r.is_manipulation()) {
        let (lo, hi) = rami_game::GameConfig::player_range(rules);
        let seeds: &[u64] = if rules == RuleSet::Carousel {
            &[1, 100, 101]
        } else {
            &[100, 101]
        };
        for players in lo..=hi {
            for &seed in seeds {
                walk(rules, players, seed, Level::Best, false, 400);
                walk(rules, players, seed, Level::Greedy, true, 400);
            }
        }
    }
}

/// A measure, not a CI test (`--ignored`, a few minutes): the best
/// players' plans the engine refuses in Carousel, seeds 1-20, 600 actions a
/// game, two to four players. Before the strict copies search ran on
/// demand (session 7) two players had 50 of 2,360 plans refused, three 1 of
/// 1,933; now none may be.
#[test]
#[ignore]
fn carousel_refused_plans() {
    let mut all_refused = 0;
    for players in 2..=4 {
        let (mut plans, mut refused) = (0, 0);
        rami_solver::internal::take_stats();
        for seed in 1..=20 {
            plans += walk_with(
                RuleSet::Carousel,
                players,
                seed,
                Level::Best,
                false,
                600,
                &mut |_, _, _| refused += 1,
            );
        }
        // What the strict copies search cost in these games (the finder's
        // counters on this thread: the games run here).
        let st = rami_solver::internal::take_stats();
        println!(
            "carousel, {players} players: {refused} of {plans} plans refused; strict copies searches {} ({} of {} states, {} cut short)",
            st.strict_runs, st.strict_states, st.states, st.strict_cut
        );
        assert!(plans > 0, "the walk made no plan");
        all_refused += refused;
    }
    assert_eq!(all_refused, 0, "plans the engine refused");
}
