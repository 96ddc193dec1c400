//! Playing cards for every Rami rule set: ranks, suits, jokers with a declared
//! identity, multisets of up to two decks, and the text notation of `CLI.md`
//! (`10S`, `*5H`, `"QS KS AS | 7H 7D 7C"`) in both directions.
//!
//! A [`Card`] is one byte so that tables and hands are cheap to copy, hash,
//! compare and send over a Bluetooth link.

mod counts;
mod notation;

pub use counts::CardCounts;
pub use notation::{
    NotationError, format_cards, format_table, parse_card, parse_cards, parse_table,
};

use serde::{Deserialize, Serialize};
use std::fmt;

/// The four suits, in the order of the notation `S H D C`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
pub enum Suit {
    Spades,
    Hearts,
    Diamonds,
    Clubs,
}

impl Suit {
    pub const ALL: [Suit; 4] = [Suit::Spades, Suit::Hearts, Suit::Diamonds, Suit::Clubs];

    /// 0..4, in the order of [`Suit::ALL`].
    pub fn index(self) -> usize {
        self as usize
    }

    pub fn from_index(i: usize) -> Option<Suit> {
        Suit::ALL.get(i).copied()
    }

    /// The notation letter: `S`, `H`, `D` or `C`.
    pub fn letter(self) -> char {
        ['S', 'H', 'D', 'C'][self.index()]
    }

    /// The suit symbol `♠ ♥ ♦ ♣` (for people, not for the notation's output).
    pub fn symbol(self) -> char {
        ['♠', '♥', '♦', '♣'][self.index()]
    }

    pub fn is_red(self) -> bool {
        matches!(self, Suit::Hearts | Suit::Diamonds)
    }
}

/// A rank from ace (1) to king (13).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
pub struct Rank(u8);

impl Rank {
    pub const ACE: Rank = Rank(1);
    pub const JACK: Rank = Rank(11);
    pub const QUEEN: Rank = Rank(12);
    pub const KING: Rank = Rank(13);

    /// `None` outside 1..=13.
    pub fn new(value: u8) -> Option<Rank> {
        (1..=13).contains(&value).then_some(Rank(value))
    }

    /// 1 (ace) to 13 (king).
    pub fn value(self) -> u8 {
        self.0
    }

    pub fn is_ace(self) -> bool {
        self.0 == 1
    }

    /// Every rank from ace to king.
    pub fn all() -> impl Iterator<Item = Rank> {
        (1..=13).map(Rank)
    }

    /// The notation: `A 2 … 10 J Q K`.
    pub fn label(self) -> &'static str {
        [
            "A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K",
        ][usize::from(self.0 - 1)]
    }
}

/// A card that is not a joker: a rank and a suit. Also the identity a joker
/// declares on the table.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
pub struct Face(u8);

impl Face {
    /// Number of distinct faces (one deck).
    pub const COUNT: usize = 52;

    pub fn new(rank: Rank, suit: Suit) -> Face {
        Face(suit as u8 * 13 + (rank.0 - 1))
    }

    /// 0..52: suit-major, then rank.
    pub fn index(self) -> usize {
        usize::from(self.0)
    }

    pub fn from_index(i: usize) -> Option<Face> {
        (i < Face::COUNT).then_some(Face(i as u8))
    }

    pub fn rank(self) -> Rank {
        Rank(self.0 % 13 + 1)
    }

    pub fn suit(self) -> Suit {
        Suit::ALL[usize::from(self.0 / 13)]
    }

    /// All 52 faces, suit by suit.
    pub fn all() -> impl Iterator<Item = Face> {
        (0..52u8).map(Face)
    }
}

impl fmt::Display for Face {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}{}", self.rank().label(), self.suit().letter())
    }
}

/// One card: a natural card, or a joker that may declare the face it stands for.
///
/// Stored in one byte: 0..52 natural faces, 52 an unnamed joker, 64 + face a
/// named joker.
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(try_from = "u8", into = "u8")]
pub struct Card(u8);

const JOKER: u8 = 52;
const NAMED: u8 = 64;

impl Card {
    /// The joker with no declared identity (as it is in a hand or the stock).
    pub const JOKER: Card = Card(JOKER);

    pub fn natural(rank: Rank, suit: Suit) -> Card {
        Card(Face::new(rank, suit).0)
    }

