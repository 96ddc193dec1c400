//! Positions for the scenario and property tests.
#![allow(dead_code)]

use rami_cards::{Card, CardCounts, deck, parse_cards, parse_table};
use rami_game::{Action, ActionError, Event, Game, GameConfig, Options, RuleSet, Table};
use rami_manipulation::{ManipulationGame, Position, deck_composition};

pub fn cards(text: &str) -> Vec<Card> {
    parse_cards(text).expect("test notation")
}

pub fn table(text: &str) -> Table {
    parse_table(text).expect("test notation")
}

/// A game in a chosen position: `hands` per seat, `table`, the top of the stock;
/// the rest of the deck follows in the stock.
pub fn position(
    rules: RuleSet,
    options: Options,
    hands: &[&str],
    table_text: &str,
    stock_top: &str,
    current: usize,
) -> ManipulationGame {
    position_with(
        rules,
        options,
        hands,
        table_text,
        stock_top,
        current,
        Vec::new(),
    )
}

/// As [`position`], with who has made their first meld (Vatikan).
pub fn position_with(
    rules: RuleSet,
    options: Options,
    hands: &[&str],
    table_text: &str,
    stock_top: &str,
    current: usize,
    opened: Vec<bool>,
) -> ManipulationGame {
    let players = hands.len();
    let (decks, jokers) = deck_composition(rules, players);
    let mut rest = CardCounts::from_cards(&deck(decks, jokers));
    let hands: Vec<Vec<Card>> = hands.iter().map(|h| cards(h)).collect();
    let table = table(table_text);
    let mut stock = cards(stock_top);
    for c in hands
        .iter()
        .flatten()
        .chain(table.iter().flatten())
        .chain(stock.iter())
    {
        assert!(rest.remove(c.in_hand()), "the position uses {c} too often");
    }
    stock.extend(rest.cards());
    let mut config = GameConfig::new(rules, players, 7);
    config.options = options;
    ManipulationGame::from_position(
        config,
        Position {
            hands,
            table,
            stock,
            current,
            opened,
        },
    )
    .expect("valid position")
}

pub fn simple(
    rules: RuleSet,
    hands: &[&str],
    table_text: &str,
    stock_top: &str,
) -> ManipulationGame {
    position(rules, Options::default(), hands, table_text, stock_top, 0)
}

pub fn done(game: &mut ManipulationGame, seat: usize, t: &str) -> Result<Vec<Event>, ActionError> {
    game.apply(seat, Action::Done { table: table(t) }, 0)
}

/// Applies and asserts that a refusal leaves the state exactly as it was.
pub fn refused(game: &mut ManipulationGame, seat: usize, action: Action) -> ActionError {
    let before = serde_json::to_string(&*game).expect("serialize");
    let err = game.apply(seat, action, 0).expect_err("should be refused");
    assert_eq!(before, serde_json::to_string(&*game).expect("serialize"));
    err
}

/// [`refused`] for a Done with the table `t`.
pub fn refused_done(game: &mut ManipulationGame, seat: usize, t: &str) -> ActionError {
    refused(game, seat, Action::Done { table: table(t) })
}

pub fn hand(game: &ManipulationGame, seat: usize) -> String {
    rami_cards::format_cards(game.hand(seat).expect("seat"))
}
