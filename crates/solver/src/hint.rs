//! The Remind option's hint when one hand card is the least a play can put
//! down: the fewest table groups that card can go down with.
//!
//! The search proper finds the fewest hand cards exactly, and the fewest-changes
//! step then keeps as many groups as it can *for the cards the sweep chose*. With
//! one card that is not enough: another card may need fewer groups. So when the
//! hint is one card touching two groups or more, every hand card is tried with
//! one group, then with two groups, before the search's answer stands. (With
//! jokers around, one card with one group is tried before the search, whose
//! every joker branch costs more.) Each test
//! is a feasibility sweep over a handful of cards, and the tests only run when
//! they can improve the hint, so a hint that was already one card and one group
//! costs nothing more.

use crate::arrange::{contains, feasible, near};
use crate::{Branch, Kind, Play, Position, legal, make_play};
use rami_cards::Card;
use rami_melds::AceMode;

/// Groups a test may dissolve: plain groups (not Tahiti's frozen or loose ones)
/// whose cards a rebuild may move. A Vatikan group holding a joker is one too:
/// the tests do not model that its joker must stay beside a card that was next
/// to it, so each play is checked against the table rules before it is
/// returned ([`legal_play`]).
fn movable(pos: &Position, g: usize) -> bool {
    pos.kinds[g] == Kind::Normal
}

/// `play` if the table rules of Vatikan and Tahiti allow it, or once a joker
/// named against the copies rule is renamed; `None` otherwise (the search goes
/// on to the next card or groups: another layout of the same groups is not
/// tried, so such a hint may still touch more groups than needed).
fn legal_play(pos: &Position, play: Play) -> Option<Play> {
    match legal::check(pos.rules, &pos.table, &play.table, &play.played) {
        Ok(()) => Some(play),
        Err(legal::Fault::Names) => legal::rename_set_jokers(pos.rules, &pos.table, &play),
        Err(_) => None,
    }
}

/// The natural hand cards, each face once, in hand order.
fn distinct_naturals(pos: &Position) -> Vec<Card> {
    let mut out: Vec<Card> = Vec::new();
    for &c in &pos.hand {
        if !c.is_joker() && !out.contains(&c) {
            out.push(c);
        }
    }
    out
}

/// A play of one hand card that changes a number of groups in `sizes` (1, 2
/// or both), the fewest first. `None`: no such play.
pub(crate) fn one_card_fewest_groups(
    pos: &Position,
    sizes: std::ops::RangeInclusive<usize>,
) -> Option<Play> {
    let branch = Branch::default();
    let mut spent = 0usize;
    let cards = distinct_naturals(pos);
    let groups: Vec<usize> = (0..pos.table.len()).filter(|&g| movable(pos, g)).collect();
    for size in sizes {
        for &c in &cards {
            // The first group must take the card; a second one must be near the
            // card or the first group (otherwise it cannot take part).
            for (i, &g1) in groups.iter().enumerate() {
                if !pos.table[g1].iter().any(|&t| near(t, c)) {
                    continue;
                }
                let seconds: Vec<Option<usize>> = if size == 1 {
                    vec![None]
                } else {
                    groups
                        .iter()
                        .enumerate()
                        .filter(|&(j, &g2)| {
                            j != i
                                && pos.table[g2].iter().any(|&t| {
                                    near(t, c) || pos.table[g1].iter().any(|&u| near(t, u))
                                })
                                // A pair whose first group also takes the card
                                // is tried once, from its lower index.
                                && (j > i || !pos.table[g2].iter().any(|&t| near(t, c)))
                        })
                        .map(|(_, &g2)| Some(g2))
                        .collect()
                };
                for g2 in seconds {
                    let dissolve: Vec<usize> = std::iter::once(g1).chain(g2).collect();
                    let mut cards: Vec<Card> = dissolve
                        .iter()
                        .flat_map(|&g| pos.table[g].iter().copied())
                        .collect();
                    cards.push(c);
                    if splits_into_groups(&cards, pos.rules.ace_mode()) == Some(false) {
                        continue;
                    }
                    let Some(layout) = feasible(pos, &branch, &dissolve, &[c], &mut spent) else {
                        continue;
                    };
                    if let Some(play) = legal_play(pos, lay_out(pos, c, &dissolve, layout)) {
                        return Some(play);
                    }
                }
            }
        }
    }
    None
}

