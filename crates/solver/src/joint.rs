//! Tahiti's joint bound: one rank sweep in which the joker groups are made
//! beside the joker-free ones, each hand card going to one of them only.
//!
//! Tahiti's best play ([`crate::restricted`]) lays each joker in a group
//! first and sweeps the rest; its bounds count a hand card both in the rest
//! and in a joker group it could join, so on full tables the walk cannot
//! prove a play one card short of the whole hand optimal (docs/BENCHMARKS.md,
//! "Session 14"). This sweep bounds every legal play of one branch from
//! above by a relaxation that keeps the rule that matters: a group holding a
//! joker holds exactly one, and besides hand cards only the cards the rules
//! let it hold. Per position and suit it decides where each copy goes (a
//! joker-free run or set, a joker run or set, or nowhere when optional),
//! with the joker-free runs as the plain run automaton of [`crate::dfa`] and
//! the joker runs as explicit codes (there are four jokers at most).
//!
//! What a joker group may hold here, a superset of what the rules allow
//! (so the bound never understates): hand cards (the real cards that free
//! jokers among them); the cards that were with a freed joker (any joker's
//! group, not only that joker's); and a core of table cards standing for an
//! old joker-free group kept whole: in a run one block of three or more
//! table copies in a row (not checked to be one old group), in a set three
//! table copies and the joker alone. The copies rule is kept at each end
//! of the sweep apart (an ace's two ends not summed): no joker named for a
//! card whose copies are all on the new table, none under a freed joker's
//! old name. Value only: no layout (the walk still finds the play).

// Per-face and per-suit arrays are indexed alike throughout.
#![allow(clippy::needless_range_loop)]

use crate::dfa::{DEAD, Dfa, SLOTS, dfa, sym};
use crate::sweep::split_sets_remembered;
use std::collections::HashMap;

/// One branch as counts: what [`bound`] sweeps.
#[derive(Clone, Debug)]
pub(crate) struct JointSpec {
    /// Table copies that must be placed, in joker-free groups (or a core).
    pub must: [u8; 52],
    /// Copies that must be placed and may join a joker group: the cards
    /// that were with a freed joker, and the real cards that free jokers.
    pub must_joker_ok: [u8; 52],
    /// Hand copies that may be placed, each worth `weight`.
    pub hand: [u8; 52],
    pub weight: [i32; 52],
    /// Loose singles: may be placed in joker-free groups, worth nothing.
    pub loose: [u8; 52],
    /// Jokers freed by their real cards (must be laid) and in the hand (may
    /// be, each worth `joker_weight`).
    pub freed_jokers: u8,
    pub hand_jokers: u8,
    pub joker_weight: i32,
    /// Added once (forced real cards, frozen groups' extensions).
    pub bonus: i32,
    /// Per face, the copies surely on the new table (every natural of the
    /// old table, the names of the jokers that keep theirs, the hand copies
    /// that must be placed): with the hand copies placed and the jokers
    /// named for it, at most `copies`.
    pub base: [u8; 52],
    pub copies: u8,
    /// Names no joker may take (the freed jokers' old names).
    pub avoid: [bool; 52],
}

impl Default for JointSpec {
    fn default() -> JointSpec {
        JointSpec {
            must: [0; 52],
            must_joker_ok: [0; 52],
            hand: [0; 52],
            weight: [1; 52],
            loose: [0; 52],
            freed_jokers: 0,
            hand_jokers: 0,
            joker_weight: 1,
            bonus: 0,
            base: [0; 52],
            copies: 2,
            avoid: [false; 52],
        }
    }
}

/// A joker run: suit (bits 0-1), length so far capped at 3 (bits 2-3), its
/// joker laid (bit 4), the core block (bits 5-7: 0 none yet, 1-3 in it
/// with that many copies, 3 meaning three or more, 4 past it).
type RunCode = u8;

fn run_code(suit: usize, len: u8, joker: bool, block: u8) -> RunCode {
    (suit as u8) | (len.min(3) << 2) | (u8::from(joker) << 4) | (block << 5)
}

