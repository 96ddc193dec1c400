//! The per-suit run automaton of the sweep.
//!
//! Within one suit the runs open at a position are a multiset of at most
//! [`SLOTS`] codes (bits 0-1: length so far, capped at 3; bit 2: the run holds a
//! joker, tracked only where a group may hold one joker). Which open runs a new
//! card extends is a choice (a nondeterministic automaton over "how many run cards
//! of this suit at this position"); determinising it, and keeping in each set only
//! the run multisets no other one beats, gives a small deterministic automaton
//! (35 states, 698 with the one-joker flag). The sweep then only chooses how many
//! copies of each face go to runs and to sets; which runs they extend is settled
//! afterwards, when the groups are laid out.
//!
//! Ace-either needs no flag for runs that start on the low ace: such a run that
//! also reached the high ace would hold 14 positions, and the same cards split
//! into A-2-3 and 4-…-A, which the automaton finds anyway.

use std::collections::HashMap;
use std::sync::OnceLock;

/// At most this many open runs per suit at one position.
pub(crate) const SLOTS: usize = 4;
/// No state: the symbol cannot follow.
pub(crate) const DEAD: u16 = u16::MAX;
/// Symbols: (run cards r in 0..=SLOTS, of which jokers rj in 0..=r).
pub(crate) const SYMS: usize = 15;

pub(crate) fn sym(r: u8, rj: u8) -> usize {
    usize::from(r) * (usize::from(r) + 1) / 2 + usize::from(rj)
}

pub(crate) fn codes(x: u16) -> [u8; SLOTS] {
    let mut c = [0u8; SLOTS];
    for (i, item) in c.iter_mut().enumerate() {
        *item = ((x >> (12 - 4 * i)) & 15) as u8;
    }
    c
}

/// Does run code `a` leave every choice that `b` leaves? A run of 3+ may stop, so
/// it beats no run and any shorter run; a run of 2 beats a run of 1 (both must go
/// on). The joker flag only restricts.
fn code_beats(a: u8, b: u8) -> bool {
    let (la, lb) = (a & 3, b & 3);
    if lb == 0 {
        return la == 0 || la == 3;
    }
    if a & 4 & !(b & 4) != 0 {
        return false;
    }
    la == lb || la == 3 || (la == 2 && lb == 1)
}

/// Does the run multiset `a` beat `b` (some matching of runs, each beating)?
/// By Hall's theorem: every set of `b`'s runs has at least as many runs of
/// `a` that beat one of them. (Trying all 24 matchings, for every pair of run
/// multisets, was most of the one-joker automaton's build.)
fn nfa_beats(a: u16, b: u16) -> bool {
    if a == b {
        return true;
    }
    let ca = codes(a);
    let cb = codes(b);
    // ok[i]: the runs of `a` that beat run i of `b`.
    let mut ok = [0u8; SLOTS];
    for (o, &y) in ok.iter_mut().zip(&cb) {
        for (j, &x) in ca.iter().enumerate() {
            if code_beats(x, y) {
                *o |= 1 << j;
            }
        }
    }
    // reach[s]: the runs of `a` that beat some run of subset `s` of `b`.
    let mut reach = [0u8; 1 << SLOTS];
    for s in 1..(1usize << SLOTS) {
        let low = s.trailing_zeros() as usize;
        reach[s] = reach[s & (s - 1)] | ok[low];
        if reach[s].count_ones() < s.count_ones() {
            return false;
        }
    }
    true
}

/// Where each run after a step came from: `0..SLOTS` the old run at that place,
/// `SLOTS + q` the q-th new run; and whether a joker went into it here.
pub(crate) type Origins = [(u8, bool); SLOTS];

