//! The rank-sweep dynamic programme (after van Rijn, Takes & Vis 2015).
//!
//! Positions are swept from low to high (1 = low ace … 14 = high ace); at each
//! position the four suits are decided one after the other, so the memo never
//! holds a product of per-suit choices. The state between steps is, per suit, up
//! to four open runs, each a 4-bit code:
//! - bits 0-1: run length so far, capped at 3 ("3+": it may stop here or go on);
//! - bit 2: the run holds a joker (tracked only where a group may hold one joker);
//! - bit 3: the run started on a low ace (so it may never reach the high ace:
//!   A-2-…-K-A is not a run).
//!
//! Runs longer than 3 never need more state: any run of 3 or more may end or go
//! on, so lengths 3, 4, 5, … behave alike (a long run is several runs of 3-5
//! glued together). Sets are decided per rank from how many natural copies of each
//! suit and how many jokers go to sets.
//!
//! Card copies of one face are interchangeable, so the programme only counts them:
//! per face a number of copies that must be placed (table cards), optional copies
//! worth nothing (Tahiti's loose singles) and hand copies worth a weight each.

// Counts are indexed by face and suit throughout: index loops read clearest.
#![allow(clippy::needless_range_loop)]

use crate::dfa::{DEAD, Dfa, SLOTS, dfa, sym};
use rami_melds::AceMode;
use std::collections::HashMap;
use std::hash::{BuildHasherDefault, Hasher};
use std::sync::OnceLock;

pub(crate) const NEG: i32 = i32::MIN / 4;

/// What one sweep solves: counts per face (index `suit * 13 + rank - 1`, as
/// `Face::index`), per-card weights, and the jokers.
#[derive(Clone, Debug)]
pub(crate) struct Spec {
    pub ace: AceMode,
    /// A group may hold one joker at most (Tahiti).
    pub one_joker: bool,
    /// Copies that must be placed (table naturals, named jokers kept as that card,
    /// and forced hand copies).
    pub must: [u8; 52],
    /// Copies that may be placed and are worth nothing (loose singles).
    pub loose: [u8; 52],
    /// Hand copies that may be placed, each worth `weight`.
    pub hand: [u8; 52],
    pub weight: [i32; 52],
    /// Of `must`, copies that have to go into a run / into a set (anchored jokers).
    pub run_only: [u8; 52],
    pub set_only: [u8; 52],
    /// Wild jokers: that must be placed, loose (optional, worth nothing), in hand.
    pub jokers_must: u8,
    pub jokers_loose: u8,
    pub jokers_hand: u8,
    pub joker_weight: i32,
    /// A value added once (forced hand copies, already counted in `must`).
    pub bonus: i32,
    /// The play must put down at least one hand card (hint search), and forced
    /// hand cards already satisfy it.
    pub need_hand: bool,
    pub forced_hand: bool,
}

impl Spec {
    pub fn new(ace: AceMode, one_joker: bool) -> Spec {
        Spec {
            ace,
            one_joker,
            must: [0; 52],
            loose: [0; 52],
            hand: [0; 52],
            weight: [1; 52],
            run_only: [0; 52],
            set_only: [0; 52],
            jokers_must: 0,
            jokers_loose: 0,
            jokers_hand: 0,
            joker_weight: 1,
            bonus: 0,
            need_hand: false,
            forced_hand: false,
        }
    }

    fn positions(&self) -> std::ops::RangeInclusive<u8> {
        match self.ace {
            AceMode::High => 2..=14,
            AceMode::Low => 1..=13,
            AceMode::Either => 1..=14,
        }
    }

    fn jokers_total(&self) -> u8 {
        self.jokers_must + self.jokers_loose + self.jokers_hand
    }

    /// Hand copies used when `total` copies of face `f` are placed, and their value.
    fn face_value(&self, f: usize, total: u8) -> (u8, i32) {
        let w = self.weight[f];
        // Placing copies costs nothing in itself: with a positive weight the hand
        // copies go down before the loose ones; with a negative one (fewest cards)
        // the loose ones first.
        let free = if w >= 0 {
            self.must[f]
        } else {
            self.must[f] + self.loose[f]
        };
        let used = total.saturating_sub(free).min(self.hand[f]);
        (used, w * i32::from(used))
    }

    fn joker_value(&self, total: u8) -> (u8, i32) {
        let w = self.joker_weight;
        let free = if w >= 0 {
            self.jokers_must
        } else {
            self.jokers_must + self.jokers_loose
        };
        let used = total.saturating_sub(free).min(self.jokers_hand);
        (used, w * i32::from(used))
    }
}

