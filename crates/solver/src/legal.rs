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

/// A play whose only fault is a joker named for a card whose every copy is on
/// the table: name it anew (a set joker for another missing suit, a run joker
/// at the other end of its run), or, when no missing suit of a set has a copy
/// left, swap the set joker with a card of its rank and a missing suit from
/// another group (the joker then stands for that card there, the card fills
/// the set): the same cards in other groups.
/// An input group the play kept as it was and whose joker is renamed or
/// swapped joins the groups the play changes. `None` when no such change
/// makes the play legal.
pub(crate) fn rename_set_jokers(rules: RuleSet, old: &[Vec<Card>], play: &Play) -> Option<Play> {
    let played = &play.played;
    // A swap or move can put a joker in a group that holds one already, which
    // Tahiti's one joker per group refuses: the groups it changed are checked
    // again (only those: on full tables this runs for every candidate; a
    // group of one is a loose single, judged by `check`).
    let group_rules = rules.group_rules();
    let valid = |t: &[Vec<Card>]| {
        t.len() == play.table.len()
            && t.iter().zip(&play.table).all(|(g, was)| {
                g == was || g.len() < 2 || rami_melds::validate_group(g, group_rules).is_ok()
            })
    };
    let legal = |t: &[Vec<Card>]| valid(t) && check(rules, old, t, played).is_ok();
    let mut table = rename_jokers(rules, old, &play.table, played);
    if !legal(&table) {
        // Only a group holding a joker of a name with too many copies is
        // worth taking a joker from (the renaming keeps group indexes).
        let over = over_copied_groups(&table);
        table = swaps(&play.table)
            .into_iter()
            .chain(moves(rules, &play.table, &over))
            .map(|t| rename_jokers(rules, old, &t, played))
            .find(|t| legal(t))?;
    }
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
    changed.dedup();
    Some(Play {
        table,
        changed,
        ..play.clone()
    })
}

/// The rank of a set (every card's face of one rank), `None` for a run.
fn set_rank(group: &[Card]) -> Option<rami_cards::Rank> {
    let mut faces = group.iter().filter_map(|c| c.face());
    let first = faces.next()?.rank();
    faces.all(|f| f.rank() == first).then_some(first)
}

/// Named jokers standing for a card whose every copy is on the table before
/// them (the copies rule's faults, counted in reading order).
fn copies_faults(table: &[Vec<Card>]) -> usize {
    let mut on_table = CardCounts::from_cards(table.iter().flatten());
    let mut faults = 0;
    for face in table.iter().flatten().filter_map(|c| c.declared()) {
        if on_table.face_count(face) >= COPIES {
            faults += 1;
        }
        on_table.add(Card::from_face(face));
    }
    faults
}

/// `table` with its jokers renamed where that lowers the copies rule's
/// faults: a set joker for another missing suit, a run joker at the other end
/// of its run (every naming of the group's jokers, groups in order, while a
/// renaming helps). Jokers that must keep their names (not freed) keep them.
fn rename_jokers(
    rules: RuleSet,
    old: &[Vec<Card>],
    table: &[Vec<Card>],
    played: &[Card],
) -> Vec<Vec<Card>> {
    let mut table = table.to_vec();
    let mut faults = copies_faults(&table);
    let mut progress = true;
    while faults > 0 && progress {
        progress = false;
        for g in 0..table.len() {
            if !table[g].iter().any(|c| c.declared().is_some()) {
                continue;
            }
            let bare: Vec<Card> = table[g].iter().map(|c| c.in_hand()).collect();
            for way in rami_melds::joker_namings(&bare, rules.group_rules()) {
                let mut names = way.into_iter();
                let named: Vec<Card> = bare
                    .iter()
                    .map(|&c| {
                        if c == Card::JOKER {
                            names.next().map_or(c, Card::named_joker)
                        } else {
                            c
                        }
                    })
                    .collect();
                let was = std::mem::replace(&mut table[g], named);
                let now = copies_faults(&table);
                if now < faults && names_kept(rules, old, &table, played) {
                    faults = now;
                    progress = true;
                    break;
                }
                table[g] = was;
            }
        }
    }
    table
        .iter()
        .map(|g| rami_melds::reading_order(g, rules.ace_mode()))
        .collect()
}

/// Every table made from `table` by one swap of a set joker with a natural
/// card of the set's rank, of a suit the set lacks, from another group (the
/// joker named for that card). A set joker none of whose missing suits has a
/// copy left can stand in a group that held such a card, while the card fills
/// the set: the same cards, other groups.
fn swaps(table: &[Vec<Card>]) -> Vec<Vec<Vec<Card>>> {
    let mut out = Vec::new();
    for (a, set) in table.iter().enumerate() {
        let Some(rank) = set_rank(set) else { continue };
        for (i, joker) in set.iter().enumerate() {
            if joker.declared().is_none() {
                continue;
            }
            for (b, other) in table.iter().enumerate() {
                if b == a {
                    continue;
                }
                for (k, card) in other.iter().enumerate() {
                    let Some(face) = card.natural_face() else {
                        continue;
                    };
                    // (The joker's own name may be the card's: that is the fault.)
                    let lacks = set
                        .iter()
                        .enumerate()
                        .all(|(j, c)| j == i || c.face() != Some(face));
                    if face.rank() != rank || !lacks {
                        continue;
                    }
                    let mut t = table.to_vec();
                    t[a][i] = *card;
                    t[b][k] = Card::named_joker(face);
                    out.push(t);
                }
            }
        }
    }
    out
}

