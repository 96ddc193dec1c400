//! First melds made from the hand alone: Vatikan's run of three naturals and
//! Rami's 30 points. A hand is small (13-14 cards), so an exact search over the
//! groups the hand can form is quick: decide the lowest card left, either kept or
//! in one of the groups that hold it.

use crate::{Play, SolveError, check_deck};
use rami_cards::{Card, Face, Rank, Suit};
use rami_melds::{AceMode, GroupKind, RuleSet, reading_order, validate_group};
use std::collections::HashMap;

/// Best (value, groups) per hand left and whether Vatikan's run is in.
type Memo = HashMap<([u8; 53], bool), Option<(u32, Vec<usize>)>>;

/// A group's value towards Rami's 30-point first meld: 2-10 face value, J/Q/K 10,
/// an ace 1 in A-2-3 and 10 in Q-K-A or a set, a joker what it stands for.
pub fn meld_points(group: &[Card]) -> u32 {
    let low_run = group
        .iter()
        .any(|c| c.rank().is_some_and(|r| r.value() == 2))
        && group
            .iter()
            .filter_map(|c| c.rank())
            .any(|r| r.value() != 2);
    group
        .iter()
        .filter_map(|c| c.rank())
        .map(|r| match r.value() {
            1 if low_run => 1,
            1 => 10,
            v @ 2..=10 => u32::from(v),
            _ => 10,
        })
        .sum()
}

/// A candidate group: its cards as laid (jokers named) and as taken from the hand.
struct Candidate {
    cards: Vec<Card>,
    from_hand: [u8; 53],
    value: u32,
    natural_run3: bool,
}

fn candidates(rules: RuleSet, counts: &[u8; 53]) -> Vec<Candidate> {
    let group_rules = rules.group_rules();
    let jokers = counts[52];
    let mut out = Vec::new();
    let mut push = |cards: Vec<Card>| {
        let mut from_hand = [0u8; 53];
        for c in &cards {
            match c.natural_face() {
                Some(f) => from_hand[f.index()] += 1,
                None => from_hand[52] += 1,
            }
        }
        if (0..53).any(|i| from_hand[i] > counts[i]) {
            return;
        }
        let Ok(kind) = validate_group(&cards, group_rules) else {
            return;
        };
        // Vatikan's three: natural cards side by side in the run (the cards are
        // in run order here); jokers do not count among them.
        let natural_run3 =
            kind == GroupKind::Run && cards.windows(3).any(|w| w.iter().all(|c| !c.is_joker()));
        let value = if rules == RuleSet::Rami {
            meld_points(&cards)
        } else {
            cards.iter().map(|&c| rules.hand_points(c.in_hand())).sum()
        };
        out.push(Candidate {
            cards,
            from_hand,
            value,
            natural_run3,
        });
    };
    let (lo, hi) = match rules.ace_mode() {
        AceMode::High => (2u8, 14u8),
        AceMode::Low => (1, 13),
        AceMode::Either => (1, 14),
    };
    let face = |p: u8, s: Suit| {
        Face::new(
            Rank::new(if p == 14 { 1 } else { p }).unwrap_or(Rank::ACE),
            s,
        )
    };
    // Runs of 3-5 (longer runs are runs of 3-5 laid side by side: same cards, same
    // points), each place a natural or a joker.
    for s in Suit::ALL {
        for start in lo..=hi {
            for len in 3u8..=5 {
                let end = start + len - 1;
                if end > hi {
                    break;
                }
                for mask in 0u32..(1 << len) {
                    if mask.count_ones() as u8 > jokers {
                        continue;
                    }
                    let cards: Vec<Card> = (0..len)
                        .map(|i| {
                            let f = face(start + i, s);
                            if mask & (1 << i) != 0 {
                                Card::named_joker(f)
                            } else {
                                Card::from_face(f)
                            }
                        })
                        .collect();
                    push(cards);
                }
            }
        }
    }
    // Sets: suits present as naturals or jokers.
    for r in Rank::all() {
        for mask in 0u32..16 {
            let n = mask.count_ones();
            if !(3..=4).contains(&n) {
                continue;
            }
            for jmask in 0u32..16 {
                if jmask & !mask != 0 || jmask.count_ones() as u8 > jokers {
                    continue;
                }
                let cards: Vec<Card> = Suit::ALL
                    .iter()
                    .enumerate()
                    .filter(|(i, _)| mask & (1 << i) != 0)
                    .map(|(i, &s)| {
                        let f = Face::new(r, s);
                        if jmask & (1 << i) != 0 {
                            Card::named_joker(f)
                        } else {
                            Card::from_face(f)
                        }
                    })
                    .collect();
                push(cards);
            }
        }
    }
    out
}

