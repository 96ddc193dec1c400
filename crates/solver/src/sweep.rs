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

use rami_melds::AceMode;
use std::collections::HashMap;
use std::hash::{BuildHasherDefault, Hasher};
use std::sync::OnceLock;

/// At most this many open runs per suit at one position.
pub(crate) const SLOTS: usize = 4;
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

/// The state between two steps of the sweep.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub(crate) struct State {
    pub slots: [u16; 4],
    pub jokers: u8,
    /// Natural copies given to sets at this position, per suit.
    pub sets: [u8; 4],
    pub played: bool,
    /// Either mode: ace copies of each suit placed at position 1.
    pub carry: [u8; 4],
}

impl State {
    #[allow(dead_code)]
    fn key(&self, pi: u8, si: u8) -> u128 {
        let mut k: u128 = 0;
        for s in 0..4 {
            k = (k << 16) | u128::from(self.slots[s]);
        }
        for s in 0..4 {
            k = (k << 3) | u128::from(self.sets[s] & 7);
            k = (k << 3) | u128::from(self.carry[s] & 7);
        }
        k = (k << 4) | u128::from(self.jokers & 15);
        k = (k << 1) | u128::from(self.played);
        k = (k << 4) | u128::from(pi);
        (k << 3) | u128::from(si)
    }
}

/// One way to place the copies of one face at one position.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Opt {
    /// The suit's open runs afterwards (sorted codes).
    pub slots: u16,
    /// For each new code (in sorted order), where it came from: `0..SLOTS` an
    /// extended old slot, `SLOTS + k` the k-th new run; with whether a joker went
    /// into it at this position.
    pub origin: [(u8, bool); SLOTS],
    /// Natural copies given to sets.
    pub to_sets: u8,
    /// Natural copies put in runs.
    pub to_runs: u8,
    pub jokers: u8,
    /// Copies placed at this position.
    pub used: u8,
    pub value: i32,
    pub played: bool,
    pub carry: u8,
}

fn codes(slots: u16) -> [u8; SLOTS] {
    let mut c = [0u8; SLOTS];
    for (i, item) in c.iter_mut().enumerate() {
        *item = ((slots >> (12 - 4 * i)) & 15) as u8;
    }
    c
}

/// Sorts codes high first and packs them; `order` follows the sort.
fn pack(mut items: [(u8, (u8, bool)); SLOTS], n: usize) -> (u16, [(u8, bool); SLOTS]) {
    items[..n].sort_by_key(|x| std::cmp::Reverse(x.0));
    let mut packed = 0u16;
    let mut origin = [(0u8, false); SLOTS];
    for i in 0..SLOTS {
        let code = if i < n { items[i].0 } else { 0 };
        packed = (packed << 4) | u16::from(code);
        if i < n {
            origin[i] = items[i].1;
        }
    }
    (packed, origin)
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

/// One step of a path through the sweep: the placement chosen for one face, or
/// the jokers added to the sets of one rank.
#[derive(Clone, Copy, Debug)]
pub(crate) enum Move {
    Start,
    Suit(Opt),
    Sets(u8),
}

#[derive(Clone, Copy, Debug)]
struct Node {
    st: State,
    value: i32,
    parent: u32,
    mv: Move,
}

type FastMap<K, V> = HashMap<K, V, BuildHasherDefault<FastHasher>>;

/// States compared for beating: sets so far, jokers, aces carried, hand card played.
type Bucket = ([u8; 4], u8, [u8; 4], bool);

/// Does run code `a` leave every choice that `b` leaves? A run of 3+ may stop, so
/// it beats no run and any shorter run; a run of 2 beats a run of 1 (both must go
/// on). Flags (joker held, started on a low ace) only restrict.
fn code_beats(a: u8, b: u8) -> bool {
    let (la, lb) = (a & 3, b & 3);
    if lb == 0 {
        return la == 0 || la == 3;
    }
    if a & 12 & !(b & 12) != 0 {
        return false;
    }
    la == lb || la == 3 || (la == 2 && lb == 1)
}

/// The forward sweep over one [`Spec`], keeping at each step only the states no
/// other state beats (same jokers, sets and aces carried, at least the value,
/// every suit's runs at least as free).
pub(crate) struct Sweep<'a> {
    pub spec: &'a Spec,
    first: u8,
    last: u8,
    beats: FastMap<u32, bool>,
    explored: usize,
    solved: Option<Option<(i32, Vec<Move>)>>,
}