/// Every table made from `table` by moving one joker out of a group that
/// stays valid without it (a set of four, a run of four or more at its end)
/// into another group it fits, under each name it can take there: a joker
/// with no name left in its set may have one at the end of a run.
/// Moves are tried only out of the groups `from_groups`.
fn moves(rules: RuleSet, table: &[Vec<Card>], from_groups: &[usize]) -> Vec<Vec<Vec<Card>>> {
    let group_rules = rules.group_rules();
    // A name whose every copy is down as a natural card is a fault wherever
    // the joker goes (renaming moves jokers, never natural cards).
    let naturals = CardCounts::from_cards(table.iter().flatten());
    let mut out = Vec::new();
    for &a in from_groups {
        let Some(from) = table.get(a) else { continue };
        for (i, joker) in from.iter().enumerate() {
            if !joker.is_joker() {
                continue;
            }
            let mut rest = from.clone();
            rest.remove(i);
            if rami_melds::validate_group(&rest, group_rules).is_err() {
                continue;
            }
            for (b, to) in table.iter().enumerate() {
                if b == a {
                    continue;
                }
                let mut bare: Vec<Card> = to.clone();
                bare.push(Card::JOKER);
                for way in rami_melds::joker_namings(&bare, group_rules) {
                    let Some(&face) = way.first() else { continue };
                    if naturals.face_count(face) >= COPIES {
                        continue;
                    }
                    let mut t = table.to_vec();
                    t[a] = rest.clone();
                    let mut grown = to.clone();
                    grown.push(Card::named_joker(face));
                    t[b] = grown;
                    out.push(t);
                }
            }
        }
    }
    out
}

/// The groups holding a joker named for a card with more copies on `table`
/// (natural cards and jokers of that name) than the decks hold: where the
/// copies rule's faults are. (Moving any other joker cannot mend them; trying
/// every joker of a full Tahiti table made each mend hundreds of table checks,
/// p50 of best play on full Tahiti tables 31 -> 47 ms.)
fn over_copied_groups(table: &[Vec<Card>]) -> Vec<usize> {
    let faces: Vec<Card> = table
        .iter()
        .flatten()
        .map(|c| c.declared().map_or(*c, Card::from_face))
        .collect();
    let all = CardCounts::from_cards(&faces);
    (0..table.len())
        .filter(|&g| {
            table[g]
                .iter()
                .filter_map(|c| c.declared())
                .any(|f| all.face_count(f) > COPIES)
        })
        .collect()
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

#[cfg(test)]
mod tests {
    use super::*;
    use rami_cards::{parse_cards, parse_table};

    #[test]
    fn a_swapped_set_joker_never_joins_a_group_holding_a_joker() {
        // From `finder_exact`'s caps measure (40 + 14, seed 62, #179, the
        // search without caps): the set QS *QH QD has no missing suit left
        // (both QC on the table), so its joker was swapped with the QC of
        // *QH QD QC, which then held two jokers.
        let t = |s| parse_table(s).expect("test notation");
        let old = t(
            "7S 7H 7D 7C | 4H *5H 6H | 7S 8S 9S 10S JS *QS | AS 2S 3S 4S 5S \
             | AC 2C 3C 4C 5C | 8S 8D 8C | QC *KC AC | 10H JH QH KH AH \
             | 6C 7C *8C 9C 10C JC",
        );
        let table = t(
            "4H *5H 6H | AC 2C 3C 4C 5C | 8S 8D 8C | AS 2S 3S | 3S 4S 5S \
             | 7S 7H 7D | 7S 7H 7C | 5C 6C 7C | 8S 8H 8C | 9S 9D 9C | 10S 10H 10C \
             | JS JH JC | KS KH KC | QH KH AH | AC *2C 3C | *QH QD QC | QS *QH QD",
        );
        let played = parse_cards("3S QS KS 7H 8H KH 9D QD QD 3C 5C 8C KC").expect("test notation");
        let play = Play {
            count: played.len(),
            points: 0,
            played,
            table,
            changed: (0..old.len()).collect(),
            rearranged: true,
        };
        if let Some(p) = rename_set_jokers(RuleSet::Tahiti, &old, &play) {
            for g in p.table.iter().filter(|g| g.len() > 1) {
                assert!(
                    rami_melds::validate_group(g, RuleSet::Tahiti.group_rules()).is_ok(),
                    "{g:?}"
                );
            }
        }
    }
}
