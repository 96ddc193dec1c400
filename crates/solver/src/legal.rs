//! The table rules of Vatikan and Tahiti that the sweep does not model, checked
//! on a finished play exactly as the rules engine checks them
//! (`rami_manipulation::proposal`: `check_anchored_jokers`, `check_tahiti`). The
//! engine depends on the solver, so the solver keeps its own copy; the tests of
//! `rami-manipulation` and `rami-bots` hold the two to the same answers.
//!
//! The finder uses it as a last word: a play that fails is never returned (the
//! restricted searches of [`crate::restricted`] take over).

use rami_cards::{Card, CardCounts, Face};
use rami_melds::RuleSet;

/// A multiset of exact card bytes (a named joker is its own kind here).
#[derive(Clone)]
struct Bag([i16; 128]);

impl Bag {
    fn new() -> Bag {
        Bag([0; 128])
    }
    fn of<'a>(cards: impl IntoIterator<Item = &'a Card>) -> Bag {
        let mut b = Bag::new();
        b.add_all(cards);
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
            self.0[usize::from(u8::from(c)) & 127] += 1;
        }
    }
    fn get(&self, c: Card) -> i16 {
        self.0[usize::from(u8::from(c)) & 127]
    }
    /// Takes every card of `cards` out of the bag, or changes nothing and says no.
    fn take_all(&mut self, cards: &[Card]) -> bool {
        let mut trial = self.clone();
        for &c in cards {
            let slot = &mut trial.0[usize::from(u8::from(c)) & 127];
            if *slot == 0 {
                return false;
            }
            *slot -= 1;
        }
        *self = trial;
        true
    }
}

/// What a play breaks of the rules the sweep does not model.
#[derive(Debug, PartialEq, Eq)]
pub(crate) enum Fault {
    /// Vatikan: the input groups whose jokers lost every neighbour.
    Unanchored(Vec<usize>),
    /// Tahiti: a frozen group changed, a freed joker kept its name, a table card
    /// joined a joker group or a card lies alone that was not loose.
    Tahiti,
    /// A joker took a new name without being freed, or stands for a card whose
    /// every copy is on the table.
    Names,
}

/// Copies of each card in the decks of Vatikan and Tahiti (two decks).
pub(crate) const COPIES: u8 = 2;

/// `Ok` when the engine would accept `new` after `old` for these rules as far as
/// anchoring (Vatikan) and joker groups and loose singles (Tahiti) go.
pub(crate) fn check(
    rules: RuleSet,
    old: &[Vec<Card>],
    new: &[Vec<Card>],
    played: &[Card],
) -> Result<(), Fault> {
    if matches!(rules, RuleSet::Vatikan | RuleSet::Tahiti)
        && !(names_kept(rules, old, new, played) && copies_ok(new))
    {
        return Err(Fault::Names);
    }
    match rules {
        RuleSet::Vatikan => {
            let bad = unanchored(old, new);
            if bad.is_empty() {
                Ok(())
            } else {
                Err(Fault::Unanchored(bad))
            }
        }
        RuleSet::Tahiti => {
            if tahiti_ok(old, new, played) {
                Ok(())
            } else {
                Err(Fault::Tahiti)
            }
        }
        _ => Ok(()),
    }
}

/// Jokers already on the table keep their names unless freed (Vatikan: the
/// real card is on the new table; Tahiti: each real card played frees one), as
/// the engine's `check_joker_names`.
fn names_kept(rules: RuleSet, old: &[Vec<Card>], new: &[Vec<Card>], played: &[Card]) -> bool {
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
    let mut used: Vec<(Face, u8)> = Vec::new();
    renamed.into_iter().all(|face| {
        let n = match used.iter_mut().find(|(f, _)| *f == face) {
            Some((_, n)) => {
                *n += 1;
                *n
            }
            None => {
                used.push((face, 1));
                1
            }
        };
        if rules == RuleSet::Tahiti {
            n <= played_counts.face_count(face)
        } else {
            natural_on_new.face_count(face) > 0
        }
    })
}

/// No joker stands for a card whose every copy is on the table already (the
/// engine's `check_copies`).
pub(crate) fn copies_ok(new: &[Vec<Card>]) -> bool {
    let mut on_table = CardCounts::from_cards(new.iter().flatten());
    for face in new.iter().flatten().filter_map(|c| c.declared()) {
        if on_table.face_count(face) >= COPIES {
            return false;
        }
        on_table.add(Card::from_face(face));
    }
    true
}

