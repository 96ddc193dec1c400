//! The rules that compare the table before and after a move, beyond each
//! group's own validity: joker names and copies (Carousel, Vatikan, Tahiti),
//! Vatikan's anchored jokers and run-of-three first meld, Tahiti's frozen joker
//! groups and loose singles.
//!
//! The rules engine judges every proposal with these, and the move finder
//! checks its answers with them, so a computer player or a hint can never offer
//! a play the engine refuses.

use crate::RuleSet;
use rami_cards::{Card, CardCounts, Face};
use serde::{Deserialize, Serialize};

/// Which table rule a move breaks (the engine turns it into its refusal).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error, Serialize, Deserialize)]
pub enum TableRuleError {
    #[error("the joker standing for {was} cannot take a new name until it is freed")]
    JokerRenamed { was: Face },
    #[error("group {group}: a joker cannot be {face}: all {copies} copies are on the table")]
    TooManyCopies {
        group: usize,
        face: Face,
        copies: u8,
    },
    #[error("the joker standing for {face} must stay beside a card that was next to it")]
    JokerMoved { face: Face },
    #[error("the freed joker that stood for {face} must take a new name")]
    FreedJokerNotRenamed { face: Face },
    #[error("group {group} holds a joker: it must stay whole, with only hand cards added")]
    FrozenGroupChanged { group: usize },
    #[error("a card from the table cannot join group {group}, which holds a joker")]
    TableCardJoinsJokerGroup { group: usize },
    #[error("{card} would be left alone on the table")]
    LoneCard { card: Card },
}

/// Every table rule of `rules` (names and copies, then Vatikan's anchoring,
/// then Tahiti's groups), in the order the engine reports them: the first
/// broken one. `copies`: how many of each card the game's deck holds.
pub fn check_table_rules(
    rules: RuleSet,
    old: &[Vec<Card>],
    new: &[Vec<Card>],
    played: &[Card],
    copies: u8,
) -> Result<(), TableRuleError> {
    if matches!(
        rules,
        RuleSet::Carousel | RuleSet::Vatikan | RuleSet::Tahiti
    ) {
        check_joker_names(rules, old, new, played)?;
        check_copies(new, copies)?;
    }
    if rules == RuleSet::Vatikan {
        check_anchored_jokers(old, new)?;
    }
    if rules == RuleSet::Tahiti {
        check_tahiti(old, new, played)?;
    }
    Ok(())
}

/// A multiset of exact card bytes (a named joker is its own kind here).
#[derive(Clone)]
struct Bag([i16; 128]);

impl Bag {
    fn new() -> Bag {
        Bag([0; 128])
    }
    fn of<'a>(cards: impl IntoIterator<Item = &'a Card>) -> Bag {
        let mut b = Bag::new();
        for &c in cards {
            b.0[usize::from(u8::from(c))] += 1;
        }
        b
    }
    /// `self - other`, or `None` when `other` is not inside `self`.
    fn minus(&self, other: &Bag) -> Option<Bag> {
        let mut out = self.clone();
        for (o, &b) in out.0.iter_mut().zip(other.0.iter()) {
            *o -= b;
            if *o < 0 {
                return None;
            }
        }
        Some(out)
    }
    fn cards(&self) -> Vec<Card> {
        let mut out = Vec::new();
        for (i, &n) in self.0.iter().enumerate() {
            if let Ok(card) = Card::try_from(i as u8) {
                out.extend(std::iter::repeat_n(card, n.max(0) as usize));
            }
        }
        out
    }
    fn add_all<'a>(&mut self, cards: impl IntoIterator<Item = &'a Card>) {
        for &c in cards {
            self.0[usize::from(u8::from(c))] += 1;
        }
    }
    fn get(&self, c: Card) -> i16 {
        self.0[usize::from(u8::from(c))]
    }
    /// Takes every card of `cards` out of the bag, or changes nothing and says no.
    fn take_all(&mut self, cards: &[Card]) -> bool {
        let mut trial = self.clone();
        for &c in cards {
            let slot = &mut trial.0[usize::from(u8::from(c))];
            if *slot == 0 {
                return false;
            }
            *slot -= 1;
        }
        *self = trial;
        true
    }
}

