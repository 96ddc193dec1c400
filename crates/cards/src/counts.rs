//! A multiset of cards, counted by face (jokers counted together).

use crate::{Card, Face};
use serde::{Deserialize, Serialize};

/// How many of each card a collection holds: one slot per face and one for jokers
/// (whatever they declare). Used to check that cards are conserved.
#[derive(Clone, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct CardCounts {
    #[serde(with = "counts_serde")]
    counts: [u8; 53],
}

mod counts_serde {
    use serde::{Deserialize, Deserializer, Serializer};
    pub fn serialize<S: Serializer>(c: &[u8; 53], s: S) -> Result<S::Ok, S::Error> {
        s.collect_seq(c.iter())
    }
    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<[u8; 53], D::Error> {
        let v: Vec<u8> = Vec::deserialize(d)?;
        v.try_into()
            .map_err(|_| serde::de::Error::custom("card counts need 53 slots"))
    }
}

impl Default for CardCounts {
    fn default() -> Self {
        CardCounts { counts: [0; 53] }
    }
}

impl std::fmt::Debug for CardCounts {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_list().entries(self.cards()).finish()
    }
}

fn slot(card: Card) -> usize {
    match card.natural_face() {
        Some(face) => face.index(),
        None => 52,
    }
}

impl CardCounts {
    pub fn new() -> Self {
        Self::default()
    }

    pub fn from_cards<'a>(cards: impl IntoIterator<Item = &'a Card>) -> Self {
        let mut counts = Self::new();
        for &card in cards {
            counts.add(card);
        }
        counts
    }

    pub fn add(&mut self, card: Card) {
        let s = &mut self.counts[slot(card)];
        *s = s.saturating_add(1);
    }

    /// Removes one copy; `false` (and no change) if there is none.
    pub fn remove(&mut self, card: Card) -> bool {
        let s = &mut self.counts[slot(card)];
        if *s == 0 {
            return false;
        }
        *s -= 1;
        true
    }

    /// Copies of this card (all jokers count as one kind).
    pub fn count(&self, card: Card) -> u8 {
        self.counts[slot(card)]
    }

    pub fn face_count(&self, face: Face) -> u8 {
        self.counts[face.index()]
    }

    pub fn jokers(&self) -> u8 {
        self.counts[52]
    }

    pub fn len(&self) -> usize {
        self.counts.iter().map(|&c| usize::from(c)).sum()
    }

    pub fn is_empty(&self) -> bool {
        self.counts.iter().all(|&c| c == 0)
    }

    /// Every copy in `self` is also in `other`.
    pub fn is_subset_of(&self, other: &CardCounts) -> bool {
        self.counts
            .iter()
            .zip(other.counts.iter())
            .all(|(a, b)| a <= b)
    }

    /// `self - other`, or `None` when `other` is not a subset of `self`.
    pub fn minus(&self, other: &CardCounts) -> Option<CardCounts> {
        let mut out = self.clone();
        for (o, &b) in out.counts.iter_mut().zip(other.counts.iter()) {
            *o = o.checked_sub(b)?;
        }
        Some(out)
    }

    pub fn plus(&self, other: &CardCounts) -> CardCounts {
        let mut out = self.clone();
        for (o, &b) in out.counts.iter_mut().zip(other.counts.iter()) {
            *o = o.saturating_add(b);
        }
        out
    }

    /// The highest number of copies of any one face (jokers not counted).
    pub fn max_face_copies(&self) -> u8 {
        self.counts[..52].iter().copied().max().unwrap_or(0)
    }

    /// The cards, in face order, jokers last (unnamed).
    pub fn cards(&self) -> Vec<Card> {
        let mut out = Vec::with_capacity(self.len());
        for (i, &c) in self.counts.iter().enumerate() {
            let card = Face::from_index(i).map_or(Card::JOKER, Card::from_face);
            out.extend(std::iter::repeat_n(card, usize::from(c)));
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::parse_cards;

    #[test]
    fn jokers_count_together_whatever_they_declare() {
        let c = CardCounts::from_cards(&parse_cards("* *5H 5H 5H").unwrap());
        assert_eq!(c.jokers(), 2);
        assert_eq!(c.count(parse_cards("5H").unwrap()[0]), 2);
        assert_eq!(c.len(), 4);
    }

    #[test]
    fn minus_refuses_what_is_not_there() {
        let a = CardCounts::from_cards(&parse_cards("5H 6H").unwrap());
        let b = CardCounts::from_cards(&parse_cards("5H 7H").unwrap());
        assert!(a.minus(&b).is_none());
        let c = CardCounts::from_cards(&parse_cards("5H").unwrap());
        assert_eq!(a.minus(&c).unwrap().cards(), parse_cards("6H").unwrap());
        assert!(!a.clone().remove(parse_cards("KS").unwrap()[0]));
    }
}