fn run_suit(c: RunCode) -> usize {
    usize::from(c & 3)
}

fn run_len(c: RunCode) -> u8 {
    (c >> 2) & 3
}

fn run_joker(c: RunCode) -> bool {
    c & 16 != 0
}

fn run_block(c: RunCode) -> u8 {
    c >> 5
}

/// A joker run may end here: three long, its joker laid, no core cut short.
fn run_closes(c: RunCode) -> bool {
    run_len(c) == 3 && run_joker(c) && matches!(run_block(c), 0 | 3 | 4)
}

/// What a copy of each class is: a must copy for joker-free groups (`M`),
/// a must copy a joker group may take (`MJ`), a hand copy (`H`), a loose
/// single (`L`).
const M: usize = 0;
const MJ: usize = 1;
const H: usize = 2;
const L: usize = 3;

/// The next block of a joker run taking an item: a table copy (`table`)
/// extends the core, anything else ends it (or leaves none).
fn next_block(block: u8, table: bool) -> Option<u8> {
    match (block, table) {
        (0, true) => Some(1),
        (1, true) => Some(2),
        (2 | 3, true) => Some(3),
        (4, true) => None,
        (0, false) => Some(0),
        (1 | 2, false) => None,
        (3 | 4, false) => Some(4),
        _ => None,
    }
}

#[derive(Clone, Copy, PartialEq, Eq, Hash)]
struct State {
    /// Per suit, the joker-free runs' automaton state.
    runs: [u16; 4],
    /// The open joker runs, sorted (0: none).
    jruns: [RunCode; 4],
    freed_left: u8,
    hand_left: u8,
    /// Ace-either: per suit, the ace copies left for the high end, two bits
    /// per class.
    carry: [u8; 4],
}

fn carry_get(c: u8, class: usize) -> u8 {
    (c >> (2 * class)) & 3
}

/// Where the copies of one position go, built suit by suit.
#[derive(Clone)]
struct Partial {
    runs: [u16; 4],
    jruns: Vec<RunCode>,
    freed_left: u8,
    hand_left: u8,
    carry: [u8; 4],
    value: i32,
    /// Per suit: copies to joker-free sets, hand copies placed, jokers
    /// named for this position's card of the suit.
    sets: [u8; 4],
    hand_placed: [u8; 4],
    named: [u8; 4],
}

struct Ctx<'a> {
    spec: &'a JointSpec,
    dfa: &'static Dfa,
    p: u8,
    /// The copies of each suit's card here, per class.
    avail: [[u8; 4]; 4],
    /// The joker sets' suits (bit masks) and whether each is a core.
    jsets: Vec<(u8, bool)>,
    out: &'a mut HashMap<State, i32>,
}

fn face(p: u8, s: usize) -> usize {
    let rank = if p == 14 { 1 } else { p };
    s * 13 + usize::from(rank) - 1
}