impl<'a> Sweep<'a> {
    pub fn new(spec: &'a Spec) -> Sweep<'a> {
        let positions = spec.positions();
        Sweep {
            spec,
            first: *positions.start(),
            last: *positions.end(),
            beats: FastMap::default(),
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
            let r = self.bounded();
            self.solved = Some(r);
        }
        self.solved.clone().flatten()
    }

    /// Hand copies of face `f` that could be in some group at all, given every
    /// card of the position (a bound on what the play can put down).
    fn playable(&self, f: usize) -> u8 {
        let spec = self.spec;
        let avail = |g: usize| spec.must[g] + spec.loose[g] + spec.hand[g] > 0;
        let jokers = spec.jokers_total();
        let rank = f % 13;
        let suit = f / 13;
        let suits = (0..4).filter(|&t| avail(t * 13 + rank)).count() as u8;
        if suits + jokers.min(4) >= 3 {
            return spec.hand[f];
        }
        // Runs: some window of three positions around f, gaps filled by jokers.
        let (lo, hi) = (self.first, self.last);
        let pos: &[u8] = if rank == 0 { &[1, 14] } else { &[0] };
        for &p0 in pos {
            let p = if rank == 0 { p0 } else { rank as u8 + 1 };
            if p < lo || p > hi {
                continue;
            }
            for start in p.saturating_sub(2).max(lo)..=p {
                if start + 2 > hi {
                    break;
                }
                let gaps = (start..start + 3)
                    .filter(|&q| {
                        let r = if q == 14 { 0 } else { usize::from(q) - 1 };
                        !avail(suit * 13 + r)
                    })
                    .count() as u8;
                if gaps <= jokers {
                    return spec.hand[f];
                }
            }
        }
        0
    }

    /// Runs the sweep keeping only states within `slack` of the bound, widening
    /// the slack until the best state found is provably the best.
    fn bounded(&mut self) -> Option<(i32, Vec<Move>)> {
        let spec = self.spec;
        // Bound gained per layer: each face's playable hand copies at their weight
        // (aces once, at the last position that holds them).
        let mut gain = Vec::new();
        let either = spec.ace == AceMode::Either;
        for p in self.first..=self.last {
            for s in 0..4 {
                let rank = if p == 14 { 1 } else { p };
                let f = s * 13 + usize::from(rank) - 1;
                let counted = !(either && p == 1);
                let w = spec.weight[f].max(0);
                gain.push(if counted {
                    w * i32::from(self.playable(f))
                } else {
                    0
                });
            }
            gain.push(0);
        }
        let joker_bound = spec.joker_weight.max(0) * i32::from(spec.jokers_hand);
        let bound: i32 = gain.iter().sum::<i32>() + joker_bound + spec.bonus;
        let mut widest: i32 = 1 + joker_bound;
        for f in 0..52 {
            widest += spec.weight[f].abs() * i32::from(spec.hand[f]);
        }
        widest += spec.joker_weight.abs() * i32::from(spec.jokers_hand);
        let mut slack = 0;
        loop {
            let r = self.run(&gain, slack);
            match r {
                Some((v, moves)) if v >= bound - slack || slack >= widest => {
                    return Some((v, moves));
                }
                // Anything better than v lies within bound - v of the bound.
                Some((v, _)) => slack = (bound - v).max(slack + 1),
                None if slack >= widest => return None,
                None => slack = (slack * 4).max(2).min(widest),
            }
        }
    }

    pub fn initial(&self) -> State {
        State {
            played: self.spec.forced_hand,
            ..State::default()
        }
    }

    pub fn first(&self) -> u8 {
        self.first
    }

    pub fn last(&self) -> u8 {
        self.last
    }

    fn slots_beat(&mut self, a: u16, b: u16) -> bool {
        if a == b {
            return true;
        }
        let key = (u32::from(a) << 16) | u32::from(b);
        if let Some(&r) = self.beats.get(&key) {
            return r;
        }
        let ca = codes(a);
        let cb = codes(b);
        // Try every matching of a's runs to b's (four places: 24 orders).
        let mut r = false;
        let mut perm = [0usize, 1, 2, 3];
        'outer: loop {
            if (0..SLOTS).all(|i| code_beats(ca[perm[i]], cb[i])) {
                r = true;
                break;
            }
            // Next permutation (lexicographic).
            let mut i = SLOTS - 1;
            while i > 0 && perm[i - 1] >= perm[i] {
                i -= 1;
            }
            if i == 0 {
                break 'outer;
            }
            let mut j = SLOTS - 1;
            while perm[j] <= perm[i - 1] {
                j -= 1;
            }
            perm.swap(i - 1, j);
            perm[i..].reverse();
        }
        self.beats.insert(key, r);
        r
    }

