//! Invariants over random seeded games of the seven rule sets, 2 to 5 players:
//! cards are conserved, every accepted table is valid, no table card returns to
//! a hand, a refused action changes nothing, a view holds only its own hand, and
//! save -> load -> continue equals playing on.

use proptest::prelude::*;
use proptest::test_runner::RngSeed;
use rami_bots::{Level, choose_action, fallback};
use rami_cards::{Card, CardCounts};
use rami_game::{Action, Game, GameConfig, RuleSet};
use rami_manipulation::ManipulationGame;

const MANIPULATION: [RuleSet; 7] = [
    RuleSet::Manipulation,
    RuleSet::Machiavelli,
    RuleSet::Shanghai,
    RuleSet::Guadalupe,
    RuleSet::Carousel,
    RuleSet::Vatikan,
    RuleSet::Tahiti,
];

fn state(g: &ManipulationGame) -> String {
    serde_json::to_string(g).expect("serialize")
}

/// A proposal made of the current table with random hand cards thrown in: most
/// are refused, some are accepted, none may break an invariant.
fn random_proposal(g: &ManipulationGame, seat: usize, picks: &[u16]) -> Action {
    let mut table = g.table().clone();
    let hand = g.hand(seat).unwrap_or_default();
    for (k, &p) in picks.iter().enumerate() {
        let Some(&card) = hand.get(usize::from(p) % hand.len().max(1)) else {
            break;
        };
        let target = usize::from(p / 7) % (table.len() + 2);
        match table.get_mut(target) {
            Some(group) if k % 3 != 0 => group.push(card),
            _ => table.push(vec![card]),
        }
        // Sometimes move a table card between groups too.
        if k % 4 == 3 && table.len() > 1 {
            let from = usize::from(p) % table.len();
            if let Some(c) = table[from].pop() {
                let to = (from + 1) % table.len();
                table[to].push(c);
            }
            table.retain(|g| !g.is_empty());
        }
    }
    Action::Done { table }
}

fn check_invariants(g: &ManipulationGame, deck: &CardCounts) {
    // Conservation: hands + table + stock are exactly the deck.
    assert_eq!(
        &CardCounts::from_cards(&g.all_cards()),
        deck,
        "cards conserved"
    );
    // Every group on the table is valid (Tahiti's loose singles aside).
    assert_eq!(
        rami_melds::check_table(g.config().rules, g.table()),
        Ok(()),
        "table valid: {}",
        rami_cards::format_table(g.table())
    );
    // Views hold exactly their own hand and public counts.
    for seat in 0..g.config().players {
        let view = g.view(seat);
        assert_eq!(view.hand.as_slice(), g.hand(seat).unwrap_or_default());
        assert_eq!(view.stock_count, g.stock_len());
        for (other, p) in view.players.iter().enumerate() {
            assert_eq!(p.cards_in_hand, g.hand(other).map_or(0, <[Card]>::len));
        }
    }
}

fn run_game(rules: RuleSet, players: usize, seed: u64, noise: &[u16]) {
    let mut g = ManipulationGame::new(GameConfig::new(rules, players, seed)).expect("config");
    let deck = CardCounts::from_cards(&g.all_cards());

    // Progress, not a total: a two-player Manipulation game between greedy
    // players often takes 25-35 hands and over 3,000 steps (88 of 400 seeds),
    // while one hand never took more than 182 (400 seeds x every rule set and
    // player count). A game stuck in a hand, or one whose scores never reach
    // the end, fails one of these.
    const STEPS_PER_HAND: usize = 1_000;
    const HANDS: u32 = 100;
    let mut steps = 0;
    let mut steps_this_hand = 0;
    let mut current_hand = g.view(0).hand_number;
    while !g.is_terminal() {
        steps += 1;
        steps_this_hand += 1;
        assert!(
            steps_this_hand <= STEPS_PER_HAND,
            "{rules} seed {seed}: hand {current_hand} not over in {STEPS_PER_HAND} steps"
        );
        assert!(
            current_hand <= HANDS,
            "{rules} seed {seed}: not over after {HANDS} hands"
        );
        let Some(seat) = g.current_player() else {
            break;
        };
        let hand_number = g.view(seat).hand_number;
        if hand_number != current_hand {
            current_hand = hand_number;
            steps_this_hand = 0;
        }
        let table_before = CardCounts::from_cards(g.table().iter().flatten());

        // A random proposal: refused without a trace, or accepted and valid.
        let chunk: Vec<u16> = noise
            .iter()
            .cycle()
            .skip(steps % noise.len().max(1))
            .take(4)
            .copied()
            .collect();
        let before = state(&g);
        let probe = random_proposal(&g, seat, &chunk);
        if g.apply(seat, probe, 0).is_err() {
            assert_eq!(before, state(&g), "a refused action changes nothing");
        }
        check_invariants(&g, &deck);
        // An action out of turn is refused without a trace.
        let other = (seat + 1) % players;
        let before = state(&g);
        if g.current_player() != Some(other) && g.apply(other, Action::Draw, 0).is_err() {
            assert_eq!(before, state(&g));
        }
        if g.is_terminal() {
            break;
        }
        let Some(seat) = g.current_player() else {
            break;
        };
        let view = g.view(seat);
        let action = choose_action(&view, Level::Greedy).expect("a move");
        if g.apply(seat, action, 0).is_err() {
            let a = fallback(&view).expect("fallback");
            g.apply(seat, a, 0).expect("fallback accepted");
        }
        check_invariants(&g, &deck);
        // No table card went back to a hand (within one hand).
        if g.view(0).hand_number == hand_number {
            let after = CardCounts::from_cards(g.table().iter().flatten());
            assert!(
                table_before.is_subset_of(&after),
                "table cards only grow within a hand"
            );
        }
        if rules == RuleSet::Shanghai && g.view(0).hand_number > 2 {
            g.apply(0, Action::EndGame, 0).expect("host ends Shanghai");
        }
    }
    assert!(
        g.is_terminal(),
        "{rules} seed {seed}: no player to move after {steps} steps, and not over"
    );
}

