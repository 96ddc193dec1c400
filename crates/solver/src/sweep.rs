//! The rank-sweep dynamic programme (after van Rijn, Takes & Vis 2015).
//!
//! Positions are swept from low to high (1 = low ace … 14 = high ace); at each
//! position the four suits are decided one after the other, then the jokers that
//! complete the sets of that rank, so the memo never holds a product of per-suit
//! choices. A step only chooses how many copies of the face go to runs (natural
//! and joker) and to sets; the open runs of each suit are one state of the
//! per-suit automaton of [`crate::dfa`], which settles which runs those copies
//! extend. The state between steps packs the four automaton states, the jokers
//! placed, whether a hand card went down (hints) and the set copies given so far
//! at this rank, in a `u64`; each step keeps the best value per state in an
//! open-addressing table, and states another one beats are dropped at the end of
//! each rank.
//!
//! Card copies of one face are interchangeable, so the programme only counts them:
//! per face a number of copies that must be placed (table cards), optional copies
//! worth nothing (Tahiti's loose singles) and hand copies worth a weight each.
//!
//! Speed: a narrow first sweep (the best few states per step) usually finds a
//! good play, whose value then lets the exact sweep drop every state that cannot
//! reach it; when it meets the upper bound it is the answer. Ace-either is a
//! branch and bound over how each suit's aces split between the two ends (see
//! [`Sweep::solve`]), never a per-state count.
//!
//! Strict copies mode ([`Spec::strict_copies`], Carousel and Vatikan on
//! demand) makes the
//! copies rule exact in the sweep: each face's copies within its cap, the sets
//! code holding per suit its set copies and the room left for set jokers
//! named for it, and at ace-either the rooms the low aces leave carried to the
//! high end in the carry bits (the aces then never ride in the state).

// Counts are indexed by face and suit throughout: index loops read clearest.
#![allow(clippy::needless_range_loop)]

use crate::dfa::{DEAD, Dfa, SLOTS, dfa, sym};
use rami_melds::AceMode;

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
    /// Ace-either: of `run_only` for each suit's ace, the copies held to the
    /// high end (the others are held to the low end).
    pub run_only_high_ace: [u8; 4],
    pub set_only: [u8; 52],
    /// Wild jokers: that must be placed, and in hand. (A joker never lies
    /// loose on a Tahiti table: the position refuses one, as the engine does.)
    pub jokers_must: u8,
    pub jokers_hand: u8,
    pub joker_weight: i32,
    /// A value added once (forced hand copies, already counted in `must`).
    pub bonus: i32,
    /// The play must put down at least one hand card (hint search), and forced
    /// hand cards already satisfy it.
    pub need_hand: bool,
    pub forced_hand: bool,
    /// Per face, at most this many copies (naturals and named jokers) where a
    /// run joker stands for that face (Carousel, Vatikan, Tahiti: a joker may
    /// not stand for a card whose every copy is on the table). `u8::MAX`: no
    /// limit.
    pub joker_face_cap: [u8; 52],
    /// Strict copies mode (Carousel, on demand: after a play broke the copies
    /// rule and no renaming mended it, see `solve_strict` in `lib.rs`;
    /// Vatikan, once the rule refused plays its restricted search swept,
    /// anchored jokers and pieces' names counted as copies of their cards
    /// like the table's): every face's copies placed in the sweep (naturals and run
    /// jokers) stay within `joker_face_cap` (past it some joker named for the
    /// face would break the rule), and each rank's set jokers are named for
    /// missing suits of their sets with room left under the cap, so a play
    /// found keeps the copies rule by construction. The sets code then holds
    /// the multiset of per-suit (set copies, room) pairs ([`STRICT_WEIGHT`]).
    /// Not with one-joker groups (Tahiti's jokers never enter the sweep).
    pub strict_copies: bool,
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
            run_only_high_ace: [0; 4],
            set_only: [0; 52],
            jokers_must: 0,
            jokers_hand: 0,
            joker_weight: 1,
            bonus: 0,
            need_hand: false,
            forced_hand: false,
            joker_face_cap: [u8::MAX; 52],
            strict_copies: false,
        }
    }

    fn positions(&self) -> std::ops::RangeInclusive<u8> {
        let (lo, hi) = ace_window(self.ace);
        lo..=hi
    }

    /// The positions the sweep has to visit: those holding a card, widened by
    /// the jokers (a run may reach past its naturals by as many jokers as there
    /// are). Nothing lies outside, so no group can. Ace-either keeps both ace
    /// ends or neither (the ace split is read at the two ends).
    fn window(&self) -> (u8, u8) {
        let range = self.positions();
        let (lo, hi) = (*range.start(), *range.end());
        let has = |p: u8| {
            let rank = usize::from(if p == 14 { 1 } else { p }) - 1;
            (0..4).any(|s| {
                let f = s * 13 + rank;
                self.must[f] + self.loose[f] + self.hand[f] > 0
            })
        };
        let (Some(a), Some(b)) = (
            range.clone().find(|&p| has(p)),
            range.rev().find(|&p| has(p)),
        ) else {
            return (lo, hi);
        };
        let j = self.jokers_total();
        let a = a.saturating_sub(j).max(lo);
        let b = b.saturating_add(j).min(hi);
        if self.ace == AceMode::Either && (a == lo || b == hi) {
            return (lo, hi);
        }
        (a, b)
    }

    fn jokers_total(&self) -> u8 {
        self.jokers_must + self.jokers_hand
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

    /// A hint (negative weights) counts Tahiti's loose copies of a face as
    /// placed before its hand copies, so a play whose only hand card is a
    /// copy of a loose single (the hand's 7S in a run, the loose 7S left
    /// lying) reads as no hand card at all. True when `total` placed copies
    /// hold a loose one and a hand copy is left that could stand in for it:
    /// that play puts one hand card down, for one more card's weight.
    pub(crate) fn hand_for_loose(&self, f: usize, total: u8) -> bool {
        let (hand, _) = self.face_value(f, total);
        self.weight[f] < 0 && self.loose[f] > 0 && total > self.must[f] && self.hand[f] > hand
    }

    /// An ace end whose copies are not tied to the other end: `total` copies
    /// there, counted as hand copies where that can only overstate the value
    /// (and whether a hand copy may be among them).
    /// At the low end the table copies are placed first (as they would be with
    /// no copies at the high end); at the high end every copy may be a hand copy.
    fn relaxed_value(&self, f: usize, total: u8, low: bool) -> (u8, i32) {
        let w = self.weight[f];
        let hand = if low {
            self.face_value(f, total).0
        } else {
            total.min(self.hand[f])
        };
        (hand, if w >= 0 { w * i32::from(hand) } else { 0 })
    }

    fn joker_value(&self, total: u8) -> (u8, i32) {
        let w = self.joker_weight;
        let used = total.saturating_sub(self.jokers_must).min(self.jokers_hand);
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

/// `split_sets(..).is_some()`, remembered: 5^4 count vectors × 5 joker counts
/// × 2 (0 = not known yet, 1 = no, 2 = yes).
fn sets_feasible(c: [u8; 4], j: u8, one_joker: bool) -> bool {
    use std::sync::atomic::{AtomicU8, Ordering};
    static TABLE: [AtomicU8; 6250] = [const { AtomicU8::new(0) }; 6250];
    if c.iter().any(|&x| x > 4) || j > 4 {
        return split_sets(c, j, one_joker).is_some();
    }
    let mut idx = 0usize;
    for s in (0..4).rev() {
        idx = idx * 5 + usize::from(c[s]);
    }
    let at = &TABLE[(idx * 5 + usize::from(j)) * 2 + usize::from(one_joker)];
    match at.load(Ordering::Relaxed) {
        0 => {
            let ok = split_sets(c, j, one_joker).is_some();
            at.store(if ok { 2 } else { 1 }, Ordering::Relaxed);
            ok
        }
        v => v == 2,
    }
}

/// [`split_sets`], remembered per thread for the counts [`sets_feasible`]
/// keeps: every layout splits each rank's set copies again, and on full
/// tables the fewest-changes step lays out a few layouts a position (the
/// split was about a tenth of building a layout).
pub(crate) fn split_sets_remembered(c: [u8; 4], j: u8, one_joker: bool) -> Option<Vec<(u8, u8)>> {
    type Splits = Vec<Option<Option<Vec<(u8, u8)>>>>;
    thread_local! {
        static SPLITS: std::cell::RefCell<Splits> = const { std::cell::RefCell::new(Vec::new()) };
    }
    if c.iter().any(|&x| x > 4) || j > 4 {
        return split_sets(c, j, one_joker);
    }
    let mut idx = 0usize;
    for s in (0..4).rev() {
        idx = idx * 5 + usize::from(c[s]);
    }
    let at = (idx * 5 + usize::from(j)) * 2 + usize::from(one_joker);
    SPLITS.with(|cell| {
        let mut table = cell.borrow_mut();
        if table.is_empty() {
            table.resize(6250, None);
        }
        table[at]
            .get_or_insert_with(|| split_sets(c, j, one_joker))
            .clone()
    })
}

/// Strict copies mode ([`Spec::strict_copies`]): the sets code is the sum,
/// over the suits stepped so far at this rank, of the weight of the suit's
/// pair `[c][r]`: c its copies given to sets, r its room (how many set jokers
/// may still be named for its face under the cap). Under a cap of two copies
/// c + r <= 2, and (0, 0) adds nothing. The five other weights give distinct
/// sums to every multiset of at most four pairs (found by search; the largest
/// sum, 400, fits the code's ten bits).
const STRICT_WEIGHT: [[u16; 3]; 3] = [[0, 1, 17], [70, 95, 0], [100, 0, 0]];
const STRICT_CODES: usize = 401;

/// The weight of a suit's (set copies, room) pair ([`STRICT_WEIGHT`]).
fn strict_weight(to_sets: u8, room: u8) -> u16 {
    let c = to_sets.min(2);
    STRICT_WEIGHT[usize::from(c)][usize::from(room.min(2 - c))]
}

/// Per strict sets code: the (set copies, room) pairs it stands for (four,
/// (0, 0) for the rest; `None`: no multiset sums to it) and the plain sets
/// code of its set copies (for [`SetsReach`], which ignores rooms).
struct StrictCodes {
    pairs: Vec<Option<([u8; 4], [u8; 4])>>,
    plain: Vec<u16>,
}

fn strict_codes() -> &'static StrictCodes {
    static CODES: std::sync::OnceLock<StrictCodes> = std::sync::OnceLock::new();
    CODES.get_or_init(|| {
        const PAIRS: [(u8, u8); 6] = [(0, 0), (0, 1), (0, 2), (1, 0), (1, 1), (2, 0)];
        let mut codes = StrictCodes {
            pairs: vec![None; STRICT_CODES],
            plain: vec![0; STRICT_CODES],
        };
        for i in 0..6usize.pow(4) {
            let pick: [(u8, u8); 4] = std::array::from_fn(|k| PAIRS[i / 6usize.pow(k as u32) % 6]);
            let code: u16 = pick.iter().map(|&(c, r)| strict_weight(c, r)).sum();
            let plain: u16 = pick
                .iter()
                .filter(|p| p.0 > 0)
                .map(|p| POW5[usize::from(p.0) - 1])
                .sum();
            codes.pairs[usize::from(code)] = Some((pick.map(|p| p.0), pick.map(|p| p.1)));
            codes.plain[usize::from(code)] = plain;
        }
        codes
    })
}

/// Whether set copies `c` (per suit) and `j` jokers split into sets whose
/// jokers are each named for a suit its set lacks, at most `room[s]` jokers
/// named for suit `s` in all; and how: each set as (suit mask of its
/// naturals, suit mask its jokers are named for).
pub(crate) fn split_sets_named(
    c: [u8; 4],
    room: [u8; 4],
    j: u8,
    one_joker: bool,
) -> Option<Vec<(u8, u8)>> {
    fn go(c: &mut [u8; 4], room: &mut [u8; 4], j: u8, one: bool, out: &mut Vec<(u8, u8)>) -> bool {
        let Some(first) = (0..4).find(|&s| c[s] > 0) else {
            return j == 0;
        };
        let has = |m: u8, s: usize| m & (1 << s) != 0;
        for mask in 0u8..16 {
            if !has(mask, first) || (0..4).any(|s| has(mask, s) && c[s] == 0) {
                continue;
            }
            let n = mask.count_ones() as u8;
            for named in 0u8..16 {
                let jk = named.count_ones() as u8;
                if named & mask != 0
                    || jk > j
                    || (one && jk > 1)
                    || !(3..=4).contains(&(n + jk))
                    || (0..4).any(|s| has(named, s) && room[s] == 0)
                {
                    continue;
                }
                for s in 0..4 {
                    c[s] -= u8::from(has(mask, s));
                    room[s] -= u8::from(has(named, s));
                }
                out.push((mask, named));
                if go(c, room, j - jk, one, out) {
                    return true;
                }
                out.pop();
                for s in 0..4 {
                    c[s] += u8::from(has(mask, s));
                    room[s] += u8::from(has(named, s));
                }
            }
        }
        false
    }
    let (mut c, mut room) = (c, room);
    let mut out = Vec::new();
    go(&mut c, &mut room, j, one_joker, &mut out).then_some(out)
}

/// Answers of [`strict_sets_feasible`] per (strict sets code, jokers 0-7):
/// 0 = not known yet, 1 = no, 2 = yes.
static STRICT_FEASIBLE: [std::sync::atomic::AtomicU8; STRICT_CODES * 8] =
    [const { std::sync::atomic::AtomicU8::new(0) }; STRICT_CODES * 8];

/// The set step's test in strict copies mode: the pairs of `code` and `j`
/// jokers split into sets with every joker named within the rooms.
fn strict_sets_feasible(code: u16, j: u8) -> bool {
    use std::sync::atomic::Ordering;
    let decide = || {
        strict_codes()
            .pairs
            .get(usize::from(code))
            .copied()
            .flatten()
            .is_some_and(|(c, room)| split_sets_named(c, room, j, false).is_some())
    };
    let Some(entry) = (j < 8)
        .then(|| STRICT_FEASIBLE.get(usize::from(code) * 8 + usize::from(j)))
        .flatten()
    else {
        return decide();
    };
    match entry.load(Ordering::Relaxed) {
        0 => {
            let answer = decide();
            entry.store(if answer { 2 } else { 1 }, Ordering::Relaxed);
            answer
        }
        v => v == 2,
    }
}

/// How many copies of one face go where at one position of one suit.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
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
    key: u64,
    value: i32,
    parent: u32,
    mv: Move,
}

// The state between two steps, packed in 54 bits: per suit the automaton state
// (10 bits each), jokers placed so far, whether a hand card went down (hints
// only), and the multiset of set copies given so far at this rank (as counts of
// suits giving 1, 2, 3, 4: base 5).
const D_BITS: u32 = 10;
const JOKER_SHIFT: u32 = 40;
const PLAYED_SHIFT: u32 = 43;
const SETS_SHIFT: u32 = 44;
const POW5: [u16; 4] = [1, 5, 25, 125];
/// Ace-either: carry the low aces in the state only when at most this many
/// suits have aces. Each such suit splits every state up to three ways for the
/// whole sweep; measured (probe, CPU time), one suit beats branch and bound and
/// three or four lose to it (one full table took over a minute with four).
/// With the plain automaton two suits beat it too (callgrind, Carousel
/// mid-game: 5% fewer instructions); with Tahiti's one-joker automaton (698
/// states) two suits cost 45% more.
const ACE_SUITS_IN_STATE: usize = 1;
const ACE_SUITS_IN_STATE_PLAIN: usize = 2;

/// Ace-either: per suit (2 bits each) the ace copies placed at the low end.
const CARRY_SHIFT: u32 = 54;

/// States the depth-first feasibility walk may generate before leaving the
/// test to the sweeps. A walk that finds a layout mostly does so within a few
/// hundred; past that it is mostly proving there is none, which the sweeps
/// (dropping beaten states) do for less (callgrind, either full tables: 2,000
/// -> 500 saved 17%, 150 and 1,000 were worse than 500).
const FIRST_PATH_BUDGET: usize = 500;

/// Cards a test with wild jokers must place for the walk to be tried: with
/// jokers it more often gives up, which costs more than the exact sweep of a
/// small test saves. Callgrind, per solve, Carousel mid-game (30 + 10):
/// from 0 cards p99 37.4M instructions, p50 3.8M; from 20 p99 36.8M, p50
/// 3.75M; from 40 p99 43.5M, p50 3.4M (full tables: -31% in all with the
/// walk). Session 6, once the sweeps drop states whose runs cannot close
/// (`RunReach`), which makes the exact sweep of a small test cheaper (whole
/// probe, callgrind, from 20 -> from 40): `car 2 30 10 100` 271.7M -> 250.8M,
/// `car 2 84 20 30` 260.2M -> 254.8M, `vat 2 30 10 100` 272.9M -> 257.2M,
/// `car 1 30 10 100` 175.7M -> 164.1M (from 60: full Carousel 266.8M; never:
/// 378.0M).
const WALK_JOKERS_FROM: usize = 40;

/// Slots of the options table (see `Scratch::cache`).
const OPTION_KEYS: usize = 1 << 15;

/// One slot of the options table.
#[derive(Clone, Copy, Default)]
struct OptionSlot {
    generation: u32,
    key: u32,
    start: u32,
    len: u32,
}

/// The step's part of an options key: the step (bits 20-26), at an ace end
/// the split fixed there (`Some(None)`: free; bits 16-19), whether the aces
/// are carried in the state (bit 27). The node's part (automaton state, 10
/// bits; jokers placed, 3; aces carried, 2) takes bits 0-14.
fn option_step_key(step: usize, ace_fix: Option<Option<u8>>, aces_in_state: bool) -> u32 {
    let fix = match ace_fix {
        None => 0,
        Some(None) => 1,
        Some(Some(c)) => 2 + u32::from(c.min(13)),
    };
    ((step as u32) << 20) | (fix << 16) | (u32::from(aces_in_state) << 27)
}

/// Where an options key goes in the table.
#[inline(always)]
fn option_slot(key: u32) -> usize {
    (key.wrapping_mul(0x9e37_79b1) >> (32 - OPTION_KEYS.trailing_zeros())) as usize
}