/// Whether natural copies `c` (per suit) and `j` jokers split into sets, and how:
/// each set as (suit mask of its naturals, jokers).
pub(crate) fn split_sets(c: [u8; 4], j: u8, one_joker: bool) -> Option<Vec<(u8, u8)>> {
    fn go(c: &mut [u8; 4], j: u8, one: bool, out: &mut Vec<(u8, u8)>) -> bool {
        let Some(first) = (0..4).find(|&s| c[s] > 0) else {
            return j == 0;
        };
        for mask in 0u8..16 {
            if mask & (1 << first) == 0 || (0..4).any(|s| mask & (1 << s) != 0 && c[s] == 0) {
                continue;
            }
            let n = mask.count_ones() as u8;
            let max_j = if one { 1 } else { 4 };
            for jk in 0..=j.min(max_j) {
                if !(3..=4).contains(&(n + jk)) {
                    continue;
                }
                for s in 0..4 {
                    if mask & (1 << s) != 0 {
                        c[s] -= 1;
                    }
                }
                out.push((mask, jk));
                if go(c, j - jk, one, out) {
                    return true;
                }
                out.pop();
                for s in 0..4 {
                    if mask & (1 << s) != 0 {
                        c[s] += 1;
                    }
                }
            }
        }
        false
    }
    let mut c = c;
    let mut out = Vec::new();
    go(&mut c, j, one_joker, &mut out).then_some(out)
}

/// `split_sets(..).is_some()`, tabulated: 5^4 count vectors × 5 joker counts × 2.
fn sets_feasible(c: [u8; 4], j: u8, one_joker: bool) -> bool {
    static TABLE: OnceLock<Vec<bool>> = OnceLock::new();
    if c.iter().any(|&x| x > 4) || j > 4 {
        return split_sets(c, j, one_joker).is_some();
    }
    let table = TABLE.get_or_init(|| {
        let mut t = vec![false; 625 * 5 * 2];
        for idx in 0..t.len() {
            let one = idx % 2 == 1;
            let j = (idx / 2 % 5) as u8;
            let mut rest = idx / 10;
            let mut c = [0u8; 4];
            for x in &mut c {
                *x = (rest % 5) as u8;
                rest /= 5;
            }
            t[idx] = split_sets(c, j, one).is_some();
        }
        t
    });
    let mut idx = 0usize;
    for s in (0..4).rev() {
        idx = idx * 5 + usize::from(c[s]);
    }
    table[(idx * 5 + usize::from(j)) * 2 + usize::from(one_joker)]
}

#[derive(Default)]
struct FastHasher(u64);
impl Hasher for FastHasher {
    fn finish(&self) -> u64 {
        self.0
    }
    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.0 = (self.0.rotate_left(5) ^ u64::from(b)).wrapping_mul(0x51_7c_c1_b7_27_22_0a_95);
        }
    }
    fn write_u128(&mut self, v: u128) {
        let x = (v as u64) ^ ((v >> 64) as u64).wrapping_mul(0x9e37_79b9_7f4a_7c15);
        self.0 = (x ^ (x >> 29)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        self.0 ^= self.0 >> 32;
    }
}

/// How many copies of one face go where at one position of one suit.
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct Choice {
    /// Natural copies (and named jokers standing as the card) put in runs.
    pub nat_r: u8,
    /// Wild jokers put in runs as this card.
    pub jok_r: u8,
    /// Natural copies given to the sets of this rank.
    pub to_sets: u8,
    /// Copies placed at this position (`nat_r + to_sets`).
    pub used: u8,
}

/// One step of a path through the sweep: the placement chosen for one face, or
/// the jokers added to the sets of one rank.
#[derive(Clone, Copy, Debug)]
pub(crate) enum Move {
    Start,
    Suit(Choice),
    Sets(u8),
}

#[derive(Clone, Copy, Debug)]
struct Node {
    key: u128,
    value: i32,
    parent: u32,
    mv: Move,
}

type FastMap<K, V> = HashMap<K, V, BuildHasherDefault<FastHasher>>;

// The state between two steps, packed: per suit the automaton state (10 bits
// each), per suit the ace copies placed at position 1 (either mode, 3 bits each),
// jokers placed so far, whether a hand card went down, and the multiset of set
// copies given so far at this rank (as counts of suits giving 1, 2, 3, 4: base 5).
const D_BITS: u32 = 10;
const CARRY_SHIFT: u32 = 40;
const JOKER_SHIFT: u32 = 52;
const PLAYED_SHIFT: u32 = 55;
const SETS_SHIFT: u32 = 56;
const POW5: [u16; 4] = [1, 5, 25, 125];

fn sets_code_feasible(code: u16, j: u8, one_joker: bool) -> bool {
    let mut c = [0u8; 4];
    let mut rest = code;
    let mut i = 0;
    for k in 1..=4u8 {
        let n = rest % 5;
        rest /= 5;
        for _ in 0..n {
            if i < 4 {
                c[i] = k;
                i += 1;
            }
        }
    }
    sets_feasible(c, j, one_joker)
}