/// The most a legal play of the branch `spec` stands for can be worth, if
/// it is `need` or more; `None` when no play of the relaxation reaches
/// `need` (so no legal play does).
pub(crate) fn bound(spec: &JointSpec, need: i32) -> Option<i32> {
    let dfa = dfa(false);
    // The most the hand can still add after each position (ace-high copies
    // come from the carry instead).
    let mut after = [0i32; 16];
    for p in (1..=13u8).rev() {
        let here: i32 = (0..4)
            .map(|s| {
                let f = face(p, s);
                if p == 1 {
                    0
                } else {
                    i32::from(spec.hand[f]) * spec.weight[f].max(0)
                }
            })
            .sum();
        after[usize::from(p) - 1] = after[usize::from(p)] + here;
    }
    let ace_hand: i32 = (0..4)
        .map(|s| i32::from(spec.hand[face(1, s)]) * spec.weight[face(1, s)].max(0))
        .sum();
    let joker_w = spec.joker_weight.max(0);
    let mut layer: HashMap<State, i32> = HashMap::new();
    layer.insert(
        State {
            runs: [0; 4],
            jruns: [0; 4],
            freed_left: spec.freed_jokers,
            hand_left: spec.hand_jokers,
            carry: [0; 4],
        },
        spec.bonus,
    );
    for p in 1..=14u8 {
        let mut next: HashMap<State, i32> = HashMap::new();
        for (&st, &value) in &layer {
            // The most still to come: the hand's cards from here on (this
            // position's included), the hand jokers not laid yet.
            let here_on = if p == 1 {
                after[0] + ace_hand
            } else if p == 14 {
                (0..4)
                    .map(|s| i32::from(carry_get(st.carry[s], H)) * spec.weight[face(1, s)].max(0))
                    .sum()
            } else {
                after[usize::from(p) - 1]
                    + (0..4)
                        .map(|s| {
                            i32::from(carry_get(st.carry[s], H)) * spec.weight[face(1, s)].max(0)
                        })
                        .sum::<i32>()
            };
            if value + here_on + i32::from(st.hand_left) * joker_w < need {
                continue;
            }
            step(spec, dfa, p, st, value, &mut next);
        }
        layer = next;
        if layer.is_empty() {
            return None;
        }
    }
    let mut best: Option<i32> = None;
    for (st, value) in layer {
        let ends = st.freed_left == 0
            && st.runs.iter().all(|&r| dfa.accept[usize::from(r)])
            && st.jruns.iter().all(|&c| c == 0 || run_closes(c));
        if ends && value >= need {
            best = Some(best.map_or(value, |b| b.max(value)));
        }
    }
    best
}

/// Every way the copies at position `p` go from state `st`.
fn step(
    spec: &JointSpec,
    dfa: &'static Dfa,
    p: u8,
    st: State,
    value: i32,
    out: &mut HashMap<State, i32>,
) {
    let mut avail = [[0u8; 4]; 4];
    for s in 0..4 {
        if p == 14 {
            for class in 0..4 {
                avail[s][class] = carry_get(st.carry[s], class);
            }
        } else {
            let f = face(p, s);
            avail[s] = [
                spec.must[f],
                spec.must_joker_ok[f],
                spec.hand[f],
                spec.loose[f],
            ];
        }
    }
    let base = Partial {
        runs: st.runs,
        jruns: st.jruns.iter().copied().filter(|&c| c != 0).collect(),
        freed_left: st.freed_left,
        hand_left: st.hand_left,
        // (The low ace sets it; the high ace uses it up.)
        carry: if p == 14 { [0; 4] } else { st.carry },
        value,
        sets: [0; 4],
        hand_placed: [0; 4],
        named: [0; 4],
    };
    // Joker sets here first (at most two: a set takes a joker and two or
    // three copies of distinct suits, or a core of three table copies).
    let mut ctx = Ctx {
        spec,
        dfa,
        p,
        avail,
        jsets: Vec::new(),
        out,
    };
    joker_sets(&mut ctx, base, 0);
}

/// The joker sets at this position, from suit mask `from` on (each set's
/// mask no lower than the one before, so each multiset of sets comes once).
fn joker_sets(ctx: &mut Ctx, part: Partial, from: u8) {
    suit(ctx, part.clone(), 0);
    if ctx.jsets.len() >= 2 || part.freed_left + part.hand_left == 0 {
        return;
    }
    for mask in from.max(1)..16u8 {
        let n = mask.count_ones();
        if !(2..=3).contains(&n) {
            continue;
        }
        for core in [false, true] {
            if core && n != 3 {
                continue;
            }
            // Each suit of the set gives a copy: a table copy for a core,
            // else a hand copy (worth it) or one a joker group may take.
            let classes: &[usize] = if core { &[M] } else { &[H, MJ] };
            let mut choices: Vec<[[u8; 4]; 4]> = vec![[[0; 4]; 4]];
            for s in 0..4 {
                if mask & (1 << s) == 0 {
                    continue;
                }
                let mut next = Vec::new();
                for c in &choices {
                    for &class in classes {
                        if ctx.avail[s][class] == 0 {
                            continue;
                        }
                        let mut n = *c;
                        n[s][class] += 1;
                        next.push(n);
                    }
                }
                choices = next;
            }
            for taken in choices {
                for kind_freed in [true, false] {
                    let mut n = part.clone();
                    if kind_freed {
                        if n.freed_left == 0 {
                            continue;
                        }
                        n.freed_left -= 1;
                    } else {
                        if n.hand_left == 0 {
                            continue;
                        }
                        n.hand_left -= 1;
                        n.value += ctx.spec.joker_weight;
                    }
                    for s in 0..4 {
                        for class in 0..4 {
                            let k = taken[s][class];
                            ctx.avail[s][class] -= k;
                            if class == H {
                                n.value += i32::from(k) * ctx.spec.weight[face(ctx.p, s)];
                                n.hand_placed[s] += k;
                            }
                        }
                    }
                    ctx.jsets.push((mask, core));
                    joker_sets(ctx, n, mask);
                    ctx.jsets.pop();
                    for s in 0..4 {
                        for class in 0..4 {
                            ctx.avail[s][class] += taken[s][class];
                        }
                    }
                }
            }
        }
    }
}