/// Tahiti: a table joker stands for a card whose two copies are both on the
/// table already. No hand holds that card, so the joker can never be freed and
/// renamed, and the engine refuses every new table holding it (its copies
/// rule): no play is legal.
pub(crate) fn stuck_joker(rules: RuleSet, table: &[Vec<Card>]) -> bool {
    if rules != RuleSet::Tahiti {
        return false;
    }
    let naturals = CardCounts::from_cards(table.iter().flatten());
    table
        .iter()
        .flatten()
        .filter_map(|c| c.declared())
        .any(|f| naturals.face_count(f) >= COPIES)
}

/// A play whose only fault is a joker of a set named for a card whose every
/// copy is on the table: name it for another missing suit (a set joker's suit
/// is free). `None` when no such renaming makes the play legal.
pub(crate) fn rename_set_jokers(
    rules: RuleSet,
    old: &[Vec<Card>],
    new: &[Vec<Card>],
    played: &[Card],
) -> Option<Vec<Vec<Card>>> {
    let mut table = new.to_vec();
    for g in 0..table.len() {
        let faces: Vec<Face> = table[g].iter().filter_map(|c| c.face()).collect();
        let Some(first) = faces.first() else { continue };
        if faces.iter().any(|f| f.rank() != first.rank()) {
            continue;
        }
        for i in 0..table[g].len() {
            if table[g][i].declared().is_none() || copies_ok(&table) {
                continue;
            }
            for suit in rami_cards::Suit::ALL {
                let face = Face::new(first.rank(), suit);
                if table[g].iter().any(|c| c.face() == Some(face)) {
                    continue;
                }
                let was = table[g][i];
                table[g][i] = Card::named_joker(face);
                if copies_ok(&table) && names_kept(rules, old, &table, played) {
                    break;
                }
                table[g][i] = was;
            }
        }
    }
    let table: Vec<Vec<Card>> = table
        .iter()
        .map(|g| rami_melds::reading_order(g, rules.ace_mode()))
        .collect();
    check(rules, old, &table, played).is_ok().then_some(table)
}

/// The identities next to each joker of a group: run neighbours, or the other
/// cards of a set (as the engine's `neighbours`).
pub(crate) fn neighbours(group: &[Card], joker_at: usize) -> Vec<Face> {
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
        r.abs_diff(v) == 1 || (r == 1 && v == 13) || (r == 13 && v == 1)
    };
    faces.into_iter().filter(near).collect()
}

/// Vatikan: the input groups holding a joker, not freed, that ends in no group
/// with a card that was next to it.
fn unanchored(old: &[Vec<Card>], new: &[Vec<Card>]) -> Vec<usize> {
    let on_new = CardCounts::from_cards(new.iter().flatten());
    let mut bad = Vec::new();
    for (g, group) in old.iter().enumerate() {
        for (i, card) in group.iter().enumerate() {
            let Some(face) = card.declared() else {
                continue;
            };
            if on_new.face_count(face) > 0 {
                continue; // freed: it may move
            }
            let near = neighbours(group, i);
            let anchored = new.iter().any(|n| {
                n.contains(card)
                    && n.iter()
                        .any(|c| c.face().is_some_and(|f| near.contains(&f)))
            });
            if !anchored && !bad.contains(&g) {
                bad.push(g);
            }
        }
    }
    bad
}

/// Tahiti: loose singles, frozen joker groups, and joker groups built from the
/// hand only (the engine's `check_tahiti`, step for step: its greedy matching is
/// the rule the play has to pass).
fn tahiti_ok(old: &[Vec<Card>], new: &[Vec<Card>], played: &[Card]) -> bool {
    let mut loose = Bag::of(old.iter().filter(|g| g.len() == 1).flatten());
    for group in new.iter().filter(|g| g.len() == 1) {
        if !loose.take_all(group) {
            return false;
        }
    }
    let mut from_hand = Bag::of(played.iter().filter(|c| !c.is_joker()));
    let mut free_budget = from_hand.clone();
    let mut used_new = vec![false; new.len()];
    let mut freed_company = Bag::new();
    for group in old {
        let Some(joker) = group.iter().copied().find(|c| c.is_joker()) else {
            continue;
        };
        let Some(face) = joker.declared() else {
            continue;
        };
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
        if !free_budget.take_all(&[Card::from_face(face)]) {
            return false;
        }
        let old_named = Bag::of(old.iter().flatten()).get(joker);
        let new_named = Bag::of(new.iter().flatten()).get(joker);
        if new_named >= old_named {
            return false;
        }
        freed_company.add_all(group.iter().filter(|c| !c.is_joker()));
    }
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
            None => return false,
        }
    }
    true
}