/// Saving and resuming mid-game gives the same game as playing on.
fn save_resume_equals_playing_on(rules: RuleSet, players: usize, seed: u64, save_at: usize) {
    let play = |g: &mut ManipulationGame, from: usize| {
        let mut steps = from;
        while !g.is_terminal() && steps < 3000 {
            steps += 1;
            let Some(seat) = g.current_player() else {
                break;
            };
            if rules == RuleSet::Shanghai && g.view(0).hand_number > 2 {
                let _ = g.apply(0, Action::EndGame, 0);
                continue;
            }
            let view = g.view(seat);
            let action = choose_action(&view, Level::Greedy).expect("a move");
            if g.apply(seat, action, 0).is_err() {
                let a = fallback(&view).expect("fallback");
                let _ = g.apply(seat, a, 0);
            }
        }
    };
    let mut a = ManipulationGame::new(GameConfig::new(rules, players, seed)).expect("config");
    // Play to the save point.
    let mut steps = 0;
    while !a.is_terminal() && steps < save_at {
        steps += 1;
        let Some(seat) = a.current_player() else {
            break;
        };
        let view = a.view(seat);
        let action = choose_action(&view, Level::Greedy).expect("a move");
        if a.apply(seat, action, 0).is_err() {
            let _ = a.apply(seat, fallback(&view).expect("fallback"), 0);
        }
    }
    let mut b: ManipulationGame = serde_json::from_str(&state(&a)).expect("load");
    play(&mut a, steps);
    play(&mut b, steps);
    assert_eq!(state(&a), state(&b));
}

/// The seed of the games below unless `PROPTEST_RNG_SEED` says otherwise.
const GAMES_SEED: u64 = 1;

proptest! {
    // Whole games: each draw asks the move finder for a hint, and a long
    // two-player Manipulation game runs for minutes in a debug build (one
    // random draw took 8 minutes on two busy cores). A fixed seed keeps the
    // suite's time steady; `PROPTEST_RNG_SEED=<n>` explores others.
    #![proptest_config(ProptestConfig {
        cases: 6,
        rng_seed: match ProptestConfig::default().rng_seed {
            RngSeed::Random => RngSeed::Fixed(GAMES_SEED),
            chosen => chosen,
        },
        ..ProptestConfig::default()
    })]

    #[test]
    fn invariants_hold_in_random_games(
        rules in prop::sample::select(MANIPULATION.to_vec()),
        players in 2usize..=5,
        seed in any::<u64>(),
        noise in prop::collection::vec(any::<u16>(), 1..16),
    ) {
        run_game(rules, players, seed, &noise);
    }

    #[test]
    fn save_then_load_then_continue_is_the_same_game(
        rules in prop::sample::select(MANIPULATION.to_vec()),
        players in 2usize..=5,
        seed in any::<u64>(),
        save_at in 1usize..60,
    ) {
        save_resume_equals_playing_on(rules, players, seed, save_at);
    }
}