/// Suit `s` and the ones after it: the open joker runs of the suit first,
/// then new ones, then the joker-free groups.
fn suit(ctx: &mut Ctx, part: Partial, s: usize) {
    if s == 4 {
        finish(ctx, part);
        return;
    }
    let open: Vec<RunCode> = part
        .jruns
        .iter()
        .copied()
        .filter(|&c| run_suit(c) == s)
        .collect();
    let mut rest = part.clone();
    rest.jruns.retain(|&c| run_suit(c) != s);
    let avail = ctx.avail[s];
    open_runs(ctx, rest, s, &open, 0, avail, Vec::new());
}

/// The open joker runs of suit `s` from `i` on: each ends before this
/// position or takes one item here.
#[allow(clippy::too_many_arguments)]
fn open_runs(
    ctx: &mut Ctx,
    part: Partial,
    s: usize,
    open: &[RunCode],
    i: usize,
    avail: [u8; 4],
    kept: Vec<RunCode>,
) {
    if i == open.len() {
        new_runs(ctx, part, s, avail, kept, 0);
        return;
    }
    let c = open[i];
    if run_closes(c) {
        open_runs(ctx, part.clone(), s, open, i + 1, avail, kept.clone());
    }
    let len = (run_len(c) + 1).min(3);
    // Its joker.
    if !run_joker(c)
        && let Some(b) = next_block(run_block(c), false)
    {
        let mut n = part.clone();
        n.named[s] += 1;
        let mut k = kept.clone();
        k.push(run_code(s, len, true, b));
        open_runs(ctx, n, s, open, i + 1, avail, k);
    }
    for class in [M, MJ, H] {
        if avail[class] == 0 {
            continue;
        }
        let Some(b) = next_block(run_block(c), class == M) else {
            continue;
        };
        let mut n = part.clone();
        let mut a = avail;
        a[class] -= 1;
        if class == H {
            n.value += ctx.spec.weight[face(ctx.p, s)];
            n.hand_placed[s] += 1;
        }
        let mut k = kept.clone();
        k.push(run_code(s, len, run_joker(c), b));
        open_runs(ctx, n, s, open, i + 1, a, k);
    }
}

