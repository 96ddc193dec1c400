//! Judging a proposed table (the player's private copy, sent with Done).
//!
//! A proposal is accepted only if every group is valid for the rule set, the cards
//! are conserved (old table + played hand cards = new table; nothing goes from the
//! table to a hand), at least one hand card is played, and the rule set's own
//! constraints hold: joker naming and freeing (Carousel, Vatikan, Tahiti), anchored
//! jokers and the run-of-three first meld (Vatikan), frozen joker groups and loose
//! singles (Tahiti). The first fault found is returned, naming the group.

use rami_cards::{Card, CardCounts, Face};
use rami_game::{ActionError, RuleSet, Table};
use rami_melds::{explain_unfit, joker_namings, reading_order, validate_group};

/// An accepted proposal.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Accepted {
    /// The new table: jokers named, each group in reading order.
    pub table: Table,
    /// The hand cards put down (jokers unnamed, as in the hand).
    pub played: Vec<Card>,
}

impl Accepted {
    /// The hand once the played cards are gone.
    pub fn hand_after(&self, hand: &[Card]) -> Vec<Card> {
        let mut out = hand.to_vec();
        for card in &self.played {
            if let Some(i) = out.iter().position(|c| c == card) {
                out.remove(i);
            }
        }
        out
    }
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

/// Judges `proposed` as the table that follows `old` when the player holds `hand`.
/// `first_meld` is true for a Vatikan player who has not melded yet; `copies` is
/// how many of each card the game's deck holds (1 or 2), which a joker's name may
/// not exceed.
pub fn check(
    rules: RuleSet,
    old: &Table,
    hand: &[Card],
    proposed: Table,
    first_meld: bool,
    copies: u8,
) -> Result<Accepted, ActionError> {
    let group_rules = rules.group_rules();
    let mut table = Vec::with_capacity(proposed.len());
    // Naturals on the proposed table: a joker is never named as a card whose
    // every copy is among them, so such a naming is neither chosen nor offered.
    let naturals = CardCounts::from_cards(proposed.iter().flatten().filter(|c| !c.is_joker()));
    for (i, group) in proposed.into_iter().enumerate() {
        let named = name_jokers(rules, i, group, &naturals, copies)?;
        let loose_single = rules == RuleSet::Tahiti && named.len() == 1 && !named[0].is_joker();
        if !loose_single {
            validate_group(&named, group_rules)
                .map_err(|reason| ActionError::InvalidGroup { group: i, reason })?;
        }
        table.push(reading_order(&named, group_rules.ace));
    }

    // Conservation: new = old + played, played from the hand.
    let old_counts = CardCounts::from_cards(old.iter().flatten());
    let new_counts = CardCounts::from_cards(table.iter().flatten());
    let Some(played_counts) = new_counts.minus(&old_counts) else {
        let card = old_counts
            .minus(&new_counts)
            .and_then(|gone| gone.cards().first().copied())
            .or_else(|| first_missing(&old_counts, &new_counts))
            .unwrap_or(Card::JOKER);
        return Err(ActionError::TableCardTakenBack { card });
    };
    let hand_counts = CardCounts::from_cards(hand);
    if let Some(card) = played_counts
        .cards()
        .into_iter()
        .find(|&c| played_counts.count(c) > hand_counts.count(c))
    {
        return Err(ActionError::CardNotInHand { card });
    }
    if played_counts.is_empty() {
        return Err(ActionError::NothingPlayed);
    }
    let played = played_counts.cards();

    if rules == RuleSet::Vatikan && first_meld && !lays_run_of_three_from_hand(&table, &played) {
        return Err(ActionError::FirstMeldNeedsRun);
    }
    if matches!(
        rules,
        RuleSet::Carousel | RuleSet::Vatikan | RuleSet::Tahiti
    ) {
        check_joker_names(rules, old, &table, &played)?;
        check_copies(&table, copies)?;
    }
    if rules == RuleSet::Vatikan {
        check_anchored_jokers(old, &table)?;
    }
    if rules == RuleSet::Tahiti {
        check_tahiti(old, &table, &played)?;
    }
    Ok(Accepted { table, played })
}

/// A card that `old` has more of than `new`, for the error message.
fn first_missing(old: &CardCounts, new: &CardCounts) -> Option<Card> {
    old.cards()
        .into_iter()
        .find(|&c| old.count(c) > new.count(c))
}

/// Names the unnamed jokers of a group when only one naming fits (namings that
/// would exceed the deck's `copies` of a card are not counted).
fn name_jokers(
    rules: RuleSet,
    group: usize,
    cards: Vec<Card>,
    naturals: &CardCounts,
    copies: u8,
) -> Result<Vec<Card>, ActionError> {
    if !cards.contains(&Card::JOKER) {
        return Ok(cards);
    }
    let group_rules = rules.group_rules();
    let all_ways = joker_namings(&cards, group_rules);
    let ways: Vec<Vec<Face>> = all_ways
        .iter()
        .filter(|way| way.iter().all(|&f| naturals.face_count(f) < copies))
        .cloned()
        .collect();
    if ways.is_empty()
        && let Some(&face) = all_ways.first().and_then(|w| w.first())
    {
        return Err(ActionError::TooManyCopies {
            group,
            face,
            copies,
        });
    }
    match ways.as_slice() {
        [] => Err(ActionError::InvalidGroup {
            group,
            reason: explain_unfit(&cards, group_rules),
        }),
        [way] => {
            let mut names = way.iter();
            Ok(cards
                .into_iter()
                .map(|c| match c {
                    Card::JOKER => names.next().map_or(c, |&f| Card::named_joker(f)),
                    _ => c,
                })
                .collect())
        }
        many => {
            let mut options: Vec<Face> = many.iter().flatten().copied().collect();
            options.sort_unstable();
            options.dedup();
            Err(ActionError::JokerNeedsName { group, options })
        }
    }
}

/// Vatikan's first meld: some group of the new table holds three natural cards of
/// one suit in sequence that were all played from the hand. (Two copies of a card
/// are interchangeable, so "this 5H came from the hand" is a matter of counts.)
fn lays_run_of_three_from_hand(table: &Table, played: &[Card]) -> bool {
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
fn check_copies(table: &Table, copies: u8) -> Result<(), ActionError> {
    let mut on_table = CardCounts::from_cards(table.iter().flatten());
    for (group, cards) in table.iter().enumerate() {
        for face in cards.iter().filter_map(|c| c.declared()) {
            if on_table.face_count(face) >= copies {
                return Err(ActionError::TooManyCopies {
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
fn check_joker_names(
    rules: RuleSet,
    old: &Table,
    new: &Table,
    played: &[Card],
) -> Result<(), ActionError> {
    let jokers = |t: &Table| -> Vec<Face> {
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
            return Err(ActionError::JokerRenamed { was: face });
        }
    }
    Ok(())
}

/// The identities next to each joker of a group: run neighbours, or the other
/// cards of a set.
fn neighbours(group: &[Card], joker_at: usize) -> Vec<Face> {
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
fn check_anchored_jokers(old: &Table, new: &Table) -> Result<(), ActionError> {
    let on_new = CardCounts::from_cards(new.iter().flatten());
    for group in old {
        for (i, card) in group.iter().enumerate() {
            let Some(face) = card.declared() else {
                continue;
            };
            if on_new.face_count(face) > 0 {
                continue; // freed: it may move
            }
            let near = neighbours(group, i);
            let anchored = new.iter().any(|g| {
                g.contains(card)
                    && g.iter()
                        .any(|c| c.face().is_some_and(|f| near.contains(&f)))
            });
            if !anchored {
                return Err(ActionError::JokerMoved { face });
            }
        }
    }
    Ok(())
}

/// Tahiti: loose singles, frozen joker groups, and joker groups built from the
/// hand only.
fn check_tahiti(old: &Table, new: &Table, played: &[Card]) -> Result<(), ActionError> {
    // Loose singles: only cards that were loose may stay alone.
    let mut loose = Bag::of(old.iter().filter(|g| g.len() == 1).flatten());
    for group in new.iter().filter(|g| g.len() == 1) {
        if !loose.take_all(group) {
            return Err(ActionError::LoneCard { card: group[0] });
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
            return Err(ActionError::FrozenGroupChanged { group: gi });
        }
        // Freed: the group may be rearranged; the joker must take a new name.
        let old_named = Bag::of(old.iter().flatten()).get(joker);
        let new_named = Bag::of(new.iter().flatten()).get(joker);
        if new_named >= old_named {
            return Err(ActionError::FreedJokerNotRenamed { face });
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
            None => return Err(ActionError::TableCardJoinsJokerGroup { group: ni }),
        }
    }
    Ok(())
}