    pub fn from_face(face: Face) -> Card {
        Card(face.0)
    }

    /// A joker standing for `face`.
    pub fn named_joker(face: Face) -> Card {
        Card(NAMED + face.0)
    }

    pub fn is_joker(self) -> bool {
        self.0 >= JOKER
    }

    /// The face of a natural card, `None` for a joker.
    pub fn natural_face(self) -> Option<Face> {
        (self.0 < JOKER).then_some(Face(self.0))
    }

    /// The face the card counts as in a group: its own, or the joker's declared one.
    pub fn face(self) -> Option<Face> {
        match self.0 {
            f if f < JOKER => Some(Face(f)),
            JOKER => None,
            n => Some(Face(n - NAMED)),
        }
    }

    /// For a joker, the face it declares (if any); `None` for natural cards.
    pub fn declared(self) -> Option<Face> {
        (self.0 >= NAMED).then(|| Face(self.0 - NAMED))
    }

    /// The card as it is in a hand: a joker loses its declared identity.
    pub fn in_hand(self) -> Card {
        if self.is_joker() { Card::JOKER } else { self }
    }

    pub fn rank(self) -> Option<Rank> {
        self.face().map(Face::rank)
    }

    pub fn suit(self) -> Option<Suit> {
        self.face().map(Face::suit)
    }

    /// The card as people read it: `A♠`, `10♥`, `★` (a joker), `★5♥` (named joker).
    pub fn display_symbol(self) -> String {
        let face = |f: Face| format!("{}{}", f.rank().label(), f.suit().symbol());
        match (self.is_joker(), self.face()) {
            (false, Some(f)) => face(f),
            (true, Some(f)) => format!("★{}", face(f)),
            _ => "★".to_string(),
        }
    }
}

impl From<Card> for u8 {
    fn from(card: Card) -> u8 {
        card.0
    }
}

/// A byte that is not a card (from a file or the network).
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
#[error("byte {0} is not a card")]
pub struct InvalidCardByte(pub u8);

impl TryFrom<u8> for Card {
    type Error = InvalidCardByte;
    fn try_from(b: u8) -> Result<Card, InvalidCardByte> {
        if b <= JOKER || (NAMED..NAMED + 52).contains(&b) {
            Ok(Card(b))
        } else {
            Err(InvalidCardByte(b))
        }
    }
}

impl fmt::Display for Card {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match (self.is_joker(), self.face()) {
            (false, Some(face)) => write!(f, "{face}"),
            (true, Some(face)) => write!(f, "*{face}"),
            _ => f.write_str("*"),
        }
    }
}

impl fmt::Debug for Card {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(self, f)
    }
}

/// A full deck: `decks` copies of the 52 faces and `jokers` jokers, in a fixed order
/// (the caller shuffles).
pub fn deck(decks: u8, jokers: u8) -> Vec<Card> {
    let mut cards = Vec::with_capacity(usize::from(decks) * 52 + usize::from(jokers));
    for _ in 0..decks {
        cards.extend(Face::all().map(Card::from_face));
    }
    cards.extend(std::iter::repeat_n(Card::JOKER, usize::from(jokers)));
    cards
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_byte_round_trips_or_is_refused() {
        let mut valid = 0;
        for b in 0..=255u8 {
            if let Ok(card) = Card::try_from(b) {
                valid += 1;
                assert_eq!(u8::from(card), b);
            }
        }
        assert_eq!(valid, 52 + 1 + 52);
    }

    #[test]
    fn faces_know_rank_and_suit() {
        for face in Face::all() {
            assert_eq!(Face::new(face.rank(), face.suit()), face);
        }
        let five_hearts = Face::new(Rank::new(5).unwrap(), Suit::Hearts);
        let joker = Card::named_joker(five_hearts);
        assert!(joker.is_joker());
        assert_eq!(joker.face(), Some(five_hearts));
        assert_eq!(joker.natural_face(), None);
        assert_eq!(joker.in_hand(), Card::JOKER);
        assert_eq!(joker.to_string(), "*5H");
    }

    #[test]
    fn deck_sizes() {
        assert_eq!(deck(2, 0).len(), 104);
        assert_eq!(deck(1, 1).len(), 53);
        assert_eq!(deck(2, 6).len(), 110);
    }
}