/// New joker runs of suit `s` starting here (`started` so far), then the
/// joker-free groups of the suit.
fn new_runs(
    ctx: &mut Ctx,
    part: Partial,
    s: usize,
    avail: [u8; 4],
    kept: Vec<RunCode>,
    started: usize,
) {
    free_groups(ctx, part.clone(), s, avail, &kept);
    // A run starting at the high ace would hold nothing after it.
    if ctx.p >= 13 || started >= 2 || part.freed_left + part.hand_left == 0 {
        return;
    }
    for kind_freed in [true, false] {
        let mut n = part.clone();
        if kind_freed {
            if n.freed_left == 0 {
                continue;
            }
            n.freed_left -= 1;
        } else {
            if n.hand_left == 0 {
                continue;
            }
            n.hand_left -= 1;
            n.value += ctx.spec.joker_weight;
        }
        // Its first item: its joker, or a copy.
        let mut k = kept.clone();
        k.push(run_code(s, 1, true, 0));
        let mut j = n.clone();
        j.named[s] += 1;
        new_runs(ctx, j, s, avail, k, started + 1);
        for class in [M, MJ, H] {
            if avail[class] == 0 {
                continue;
            }
            let mut m = n.clone();
            let mut a = avail;
            a[class] -= 1;
            if class == H {
                m.value += ctx.spec.weight[face(ctx.p, s)];
                m.hand_placed[s] += 1;
            }
            let mut k = kept.clone();
            k.push(run_code(s, 1, false, u8::from(class == M)));
            new_runs(ctx, m, s, a, k, started + 1);
        }
    }
}

/// The copies of suit `s` left after its joker groups: to joker-free runs
/// and sets, or nowhere (optional ones; at the low ace any, carried to the
/// high end; at the high ace no must copy).
fn free_groups(ctx: &mut Ctx, part: Partial, s: usize, avail: [u8; 4], kept: &[RunCode]) {
    let p = ctx.p;
    let low_ace = p == 1;
    // How many of each class go down here.
    let lo = |class: usize| {
        if low_ace || class == H || class == L {
            0
        } else {
            avail[class]
        }
    };
    for m in lo(M)..=avail[M] {
        for mj in lo(MJ)..=avail[MJ] {
            for h in lo(H)..=avail[H] {
                for l in lo(L)..=avail[L] {
                    let total = m + mj + h + l;
                    let mut n = part.clone();
                    n.value += i32::from(h) * ctx.spec.weight[face(p, s)];
                    n.hand_placed[s] += h;
                    if low_ace {
                        let left = [avail[M] - m, avail[MJ] - mj, avail[H] - h, avail[L] - l];
                        n.carry[s] = left
                            .iter()
                            .enumerate()
                            .fold(0u8, |acc, (class, &k)| acc | (k << (2 * class)));
                    }
                    n.jruns.extend_from_slice(kept);
                    for r in 0..=total.min(SLOTS as u8) {
                        let t = ctx.dfa.trans[usize::from(n.runs[s])][sym(r, 0)];
                        if t == DEAD {
                            continue;
                        }
                        let mut x = n.clone();
                        x.runs[s] = t;
                        x.sets[s] = total - r;
                        suit(ctx, x, s + 1);
                    }
                }
            }
        }
    }
}

/// The position's sets and the copies rule, then the next state.
fn finish(ctx: &mut Ctx, part: Partial) {
    let spec = ctx.spec;
    if split_sets_remembered(part.sets, 0, false).is_none() {
        return;
    }
    // Run jokers: named for this position's card of their suit.
    for s in 0..4 {
        let f = face(ctx.p, s);
        if part.named[s] > 0
            && (spec.avoid[f] || spec.base[f] + part.hand_placed[s] + part.named[s] > spec.copies)
        {
            return;
        }
    }
    // Set jokers: each named for some suit its set lacks, with room.
    for &(mask, _) in &ctx.jsets {
        let room = (0..4).any(|s| {
            let f = face(ctx.p, s);
            mask & (1 << s) == 0
                && !spec.avoid[f]
                && spec.base[f] + part.hand_placed[s] + part.named[s] < spec.copies
        });
        if !room {
            return;
        }
    }
    let mut jruns = [0u8; 4];
    if part.jruns.len() > 4 {
        return;
    }
    let mut sorted = part.jruns.clone();
    sorted.sort_unstable_by(|a, b| b.cmp(a));
    jruns[..sorted.len()].copy_from_slice(&sorted);
    let key = State {
        runs: part.runs,
        jruns,
        freed_left: part.freed_left,
        hand_left: part.hand_left,
        carry: part.carry,
    };
    let e = ctx.out.entry(key).or_insert(i32::MIN);
    if part.value > *e {
        *e = part.value;
    }
}
