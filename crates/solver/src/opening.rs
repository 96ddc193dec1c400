//! First melds made from the hand alone: Vatikan's run of three naturals and
//! Rami's 30 points. A hand is small (13-14 cards), so an exact search over the
//! groups the hand can form is quick: decide the lowest card left, either kept or
//! in one of the groups that hold it.

use crate::{Play, SolveError, check_deck};
use rami_cards::{Card, Face, Rank, Suit};
use rami_melds::{GroupKind, RuleSet, reading_order, validate_group};
use std::collections::HashMap;

/// Best (value, groups) per hand left, whether Vatikan's run is in, and the
/// names the opening's jokers took so far (sorted, [`NO_NAME`] for none).
type Memo = HashMap<([u8; 53], bool, Names), Option<(u32, Vec<usize>)>>;

/// The faces (index) the opening's jokers stand for so far, sorted.
type Names = [u8; 4];
const NO_NAME: u8 = u8::MAX;

/// The openings are Vatikan's and Rami's, both played with two decks.
const TWO_DECKS: u8 = 2;

/// The copies rule (Carousel, Vatikan, Tahiti): a joker may not stand for a
/// card whose every copy is on the table. Per face: copies already on the table
/// (naturals and jokers named for it), and whether a table joker stands for it.
struct Copies {
    down: [u8; 52],
    named: [bool; 52],
    hand: [u8; 53],
}

impl Copies {
    /// Whether the opening may put down what `left` leaves out of the hand,
    /// with its jokers named `names`: for each face a joker stands for, its
    /// copies on the table, from the hand and named all fit in the deck's two.
    fn allows(&self, left: &[u8; 53], names: &Names, faces: &[usize]) -> bool {
        faces.iter().all(|&f| {
            let jokers = names.iter().filter(|&&n| usize::from(n) == f).count();
            if !self.named[f] && jokers == 0 {
                return true;
            }
            let used = usize::from(self.hand[f] - left[f]);
            usize::from(self.down[f]) + used + jokers <= usize::from(TWO_DECKS)
        })
    }
}

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
    let (lo, hi) = crate::sweep::ace_window(rules.ace_mode());
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
    /// The copies rule, where the rule set has it.
    copies: Option<Copies>,
}