/// The forward sweep over one [`Spec`]: at each step the best value of every
/// distinct state.
pub(crate) struct Sweep<'a> {
    pub spec: &'a Spec,
    dfa: &'static Dfa,
    first: u8,
    last: u8,
    explored: usize,
    solved: Option<Option<(i32, Vec<Move>)>>,
}

impl<'a> Sweep<'a> {
    pub fn new(spec: &'a Spec) -> Sweep<'a> {
        let positions = spec.positions();
        Sweep {
            spec,
            dfa: dfa(spec.one_joker),
            first: *positions.start(),
            last: *positions.end(),
            explored: 0,
            solved: None,
        }
    }

    /// The best value, or `None` when no arrangement places every card that must
    /// be placed (and, for a hint, puts down a hand card).
    pub fn best(&mut self) -> Option<i32> {
        self.path().map(|(v, _)| v)
    }

    /// The best value and the moves of one best path, first to last.
    pub fn path(&mut self) -> Option<(i32, Vec<Move>)> {
        if self.solved.is_none() {
            let r = self.run();
            self.solved = Some(r);
        }
        self.solved.clone().flatten()
    }

    pub fn first(&self) -> u8 {
        self.first
    }

    pub fn last(&self) -> u8 {
        self.last
    }

    pub fn dfa(&self) -> &'static Dfa {
        self.dfa
    }

    fn run(&mut self) -> Option<(i32, Vec<Move>)> {
        let spec = self.spec;
        let either = spec.ace == AceMode::Either;
        let jt = spec.jokers_total();
        let trans = &self.dfa.trans;
        let mut map: FastMap<u128, u32> = FastMap::default();
        let init = u128::from(spec.forced_hand) << PLAYED_SHIFT;
        let mut layers: Vec<Vec<Node>> = vec![vec![Node {
            key: init,
            value: 0,
            parent: 0,
            mv: Move::Start,
        }]];
        let mut push = |map: &mut FastMap<u128, u32>, next: &mut Vec<Node>, n: Node| {
            match map.entry(n.key) {
                std::collections::hash_map::Entry::Occupied(e) => {
                    let o = &mut next[*e.get() as usize];
                    if n.value > o.value {
                        *o = n;
                    }
                }
                std::collections::hash_map::Entry::Vacant(e) => {
                    e.insert(next.len() as u32);
                    next.push(n);
                }
            }
        };
        for p in self.first..=self.last {
            let rank = if p == 14 { 1 } else { p };
            let sets_here = !(either && p == 14);
            let first_either = either && p == 1;
            for s in 0..4 {
                let f = s * 13 + usize::from(rank) - 1;
                let max_total = spec.must[f] + spec.loose[f] + spec.hand[f];
                let min_total = spec.must[f];
                let prev = layers.last()?;
                let mut next: Vec<Node> = Vec::with_capacity(prev.len() * 2);
                map.clear();
                let d_shift = D_BITS * s as u32;
                let c_shift = CARRY_SHIFT + 3 * s as u32;
                for (i, n) in prev.iter().enumerate() {
                    let key = n.key;
                    let d = ((key >> d_shift) & 1023) as usize;
                    let carry = ((key >> c_shift) & 7) as u8;
                    let jokers = ((key >> JOKER_SHIFT) & 7) as u8;
                    let sets = ((key >> SETS_SHIFT) & 1023) as u16;
                    let carried = if either && p == 14 { carry } else { 0 };
                    let (lo, hi) = if first_either {
                        (0, max_total)
                    } else {
                        (
                            min_total.saturating_sub(carried),
                            max_total.saturating_sub(carried),
                        )
                    };
                    let avail = jt.saturating_sub(jokers);
                    let (_, v_before) = spec.face_value(f, carried);
                    let base = key
                        & !(1023u128 << d_shift)
                        & !(7u128 << c_shift)
                        & !(7u128 << JOKER_SHIFT)
                        & !(1023u128 << SETS_SHIFT);
                    for nat_r in spec.run_only[f]..=hi.min(SLOTS as u8) {
                        for jok_r in 0..=avail.min(SLOTS as u8 - nat_r) {
                            let d2 = trans[d][sym(nat_r + jok_r, jok_r)];
                            if d2 == DEAD {
                                continue;
                            }
                            let from = lo.max(nat_r + spec.set_only[f]);
                            let to = hi.min(nat_r + if sets_here { 4 } else { 0 });
                            let jk = jokers + jok_r;
                            let credit = self.joker_credit(jokers, jok_r);
                            let joker_played = jok_r > 0 && self.hand_joker_used(jk);
                            for used in from..=to {
                                let k = used - nat_r;
                                let (hand_now, v_now) = spec.face_value(f, carried + used);
                                let played = hand_now > 0 || joker_played;
                                let new_sets = if k > 0 {
                                    sets + POW5[usize::from(k) - 1]
                                } else {
                                    sets
                                };
                                let new_carry = if first_either { used } else { carry };
                                let nk = base
                                    | (u128::from(d2) << d_shift)
                                    | (u128::from(new_carry) << c_shift)
                                    | (u128::from(jk) << JOKER_SHIFT)
                                    | (u128::from(played) << PLAYED_SHIFT)
                                    | (u128::from(new_sets) << SETS_SHIFT);
                                push(
                                    &mut map,
                                    &mut next,
                                    Node {
                                        key: nk,
                                        value: n.value + v_now - v_before + credit,
                                        parent: i as u32,
                                        mv: Move::Suit(Choice {
                                            nat_r,
                                            jok_r,
                                            to_sets: k,
                                            used,
                                        }),
                                    },
                                );
                            }
                        }
                    }
                }
                self.explored += next.len();
                if next.is_empty() {
                    return None;
                }
                layers.push(next);
            }
            // The sets of this rank: the jokers that complete them.
            let prev = layers.last()?;
            let mut next: Vec<Node> = Vec::with_capacity(prev.len());
            map.clear();
            for (i, n) in prev.iter().enumerate() {
                let key = n.key;
                let jokers = ((key >> JOKER_SHIFT) & 7) as u8;
                let sets = ((key >> SETS_SHIFT) & 1023) as u16;
                let avail = jt.saturating_sub(jokers);
                let base = key & !(7u128 << JOKER_SHIFT) & !(1023u128 << SETS_SHIFT);
                for j in 0..=avail {
                    if !sets_code_feasible(sets, j, spec.one_joker) {
                        continue;
                    }
                    let jk = jokers + j;
                    let played = self.hand_joker_used(jk);
                    let nk = base
                        | (u128::from(jk) << JOKER_SHIFT)
                        | (u128::from(played) << PLAYED_SHIFT);
                    push(
                        &mut map,
                        &mut next,
                        Node {
                            key: nk,
                            value: n.value + self.joker_credit(jokers, j),
                            parent: i as u32,
                            mv: Move::Sets(j),
                        },
                    );
                }
            }
            self.explored += next.len();
            if std::env::var_os("RAMI_SWEEP_DEBUG").is_some() {
                eprintln!("p {p}: {} states", next.len());
            }
            if next.is_empty() {
                return None;
            }
            layers.push(next);
        }
        let last = layers.last()?;
        let (mut idx, value) = last
            .iter()
            .enumerate()
            .filter(|(_, n)| self.terminal(n.key))
            .map(|(i, n)| (i, n.value + spec.bonus))
            .max_by_key(|&(i, v)| (v, std::cmp::Reverse(i)))?;
        let mut moves = Vec::with_capacity(layers.len());
        for layer in layers.iter().rev() {
            let n = layer[idx];
            moves.push(n.mv);
            idx = n.parent as usize;
        }
        moves.reverse();
        Some((value, moves))
    }