/// Every successor of the run multiset `x` when `r` run cards (`rj` of them
/// jokers) of the suit lie at the next position, with where each run came from.
pub(crate) fn nfa_step(x: u16, r: u8, rj: u8, one_joker: bool, emit: &mut dyn FnMut(u16, Origins)) {
    let cs = codes(x);
    let n = cs.iter().filter(|&&c| c != 0).count();
    let r = usize::from(r);
    let rj = usize::from(rj);
    if r > SLOTS || rj > r {
        return;
    }
    for mask in 0u8..(1 << n) {
        // Runs not extended end here: they must be 3 long already.
        if (0..n).any(|i| mask & (1 << i) == 0 && cs[i] & 3 < 3) {
            continue;
        }
        let e = mask.count_ones() as usize;
        if e > r {
            continue;
        }
        let n_new = r - e;
        // Which of the r items get a joker.
        let jmasks: Vec<u8> = if one_joker {
            (0u8..(1 << r))
                .filter(|m| m.count_ones() as usize == rj)
                .collect()
        } else {
            vec![(((1u16 << rj) - 1) << (r - rj)) as u8]
        };
        for jm in jmasks {
            let mut items = [(0u8, (0u8, false)); SLOTS];
            let mut k = 0;
            let mut bad = false;
            for (i, &c) in cs.iter().enumerate().take(n) {
                if mask & (1 << i) == 0 {
                    continue;
                }
                let joker = jm & (1 << k) != 0;
                if joker && one_joker && c & 4 != 0 {
                    bad = true;
                }
                let len = ((c & 3) + 1).min(3);
                let flag = if joker && one_joker { 4 } else { c & 4 };
                items[k] = (flag | len, (i as u8, joker));
                k += 1;
            }
            if bad {
                continue;
            }
            for q in 0..n_new {
                let joker = jm & (1 << k) != 0;
                let flag = if joker && one_joker { 4 } else { 0 };
                items[k] = (1 | flag, ((SLOTS + q) as u8, joker));
                k += 1;
            }
            items[..r].sort_by_key(|x| std::cmp::Reverse(x.0));
            let mut packed = 0u16;
            let mut origin = [(0u8, false); SLOTS];
            for i in 0..SLOTS {
                let code = if i < r { items[i].0 } else { 0 };
                packed = (packed << 4) | u16::from(code);
                if i < r {
                    origin[i] = items[i].1;
                }
            }
            emit(packed, origin);
        }
    }
}

/// Every run is 3 long or more: the suit may stop here.
pub(crate) fn nfa_accepts(x: u16) -> bool {
    codes(x).iter().all(|&c| c == 0 || c & 3 == 3)
}

/// The deterministic automaton of one suit.
pub(crate) struct Dfa {
    /// The run multisets each state stands for (none beats another).
    pub sets: Vec<Vec<u16>>,
    pub trans: Vec<[u16; SYMS]>,
    pub accept: Vec<bool>,
    /// `dom[a * words + b / 64]` bit `b % 64`: state `a` leaves every choice
    /// state `b` leaves (each run multiset of `b` is beaten by one of `a`).
    pub dom: Vec<u64>,
    pub words: usize,
}

impl Dfa {
    pub fn beats(&self, a: usize, b: usize) -> bool {
        self.dom[a * self.words + b / 64] & (1 << (b % 64)) != 0
    }
}