/// Vatikan's first meld: some group of the new table holds three natural cards of
/// one suit in sequence that were all played from the hand. (Two copies of a card
/// are interchangeable, so "this 5H came from the hand" is a matter of counts.)
pub fn lays_run_of_three_from_hand(table: &[Vec<Card>], played: &[Card]) -> bool {
    table.iter().any(|group| {
        let mut from_hand = Bag::of(played.iter().filter(|c| !c.is_joker()));
        let mine: Vec<Card> = group
            .iter()
            .copied()
            .filter(|&c| !c.is_joker() && from_hand.take_all(&[c]))
            .collect();
        has_natural_run_of_three(&mine)
    })
}

/// A named joker may not stand for a card whose every copy in the deck is on the
/// table already: when the real card arrives the joker must take a new name.
pub fn check_copies(table: &[Vec<Card>], copies: u8) -> Result<(), TableRuleError> {
    let mut on_table = CardCounts::from_cards(table.iter().flatten());
    for (group, cards) in table.iter().enumerate() {
        for face in cards.iter().filter_map(|c| c.declared()) {
            if on_table.face_count(face) >= copies {
                return Err(TableRuleError::TooManyCopies {
                    group,
                    face,
                    copies,
                });
            }
            on_table.add(Card::from_face(face));
        }
    }
    Ok(())
}

/// Three natural cards of one suit in sequence (ace either end) among `cards`.
fn has_natural_run_of_three(cards: &[Card]) -> bool {
    let faces: Vec<Face> = cards.iter().filter_map(|c| c.natural_face()).collect();
    let has = |suit, pos: u8| {
        let rank = if pos == 14 { 1 } else { pos };
        faces
            .iter()
            .any(|f| f.suit() == suit && f.rank().value() == rank)
    };
    rami_cards::Suit::ALL
        .into_iter()
        .any(|s| (1..=12u8).any(|p| has(s, p) && has(s, p + 1) && has(s, p + 2)))
}

/// Jokers already on the table keep their names unless freed (Carousel, Vatikan:
/// the real card is on the table; Tahiti: the real card is played from the hand).
pub fn check_joker_names(
    rules: RuleSet,
    old: &[Vec<Card>],
    new: &[Vec<Card>],
    played: &[Card],
) -> Result<(), TableRuleError> {
    let jokers = |t: &[Vec<Card>]| -> Vec<Face> {
        t.iter()
            .flatten()
            .filter(|c| c.is_joker())
            .filter_map(|c| c.declared())
            .collect()
    };
    let mut unmatched_new = jokers(new);
    let mut renamed = Vec::new();
    for face in jokers(old) {
        match unmatched_new.iter().position(|&f| f == face) {
            Some(i) => {
                unmatched_new.swap_remove(i);
            }
            None => renamed.push(face),
        }
    }
    let natural_on_new = CardCounts::from_cards(new.iter().flatten());
    let played_counts = CardCounts::from_cards(played);
    let mut freed_budget: Vec<(Face, u8)> = Vec::new();
    for face in renamed {
        let available = if rules == RuleSet::Tahiti {
            played_counts.face_count(face)
        } else {
            natural_on_new.face_count(face)
        };
        let used = freed_budget
            .iter_mut()
            .find(|(f, _)| *f == face)
            .map(|(_, n)| {
                *n += 1;
                *n
            })
            .unwrap_or_else(|| {
                freed_budget.push((face, 1));
                1
            });
        // Carousel and Vatikan: one real card on the table frees every joker of
        // that name; Tahiti: each real card played frees one joker.
        let freed = if rules == RuleSet::Tahiti {
            used <= available
        } else {
            available > 0
        };
        if !freed {
            return Err(TableRuleError::JokerRenamed { was: face });
        }
    }
    Ok(())
}

/// The identities next to each joker of a group: run neighbours, or the other
/// cards of a set.
pub fn neighbours(group: &[Card], joker_at: usize) -> Vec<Face> {
    let Some(face) = group.get(joker_at).and_then(|c| c.face()) else {
        return Vec::new();
    };
    let faces: Vec<Face> = group
        .iter()
        .enumerate()
        .filter(|&(i, _)| i != joker_at)
        .filter_map(|(_, c)| c.face())
        .collect();
    let is_set = faces.iter().all(|f| f.rank() == face.rank());
    if is_set {
        return faces;
    }
    let v = face.rank().value();
    let near = |f: &Face| {
        let r = f.rank().value();
        let diff = |a: u8, b: u8| a.abs_diff(b);
        diff(r, v) == 1 || (r == 1 && v == 13) || (r == 13 && v == 1)
    };
    faces.into_iter().filter(near).collect()
}