/// Kept nodes a node is compared with when dropping beaten ones.
const PRUNE_WIDTH: usize = 24;
/// A prune that drops fewer than 1 in `PRUNE_PAYS` nodes of its layer is
/// not repeated for the next `PRUNE_REST` ranks of the sweep: with wild
/// jokers it mostly drops nothing and its sort and comparisons cost more
/// than the states it saves (callgrind per solve, Carousel mid-game: with
/// no prune at all p99 -20%, but big hands +20-25%; 8 and 3 keep the big
/// hands as they were; 16 and 8 cost them 13%).
const PRUNE_PAYS: usize = 8;
const PRUNE_REST: u32 = 3;
/// States kept per step by the narrow first sweep.
const BEAM: usize = 48;
/// The same without jokers (and not Tahiti's one-joker groups): a narrow
/// sweep without them rarely loses its way, and on full tables its width was
/// most of its cost (callgrind, full tables without jokers: 12 states per step
/// spent 30% fewer instructions than 48; with jokers, or for Tahiti's jokerless
/// frozen-group branches, 12-32 cost up to 35% more).
const BEAM_NO_JOKERS: usize = 12;
/// The same with wild jokers (Carousel, Vatikan; not Tahiti's one-joker
/// groups): session 11, once the states got cheaper, 32 spent fewer
/// instructions than 48 (whole probe: `car 2 30 10 100` -2%, `car 2 84 20
/// 30` -19%), the same optimum; a tie may go to another play of the same
/// worth. Session 12, once a floor from outside runs no narrow sweep (so
/// it only runs with no floor at all), 16 (callgrind, whole probe, against
/// 32): `REACHABLE=1 OPT=1 probe car 2 30 10 300` -1.2%, `OPT=1 vat` -0.2%,
/// best plays car -1.1%, vat -0.3%, full tables `REACHABLE=1 car 2 84 20
/// 30` -27%, `vat 2 84 20 30` -27%; 12 and 24 less mid-game, 48 more.
const BEAM_WILD_JOKERS: usize = 16;
/// The same in strict copies mode. Session 13, 32 -> 16 (callgrind, whole
/// probe, `REACHABLE=1 probe car 2 84 20 30` 66.9M -> 53.6M, `points`
/// 64.0M -> 52.2M, `vat 2 84 20 30` 68.9M -> 55.6M, `points` 67.0M ->
/// 55.1M; strict states at `car 2 84 20 200` 337k -> 183k; mid-game runs no
/// strict search): the same optima, a tie may go to another play, changed
/// groups in total the same or one fewer. 12 and 8 spent less (full car
/// 50.4M, 47.1M) but their ties changed 1-2 more groups in total at
/// `car 2 84 20 200`. (`carousel_strict_search_past_its_budget_answers_a_
/// legal_play` sets a budget the search still reaches at this width.)
const BEAM_WILD_JOKERS_STRICT: usize = 16;
/// How many times wider the narrow sweep's second try is, where the first
/// found no play at all (see `solve_node`, and the ace-split guesses of
/// `Sweep::solve` where only a play worth the bound will do).
const WIDER_RETRY: usize = 4;

/// The face of one suit step and its copies.
struct FaceStep {
    f: usize,
    p: u8,
    max_total: u8,
    min_total: u8,
}

/// Keeps the `b` best nodes of a layer (in their order).
/// Among equal values, nodes whose suits could stop here (every run 3 long)
/// come first: they are the likeliest to end well.
/// Whether it dropped any.
fn narrow(nodes: &mut Vec<Node>, b: usize, dfa: &Dfa, jokers_must: u8) -> bool {
    if nodes.len() <= b {
        return false;
    }
    let health = |k: u64| -> i32 {
        (0..4)
            .map(|s| i32::from(dfa.accept[((k >> (D_BITS * s)) & 1023) as usize]))
            .sum()
    };
    let mut order: Vec<(i32, u32)> = nodes
        .iter()
        .enumerate()
        .map(|(i, n)| {
            // Jokers that must go down, placed early, keep the path alive.
            let j = (((n.key >> JOKER_SHIFT) & 7) as u8).min(jokers_must);
            (n.value * 64 + i32::from(j) * 8 + health(n.key), i as u32)
        })
        .collect();
    // The b best (ties: lower index first); only which, not their order.
    order.select_nth_unstable_by(b - 1, |a, b| b.0.cmp(&a.0).then(a.1.cmp(&b.1)));
    let mut keep: Vec<u32> = order[..b].iter().map(|x| x.1).collect();
    keep.sort_unstable();
    compact(nodes, &keep);
    true
}

/// Keeps the nodes at `keep` (ascending indexes), in place: the layer keeps
/// its buffer, which goes back to the pool with its capacity (a new, exactly
/// sized one grew again at every later push: 3-6% of the instructions were
/// reallocations).
fn compact(nodes: &mut Vec<Node>, keep: &[u32]) {
    for (to, &from) in keep.iter().enumerate() {
        if let Some(&n) = nodes.get(from as usize) {
            nodes[to] = n;
        }
    }
    nodes.truncate(keep.len());
}

/// Answers of [`sets_code_feasible`] per (sets code, jokers 0-7, one-joker
/// flag), for the whole process: 0 = not known yet, 1 = no, 2 = yes. The set
/// step asks it for every state and joker count (callgrind: 2.7% of Carousel
/// mid-game).
static SETS_FEASIBLE: [std::sync::atomic::AtomicU8; 625 * 8 * 2] =
    [const { std::sync::atomic::AtomicU8::new(0) }; 625 * 8 * 2];

fn sets_code_feasible(code: u16, j: u8, one_joker: bool) -> bool {
    use std::sync::atomic::Ordering;
    let at = (usize::from(code) * 8 + usize::from(j)) * 2 + usize::from(one_joker);
    let Some(entry) = (j < 8).then(|| SETS_FEASIBLE.get(at)).flatten() else {
        return decode_sets_feasible(code, j, one_joker);
    };
    match entry.load(Ordering::Relaxed) {
        0 => {
            let answer = decode_sets_feasible(code, j, one_joker);
            entry.store(if answer { 2 } else { 1 }, Ordering::Relaxed);
            answer
        }
        v => v == 2,
    }
}