fn build(one_joker: bool) -> Dfa {
    // Every run multiset (codes sorted high first), numbered, and which beats
    // which as bit rows.
    let run_codes: &[u8] = if one_joker {
        &[1, 2, 3, 5, 6, 7]
    } else {
        &[1, 2, 3]
    };
    let mut universe: Vec<u16> = vec![0];
    for k in 1..=SLOTS {
        let mut pick = vec![0usize; k];
        loop {
            let mut codes: Vec<u8> = pick.iter().map(|&i| run_codes[i]).collect();
            codes.sort_unstable_by(|a, b| b.cmp(a));
            let mut packed = 0u16;
            for i in 0..SLOTS {
                packed = (packed << 4) | u16::from(codes.get(i).copied().unwrap_or(0));
            }
            universe.push(packed);
            // Next non-decreasing index tuple.
            let mut i = k;
            while i > 0 && pick[i - 1] == run_codes.len() - 1 {
                i -= 1;
            }
            if i == 0 {
                break;
            }
            pick[i - 1] += 1;
            let v = pick[i - 1];
            for x in pick.iter_mut().skip(i) {
                *x = v;
            }
        }
    }
    universe.sort_unstable();
    universe.dedup();
    let m = universe.len();
    let mw = m.div_ceil(64);
    let mut index = vec![u16::MAX; 1 << 16];
    for (i, &x) in universe.iter().enumerate() {
        index[usize::from(x)] = i as u16;
    }
    let idx = |x: u16| usize::from(index[usize::from(x)]);
    let mut rows = vec![0u64; m * mw];
    for (i, &x) in universe.iter().enumerate() {
        for (j, &y) in universe.iter().enumerate() {
            if nfa_beats(x, y) {
                rows[i * mw + j / 64] |= 1 << (j % 64);
            }
        }
    }
    // Columns: `cols[j]` holds the multisets that beat multiset j, so a
    // successor set drops its beaten members with a few word operations each
    // (pairwise tests were most of the one-joker build: about 40 ms).
    let mut cols = vec![0u64; m * mw];
    for i in 0..m {
        for j in 0..m {
            if rows[i * mw + j / 64] & (1 << (j % 64)) != 0 {
                cols[j * mw + i / 64] |= 1 << (i % 64);
            }
        }
    }
    // Successors of each run multiset on each symbol, as bit sets of indexes
    // into `universe` (sorted, so the bits come out in order).
    let mut succ_of: Vec<u64> = vec![0; m * SYMS * mw];
    for (i, &x) in universe.iter().enumerate() {
        for r in 0..=SLOTS as u8 {
            for rj in 0..=r {
                let at = (i * SYMS + sym(r, rj)) * mw;
                nfa_step(x, r, rj, one_joker, &mut |y, _| {
                    let j = idx(y);
                    succ_of[at + j / 64] |= 1 << (j % 64);
                });
            }
        }
    }
    let mut ids: HashMap<Vec<u16>, u16> = HashMap::new();
    let mut dfa = Dfa {
        sets: Vec::new(),
        trans: Vec::new(),
        accept: Vec::new(),
        dom: Vec::new(),
        words: 0,
    };
    let start = vec![0u16];
    ids.insert(start.clone(), 0);
    dfa.sets.push(start);
    dfa.trans.push([DEAD; SYMS]);
    dfa.accept.push(true);
    let mut next_todo = 0;
    let mut succ: Vec<u16> = Vec::new();
    let mut members = vec![0u64; mw];
    while next_todo < dfa.sets.len() {
        let d = next_todo;
        next_todo += 1;
        for r in 0..=SLOTS as u8 {
            for rj in 0..=r {
                let sy = sym(r, rj);
                members.iter_mut().for_each(|w| *w = 0);
                for &x in &dfa.sets[d] {
                    let at = (idx(x) * SYMS + sy) * mw;
                    for (w, &b) in members.iter_mut().zip(&succ_of[at..at + mw]) {
                        *w |= b;
                    }
                }
                succ.clear();
                for (w, &bits) in members.iter().enumerate() {
                    let mut b = bits;
                    while b != 0 {
                        succ.push(universe[w * 64 + b.trailing_zeros() as usize]);
                        b &= b - 1;
                    }
                }
                if succ.is_empty() {
                    continue;
                }
                // Kept: the members no other member beats.
                let kept: Vec<u16> = succ
                    .iter()
                    .copied()
                    .filter(|&x| {
                        let i = idx(x);
                        let col = &cols[i * mw..(i + 1) * mw];
                        col.iter().enumerate().all(|(w, &c)| {
                            let own = if w == i / 64 { 1u64 << (i % 64) } else { 0 };
                            c & members[w] & !own == 0
                        })
                    })
                    .collect();
                let id = match ids.get(&kept) {
                    Some(&id) => id,
                    None => {
                        let id = dfa.sets.len() as u16;
                        assert!(id < 1023, "run automaton too large");
                        ids.insert(kept.clone(), id);
                        dfa.accept.push(kept.iter().any(|&x| nfa_accepts(x)));
                        dfa.sets.push(kept);
                        dfa.trans.push([DEAD; SYMS]);
                        id
                    }
                };
                dfa.trans[d][sy] = id;
            }
        }
    }
    // State a beats state b when every run multiset of b is beaten by one of a.
    let n = dfa.sets.len();
    let words = n.div_ceil(64);
    let mut union = vec![0u64; n * mw];
    let mut member = vec![0u64; n * mw];
    for a in 0..n {
        for &x in &dfa.sets[a] {
            let i = idx(x);
            member[a * mw + i / 64] |= 1 << (i % 64);
            for w in 0..mw {
                union[a * mw + w] |= rows[i * mw + w];
            }
        }
    }
    let mut dom = vec![0u64; n * words];
    for a in 0..n {
        let ua = &union[a * mw..(a + 1) * mw];
        for b in 0..n {
            let mb = &member[b * mw..(b + 1) * mw];
            if mb.iter().zip(ua).all(|(m, u)| m & !u == 0) {
                dom[a * words + b / 64] |= 1 << (b % 64);
            }
        }
    }
    dfa.dom = dom;
    dfa.words = words;
    dfa
}

/// The automaton, built once per process for each joker rule.
pub(crate) fn dfa(one_joker: bool) -> &'static Dfa {
    static PLAIN: OnceLock<Dfa> = OnceLock::new();
    static ONE: OnceLock<Dfa> = OnceLock::new();
    if one_joker {
        ONE.get_or_init(|| build(true))
    } else {
        PLAIN.get_or_init(|| build(false))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sizes() {
        assert_eq!(dfa(false).sets.len(), 35);
        let one = dfa(true);
        assert!(one.sets.len() > 35 && one.sets.len() < 1023);
        // Three single run cards in a row make a run: accepted; two do not.
        let d = dfa(false);
        let mut s = 0u16;
        for _ in 0..2 {
            s = d.trans[usize::from(s)][sym(1, 0)];
        }
        assert!(!d.accept[usize::from(s)]);
        s = d.trans[usize::from(s)][sym(1, 0)];
        assert!(d.accept[usize::from(s)]);
        // A gap after two cards kills the run.
        let mut s = 0u16;
        for _ in 0..2 {
            s = d.trans[usize::from(s)][sym(1, 0)];
        }
        assert_eq!(d.trans[usize::from(s)][sym(0, 0)], DEAD);
    }
}