impl Search<'_> {
    /// Best (value, groups) from `left`, given whether the Vatikan run is in
    /// and the names the opening's jokers took so far.
    fn go(&mut self, left: [u8; 53], has_run: bool, names: Names) -> Option<(u32, Vec<usize>)> {
        if let Some(r) = self.memo.get(&(left, has_run, names)) {
            return r.clone();
        }
        let lowest = (0..52).find(|&i| left[i] > 0);
        let result = match lowest {
            None => (!self.vatikan || has_run).then(|| (0, Vec::new())),
            Some(f) => {
                // Keep every copy of this face in the hand.
                let mut keep = left;
                keep[f] = 0;
                let mut best = self.go(keep, has_run, names);
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
                    // The names its jokers take join the opening's; every face
                    // it touches must still fit the copies rule (both only
                    // grow, so a later group cannot mend it).
                    let mut next_names = names;
                    let mut faces: Vec<usize> = Vec::new();
                    let mut room = true;
                    for card in &c.cards {
                        if let Some(d) = card.declared() {
                            match next_names.iter().position(|&n| n == NO_NAME) {
                                Some(slot) => next_names[slot] = d.index() as u8,
                                None => room = false,
                            }
                        }
                        faces.extend(card.face().map(|x| x.index()));
                    }
                    next_names.sort_unstable();
                    if !room
                        || self
                            .copies
                            .as_ref()
                            .is_some_and(|cp| !cp.allows(&next, &next_names, &faces))
                    {
                        continue;
                    }
                    if let Some((v, mut groups)) =
                        self.go(next, has_run || c.natural_run3, next_names)
                    {
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
        self.memo.insert((left, has_run, names), result.clone());
        result
    }
}

/// Best hand-only melds (new groups from hand cards only, the table untouched):
/// Vatikan's first meld needs a run of three naturals of one suit from the hand;
/// Rami's needs 30 points or more ([`meld_points`]). The opening with the most
/// points, or `None`. Other rule sets have no opening rule: the best hand-only
/// meld by points.
/// Rule sets with the copies rule hold the opening to it: its jokers may
/// not stand for a card whose every copy it (or the table) puts down.
pub fn best_opening(rules: RuleSet, hand: &[Card]) -> Result<Option<Play>, SolveError> {
    opening_next_to(rules, &[], hand)
}

/// [`best_opening`] laid next to `table` (left as it is): under the copies
/// rule (Carousel, Vatikan, Tahiti) the table's copies and named jokers count
/// too, so a table joker keeps a free copy of its card and the opening's
/// jokers take only names with one left. Exact: the search carries the names
/// its jokers took and refuses a group as soon as a face it touches has too
/// many (hand copies, the table's, jokers' names only ever grow).
pub fn best_opening_on(
    rules: RuleSet,
    table: &[Vec<Card>],
    hand: &[Card],
) -> Result<Option<Play>, SolveError> {
    opening_next_to(rules, table, hand)
}

fn opening_next_to(
    rules: RuleSet,
    table: &[Vec<Card>],
    hand: &[Card],
) -> Result<Option<Play>, SolveError> {
    check_deck(rules, TWO_DECKS, hand)?;
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
    let copies = matches!(
        rules,
        RuleSet::Carousel | RuleSet::Vatikan | RuleSet::Tahiti
    )
    .then(|| {
        let mut cp = Copies {
            down: [0; 52],
            named: [false; 52],
            hand: counts,
        };
        for c in table.iter().flatten() {
            if let Some(f) = c.face() {
                cp.down[f.index()] = cp.down[f.index()].saturating_add(1);
            }
            if let Some(f) = c.declared() {
                cp.named[f.index()] = true;
            }
        }
        cp
    });
    // Jokers never decide a branch: only groups that hold a natural are tried.
    let mut search = Search {
        cands: &cands,
        by_face,
        memo: HashMap::new(),
        vatikan: rules == RuleSet::Vatikan,
        copies,
    };
    let Some((value, groups)) = search.go(counts, false, [NO_NAME; 4]) else {
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

#[cfg(test)]
mod tests {
    use super::*;
    use rami_cards::{parse_cards, parse_table};

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
    fn an_opening_joker_takes_a_name_with_a_copy_left() {
        // Both 6S and both 9S are down: the most points would be
        // 3S 4S 5S *6S 7S 8S, which the copies rule refuses. Without the
        // joker only 3S 4S 5S goes down; with it named for a seven,
        // 3S 4S 5S | 7S 7D *: six cards.
        let table = parse_table("6S 6H 6D | 6S 6H 6C | 9S 9H 9D | 9S 9H 9C").unwrap();
        let hand = parse_cards("3S 4S 5S * 7S 8S 7D").unwrap();
        let p = best_opening_on(RuleSet::Vatikan, &table, &hand)
            .unwrap()
            .unwrap();
        assert_eq!(p.count, 6, "{:?}", p.table);
        let mut all = table.clone();
        all.extend(p.table.iter().cloned());
        assert!(crate::legal::copies_ok(&all, TWO_DECKS), "{:?}", p.table);
        // The hand alone may not name its joker for a card it puts down twice.
        let hand = parse_cards("3H 4H 5H 5H * 5S 5D").unwrap();
        let p = best_opening(RuleSet::Vatikan, &hand).unwrap().unwrap();
        assert!(
            crate::legal::copies_ok(&p.table, TWO_DECKS),
            "{:?}",
            p.table
        );
        assert_eq!(p.count, 7, "{:?}", p.table);
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
