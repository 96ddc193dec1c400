//! Helpers of the scenario and property tests: explicit decks and checks that
//! a refused action changed nothing.
#![allow(dead_code)]

use rami_cards::{CardCounts, parse_cards};
use rami_discard::{DiscardGame, cards_per_player, composition};
use rami_game::{Action, ActionError, Card, Event, Game, GameConfig, Options, RuleSet, Seat};

pub fn cards(text: &str) -> Vec<Card> {
    parse_cards(text).unwrap_or_else(|e| panic!("bad cards {text:?}: {e}"))
}

pub fn card(text: &str) -> Card {
    cards(text)[0]
}

/// A deck for `config`: seat `s` is dealt `hands[s]` (padded with other cards),
/// then `up` starts the discard pile, then `stock` is the top of the stock (top
/// first). The padding is spread out so that it rarely makes melds by itself.
pub fn deck_for(config: &GameConfig, hands: &[&str], up: &str, stock: &str) -> Vec<Card> {
    let (decks, jokers) = composition(config);
    let full = rami_cards::deck(decks, jokers);
    let mut left = CardCounts::from_cards(&full);
    let mut take = |text: &str| -> Vec<Card> {
        let cs = cards(text);
        for &c in &cs {
            assert!(left.remove(c.in_hand()), "{c} is not left in the deck");
        }
        cs
    };
    let mut hands: Vec<Vec<Card>> = (0..config.players)
        .map(|s| take(hands.get(s).copied().unwrap_or("")))
        .collect();
    let up = take(up);
    let stock = take(stock);
    let rest = left.cards();
    let len = rest.len();
    let mut filler: Vec<Card> = (0..len).map(|i| rest[(i * 17) % len]).collect();
    if len.is_multiple_of(17) {
        filler = rest;
    }
    let mut filler = filler.into_iter();
    let per = cards_per_player(config);
    for h in &mut hands {
        assert!(
            h.len() <= per,
            "a hand of {} cards, {per} are dealt",
            h.len()
        );
        while h.len() < per {
            h.push(filler.next().expect("deck too small"));
        }
    }
    let mut deck = Vec::with_capacity(full.len());
    for k in 0..per {
        for h in &hands {
            deck.push(h[k]);
        }
    }
    if up.is_empty() {
        deck.extend(filler.next());
    } else {
        deck.extend(up);
    }
    deck.extend(stock);
    deck.extend(filler);
    deck
}

pub fn config(rules: RuleSet, players: usize, options: Options) -> GameConfig {
    GameConfig {
        rules,
        players,
        options,
        seed: 7,
        deck: None,
    }
}

/// A game dealt from an explicit deck.
pub fn game(
    rules: RuleSet,
    players: usize,
    options: Options,
    hands: &[&str],
    up: &str,
    stock: &str,
) -> DiscardGame {
    let mut c = config(rules, players, options);
    c.deck = Some(deck_for(&c, hands, up, stock));
    DiscardGame::new(c).expect("valid test game")
}

pub fn ok(g: &mut DiscardGame, seat: Seat, action: Action, now: u64) -> Vec<Event> {
    g.apply(seat, action.clone(), now)
        .unwrap_or_else(|e| panic!("seat {seat} {action:?} refused: {e}"))
}

/// The action is refused and the game is byte for byte what it was.
pub fn refused(g: &mut DiscardGame, seat: Seat, action: Action, now: u64) -> ActionError {
    let before = serde_json::to_string(g).unwrap();
    let err = match g.apply(seat, action.clone(), now) {
        Err(e) => e,
        Ok(_) => panic!("seat {seat} {action:?} was accepted"),
    };
    assert_eq!(
        serde_json::to_string(g).unwrap(),
        before,
        "{action:?} changed the game"
    );
    // Every refusal tells the player what is at fault.
    assert!(!err.to_string().is_empty());
    err
}

pub fn hand(g: &DiscardGame, seat: Seat) -> Vec<Card> {
    let mut h = g.view(seat).hand;
    h.sort();
    h
}

pub fn sorted(text: &str) -> Vec<Card> {
    let mut c = cards(text);
    c.sort();
    c
}

pub fn meld(groups: &str) -> Action {
    Action::Meld {
        groups: rami_cards::parse_table(groups).unwrap(),
    }
}

pub fn discard(c: &str) -> Action {
    Action::Discard { card: card(c) }
}

pub fn lay_off(meld: usize, c: &str) -> Action {
    Action::LayOff {
        meld,
        cards: cards(c),
    }
}

pub fn hand_result(events: &[Event]) -> Option<&rami_game::HandResult> {
    events.iter().find_map(|e| match e {
        Event::HandEnded { result } => Some(result),
        _ => None,
    })
}