/// The play that rebuilds `dissolve` with `card` as `layout`: each new group
/// takes the place of an input group it holds whole; the others go at the end.
fn lay_out(pos: &Position, card: Card, dissolve: &[usize], layout: Vec<Vec<Card>>) -> Play {
    let mut table: Vec<Option<Vec<Card>>> = pos.table.iter().cloned().map(Some).collect();
    let mut used = vec![false; layout.len()];
    let mut rearranged = false;
    for &g in dissolve {
        let home = (0..layout.len()).find(|&k| !used[k] && contains(&layout[k], &pos.table[g]));
        match home {
            Some(k) => {
                used[k] = true;
                table[g] = Some(layout[k].clone());
            }
            None => {
                rearranged = true;
                table[g] = None;
            }
        }
    }
    let mut out: Vec<Vec<Card>> = table.into_iter().flatten().collect();
    out.extend(
        layout
            .into_iter()
            .zip(used)
            .filter(|(_, u)| !u)
            .map(|(g, _)| g),
    );
    let mut changed = dissolve.to_vec();
    changed.sort_unstable();
    make_play(pos, vec![card], out, changed, rearranged)
}

/// Whether joker-free `cards` split wholly into groups (`None` with a joker
/// among them: the caller asks the sweep). Exact, and far cheaper than a sweep
/// on the handful of cards a hint test holds: the copies each rank gives to
/// sets are tried in every way (only ranks with three suits can have a set),
/// and what is left of each suit must split into runs of three or more, which
/// a greedy pass over the positions decides (extend the runs still short of
/// three first, then the long ones, then start new ones).
pub(crate) fn splits_into_groups(cards: &[Card], ace: AceMode) -> Option<bool> {
    let mut counts = [[0u8; 13]; 4];
    for c in cards {
        let f = c.natural_face()?;
        counts[f.suit().index()][usize::from(f.rank().value()) - 1] += 1;
    }
    let set_ranks: Vec<usize> = (0..13)
        .filter(|&r| (0..4).filter(|&s| counts[s][r] > 0).count() >= 3)
        .collect();
    Some(sets_then_runs(&mut counts, &set_ranks, ace))
}

/// Tries every way the first rank of `set_ranks` can give copies to sets.
fn sets_then_runs(counts: &mut [[u8; 13]; 4], set_ranks: &[usize], ace: AceMode) -> bool {
    let Some((&r, rest)) = set_ranks.split_first() else {
        return (0..4).all(|s| runs_only(&counts[s], ace));
    };
    let have = [counts[0][r], counts[1][r], counts[2][r], counts[3][r]];
    // Every choice of copies per suit (0..=have each): at most 3^4.
    let mut take = [0u8; 4];
    loop {
        let m: u8 = take.iter().sum();
        let one_set = (3..=4).contains(&m) && take.iter().all(|&t| t <= 1);
        // Two sets of distinct suits: any 6 to 8 copies, at most 2 per suit.
        if m == 0 || one_set || (6..=8).contains(&m) {
            for s in 0..4 {
                counts[s][r] -= take[s];
            }
            let ok = sets_then_runs(counts, rest, ace);
            for s in 0..4 {
                counts[s][r] += take[s];
            }
            if ok {
                return true;
            }
        }
        // Next choice (odometer).
        let mut s = 0;
        loop {
            if s == 4 {
                return false;
            }
            if take[s] < have[s] {
                take[s] += 1;
                break;
            }
            take[s] = 0;
            s += 1;
        }
    }
}