    /// Keeps the best node per state, then drops every node another beats.
    fn prune(&mut self, nodes: Vec<Node>) -> Vec<Node> {
        let mut best: FastMap<State, Node> = FastMap::default();
        for n in nodes {
            match best.get(&n.st) {
                Some(o) if o.value >= n.value => {}
                _ => {
                    best.insert(n.st, n);
                }
            }
        }
        // Once the jokers that must be placed are, fewer jokers placed beat more
        // (the rest can still be placed, or kept).
        let must = self.spec.jokers_must;
        let mut buckets: FastMap<Bucket, Vec<Node>> = FastMap::default();
        for n in best.into_values() {
            let j = if n.st.jokers >= must {
                u8::MAX
            } else {
                n.st.jokers
            };
            buckets
                .entry((n.st.sets, j, n.st.carry, n.st.played))
                .or_default()
                .push(n);
        }
        let mut out: Vec<Node> = Vec::new();
        for (_, mut list) in buckets {
            list.sort_by(|a, b| b.value.cmp(&a.value).then(a.st.slots.cmp(&b.st.slots)));
            let start = out.len();
            for n in list {
                let mut beaten = false;
                for &o in &out[start..] {
                    if o.st.jokers <= n.st.jokers
                        && (0..4).all(|s| self.slots_beat(o.st.slots[s], n.st.slots[s]))
                    {
                        beaten = true;
                        break;
                    }
                }
                if !beaten {
                    out.push(n);
                }
            }
        }
        out
    }

