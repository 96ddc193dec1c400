//! Decks, shuffling and dealing for the seven manipulation rule sets.

use rami_cards::{Card, deck};
use rami_game::{ConfigError, GameConfig, RuleSet, Table};
use rand::SeedableRng;
use rand::seq::SliceRandom;
use rand_chacha::ChaCha8Rng;

/// (decks, jokers) for the rule set and number of players.
pub fn composition(rules: RuleSet, players: usize) -> (u8, u8) {
    let jokers = match rules {
        RuleSet::Carousel if players == 2 => 1,
        _ => rules.max_jokers(),
    };
    (rules.copies(players), jokers)
}

pub fn cards_per_player(rules: RuleSet) -> usize {
    match rules {
        RuleSet::Manipulation => 7,
        RuleSet::Machiavelli | RuleSet::Vatikan => 13,
        RuleSet::Shanghai | RuleSet::Carousel => 10,
        RuleSet::Guadalupe | RuleSet::Tahiti => 5,
        RuleSet::Rummy500 | RuleSet::Rami => 13,
    }
}

/// The deck of hand `hand` (1-based), top card first: shuffled from the seed and
/// the hand number, so no generator state needs saving.
pub fn shuffled_deck(config: &GameConfig, hand: u32) -> Vec<Card> {
    let (decks, jokers) = composition(config.rules, config.players);
    let mut cards = deck(decks, jokers);
    let stream = config.seed ^ u64::from(hand).wrapping_mul(0x9E37_79B9_7F4A_7C15);
    cards.shuffle(&mut ChaCha8Rng::seed_from_u64(stream));
    cards
}

/// An explicit deck must be exactly the rule set's cards.
pub fn check_explicit_deck(config: &GameConfig, given: &[Card]) -> Result<(), ConfigError> {
    let (decks, jokers) = composition(config.rules, config.players);
    config.check_deck(given, decks, jokers)
}

pub struct Dealt {
    pub hands: Vec<Vec<Card>>,
    pub table: Table,
    /// Top card last.
    pub stock: Vec<Card>,
}

/// Deals from the top of `deck` (first element), starting with `first`, one card
/// at a time (Shanghai: packets of 3, 3, 3 and 1). Tahiti then lays four loose
/// cards face up; a joker turned up there is set aside and goes to the bottom of
/// the stock (a loose joker would have no name).
pub fn deal(config: &GameConfig, deck: Vec<Card>, first: usize) -> Dealt {
    let n = config.players;
    let per = cards_per_player(config.rules);
    let packets: Vec<usize> = match config.rules {
        RuleSet::Shanghai => vec![3, 3, 3, 1],
        _ => vec![1; per],
    };
    let mut cards = deck.into_iter().map(|c| c.in_hand());
    let mut hands = vec![Vec::with_capacity(per); n];
    for packet in packets {
        for k in 0..n {
            let seat = (first + k) % n;
            hands[seat].extend(cards.by_ref().take(packet));
        }
    }
    let mut table = Vec::new();
    let mut set_aside = Vec::new();
    if config.rules == RuleSet::Tahiti {
        while table.len() < 4 {
            match cards.next() {
                Some(c) if c.is_joker() => set_aside.push(c),
                Some(c) => table.push(vec![c]),
                None => break,
            }
        }
    }
    let mut rest: Vec<Card> = cards.collect();
    rest.extend(set_aside);
    rest.reverse();
    Dealt {
        hands,
        table,
        stock: rest,
    }
}
