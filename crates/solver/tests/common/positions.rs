//! Seeded random positions: a table of valid groups dealt from the rule set's
//! deck, and a hand from what is left.

use rami_cards::{Card, Face, Rank, Suit};
use rami_melds::{AceMode, GroupRules, validate_group};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

pub struct Gen {
    pub rng: ChaCha8Rng,
}

fn face_at(p: u8, s: usize) -> Face {
    let rank = if p == 14 { 1 } else { p };
    Face::new(
        Rank::new(rank).expect("rank"),
        Suit::from_index(s).expect("suit"),
    )
}

impl Gen {
    pub fn new(seed: u64) -> Gen {
        Gen {
            rng: ChaCha8Rng::seed_from_u64(seed),
        }
    }

    /// A table of about `table_cards` cards and a hand of `hand_cards`.
    #[allow(dead_code)] // (the probe deals with `position_from_deck`)
    pub fn position(
        &mut self,
        rules: GroupRules,
        deck_jokers: u8,
        table_cards: usize,
        hand_cards: usize,
        joker_chance: f64,
    ) -> (Vec<Vec<Card>>, Vec<Card>) {
        self.position_from_deck(rules, deck_jokers, table_cards, hand_cards, joker_chance, 2)
    }

    /// [`Gen::position`] dealt from a deck of `copies` of each card (one:
    /// two-player Carousel); two draws the same positions as `position`.
    #[allow(dead_code)] // (the probe's; not every user needs it)
    pub fn position_from_deck(
        &mut self,
        rules: GroupRules,
        deck_jokers: u8,
        table_cards: usize,
        hand_cards: usize,
        joker_chance: f64,
        copies: u8,
    ) -> (Vec<Vec<Card>>, Vec<Card>) {
        let mut deck = [copies; 52];
        let mut jokers = deck_jokers;
        let mut table: Vec<Vec<Card>> = Vec::new();
        let mut n = 0;
        let (lo, hi) = match rules.ace {
            AceMode::High => (2u8, 14u8),
            AceMode::Low => (1, 13),
            AceMode::Either => (1, 14),
        };
        for _ in 0..400 {
            if n >= table_cards {
                break;
            }
            let faces: Vec<Face> = if self.rng.random_bool(0.5) {
                let s = self.rng.random_range(0..4);
                let len = self.rng.random_range(3..=6u8);
                if hi - lo + 1 < len {
                    continue;
                }
                let a = self.rng.random_range(lo..=hi + 1 - len);
                (a..a + len).map(|p| face_at(p, s)).collect()
            } else {
                let r = self.rng.random_range(1..=13u8);
                let k = self.rng.random_range(3..=4);
                let mut suits = vec![0usize, 1, 2, 3];
                while suits.len() > k {
                    let i = self.rng.random_range(0..suits.len());
                    suits.remove(i);
                }
                suits.iter().map(|&s| face_at(r, s)).collect()
            };
            let joker_at = (jokers > 0 && self.rng.random_bool(joker_chance))
                .then(|| self.rng.random_range(0..faces.len()));
            let cards: Vec<Card> = faces
                .iter()
                .enumerate()
                .map(|(i, &f)| {
                    if Some(i) == joker_at {
                        Card::named_joker(f)
                    } else {
                        Card::from_face(f)
                    }
                })
                .collect();
            let ok = cards
                .iter()
                .all(|c| c.natural_face().is_none_or(|f| deck[f.index()] > 0))
                && validate_group(&cards, rules).is_ok();
            if !ok {
                continue;
            }
            for c in &cards {
                match c.natural_face() {
                    Some(f) => deck[f.index()] -= 1,
                    None => jokers -= 1,
                }
            }
            n += cards.len();
            table.push(cards);
        }
        let mut rest: Vec<Card> = Vec::new();
        for f in Face::all() {
            for _ in 0..deck[f.index()] {
                rest.push(Card::from_face(f));
            }
        }
        for _ in 0..jokers {
            rest.push(Card::JOKER);
        }
        let mut hand = Vec::new();
        for _ in 0..hand_cards.min(rest.len()) {
            let i = self.rng.random_range(0..rest.len());
            hand.push(rest.swap_remove(i));
        }
        (table, hand)
    }
}
