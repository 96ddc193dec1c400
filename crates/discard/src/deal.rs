//! Decks, shuffles and deal sizes of the two discard rule sets.

use rami_cards::{Card, deck};
use rami_game::{ConfigError, GameConfig, RuleSet};
use rand::SeedableRng;
use rand::seq::SliceRandom;
use rand_chacha::ChaCha8Rng;

/// (decks, jokers) for the rule set, player count and options.
pub fn composition(config: &GameConfig) -> (u8, u8) {
    match config.rules {
        RuleSet::Rummy500 => {
            // Seed 002: "from five players two decks"; the joker option adds two
            // jokers to the game whatever the number of decks (decision).
            let decks = config.rules.copies(config.players);
            (decks, if config.options.jokers { 2 } else { 0 })
        }
        // Rami: two decks and six jokers, 110 cards.
        _ => (2, 6),
    }
}

/// Cards dealt to each player.
pub fn cards_per_player(config: &GameConfig) -> usize {
    match config.rules {
        RuleSet::Rummy500 if config.players == 2 => usize::from(config.options.two_player_hand),
        RuleSet::Rummy500 => 7,
        _ => 13,
    }
}

/// A deck for [`GameConfig::deck`] that deals the first hand as scripted
/// (tests, a guided deal): seat `s` gets `hands[s]`, filled up to
/// `cards_per_player` from the cards left; then one card turns up on the
/// discard pile, and the stock starts with `stock` (top first). `None` when a
/// card is asked for more often than `composition` holds it.
pub fn scripted_deck(
    config: &GameConfig,
    hands: &[Vec<Card>],
    stock: &[Card],
) -> Option<Vec<Card>> {
    let (decks, jokers) = composition(config);
    let size = cards_per_player(config);
    let mut left = rami_cards::CardCounts::from_cards(&deck(decks, jokers));
    for &c in hands.iter().flatten().chain(stock) {
        if !left.remove(c) {
            return None;
        }
    }
    let mut rest = left.cards().into_iter();
    let hands: Vec<Vec<Card>> = hands
        .iter()
        .map(|h| {
            let mut h = h.clone();
            h.extend(rest.by_ref().take(size.saturating_sub(h.len())));
            h
        })
        .collect();
    // Dealt one card a seat in turn, as the engine deals.
    let mut out: Vec<Card> = (0..size)
        .flat_map(|k| hands.iter().filter_map(move |h| h.get(k).copied()))
        .collect();
    out.extend(rest.next());
    out.extend_from_slice(stock);
    out.extend(rest);
    Some(out)
}

/// One deterministic shuffle stream per (hand, reshuffle): derived from the seed,
/// so no generator state has to be saved with a game.
fn stream(seed: u64, hand: u32, reshuffle: u32) -> ChaCha8Rng {
    let mix = (u64::from(hand) << 32 | u64::from(reshuffle)).wrapping_mul(0x9E37_79B9_7F4A_7C15);
    ChaCha8Rng::seed_from_u64(seed ^ mix)
}

/// The deck of hand `hand` (1-based), top card first.
pub fn shuffled_deck(config: &GameConfig, hand: u32) -> Vec<Card> {
    let (decks, jokers) = composition(config);
    let mut cards = deck(decks, jokers);
    cards.shuffle(&mut stream(config.seed, hand, 0));
    cards
}

/// Shuffles the cards that become a new stock (reshuffle number `k`, 1-based).
pub fn shuffle_stock(cards: &mut [Card], seed: u64, hand: u32, k: u32) {
    cards.shuffle(&mut stream(seed, hand, k));
}

/// An explicit deck must hold exactly the rule set's cards.
pub fn check_explicit_deck(config: &GameConfig, given: &[Card]) -> Result<(), ConfigError> {
    let (decks, jokers) = composition(config);
    config.check_deck(given, decks, jokers)
}