/// Vatikan: a joker stays in its group (with a card that was next to it) until the
/// real card it stands for is on the table.
pub fn check_anchored_jokers(old: &[Vec<Card>], new: &[Vec<Card>]) -> Result<(), TableRuleError> {
    match unanchored_jokers(old, new).first() {
        Some(&(_, face)) => Err(TableRuleError::JokerMoved { face }),
        None => Ok(()),
    }
}

/// Vatikan: every joker of `old` (its group's index, its name) that is not
/// freed and ends in no group with a card that was next to it.
///
/// Each joker is held to its own neighbours: two jokers of one name are the
/// same card byte, so the new table is read as "some way to tell them apart
/// keeps each beside a card that was next to it" (a matching of old jokers to
/// the joker cards of the new table). One group holding one of them and a
/// neighbour of both anchors one joker, not both: the other stands where the
/// other copy of the name stands, and needs a neighbour there.
pub fn unanchored_jokers(old: &[Vec<Card>], new: &[Vec<Card>]) -> Vec<(usize, Face)> {
    let on_new = CardCounts::from_cards(new.iter().flatten());
    // The jokers held to their neighbours: (old group, the card, its name, the
    // faces that were next to it).
    let mut held: Vec<(usize, Card, Face, Vec<Face>)> = Vec::new();
    for (g, group) in old.iter().enumerate() {
        for (i, card) in group.iter().enumerate() {
            let Some(face) = card.declared() else {
                continue;
            };
            if on_new.face_count(face) > 0 {
                continue; // freed: it may move
            }
            held.push((g, *card, face, neighbours(group, i)));
        }
    }
    if held.is_empty() {
        return Vec::new();
    }
    // One slot per joker card of the new table (its group, the card).
    let slots: Vec<(usize, Card)> = new
        .iter()
        .enumerate()
        .flat_map(|(n, group)| {
            group
                .iter()
                .filter(|c| c.declared().is_some())
                .map(move |&c| (n, c))
        })
        .collect();
    let fits = |j: usize, s: usize| {
        let (_, card, _, near) = &held[j];
        let (n, slot_card) = slots[s];
        slot_card == *card
            && new[n]
                .iter()
                .any(|c| c.face().is_some_and(|f| near.contains(&f)))
    };
    // Kuhn's augmenting paths (a table holds a handful of jokers).
    fn augment(
        j: usize,
        fits: &dyn Fn(usize, usize) -> bool,
        owner: &mut [Option<usize>],
        seen: &mut [bool],
    ) -> bool {
        for s in 0..owner.len() {
            if seen[s] || !fits(j, s) {
                continue;
            }
            seen[s] = true;
            let free = match owner[s] {
                None => true,
                Some(other) => augment(other, fits, owner, seen),
            };
            if free {
                owner[s] = Some(j);
                return true;
            }
        }
        false
    }
    let mut owner: Vec<Option<usize>> = vec![None; slots.len()];
    let mut out = Vec::new();
    for (j, &(g, _, face, _)) in held.iter().enumerate() {
        let mut seen = vec![false; slots.len()];
        if !augment(j, &fits, &mut owner, &mut seen) {
            out.push((g, face));
        }
    }
    out
}

