//! Claims in whole games between computer players (`play_game`, what `rami sim`
//! runs): with Rami's Claim option the computers claim, and when two want the
//! same discard the seat after the next player gets it.

use rami_bots::{Level, choose_action_or_claim, choose_claim, play_game};
use rami_cards::{Card, CardCounts, parse_cards};
use rami_discard::DiscardGame;
use rami_game::{Action, Game, GameConfig, Options, RuleSet};

fn claims_on() -> Options {
    Options {
        claim: true,
        ..Options::default()
    }
}

fn cards(text: &str) -> Vec<Card> {
    parse_cards(text).expect("test cards")
}

/// A Rami game dealt from `hands` (13 cards each, seat 0 first), `up` turned
/// up, then `stock` (top first), then the rest of the deck.
fn dealt(config: GameConfig, hands: [&str; 4], up: &str, stock: &str) -> DiscardGame {
    let (decks, jokers) = rami_discard::composition(&config);
    let mut left = CardCounts::from_cards(&rami_cards::deck(decks, jokers));
    let mut take = |text: &str| {
        let cs = cards(text);
        for &c in &cs {
            assert!(left.remove(c), "{c} is not left in the deck");
        }
        cs
    };
    let hands: Vec<Vec<Card>> = hands.iter().map(|h| take(h)).collect();
    let up = take(up);
    let stock = take(stock);
    let mut deck = Vec::new();
    for k in 0..13 {
        deck.extend(hands.iter().map(|h| h[k]));
    }
    deck.extend(up);
    deck.extend(stock);
    deck.extend(left.cards());
    DiscardGame::new(GameConfig {
        deck: Some(deck),
        ..config
    })
    .expect("a valid deck")
}

#[test]
fn the_first_seat_after_the_next_player_wins_a_discard_two_computers_want() {
    let config = GameConfig {
        options: claims_on(),
        ..GameConfig::new(RuleSet::Rami, 4, 1)
    };
    let mut game = dealt(
        config,
        [
            // Draws 7S and discards K♠, the only card near nothing.
            "KS 2H 3H 2S 3S 5D 6D 5C 6C 8H 9H 8D 9D",
            // Next: nothing to do with a king.
            "AH 2D 4C 6S 8C 10C QH 3C 5H 7D 9S JD 4H",
            // Seats 2 and 3 each hold two kings: K♠ opens for either.
            "KH KD 2C 8C QC 4S 7S 10S 6D 9D 3H JH 5C",
            "KH KD 2S 8S QS 4C 7C 10C 6H 9H 3D JD 5S",
        ],
        "JC",
        "7S 2D 4H",
    );
    // Seat 0 draws and discards; then a claim.
    let summary = play_game(&mut game, &[Level::Greedy], 3);
    assert_eq!(summary.claims, 1);
    assert_eq!(game.view(1).discard.last(), Some(&cards("JC")[0]));
    assert_eq!(game.current_player(), Some(2), "seat 2 was asked first");
    let two = game.view(2).hand;
    assert_eq!(two.len(), 16);
    assert!(two.contains(&cards("KS")[0]));
    assert_eq!(game.view(3).hand.len(), 13);
    // The claimer's turn goes on as any turn: it melds the kings.
    let view = game.view(2);
    assert!(choose_claim(&view).is_none(), "no claim on its own turn");
    match choose_action_or_claim(&view, Level::Greedy) {
        Some(Action::Meld { groups }) => {
            assert!(
                groups.iter().any(|g| g.contains(&cards("KS")[0])),
                "{groups:?}"
            )
        }
        other => panic!("seat 2 played {other:?}"),
    }
}

#[test]
fn whole_games_with_claim_on_record_claims_and_finish() {
    let mut claims = 0;
    for seed in 0..6 {
        for level in [Level::Greedy, Level::Best] {
            let config = GameConfig {
                options: claims_on(),
                ..GameConfig::new(RuleSet::Rami, 4, seed)
            };
            let mut game = rami_engine::new_game(config.clone()).expect("config");
            let summary = play_game(&mut game, &[level], 200_000);
            assert!(summary.finished, "seed {seed}: {summary:?}");
            claims += summary.claims;
            // Claim off: the same seats never claim.
            let config = GameConfig {
                options: Options::default(),
                ..config
            };
            let mut game = rami_engine::new_game(config).expect("config");
            assert_eq!(play_game(&mut game, &[level], 200_000).claims, 0);
        }
    }
    assert!(claims > 0, "no computer claimed in twelve whole games");
}
