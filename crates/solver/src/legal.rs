//! The table rules of Vatikan and Tahiti that the sweep does not model, checked
//! on a finished play with the very code the rules engine judges proposals with
//! (`rami_melds::table_rules`), so the two cannot disagree.
//!
//! The finder uses it as a last word: a play that fails is never returned (the
//! restricted searches of [`crate::restricted`] take over).

use crate::Play;
use rami_cards::{Card, CardCounts, Face};
use rami_melds::{RuleSet, table_rules};

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
/// real card is on the new table; Tahiti: each real card played frees one).
fn names_kept(rules: RuleSet, old: &[Vec<Card>], new: &[Vec<Card>], played: &[Card]) -> bool {
    table_rules::check_joker_names(rules, old, new, played).is_ok()
}

/// No joker stands for a card whose every copy is on the table already.
pub(crate) fn copies_ok(new: &[Vec<Card>]) -> bool {
    table_rules::check_copies(new, COPIES).is_ok()
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
/// is free). An input group the play kept as it was and whose joker is renamed
/// joins the groups the play changes. `None` when no such renaming makes the
/// play legal.
pub(crate) fn rename_set_jokers(rules: RuleSet, old: &[Vec<Card>], play: &Play) -> Option<Play> {
    let played = &play.played;
    let mut table = play.table.clone();
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
    check(rules, old, &table, played).ok()?;
    let sorted = |g: &[Card]| {
        let mut v = g.to_vec();
        v.sort();
        v
    };
    let mut changed = play.changed.clone();
    for (before, after) in play.table.iter().zip(&table) {
        if sorted(before) == sorted(after) {
            continue;
        }
        let was_kept =
            (0..old.len()).find(|i| !changed.contains(i) && sorted(&old[*i]) == sorted(before));
        changed.extend(was_kept);
    }
    changed.sort_unstable();
    Some(Play {
        table,
        changed,
        ..play.clone()
    })
}

/// The identities next to each joker of a group: run neighbours, or the other
/// cards of a set.
pub(crate) fn neighbours(group: &[Card], joker_at: usize) -> Vec<Face> {
    table_rules::neighbours(group, joker_at)
}

/// Vatikan: the input groups holding a joker, not freed, that ends in no group
/// with a card that was next to it.
fn unanchored(old: &[Vec<Card>], new: &[Vec<Card>]) -> Vec<usize> {
    let mut bad: Vec<usize> = table_rules::unanchored_jokers(old, new)
        .into_iter()
        .map(|(g, _)| g)
        .collect();
    bad.dedup();
    bad
}

/// Tahiti: loose singles, frozen joker groups, and joker groups built from the
/// hand only.
fn tahiti_ok(old: &[Vec<Card>], new: &[Vec<Card>], played: &[Card]) -> bool {
    table_rules::check_tahiti(old, new, played).is_ok()
}