struct Search<'a> {
    cands: &'a [Candidate],
    /// Candidates holding each natural face (index) or, at 52, only jokers.
    by_face: Vec<Vec<usize>>,
    memo: Memo,
    vatikan: bool,
}

impl Search<'_> {
    /// Best (value, groups) from `left`, given whether the Vatikan run is in.
    fn go(&mut self, left: [u8; 53], has_run: bool) -> Option<(u32, Vec<usize>)> {
        if let Some(r) = self.memo.get(&(left, has_run)) {
            return r.clone();
        }
        let lowest = (0..52).find(|&i| left[i] > 0);
        let result = match lowest {
            None => (!self.vatikan || has_run).then(|| (0, Vec::new())),
            Some(f) => {
                // Keep every copy of this face in the hand.
                let mut keep = left;
                keep[f] = 0;
                let mut best = self.go(keep, has_run);
                for k in 0..self.by_face[f].len() {
                    let ci = self.by_face[f][k];
                    let c = &self.cands[ci];
                    if (0..53).any(|i| c.from_hand[i] > left[i]) {
                        continue;
                    }
                    let mut next = left;
                    for (n, &used) in next.iter_mut().zip(c.from_hand.iter()) {
                        *n -= used;
                    }
                    if let Some((v, mut groups)) = self.go(next, has_run || c.natural_run3) {
                        let v = v + c.value;
                        if best.as_ref().is_none_or(|(b, _)| v > *b) {
                            groups.push(ci);
                            best = Some((v, groups));
                        }
                    }
                }
                best
            }
        };
        self.memo.insert((left, has_run), result.clone());
        result
    }
}

/// Best hand-only melds (new groups from hand cards only, the table untouched):
/// Vatikan's first meld needs a run of three naturals of one suit from the hand;
/// Rami's needs 30 points or more ([`meld_points`]). The opening with the most
/// points, or `None`. Other rule sets have no opening rule: the best hand-only
/// meld by points.
pub fn best_opening(rules: RuleSet, hand: &[Card]) -> Result<Option<Play>, SolveError> {
    check_deck(rules, hand)?;
    let mut counts = [0u8; 53];
    for c in hand {
        match c.natural_face() {
            Some(f) => counts[f.index()] += 1,
            None => counts[52] += 1,
        }
    }
    if rules.group_rules().jokers == rami_melds::JokerLimit::None {
        counts[52] = 0;
    }
    let cands = candidates(rules, &counts);
    let mut by_face = vec![Vec::new(); 53];
    for (i, c) in cands.iter().enumerate() {
        // A group is filed under its lowest natural face.
        if let Some(f) = (0..52).find(|&f| c.from_hand[f] > 0) {
            by_face[f].push(i);
        }
    }
    // Jokers never decide a branch: only groups that hold a natural are tried.
    let mut search = Search {
        cands: &cands,
        by_face,
        memo: HashMap::new(),
        vatikan: rules == RuleSet::Vatikan,
    };
    let Some((value, groups)) = search.go(counts, false) else {
        return Ok(None);
    };
    if groups.is_empty() || (rules == RuleSet::Rami && value < 30) {
        return Ok(None);
    }
    let ace = rules.ace_mode();
    let table: Vec<Vec<Card>> = groups
        .iter()
        .rev()
        .map(|&i| reading_order(&cands[i].cards, ace))
        .collect();
    let mut played: Vec<Card> = table.iter().flatten().map(|c| c.in_hand()).collect();
    played.sort();
    let points = played.iter().map(|&c| rules.hand_points(c)).sum();
    Ok(Some(Play {
        count: played.len(),
        points,
        played,
        table,
        changed: Vec::new(),
        rearranged: false,
    }))
}