    fn terminal(&self, key: u128) -> bool {
        for s in 0..4 {
            let d = ((key >> (D_BITS * s)) & 1023) as usize;
            if !self.dfa.accept[d] {
                return false;
            }
        }
        let jokers = ((key >> JOKER_SHIFT) & 7) as u8;
        if jokers < self.spec.jokers_must {
            return false;
        }
        let played = (key >> PLAYED_SHIFT) & 1 == 1;
        !(self.spec.need_hand && !played)
    }

    /// Value of `more` jokers placed after `before`: jokers that must be placed go
    /// first, then (for a positive weight) hand jokers, then loose ones.
    fn joker_credit(&self, before: u8, more: u8) -> i32 {
        self.spec.joker_value(before + more).1 - self.spec.joker_value(before).1
    }

    fn hand_joker_used(&self, jokers: u8) -> bool {
        self.spec.joker_value(jokers).0 > 0
    }

    /// States generated so far (for tests and benchmarks).
    pub fn explored(&self) -> usize {
        self.explored
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn set_splits() {
        assert!(sets_feasible([1, 1, 1, 0], 0, false));
        assert!(!sets_feasible([1, 1, 0, 0], 0, false));
        assert!(sets_feasible([1, 1, 0, 0], 1, false));
        assert!(sets_feasible([1, 0, 0, 0], 2, false));
        assert!(!sets_feasible([1, 0, 0, 0], 2, true));
        assert!(sets_feasible([2, 2, 1, 1], 0, false));
        assert!(!sets_feasible([2, 1, 1, 0], 0, false));
        assert!(sets_feasible([0, 0, 0, 0], 0, false));
        assert!(!sets_feasible([0, 0, 0, 0], 1, false));
    }
}