    fn run(&mut self, gain: &[i32], slack: i32) -> Option<(i32, Vec<Move>)> {
        let mut bound_so_far = 0;
        let mut layer_no = 0;
        let mut layers: Vec<Vec<Node>> = vec![vec![Node {
            st: self.initial(),
            value: 0,
            parent: 0,
            mv: Move::Start,
        }]];
        for p in self.first..=self.last {
            for s in 0..4 {
                let prev = layers.last()?;
                let mut next = Vec::new();
                let mut cache: FastMap<(u16, u8, u8), Vec<Opt>> = FastMap::default();
                for (i, n) in prev.iter().enumerate() {
                    let key = (n.st.slots[s], n.st.jokers, n.st.carry[s]);
                    let opts = cache.entry(key).or_insert_with(|| {
                        let mut v = Vec::new();
                        self.options(p, s, &n.st, &mut |o| v.push(o));
                        v
                    });
                    for o in opts.iter() {
                        let mut st = Self::apply(&n.st, s, o);
                        st.played |= o.jokers > 0 && self.spec.joker_value(st.jokers).0 > 0;
                        next.push(Node {
                            st,
                            value: n.value + o.value,
                            parent: i as u32,
                            mv: Move::Suit(*o),
                        });
                    }
                }
                self.explored += next.len();
                bound_so_far += gain[layer_no];
                layer_no += 1;
                next.retain(|n| bound_so_far - n.value <= slack);
                let next = self.prune(next);
                if next.is_empty() {
                    return None;
                }
                layers.push(next);
            }
            let prev = layers.last()?;
            let mut next = Vec::new();
            for (i, n) in prev.iter().enumerate() {
                for (j, mut st) in self.set_steps(&n.st) {
                    st.played |= self.hand_joker_used(st.jokers);
                    next.push(Node {
                        st,
                        value: n.value + self.joker_credit(n.st.jokers, j),
                        parent: i as u32,
                        mv: Move::Sets(j),
                    });
                }
            }
            self.explored += next.len();
            layer_no += 1;
            let next = self.prune(next);
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
            .map(|(i, n)| (i, self.terminal(&n.st), n.value))
            .filter(|&(_, t, _)| t > NEG)
            .map(|(i, t, v)| (i, t + v))
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

    pub fn apply(st: &State, s: usize, o: &Opt) -> State {
        let mut next = *st;
        next.slots[s] = o.slots;
        next.jokers += o.jokers;
        // Sets only need the multiset of counts (suits are alike for them): keep
        // it sorted so equal multisets meet in one state.
        next.sets[s] = o.to_sets;
        next.sets.sort_unstable_by(|a, b| b.cmp(a));
        next.played |= o.played;
        next.carry[s] = o.carry;
        next
    }

    /// After the four suits of a position: the joker counts that complete the sets.
    pub fn set_steps(&self, st: &State) -> Vec<(u8, State)> {
        let avail = self.spec.jokers_total().saturating_sub(st.jokers);
        let mut out = Vec::new();
        for j in 0..=avail {
            if sets_feasible(st.sets, j, self.spec.one_joker) {
                let mut next = *st;
                next.sets = [0; 4];
                next.jokers += j;
                out.push((j, next));
            }
        }
        out
    }

    fn terminal(&self, st: &State) -> i32 {
        // No run may be left shorter than three.
        for s in 0..4 {
            if codes(st.slots[s]).iter().any(|&c| c & 3 == 1 || c & 3 == 2) {
                return NEG;
            }
        }
        if st.jokers < self.spec.jokers_must {
            return NEG;
        }
        if self.spec.need_hand && !st.played {
            return NEG;
        }
        self.spec.bonus
    }

    /// Value of `more` jokers placed after `before`: jokers that must be placed go
    /// first, then (for a positive weight) hand jokers, then loose ones. Credited
    /// when placed, so that fewer jokers placed can beat more.
    fn joker_credit(&self, before: u8, more: u8) -> i32 {
        self.spec.joker_value(before + more).1 - self.spec.joker_value(before).1
    }

    fn hand_joker_used(&self, jokers: u8) -> bool {
        self.spec.joker_value(jokers).0 > 0
    }

    /// Every way to place the copies of the face at (`p`, suit `s`).
    pub fn options(&self, p: u8, s: usize, st: &State, emit: &mut dyn FnMut(Opt)) {
        let spec = self.spec;
        let rank = if p == 14 { 1 } else { p };
        let f = s * 13 + usize::from(rank) - 1;
        let either = spec.ace == AceMode::Either;
        let carried = if either && p == 14 { st.carry[s] } else { 0 };
        let max_total = spec.must[f] + spec.loose[f] + spec.hand[f];
        let min_total = spec.must[f];
        let (lo, hi) = if either && p == 1 {
            // The high end may still place the must-copies.
            (0, max_total)
        } else {
            (
                min_total.saturating_sub(carried),
                max_total.saturating_sub(carried),
            )
        };
        let sets_here = !(either && p == 14);
        let last = p == self.last;
        let codes = codes(st.slots[s]);
        let n = codes.iter().filter(|&&c| c != 0).count();
        let avail = spec.jokers_total().saturating_sub(st.jokers);
        for mask in 0u8..(1 << n) {
            let mut ok = true;
            for (i, &c) in codes.iter().enumerate().take(n) {
                let ext = mask & (1 << i) != 0;
                if (!ext && c & 3 < 3) || (ext && p == 14 && c & 8 != 0) {
                    ok = false;
                }
            }
            if !ok {
                continue;
            }
            let e = mask.count_ones() as usize;
            for n_new in 0..=(SLOTS - e) {
                if last && n_new > 0 {
                    break;
                }
                let r = e + n_new;
                // Which run cards are jokers: only the count matters unless a run
                // may hold one joker, where each choice is its own state.
                let masks: Vec<u8> = if spec.one_joker {
                    (0u8..(1 << r))
                        .filter(|m| m.count_ones() as u8 <= avail)
                        .collect()
                } else {
                    (0..=r.min(usize::from(avail)))
                        .map(|jr| (((1u16 << jr) - 1) << (r - jr)) as u8)
                        .collect()
                };
                for jm in masks {
                    let jr = jm.count_ones() as u8;
                    let mut items = [(0u8, (0u8, false)); SLOTS];
                    let mut k = 0;
                    let mut bad = false;
                    for (i, &c) in codes.iter().enumerate().take(n) {
                        if mask & (1 << i) == 0 {
                            continue;
                        }
                        let joker = jm & (1 << k) != 0;
                        if joker && spec.one_joker && c & 4 != 0 {
                            bad = true;
                        }
                        let len = ((c & 3) + 1).min(3);
                        let flag = if joker && spec.one_joker { 4 } else { 0 };
                        items[k] = ((c & 12) | flag | len, (i as u8, joker));
                        k += 1;
                    }
                    if bad {
                        continue;
                    }
                    for q in 0..n_new {
                        let joker = jm & (1 << k) != 0;
                        let flag = if joker && spec.one_joker { 4 } else { 0 };
                        let low = if either && p == 1 { 8 } else { 0 };
                        items[k] = (1 | flag | low, ((SLOTS + q) as u8, joker));
                        k += 1;
                    }
                    let nat_runs = r as u8 - jr;
                    if nat_runs < spec.run_only[f] {
                        continue;
                    }
                    let (packed, origin) = pack(items, r);
                    let from = lo.max(nat_runs + spec.set_only[f]);
                    let to = hi.min(nat_runs + if sets_here { 4 } else { 0 });
                    for used in from..=to {
                        let to_sets = used - nat_runs;
                        let total = carried + used;
                        let (hand_now, v_now) = spec.face_value(f, total);
                        let (_, v_before) = spec.face_value(f, carried);
                        emit(Opt {
                            slots: packed,
                            origin,
                            to_sets,
                            to_runs: nat_runs,
                            jokers: jr,
                            used,
                            value: v_now - v_before + self.joker_credit(st.jokers, jr),
                            played: hand_now > 0,
                            carry: if either && p == 1 { used } else { st.carry[s] },
                        });
                    }
                }
            }
        }
    }

    /// States generated so far (for tests and benchmarks).
    #[allow(dead_code)]
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