/// [`best_opening`] laid next to `table` (left as it is), for Vatikan and
/// Tahiti, whose jokers may not stand for a card whose every copy (two) is on
/// the table: hand copies of a card a table joker stands for are held back as
/// far as that needs, and an opening whose own joker would break the rule is
/// looked for again without the hand's jokers (`None` if that fails too).
/// Other rule sets: [`best_opening`].
pub fn best_opening_on(
    rules: RuleSet,
    table: &[Vec<Card>],
    hand: &[Card],
) -> Result<Option<Play>, SolveError> {
    if !matches!(rules, RuleSet::Vatikan | RuleSet::Tahiti) {
        return best_opening(rules, hand);
    }
    let mut naturals = [0usize; 52];
    let mut named = [0usize; 52];
    for c in table.iter().flatten() {
        if let Some(f) = c.natural_face() {
            naturals[f.index()] += 1;
        } else if let Some(f) = c.declared() {
            named[f.index()] += 1;
        }
    }
    let mut given = [0usize; 52];
    let held: Vec<Card> = hand
        .iter()
        .copied()
        .filter(|c| {
            let Some(f) = c.natural_face() else {
                return true;
            };
            let f = f.index();
            if named[f] == 0 {
                return true;
            }
            given[f] += 1;
            naturals[f] + named[f] + given[f] <= usize::from(crate::legal::COPIES)
        })
        .collect();
    let fits = |p: &Play| {
        let mut all = table.to_vec();
        all.extend(p.table.iter().cloned());
        crate::legal::copies_ok(&all)
    };
    if let Some(p) = best_opening(rules, &held)? {
        if fits(&p) {
            return Ok(Some(p));
        }
        let no_jokers: Vec<Card> = held.into_iter().filter(|c| !c.is_joker()).collect();
        if let Some(p) = best_opening(rules, &no_jokers)?
            && fits(&p)
        {
            return Ok(Some(p));
        }
    }
    Ok(None)
}

#[cfg(test)]
mod tests {
    use super::*;
    use rami_cards::parse_cards;

    #[test]
    fn an_opening_leaves_a_table_joker_a_free_copy() {
        // *QS on the table: two QS from the hand would leave it no copy.
        let table = vec![parse_cards("*QS QH QC").unwrap()];
        let hand = parse_cards("10S JS QS KS QS QD QH").unwrap();
        let p = best_opening(RuleSet::Vatikan, &hand).unwrap().unwrap();
        assert_eq!(p.count, 7);
        let p = best_opening_on(RuleSet::Vatikan, &table, &hand)
            .unwrap()
            .unwrap();
        assert_eq!(p.count, 4, "{:?}", p.table);
    }

    #[test]
    fn vatikan_needs_three_naturals_side_by_side() {
        // A-2-*-4 holds three naturals, but not three in a row.
        let hand = parse_cards("AD 2D 4D * 9C KS").unwrap();
        assert_eq!(best_opening(RuleSet::Vatikan, &hand).unwrap(), None);
        let hand = parse_cards("AD 2D 3D * 9C KS").unwrap();
        let play = best_opening(RuleSet::Vatikan, &hand).unwrap().unwrap();
        assert!(play.played.contains(&parse_cards("3D").unwrap()[0]));
    }

    #[test]
    fn rami_needs_thirty() {
        let hand = parse_cards("2S 3S 4S 9H 9D 9C KD").unwrap();
        let play = best_opening(RuleSet::Rami, &hand).unwrap().unwrap();
        assert_eq!(play.count, 6);
        let hand = parse_cards("AS 2S 3S 4H 5D").unwrap();
        assert!(best_opening(RuleSet::Rami, &hand).unwrap().is_none());
        let hand = parse_cards("QS KS AS JH JD JC").unwrap();
        let play = best_opening(RuleSet::Rami, &hand).unwrap().unwrap();
        assert_eq!(play.table.iter().map(|g| meld_points(g)).sum::<u32>(), 60);
    }

    #[test]
    fn vatikan_needs_a_natural_run() {
        let hand = parse_cards("7H 7D 7C 2S").unwrap();
        assert!(best_opening(RuleSet::Vatikan, &hand).unwrap().is_none());
        let hand = parse_cards("7H 7D 7C 4S 5S 6S *").unwrap();
        let play = best_opening(RuleSet::Vatikan, &hand).unwrap().unwrap();
        assert_eq!(play.count, 7);
        let hand = parse_cards("4S 5S * 7C 7D").unwrap();
        assert!(best_opening(RuleSet::Vatikan, &hand).unwrap().is_none());
    }
}