/// Tahiti: loose singles, frozen joker groups, and joker groups built from the
/// hand only.
pub fn check_tahiti(
    old: &[Vec<Card>],
    new: &[Vec<Card>],
    played: &[Card],
) -> Result<(), TableRuleError> {
    // Loose singles: only cards that were loose may stay alone.
    let mut loose = Bag::of(old.iter().filter(|g| g.len() == 1).flatten());
    for group in new.iter().filter(|g| g.len() == 1) {
        if !loose.take_all(group) {
            return Err(TableRuleError::LoneCard { card: group[0] });
        }
    }

    let mut from_hand = Bag::of(played.iter().filter(|c| !c.is_joker()));
    let mut free_budget = Bag::of(played.iter().filter(|c| !c.is_joker()));
    let mut used_new = vec![false; new.len()];
    // The cards that were with a joker now freed: that group "may then be
    // rearranged too", so they may stay with the renamed joker.
    let mut freed_company = Bag::new();

    // Frozen groups: continued whole, with hand cards only, unless freed.
    for (gi, group) in old.iter().enumerate() {
        let Some(joker) = group.iter().copied().find(|c| c.is_joker()) else {
            continue;
        };
        let Some(face) = joker.declared() else {
            continue;
        };
        // A continuation holds the whole old group plus cards from the hand.
        let continued = (0..new.len()).find(|&ni| {
            !used_new[ni]
                && Bag::of(new[ni].iter())
                    .minus(&Bag::of(group.iter()))
                    .is_some_and(|added| from_hand.clone().take_all(&added.cards()))
        });
        if let Some(ni) = continued {
            used_new[ni] = true;
            if let Some(added) = Bag::of(new[ni].iter()).minus(&Bag::of(group.iter())) {
                from_hand.take_all(&added.cards());
            }
            continue;
        }
        // Not kept whole: only the real card played from the hand frees it (a
        // real card played elsewhere, with the group kept, frees nothing).
        let real = Card::from_face(face);
        if !free_budget.take_all(&[real]) {
            return Err(TableRuleError::FrozenGroupChanged { group: gi });
        }
        // Freed: the group may be rearranged; the joker must take a new name.
        let old_named = Bag::of(old.iter().flatten()).get(joker);
        let new_named = Bag::of(new.iter().flatten()).get(joker);
        if new_named >= old_named {
            return Err(TableRuleError::FreedJokerNotRenamed { face });
        }
        freed_company.add_all(group.iter().filter(|c| !c.is_joker()));
    }

    // Other joker groups: their natural cards come from the hand, or the joker
    // joined an old joker-free group that stayed whole.
    let mut intact_old: Vec<&Vec<Card>> = old
        .iter()
        .filter(|g| g.len() >= 3 && !g.iter().any(|c| c.is_joker()))
        .collect();
    for (ni, group) in new.iter().enumerate() {
        if used_new[ni] || !group.iter().any(|c| c.is_joker()) {
            continue;
        }
        let naturals: Vec<Card> = group.iter().copied().filter(|c| !c.is_joker()).collect();
        if from_hand.take_all(&naturals) {
            continue;
        }
        // Hand cards plus cards that were already with the freed joker.
        let mut trial_hand = from_hand.clone();
        let mut trial_company = freed_company.clone();
        if naturals
            .iter()
            .all(|&c| trial_company.take_all(&[c]) || trial_hand.take_all(&[c]))
        {
            from_hand = trial_hand;
            freed_company = trial_company;
            continue;
        }
        let rest_after = |g: &Vec<Card>| Bag::of(naturals.iter()).minus(&Bag::of(g.iter()));
        let joined = intact_old.iter().position(|g| {
            rest_after(g).is_some_and(|rest| from_hand.clone().take_all(&rest.cards()))
        });
        match joined {
            Some(k) => {
                if let Some(rest) = rest_after(intact_old[k]) {
                    from_hand.take_all(&rest.cards());
                }
                intact_old.swap_remove(k);
            }
            None => return Err(TableRuleError::TableCardJoinsJokerGroup { group: ni }),
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use rami_cards::parse_cards;

    fn table(groups: &[&str]) -> Vec<Vec<Card>> {
        groups
            .iter()
            .map(|g| parse_cards(g).expect("a test table"))
            .collect()
    }

    /// Two jokers named 5H, each at the end of its own run. RULES.md: each
    /// joker stays with a card that was next to it; the engine used to match
    /// by card alone, so the run keeping one of them anchored both and the
    /// other could join a set of fives.
    #[test]
    fn two_jokers_of_one_name_are_each_held_to_a_neighbour() {
        let old = table(&["3H 4H *5H", "*5H 6H 7H"]);
        // One joker stays between 4H and 6H; the other leaves both for a set.
        let moved = table(&["3H 4H *5H 6H 7H", "5S 5D *5H"]);
        assert_eq!(
            check_anchored_jokers(&old, &moved),
            Err(TableRuleError::JokerMoved {
                face: parse_cards("5H").expect("a card")[0]
                    .face()
                    .expect("a face")
            })
        );
        // Each keeps its own neighbour, in either order of the groups.
        let kept = table(&["*5H 6H 7H 8H", "2H 3H 4H *5H"]);
        assert_eq!(check_anchored_jokers(&old, &kept), Ok(()));
    }
}