fn decode_sets_feasible(code: u16, j: u8, one_joker: bool) -> bool {
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

/// `node` into the next layer: a new state is pushed, a state seen already
/// keeps the better value (the hot loops' one way to add a state).
#[inline(always)]
fn offer(map: &mut StateMap, next: &mut Vec<Node>, node: Node) {
    match map.get_or_insert(node.key, next.len() as u32) {
        Some(at) => {
            let o = &mut next[at as usize];
            if node.value > o.value {
                *o = node;
            }
        }
        None => next.push(node),
    }
}

/// Open-addressing map from state keys to node indexes, emptied in O(1) by
/// moving to a new generation. Each slot holds its key, value and generation
/// side by side: a probe touches one cache line.
struct StateMap {
    slots: Vec<Slot>,
    generation: u32,
    len: usize,
}

#[derive(Clone, Copy, Default)]
struct Slot {
    key: u64,
    val: u32,
    generation: u32,
}

impl StateMap {
    fn new() -> StateMap {
        StateMap {
            slots: vec![Slot::default(); 1024],
            generation: 1,
            len: 0,
        }
    }

    fn clear(&mut self) {
        self.generation = self.generation.wrapping_add(1);
        if self.generation == 0 {
            self.slots.iter_mut().for_each(|s| s.generation = 0);
            self.generation = 1;
        }
        self.len = 0;
    }

    fn slot(&self, k: u64) -> usize {
        let h = (k ^ (k >> 31)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        ((h ^ (h >> 29)) as usize) & (self.slots.len() - 1)
    }

    /// The index stored for `k`, or `None` after storing `v` for it. The
    /// table is at most half full after each call (grown after an insert
    /// that filled it past that), so a free slot always ends the probe.
    #[inline(always)]
    fn get_or_insert(&mut self, k: u64, v: u32) -> Option<u32> {
        let mask = self.slots.len() - 1;
        let mut i = self.slot(k);
        loop {
            let at = &mut self.slots[i];
            if at.generation != self.generation {
                *at = Slot {
                    key: k,
                    val: v,
                    generation: self.generation,
                };
                self.len += 1;
                if self.len * 2 > self.slots.len() {
                    self.grow();
                }
                return None;
            }
            if at.key == k {
                return Some(at.val);
            }
            i = (i + 1) & mask;
        }
    }

    #[cold]
    #[inline(never)]
    fn grow(&mut self) {
        let live: Vec<(u64, u32)> = self
            .slots
            .iter()
            .filter(|s| s.generation == self.generation)
            .map(|s| (s.key, s.val))
            .collect();
        let n = self.slots.len() * 2;
        self.slots = vec![Slot::default(); n];
        self.generation = 1;
        self.len = 0;
        for (k, v) in live {
            self.get_or_insert(k, v);
        }
    }
}

/// Whether the set copies given so far at a rank (a sets code) can still
/// become sets, whatever the suits not yet decided at this rank give and with
/// the jokers not yet placed: a state that cannot is dropped at once instead of
/// at the rank's set step (which a narrow sweep could reach with every kept
/// state dead). The answers are remembered for the whole process, per (code,
/// jokers left, what the later suits can give).
struct SetsReach {
    /// The most set copies each suit after this step can give at this rank
    /// (0 for suits that are not after it), as a base-5 number.
    more: usize,
    one_joker: bool,
    /// `more * 2 + one_joker`: the step's part of an entry's index.
    step_at: usize,
}

/// Sets codes (base 5, four digits), jokers left (0-7), base-5 triples of what
/// the later suits can give, and the one-joker flag; 0 = not known yet, 1 =
/// no, 2 = yes.
const REACH_ENTRIES: usize = 625 * 8 * 125 * 2;
static REACH: [std::sync::atomic::AtomicU8; REACH_ENTRIES] =
    [const { std::sync::atomic::AtomicU8::new(0) }; REACH_ENTRIES];

impl SetsReach {
    fn new() -> SetsReach {
        SetsReach {
            more: 0,
            one_joker: false,
            step_at: 0,
        }
    }

    /// A new step: `more` as for [`SetsReach::more`], one number a later suit.
    fn start_step(&mut self, more: &[u8], one_joker: bool) {
        self.more = more
            .iter()
            .take(3)
            .fold(0, |acc, &m| acc * 5 + usize::from(m.min(4)));
        self.one_joker = one_joker;
        self.step_at = self.more * 2 + usize::from(one_joker);
    }

    #[inline(always)]
    fn completable(&self, code: u16, jokers_left: u8) -> bool {
        use std::sync::atomic::Ordering;
        let code = usize::from(code);
        if code >= 625 {
            return true;
        }
        let at = (code * 8 + usize::from(jokers_left.min(7))) * 250 + self.step_at;
        let Some(entry) = REACH.get(at) else {
            return true;
        };
        match entry.load(Ordering::Relaxed) {
            0 => {
                let answer = self.decide(code as u16, jokers_left.min(7));
                entry.store(if answer { 2 } else { 1 }, Ordering::Relaxed);
                answer
            }
            v => v == 2,
        }
    }

    fn decide(&self, code: u16, jokers_left: u8) -> bool {
        let mut counts = [0u8; 4];
        let mut n = 0;
        let mut rest = code;
        for k in 1..=4u8 {
            for _ in 0..rest % 5 {
                if n < 4 {
                    counts[n] = k;
                    n += 1;
                }
            }
            rest /= 5;
        }
        let more = [self.more / 25, self.more / 5 % 5, self.more % 5];
        extend_sets(counts, n, &more, jokers_left, self.one_joker)
    }
}

/// Tries every count the later suits could give (`more`, one a suit).
fn extend_sets(counts: [u8; 4], n: usize, more: &[usize], jokers_left: u8, one: bool) -> bool {
    let Some((&first, rest)) = more.split_first() else {
        return (0..=jokers_left).any(|j| sets_feasible(counts, j, one));
    };
    if n == 4 {
        return extend_sets(counts, n, rest, jokers_left, one);
    }
    (0..=first.min(4) as u8).any(|c| {
        let mut with = counts;
        if c > 0 {
            with[n] = c;
        }
        extend_sets(with, n + usize::from(c > 0), rest, jokers_left, one)
    })
}

/// The positions a group can hold in ace mode `ace` (1 the low ace, 14
/// the high one), first and last.
pub(crate) fn ace_window(ace: AceMode) -> (u8, u8) {
    match ace {
        AceMode::High => (2, 14),
        AceMode::Low => (1, 13),
        AceMode::Either => (1, 14),
    }
}

/// Whether the card of `suit` and `rank` (0 = ace) could be in some group
/// among the faces `present` marks, `jokers` filling gaps: two more suits of
/// its rank, or a window of three places of its suit (within `lo..=hi`, the
/// ace at either end it may take) around it. A necessary condition only.
pub(crate) fn could_have_group(
    present: &[bool; 52],
    suit: usize,
    rank: usize,
    jokers: usize,
    lo: u8,
    hi: u8,
) -> bool {
    if (0..4).filter(|&t| present[t * 13 + rank]).count() + jokers >= 3 {
        return true;
    }
    let at = |p: u8| present[suit * 13 + usize::from(if p == 14 { 1 } else { p }) - 1];
    let places: &[u8] = if rank == 0 { &[1, 14] } else { &[0] };
    places.iter().any(|&p0| {
        let p = if rank == 0 { p0 } else { rank as u8 + 1 };
        if p < lo || p > hi {
            return false;
        }
        (p.saturating_sub(2).max(lo)..=p)
            .filter(|&start| start + 2 <= hi)
            .any(|start| (start..start + 3).filter(|&q| !at(q)).count() <= jokers)
    })
}

/// Without jokers, more copies of face `f` than groups could hold them: a
/// group holds one copy of a face at most, a set of its rank needs two
/// copies of other suits, and a run through it one of the three pairs of
/// places around it (distinct runs, distinct copies). Not for an
/// ace-either ace (two places).
fn too_many_copies(spec: &Spec, f: usize, lo: u8, hi: u8) -> bool {
    let (suit, rank) = (f / 13, f % 13);
    let c = u32::from(spec.must[f]);
    if c < 2 || (rank == 0 && spec.ace == AceMode::Either) {
        return false;
    }
    let others: u32 = (0..4)
        .filter(|&t| t != suit)
        .map(|t| u32::from(spec.must[t * 13 + rank]))
        .sum();
    let p = match (rank, spec.ace) {
        (0, AceMode::High) => 14,
        (0, _) => 1,
        _ => rank as u8 + 1,
    };
    let at = |q: i32| -> u32 {
        if q < i32::from(lo) || q > i32::from(hi) {
            return 0;
        }
        let r = if q == 14 { 0 } else { q as usize - 1 };
        u32::from(spec.must[suit * 13 + r])
    };
    let p = i32::from(p);
    let runs = at(p - 2).min(at(p - 1)) + at(p - 1).min(at(p + 1)) + at(p + 1).min(at(p + 2));
    c > others / 2 + runs
}

/// The (state, step) pairs a depth-first walk found to lead nowhere: open
/// addressing, emptied in O(1) by moving to a new generation.
pub(crate) struct FailedSet {
    keys: Vec<u64>,
    steps: Vec<u8>,
    gens: Vec<u32>,
    generation: u32,
    len: usize,
}

impl FailedSet {
    pub(crate) fn new() -> FailedSet {
        FailedSet {
            keys: vec![0; 1024],
            steps: vec![0; 1024],
            gens: vec![0; 1024],
            generation: 1,
            len: 0,
        }
    }

    pub(crate) fn clear(&mut self) {
        self.generation = self.generation.wrapping_add(1);
        if self.generation == 0 {
            self.gens.iter_mut().for_each(|g| *g = 0);
            self.generation = 1;
        }
        self.len = 0;
    }

    fn slot(&self, k: u64, step: u8) -> usize {
        let k = k ^ (u64::from(step) << 57) ^ u64::from(step);
        let h = (k ^ (k >> 31)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        ((h ^ (h >> 29)) as usize) & (self.keys.len() - 1)
    }

    pub(crate) fn contains(&self, k: u64, step: u8) -> bool {
        let mask = self.keys.len() - 1;
        let mut i = self.slot(k, step);
        while self.gens[i] == self.generation {
            if self.keys[i] == k && self.steps[i] == step {
                return true;
            }
            i = (i + 1) & mask;
        }
        false
    }

    pub(crate) fn insert(&mut self, k: u64, step: u8) {
        if (self.len + 1) * 2 > self.keys.len() {
            let live: Vec<(u64, u8)> = (0..self.keys.len())
                .filter(|&i| self.gens[i] == self.generation)
                .map(|i| (self.keys[i], self.steps[i]))
                .collect();
            let n = self.keys.len() * 2;
            self.keys = vec![0; n];
            self.steps = vec![0; n];
            self.gens = vec![0; n];
            self.generation = 1;
            self.len = 0;
            for (k, st) in live {
                self.insert(k, st);
            }
        }
        let mask = self.keys.len() - 1;
        let mut i = self.slot(k, step);
        while self.gens[i] == self.generation {
            if self.keys[i] == k && self.steps[i] == step {
                return;
            }
            i = (i + 1) & mask;
        }
        self.gens[i] = self.generation;
        self.keys[i] = k;
        self.steps[i] = step;
        self.len += 1;
    }
}

/// One way to place the copies of the face of a step, for one (automaton state,
/// aces carried, jokers placed).
#[derive(Clone, Copy, Debug, PartialEq)]
struct Opt {
    d2: u16,
    choice: Choice,
    value: i32,
    played: bool,
    /// What [`SuitStep::next_key`] adds to the state once the suit's
    /// automaton state is cleared (outside strict copies mode): the new
    /// automaton state, the run jokers and the set copies' sets code.
    add: u64,
}

/// Where one suit step writes in the packed state: the suit's automaton state,
/// and (ace-either with the aces in the state) the ace copies carried from the
/// low end, written at position 1 and cleared at 14. The sweep and the
/// feasibility walk build their next states the same way through it.
///
/// Strict copies mode, ace-either (the aces never in the state there): at
/// position 1 the sets code is the set copies per suit (base 3, suit
/// identity kept) and the carry bits hold each suit's room (its cap less the
/// copies put down); the rank's set step names its jokers within those rooms
/// and leaves what is left for the high end, whose copies of the ace stay
/// within it ([`low_ace_namings`]): a low set joker named for an ace and the
/// high end's copies of that ace share one cap.
struct SuitStep {
    d_shift: u32,
    carry_shift: u32,
    carry_write: bool,
    carry_read: bool,
    /// Strict copies mode (the fields below are only read then).
    strict: bool,
    /// Strict copies mode, where the rank has sets: the face's cap, from
    /// which the suit's room for set jokers is read.
    strict_cap: Option<u8>,
    /// Strict copies mode, ace-either: position 1 (write the rooms) and 14
    /// (read what is left of them, then clear them).
    low_ace: bool,
    high_room: bool,
    pow5: u16,
    jokers_total: u8,
    /// Strict copies mode, ace-either, position 1: the suit's ace copies
    /// held to the high end (`Spec::run_only_high_ace`), which no joker can
    /// swap with (see [`SuitStep::strict_next_key`]).
    anchored_high: u8,
}

impl SuitStep {
    #[inline]
    fn new(aces_in_state: bool, spec: &Spec, p: u8, s: usize) -> SuitStep {
        let mut step = SuitStep {
            d_shift: D_BITS * s as u32,
            carry_shift: CARRY_SHIFT + 2 * s as u32,
            carry_write: aces_in_state && p == 1,
            carry_read: aces_in_state && p == 14,
            strict: false,
            strict_cap: None,
            low_ace: false,
            high_room: false,
            pow5: 0,
            jokers_total: 0,
            anchored_high: 0,
        };
        if spec.strict_copies {
            step.set_strict(spec, p, s);
        }
        step
    }

    #[cold]
    fn set_strict(&mut self, spec: &Spec, p: u8, s: usize) {
        let rank = usize::from(if p == 14 { 1 } else { p });
        let either = spec.ace == AceMode::Either;
        self.strict = true;
        self.strict_cap = (!(either && p == 14)).then(|| spec.joker_face_cap[s * 13 + rank - 1]);
        self.low_ace = either && p == 1;
        self.high_room = either && p == 14;
        self.pow5 = POW5[s];
        self.jokers_total = spec.jokers_total();
        if either && p == 1 {
            self.anchored_high = spec.run_only_high_ace[s];
        }
    }

    /// The suit's automaton state in `key`.
    fn automaton(&self, key: u64) -> usize {
        ((key >> self.d_shift) & 1023) as usize
    }

    /// The ace copies carried to this step (0 where none are read); strict
    /// copies mode at the ace-either high end: the room left for the ace.
    fn carried(&self, key: u64) -> u8 {
        if self.carry_read || self.high_room {
            ((key >> self.carry_shift) & 3) as u8
        } else {
            0
        }
    }

    /// The plain sets code (set copies only) of the state after this step.
    /// `STRICT`: whether strict copies mode may be on (the sweep's loop is
    /// built twice, so the plain one carries none of its tests).
    #[inline(always)]
    fn plain_code<const STRICT: bool>(&self, nk: u64) -> u16 {
        let code = ((nk >> SETS_SHIFT) & 1023) as u16;
        if STRICT && self.strict {
            self.strict_plain_code(code)
        } else {
            code
        }
    }

    #[cold]
    #[inline(never)]
    fn strict_plain_code(&self, code: u16) -> u16 {
        if self.low_ace {
            LOW_ACE_PLAIN.get(usize::from(code)).copied().unwrap_or(0)
        } else if self.strict_cap.is_some() {
            strict_codes()
                .plain
                .get(usize::from(code))
                .copied()
                .unwrap_or(0)
        } else {
            code
        }
    }

    /// The state after option `o` from `key` (`played`: set the hand-card
    /// flag); `STRICT` as for [`SuitStep::plain_code`].
    #[inline(always)]
    fn next_key<const STRICT: bool>(&self, key: u64, o: &Opt, played: bool) -> u64 {
        let c = o.choice;
        let cleared = key & !(1023u64 << self.d_shift);
        let mut nk;
        if STRICT && self.strict {
            nk = cleared | (u64::from(o.d2) << self.d_shift);
            nk += u64::from(c.jok_r) << JOKER_SHIFT;
            nk = self.strict_next_key(nk, c);
        } else {
            nk = cleared + o.add;
        }
        if played {
            nk |= 1u64 << PLAYED_SHIFT;
        }
        if self.carry_write {
            nk |= u64::from(c.used) << self.carry_shift;
        } else if self.carry_read {
            nk &= !(3u64 << self.carry_shift);
        }
        nk
    }

    /// Strict copies mode: the sets code and (ace-either) the carry bits of
    /// [`SuitStep::next_key`].
    #[cold]
    #[inline(never)]
    fn strict_next_key(&self, mut nk: u64, c: Choice) -> u64 {
        if let Some(cap) = self.strict_cap {
            // (Sets are never at the high ace end: nothing carried here.) A
            // room past the jokers left tells nothing more: states that differ
            // only there are one.
            //
            // At ace-either the low end's room also bounds the high end's
            // copies of the ace (naturals too) where a joker took the ace at
            // the low end, so this cap refuses some legal layouts: low set
            // joker (or run joker) named for the ace, a natural of it at the
            // high end, and fewer jokers left than room. No answer is lost:
            // swap that joker and that natural (the natural into the joker's
            // set, which lacked the suit, or the low run's ace place; the
            // joker into the high run as the ace). Groups stay groups (runs
            // and sets here count jokers only with one-joker groups, never
            // in strict mode), the face's naturals and jokers named for it
            // stay as many (the copies rule is unchanged) and the cards
            // placed are the same. Swapped until a suit has no low joker for
            // its ace or no high natural of it: without a low joker the high
            // end is not bounded by the room (3, see `low_ace_namings`);
            // without a high natural its copies there are jokers placed
            // after this step, so n + (high run jokers) <= jokers left and
            // the cap binds nothing the rule allows. Copies held to the high
            // end (anchored jokers counted as copies, `run_only_high_ace`,
            // Vatikan) cannot swap, so they are added to the jokers left:
            // without them the cap lost a play (three hand aces and a hand
            // joker beside an anchored high ace,
            // `strict_aces_anchored_high_ace_keeps_its_room`). Checked
            // against the search without the cap,
            // `strict_aces_room_cap_loses_nothing`.
            let left = self
                .jokers_total
                .saturating_sub(((nk >> JOKER_SHIFT) & 7) as u8)
                .saturating_add(self.anchored_high);
            #[cfg(test)]
            let left = if NO_ROOM_CAP.with(|c| c.get()) {
                u8::MAX
            } else {
                left
            };
            let room = cap.saturating_sub(c.used + c.jok_r).min(left);
            if self.low_ace {
                // The suit's digit: its set copies, 3 more where a run joker
                // took its ace (it then has one set copy at most).
                let digit = u16::from(c.to_sets.min(2)) + if c.jok_r > 0 { 3 } else { 0 };
                nk += u64::from(self.pow5 * digit.min(4)) << SETS_SHIFT;
                nk |= u64::from(room.min(2)) << self.carry_shift;
            } else {
                nk += u64::from(strict_weight(c.to_sets, room)) << SETS_SHIFT;
            }
        }
        if self.high_room {
            nk &= !(3u64 << self.carry_shift);
        }
        nk
    }
}

#[cfg(test)]
thread_local! {
    /// Tests: strict copies mode without the jokers-left cap on rooms (see
    /// [`SuitStep::strict_next_key`]).
    static NO_ROOM_CAP: std::cell::Cell<bool> = const { std::cell::Cell::new(false) };
}

/// Strict copies mode, ace-either: a low-end sets code holds a digit per suit
/// (base 5): its set copies (0-2), or 3 + its set copies (0-1) where a run
/// joker took its ace at the low end.
const LOW_ACE_CODES: usize = 625;

/// The set copies and the run-joker flag of suit `s` in low-end sets code `code`.
const fn low_ace_digit(code: usize, s: usize) -> (u8, bool) {
    let d = (code / POW5[s] as usize) % 5;
    if d >= 3 {
        ((d - 3) as u8, true)
    } else {
        (d as u8, false)
    }
}

/// Per low-end sets code, its plain sets code.
const LOW_ACE_PLAIN: [u16; LOW_ACE_CODES] = {
    let mut out = [0u16; LOW_ACE_CODES];
    let mut code = 0;
    while code < LOW_ACE_CODES {
        let mut plain = 0;
        let mut s = 0;
        while s < 4 {
            let c = low_ace_digit(code, s).0 as usize;
            if c > 0 {
                plain += POW5[c - 1];
            }
            s += 1;
        }
        out[code] = plain;
        code += 1;
    }
    out
};

/// Answers of "low-end sets code `code` and jokers named exactly `n` (base
/// 3) make sets" ([`split_sets_named`]): 0 = not known yet, 1 = no, 2 = yes.
static LOW_ACE_SPLITS: [std::sync::atomic::AtomicU8; LOW_ACE_CODES * 81] =
    [const { std::sync::atomic::AtomicU8::new(0) }; LOW_ACE_CODES * 81];

/// Strict copies mode, ace-either, the set step of the aces (position 1):
/// for set copies `code` (base 3 per suit), rooms `rooms` (2 bits a suit, the
/// carry bits) and `j` set jokers, every way to name the jokers (how many for
/// each suit, within its room) that makes sets, as the rooms left (2 bits a
/// suit) for the high end: 3 (no limit) for a suit no joker was named for, so
/// states without ace set jokers stay one (the high end's copies of an ace
/// with no set joker named for it are held to its cap at that end only, as
/// for a run joker in the plain sweep).
fn low_ace_namings(code: u16, rooms: u8, j: u8, out: &mut Vec<u8>) {
    use std::sync::atomic::Ordering;
    out.clear();
    let digit = |x: usize, s: usize| (x / [1, 3, 9, 27][s]) % 3;
    let code = usize::from(code).min(LOW_ACE_CODES - 1);
    let c: [u8; 4] = std::array::from_fn(|s| low_ace_digit(code, s).0);
    let run_joker: [bool; 4] = std::array::from_fn(|s| low_ace_digit(code, s).1);
    let room: [u8; 4] = std::array::from_fn(|s| (rooms >> (2 * s)) & 3);
    for n_code in 0..81usize {
        let n: [u8; 4] = std::array::from_fn(|s| digit(n_code, s) as u8);
        if n.iter().sum::<u8>() != j || (0..4).any(|s| n[s] > room[s]) {
            continue;
        }
        let at = &LOW_ACE_SPLITS[code * 81 + n_code];
        let ok = match at.load(Ordering::Relaxed) {
            0 => {
                let ok = split_sets_named(c, n, j, false).is_some();
                at.store(if ok { 2 } else { 1 }, Ordering::Relaxed);
                ok
            }
            v => v == 2,
        };
        // Only a suit whose ace a joker took at the low end limits the high
        // end (3: no limit).
        if ok {
            out.push((0..4).fold(0u8, |acc, s| {
                let left = if n[s] > 0 || run_joker[s] {
                    room[s] - n[s]
                } else {
                    3
                };
                acc | (left << (2 * s))
            }));
        }
    }
}

/// What the suits after `s` can give to the sets of `rank` (none at the
/// ace-either high end, where there are no sets).
fn later_set_copies(spec: &Spec, p: u8, s: usize) -> [u8; 3] {
    let mut more = [0u8; 3];
    if spec.ace == AceMode::Either && p == 14 {
        return more;
    }
    let rank = usize::from(if p == 14 { 1 } else { p });
    for (slot, t) in more.iter_mut().zip(s + 1..4) {
        let g = t * 13 + rank - 1;
        *slot = spec.must[g] + spec.loose[g] + spec.hand[g];
    }
    more
}

/// Scratch space kept per thread between sweeps.
struct Scratch {
    /// Emptied layers, to fill again.
    pool: Vec<Vec<Node>>,
    map: StateMap,
    /// The options of the steps, kept for every sweep whose spec reads the
    /// same at that step (the narrow and the exact sweep of one solve, the
    /// ace splits' nodes, and later solves: Tahiti's restricted search
    /// sweeps rests that differ in a few faces): per key
    /// ([`option_step_key`] and the node's part), hashed into the table, the
    /// generation of its step it was made in, the key, and where its options
    /// are in `opts`. Looked up once per node; a slot another key took is
    /// made again.
    cache: Vec<OptionSlot>,
    /// What every step's options read of the last spec ([`SpecSig`]).
    spec_sig: Option<SpecSig>,
    /// Per step, what its options read of the spec ([`step_sig`]) and the
    /// generation its kept options belong to.
    steps: Vec<(u128, u32)>,
    /// The last generation handed out.
    cache_generation: u32,
    opts: Vec<Opt>,
    /// [`Sweep::prune`]'s order and kept nodes, kept between prunes (a
    /// pair of allocations a prune before).
    prune_order: Vec<u128>,
    prune_kept: Vec<u32>,
    /// The depth-first feasibility walk's memory, kept between walks.
    walk: FirstPath,
    sets_reach: SetsReach,
}

/// What [`Sweep::options`] reads of the spec besides its steps' faces (and
/// the key's parts): the same for every step of a sweep.
#[derive(Clone, Copy, PartialEq, Eq)]
struct SpecSig {
    ace: AceMode,
    /// (Picks the automaton.)
    one_joker: bool,
    strict_copies: bool,
    need_hand: bool,
    aces_in_state: bool,
    jokers_must: u8,
    jokers_hand: u8,
    joker_weight: i32,
}

impl SpecSig {
    fn new(spec: &Spec, aces_in_state: bool) -> SpecSig {
        SpecSig {
            ace: spec.ace,
            one_joker: spec.one_joker,
            strict_copies: spec.strict_copies,
            need_hand: spec.need_hand,
            aces_in_state,
            jokers_must: spec.jokers_must,
            jokers_hand: spec.jokers_hand,
            joker_weight: spec.joker_weight,
        }
    }
}

/// What [`Sweep::options`] reads of the spec at the step of face `f` at
/// position `p` (suit `s`), packed whole (not hashed: a collision would
/// change answers): its copies, caps and weight, the position, and a set
/// bit (0 stands for no step made yet).
fn step_sig(spec: &Spec, f: usize, p: u8, s: usize) -> u128 {
    let high_ace = if p == 1 || p == 14 {
        spec.run_only_high_ace[s]
    } else {
        0
    };
    let bytes = u64::from_le_bytes([
        spec.must[f],
        spec.loose[f],
        spec.hand[f],
        spec.joker_face_cap[f],
        spec.run_only[f],
        spec.set_only[f],
        high_ace,
        p,
    ]);
    u128::from(bytes) | (u128::from(spec.weight[f] as u32) << 64) | (1u128 << 100)
}

/// Options kept in [`Scratch::opts`] past which they are all dropped (a
/// bound on memory; one sweep makes a few thousand at most).
const OPTS_KEPT: usize = 1 << 16;

impl Scratch {
    /// Readies the options table for a sweep of `spec` over positions
    /// `first..=last`: each step whose signature changed gets a new
    /// generation (its kept options no longer match any lookup).
    fn new_spec(&mut self, spec: &Spec, first: u8, last: u8, aces_in_state: bool) {
        let whole = SpecSig::new(spec, aces_in_state);
        if self.opts.len() > OPTS_KEPT || self.spec_sig != Some(whole) {
            self.opts.clear();
            for st in &mut self.steps {
                st.0 = 0;
            }
            self.spec_sig = Some(whole);
        }
        // Five steps a position: its suits', then its sets' (no options).
        let steps = usize::from(last.saturating_sub(first) + 1) * 5;
        if self.steps.len() < steps {
            self.steps.resize(steps, (0, 0));
        }
        for p in first..=last {
            let rank = usize::from(if p == 14 { 1 } else { p });
            let at = usize::from(p - first) * 5;
            for s in 0..4 {
                let sig = step_sig(spec, s * 13 + rank - 1, p, s);
                if self.steps[at + s].0 != sig {
                    self.cache_generation = self.cache_generation.wrapping_add(1);
                    if self.cache_generation == 0 {
                        // Wrapped: no slot may hold a generation handed out
                        // again, and every step starts anew.
                        self.cache.fill(OptionSlot::default());
                        self.opts.clear();
                        for st in &mut self.steps {
                            *st = (0, 0);
                        }
                        self.cache_generation = 1;
                    }
                    self.steps[at + s] = (sig, self.cache_generation);
                }
            }
        }
    }
}

/// Joker budgets [`RunReach`] tracks (0..=4 jokers; more: no `RunReach`).
const REACH_BUDGETS: usize = 5;

/// Entries of [`RUN_REACH_MEMO`] before it is emptied (a bound on memory;
/// full tables of every mode fill a few thousand).
const RUN_REACH_MEMO_MAX: usize = 1 << 16;

/// A fast hash for the memo's keys (a few words of masks).
#[derive(Default)]
struct WordHasher(u64);

impl std::hash::Hasher for WordHasher {
    fn finish(&self) -> u64 {
        self.0
    }
    fn write(&mut self, bytes: &[u8]) {
        // A key of words arrives here as their bytes (integers hash a slice
        // as one write): a word at a time, not a byte (per byte, the hash
        // cost about as much as the rest of building a `RunReach`).
        let mut chunks = bytes.chunks_exact(8);
        for c in &mut chunks {
            let mut w = [0u8; 8];
            w.copy_from_slice(c);
            self.write_u64(u64::from_le_bytes(w));
        }
        for &b in chunks.remainder() {
            self.write_u64(u64::from(b));
        }
    }
    fn write_u64(&mut self, x: u64) {
        self.0 = (self.0.rotate_left(5) ^ x).wrapping_mul(0x51_7c_c1_b7_27_22_0a_95);
    }
    fn write_usize(&mut self, x: usize) {
        self.write_u64(x as u64);
    }
}

type ReachMemo = std::collections::HashMap<
    [u64; REACH_BUDGETS + 1],
    [u64; REACH_BUDGETS],
    std::hash::BuildHasherDefault<WordHasher>,
>;

thread_local! {
    /// [`RunReach`]'s step per suit and position, remembered per thread: the
    /// states of one position (per joker budget) from those of the next and
    /// the copies the position's runs may and must take. Tests and branches
    /// of one table repeat the same suits (the uncached build was about
    /// 230,000 instructions with two jokers, more than it saved on full
    /// Carousel tables).
    static RUN_REACH_MEMO: std::cell::RefCell<ReachMemo> = std::cell::RefCell::new(ReachMemo::default());
}

/// Per suit, the automaton states from which that suit's open runs can still
/// all be closed by the end of the sweep, with at most `b` jokers: a state
/// outside is dead whatever the other suits and the sets do. Each later face
/// may give its runs any number of copies up to what may be placed, but at
/// least the copies its rank's sets cannot hold (a set holds one copy of a
/// face, and needs three cards: at a rank with too few cards for a set every
/// copy that must go down goes to a run). The automaton's transitions alone
/// find such a state only when the open run's missing card is reached; on full
/// tables the depth-first feasibility walk then explores every combination of
/// the other suits' states in between (a 15-group test of
/// `probe either 0 84 20 30` #19: 50,807 states). Only for the plain automaton
/// (at most 64 states, one bit each).
struct RunReach {
    first: u8,
    /// Joker budgets 0..=jokers: `width` entries per position.
    width: usize,
    /// Index `(q - first) * width + b`: per suit, bit `d` for each state `d`
    /// (after position `q - 1`) from which positions `q..=last` close every run
    /// with at most `b` jokers.
    good: Vec<[u64; 4]>,
}

impl RunReach {
    fn new(spec: &Spec, dfa: &Dfa, first: u8, last: u8) -> Option<RunReach> {
        let n = dfa.trans.len();
        let jt = spec.jokers_total();
        if n > 64 || usize::from(jt) >= REACH_BUDGETS {
            return None;
        }
        let width = usize::from(jt) + 1;
        let len = usize::from(last - first) + 2;
        let mut good = vec![[0u64; 4]; len * width];
        let accept = (0..n)
            .filter(|&d| dfa.accept[d])
            .fold(0u64, |m, d| m | (1 << d));
        for slot in &mut good[(len - 1) * width..] {
            *slot = [accept; 4];
        }
        let either = spec.ace == AceMode::Either;
        RUN_REACH_MEMO.with(|cell| {
            let mut memo = cell.borrow_mut();
            if memo.len() > RUN_REACH_MEMO_MAX {
                memo.clear();
            }
            for q in (first..=last).rev() {
                let rank = usize::from(if q == 14 { 1 } else { q });
                let i = usize::from(q - first);
                // The most sets this rank can make: `n` sets need three cards
                // of distinct suits each (jokers fill in), and a set holds one
                // copy of a face.
                let set_room = if either && q == 14 {
                    0
                } else {
                    let copies: [u32; 4] = std::array::from_fn(|s| {
                        let f = s * 13 + rank - 1;
                        u32::from(spec.must[f] + spec.loose[f] + spec.hand[f])
                    });
                    let fits = |n: u32| {
                        copies.iter().map(|&c| c.min(n)).sum::<u32>() + u32::from(jt) >= 3 * n
                    };
                    (1..=8u8)
                        .take_while(|&n| fits(u32::from(n)))
                        .last()
                        .unwrap_or(0)
                };
                for s in 0..4 {
                    let f = s * 13 + rank - 1;
                    let max_r = (spec.must[f] + spec.loose[f] + spec.hand[f]).min(SLOTS as u8);
                    // Ace-either's ends split the aces freely (a relaxation).
                    let min_r = if either && (q == 1 || q == 14) {
                        0
                    } else {
                        spec.run_only[f].max(spec.must[f].saturating_sub(set_room))
                    };
                    let mut key = [0u64; REACH_BUDGETS + 1];
                    key[0] = u64::from(min_r) | (u64::from(max_r) << 8) | ((width as u64) << 16);
                    for b in 0..width {
                        key[b + 1] = good[(i + 1) * width + b][s];
                    }
                    let masks = *memo.entry(key).or_insert_with(|| {
                        let mut masks = [0u64; REACH_BUDGETS];
                        for (b, mask) in masks.iter_mut().enumerate().take(width) {
                            for d in 0..n {
                                'found: for r in min_r..=max_r {
                                    for jr in 0..=(b as u8).min(SLOTS as u8 - r) {
                                        let d2 = dfa.trans[d][sym(r + jr, jr)];
                                        if d2 != DEAD
                                            && (key[b + 1 - usize::from(jr)] >> d2) & 1 == 1
                                        {
                                            *mask |= 1 << d;
                                            break 'found;
                                        }
                                    }
                                }
                            }
                        }
                        masks
                    });
                    for b in 0..width {
                        good[i * width + b][s] = masks[b];
                    }
                }
            }
        });
        Some(RunReach { first, width, good })
    }

    /// Can every suit of `key` still close its runs with `jokers_left`, after
    /// step `s` of position `p` (suits up to `s` are past `p`; `s == 4`: the
    /// sets, every suit past `p`)? `jokers_placed`: whether this step placed
    /// jokers; if not, only suit `s` changed (the others were alive with the
    /// same budget one step earlier), and after a set step nothing did.
    #[inline]
    fn alive(&self, key: u64, p: u8, s: usize, jokers_left: u8, jokers_placed: bool) -> bool {
        let b = usize::from(jokers_left).min(self.width - 1);
        let at = usize::from(p - self.first);
        let ok = |t: usize| {
            let q = if t <= s { at + 1 } else { at };
            let d = (key >> (D_BITS * t as u32)) & 1023;
            d < 64 && (self.good[q * self.width + b][t] >> d) & 1 == 1
        };
        if jokers_placed {
            (0..4).all(ok)
        } else {
            s == 4 || ok(s)
        }
    }
}

/// The depth-first walk of [`Sweep::try_first_path`].
struct FirstPath {
    /// (state, step) pairs from which no complete path exists.
    failed: FailedSet,
    /// The moves found, last first.
    moves: Vec<Move>,
    /// Option buffers, one per step depth.
    opts: Vec<Vec<Opt>>,
}

/// Work counters per thread (for the probe and benchmarks).
#[derive(Clone, Copy, Debug, Default)]
pub struct Stats {
    pub beam_sweeps: u64,
    pub exact_sweeps: u64,
    /// Sweeps with a state limit (the fewest-changes tests).
    pub limited: u64,
    pub states: u64,
    /// Of `states`, those of narrow sweeps and of limited (fewest-changes)
    /// sweeps: where the work went.
    pub beam_states: u64,
    pub limited_states: u64,
    /// Feasibility tests answered by the depth-first walk (no sweep).
    pub first_path_walks: u64,
    pub max_layer: u64,
    /// Strict copies searches run (Carousel, once a play broke the copies
    /// rule and no renaming mended it), the states they spent (within
    /// `states`), and those cut short by their state budget.
    pub strict_runs: u64,
    pub strict_states: u64,
    pub strict_cut: u64,
}

thread_local! {
    /// Strict copies mode: the thread's state count (`Stats::states`) past
    /// which strict sweeps give up, and whether one did.
    static STRICT_DEADLINE: std::cell::Cell<(u64, bool)> = const { std::cell::Cell::new((u64::MAX, false)) };
}

/// A strict copies search's budget in force: what to give back to
/// [`strict_budget_end`].
pub(crate) struct StrictBudget {
    outer: (u64, bool),
    states_at_start: u64,
}

/// Strict copies mode: strict sweeps may spend `states` more states (on this
/// thread) from now; counted in `Stats::strict_runs`.
pub(crate) fn strict_budget_start(states: u64) -> StrictBudget {
    let now = STATS.with(|s| {
        let mut v = s.get();
        v.strict_runs += 1;
        s.set(v);
        v.states
    });
    let outer = STRICT_DEADLINE.with(|d| d.replace((now.saturating_add(states), false)));
    StrictBudget {
        outer,
        states_at_start: now,
    }
}

/// Ends a strict budget: whether a strict sweep gave up under it (counted in
/// `Stats::strict_cut`); the states spent go to `Stats::strict_states`.
pub(crate) fn strict_budget_end(budget: StrictBudget) -> bool {
    let (_, hit) = STRICT_DEADLINE.with(|d| d.replace(budget.outer));
    STATS.with(|st| {
        let mut v = st.get();
        v.strict_cut += u64::from(hit);
        v.strict_states += v.states.saturating_sub(budget.states_at_start);
        st.set(v);
    });
    hit
}

/// A part of the strict budget in force: strict sweeps may spend `states`
/// more states (at most what the budget in force leaves) until
/// [`strict_part_end`], which gives the budget in force back as it was (a
/// part that runs out is not a cut of the whole search). Counted in the
/// whole search's `Stats::strict_states`, not as a run of its own.
pub(crate) fn strict_part_start(states: u64) -> StrictBudget {
    let now = STATS.with(|s| s.get().states);
    let outer = STRICT_DEADLINE.with(|d| {
        let (deadline, hit) = d.get();
        d.set((deadline.min(now.saturating_add(states)), hit));
        (deadline, hit)
    });
    StrictBudget {
        outer,
        states_at_start: now,
    }
}

/// States left under the strict budget or part in force (none once a strict
/// sweep gave up under it).
pub(crate) fn strict_left() -> u64 {
    let now = STATS.with(|s| s.get().states);
    let (deadline, hit) = STRICT_DEADLINE.with(|d| d.get());
    if hit { 0 } else { deadline.saturating_sub(now) }
}

/// Ends a part of the strict budget ([`strict_part_start`]).
pub(crate) fn strict_part_end(part: StrictBudget) {
    STRICT_DEADLINE.with(|d| d.set(part.outer));
}

/// A strict sweep that has explored `explored` states not yet in `STATS` is
/// past the budget. (Before session 8 the sweep's finished runs were counted
/// twice, in `STATS` and in `explored`, so an ace-split branch and bound of
/// many nodes stopped near half its budget.)
fn strict_over(explored: usize) -> bool {
    let (deadline, hit) = STRICT_DEADLINE.with(|d| d.get());
    if hit {
        return true;
    }
    let now = STATS
        .with(|s| s.get().states)
        .saturating_add(explored as u64);
    let over = now > deadline;
    if over {
        STRICT_DEADLINE.with(|d| d.set((deadline, true)));
    }
    over
}

thread_local! {
    pub(crate) static STATS: std::cell::Cell<Stats> = const { std::cell::Cell::new(Stats {
        beam_sweeps: 0,
        exact_sweeps: 0,
        limited: 0,
        states: 0,
        beam_states: 0,
        limited_states: 0,
        first_path_walks: 0,
        max_layer: 0,
        strict_runs: 0,
        strict_states: 0,
        strict_cut: 0,
    }) };
}

thread_local! {
    static SCRATCH: std::cell::RefCell<Option<Scratch>> = const { std::cell::RefCell::new(None) };
}

/// The forward sweep over one [`Spec`]: at each step the best value of every
/// distinct state, states another beats dropped at the end of each rank.
pub(crate) struct Sweep<'a> {
    pub spec: &'a Spec,
    dfa: &'static Dfa,
    first: u8,
    last: u8,
    explored: usize,
    /// Of `explored`, the states already added to `STATS` (finished sweeps
    /// and walks): the strict budget reads `STATS` plus the rest only.
    counted: usize,
    solved: Option<Option<(i32, Vec<Move>)>>,
    /// Only look for plays worth at least this (a value known to be reachable):
    /// states that cannot reach it are dropped.
    floor: Option<i32>,
    /// Either mode: per suit, the ace copies placed at the low end, if fixed.
    ace_fix: [Option<u8>; 4],
    /// Give up (answer `None`) once this many states were generated: for the
    /// best-effort steps (fewest changed groups), never for the optimum.
    pub limit: Option<usize>,
    /// The most the play can be worth (each hand card once).
    most: i32,
    /// Only plays worth at least this are of interest (the caller has one just
    /// below): `None` when there is none.
    pub at_least: Option<i32>,
    /// The most a play this search may answer can be worth, known from
    /// outside (strict copies mode: what the copies rule leaves, see
    /// `copies_ceiling` in `lib.rs`): folded into [`Sweep::upper_bound`], so
    /// a play reaching it ends the search, and a floor above it answers
    /// `None` at once. It only ends and prunes: the ace-split nodes' order
    /// and whether a narrow sweep is worth running keep the spec's own
    /// bound ([`Sweep::own_upper_bound`]).
    pub at_most: Option<i32>,
    /// `gains()`, computed once (it depends on the spec only).
    gains_memo: Option<std::rc::Rc<[i32]>>,
    /// `joker_gains()`, computed once, on the first sweep with a floor.
    joker_gains_memo: Option<std::rc::Rc<[[i32; 8]]>>,
    /// Ace-either: the ace copies each suit puts at the low end are carried in
    /// the state (two bits a suit) to the high end, so one sweep is exact.
    /// Only where one or two suits at most have aces (see `ACE_SUITS_IN_STATE`) and no
    /// suit more than three ace copies; otherwise branch and bound over the
    /// split, as before.
    aces_in_state: bool,
    /// A layout of a similar test (the fewest-changes step's last success):
    /// per position and suit its choice, which the feasibility walk tries
    /// first. Only an order: every option is still tried.
    pub guide: Option<Guide>,
    /// Run closability per suit (see [`RunReach`]): the sweeps and the
    /// feasibility walk drop states outside it.
    run_reach: Option<RunReach>,
    /// Build `run_reach` (tests turn it off to compare).
    reach: bool,
    /// Cut with `joker_gains` (tests turn it off to compare).
    joker_bound: bool,
    /// A limited test's first try: the feasibility walk alone. When the walk
    /// does not settle the test (or does not apply), no sweep follows: the
    /// answer is `None` and [`Sweep::unsettled`] says so.
    pub walk_only: bool,
    /// A limited test whose walk (with the same guide) already gave up: the
    /// sweeps alone.
    pub skip_walk: bool,
    /// `walk_only` ended without settling the test.
    unsettled: bool,
    /// The last `run` was a narrow one that dropped states (or was cut short:
    /// see [`Sweep::run_was_exact`]).
    narrowed: bool,
}

/// Per position (1-14) and suit, a choice of some earlier path.
pub(crate) type Guide = [[Option<Choice>; 4]; 15];

/// Copies of each face a path places (naturals, named jokers standing as
/// the card), from its moves (`first`: the sweep's first position).
pub(crate) fn placed(moves: &[Move], first: u8) -> [u8; 52] {
    let mut totals = [0u8; 52];
    for (t, m) in moves.iter().enumerate().skip(1) {
        if let Move::Suit(c) = m {
            let p = first + ((t - 1) / 5) as u8;
            let s = (t - 1) % 5;
            let rank = usize::from(if p == 14 { 1 } else { p });
            if let Some(n) = totals.get_mut(s * 13 + rank - 1) {
                *n = n.saturating_add(c.used);
            }
        }
    }
    totals
}

/// The choices of a path (`moves` from [`Sweep::path`], starting at `first`),
/// for [`Sweep::guide`].
pub(crate) fn guide_of(moves: &[Move], first: u8) -> Guide {
    let mut g: Guide = [[None; 4]; 15];
    for (t, m) in moves.iter().enumerate().skip(1) {
        if let Move::Suit(c) = m {
            let p = usize::from(first) + (t - 1) / 5;
            if let Some(slot) = g.get_mut(p).and_then(|at| at.get_mut((t - 1) % 5)) {
                *slot = Some(*c);
            }
        }
    }
    g
}

impl<'a> Sweep<'a> {
    pub fn new(spec: &'a Spec) -> Sweep<'a> {
        let (first, last) = spec.window();
        Sweep {
            spec,
            dfa: dfa(spec.one_joker),
            first,
            last,
            explored: 0,
            counted: 0,
            solved: None,
            floor: None,
            ace_fix: [None; 4],
            limit: None,
            most: i32::MAX,
            at_least: None,
            at_most: None,
            gains_memo: None,
            joker_gains_memo: None,
            guide: None,
            run_reach: None,
            reach: true,
            joker_bound: true,
            walk_only: false,
            skip_walk: false,
            unsettled: false,
            narrowed: false,
            // (Strict copies mode carries the aces' rooms in those bits.)
            aces_in_state: spec.ace == AceMode::Either
                && !spec.strict_copies
                && (0..4).all(|s| {
                    let f = s * 13;
                    spec.must[f] + spec.loose[f] + spec.hand[f] <= 3
                })
                && (0..4)
                    .filter(|&s| {
                        let f = s * 13;
                        spec.must[f] + spec.loose[f] + spec.hand[f] > 0
                    })
                    .count()
                    <= if spec.one_joker {
                        ACE_SUITS_IN_STATE
                    } else {
                        ACE_SUITS_IN_STATE_PLAIN
                    },
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
            let r = SCRATCH.with(|cell| {
                let mut slot = cell.borrow_mut();
                let scratch = slot.get_or_insert_with(|| Scratch {
                    pool: Vec::new(),
                    map: StateMap::new(),
                    cache: vec![OptionSlot::default(); OPTION_KEYS],
                    spec_sig: None,
                    steps: Vec::new(),
                    cache_generation: 0,
                    opts: Vec::new(),
                    walk: FirstPath {
                        failed: FailedSet::new(),
                        moves: Vec::new(),
                        opts: Vec::new(),
                    },
                    sets_reach: SetsReach::new(),
                    prune_order: Vec::new(),
                    prune_kept: Vec::new(),
                });
                self.solve(scratch)
            });
            self.solved = Some(r);
        }
        self.solved.clone().flatten()
    }

    pub fn first(&self) -> u8 {
        self.first
    }

    /// A `walk_only` try ended without settling its test.
    pub fn unsettled(&self) -> bool {
        self.unsettled
    }

    pub fn last(&self) -> u8 {
        self.last
    }

    pub fn dfa(&self) -> &'static Dfa {
        self.dfa
    }

    /// The exact optimum. Ace-either: branch and bound over how the ace copies
    /// of each suit split between the low and the high end. A sweep that leaves
    /// the split free (both ends may use every copy, valued so as never to
    /// understate) bounds every split from above; when its best path happens to
    /// split the aces legally and its value is the true one, that path is optimal
    /// for the node; otherwise the node branches on the first suit where it is
    /// not, one child per number of copies at the low end.
    fn solve(&mut self, scratch: &mut Scratch) -> Option<(i32, Vec<Move>)> {
        // What the play can be worth at most, counting each card once.
        let spec = self.spec;
        let mut most = spec.bonus + spec.joker_weight.max(0) * i32::from(spec.jokers_hand);
        for f in 0..52 {
            most += spec.weight[f].max(0) * i32::from(spec.hand[f]);
        }
        self.most = most;
        // A new spec: a step keeps the options the last solves made for it
        // only where this spec reads the same there.
        scratch.new_spec(spec, self.first, self.last, self.aces_in_state);
        if self.limit.is_some() && self.stranded_card() {
            return None;
        }
        // Every sweep and walk below drops states with a suit whose runs
        // cannot all be closed.
        self.run_reach = if self.reach {
            RunReach::new(spec, self.dfa, self.first, self.last)
        } else {
            None
        };
        if self.limit.is_some()
            && !self.skip_walk
            && let Some(found) = self.try_first_path(&mut scratch.walk)
        {
            return found;
        }
        if self.walk_only {
            self.unsettled = true;
            return None;
        }
        if self.spec.ace != AceMode::Either || self.aces_in_state {
            return self.solve_node(scratch, self.at_least, None);
        }
        // Open nodes: priority, split so far, and the most any play under that
        // split can be worth (its parent's relaxed value; `None` at the root).
        let mut open: Vec<(i32, [Option<u8>; 4], Option<i32>)> = Vec::new();
        let mut best: Option<(i32, Vec<Move>)> = None;
        let mut guessed = false;
        // Two cheap guesses first (every ace copy low; only the table's copies
        // low), each a narrow sweep of an exact split: a legal play whose value
        // is a floor for the search (often the optimum, which ends it).
        let gains = self.gains();
        // A caller that needs more than this spec can give (a joker branch
        // behind a better one) gets its answer before any sweep: the guesses
        // below would otherwise cost two narrow sweeps each time.
        let bound = self.upper_bound(&gains);
        if self.at_least.is_some_and(|a| a > bound) {
            return None;
        }
        // (A guess that reaches this bound ends the search before any exact
        // sweep.)
        // (Nodes are ordered by the spec's own bound: a ceiling from outside,
        // `at_most`, would tie them all and turn best-first into last-first,
        // which lost most-points plays to the strict copies budget; it only
        // ends the search, below.)
        open.push((self.own_upper_bound(&gains), [None; 4], None));
        let ceiling = bound;
        // Strict copies mode, and only a play worth the spec's own bound will
        // do (the try at the ceiling: every card of its hand must go down;
        // the plain sweeps are left as they were). Then a guess that finds
        // nothing leaves the root's free split to sweep, the dearest sweep
        // of all: both ends may take every ace copy, so states that leave a
        // hand card out live on the aces counted twice, and the floor cuts
        // little (a full Vatikan table, `RAMI_CAPS_N=3000` #1414 of the caps
        // test: 3.6M states, where the first guess's exact split holds the
        // play, which its narrow sweep missed). So a guess that found nothing
        // is swept once more, four times as wide (as `solve_node` retries).
        // Sound as any guess: a narrow sweep of an exact split gives legal
        // plays only, and one reaching the floor only ends the search early.
        let only_the_bound = spec.strict_copies
            && self
                .at_least
                .is_some_and(|a| a >= self.own_upper_bound(&gains));
        let mut guesses: Vec<[Option<u8>; 4]> = Vec::with_capacity(2);
        for table_only in [false, true] {
            let guess: [Option<u8>; 4] = std::array::from_fn(|s| {
                let f = s * 13;
                Some(if table_only {
                    spec.must[f]
                } else {
                    spec.must[f] + spec.loose[f] + spec.hand[f]
                })
            });
            // Without loose or hand aces both guesses are the same split.
            if guesses.contains(&guess) {
                continue;
            }
            // A guess that reached the bound is the answer: the second one
            // could not beat it (on full tables it was a narrow sweep as dear
            // as the first, for nothing).
            if best.as_ref().is_some_and(|b| b.0 >= bound) {
                break;
            }
            guesses.push(guess);
            self.ace_fix = guess;
            self.floor = self.at_least;
            let mut found = self.run(scratch, &gains, Some(self.beam_width()));
            if found.is_none() && only_the_bound && !self.over_limit() {
                found = self.run(scratch, &gains, Some(self.beam_width() * WIDER_RETRY));
            }
            if let Some((v, moves)) = found
                && best.as_ref().is_none_or(|b| v > b.0)
                && self.at_least.is_none_or(|a| v >= a)
            {
                best = Some((v, moves));
            }
        }
        while !open.is_empty() {
            // Best bound first; among equals the last pushed: children share
            // their parent's bound, so this dives to fully split (legal) nodes,
            // whose values close the rest, instead of widening level by level.
            let mut at = 0;
            for (i, n) in open.iter().enumerate() {
                if n.0 >= open[at].0 {
                    at = i;
                }
            }
            let (bound, fix, cap) = open.remove(at);
            if best.as_ref().is_some_and(|b| b.0 >= bound.min(ceiling)) || self.over_limit() {
                break;
            }
            self.ace_fix = fix;
            let floor = match (best.as_ref().map(|b| b.0 + 1), self.at_least) {
                (Some(a), Some(b)) => Some(a.max(b)),
                (a, b) => a.or(b),
            };
            let Some((value, moves)) = self.solve_node(scratch, floor, cap) else {
                continue;
            };
            let (truth, legal, loose) = self.check_aces(&moves);
            let used_at = |t: usize, s: usize| match moves.get(1 + t * 5 + s) {
                Some(Move::Suit(c)) => c.used,
                _ => 0,
            };
            let last = usize::from(self.last - self.first);
            // The guess's low end per suit: what the path put there, and at
            // least the copies that must go down and the path did not put at
            // the high end (the free ends may each leave them out; a guess
            // from such a path that sends them all high mostly has no play).
            let low: [u8; 4] = std::array::from_fn(|s| {
                let must = spec.must[s * 13];
                used_at(0, s).max(must.saturating_sub(used_at(last, s)))
            });
            if legal && best.as_ref().is_none_or(|b| truth > b.0) {
                best = Some((truth, moves));
            }
            if loose.is_some() && !legal && !guessed {
                // A legal split to try first: each suit's low end as this path
                // has it; its value is a floor for the rest of the search.
                guessed = true;
                let mut guess = [None; 4];
                for (s, g) in guess.iter_mut().enumerate() {
                    let f = s * 13;
                    let max = spec.must[f] + spec.loose[f] + spec.hand[f];
                    *g = Some(low[s].min(max));
                }
                // The guess refines this node's split (its fixed suits are
                // the path's low ends), so this node's value bounds it too.
                let refines = (0..4).all(|s| fix[s].is_none_or(|c| guess[s] == Some(c)));
                if guess != fix {
                    open.push((
                        value.min(bound).saturating_add(1),
                        guess,
                        refines.then_some(value.min(bound)),
                    ));
                }
            }
            if let Some(s) = loose {
                let f = s * 13;
                let max = self.spec.must[f] + self.spec.loose[f] + self.spec.hand[f];
                for c in 0..=max {
                    let mut child = fix;
                    child[s] = Some(c);
                    open.push((value.min(bound), child, Some(value.min(bound))));
                }
            }
        }
        self.ace_fix = [None; 4];
        best
    }

    /// A feasibility test (every card must be placed, nothing optional) where
    /// some card has no group at all: no two other suits of its rank and no
    /// window of three places of its suit among the cards, jokers filling
    /// gaps. Cheap,
    /// and such a test is otherwise a whole sweep that ends in no layout.
    fn stranded_card(&self) -> bool {
        let spec = self.spec;
        if spec.need_hand || (0..52).any(|f| spec.hand[f] > 0 || spec.loose[f] > 0) {
            return false;
        }
        // Every joker may fill a gap (a necessary condition only).
        let jokers = usize::from(spec.jokers_total());
        let range = spec.positions();
        let (lo, hi) = (*range.start(), *range.end());
        let mut present = [false; 52];
        for (p, &m) in present.iter_mut().zip(&spec.must) {
            *p = m > 0;
        }
        (0..52).any(|f| {
            if spec.must[f] == 0 {
                return false;
            }
            let (suit, rank) = (f / 13, f % 13);
            if jokers == 0 && too_many_copies(spec, f, lo, hi) {
                return true;
            }
            !could_have_group(&present, suit, rank, jokers, lo, hi)
        })
    }

    /// A feasibility test (nothing optional has a value: every complete path is
    /// as good as any other) answered by a depth-first walk that stops at the
    /// first complete path, remembering the states that led nowhere: a test that
    /// succeeds then costs about one state per step instead of a narrow and an
    /// exact sweep. Ace-either carries every suit's low aces in the state (the
    /// walk stops early, so the larger state space costs little).
    /// `None`: not such a test (the sweeps answer it); `Some(None)`: no layout,
    /// or the state limit was reached.
    fn try_first_path(&mut self, walk: &mut FirstPath) -> Option<Option<(i32, Vec<Move>)>> {
        let spec = self.spec;
        // (The walk carries the low aces in the state: strict copies mode,
        // ace-either, carries the aces' rooms there.)
        if spec.strict_copies && spec.ace == AceMode::Either {
            return None;
        }
        let value_free = spec.hand.iter().all(|&h| h == 0)
            && spec.jokers_hand == 0
            && !spec.need_hand
            && self.at_least.is_none_or(|a| a <= spec.bonus);
        // Two bits per suit carry the low aces.
        let aces_fit = spec.ace != AceMode::Either
            || (0..4).all(|s| spec.must[s * 13] + spec.loose[s * 13] <= 3);
        // With wild jokers the walk pays on big tests only (see
        // `WALK_JOKERS_FROM`).
        let cards: usize = spec.must.iter().map(|&m| usize::from(m)).sum();
        let jokers_ok = spec.jokers_total() == 0 || cards >= WALK_JOKERS_FROM;
        if !value_free || !aces_fit || !jokers_ok {
            return None;
        }
        let saved = self.aces_in_state;
        self.aces_in_state = spec.ace == AceMode::Either;
        let before = self.explored;
        walk.failed.clear();
        walk.moves.clear();
        let init = u64::from(spec.forced_hand && spec.need_hand) << PLAYED_SHIFT;
        let limit = self.limit;
        self.limit = Some(before + FIRST_PATH_BUDGET);
        // (Strict copies mode's tests only in a walk of its own, as in the
        // sweep's loop.)
        let found = if spec.strict_copies {
            self.walk::<true>(walk, self.first, 0, init)
        } else {
            self.walk::<false>(walk, self.first, 0, init)
        };
        let gave_up = !found && self.over_limit();
        self.limit = limit;
        self.aces_in_state = saved;
        STATS.with(|cell| {
            let mut st = cell.get();
            st.first_path_walks += 1;
            let states = (self.explored - before) as u64;
            st.states += states;
            st.limited_states += states;
            st.limited += 1;
            cell.set(st);
        });
        self.counted = self.explored;
        if gave_up {
            // Most likely no layout, which the sweeps (dropping beaten states)
            // prove with fewer states than the walk.
            return None;
        }
        Some(found.then(|| {
            let mut moves = vec![Move::Start];
            moves.extend(walk.moves.iter().rev().copied());
            (spec.bonus, moves)
        }))
    }

    /// One step of [`Sweep::try_first_path`]: from state `key` at position `p`,
    /// step `s` (0-3 the suits, 4 the sets of the rank), is there a way to the
    /// end? On success `walk.moves` holds the moves from here, last first.
    fn walk<const STRICT: bool>(
        &mut self,
        walk: &mut FirstPath,
        p: u8,
        s: usize,
        key: u64,
    ) -> bool {
        if p > self.last {
            return self.terminal(key);
        }
        if self.over_limit() {
            return false;
        }
        let step = p * 5 + s as u8;
        if walk.failed.contains(key, step) {
            return false;
        }
        let spec = self.spec;
        let (next_p, next_s) = if s == 4 { (p + 1, 0) } else { (p, s + 1) };
        let jokers = ((key >> JOKER_SHIFT) & 7) as u8;
        if s == 4 {
            let sets = ((key >> SETS_SHIFT) & 1023) as u16;
            let avail = spec.jokers_total().saturating_sub(jokers);
            let base = key & !(7u64 << JOKER_SHIFT) & !(1023u64 << SETS_SHIFT);
            if STRICT && self.low_ace_sets(p) {
                let mut rooms = Vec::new();
                for j in 0..=avail {
                    low_ace_namings(sets, (key >> CARRY_SHIFT) as u8, j, &mut rooms);
                    for &left in &rooms {
                        self.explored += 1;
                        let nk = (base & !(255u64 << CARRY_SHIFT))
                            | (u64::from(left) << CARRY_SHIFT)
                            | (u64::from(jokers + j) << JOKER_SHIFT);
                        if self.walk::<STRICT>(walk, next_p, next_s, nk) {
                            walk.moves.push(Move::Sets(j));
                            return true;
                        }
                    }
                }
                walk.failed.insert(key, step);
                return false;
            }
            for j in 0..=avail {
                if !self.sets_ok::<STRICT>(sets, j) {
                    continue;
                }
                let nk = base | (u64::from(jokers + j) << JOKER_SHIFT);
                if self
                    .run_reach
                    .as_ref()
                    .is_some_and(|rr| !rr.alive(nk, p, 4, avail - j, j > 0))
                {
                    continue;
                }
                self.explored += 1;
                if self.walk::<STRICT>(walk, next_p, next_s, nk) {
                    walk.moves.push(Move::Sets(j));
                    return true;
                }
            }
        } else {
            let rank = if p == 14 { 1 } else { p };
            let f = s * 13 + usize::from(rank) - 1;
            let suit_step = SuitStep::new(self.aces_in_state, spec, p, s);
            let d = suit_step.automaton(key);
            let carried = suit_step.carried(key);
            let face = FaceStep {
                f,
                p,
                max_total: spec.must[f] + spec.loose[f] + spec.hand[f],
                min_total: spec.must[f],
            };
            // The options of this step, in a buffer of its own depth.
            let depth = usize::from(p - self.first) * 4 + s;
            if walk.opts.len() <= depth {
                walk.opts.resize_with(depth + 1, Vec::new);
            }
            let mut opts = std::mem::take(&mut walk.opts[depth]);
            opts.clear();
            self.options(&face, s, d, jokers, carried, &self.dfa.trans, &mut opts);
            // The guide's choice first, then the nearest ones.
            if let Some(g) = self
                .guide
                .as_ref()
                .and_then(|g| g.get(usize::from(p)))
                .and_then(|at| at[s])
            {
                opts.sort_by_key(|o| {
                    let c = o.choice;
                    c.nat_r.abs_diff(g.nat_r)
                        + c.to_sets.abs_diff(g.to_sets)
                        + c.jok_r.abs_diff(g.jok_r)
                });
            }
            let mut reach = SetsReach::new();
            reach.start_step(&later_set_copies(spec, p, s), spec.one_joker);
            let jt = spec.jokers_total();
            let mut found = false;
            for o in &opts {
                let c = o.choice;
                let nk = suit_step.next_key::<STRICT>(key, o, false);
                let code = suit_step.plain_code::<STRICT>(nk);
                let jokers_left = jt.saturating_sub(((nk >> JOKER_SHIFT) & 7) as u8);
                if code != 0 && !reach.completable(code, jokers_left) {
                    continue;
                }
                if self
                    .run_reach
                    .as_ref()
                    .is_some_and(|rr| !rr.alive(nk, p, s, jokers_left, c.jok_r > 0))
                {
                    continue;
                }
                self.explored += 1;
                if self.walk::<STRICT>(walk, next_p, next_s, nk) {
                    walk.moves.push(Move::Suit(c));
                    found = true;
                    break;
                }
            }
            walk.opts[depth] = opts;
            if found {
                return true;
            }
        }
        walk.failed.insert(key, step);
        false
    }

    /// For a path of an ace-either sweep: its true value, whether it splits
    /// every suit's aces legally (and, for a hint, really puts down a hand
    /// card), and the first suit whose aces were left free where the free
    /// valuation differs from the truth (none: the path's value is exact).
    fn check_aces(&self, moves: &[Move]) -> (i32, bool, Option<usize>) {
        let spec = self.spec;
        let last = usize::from(self.last - self.first);
        let used_at = |t: usize, s: usize| match moves.get(1 + t * 5 + s) {
            Some(Move::Suit(c)) => c.used,
            _ => 0,
        };
        let mut totals = [0u8; 52];
        let mut jokers = 0u8;
        for (t, m) in moves.iter().enumerate().skip(1) {
            match m {
                Move::Suit(c) => {
                    let pos = (t - 1) / 5;
                    let s = (t - 1) % 5;
                    let p = self.first + pos as u8;
                    let rank = if p == 14 { 1 } else { p };
                    totals[s * 13 + usize::from(rank) - 1] += c.used;
                    jokers += c.jok_r;
                }
                Move::Sets(j) => jokers += j,
                Move::Start => {}
            }
        }
        let (jh, jv) = spec.joker_value(jokers);
        let mut truth = jv + spec.bonus;
        let mut played = spec.forced_hand || jh > 0;
        let mut legal = true;
        let mut loose = None;
        let mut claimed_hand_ace = None;
        for f in 0..52 {
            let (h, v) = spec.face_value(f, totals[f]);
            truth += v;
            played |= h > 0;
            if f % 13 != 0 {
                continue;
            }
            let s = f / 13;
            let max = spec.must[f] + spec.loose[f] + spec.hand[f];
            let ok = totals[f] >= spec.must[f] && totals[f] <= max;
            legal &= ok;
            if self.ace_fix[s].is_some() {
                continue;
            }
            let (h1, v1) = spec.relaxed_value(f, used_at(0, s), true);
            let (h2, v2) = spec.relaxed_value(f, used_at(last, s), false);
            if h1 + h2 > 0 && claimed_hand_ace.is_none() {
                claimed_hand_ace = Some(s);
            }
            let exact = ok && v1 + v2 == v && (h1 + h2 > 0) == (h > 0);
            if !exact && loose.is_none() {
                loose = Some(s);
            }
            // Strict copies mode: a high-end run joker named for this ace was
            // held to the cap with the high end's copies only (the split is
            // free); with the low end's it may break the rule.
            if spec.strict_copies {
                let choice_at = |t: usize| match moves.get(1 + t * 5 + s) {
                    Some(Move::Suit(c)) => *c,
                    _ => Choice::default(),
                };
                let (low, high) = (choice_at(0), choice_at(last));
                if high.jok_r > 0 && low.used + high.used + high.jok_r > spec.joker_face_cap[f] {
                    legal = false;
                    loose = loose.or(Some(s));
                }
            }
        }
        if spec.need_hand
            && !played
            && let Some(f) = (0..52).find(|&f| spec.hand_for_loose(f, totals[f]))
        {
            // (As the sweep's option did: see `Spec::hand_for_loose`.)
            truth += spec.weight[f];
            played = true;
        }
        if spec.need_hand && !played {
            legal = false;
            // Only a free ace end can have claimed a hand card: split there.
            loose = loose.or(claimed_hand_ace);
        }
        (truth, legal, loose)
    }

    /// A quick narrow sweep (the best few states per step) finds a reachable
    /// value; the exact sweep then drops every state that cannot reach it (nor
    /// `floor`, a value the caller needs to beat).
    ///
    /// `cap`: the most any play of this node can be worth, known from the
    /// relaxed sweep of the ace-either node it refines (it bounds every finer
    /// split). A narrow play that reaches it is the node's optimum, so the
    /// exact sweep is skipped (it would only look for a better play).
    fn solve_node(
        &mut self,
        scratch: &mut Scratch,
        floor: Option<i32>,
        cap: Option<i32>,
    ) -> Option<(i32, Vec<Move>)> {
        let gains = self.gains();
        let spec_bound = self.upper_bound(&gains);
        let bound = cap.map_or(spec_bound, |c| c.min(spec_bound));
        if floor.is_some_and(|f| f > bound) {
            return None;
        }
        // A hint (every card costs): first look only for the cheapest play, one
        // hand card, with a floor that drops every state already past it; the
        // usual hint is such a play. Otherwise (or with no play at all) the
        // full sweep below decides.
        if let Some(cheapest) = self.cheapest_hint()
            && floor.is_none_or(|f| f < cheapest)
        {
            self.floor = Some(cheapest);
            if let Some(found) = self.run(scratch, &gains, None) {
                return Some(found);
            }
        }
        self.floor = floor;
        // The narrow sweep pays when there is value to chase, or a layout to
        // find; for a hint (usually: no play at all) it is mostly wasted work.
        // A fewest-changes test (limited) left to the sweeps is one the walk
        // could not settle, mostly one with no layout: the narrow sweep would
        // fail and the exact one run anyway (callgrind: 4-7% less without it).
        // Nor when a floor is there (a better branch's value, a better ace
        // split's, the caller's): the narrow sweep only raises the exact
        // sweep's floor, and with one from outside it mostly found nothing
        // or a play just above it, for a third of the exact sweep's states
        // (session 12, callgrind, whole probe: `REACHABLE=1 OPT=1 probe car
        // 2 30 10 300` -5.6%, best plays car and vat -3.9%, `either 0 30 10
        // 300` -2.1%). Any floor gives the same optimum: the exact sweep
        // keeps every state that can reach it.
        // Strict copies mode keeps it where the floor is below the bound,
        // its budget being the reason: a ceiling from outside, `at_most`,
        // may equal the floor while the play worth it is still to be found,
        // which the narrow sweep mostly finds for a fraction of the exact
        // sweep's states (`REACHABLE=1 probe car 2 84 20 200` #70 found 18
        // of 19 within the budget without it). (Against the spec's own
        // bound.)
        let own_bound = cap.map_or(self.own_upper_bound(&gains), |c| {
            c.min(self.own_upper_bound(&gains))
        });
        let chase = (spec_bound > 0 || !self.spec.need_hand)
            && self.limit.is_none()
            && floor.is_none_or(|f| self.spec.strict_copies && f < own_bound);
        let mut beam = if chase {
            self.run(scratch, &gains, Some(self.beam_width()))
        } else {
            None
        };
        // A narrow sweep that never had more states than its width dropped
        // none: it was the exact sweep with this floor, whose answer the
        // steps below would only find again (a wider retry too), and the
        // exact sweep above its value finds nothing better. (Mostly a branch
        // or node whose floor, from a better one, leaves few states.)
        if chase && self.run_was_exact() {
            return beam;
        }
        // With the low aces in the state and jokers, the narrow sweep's best
        // states by value often all strand an ace or a joker (no play at
        // all), and the exact sweep then has no floor: one four times as wide
        // mostly finds the play (probe car 2 30 10 100 #63: the exact sweep
        // 41,550 -> 14,668 states; callgrind on that row's optimum -3.8%).
        if beam.is_none()
            && chase
            && floor.is_none()
            && self.aces_in_state
            && self.spec.jokers_total() > 0
        {
            beam = self.run(scratch, &gains, Some(self.beam_width() * WIDER_RETRY));
        }
        let mut fallback = None;
        if let Some((v, moves)) = beam {
            // Nothing can beat the bound: the narrow sweep found the optimum.
            if v >= bound {
                return Some((v, moves));
            }
            // The exact sweep only looks for better plays (fewer states); when
            // there is none, the narrow sweep's play is the optimum.
            if floor.is_none_or(|f| v >= f) {
                self.floor = Some(v + 1);
                fallback = Some((v, moves));
            }
        }
        // The exact sweep may still end below its floor (states whose bound
        // reached it, none of which got there): then the narrow play stands.
        match (self.run(scratch, &gains, None), fallback) {
            (Some(exact), Some(narrow)) if narrow.0 > exact.0 => Some(narrow),
            (exact, narrow) => exact.or(narrow),
        }
    }

    /// The last `run` kept every state the exact sweep with its floor
    /// keeps: no narrowing dropped one and no limit cut it short.
    fn run_was_exact(&self) -> bool {
        !self.narrowed && !self.over_limit()
    }

    /// States kept per step by a narrow sweep of this spec.
    fn beam_width(&self) -> usize {
        if self.spec.one_joker {
            BEAM
        } else if self.spec.jokers_total() == 0 {
            BEAM_NO_JOKERS
        } else if self.spec.strict_copies {
            BEAM_WILD_JOKERS_STRICT
        } else {
            BEAM_WILD_JOKERS
        }
    }

    /// The most any legal play of the spec can be worth: every hand card that
    /// could be in some group once (per step, `gains`), and for a hint the one
    /// cheapest card.
    fn upper_bound(&self, gains: &[i32]) -> i32 {
        let own = self.own_upper_bound(gains);
        self.at_most.map_or(own, |m| own.min(m))
    }

    /// [`Sweep::upper_bound`] from the spec alone (no [`Sweep::at_most`]).
    fn own_upper_bound(&self, gains: &[i32]) -> i32 {
        let by_steps = (gains.first().copied().unwrap_or(0) + self.spec.bonus).min(self.most);
        self.cheapest_hint().map_or(by_steps, |c| by_steps.min(c))
    }

    /// For a hint search (every hand card costs, one must go down unless forced
    /// cards already did): the most a play can be worth, one hand card down.
    /// `None` for other searches.
    fn cheapest_hint(&self) -> Option<i32> {
        let spec = self.spec;
        if !spec.need_hand {
            return None;
        }
        let costs: Vec<i32> = (0..52)
            .filter(|&f| spec.hand[f] > 0)
            .map(|f| spec.weight[f])
            .chain((spec.jokers_hand > 0).then_some(spec.joker_weight))
            .collect();
        if costs.iter().any(|&w| w > 0) {
            return None;
        }
        if spec.forced_hand {
            return Some(spec.bonus);
        }
        // The least costly hand card.
        let least = costs.iter().copied().max()?;
        Some(spec.bonus + least)
    }

    /// Hand copies of face `f` that could be in some group at all, given every
    /// card of the position (a bound on what the play can put down).
    fn playable(&self, f: usize) -> u8 {
        let spec = self.spec;
        // (Most faces have no hand copy: `gains` asks for every face of the
        // window, and the checks below cost a hint's small sweep more than
        // its states do.)
        if spec.hand[f] == 0 {
            return 0;
        }
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

    /// The most value all steps can add (first), then for each step (four suits
    /// and the set step per position) the most value the steps after it can add.
    fn gains(&mut self) -> std::rc::Rc<[i32]> {
        if let Some(g) = &self.gains_memo {
            return g.clone();
        }
        let g: std::rc::Rc<[i32]> = self.compute_gains().into();
        self.gains_memo = Some(g.clone());
        g
    }

    /// [`Sweep::gains`] per number of jokers left to place (0-7): a hand
    /// card a later step puts down is in a group whose gaps (the places of a
    /// window of three, or the suits of a set, with no copy anywhere in the
    /// position) only jokers placed from then on can fill; the places of its
    /// suit already stepped need none (a run through them may hold jokers
    /// placed before). With fewer jokers left than the fewest gaps of any
    /// group it could be in, the card adds nothing.
    fn joker_gains(&mut self) -> std::rc::Rc<[[i32; 8]]> {
        if let Some(g) = &self.joker_gains_memo {
            return g.clone();
        }
        let gains = self.gains();
        let g: std::rc::Rc<[[i32; 8]]> = self.compute_joker_gains(&gains).into();
        self.joker_gains_memo = Some(g.clone());
        g
    }

    fn compute_joker_gains(&self, gains: &[i32]) -> Vec<[i32; 8]> {
        let spec = self.spec;
        let (lo, hi) = (self.first, self.last);
        let avail = |g: usize| spec.must[g] + spec.loose[g] + spec.hand[g] > 0;
        let face = |q: u8, s: usize| s * 13 + if q == 14 { 0 } else { usize::from(q) - 1 };
        let either = spec.ace == AceMode::Either;
        let mut out: Vec<[i32; 8]> = gains.iter().map(|&g| [g; 8]).collect();
        // Per hand card that may need jokers: its step, suit, worth, and the
        // jokers it needs at least, per last stepped position of its suit
        // (`lo - 1`: none yet).
        let mut needs: Vec<(usize, usize, i32, [u8; 15])> = Vec::new();
        for q in lo..=hi {
            for s in 0..4 {
                let f = face(q, s);
                let w = spec.weight[f].max(0) * i32::from(self.playable(f));
                if w == 0 {
                    continue;
                }
                let rank = f % 13;
                let suits = (0..4).filter(|&u| avail(u * 13 + rank)).count() as u8;
                // (No sets at the high ace end.)
                let set_need = if either && q == 14 {
                    u8::MAX
                } else {
                    3u8.saturating_sub(suits)
                };
                if set_need == 0 {
                    continue;
                }
                let mut by_last = [0u8; 15];
                let mut any = false;
                for last in lo.saturating_sub(1)..q {
                    let mut need = set_need;
                    for a in q.saturating_sub(2).max(lo)..=q {
                        if a + 2 > hi {
                            break;
                        }
                        let gaps = (a..a + 3)
                            .filter(|&r| r != q && r > last && !avail(face(r, s)))
                            .count() as u8;
                        need = need.min(gaps);
                    }
                    by_last[usize::from(last)] = need;
                    any |= need > 0;
                }
                if any {
                    let t = 5 * usize::from(q - lo) + s;
                    needs.push((t, s, w, by_last));
                }
            }
        }
        for (i, row) in out.iter_mut().enumerate() {
            // Step i is the first not taken: position `p`, suits below `k`
            // already stepped there.
            let p = lo + (i / 5) as u8;
            let k = i % 5;
            for &(t, s, w, by_last) in &needs {
                if t < i {
                    continue;
                }
                let last = if s < k { p } else { p.saturating_sub(1) };
                let need = by_last.get(usize::from(last)).copied().unwrap_or(0);
                for r in row.iter_mut().take(usize::from(need)) {
                    *r -= w;
                }
            }
        }
        out
    }

    fn compute_gains(&self) -> Vec<i32> {
        let spec = self.spec;
        let mut per_step = Vec::with_capacity(5 * usize::from(self.last - self.first + 1));
        for p in self.first..=self.last {
            let rank = if p == 14 { 1 } else { p };
            for s in 0..4 {
                let f = s * 13 + usize::from(rank) - 1;
                per_step.push(spec.weight[f].max(0) * i32::from(self.playable(f)));
            }
            per_step.push(0);
        }
        let jokers = spec.joker_weight.max(0) * i32::from(spec.jokers_hand);
        // after[i]: what the steps after step i can add.
        // after[0]: every step; after[i + 1]: the steps after step i.
        let mut after = vec![0; per_step.len() + 1];
        for i in (0..per_step.len()).rev() {
            after[i] = after[i + 1] + per_step[i];
        }
        after.iter().map(|a| a + jokers).collect()
    }

    fn run(
        &mut self,
        scratch: &mut Scratch,
        gains: &[i32],
        beam: Option<usize>,
    ) -> Option<(i32, Vec<Move>)> {
        let mut layers: Vec<Vec<Node>> = Vec::with_capacity(80);
        let before = self.explored;
        self.narrowed = false;
        let reach = self.run_reach.take();
        // Two copies of the loop: without a `RunReach` (Tahiti's one-joker
        // automaton) it is the loop as it was (callgrind: the unused check
        // alone cost `probe tah 4 30 10 100` 4% more instructions).
        // And strict copies mode's tests only in a loop of its own (with them
        // the plain loop cost `probe either 0 30 10 100` 3% more
        // instructions).
        let strict = self.spec.strict_copies;
        // (Only a floor cuts: without one the table is not needed.)
        let jg = (self.joker_bound && self.floor.is_some() && self.spec.jokers_total() > 0)
            .then(|| self.joker_gains());
        let jg = jg.as_deref();
        let r = match (reach.as_ref(), strict) {
            (Some(rr), false) => {
                self.run_layers::<true, false>(scratch, gains, jg, beam, &mut layers, Some(rr))
            }
            (Some(rr), true) => {
                self.run_layers::<true, true>(scratch, gains, jg, beam, &mut layers, Some(rr))
            }
            (None, false) => {
                self.run_layers::<false, false>(scratch, gains, jg, beam, &mut layers, None)
            }
            (None, true) => {
                self.run_layers::<false, true>(scratch, gains, jg, beam, &mut layers, None)
            }
        };
        self.run_reach = reach;
        STATS.with(|cell| {
            let mut st = cell.get();
            if beam.is_some() {
                st.beam_sweeps += 1;
            } else {
                st.exact_sweeps += 1;
            }
            let states = (self.explored - before) as u64;
            st.states += states;
            if beam.is_some() {
                st.beam_states += states;
            }
            if self.limit.is_some() {
                st.limited_states += states;
            }
            st.max_layer = st
                .max_layer
                .max(layers.iter().map(|l| l.len()).max().unwrap_or(0) as u64);
            st.limited += u64::from(self.limit.is_some());
            cell.set(st);
        });
        self.counted = self.explored;
        for mut l in layers {
            l.clear();
            scratch.pool.push(l);
        }
        r
    }

    fn run_layers<const REACH: bool, const STRICT: bool>(
        &mut self,
        scratch: &mut Scratch,
        gains: &[i32],
        joker_gains: Option<&[[i32; 8]]>,
        beam: Option<usize>,
        layers: &mut Vec<Vec<Node>>,
        reach: Option<&RunReach>,
    ) -> Option<(i32, Vec<Move>)> {
        let spec = self.spec;
        let jt = spec.jokers_total();
        let trans = &self.dfa.trans;
        let track = spec.need_hand;
        // The narrow sweep too keeps only states that can still reach the floor:
        // below it its answer would be of no use, and the room goes to states
        // that can.
        let floor = self.floor;
        let init = u64::from(spec.forced_hand && track) << PLAYED_SHIFT;
        let Scratch {
            pool,
            map,
            cache,
            steps,
            opts,
            sets_reach,
            prune_order,
            prune_kept,
            ..
        } = scratch;
        let mut first = pool.pop().unwrap_or_default();
        first.push(Node {
            key: init,
            value: 0,
            parent: 0,
            mv: Move::Start,
        });
        layers.push(first);
        let mut step = 0usize;
        // Set steps to go before the next prune (see below).
        let mut prune_rest = 0u32;
        for p in self.first..=self.last {
            let rank = if p == 14 { 1 } else { p };
            for s in 0..4 {
                let f = s * 13 + usize::from(rank) - 1;
                let max_total = spec.must[f] + spec.loose[f] + spec.hand[f];
                let min_total = spec.must[f];
                let prev = layers.last()?;
                let mut next: Vec<Node> = pool.pop().unwrap_or_default();
                map.clear();
                // The options depend on the step, and at the ace ends on the
                // split the node of the search fixes there.
                let ace_end = p == 1 || p == 14;
                let step_key =
                    option_step_key(step, ace_end.then_some(self.ace_fix[s]), self.aces_in_state);
                // (Readied by `Scratch::new_spec` for this spec's window: 0,
                // which no slot holds but an empty one, never.)
                let generation = steps.get(step).map_or(0, |st| st.1);
                debug_assert!(generation != 0, "options table not readied");
                // Ace-either: the ace copies of this suit put at the low end are
                // carried in the state to the high end.
                let suit_step = SuitStep::new(self.aces_in_state, spec, p, s);
                // Per jokers placed (see `joker_gains`); no floor, no cut.
                let cut: [i32; 8] = match floor {
                    None => [i32::MIN; 8],
                    Some(fl) => {
                        let base = fl - spec.bonus;
                        match joker_gains.and_then(|g| g.get(step + 1)) {
                            Some(row) => std::array::from_fn(|placed| {
                                base - row[usize::from(jt.saturating_sub(placed as u8).min(7))]
                            }),
                            None => [base - gains[step + 1]; 8],
                        }
                    }
                };
                sets_reach.start_step(&later_set_copies(spec, p, s), spec.one_joker);
                for (i, n) in prev.iter().enumerate() {
                    let key = n.key;
                    let d = suit_step.automaton(key);
                    let jokers = ((key >> JOKER_SHIFT) & 7) as u8;
                    let carried = suit_step.carried(key);
                    // (The jokers left before this step: those the option
                    // places are only counted from the next step on.)
                    let node_cut = cut[usize::from(jokers) & 7];
                    let ck = step_key
                        | ((d as u32) << 5)
                        | (u32::from(jokers) << 2)
                        | u32::from(carried);
                    let slot = option_slot(ck);
                    let known = cache
                        .get(slot)
                        .filter(|c| c.generation == generation && c.key == ck)
                        .map(|c| (c.start, c.len));
                    let (start, len) = match known {
                        Some(r) => {
                            // The kept options are those this spec makes.
                            #[cfg(debug_assertions)]
                            {
                                let mut fresh = Vec::new();
                                let face = FaceStep {
                                    f,
                                    p,
                                    max_total,
                                    min_total,
                                };
                                self.options(&face, s, d, jokers, carried, trans, &mut fresh);
                                debug_assert!(
                                    fresh[..] == opts[r.0 as usize..(r.0 + r.1) as usize],
                                    "kept options differ at step {step} p {p} s {s} d {d} jokers {jokers} carried {carried}: {:?} vs {:?}",
                                    fresh,
                                    &opts[r.0 as usize..(r.0 + r.1) as usize]
                                );
                            }
                            r
                        }
                        None => {
                            let start = opts.len() as u32;
                            let face = FaceStep {
                                f,
                                p,
                                max_total,
                                min_total,
                            };
                            self.options(&face, s, d, jokers, carried, trans, opts);
                            let len = opts.len() as u32 - start;
                            if let Some(c) = cache.get_mut(slot) {
                                *c = OptionSlot {
                                    generation,
                                    key: ck,
                                    start,
                                    len,
                                };
                            }
                            (start, len)
                        }
                    };
                    for o in &opts[start as usize..(start + len) as usize] {
                        let value = n.value + o.value;
                        if value < node_cut {
                            continue;
                        }
                        let c = o.choice;
                        let nk = suit_step.next_key::<STRICT>(key, o, o.played && track);
                        let code = suit_step.plain_code::<STRICT>(nk);
                        let jokers_left = jt.saturating_sub(((nk >> JOKER_SHIFT) & 7) as u8);
                        // (No set copies yet: the later suits can give none.)
                        if code != 0 && !sets_reach.completable(code, jokers_left) {
                            continue;
                        }
                        if REACH
                            && reach.is_some_and(|rr| !rr.alive(nk, p, s, jokers_left, c.jok_r > 0))
                        {
                            continue;
                        }
                        let node = Node {
                            key: nk,
                            value,
                            parent: i as u32,
                            mv: Move::Suit(c),
                        };
                        offer(map, &mut next, node);
                    }
                }
                step += 1;
                self.explored += next.len();
                if next.is_empty() || self.over_limit() {
                    return None;
                }
                if let Some(b) = beam {
                    self.narrowed |= narrow(&mut next, b, self.dfa, spec.jokers_must);
                }
                layers.push(next);
            }
            // The sets of this rank: the jokers that complete them.
            let prev = layers.last()?;
            let mut next: Vec<Node> = pool.pop().unwrap_or_default();
            map.clear();
            let low_ace = STRICT && self.low_ace_sets(p);
            for (i, n) in prev.iter().enumerate() {
                let key = n.key;
                let jokers = ((key >> JOKER_SHIFT) & 7) as u8;
                let sets = ((key >> SETS_SHIFT) & 1023) as u16;
                let avail = jt.saturating_sub(jokers);
                let base = key & !(7u64 << JOKER_SHIFT) & !(1023u64 << SETS_SHIFT);
                if low_ace {
                    self.low_ace_set_step(n, i as u32, avail, track, map, &mut next);
                    continue;
                }
                for j in 0..=avail {
                    if !self.sets_ok::<STRICT>(sets, j) {
                        continue;
                    }
                    let jk = jokers + j;
                    let played = self.hand_joker_used(jk) && track;
                    let nk =
                        base | (u64::from(jk) << JOKER_SHIFT) | (u64::from(played) << PLAYED_SHIFT);
                    if REACH && reach.is_some_and(|rr| !rr.alive(nk, p, 4, avail - j, j > 0)) {
                        continue;
                    }
                    let node = Node {
                        key: nk,
                        value: n.value + self.joker_credit(jokers, j),
                        parent: i as u32,
                        mv: Move::Sets(j),
                    };
                    offer(map, &mut next, node);
                }
            }
            step += 1;
            self.explored += next.len();
            // Dropping beaten states costs a sort and comparisons; where it
            // dropped almost nothing last time, the next ranks go without.
            if prune_rest == 0 {
                let before = next.len();
                self.prune(&mut next, prune_order, prune_kept);
                if (before - next.len()) * PRUNE_PAYS < before {
                    prune_rest = PRUNE_REST;
                }
            } else {
                prune_rest -= 1;
            }
            if next.is_empty() {
                return None;
            }
            if let Some(b) = beam {
                self.narrowed |= narrow(&mut next, b, self.dfa, spec.jokers_must);
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

    /// Every way to place the copies of the step's face from automaton state `d`,
    /// with `jokers` placed so far.
    #[allow(clippy::too_many_arguments)]
    fn options(
        &self,
        face: &FaceStep,
        s: usize,
        d: usize,
        jokers: u8,
        carried_in: u8,
        trans: &[[u16; crate::dfa::SYMS]],
        out: &mut Vec<Opt>,
    ) {
        let spec = self.spec;
        let FaceStep {
            f,
            p,
            max_total,
            min_total,
        } = *face;
        let either = spec.ace == AceMode::Either;
        let sets_here = !(either && p == 14);
        // Strict copies mode, ace-either: what the state carries to the high
        // end is the room the low end left, not copies.
        let strict = spec.strict_copies;
        let (carried_in, high_room) = if strict && either && p == 14 {
            (0, Some(carried_in))
        } else {
            (carried_in, None)
        };
        // Either mode: the ace copies of a suit whose split between the two ends
        // is fixed (`ace_fix`), or free at both ends with a value that can only
        // overstate (the search then splits on that suit; see `solve`).
        let ace_end = either && (p == 1 || p == 14) && !self.aces_in_state;
        let fix = if ace_end { self.ace_fix[s] } else { None };
        let relaxed = ace_end && fix.is_none();
        let carried = match fix {
            Some(c) if p == 14 => c,
            // The copies the state says went to the low end.
            _ if either && p == 14 => carried_in,
            _ => 0,
        };
        let (lo, hi) = match fix {
            _ if relaxed => (0, max_total),
            // Tracked in the state: the low end takes any number; the high end
            // the rest of what must and may be placed.
            _ if self.aces_in_state && p == 1 => (0, max_total),
            Some(c) if p == 1 => {
                if c > max_total {
                    return;
                }
                (c, c)
            }
            _ => (
                min_total.saturating_sub(carried),
                max_total.saturating_sub(carried),
            ),
        };
        let avail = spec.jokers_total().saturating_sub(jokers);
        let (_, v_before) = spec.face_value(f, carried);
        // Strict copies mode, ace-either: the high end's copies of an ace
        // stay within the room the low end left (carried in the state).
        let mut cap = spec.joker_face_cap[f];
        if let Some(room) = high_room {
            cap = cap.min(carried.saturating_add(room));
        }
        // Copies held to runs; ace-either: at the end their group had.
        let run_only = match p {
            1 if either => spec.run_only[f] - spec.run_only_high_ace[s],
            14 if either => spec.run_only_high_ace[s],
            _ => spec.run_only[f],
        };
        for nat_r in run_only..=hi.min(SLOTS as u8) {
            for jok_r in 0..=avail.min(SLOTS as u8 - nat_r) {
                let d2 = trans[d][sym(nat_r + jok_r, jok_r)];
                if d2 == DEAD {
                    continue;
                }
                // Copies held to sets go where sets are (never the high ace end).
                let from = lo.max(nat_r + if sets_here { spec.set_only[f] } else { 0 });
                let to = hi.min(nat_r + if sets_here { 4 } else { 0 });
                let jk = jokers + jok_r;
                let credit = self.joker_credit(jokers, jok_r);
                let joker_played = jok_r > 0 && self.hand_joker_used(jk);
                for used in from..=to {
                    // Strict copies mode: past the cap some joker named for
                    // this face breaks the rule, whichever it is.
                    if (jok_r > 0 || strict) && (carried + used).saturating_add(jok_r) > cap {
                        continue;
                    }
                    let (hand_now, v_now) = if relaxed {
                        spec.relaxed_value(f, used, p == 1)
                    } else {
                        spec.face_value(f, carried + used)
                    };
                    let to_sets = used - nat_r;
                    let sets_code = match to_sets {
                        0 => 0,
                        n => u64::from(POW5[usize::from(n.min(4)) - 1]),
                    };
                    let opt = Opt {
                        d2,
                        choice: Choice {
                            nat_r,
                            jok_r,
                            to_sets,
                            used,
                        },
                        value: v_now - if relaxed { 0 } else { v_before } + credit,
                        played: hand_now > 0 || joker_played,
                        add: (u64::from(d2) << (D_BITS * s as u32))
                            + (u64::from(jok_r) << JOKER_SHIFT)
                            + (sets_code << SETS_SHIFT),
                    };
                    // A hint may put a hand copy down where a loose one of the
                    // same face lies (`Spec::hand_for_loose`).
                    let swap = spec.need_hand
                        && !relaxed
                        && !opt.played
                        && spec.hand_for_loose(f, carried + used);
                    out.push(opt);
                    if swap {
                        out.push(Opt {
                            value: opt.value + spec.weight[f],
                            played: true,
                            ..opt
                        });
                    }
                }
            }
        }
    }

    /// The set step of [`Sweep::low_ace_sets`] from node `n` (index
    /// `parent`): one next state per joker count and naming.
    #[cold]
    #[inline(never)]
    fn low_ace_set_step(
        &self,
        n: &Node,
        parent: u32,
        avail: u8,
        track: bool,
        map: &mut StateMap,
        next: &mut Vec<Node>,
    ) {
        let key = n.key;
        let jokers = ((key >> JOKER_SHIFT) & 7) as u8;
        let sets = ((key >> SETS_SHIFT) & 1023) as u16;
        let base =
            key & !(7u64 << JOKER_SHIFT) & !(1023u64 << SETS_SHIFT) & !(255u64 << CARRY_SHIFT);
        let mut rooms = Vec::new();
        for j in 0..=avail {
            low_ace_namings(sets, (key >> CARRY_SHIFT) as u8, j, &mut rooms);
            let jk = jokers + j;
            let played = self.hand_joker_used(jk) && track;
            for &left in &rooms {
                let nk = base
                    | (u64::from(left) << CARRY_SHIFT)
                    | (u64::from(jk) << JOKER_SHIFT)
                    | (u64::from(played) << PLAYED_SHIFT);
                let node = Node {
                    key: nk,
                    value: n.value + self.joker_credit(jokers, j),
                    parent,
                    mv: Move::Sets(j),
                };
                offer(map, next, node);
            }
        }
    }

    /// Strict copies mode, ace-either: the set step of the aces at the low
    /// end, which names its jokers and carries the rooms left (see
    /// [`SuitStep`]).
    fn low_ace_sets(&self, p: u8) -> bool {
        self.spec.strict_copies && self.spec.ace == AceMode::Either && p == 1
    }

    /// The set step's test: sets code `code` and `j` jokers make sets;
    /// `STRICT` as for [`SuitStep::plain_code`].
    #[inline(always)]
    fn sets_ok<const STRICT: bool>(&self, code: u16, j: u8) -> bool {
        if STRICT && self.spec.strict_copies {
            strict_sets_feasible(code, j)
        } else {
            sets_code_feasible(code, j, self.spec.one_joker)
        }
    }

    fn terminal(&self, key: u64) -> bool {
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
        !self.spec.need_hand || played
    }

    /// Drops every node another node of the layer beats: same sets so far; at
    /// least the value; at most the jokers placed once those that must be placed
    /// are; a hand card played if this one has; every suit's automaton state
    /// leaving at least the same choices.
    fn prune(&self, nodes: &mut Vec<Node>, order: &mut Vec<u128>, kept: &mut Vec<u32>) {
        let n = nodes.len();
        if n < 2 {
            return;
        }
        let must = u64::from(self.spec.jokers_must);
        let d_mask: u64 = (1u64 << (4 * D_BITS)) - 1;
        let bucket = |k: u64| -> u64 {
            let j = (k >> JOKER_SHIFT) & 7;
            let jn = if j >= must { 7 } else { j };
            (k & !d_mask & !(7u64 << JOKER_SHIFT) & !(1u64 << PLAYED_SHIFT)) | (jn << JOKER_SHIFT)
        };
        // (bucket, value high to low, index) packed in one integer: sorting
        // plain integers is cheaper than comparing tuples (callgrind: the
        // sorts were 7% of Carousel mid-game).
        order.clear();
        order.extend(nodes.iter().enumerate().map(|(i, nd)| {
            let down = (i64::from(i32::MAX) - i64::from(nd.value)) as u64;
            (u128::from(bucket(nd.key)) << 64) | (u128::from(down) << 32) | i as u128
        }));
        order.sort_unstable();
        let dfa = self.dfa;
        kept.clear();
        let mut start = 0;
        let mut cur: Option<u64> = None;
        for &packed in order.iter() {
            let b = (packed >> 64) as u64;
            let i = packed as u32;
            if cur != Some(b) {
                cur = Some(b);
                start = kept.len();
            }
            let k = nodes[i as usize].key;
            let jk = (k >> JOKER_SHIFT) & 7;
            let played = (k >> PLAYED_SHIFT) & 1;
            // Comparing with the best few kept nodes finds most beaten nodes; a
            // node left in is only work, never a wrong answer.
            let end = kept.len().min(start + PRUNE_WIDTH);
            let beaten = kept[start..end].iter().any(|&o| {
                let ok = nodes[o as usize].key;
                (ok >> JOKER_SHIFT) & 7 <= jk
                    && (ok >> PLAYED_SHIFT) & 1 >= played
                    && (0..4).all(|s| {
                        let sh = D_BITS * s;
                        dfa.beats(((ok >> sh) & 1023) as usize, ((k >> sh) & 1023) as usize)
                    })
            });
            if !beaten {
                kept.push(i);
            }
        }
        if kept.len() == n {
            return;
        }
        kept.sort_unstable();
        compact(nodes, kept);
    }

    /// Value of `more` jokers placed after `before`: jokers that must be placed go
    /// first, then (for a positive weight) hand jokers, then loose ones.
    fn joker_credit(&self, before: u8, more: u8) -> i32 {
        self.spec.joker_value(before + more).1 - self.spec.joker_value(before).1
    }

    fn hand_joker_used(&self, jokers: u8) -> bool {
        self.spec.joker_value(jokers).0 > 0
    }

    fn over_limit(&self) -> bool {
        self.limit.is_some_and(|l| self.explored > l)
            || (self.spec.strict_copies && strict_over(self.explored - self.counted))
    }

    /// States generated so far (for tests and benchmarks).
    pub fn explored(&self) -> usize {
        self.explored
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A fewest-changes test where a card has no group at all (the 9 of
    /// spades: no other 9, no 8 or 10 of spades) is answered without a
    /// single state; one where every card has some group is still swept.
    #[test]
    fn a_stranded_card_ends_a_test_before_any_state() {
        let mut spec = Spec::new(AceMode::High, false);
        // 5, 6, 7 of hearts (suit 1) and the 9 of spades (suit 0).
        for f in [13 + 4, 13 + 5, 13 + 6, 8] {
            spec.must[f] = 1;
        }
        let mut sw = Sweep::new(&spec);
        sw.limit = Some(1000);
        assert_eq!(sw.best(), None);
        assert_eq!(sw.explored(), 0);
        // The same without the 9: a layout, found by walking.
        spec.must[8] = 0;
        let mut sw = Sweep::new(&spec);
        sw.limit = Some(1000);
        assert_eq!(sw.best(), Some(0));
        assert!(sw.explored() > 0);
        // Not a test (no limit): the sweep decides as before.
        spec.must[8] = 1;
        let mut sw = Sweep::new(&spec);
        assert_eq!(sw.best(), None);
        // A joker may fill one gap: the 9 still has no group with one, so
        // the test ends at once; with two it might (a set of three).
        spec.jokers_must = 1;
        let mut sw = Sweep::new(&spec);
        sw.limit = Some(1000);
        assert_eq!(sw.best(), None);
        assert_eq!(sw.explored(), 0);
        spec.jokers_must = 2;
        let mut sw = Sweep::new(&spec);
        sw.limit = Some(1000);
        sw.best();
        assert!(sw.explored() > 0);
    }

    /// Two fives of hearts and one 6-7: each five has a window, but the
    /// second has no group of its own (no other five, one run through 5):
    /// refused before any state; without the limit the sweep agrees.
    #[test]
    fn more_copies_than_groups_end_a_test_before_any_state() {
        for ace in [AceMode::High, AceMode::Low, AceMode::Either] {
            let mut spec = Spec::new(ace, false);
            spec.must[13 + 4] = 2;
            spec.must[13 + 5] = 1;
            spec.must[13 + 6] = 1;
            let mut sw = Sweep::new(&spec);
            sw.limit = Some(1000);
            assert_eq!(sw.best(), None);
            assert_eq!(sw.explored(), 0);
            assert_eq!(Sweep::new(&spec).best(), None);
            // With a second 6 and 7 both fives have a run.
            spec.must[13 + 5] = 2;
            spec.must[13 + 6] = 2;
            let mut sw = Sweep::new(&spec);
            sw.limit = Some(1000);
            assert_eq!(sw.best(), Some(0));
        }
        // Two aces of hearts, ace high, with K and Q: one run A-K-Q.
        let mut spec = Spec::new(AceMode::High, false);
        spec.must[13] = 2;
        spec.must[13 + 12] = 1;
        spec.must[13 + 11] = 1;
        let mut sw = Sweep::new(&spec);
        sw.limit = Some(1000);
        assert_eq!(sw.best(), None);
        assert_eq!(sw.explored(), 0);
    }

    /// A big test with a wild joker (a run of 2-Q in each suit and a joker
    /// that must go down) is answered by the walk, without a sweep.
    #[test]
    fn a_big_test_with_a_joker_is_walked() {
        let mut spec = Spec::new(AceMode::High, false);
        for s in 0..4 {
            for r in 1..12 {
                spec.must[s * 13 + r] = 1;
            }
        }
        spec.jokers_must = 1;
        STATS.with(|c| c.set(Stats::default()));
        let mut sw = Sweep::new(&spec);
        sw.limit = Some(TEST_LIMIT_FOR_TESTS);
        assert_eq!(sw.best(), Some(0));
        let st = STATS.with(|c| c.get());
        assert_eq!(st.first_path_walks, 1);
        assert_eq!(st.beam_sweeps + st.exact_sweeps, 0);
    }

    const TEST_LIMIT_FOR_TESTS: usize = 40_000;

    /// The sweeps one `best` of `spec` (with `at_least`) runs: narrow, exact.
    fn sweeps_of(spec: &Spec, at_least: Option<i32>) -> (Option<i32>, u64, u64) {
        STATS.with(|c| c.set(Stats::default()));
        let mut sw = Sweep::new(spec);
        sw.at_least = at_least;
        let v = sw.best();
        let st = STATS.with(|c| c.get());
        (v, st.beam_sweeps, st.exact_sweeps)
    }

    /// A hand of 3-4-5 of spades and the fives of hearts and diamonds, ace
    /// high: the five of spades goes to the run or to the set, so the best
    /// play is three cards, below the bound of five. So few states that the
    /// narrow sweep drops none: it was the exact sweep, and its play the
    /// answer (before, an exact sweep with a floor of four ran too and found
    /// nothing).
    /// The options table is kept between sweeps, step by step, where the
    /// spec reads the same (`Scratch::new_spec`): a sweep after others whose
    /// specs differ from it in one face or in the jokers finds what it
    /// finds on a thread of its own (an option kept from another spec would
    /// place a copy that is not there, or drop one that is).
    #[test]
    fn options_kept_from_other_specs_are_those_a_spec_makes() {
        let mut base = Spec::new(AceMode::Either, true);
        // Hand: 5-8 of hearts, the 5 of spades and diamonds, the ace and 2
        // of clubs; table: the 3 and 4 of clubs.
        for f in [13 + 4, 13 + 5, 13 + 6, 13 + 7, 4, 26 + 4, 39, 40] {
            base.hand[f] = 1;
        }
        for f in [39 + 2, 39 + 3] {
            base.must[f] = 1;
        }
        let mut specs = vec![base.clone()];
        let mut one = |change: &dyn Fn(&mut Spec)| {
            let mut spec = base.clone();
            change(&mut spec);
            specs.push(spec);
        };
        one(&|s| s.hand[13 + 5] = 0);
        one(&|s| s.hand[26 + 4] = 0);
        one(&|s| s.loose[26 + 4] = 1);
        one(&|s| s.must[13 + 8] = 1);
        one(&|s| s.weight[13 + 7] = 5);
        one(&|s| s.weight[4] = -1);
        one(&|s| s.run_only[39 + 2] = 1);
        one(&|s| s.set_only[39 + 3] = 1);
        // The ace of clubs down, held to a run (then to its high end): the
        // two specs differ in that alone.
        let ace_to_run = |s: &mut Spec| {
            s.hand[39] = 0;
            s.must[39] = 1;
            s.run_only[39] = 1;
        };
        one(&ace_to_run);
        one(&|s| {
            ace_to_run(s);
            s.run_only_high_ace[3] = 1;
        });
        one(&|s| s.joker_face_cap[13 + 8] = 0);
        one(&|s| s.jokers_hand = 1);
        one(&|s| s.need_hand = true);
        one(&|s| s.ace = AceMode::Low);
        let found = |spec: &Spec| format!("{:?}", Sweep::new(spec).path());
        let alone: Vec<String> = specs
            .iter()
            .map(|spec| {
                let spec = spec.clone();
                std::thread::spawn(move || found(&spec))
                    .join()
                    .expect("a sweep")
            })
            .collect();
        // One thread: each spec after the base and after the one before it.
        std::thread::spawn(move || {
            for (i, spec) in specs.iter().enumerate() {
                assert_eq!(found(&specs[0]), alone[0]);
                assert_eq!(found(spec), alone[i], "spec {i} after the base");
                if i + 1 < specs.len() {
                    assert_eq!(
                        found(&specs[i + 1]),
                        alone[i + 1],
                        "spec {} after {i}",
                        i + 1
                    );
                }
            }
        })
        .join()
        .expect("the same sweeps");
    }

    #[test]
    fn a_narrow_sweep_that_dropped_nothing_is_the_answer() {
        let mut spec = Spec::new(AceMode::High, false);
        for f in [2, 3, 4, 13 + 4, 26 + 4] {
            spec.hand[f] = 1;
        }
        assert_eq!(sweeps_of(&spec, None), (Some(3), 1, 0));
    }

    /// With a floor from outside (a better branch, a better ace split) the
    /// exact sweep alone runs: a narrow sweep with that floor mostly finds
    /// nothing, or a play only a little above it. Strict copies mode keeps
    /// its narrow sweep (see `solve_node`).
    #[test]
    fn a_floor_from_outside_goes_straight_to_the_exact_sweep() {
        let mut spec = Spec::new(AceMode::High, false);
        for s in 0..4 {
            for r in 1..8 {
                spec.hand[s * 13 + r] = 1;
            }
        }
        spec.hand[9] = 1;
        spec.jokers_hand = 2;
        let (best, beams, _) = sweeps_of(&spec, None);
        assert!(beams > 0);
        let (v, beams, exact) = sweeps_of(&spec, best.map(|b| b - 1));
        assert_eq!((v, beams, exact), (best, 0, 1));
        spec.strict_copies = true;
        spec.joker_face_cap = [2; 52];
        let (v, beams, _) = sweeps_of(&spec, best.map(|b| b - 1));
        assert_eq!((v, beams), (best, 1));
    }

    /// A narrow sweep that kept fewer states than there were is not taken
    /// for the exact one (`run_was_exact`), and one that kept them all is.
    #[test]
    fn a_narrow_sweep_that_dropped_states_is_not_exact() {
        let mut spec = Spec::new(AceMode::High, false);
        for s in 0..4 {
            for r in 1..8 {
                spec.hand[s * 13 + r] = 1;
            }
        }
        spec.jokers_hand = 2;
        let mut sw = Sweep::new(&spec);
        let gains = sw.gains();
        let mut scratch = Scratch {
            pool: Vec::new(),
            map: StateMap::new(),
            cache: vec![OptionSlot::default(); OPTION_KEYS],
            spec_sig: None,
            steps: Vec::new(),
            cache_generation: 0,
            opts: Vec::new(),
            walk: FirstPath {
                failed: FailedSet::new(),
                moves: Vec::new(),
                opts: Vec::new(),
            },
            sets_reach: SetsReach::new(),
            prune_order: Vec::new(),
            prune_kept: Vec::new(),
        };
        scratch.new_spec(&spec, sw.first, sw.last, sw.aces_in_state);
        // (Two states a step may lose the way: the answer does not matter.)
        let _ = sw.run(&mut scratch, &gains, Some(2));
        assert!(!sw.run_was_exact());
        assert!(sw.run(&mut scratch, &gains, Some(1 << 20)).is_some());
        assert!(sw.run_was_exact());
        assert!(sw.run(&mut scratch, &gains, None).is_some());
        assert!(sw.run_was_exact());
    }

    /// Each option's precomputed `add` is the automaton state, run jokers
    /// and sets code that `next_key` wrote from its fields before.
    #[test]
    fn an_options_add_is_its_fields_packed() {
        let mut spec = Spec::new(AceMode::Either, false);
        for f in [0, 1, 2, 13, 14, 26, 39, 40, 41, 4, 17, 30, 43] {
            spec.must[f] = 1;
            spec.hand[f] = 1;
        }
        spec.jokers_hand = 2;
        let sw = Sweep::new(&spec);
        let trans = &sw.dfa.trans;
        let mut seen = 0;
        for p in [1u8, 2, 3, 5] {
            for s in 0..4 {
                let f = s * 13 + usize::from(p) - 1;
                let face = FaceStep {
                    f,
                    p,
                    max_total: spec.must[f] + spec.hand[f],
                    min_total: spec.must[f],
                };
                for d in 0..trans.len() {
                    for jokers in 0..=2 {
                        let mut out = Vec::new();
                        sw.options(&face, s, d, jokers, 0, trans, &mut out);
                        for o in &out {
                            let c = o.choice;
                            let mut want = (u64::from(o.d2) << (D_BITS * s as u32))
                                + (u64::from(c.jok_r) << JOKER_SHIFT);
                            if c.to_sets > 0 {
                                want += u64::from(POW5[usize::from(c.to_sets) - 1]) << SETS_SHIFT;
                            }
                            assert_eq!(o.add, want);
                            seen += 1;
                        }
                    }
                }
            }
        }
        assert!(seen > 100);
    }

    /// The state map keeps every key's index while it grows past its first
    /// size (the grow check after an insert), and a new generation empties it.
    #[test]
    fn the_state_map_keeps_its_keys_while_it_grows() {
        let mut map = StateMap::new();
        let key = |i: u64| i.wrapping_mul(0x9e37_79b9_7f4a_7c15) >> 10;
        for round in 0..2 {
            for i in 0..5000u64 {
                assert_eq!(map.get_or_insert(key(i), i as u32), None, "round {round}");
            }
            assert!(map.slots.len() >= 2 * 5000);
            for i in 0..5000u64 {
                assert_eq!(map.get_or_insert(key(i), u32::MAX), Some(i as u32));
            }
            map.clear();
        }
    }

    /// The five of the second suit goes to the set of fives (the walk's
    /// first choice) or to the run 5-8 (the guide's): a guided walk follows
    /// the guide.
    #[test]
    fn the_walk_tries_the_guides_choice_first() {
        let mut spec = Spec::new(AceMode::High, false);
        for f in [4, 13 + 4, 26 + 4, 39 + 4, 13 + 5, 13 + 6, 13 + 7] {
            spec.must[f] = 1;
        }
        let five = |sw: &mut Sweep<'_>| match sw.path().map(|(_, m)| m[2]) {
            Some(Move::Suit(c)) => Some(c.nat_r),
            _ => None,
        };
        let mut sw = Sweep::new(&spec);
        sw.limit = Some(1000);
        assert_eq!(five(&mut sw), Some(0));
        let mut guide: Guide = [[None; 4]; 15];
        guide[5][1] = Some(Choice {
            nat_r: 1,
            jok_r: 0,
            to_sets: 0,
            used: 1,
        });
        let mut sw = Sweep::new(&spec);
        sw.limit = Some(1000);
        sw.guide = Some(guide);
        assert_eq!(five(&mut sw), Some(1));
        assert_eq!(sw.best(), Some(0));
    }

    /// The remembered answers are the computed ones, asked twice.
    #[test]
    fn sets_code_answers_are_remembered_right() {
        for _ in 0..2 {
            for code in 0..625u16 {
                for j in 0..8u8 {
                    for one in [false, true] {
                        assert_eq!(
                            sets_code_feasible(code, j, one),
                            decode_sets_feasible(code, j, one)
                        );
                    }
                }
            }
        }
    }

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

    /// A small seeded generator for the tests below.
    fn lcg(state: &mut u64) -> u64 {
        *state = state
            .wrapping_mul(6_364_136_223_846_793_005)
            .wrapping_add(1_442_695_040_888_963_407);
        *state >> 33
    }

    /// [`RunReach`] only drops states that cannot end in a play: on random
    /// specs (every ace mode, wild jokers, hand and loose copies; best value
    /// and fewest-changes tests; plain and strict copies mode, whose caps only
    /// narrow the completions `RunReach` over-approximates) the answer is the same with it and without.
    /// (Not always with fewer states: the narrow sweep may keep other states
    /// and give the exact one another floor.)
    /// Random specs with wild jokers (table and hand), most cards and most
    /// points, each at floors around its optimum: the cut by the jokers left
    /// (`joker_gains`) gives the same answer as the plain cut.
    #[test]
    fn joker_gains_never_change_an_answer() {
        let mut seed = 11u64;
        for case in 0..400 {
            let ace = [AceMode::Either, AceMode::High, AceMode::Low][case % 3];
            let mut spec = Spec::new(ace, case % 7 == 6);
            let faces = 4 + lcg(&mut seed) % 12;
            for _ in 0..faces {
                let f = (lcg(&mut seed) % 3 * 13 + lcg(&mut seed) % 8) as usize;
                match lcg(&mut seed) % 3 {
                    0 => spec.must[f] = (spec.must[f] + 1).min(2),
                    1 => spec.hand[f] = (spec.hand[f] + 1).min(2),
                    _ => spec.loose[f] = (spec.loose[f] + 1).min(2),
                }
            }
            // Aces and kings too (the ace ends).
            if case % 2 == 0 {
                spec.hand[13 * (case % 4) + 12] += 1;
                spec.hand[13 * ((case + 1) % 4)] += 1;
            }
            spec.jokers_must = (lcg(&mut seed) % 3) as u8;
            spec.jokers_hand = (lcg(&mut seed) % 2) as u8;
            if case % 4 >= 2 {
                // Most points.
                for f in 0..52 {
                    spec.weight[f] = (f % 13).min(9) as i32 + 1;
                }
                spec.joker_weight = 20;
            }
            let run = |bound: bool, at_least: Option<i32>| {
                let mut sw = Sweep::new(&spec);
                sw.joker_bound = bound;
                sw.at_least = at_least;
                sw.best()
            };
            let best = run(false, None);
            assert_eq!(run(true, None), best, "case {case}: {spec:?}");
            let Some(b) = best else {
                continue;
            };
            // (Below its floor a search may answer a play or none: of no
            // interest either way.)
            for at in [b - 2, b, b + 1] {
                let of_interest = |v: Option<i32>| v.filter(|&v| v >= at);
                assert_eq!(
                    of_interest(run(true, Some(at))),
                    of_interest(run(false, Some(at))),
                    "case {case} at {at}: {spec:?}"
                );
            }
        }
    }

    /// A hand card with no group but one of two jokers (9S: no 8S, 10S, JS
    /// or other nine), both jokers on the table: once they are placed the
    /// exact sweep drops every state that would still need the 9S to reach
    /// its floor, which the plain cut (every hand card counted at every
    /// step) keeps. Fewer states, the same optimum.
    #[test]
    fn a_card_needing_jokers_counts_only_while_they_are_left() {
        let mut spec = Spec::new(AceMode::High, false);
        for s in 0..3 {
            for r in 1..5 {
                spec.must[s * 13 + r] = 1;
            }
            spec.hand[s * 13 + 5] = 1;
        }
        spec.hand[8] = 1;
        spec.jokers_must = 2;
        let sweep = |bound: bool| {
            STATS.with(|c| c.set(Stats::default()));
            let mut sw = Sweep::new(&spec);
            sw.joker_bound = bound;
            let v = sw.best();
            (v, STATS.with(|c| c.get()).states)
        };
        let (v_plain, states_plain) = sweep(false);
        let (v, states) = sweep(true);
        assert_eq!(v, v_plain);
        assert_eq!(v, Some(4));
        assert!(states < states_plain, "{states} against {states_plain}");
        let mut sw = Sweep::new(&spec);
        let g = sw.joker_gains();
        // Before any step: the 9S needs two jokers; the sixes none.
        assert_eq!(g[0][2] - g[0][1], 1);
        assert_eq!(g[0][1], g[0][0]);
    }

    #[test]
    fn run_reach_never_changes_an_answer() {
        let mut seed = 7u64;
        for case in 0..300 {
            let ace = [AceMode::High, AceMode::Low, AceMode::Either][case % 3];
            let mut spec = Spec::new(ace, false);
            let faces = 4 + lcg(&mut seed) % 10;
            for _ in 0..faces {
                // Two neighbouring suits and a few ranks, so groups are likely.
                let f = (lcg(&mut seed) % 2 * 13 + lcg(&mut seed) % 6) as usize;
                match lcg(&mut seed) % 3 {
                    0 => spec.must[f] = (spec.must[f] + 1).min(2),
                    1 => spec.hand[f] = (spec.hand[f] + 1).min(2),
                    _ => spec.loose[f] = (spec.loose[f] + 1).min(2),
                }
            }
            spec.jokers_hand = (lcg(&mut seed) % 3) as u8;
            let test = case % 2 == 1;
            if test {
                // A fewest-changes test: everything must go down.
                for f in 0..52 {
                    spec.must[f] += spec.hand[f] + spec.loose[f];
                    spec.hand[f] = 0;
                    spec.loose[f] = 0;
                }
                spec.jokers_must = spec.jokers_hand;
                spec.jokers_hand = 0;
            }
            // Strict copies mode on half the cases, each face capped at one
            // or two copies (its jokers named within the rooms left).
            if case % 4 >= 2 {
                spec.strict_copies = true;
                for f in 0..52 {
                    spec.joker_face_cap[f] = 1 + (lcg(&mut seed) % 2) as u8;
                }
            }
            let run = |reach: bool| {
                let mut sw = Sweep::new(&spec);
                sw.reach = reach;
                if test {
                    sw.limit = Some(1_000_000);
                }
                sw.best()
            };
            assert_eq!(run(true), run(false), "case {case}: {spec:?}");
        }
    }

    /// A hand run that can never close (9 and 10 of spades, no jack, no
    /// other nine or ten) costs the optimum's sweeps states at every step
    /// until the jack's place shows it dead; [`RunReach`] drops it where it
    /// opens.
    #[test]
    fn run_reach_drops_a_run_that_cannot_close() {
        let mut spec = Spec::new(AceMode::High, false);
        // 5, 6, 7, 8 of hearts on the table; 4 of hearts, 9 and 10 of
        // spades in hand.
        for f in [13 + 4, 13 + 5, 13 + 6, 13 + 7] {
            spec.must[f] = 1;
        }
        for f in [13 + 3, 8, 9] {
            spec.hand[f] = 1;
        }
        let run = |reach: bool| {
            let mut sw = Sweep::new(&spec);
            sw.reach = reach;
            (sw.best(), sw.explored())
        };
        let (with, with_states) = run(true);
        let (without, without_states) = run(false);
        assert_eq!(with, Some(1));
        assert_eq!(with, without);
        assert!(
            with_states < without_states,
            "{with_states} states with, {without_states} without"
        );
    }

    /// Strict copies mode at ace-either, aces of several suits at both ends
    /// and wild jokers, caps of one or two copies: the jokers-left cap on
    /// the low end's rooms (which also bounds the high end's natural aces)
    /// never changes an answer (see [`SuitStep::strict_next_key`]).
    fn strict_aces_cases(n: usize, seed0: u64) {
        let mut seed = seed0;
        let mut differ = 0;
        for case in 0..n {
            let mut spec = Spec::new(AceMode::Either, false);
            let copies = 1 + (case % 2) as u8;
            let faces = 5 + lcg(&mut seed) % 9;
            for _ in 0..faces {
                // Aces over-represented; the ranks next to both ends.
                let suit = lcg(&mut seed) % 4;
                let rank = [0, 0, 0, 1, 2, 10, 11, 12][(lcg(&mut seed) % 8) as usize];
                let f = (suit * 13 + rank) as usize;
                match lcg(&mut seed) % 3 {
                    0 => spec.must[f] = (spec.must[f] + 1).min(copies),
                    _ => spec.hand[f] = (spec.hand[f] + 1).min(copies),
                }
                if spec.must[f] + spec.hand[f] > copies {
                    spec.hand[f] = copies - spec.must[f];
                }
            }
            spec.jokers_hand = 1 + (lcg(&mut seed) % 3) as u8;
            spec.jokers_must = (lcg(&mut seed) % 2) as u8;
            // Now and then a table ace held to the high end (an anchored
            // joker counted as a copy, strict Vatikan), which cannot swap.
            if case % 3 == 2 {
                let f = (lcg(&mut seed) % 4 * 13) as usize;
                if spec.must[f] > 0 {
                    spec.run_only[f] = 1;
                    spec.run_only_high_ace[f / 13] = 1;
                }
            }
            spec.strict_copies = true;
            for f in 0..52 {
                spec.joker_face_cap[f] = copies;
            }
            let run = |no_cap: bool| {
                NO_ROOM_CAP.with(|c| c.set(no_cap));
                let r = Sweep::new(&spec).best();
                NO_ROOM_CAP.with(|c| c.set(false));
                r
            };
            let (with, without) = (run(false), run(true));
            differ += usize::from(with.is_some() || without.is_some());
            assert_eq!(with, without, "case {case}: {spec:?}");
        }
        // The cases have plays to compare.
        assert!(differ > n / 2, "{differ} of {n} with a play");
    }

    #[test]
    fn strict_aces_room_cap_loses_nothing() {
        strict_aces_cases(300, 11);
    }

    /// The longer run of [`strict_aces_room_cap_loses_nothing`].
    #[test]
    #[ignore]
    fn long_strict_aces_room_cap_loses_nothing() {
        strict_aces_cases(5000, 12);
    }

    /// The swap the cap relies on: one joker, three aces and the joker in a
    /// set at the low end (named for suit 0's ace), queen, king and ace of
    /// suit 0 at the high end. The cap refuses that layout; the swapped one (ace of
    /// spades in the set, the joker as the high ace) places every card.
    #[test]
    fn strict_aces_swap_places_every_card() {
        let mut spec = Spec::new(AceMode::Either, false);
        for f in [13, 26, 39, 11, 12, 0] {
            spec.hand[f] = 1;
        }
        spec.jokers_hand = 1;
        spec.strict_copies = true;
        // No room for a joker as the jack of spades (Q, K and the ace
        // would take it otherwise): the joker stands for the ace of spades.
        spec.joker_face_cap = [2; 52];
        spec.joker_face_cap[10] = 0;
        assert_eq!(Sweep::new(&spec).best(), Some(7));
        // One copy of the ace of spades: the joker may not stand for it, so
        // six at most.
        spec.joker_face_cap[0] = 1;
        assert_eq!(Sweep::new(&spec).best(), Some(6));
    }

    /// An ace held to the high end (an anchored joker counted as a copy,
    /// Vatikan) cannot swap with a low set joker named for it: the room
    /// left at the low end counts it (before, the jokers-left cap refused
    /// the set of three hand aces and the hand joker: 3 instead of 4).
    #[test]
    fn strict_aces_anchored_high_ace_keeps_its_room() {
        let mut spec = Spec::new(AceMode::Either, false);
        for f in [11, 12, 0] {
            spec.must[f] = 1;
        }
        spec.run_only[0] = 1;
        spec.run_only_high_ace[0] = 1;
        for f in [13, 26, 39] {
            spec.hand[f] = 1;
        }
        spec.jokers_hand = 1;
        spec.strict_copies = true;
        spec.joker_face_cap = [2; 52];
        spec.joker_face_cap[10] = 0;
        let run = |no_cap: bool| {
            NO_ROOM_CAP.with(|c| c.set(no_cap));
            let r = Sweep::new(&spec).best();
            NO_ROOM_CAP.with(|c| c.set(false));
            r
        };
        assert_eq!(run(false), Some(4));
        assert_eq!(run(true), Some(4));
    }

    /// Set jokers named within the rooms of the copies rule.
    #[test]
    fn named_set_splits() {
        // Two naturals and a joker: it must take a missing suit with room.
        assert_eq!(split_sets_named([1, 1, 0, 0], [0; 4], 1, false), None);
        assert_eq!(
            split_sets_named([1, 1, 0, 0], [0, 0, 0, 1], 1, false),
            Some(vec![(0b0011, 0b1000)])
        );
        // A suit in every set leaves no set for a joker of its name.
        assert_eq!(split_sets_named([1, 1, 0, 0], [2, 0, 0, 0], 1, false), None);
        // Two sets of two naturals: one joker each, two suits (or one suit
        // with room for both, each set lacking it).
        assert!(split_sets_named([2, 2, 0, 0], [0, 0, 1, 1], 2, false).is_some());
        assert!(split_sets_named([2, 2, 0, 0], [0, 0, 2, 0], 2, false).is_some());
        assert_eq!(split_sets_named([2, 2, 0, 0], [0, 0, 1, 0], 2, false), None);
        // Without jokers, as the plain split.
        for c in [[1, 1, 1, 0], [2, 2, 1, 1], [2, 1, 1, 0], [1, 1, 0, 0]] {
            assert_eq!(
                split_sets_named(c, [0; 4], 0, false).is_some(),
                sets_feasible(c, 0, false),
                "{c:?}"
            );
        }
    }

    /// Each strict sets code stands for one multiset of (set copies, room)
    /// pairs: the weights give distinct sums, and a code decodes to its pairs.
    #[test]
    fn strict_sets_codes_are_unique() {
        const PAIRS: [(u8, u8); 6] = [(0, 0), (0, 1), (0, 2), (1, 0), (1, 1), (2, 0)];
        let codes = strict_codes();
        for i in 0..6usize.pow(4) {
            let pick: [(u8, u8); 4] = std::array::from_fn(|k| PAIRS[i / 6usize.pow(k as u32) % 6]);
            let code: u16 = pick.iter().map(|&(c, r)| strict_weight(c, r)).sum();
            let Some((c, r)) = codes.pairs[usize::from(code)] else {
                panic!("code {code} of {pick:?} decodes to nothing");
            };
            let mut got: Vec<(u8, u8)> = (0..4).map(|s| (c[s], r[s])).collect();
            let mut want = pick.to_vec();
            got.sort_unstable();
            want.sort_unstable();
            assert_eq!(got, want, "code {code}");
        }
    }

    /// The aces' set step at the low end: each joker's name within its
    /// suit's room, and the room left carried (3: no limit for a suit no
    /// joker took).
    #[test]
    fn low_ace_namings_carry_the_rooms_left() {
        let mut out = Vec::new();
        // Set copies of suits 0 and 1, rooms 1 for suits 2 and 3.
        let code = POW5[0] + POW5[1];
        let rooms = (1 << 4) | (1 << 6);
        low_ace_namings(code, rooms, 1, &mut out);
        out.sort_unstable();
        // Named for suit 2 (left 0, suit 3 free) or for suit 3.
        assert_eq!(out, vec![0b0011_1111, 0b1100_1111]);
        // No room at all: no naming.
        low_ace_namings(code, 0, 1, &mut out);
        assert!(out.is_empty());
        // A run joker on suit 0's low ace limits suit 0's high end too.
        let code = 3 + POW5[1] + POW5[2] + POW5[3];
        low_ace_namings(code, 0b10 << 6, 0, &mut out);
        assert_eq!(out, vec![0b1111_1100]);
    }
}