/// Do one suit's copies (per rank, ace first) split into runs of three or more?
fn runs_only(counts: &[u8; 13], ace: AceMode) -> bool {
    // Positions 1..=14; the ace at 1 (low), 14 (high) or split between them.
    let aces = counts[0];
    let lows: Vec<u8> = match ace {
        AceMode::High => vec![0],
        AceMode::Low => vec![aces],
        AceMode::Either => (0..=aces).collect(),
    };
    lows.into_iter().any(|low| {
        let mut at = [0u8; 16];
        at[1] = low;
        at[14] = aces - low;
        at[2..14].copy_from_slice(&counts[1..13]);
        // Runs ending at the previous position: 1 long, 2 long, 3 or more.
        let (mut one, mut two, mut long) = (0u8, 0u8, 0u8);
        for &x in &at[1..16] {
            if x < one + two {
                return false;
            }
            let spare = x - one - two;
            let kept = spare.min(long);
            (one, two, long) = (spare - kept, one, two + kept);
        }
        one == 0 && two == 0
    })
}

#[cfg(test)]
mod tests {
    use super::splits_into_groups;
    use rami_cards::{Card, Face};
    use rami_melds::{RuleSet, validate_group};
    use rand::{Rng, SeedableRng};

    /// Plain search: the first card's group, every way, then the rest.
    fn brute(cards: &[Card], rules: RuleSet) -> bool {
        let Some((&first, rest)) = cards.split_first() else {
            return true;
        };
        (0u32..1 << rest.len()).any(|mask| {
            let (mut group, mut others) = (vec![first], Vec::new());
            for (i, &c) in rest.iter().enumerate() {
                if mask & (1 << i) != 0 {
                    group.push(c);
                } else {
                    others.push(c);
                }
            }
            group.len() >= 3
                && validate_group(&group, rules.group_rules()).is_ok()
                && brute(&others, rules)
        })
    }

    #[test]
    fn splits_into_groups_agrees_with_plain_search() {
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(11);
        let mut splittable = 0;
        for case in 0..3000 {
            let rules = [
                RuleSet::Manipulation,
                RuleSet::Shanghai,
                RuleSet::Machiavelli,
            ][case % 3];
            // One to three groups (set, or run with the ace at either end),
            // then often a card more or less: half split, half nearly do.
            let mut faces: Vec<usize> = Vec::new();
            for _ in 0..rng.random_range(1..=3) {
                let suit = rng.random_range(0..4);
                if rng.random_bool(0.5) {
                    let rank = rng.random_range(0..13);
                    let len = rng.random_range(3..=4);
                    faces.extend((0..len).map(|k| ((suit + k) % 4) * 13 + rank));
                } else {
                    let start = rng.random_range(0..12); // 0 = ace low, 11 = Q-K-A
                    let len = rng.random_range(3..=5);
                    faces.extend((start..start + len).map(|p| suit * 13 + (p % 13)));
                }
            }
            match rng.random_range(0..4) {
                0 => faces.push(rng.random_range(0..52)),
                1 if faces.len() > 3 => {
                    let i = rng.random_range(0..faces.len());
                    faces.remove(i);
                }
                _ => {}
            }
            let mut cards: Vec<Card> = Vec::new();
            for f in faces {
                if let Some(c) = Face::from_index(f).map(Card::from_face)
                    && cards.iter().filter(|&&x| x == c).count() < 2
                    && cards.len() < 12
                {
                    cards.push(c);
                }
            }
            let want = brute(&cards, rules);
            splittable += usize::from(want);
            assert_eq!(
                splits_into_groups(&cards, rules.ace_mode()),
                Some(want),
                "{rules:?} {}",
                rami_cards::format_cards(&cards)
            );
        }
        // Both answers must be common, or the test proves little.
        assert!(
            (600..2400).contains(&splittable),
            "positive cases: {splittable}"
        );
    }
}
