//! The searches that take over when the unrestricted finder's play breaks a rule
//! the sweep does not model ([`crate::legal`]). Each is legal by construction
//! for the rule it restricts, and every play it keeps is checked again all the
//! same (a play the engine would refuse is passed over, never returned).
//!
//! Both go over the branches of the table rules ([`Position::branches`]); a
//! branch whose unrestricted optimum (a sweep floored by the best legal play so
//! far) cannot beat that play is passed over, since its joker groups are groups
//! the unrestricted sweep could make; the search ends at the unrestricted
//! optimum. Within a branch, combinations of joker groups go best first.
//!
//! - Vatikan: a joker with a neighbour on one side only is laid first in a piece
//!   of run with that neighbour: the run through the two places widened by up
//!   to two each way, or by three on one side only, natural cards from the
//!   hand or the rebuilt table (every way), and one place may hold a second
//!   joker (the deck has two): the hand's, a free table joker (its real card
//!   down) under that place's name, or an anchored table joker at its own
//!   place beside a card that was next to it (session 7). Any run holding
//!   both places splits into such a piece and runs of three or more, which
//!   the sweep makes. A needy joker that another one's piece holds needs no
//!   piece of its own; each table joker lies in one piece at most. A joker
//!   with neighbours on both sides keeps one in any run of its place, a set
//!   joker in any set of its rank: the sweep holds those already. As a
//!   fallback, the group of a joker that still loses its neighbours is kept
//!   whole (it may only grow with hand cards).
//! - Tahiti: no joker goes to the sweep. Each joker (from the hand, or freed by
//!   its real card) is laid first in a joker group the rules allow: hand cards
//!   and cards that were with a freed joker, or one old joker-free group kept
//!   whole plus hand cards (the joker named for a card with a copy off the
//!   table: see [`name`]); the rest is swept without jokers, the hand
//!   copies of a joker's only name held to what the copies rule leaves.
//!   The best play's nodes see the copies rule on the names too
//!   ([`CopiesLeft`]: no combination whose names take every copy, and a
//!   joker still to lay keeps a copy of its name off the table). The best play
//!   (most cards, most points) searches the combinations best bound first
//!   with no cap on options or combinations, the branches in turns
//!   ([`tahiti_exact`]): exact unless its safety net ([`TAHITI_STATES`])
//!   stops it. Mid-game it rarely does. On full tables, where each joker's
//!   name keeps a hand card off the table, a search that runs long also
//!   takes a priced (Lagrangian) bound on each branch ([`Walk::lagrange`]):
//!   since session 17 the most-cards search ends within the net on the
//!   probe's full tables, and the most-points one still bites on about one
//!   in five. The hint lists combinations best
//!   first under the caps ([`tahiti`]); so does, without caps, the reference
//!   the tests hold the best play to (`internal::restricted_caps(false)`).
//!
//! Inexact, so a legal play may be missed: the caps below (on Vatikan only
//! the state budget has been seen to bite, on full tables: `finder_exact`'s
//! ignored `vatikan_caps_against_the_uncapped_search`); a branch whose best
//! layout still breaks the joker names or copies rule after renaming and
//! swapping ([`legal::rename_set_jokers`]) gives nothing rather than its next
//! best (the finder is then run again with a hand joker held back, so a next
//! best play that keeps the joker elsewhere at a lower value is missed; in
//! the Vatikan positions looked at, a free joker the sweep named for a card
//! whose copies are down, which also made the state budget bite there).
//! Vatikan, session 7: then the whole search runs again in strict copies
//! mode (`crate::solve_strict`, this search's sweeps included), legal by
//! construction for the copies rule, exact within its own state budget.
//! Since session 9 it runs first where the plain play itself broke the
//! copies rule, and its answer stands unless a cap bit in it (see
//! [`solve`]).

use crate::sweep::Sweep;
use crate::{
    Branch, Goal, JokerGroup, Kind, Play, Position, all_dissolvable, branch_groups, branch_top,
    finish, finish_best, legal, solve_unchecked, sweep_branch,
};
use rami_cards::{Card, Face, Rank, Suit};
use rami_melds::{RuleSet, joker_namings, validate_group};

/// Joker groups (or ways to take a group's cards) tried per joker, the
/// largest first (Tahiti's hint; a Vatikan piece has at most 32 ways, so
/// none is cut).
const OPTIONS_PER_JOKER: usize = 64;
/// Combinations of joker groups tried per branch of the table rules
/// (Vatikan, Tahiti's hint). On Vatikan a safety net: it never bit in
/// session 7's measure (30,000 solves, BENCHMARKS).
const COMBOS_PER_BRANCH: usize = 400;
/// Sweeps one restricted search may run (floored branch sweeps included;
/// Vatikan, Tahiti's hint). On Vatikan a safety net, as above.
const SWEEPS: usize = 2000;
/// Sweep states one restricted search may explore: on full Tahiti tables 2,000
/// sweeps took seconds; past this budget the best legal play found so far
/// stands (deterministic: states, not time). Tahiti's best play has its own
/// ([`TAHITI_STATES`]). On full Vatikan tables it bites
/// on about one solve in a hundred (5.2 million states on one without it)
/// and lowered 2 answers of 6,000 (session 7, BENCHMARKS): there, every
/// sweep's play was refused by the copies rule for a set joker the sweep
/// named, which no piece changes.
const STATES: u64 = 300_000;
/// Tahiti's best play's only cap, a safety net ([`tahiti_exact`]): sweep
/// states, past which the best legal play found so far stands. Session 12
/// raised it from 300,000: on 40 + 14 tables the answers below the uncapped
/// search fell from 18 of 400 to 7 (12 with the budget alone, the walks'
/// turns the rest), for 17% more states; on full tables, where the net
/// mostly bites, answers rose on 28 of 120 and fell on 3 (points), for 2.7
/// times the states (docs/BENCHMARKS.md, "Session 12, Tahiti's turns").
/// Session 13 raised it to ten million ("Session 13, Tahiti's safety
/// net"): on 40 + 14 tables it then bites on none of the 800 solves (7
/// before) and every answer is the uncapped search's (5 were below); on
/// 50 + 18 tables (`REACHABLE=1 probe tah 4 50 18 200`) it bit on 11 of
/// 106 plays and lowered 9; on full tables it still bites on 79 of
/// 120 (105), answers rise on 26 and fall on none, for 7.4 times the
/// states. The price is time where it bites (about 0.5 s a solve, release,
/// on this machine's full tables): chosen because the issue asks for the
/// exact optimum first; hints, which the game asks every turn, do not use
/// it, and computer players at the `best` level only.
const TAHITI_STATES: u64 = 10_000_000;

thread_local! {
    /// Off only in tests (`internal::restricted_caps`): how far the caps change
    /// answers is measured against the search without them.
    static CAPPED: std::cell::Cell<bool> = const { std::cell::Cell::new(true) };
    /// Times a cap cut a restricted search short on this thread.
    static BITES: std::cell::Cell<u64> = const { std::cell::Cell::new(0) };
}

/// `n`, or no cap at all when the caps are off.
fn cap(n: usize) -> usize {
    if CAPPED.with(|c| c.get()) {
        n
    } else {
        usize::MAX
    }
}

/// Whether the caps and budgets are on (off only in tests).
pub(crate) fn capped() -> bool {
    CAPPED.with(|c| c.get())
}

/// A cap cut something off.
pub(crate) fn bite() {
    BITES.with(|b| b.set(b.get() + 1));
}

/// This thread's bites so far, without resetting them: a search that bit
/// answered without proof.
pub(crate) fn bites_so_far() -> u64 {
    BITES.with(|b| b.get())
}

/// Tests: turn the caps on or off for this thread; the number of bites so far
/// (then reset).
pub(crate) fn caps(on: bool) -> u64 {
    CAPPED.with(|c| c.set(on));
    BITES.with(|b| b.replace(0))
}

/// Sweep states this thread has explored so far.
fn states_so_far() -> u64 {
    crate::sweep::STATS.with(|s| s.get().states)
}

/// The best play legal for the rules of [`legal`], after `first` failed with
/// `fault`. `None`: no play found (see the module doc for what is inexact).
pub(crate) fn solve(pos: &Position, goal: Goal, fault: legal::Fault, first: &Play) -> Option<Play> {
    let names_fault = matches!(fault, legal::Fault::Names);
    let ceiling = value_of(goal, first);
    let reached = |p: &Option<Play>| {
        p.as_ref()
            .is_some_and(|p| goal == Goal::Hint || value_of(goal, p) >= ceiling)
    };
    // Vatikan's best play where the plain play itself broke the copies rule
    // (or the joker names) and no renaming mended it, or is worth more than
    // the copies ceiling (so breaks it in any layout, whatever fault its
    // layout shows first; see `solve_unchecked`): the search below
    // starts out counting that as a refused play, so the strict copies
    // search (`crate::solve_strict`) ran after it whenever it fell short of
    // the plain optimum, mostly after spending its whole state budget on
    // plays the rule refuses (on full tables 59 of the 64 budget bites of
    // `vatikan_caps_against_the_uncapped_search` at `RAMI_CAPS_N=3000`). So
    // the strict search runs first there. A play of it worth the plain
    // optimum is the answer (checked legal; nothing legal beats that
    // optimum), and so is its answer (or none) when no cap or budget bit in
    // it: every legal play keeps the copies rule, so it is a play of the
    // strict search's sweeps; a strict play the anchoring or names rule
    // refuses goes on to this search in strict mode, whose sweeps hold
    // every play this search's hold that the copies rule allows, so this
    // search can add nothing. (Checked: with the uncapped reference running
    // both searches, the caps test agreed on all 30,000 solves at 3,000.)
    // Only a strict search a cap cut short leaves the search below to run,
    // as before, the better of the two standing.
    let strict_first = pos.rules == RuleSet::Vatikan
        && !pos.strict
        && goal != Goal::Hint
        && (names_fault || crate::copies_ceiling(pos, goal).is_some_and(|c| ceiling > c));
    let bites = bites_so_far();
    let early = if strict_first {
        crate::solve_strict(pos, goal, first)
    } else {
        None
    };
    let proved = strict_first && bites_so_far() == bites;
    if reached(&early) || proved {
        return early;
    }
    let before = NAMES_REFUSED.with(|r| r.replace(names_fault));
    let found = by_rules(pos, goal, fault, first);
    let refused = NAMES_REFUSED.with(|r| r.replace(before));
    let found = better(goal, found, early);
    if !refused || reached(&found) {
        return found;
    }
    // Vatikan: a play the copies rule refused, after renaming, was passed
    // over with every play below it in its branch (a free joker the sweep
    // named for a card whose copies are all down, #2129 of
    // `vatikan_caps_against_the_uncapped_search`). The search again in strict
    // copies mode (`crate::solve_strict`: its sweeps, this search's included,
    // keep the copies rule by construction) finds the best play the rule
    // allows; the better of the two stands, as both are checked legal.
    // (Not for a hint, which `hint_past_the_rules` serves; not within the
    // strict search itself; not twice.)
    let found =
        if pos.rules == RuleSet::Vatikan && !pos.strict && goal != Goal::Hint && !strict_first {
            let strict = crate::solve_strict(pos, goal, first);
            let best = better(goal, found, strict);
            if reached(&best) {
                return best;
            }
            best
        } else {
            found
        };
    if pos.hand_jokers == 0 {
        return found;
    }
    // The branches' sweeps place a hand joker where the copies rule can refuse
    // it (a set joker with no missing suit left): their plays are then passed
    // over, not replaced by their next best. When that happened, a play with
    // one hand joker held back is looked for too (the whole finder on the
    // smaller hand).
    let mut hand = pos.hand.clone();
    if let Some(i) = hand.iter().position(|c| c.is_joker()) {
        hand.remove(i);
    }
    let held = Position::new(pos.rules, pos.copies, &pos.table, &hand)
        .ok()
        .and_then(|p| crate::solve_position(p, goal).ok().flatten());
    better(goal, found, held)
}

/// The better of two plays (`a` on a tie), either of which may be missing.
fn better(goal: Goal, a: Option<Play>, b: Option<Play>) -> Option<Play> {
    match (a, b) {
        (Some(a), Some(b)) => Some(if value_of(goal, &b) > value_of(goal, &a) {
            b
        } else {
            a
        }),
        (a, b) => a.or(b),
    }
}

/// [`solve`] by the rule set's restricted search.
fn by_rules(pos: &Position, goal: Goal, fault: legal::Fault, first: &Play) -> Option<Play> {
    let ceiling = value_of(goal, first);
    match pos.rules {
        RuleSet::Vatikan => {
            let pieces = vatikan_pieces(pos, goal, ceiling);
            let bad = match fault {
                legal::Fault::Unanchored(bad) => bad,
                _ => Vec::new(),
            };
            if bad.is_empty()
                || pieces
                    .as_ref()
                    .is_some_and(|p| goal == Goal::Hint || value_of(goal, p) >= ceiling)
            {
                return pieces;
            }
            let whole = vatikan(pos, goal, bad);
            match (pieces, whole) {
                (Some(a), Some(b)) => Some(if value_of(goal, &b) > value_of(goal, &a) {
                    b
                } else {
                    a
                }),
                (a, b) => a.or(b),
            }
        }
        // The hint needs a legal play, not the best: the enumeration (capped)
        // serves it. With the caps off (tests), the enumeration lists every
        // combination: the reference the walk is measured against.
        RuleSet::Tahiti if goal == Goal::Hint || cap(1) != 1 => tahiti(pos, goal, ceiling),
        RuleSet::Tahiti => tahiti_exact(pos, goal, ceiling),
        _ => None,
    }
}

thread_local! {
    /// Whether this restricted search passed over a play the joker names or
    /// copies rule refused (no renaming mended it): only then can holding a
    /// hand joker back find a play it missed.
    static NAMES_REFUSED: std::cell::Cell<bool> = const { std::cell::Cell::new(false) };
}

/// `play` if legal, or made legal by naming a set joker for another suit.
fn legalize(pos: &Position, play: Play) -> Option<Play> {
    match legal::check(pos.rules, pos.copies, &pos.table, &play.table, &play.played) {
        Ok(()) => Some(play),
        Err(legal::Fault::Names) => {
            let mended = legal::rename_set_jokers(pos.rules, pos.copies, &pos.table, &play);
            if mended.is_none() {
                NAMES_REFUSED.with(|r| r.set(true));
            }
            mended
        }
        Err(_) => None,
    }
}

/// The best legal play so far and its value in the sweep's terms.
type Kept = Option<(i32, Play)>;

/// Sweeps `branch`; a better play replaces `best` only if it is legal (a play
/// the rules refuse is passed over, and the search goes on). `true` when the
/// sweep found a better play the rules refused.
fn consider(
    pos: &Position,
    goal: Goal,
    branch: Branch,
    dissolve: &[usize],
    best: &mut Kept,
) -> bool {
    let floor = best.as_ref().map(|(v, _)| v + 1);
    let Some(found) = sweep_branch(pos, goal, branch, dissolve, floor) else {
        return false;
    };
    let value = found.value;
    // The fewest changed groups first; if that keeps a group the rules no
    // longer allow as it was, the sweep's own layout.
    let play = match finish_best(pos, goal, found.clone()).and_then(|p| legalize(pos, p)) {
        Some(p) => Some(p),
        None if goal == Goal::Hint || value > 0 => legalize(pos, finish(pos, found, false)),
        None => None,
    };
    match play {
        Some(play) => {
            *best = Some((value, play));
            false
        }
        None => true,
    }
}

fn value_of(goal: Goal, play: &Play) -> i32 {
    match goal {
        Goal::MostCards => play.count as i32,
        Goal::MostPoints => play.points as i32,
        Goal::Hint => i32::MAX,
    }
}

/// Vatikan, the fallback: keep the groups of the jokers that lost their
/// neighbours whole, one round per new fault (at most one round per group).
fn vatikan(pos: &Position, goal: Goal, mut bad: Vec<usize>) -> Option<Play> {
    for _ in 0..=pos.table.len() {
        let mut kept = pos.clone();
        for &g in &bad {
            if let Some(k) = kept.kinds.get_mut(g) {
                *k = Kind::Frozen;
            }
        }
        let play = solve_unchecked(&kept, goal)?;
        match legal::check(pos.rules, pos.copies, &pos.table, &play.table, &play.played) {
            Ok(()) => return Some(play),
            Err(legal::Fault::Names) => return legalize(pos, play),
            Err(legal::Fault::Unanchored(more)) => {
                let before = bad.len();
                for g in more {
                    if !bad.contains(&g) {
                        bad.push(g);
                    }
                }
                if bad.len() == before {
                    return None;
                }
            }
            Err(legal::Fault::Tahiti) => return None,
        }
    }
    None
}

/// Vatikan: an anchored joker in a run with a neighbour on one side only (a
/// joker with neighbours on both sides keeps one in any run, and a set joker
/// keeps one in any set of its rank: the sweep already holds those).
struct Needy {
    at: (usize, usize),
    joker: Card,
    suit: usize,
    /// The joker's place (1 = low ace … 14 = high ace) and its neighbour's.
    p: u8,
    q: u8,
}

fn needy_jokers(pos: &Position, branch: &Branch, dissolve: &[usize]) -> Vec<Needy> {
    let mut out = Vec::new();
    for &g in dissolve {
        let group = &pos.table[g];
        for (i, &c) in group.iter().enumerate() {
            let Some(face) = c.declared() else { continue };
            if !matches!(
                pos.role(g, c, branch, i),
                crate::Role::Anchored(_, rami_melds::GroupKind::Run)
            ) {
                continue;
            }
            let rank = face.rank().value();
            let p = if rank != 1 {
                rank
            } else {
                match pos.rules.ace_mode() {
                    rami_melds::AceMode::Low => 1,
                    rami_melds::AceMode::High => 14,
                    // As the sweep holds it (`Spec::run_only_high_ace`).
                    rami_melds::AceMode::Either => {
                        let low = group
                            .iter()
                            .any(|c| c.face().is_some_and(|x| x.rank().value() == 2));
                        if low { 1 } else { 14 }
                    }
                }
            };
            let places: Vec<u8> = rami_melds::table_rules::neighbours(group, i)
                .iter()
                .map(|f| match f.rank().value() {
                    1 if p == 2 => 1,
                    1 => 14,
                    r => r,
                })
                .collect();
            let below = p > 1 && places.contains(&(p - 1));
            let above = places.contains(&(p + 1));
            let q = match (below, above) {
                (true, false) => p - 1,
                (false, true) => p + 1,
                _ => continue,
            };
            out.push(Needy {
                at: (g, i),
                joker: c,
                suit: face.suit().index(),
                p,
                q,
            });
        }
    }
    out
}

/// A table joker other than the needy one that may fill one place of its
/// piece (and then leaves the sweep): a free joker (its real card on the
/// table, or freed in the branch) under the name of any place, or an
/// anchored run joker at its own place when the piece holds a card that was
/// next to it.
struct Spare {
    at: (usize, usize),
    /// The anchored joker as it lies (named); `None`: a free joker.
    anchored: Option<Card>,
    /// The faces that were next to an anchored joker.
    near: Vec<Face>,
}

/// The table jokers of the rebuilt groups that may fill a place of a piece
/// in `branch` (see [`Spare`]); a set joker keeps a card of its rank, which
/// no piece of run holds.
fn spare_jokers(pos: &Position, branch: &Branch, dissolve: &[usize]) -> Vec<Spare> {
    let mut out = Vec::new();
    for &g in dissolve {
        let group = &pos.table[g];
        for (i, &c) in group.iter().enumerate() {
            if !c.is_joker() {
                continue;
            }
            let anchored = match pos.role(g, c, branch, i) {
                crate::Role::Wild => None,
                crate::Role::Anchored(_, rami_melds::GroupKind::Run) => Some(c),
                _ => continue,
            };
            out.push(Spare {
                at: (g, i),
                anchored,
                near: rami_melds::table_rules::neighbours(group, i),
            });
        }
    }
    out
}

/// One joker besides the needy one in a piece: its place, the card as laid,
/// and where it comes from (`None`: the hand).
type Extra = (u8, Card, Option<(usize, usize)>);

/// The pieces of run that can hold `n` with its neighbour: the run through
/// `n.q` and `n.p`, widened by up to two places each way, or by three on one
/// side only. Any run holding both splits into such a piece and runs of
/// three or more (the sweep's), so no legal play is lost by this: take the
/// places beyond each of the two into the piece when they are fewer than
/// three; if the piece still has two places, widen it by one on a side with
/// four or more beyond, else take in the three beyond one side. Made of
/// natural cards, each from the hand or the rebuilt table (every way), and
/// at most one more joker (the deck has two): the hand's or a free table
/// joker from `spares` at any place but the needy joker's, or an anchored
/// one from `spares` at its own place with a card that was next to it in
/// the piece.
fn pieces(
    pos: &Position,
    n: &Needy,
    hand: &Counts,
    table: &Counts,
    spares: &[Spare],
    names_down: &Counts,
) -> Vec<JokerGroup> {
    let rules = pos.rules.group_rules();
    let (lo, hi) = crate::sweep::ace_window(pos.rules.ace_mode());
    let (low, high) = (n.p.min(n.q), n.p.max(n.q));
    let mut out = Vec::new();
    let mut spans: Vec<(u8, u8)> = Vec::new();
    for a in low.saturating_sub(2).max(lo)..=low {
        for b in high..=high.saturating_add(2).min(hi) {
            if b - a >= 2 {
                spans.push((a, b));
            }
        }
    }
    // A run with exactly three places beyond one of the two and none beyond
    // the other (`4H 5H 6H *7H 8H` for `*7H` anchored to `8H`) splits only
    // with those three in the piece.
    if low >= lo + 3 {
        spans.push((low - 3, high));
    }
    if high + 3 <= hi {
        spans.push((low, high + 3));
    }
    for (a, b) in spans {
        // A joker under a new name: only for a card with a copy left (the
        // copies rule; `names_down`: natural copies on the table and jokers
        // keeping that name).
        let named = |x: u8| {
            face_at(x, n.suit)
                .filter(|f| names_down[f.index()] < pos.copies)
                .map(Card::named_joker)
        };
        // (A joker named for the neighbour's card keeps the needy joker
        // anchored as the engine judges it: by the faces in its group.)
        let mut extras: Vec<Option<Extra>> = vec![None];
        for x in (a..=b).filter(|&x| x != n.p) {
            if pos.hand_jokers > 0
                && let Some(j) = named(x)
            {
                extras.push(Some((x, j, None)));
            }
        }
        for s in spares.iter().filter(|s| s.at != n.at) {
            for x in (a..=b).filter(|&x| x != n.p) {
                let laid = match s.anchored {
                    None => named(x),
                    Some(j) => (j.declared() == face_at(x, n.suit)).then_some(j),
                };
                if let Some(j) = laid {
                    extras.push(Some((x, j, Some(s.at))));
                }
            }
        }
        for extra in extras {
            let faces: Option<Vec<Face>> = (a..=b)
                .filter(|&x| x != n.p && Some(x) != extra.map(|e| e.0))
                .map(|x| face_at(x, n.suit))
                .collect();
            let Some(faces) = faces else { continue };
            // An anchored spare keeps a card that was next to it.
            let near = extra
                .and_then(|(_, _, at)| spares.iter().find(|s| Some(s.at) == at))
                .filter(|s| s.anchored.is_some())
                .map(|s| &s.near[..]);
            if let Some(near) = near {
                let others = faces.iter().copied().chain(n.joker.declared());
                if !others.clone().any(|f| near.contains(&f)) {
                    continue;
                }
            }
            // No cap: a piece has at most five natural places (six places
            // but the needy joker's), so at most 32 ways to take them.
            for (mut hand_cards, taken) in sources(&faces, hand, table, usize::MAX) {
                let mut cards = taken.clone();
                cards.extend(hand_cards.iter().copied());
                cards.push(n.joker);
                let mut table_jokers = vec![n.at];
                if let Some((_, j, from)) = extra {
                    cards.push(j);
                    match from {
                        None => hand_cards.push(Card::JOKER),
                        Some(at) => table_jokers.push(at),
                    }
                }
                if validate_group(&cards, rules).is_err() {
                    continue;
                }
                out.push(JokerGroup {
                    cards,
                    hand: hand_cards,
                    taken,
                    kept: None,
                    table_jokers,
                });
            }
        }
    }
    out
}

/// Every way to take one copy of each of `faces` from the hand or the table
/// (at most `limit`): (hand cards, table cards).
fn sources(
    faces: &[Face],
    hand: &Counts,
    table: &Counts,
    limit: usize,
) -> Vec<(Vec<Card>, Vec<Card>)> {
    let mut out = vec![(Vec::new(), Vec::new())];
    for &f in faces {
        let c = Card::from_face(f);
        let mut next = Vec::new();
        for (h, t) in &out {
            if hand[f.index()] > 0 {
                let mut h = h.clone();
                h.push(c);
                next.push((h, t.clone()));
            }
            if table[f.index()] > 0 {
                let mut t = t.clone();
                t.push(c);
                next.push((h.clone(), t));
            }
        }
        if next.len() > limit {
            bite();
            next.truncate(limit);
        }
        out = next;
    }
    out
}

/// Vatikan: every branch of the table rules, each needy joker in each of its
/// pieces (all combinations, best first, up to the caps), the rest swept. A
/// needy joker another needy joker's piece holds (`*7H` in `4H 5H 6H *7H
/// *8H 9H`, both at an end of their old runs) may have no piece of its own.
fn vatikan_pieces(pos: &Position, goal: Goal, ceiling: i32) -> Option<Play> {
    let dissolve = all_dissolvable(pos);
    drive(pos, goal, ceiling, false, |branch, _| {
        let needy = needy_jokers(pos, branch, &dissolve);
        let spares = spare_jokers(pos, branch, &dissolve);
        // A real card that frees a joker may lie in a piece as well as anywhere.
        let hand = pos.hand_counts;
        let mut table = [0u8; 52];
        for &g in &dissolve {
            for c in &pos.table[g] {
                if let Some(f) = c.natural_face() {
                    table[f.index()] += 1;
                }
            }
        }
        let mut names_down = [0u8; 52];
        for (g, group) in pos.table.iter().enumerate() {
            for (i, &c) in group.iter().enumerate() {
                let keeps =
                    c.is_joker() && matches!(pos.role(g, c, branch, i), crate::Role::Anchored(..));
                if let Some(f) = c.face()
                    && (keeps || !c.is_joker())
                {
                    names_down[f.index()] += 1;
                }
            }
        }
        let options: Vec<Vec<JokerGroup>> = needy
            .iter()
            .map(|n| pieces(pos, n, &hand, &table, &spares, &names_down))
            .collect();
        let held_elsewhere = |k: usize| {
            options.iter().enumerate().any(|(o, opts)| {
                o != k
                    && opts
                        .iter()
                        .any(|jg| jg.table_jokers[1..].contains(&needy[k].at))
            })
        };
        let slots: Vec<Vec<Option<JokerGroup>>> = options
            .iter()
            .enumerate()
            .map(|(k, o)| {
                let mut slot: Vec<Option<JokerGroup>> = o.iter().cloned().map(Some).collect();
                if held_elsewhere(k) {
                    slot.push(None);
                }
                slot
            })
            .collect();
        let state = State {
            hand,
            company: table,
            intact: Vec::new(),
        };
        let alike = slots.len();
        // (The state counts natural hand cards only: no more hand jokers in
        // the pieces than the hand holds; and each table joker lies in one
        // piece, each needy one in some piece.)
        let fits = |combo: &Vec<JokerGroup>| {
            let hand_jokers = combo
                .iter()
                .flat_map(|jg| &jg.hand)
                .filter(|c| c.is_joker())
                .count();
            let mut laid: Vec<(usize, usize)> = combo
                .iter()
                .flat_map(|jg| jg.table_jokers.iter().copied())
                .collect();
            let all = laid.len();
            laid.sort_unstable();
            laid.dedup();
            hand_jokers <= usize::from(pos.hand_jokers)
                && laid.len() == all
                && needy.iter().all(|n| laid.contains(&n.at))
        };
        let mut combos = best_combos(pos, goal, slots, alike, state, &mut |_| i32::MIN);
        combos.retain(fits);
        combos
    })
}

/// The search over branches and their combinations of joker groups. A branch's
/// unrestricted optimum bounds every restricted play of it (its joker groups
/// are groups the sweep could make): a branch whose bound cannot beat the best
/// legal play so far is passed over after one sweep (floored by that play),
/// and a branch's combinations stop once the best reaches its bound.
fn drive(
    pos: &Position,
    goal: Goal,
    ceiling: i32,
    no_wild: bool,
    combos_of: impl Fn(&Branch, &mut dyn FnMut(i32) -> i32) -> Vec<Vec<JokerGroup>>,
) -> Option<Play> {
    let dissolve = all_dissolvable(pos);
    let mut best: Kept = None;
    let mut sweeps = 0usize;
    let start = states_so_far();
    let budget = if cap(1) == 1 { STATES } else { u64::MAX };
    let spent = || states_so_far().saturating_sub(start) > budget;
    for branch in pos.branches() {
        if best.as_ref().is_some_and(|(v, _)| *v >= ceiling) {
            break;
        }
        if sweeps >= cap(SWEEPS) || spent() {
            bite();
            break;
        }
        sweeps += 1;
        let floor = best.as_ref().map(|(v, _)| v + 1);
        let Some(top) = branch_top(pos, goal, &branch, &dissolve, floor) else {
            continue;
        };
        // Tahiti: what the rest of the play can be worth at most, whatever
        // the joker groups take (found before the combinations are listed,
        // from the most any combination's hand cards can be worth).
        let mut rest: Option<i32> = None;
        let cs = {
            // The least hand-card score a combination needs to beat the best
            // play so far: combinations come best first, so their listing
            // stops there (no cap spent on combinations the bound cuts).
            let mut least = |most: i32| -> i32 {
                let Some((v, _)) = &best else {
                    return i32::MIN;
                };
                if !no_wild || goal == Goal::Hint {
                    return i32::MIN;
                }
                sweeps += 1;
                let r = rest_bound(pos, goal, &branch, &dissolve, v + 1 - most);
                rest = Some(r);
                v + 1 - r
            };
            combos_of(&branch, &mut least)
        };
        // What the combinations swept so far take (see [`uses`]) and whether
        // the rules refused the play found: another combination taking the
        // same is the same sweep, which can only find that play again.
        let mut swept: std::collections::HashMap<Uses, bool> = std::collections::HashMap::new();
        for combo in cs {
            if best.as_ref().is_some_and(|(v, _)| *v >= top.min(ceiling)) {
                break;
            }
            if no_wild
                && goal != Goal::Hint
                && let Some((v, _)) = &best
            {
                // Combinations come most hand cards first: once their hand
                // cards plus the most the rest can give cannot beat the best,
                // no later one can.
                let score = combo_score(pos, goal, &combo);
                let r = match rest {
                    Some(r) => r,
                    None => {
                        sweeps += 1;
                        let r = rest_bound(pos, goal, &branch, &dissolve, v + 1 - score);
                        rest = Some(r);
                        r
                    }
                };
                if score + r <= *v {
                    break;
                }
            }
            let before = best.as_ref().map(|(v, _)| *v);
            let score = (no_wild && goal != Goal::Hint).then(|| combo_score(pos, goal, &combo));
            let key = uses(&combo);
            if swept.get(&key) == Some(&false) {
                continue;
            }
            if sweeps >= cap(SWEEPS) || spent() {
                bite();
                break;
            }
            sweeps += 1;
            let mut b = branch.clone();
            b.no_wild = no_wild;
            b.joker_groups = combo;
            let refused = consider(pos, goal, b, &dissolve, &mut best);
            // The bound must hold for every legal play of the branch (a bound
            // below one would lower answers silently).
            if let (Some(r), Some(s), Some((v, _))) = (rest, score, &best)
                && before != Some(*v)
            {
                debug_assert!(*v <= s + r, "Tahiti rest bound {r} + {s} below a play {v}");
            }
            swept.insert(key, refused);
        }
    }
    best.map(|(_, play)| play)
}

/// What a combination of joker groups takes from the rest of the play: hand
/// cards (per face, then jokers), cards that were with a freed joker (per
/// face), old groups held whole and table jokers (each sorted). The branch's
/// sweep sees only these (`Position::spec`, `branch_groups`), so two
/// combinations taking the same sweep the same rest for the same hand cards'
/// worth: they differ only in how the joker groups split those cards (two
/// jokers, 5-6 and 7-8 or 5-7 and 6-8), which matters only to the rules' joker
/// names and copies. (Counts, not sorted cards: no allocation per
/// combination, the two lists being empty but for a kept group or a Vatikan
/// piece.)
type Uses = ([u8; 53], [u8; 52], Vec<usize>, Vec<(usize, usize)>);

fn uses(combo: &[JokerGroup]) -> Uses {
    let mut hand = [0u8; 53];
    let mut taken = [0u8; 52];
    let mut kept = Vec::new();
    let mut jokers = Vec::new();
    for jg in combo {
        for c in &jg.hand {
            let i = c.natural_face().map_or(52, |f| f.index());
            hand[i] = hand[i].saturating_add(1);
        }
        for f in jg.taken.iter().filter_map(|c| c.natural_face()) {
            taken[f.index()] = taken[f.index()].saturating_add(1);
        }
        kept.extend(jg.kept);
        jokers.extend(&jg.table_jokers);
    }
    kept.sort_unstable();
    jokers.sort_unstable();
    (hand, taken, kept, jokers)
}

/// Tahiti: every branch of the table rules, each with every combination of
/// joker groups (best first, up to the caps), the rest swept without jokers.
/// `ceiling`: the unrestricted optimum (no legal play beats it: reaching it
/// ends the search). The hint's search, and with the caps off the reference
/// for [`tahiti_exact`].
fn tahiti(pos: &Position, goal: Goal, ceiling: i32) -> Option<Play> {
    drive(pos, goal, ceiling, true, |branch, least| {
        combos(pos, goal, branch, least)
    })
}

/// Tahiti, most cards or points: every branch of the table rules, each by a
/// best-first search over its jokers' options ([`Walk`]; every option: no
/// cap), the combination's rest swept without jokers at each leaf. A part of
/// the search that cannot beat the best legal play so far is cut by bounds
/// that never understate (per group of branches freeing the same jokers,
/// [`group_bound`]; per node of a branch's walk), so the answer is the
/// restricted optimum, unless the safety net ([`TAHITI_STATES`]) stops the
/// search first (counted as a bite: on full tables it mostly does, see
/// docs/BENCHMARKS.md, sessions 7 and 12).
///
/// The walks go in turns, so that one branch cannot spend the whole budget
/// while a better one waits (session 12: on 40 + 14 tables a single walk
/// could take all of it and find nothing). First every branch in the order
/// listed, each for at most [`FIRST_TURN`] states (the one that frees no
/// joker and extends no frozen group, listed first and mostly cheap, to its
/// end: it gives the legal play the others are measured by); that keeps the
/// deep early dives the listed order gave full tables, where the net bites
/// and the answer is the best found. Then the walks left, the highest bound
/// first (a walk's best node, never above its group's bound), each for at
/// most [`TURN`] states; among equal bounds the one that has spent the least,
/// then the one freeing the most jokers (each is a real card played and a
/// joker to lay: the plain optimum mostly frees all it can), then the first
/// listed. The search ends, exact, when the best legal play reaches every
/// bound left.
fn tahiti_exact(pos: &Position, goal: Goal, ceiling: i32) -> Option<Play> {
    let dissolve = all_dissolvable(pos);
    let mut best: Kept = None;
    let start = states_so_far();
    let until = start.saturating_add(TAHITI_STATES);
    // The branches freeing the same jokers, together: one bound holds for
    // all their frozen groups' extensions at once ([`group_bound`]), taken
    // when the group's first branch is to run (floored by the best play so
    // far); until then the ceiling stands in.
    let branches = pos.branches();
    let mut groups: Vec<Vec<usize>> = Vec::new();
    let mut group_of = vec![0usize; branches.len()];
    for (b, branch) in branches.iter().enumerate() {
        match groups
            .iter()
            .position(|g| branches[g[0]].freed == branch.freed)
        {
            Some(g) => {
                groups[g].push(b);
                group_of[b] = g;
            }
            None => {
                group_of[b] = groups.len();
                groups.push(vec![b]);
            }
        }
    }
    // Each group's bound, `None` until taken.
    let mut group_bounds: Vec<Option<i32>> = vec![None; groups.len()];
    let bound =
        |group_bounds: &[Option<i32>], b: usize| group_bounds[group_of[b]].unwrap_or(ceiling);
    let mut walks: Vec<Option<Walk>> = (0..branches.len()).map(|_| None).collect();
    let memo = SlotsMemo::default();
    let mut done = vec![false; branches.len()];
    let mut spent = vec![0u64; branches.len()];
    // The first pass's next branch.
    let mut listed = 0;
    loop {
        while listed < branches.len() && (done[listed] || spent[listed] > 0) {
            listed += 1;
        }
        let first_pass = listed < branches.len();
        let next = if first_pass {
            Some((listed, bound(&group_bounds, listed)))
        } else {
            (0..branches.len())
                .filter(|&b| !done[b])
                .map(|b| {
                    let group = bound(&group_bounds, b);
                    let top = walks[b].as_ref().map_or(group, |w| w.top().min(group));
                    (b, top)
                })
                .max_by_key(|&(b, top)| {
                    (
                        top,
                        std::cmp::Reverse(spent[b]),
                        branches[b].freed.len(),
                        std::cmp::Reverse(b),
                    )
                })
        };
        let Some((b, top)) = next else {
            break;
        };
        if best.as_ref().is_some_and(|(v, _)| *v >= top) {
            if first_pass {
                done[b] = true;
                continue;
            }
            // Every walk left is bounded by this one's bound.
            break;
        }
        let g = group_of[b];
        if group_bounds[g].is_none() && groups[g].len() > 1 {
            let floor = best.as_ref().map_or(i32::MIN / 2, |(v, _)| v + 1);
            let members: Vec<Branch> = groups[g].iter().map(|&m| branches[m].clone()).collect();
            let lower = ceiling.min(group_bound(pos, goal, &members, &dissolve, floor, &memo));
            group_bounds[g] = Some(lower);
            if lower < top {
                continue;
            }
        }
        let now = states_so_far();
        if now > until {
            bite();
            break;
        }
        let walk = match walks[b].as_mut() {
            Some(walk) => walk,
            None => match Walk::new(pos, goal, top, &dissolve, &branches[b], &best, &memo) {
                Some(walk) => walks[b].insert(walk),
                None => {
                    done[b] = true;
                    continue;
                }
            },
        };
        walk.lagrange = now - start >= LAGRANGE_AFTER;
        let turn = match (first_pass, b) {
            (true, 0) => u64::MAX,
            (true, _) => FIRST_TURN,
            (false, _) => TURN,
        };
        let finished = walk.run(&mut best, until.min(now.saturating_add(turn)));
        // (At least one: a walk that has run is past the first pass.)
        spent[b] += (states_so_far() - now).max(1);
        if finished {
            done[b] = true;
            walks[b] = None;
        }
    }
    best.map(|(_, play)| play)
}

/// Prices of [`Walk::lagrange`] in units of a face's weight over this (the
/// sweep's values are integers; a bound of 18.5 cards must read as 18).
const LAGRANGE_SCALE: i32 = 24;

/// Sweep states a search of [`tahiti_exact`] runs before its walks take
/// the priced bound ([`Walk::lagrange`]): a bound that fails costs up to
/// [`LAGRANGE_ROUNDS`] sweeps, more than the short searches spend in all
/// (taken from the start, the probe's mid-game set, `tah 4 30 10 300`,
/// swept 15% more states and its p99 rose from 7.5 to 11 ms; from here it
/// is unchanged).
const LAGRANGE_AFTER: u64 = 200_000;

/// Nodes [`joint_picks`] may search in one round of [`Walk::lagrange`].
const LAGRANGE_JOINT_NODES: usize = 20_000;

/// Subgradient rounds of one [`Walk::lagrange`].
const LAGRANGE_ROUNDS: usize = 20;

/// The sweep states [`tahiti_exact`]'s first pass gives each branch's walk.
const FIRST_TURN: u64 = 50_000;

/// The sweep states a walk of [`tahiti_exact`] runs, after the first pass,
/// before the walk of the highest bound is chosen again.
const TURN: u64 = 10_000;

/// The hand-card weight of a joker group outside the faces `priced` (bit
/// per face; see [`Walk::split`]); a hand joker counts.
fn unpriced(pos: &Position, goal: Goal, o: &Option<JokerGroup>, priced: u64) -> i32 {
    o.as_ref().map_or(0, |jg| {
        jg.hand
            .iter()
            .filter(|c| {
                c.natural_face()
                    .is_none_or(|f| priced & (1 << f.index()) == 0)
            })
            .map(|&c| pos.weight(goal, c).max(0))
            .sum()
    })
}

/// Per slot, the most [`unpriced`] weight of its options that fit `left` on
/// their own (no combination holds another), less what each keeps off the
/// table by its joker's name (`cost`, per slot and option: see
/// [`Walk::name_cost`]; `None`: the option breaks the copies rule there);
/// `None` when a freed joker's slot has none (no `None` option): there is
/// no play.
fn open_most(
    pos: &Position,
    goal: Goal,
    slots: &[Vec<Option<JokerGroup>>],
    left: &State,
    priced: u64,
    cost: &dyn Fn(usize, usize) -> Option<i32>,
) -> Option<Vec<i32>> {
    let mut out = Vec::with_capacity(slots.len());
    for (k, slot) in slots.iter().enumerate() {
        let mut most: Option<i32> = None;
        for (i, o) in slot.iter().enumerate() {
            if o.as_ref().is_some_and(|jg| left.take(jg).is_none()) {
                continue;
            }
            let Some(cost) = cost(k, i) else {
                continue;
            };
            let worth = unpriced(pos, goal, o, priced) - cost;
            most = Some(most.map_or(worth, |m| m.max(worth)));
        }
        out.push(most?);
    }
    Some(out)
}

/// The faces of `all` as bits.
fn price_bits(all: &[bool; 52]) -> u64 {
    (0..52).filter(|&i| all[i]).fold(0u64, |m, i| m | (1 << i))
}

/// A bound on every play of `members` (the branches freeing the same
/// jokers, their frozen groups extended by hand cards in different ways),
/// or `floor - 1` or more when they cannot reach `floor`: their
/// representative leaves every frozen group as it was, so it has every hand
/// card they have (its rest bound is at least theirs, its joker groups'
/// options hold theirs), and the most a member adds besides is its frozen
/// extensions' hand cards. [`rest_bound_after`] plus the heaviest options
/// and extension, then the split bound of [`Walk::split`] over the same.
fn group_bound(
    pos: &Position,
    goal: Goal,
    members: &[Branch],
    dissolve: &[usize],
    floor: i32,
    memo: &SlotsMemo,
) -> i32 {
    let Some(first) = members.first() else {
        return floor - 1;
    };
    let mut rep = first.clone();
    for (_, ext) in &mut rep.frozen {
        ext.clear();
    }
    let (slots, _, state) = memo.slots(pos, &rep);
    if slots.iter().any(|s| s.is_empty()) {
        return floor - 1;
    }
    let weight = |o: &Option<JokerGroup>| {
        o.as_ref()
            .map_or(0, |jg| combo_score(pos, goal, std::slice::from_ref(jg)))
    };
    let most: i32 = slots
        .iter()
        .map(|slot| slot.iter().map(weight).max().unwrap_or(0).max(0))
        .sum();
    let extension = |b: &Branch, priced: u64| -> i32 {
        b.frozen
            .iter()
            .flat_map(|(_, ext)| ext)
            .filter(|c| {
                c.natural_face()
                    .is_none_or(|f| priced & (1 << f.index()) == 0)
            })
            .map(|&c| pos.weight(goal, c).max(0))
            .sum()
    };
    let ext_most = members.iter().map(|b| extension(b, 0)).max().unwrap_or(0);
    let (r, all) = rest_sweep(
        pos,
        goal,
        &rep,
        dissolve,
        &[],
        None,
        floor - most - ext_most,
    );
    let first_bound = r + most + ext_most;
    let Some(all) = all else {
        return first_bound;
    };
    let priced = price_bits(&all);
    let Some(open) = open_most(pos, goal, &slots, &state, priced, &|_, _| Some(0)) else {
        return floor - 1;
    };
    let open: i32 = open.iter().sum::<i32>()
        + members
            .iter()
            .map(|b| extension(b, priced))
            .max()
            .unwrap_or(0);
    let (rest, _) = rest_sweep(pos, goal, &rep, dissolve, &[], Some(&all), floor - open);
    first_bound.min(rest + open)
}

/// One branch's search over its jokers' options ([`tahiti_exact`]): a node
/// chooses an option for each slot up to some `k` (the freed jokers' slots,
/// then the hand jokers'); a leaf has them all, and its value is that of the
/// sweep of its rest. The jokers of one kind are alike, so their options are
/// taken in order and each combination comes once; a hand joker kept in the
/// hand keeps the later ones there too. Nodes go highest bound first, so the
/// search ends as soon as the best bound left cannot beat the best legal
/// play: a node's bound is the lower of [`rest_bound_after`] for its choices
/// (the rest with every hand card optional, no jokers) plus the most the
/// slots left can add in hand cards, and the split bound ([`Walk::split`]:
/// each hand copy to the rest or to a joker group, not both); until those
/// sweeps are run for it, its parent's stands in (never lower): the parent's
/// rest bound plus its own option's hand cards, or the parent's split rest
/// plus its option's unpriced ones.
struct Walk<'a> {
    /// The root's [`rest_sweep`], when known.
    root: Option<(i32, Option<[bool; 52]>)>,
    pos: &'a Position,
    goal: Goal,
    branch: &'a Branch,
    dissolve: &'a [usize],
    slots: Vec<Vec<Option<JokerGroup>>>,
    /// Per slot and option: the hand cards' weight.
    weights: Vec<Vec<i32>>,
    /// Per slot and option: the names its joker may carry ([`joker_names`]),
    /// found when first asked for (many branches end at their root).
    names: Vec<std::cell::OnceCell<Vec<Vec<Face>>>>,
    limits: (Vec<Face>, [bool; 52]),
    /// The copies rule on the names before any joker group is laid.
    copies: CopiesLeft,
    alike: usize,
    /// What the joker groups may use.
    state: State,
    /// No play of the branch is worth more: reaching it ends the walk.
    top: i32,
    /// What the combinations swept so far take (see [`uses`]) and whether
    /// the rules refused the play found: another combination taking the same
    /// is the same sweep.
    swept: std::collections::HashMap<Uses, bool>,
    /// The nodes still to search, and how many were pushed (the tie-break).
    heap: std::collections::BinaryHeap<Node>,
    seq: u64,
    /// Whether the search is long enough for the priced bound
    /// ([`Walk::lagrange`]) on its root and nodes: its sweeps cost more than
    /// they save on the searches that end soon ([`LAGRANGE_AFTER`]).
    lagrange: bool,
    /// The root's priced bound has been taken.
    root_priced: bool,
}

/// A node of the search: its bound, its depth and a tie-break (among equal
/// bounds the deepest first, then the first pushed: a play is found soon),
/// its options per slot so far, and its bounds' sweeps once run.
type Node = (
    i32,
    usize,
    std::cmp::Reverse<u64>,
    Vec<usize>,
    Option<Bases>,
);

/// A node's sweeps: its [`rest_bound_after`], and when that did not cut it,
/// its split rest ([`Walk::split`]) with the faces priced and those a joker
/// still to lay keeps a copy of off the table (bits per face, see
/// [`Walk::name_cost`]).
type Bases = (i32, Option<(i32, u64, u64)>);

/// No play `bound` bounds can beat the best so far.
fn beaten(best: &Kept, bound: i32) -> bool {
    best.as_ref().is_some_and(|(v, _)| bound <= *v)
}

impl<'a> Walk<'a> {
    /// The walk of one branch of [`tahiti_exact`] (`ceiling`: no play of it
    /// is worth more), `None` when its root bound cannot beat `best` (or a
    /// freed joker has nowhere to go).
    fn new(
        pos: &'a Position,
        goal: Goal,
        ceiling: i32,
        dissolve: &'a [usize],
        branch: &'a Branch,
        best: &Kept,
        memo: &SlotsMemo,
    ) -> Option<Walk<'a>> {
        let (mut slots, alike, state) = memo.slots(pos, branch);
        if slots.iter().any(|s| s.is_empty()) {
            return None;
        }
        let weight = |o: &Option<JokerGroup>| {
            o.as_ref()
                .map_or(0, |jg| combo_score(pos, goal, std::slice::from_ref(jg)))
        };
        for slot in &mut slots {
            // The most hand-card weight first, a hand joker kept last.
            slot.sort_by_key(|o| (std::cmp::Reverse(weight(o)), o.is_none()));
        }
        let weights: Vec<Vec<i32>> = slots
            .iter()
            .map(|slot| slot.iter().map(weight).collect())
            .collect();
        // The most the joker groups can add in hand cards.
        let most: i32 = weights
            .iter()
            .map(|w| w.iter().copied().max().unwrap_or(0).max(0))
            .sum();
        // The branch's bound: its rest without jokers plus the most its joker
        // groups can add. (Its unrestricted optimum, jokers wild, bounds it
        // too, but that sweep cost more than it saved: on the probe's 40 + 14
        // Tahiti positions, 2.56 against 2.37 million states.)
        let mut root = None;
        if let Some((v, _)) = best.as_ref() {
            let (r, all) = rest_sweep(pos, goal, branch, dissolve, &[], None, v + 1 - most);
            if r + most <= *v {
                return None;
            }
            root = Some((r, all));
        }
        let n = slots.len();
        let mut heap = std::collections::BinaryHeap::new();
        heap.push((ceiling, 0, std::cmp::Reverse(0), Vec::new(), None));
        let walk = Walk {
            root,
            pos,
            goal,
            branch,
            dissolve,
            slots,
            weights,
            names: vec![std::cell::OnceCell::new(); n],
            limits: name_limits(pos, branch),
            copies: CopiesLeft::of_branch(pos, branch),
            alike,
            state,
            top: ceiling,
            swept: std::collections::HashMap::new(),
            heap,
            seq: 0,
            lagrange: false,
            root_priced: false,
        };
        Some(walk)
    }

    /// The bound of the best node left (`i32::MIN` when none is).
    fn top(&self) -> i32 {
        self.heap.peek().map_or(i32::MIN, |n| n.0.min(self.top))
    }

    /// The joker groups of `idx` and what they leave, `None` if they do not
    /// fit together.
    fn chosen(&self, idx: &[usize]) -> Option<(Vec<JokerGroup>, State)> {
        let mut left = self.state.clone();
        let mut out = Vec::new();
        for (k, &i) in idx.iter().enumerate() {
            if let Some(jg) = &self.slots[k][i] {
                left = left.take(jg)?;
                out.push(jg.clone());
            }
        }
        Some((out, left))
    }

    fn unpriced(&self, o: &Option<JokerGroup>, priced: u64) -> i32 {
        unpriced(self.pos, self.goal, o, priced)
    }

    /// The names of option `i` of slot `k` ([`joker_names`]; none for a
    /// hand joker kept).
    fn names(&self, k: usize, i: usize) -> &[Face] {
        let slot = self.names[k].get_or_init(|| {
            self.slots[k]
                .iter()
                .map(|o| {
                    o.as_ref()
                        .map_or(Vec::new(), |jg| joker_names(self.pos, &self.limits, jg))
                })
                .collect()
        });
        &slot[i]
    }

    fn open_most(
        &self,
        k: usize,
        left: &State,
        priced: u64,
        short: u64,
        copies: &CopiesLeft,
    ) -> Option<Vec<i32>> {
        open_most(
            self.pos,
            self.goal,
            &self.slots[k..],
            left,
            priced,
            &|j, i| self.name_cost(k + j, i, short, copies),
        )
    }

    /// What option `i` of slot `k` keeps off the table by its joker's name,
    /// against a split rest that counted every copy of the faces `short`
    /// ([`CopiesLeft`]: priced faces where one more joker of the name
    /// lowers what the rest may put down): a play holding the option names
    /// its joker for one of its names, and if every one is short, one copy
    /// of that name the split rest counted cannot be down. So the least
    /// weight of its names (nothing when one is not short). Several jokers
    /// of one name keep one copy each (the room falls by one per joker), so
    /// the open slots' costs add up. `None` when the option cannot join the
    /// node's groups in a legal play ([`CopiesLeft::fits`]).
    fn name_cost(&self, k: usize, i: usize, short: u64, copies: &CopiesLeft) -> Option<i32> {
        let names = self.names(k, i);
        if let Some(jg) = &self.slots[k][i]
            && !copies.fits(names, &jg.hand)
        {
            return None;
        }
        if short == 0 || names.is_empty() || names.iter().any(|f| short & (1 << f.index()) == 0) {
            return Some(0);
        }
        names
            .iter()
            .map(|&f| self.pos.weight(self.goal, Card::from_face(f)).max(0))
            .min()
    }

    /// The split rest of a node (`chosen`, leaving `left`; slots from `k` on
    /// still open), with its priced faces. [`rest_bound_after`] plus the
    /// most the open slots can add counts a hand card twice when the rest
    /// and an open slot's group could both hold it. Each copy goes to one of
    /// them, so (a Lagrangian bound: a price per face between nothing and
    /// its weight, paid on every available copy, holds for any choice) the
    /// faces priced here are counted whole, every available copy, and worth
    /// nothing to the rest's sweep and to the open slots' groups: a play
    /// holding the node is worth at most the split rest plus the open slots'
    /// [`Walk::unpriced`] weights. Priced: the faces whose every hand copy
    /// the first bound's best path places (`all`), the copies the rest
    /// wants anyway. `need`: the least worth looking for (the split rest
    /// comes back as `need - open - 1` or more when the node cannot reach
    /// it; `None` when it has no play).
    fn split(
        &self,
        k: usize,
        left: &State,
        chosen: &[JokerGroup],
        all: &[bool; 52],
        need: i32,
        copies: &CopiesLeft,
    ) -> Option<(i32, u64, u64)> {
        let priced = price_bits(all);
        let short = copies.tight() & priced;
        let open: i32 = self.open_most(k, left, priced, short, copies)?.iter().sum();
        let (rest, _) = rest_sweep(
            self.pos,
            self.goal,
            self.branch,
            self.dissolve,
            chosen,
            Some(all),
            need - open,
        );
        Some((rest, priced, short))
    }

    /// The most the slots from `k` on can add in hand cards when slot `k`
    /// takes an option from `from` on (and so, in order, the alike slots
    /// after it): the options come heaviest first.
    fn most_from(&self, k: usize, from: usize) -> i32 {
        let mut total = 0;
        let mut from = from;
        for j in k..self.slots.len() {
            if j > k && (j < self.alike) != (j - 1 < self.alike) {
                from = 0;
            }
            total += self.weights[j].get(from).copied().unwrap_or(0).max(0);
        }
        total
    }

    /// The search, from where it last stopped: `true` when it has ended
    /// (every node left is beaten by `best`, or none is left), `false` when
    /// this thread's sweep states passed `until` first (it may go on later).
    fn run(&mut self, best: &mut Kept, until: u64) -> bool {
        let n = self.slots.len();
        if self.lagrange
            && !self.root_priced
            && let Some((v, _)) = best.as_ref()
        {
            self.root_priced = true;
            if self.lagrange(v + 1) <= *v {
                self.heap.clear();
                return true;
            }
        }
        while let Some(node) = self.heap.pop() {
            if beaten(best, node.0) || beaten(best, self.top) {
                // Every node left is bounded by this one's bound.
                self.heap.clear();
                return true;
            }
            if states_so_far() > until {
                self.heap.push(node);
                return false;
            }
            let (bound, _, _, idx, bases) = node;
            let Some((chosen, left)) = self.chosen(&idx) else {
                continue;
            };
            // The copies rule for the joker groups' names: a combination
            // whose sure names leave no room is never legal (two jokers named
            // AC beside a natural AC), nor any play holding it.
            let mut copies = self.copies.clone();
            for (k, &i) in idx.iter().enumerate() {
                if let Some(jg) = &self.slots[k][i] {
                    copies.lay(jg, self.names(k, i));
                }
            }
            if copies.broken() {
                continue;
            }
            let k = idx.len();
            if k == n {
                let before = best.as_ref().map(|(v, _)| *v);
                self.leaf(&chosen, best);
                // The bounds must hold for every legal play (one below a play
                // would lower answers silently).
                if let Some((v, _)) = best.as_ref()
                    && before != Some(*v)
                {
                    debug_assert!(*v <= bound, "Tahiti node bound {bound} below a play {v}");
                }
                continue;
            }
            // Its children: one per option of slot k (an alike slot's
            // options in order after the previous slot's choice).
            let same_kind = k > 0 && (k < self.alike) == (k - 1 < self.alike);
            let from = if same_kind { idx[k - 1] } else { 0 };
            let most = self.most_from(k, from);
            let (base, split) = match bases {
                Some(b) => b,
                None => {
                    // The best so far plus one: what a bound must reach to
                    // matter. The sweeps are floored by it, less what the
                    // slots left can add (a bound below the floor comes back
                    // as `floor - 1`, which still bounds).
                    let need = best.as_ref().map_or(i32::MIN / 2, |(v, _)| v + 1);
                    let (b, all) = match (k, self.root) {
                        (0, Some(root)) => root,
                        _ => rest_sweep(
                            self.pos,
                            self.goal,
                            self.branch,
                            self.dissolve,
                            &chosen,
                            None,
                            need - most,
                        ),
                    };
                    let mut lower = (b + most).min(bound);
                    let mut split = None;
                    if lower >= need
                        && let Some(all) = all
                    {
                        let Some((rest, priced, short)) =
                            self.split(k, &left, &chosen, &all, need, &copies)
                        else {
                            // A freed joker has nowhere to go.
                            continue;
                        };
                        let open: i32 = self
                            .open_most(k, &left, priced, short, &copies)
                            .map_or(0, |v| v.iter().sum());
                        lower = lower.min(rest + open);
                        split = Some((rest, priced, short));
                    }
                    if lower < bound {
                        // Lower than it stood: back in line.
                        self.seq += 1;
                        let seq = std::cmp::Reverse(self.seq);
                        self.heap.push((lower, k, seq, idx, Some((b, split))));
                        continue;
                    }
                    (b, split)
                }
            };
            // The split bound of each child: the split rest, its option's
            // unpriced weight and the most of the open slots after it.
            let after_split = split.and_then(|(rest, priced, short)| {
                let most = self.open_most(k, &left, priced, short, &copies)?;
                Some((rest + most[1..].iter().sum::<i32>(), priced, short))
            });
            let next_alike = k + 1 < n && (k + 1 < self.alike) == (k < self.alike);
            for i in from..self.slots[k].len() {
                let after = self.most_from(k + 1, if next_alike { i } else { 0 });
                let mut child = (base + self.weights[k][i] + after).min(bound);
                if beaten(best, child) {
                    // The options come heaviest first.
                    break;
                }
                let Some(cost) = self.name_cost(k, i, after_split.map_or(0, |a| a.2), &copies)
                else {
                    // Never legal beside the node's groups.
                    continue;
                };
                if let Some((rest, priced, _)) = after_split {
                    child = child.min(rest + self.unpriced(&self.slots[k][i], priced) - cost);
                    if beaten(best, child) {
                        continue;
                    }
                }
                let mut next = idx.clone();
                next.push(i);
                if self.slots[k][i].is_none() {
                    // A hand joker kept: the later ones too (their last
                    // option).
                    for slot in &self.slots[k + 1..] {
                        next.push(slot.len() - 1);
                    }
                }
                self.seq += 1;
                let seq = std::cmp::Reverse(self.seq);
                self.heap.push((child, next.len(), seq, next, None));
            }
        }
        true
    }

    /// The priced bound on every play of the walk's branch, below `need`
    /// when it proves none reaches it. The walk's other bounds count a hand
    /// card in the rest's sweep and in a joker group at once, and let every
    /// joker take a name whose copies the rest also puts down; on full
    /// tables, where every natural is on the table or in the hand, nearly
    /// every name keeps a hand card off the table, and those bounds sit one
    /// card above the best play through thousands of nodes (session 14,
    /// docs/BENCHMARKS.md). Here both rules are priced instead (Lagrangian
    /// relaxation; prices in units of 1/[`LAGRANGE_SCALE`] of a weight):
    /// - each hand copy goes to one place: price `p` per face, paid on
    ///   every hand copy left;
    /// - the copies rule: a face's naturals put down and the jokers named
    ///   for it stay within its room ([`CopiesLeft`]'s spare): price `q`,
    ///   paid on the room.
    ///
    /// The rest's sweep and the joker groups then count a copy at its
    /// weight less both prices, and a joker group pays the cheapest `q` of
    /// its names ([`joint_picks`] gives each open slot one option, the
    /// options fitting together). For any prices that is at least every
    /// legal play (the relaxation drops the two rules and adds what they
    /// leave slack), so the least seen stands. Subgradient steps move the
    /// prices: first only up, where a rule is broken (the starting prices
    /// make every hand card worth nothing to the rest, which then shows no
    /// use of anything), then both ways, the step halved after three rounds
    /// that did not lower the bound. It gives up after a few rounds still
    /// half a weight unit or more above `need`: measured, those seldom end
    /// below it.
    #[allow(clippy::needless_range_loop)] // per-face arrays indexed alike
    fn lagrange(&self, need: i32) -> i32 {
        let k = LAGRANGE_SCALE;
        let (spec0, extra0, hand, b) =
            rest_spec(self.pos, self.goal, self.branch, self.dissolve, &[]);
        let left = CopiesLeft::new(self.pos, &b, &[]);
        if left.broken() {
            return need - 1;
        }
        // The hand copies left, and each face's room under the copies rule.
        let mut copies = [0i32; 52];
        let mut room = [0i32; 52];
        for i in 0..52 {
            copies[i] = i32::from(hand[i].max(spec0.hand[i]))
                .min(left.room(i))
                .max(0);
            room[i] = left.spare[i].max(0);
        }
        let w: Vec<i32> = (0..52).map(|i| spec0.weight[i].max(0) * k).collect();
        // A name's price never needs to pass the dearest card: naming a
        // joker for a face with no room keeps one copy of it off the table.
        let q_cap = w.iter().copied().max().unwrap_or(0).max(k);
        // The slots' options that may join the branch's groups.
        let open: Vec<Vec<PricedOption>> = (0..self.slots.len())
            .map(|j| {
                self.slots[j]
                    .iter()
                    .enumerate()
                    .filter_map(|(i, o)| {
                        let names = self.names(j, i);
                        let Some(jg) = o else {
                            return Some((None, 0, Vec::new(), names));
                        };
                        self.state.take(jg)?;
                        if !left.fits(names, &jg.hand) {
                            return None;
                        }
                        let wild = jg
                            .hand
                            .iter()
                            .filter(|c| c.natural_face().is_none())
                            .map(|&c| self.pos.weight(self.goal, c).max(0) * k)
                            .sum();
                        let faces = jg
                            .hand
                            .iter()
                            .filter_map(|c| c.natural_face())
                            .map(|f| f.index())
                            .collect();
                        Some((Some(jg), wild, faces, names))
                    })
                    .collect()
            })
            .collect();
        if open.iter().any(|o| o.is_empty()) {
            // A freed joker has nowhere to go.
            return need - 1;
        }
        // Start with every face whose room is no more than its copies priced
        // whole under the copies rule (that rule then holds each copy in one
        // place too, so such a face never gets a `p`).
        let mut p = [0i32; 52];
        let mut q = [0i32; 52];
        for i in 0..52 {
            if room[i] <= copies[i] {
                q[i] = w[i];
            }
        }
        let mut best = i32::MAX;
        let mut theta = 1.0f64;
        let mut stale = 0;
        for round in 0..LAGRANGE_ROUNDS {
            let mut spec = spec0.clone();
            let mut extra = extra0 * k;
            spec.bonus *= k;
            spec.joker_weight *= k;
            for i in 0..52 {
                extra += copies[i] * p[i] + room[i] * q[i];
                spec.weight[i] = (spec0.weight[i] * k - p[i] - q[i]).max(0);
            }
            // No joker in the rest: the plain automaton finds its optimum.
            spec.one_joker = false;
            // Each slot's options by worth at these prices, best first.
            let ranked: Vec<Vec<Ranked>> = open
                .iter()
                .map(|slot| {
                    let mut list: Vec<Ranked> = slot
                        .iter()
                        .enumerate()
                        .map(|(o, (jg, wild, faces, names))| {
                            let mut worth = *wild;
                            for &f in faces {
                                worth += (w[f] - p[f] - q[f]).max(0);
                            }
                            let name = names
                                .iter()
                                .map(|f| f.index())
                                .min_by_key(|&f| q[f])
                                .filter(|_| jg.is_some());
                            if let Some(f) = name {
                                worth -= q[f];
                            }
                            (worth, o, name)
                        })
                        .collect();
                    list.sort_by_key(|&(worth, _, _)| std::cmp::Reverse(worth));
                    list
                })
                .collect();
            let picks = joint_picks(&ranked, &open, &self.state, LAGRANGE_JOINT_NODES)
                .unwrap_or_else(|| vec![0; ranked.len()]);
            let mut joker_groups = 0;
            let mut used = [0i32; 52];
            let mut named = [0i32; 52];
            for (j, &r) in picks.iter().enumerate() {
                let (worth, o, name) = ranked[j][r];
                joker_groups += worth;
                for &f in &open[j][o].2 {
                    used[f] += 1;
                }
                if let Some(f) = name {
                    named[f] += 1;
                }
            }
            let target = need * k - k / 2;
            let mut sw = Sweep::new(&spec);
            let floor = target - extra - joker_groups;
            sw.at_least = Some(floor);
            let (v, moves) = match sw.path() {
                Some((v, moves)) if v >= floor => (v, moves),
                _ => return need - 1,
            };
            let total = v + extra + joker_groups;
            if total < best {
                best = total;
                stale = 0;
            } else {
                stale += 1;
                if stale == 3 {
                    theta /= 2.0;
                    stale = 0;
                }
            }
            if best < need * k {
                return need - 1;
            }
            if round >= 4 && best >= need * k + k / 2 {
                break;
            }
            // The subgradient: what each rule leaves slack (negative where
            // broken), held at zero where the price cannot move that way.
            let totals = crate::sweep::placed(&moves, sw.first());
            let mut ga = [0i32; 52];
            let mut gb = [0i32; 52];
            for i in 0..52 {
                let rest = i32::from(totals[i].saturating_sub(spec.must[i]).min(spec.hand[i]));
                ga[i] = copies[i] - rest - used[i];
                gb[i] = room[i] - rest - used[i] - named[i];
                if w[i] == 0
                    || room[i] <= copies[i]
                    || (ga[i] > 0 && p[i] == 0)
                    || (ga[i] < 0 && p[i] + q[i] >= w[i])
                {
                    ga[i] = 0;
                }
                if (gb[i] > 0 && q[i] == 0) || (gb[i] < 0 && q[i] >= q_cap) {
                    gb[i] = 0;
                }
                if round < 3 {
                    ga[i] = ga[i].min(0);
                    gb[i] = gb[i].min(0);
                }
            }
            let most = (0..52)
                .map(|i| ga[i].abs().max(gb[i].abs()))
                .max()
                .unwrap_or(0);
            if most == 0 {
                break;
            }
            // The largest move is `theta` of a whole weight unit.
            let step = theta * f64::from(k) / f64::from(most);
            for i in 0..52 {
                let moved =
                    |price: i32, g: i32| (f64::from(price) - step * f64::from(g)).round() as i32;
                q[i] = moved(q[i], gb[i]).clamp(0, q_cap);
                let p_cap = if room[i] <= copies[i] {
                    0
                } else {
                    (w[i] - q[i]).max(0)
                };
                p[i] = moved(p[i], ga[i]).clamp(0, p_cap);
            }
        }
        best.div_euclid(k)
    }

    /// Sweeps the rest of the combination `chosen`.
    fn leaf(&mut self, chosen: &[JokerGroup], best: &mut Kept) {
        let key = uses(chosen);
        if self.swept.get(&key) == Some(&false) {
            return;
        }
        let mut b = self.branch.clone();
        b.no_wild = true;
        b.joker_groups = chosen.to_vec();
        let refused = consider(self.pos, self.goal, b, self.dissolve, best);
        self.swept.insert(key, refused);
    }
}

/// A slot's option as [`Walk::lagrange`] weighs it: the option (`None`: a
/// hand joker kept), the weight of its jokers, its hand faces and its
/// joker's names.
type PricedOption<'a> = (Option<&'a JokerGroup>, i32, Vec<usize>, &'a [Face]);

/// An option's worth at [`Walk::lagrange`]'s prices, its index among the
/// slot's options, and the name it pays for.
type Ranked = (i32, usize, Option<usize>);

/// The most the slots of [`Walk::lagrange`] add together, one option
/// each, the options fitting what the branch leaves all at once (`ranked`:
/// per slot, best first): the index into `ranked` of
/// each slot's pick. `None` when the search passes `limit` nodes (the
/// caller then lets each slot take its best alone, which bounds it too) or
/// no picks fit together.
fn joint_picks(
    ranked: &[Vec<Ranked>],
    open: &[Vec<PricedOption>],
    state: &State,
    limit: usize,
) -> Option<Vec<usize>> {
    // What the slots after each one can add at most.
    let mut after = vec![0i32; ranked.len() + 1];
    for j in (0..ranked.len()).rev() {
        after[j] = after[j + 1] + ranked[j].first().map_or(0, |r| r.0);
    }
    struct Search<'s, 'a> {
        ranked: &'s [Vec<Ranked>],
        open: &'s [Vec<PricedOption<'a>>],
        after: Vec<i32>,
        best: Option<(i32, Vec<usize>)>,
        picks: Vec<usize>,
        nodes: usize,
        limit: usize,
    }
    impl Search<'_, '_> {
        fn go(&mut self, j: usize, state: &State, worth: i32) -> bool {
            if j == self.ranked.len() {
                if self.best.as_ref().is_none_or(|(b, _)| worth > *b) {
                    self.best = Some((worth, self.picks.clone()));
                }
                return true;
            }
            for r in 0..self.ranked[j].len() {
                let (w, o, _) = self.ranked[j][r];
                if self
                    .best
                    .as_ref()
                    .is_some_and(|(b, _)| worth + w + self.after[j + 1] <= *b)
                {
                    // Best first: no later option does better.
                    break;
                }
                self.nodes += 1;
                if self.nodes > self.limit {
                    return false;
                }
                let next = match self.open[j][o].0 {
                    Some(jg) => match state.take(jg) {
                        Some(next) => next,
                        None => continue,
                    },
                    None => state.clone(),
                };
                self.picks.push(r);
                let done = self.go(j + 1, &next, worth + w);
                self.picks.pop();
                if !done {
                    return false;
                }
            }
            true
        }
    }
    let mut search = Search {
        ranked,
        open,
        after,
        best: None,
        picks: Vec::new(),
        nodes: 0,
        limit,
    };
    if !search.go(0, state, 0) {
        return None;
    }
    search.best.map(|(_, picks)| picks)
}

/// The weight of the hand cards a combination of joker groups puts down.
fn combo_score(pos: &Position, goal: Goal, combo: &[JokerGroup]) -> i32 {
    combo
        .iter()
        .flat_map(|jg| &jg.hand)
        .map(|&c| pos.weight(goal, c))
        .sum()
}

/// Tahiti: a bound on what one branch's play is worth besides the hand cards
/// of its joker groups, whatever those groups are (`floor - 1` when it is
/// below `floor`). Every combination's rest is a play of this sweep: no
/// jokers, every hand card optional (those a joker group takes, and the real
/// cards that free jokers, which a joker group may hold), the cards that were
/// with a freed joker optional (a joker group may take them), and an old group
/// a joker group holds whole may stand as it is. Hand cards only add choices
/// (their weights are not negative: not for a hint).
#[allow(clippy::needless_range_loop)] // per-face arrays indexed alike
fn rest_bound(pos: &Position, goal: Goal, branch: &Branch, dissolve: &[usize], floor: i32) -> i32 {
    rest_bound_after(pos, goal, branch, dissolve, &[], floor)
}

/// [`rest_bound`] with the joker groups `chosen` laid (their hand cards
/// counted in): a bound on every play of the branch holding them, besides
/// the hand cards of its other joker groups.
#[allow(clippy::needless_range_loop)] // per-face arrays indexed alike
fn rest_bound_after(
    pos: &Position,
    goal: Goal,
    branch: &Branch,
    dissolve: &[usize],
    chosen: &[JokerGroup],
    floor: i32,
) -> i32 {
    rest_sweep(pos, goal, branch, dissolve, chosen, None, floor).0
}

/// [`rest_bound_after`], and the faces whose every hand copy its best path
/// places (`None` when it is below `floor`). With `priced`, those faces'
/// hand copies are counted whole and worth nothing in the sweep: the rest's
/// part of a bound where the joker groups left to lay count them as nothing
/// either (see `Walk::split`).
fn rest_sweep(
    pos: &Position,
    goal: Goal,
    branch: &Branch,
    dissolve: &[usize],
    chosen: &[JokerGroup],
    priced: Option<&[bool; 52]>,
    floor: i32,
) -> (i32, Option<[bool; 52]>) {
    rest_sweep_on(pos, goal, branch, dissolve, chosen, priced, floor, true)
}

/// [`rest_sweep`], on the plain automaton or (`plain` false, for the tests)
/// on the one-joker one, as every Tahiti sweep.
// (Per-face arrays indexed alike.)
#[allow(clippy::needless_range_loop, clippy::too_many_arguments)]
fn rest_sweep_on(
    pos: &Position,
    goal: Goal,
    branch: &Branch,
    dissolve: &[usize],
    chosen: &[JokerGroup],
    priced: Option<&[bool; 52]>,
    floor: i32,
    plain: bool,
) -> (i32, Option<[bool; 52]>) {
    let (mut spec, extra, hand, b) = rest_spec(pos, goal, branch, dissolve, chosen);
    let mut extra = extra;
    if let Some(priced) = priced {
        // Each priced face is counted whole here (every copy the rest and
        // the joker groups left to lay could hold, at its weight, within
        // the copies rule's room: [`CopiesLeft`]) and worth nothing in the
        // sweep and in those groups (see `Walk::split`).
        let left = CopiesLeft::new(pos, &b, chosen);
        for i in 0..52 {
            if priced[i] {
                let copies = i32::from(hand[i].max(spec.hand[i])).min(left.room(i));
                extra += copies * spec.weight[i].max(0);
                spec.weight[i] = 0;
            }
        }
    }
    // The rest holds no joker (Tahiti's go to the joker groups; a joker
    // kept in a frozen group is its named card here): the one-joker
    // automaton's 698 states only tell runs with a joker from runs
    // without, so the plain one (at most 64 states, with `RunReach`) finds
    // the same optimum for less. Among paths of equal value the two may
    // find different ones, whose faces (`all`) price the split bounds: the
    // bounds hold either way, the order of the search may differ. (Session
    // 16: every answer of the probe's mid-game sets the same; see
    // docs/BENCHMARKS.md for full tables, where the walks' turns, counted in
    // states, move. Since session 17 the leaves' sweeps, whose paths are the
    // plays, take the plain automaton too: `sweep_branch`.)
    if plain && spec.jokers_must == 0 && spec.jokers_hand == 0 {
        spec.one_joker = false;
    }
    let mut sw = Sweep::new(&spec);
    sw.at_least = Some(floor - extra);
    match sw.path() {
        Some((v, moves)) if v + extra >= floor => {
            // The faces whose every hand copy the best path places.
            let totals = crate::sweep::placed(&moves, sw.first());
            let mut all = [false; 52];
            for i in 0..52 {
                let used = totals[i].saturating_sub(spec.must[i]).min(spec.hand[i]);
                all[i] = hand[i] > 0 && used >= hand[i];
            }
            (v + extra, Some(all))
        }
        _ => (floor - 1, None),
    }
}

/// The spec of a rest sweep ([`rest_sweep_on`]): the branch with `chosen`
/// laid and no wild joker, its extra value, the hand copies left, and the
/// branch as swept.
#[allow(clippy::needless_range_loop)] // per-face arrays indexed alike
fn rest_spec(
    pos: &Position,
    goal: Goal,
    branch: &Branch,
    dissolve: &[usize],
    chosen: &[JokerGroup],
) -> (crate::sweep::Spec, i32, [u8; 52], Branch) {
    let mut b = branch.clone();
    b.no_wild = true;
    b.joker_groups = chosen.to_vec();
    let groups = branch_groups(pos, &b, dissolve);
    let (mut spec, _, extra) = pos.spec(goal, &b, &groups);
    // The cards that were with a freed joker and that no chosen group took.
    let mut company = [0u8; 52];
    for &(g, _) in &b.freed {
        if pos.kinds[g] != Kind::Frozen {
            continue;
        }
        for f in pos.table[g].iter().filter_map(|c| c.natural_face()) {
            company[f.index()] += 1;
        }
    }
    for f in chosen
        .iter()
        .flat_map(|jg| &jg.taken)
        .filter_map(|c| c.natural_face())
    {
        company[f.index()] = company[f.index()].saturating_sub(1);
    }
    for i in 0..52 {
        let n = company[i].min(spec.must[i]);
        spec.must[i] -= n;
        spec.loose[i] += n;
    }
    // Undo the forcing of the real cards (as `Position::spec` did it).
    let mut hand = pos.hand_counts;
    for f in b
        .frozen
        .iter()
        .flat_map(|(_, ext)| ext)
        .chain(chosen.iter().flat_map(|jg| &jg.hand))
        .filter_map(|c| c.natural_face())
    {
        hand[f.index()] = hand[f.index()].saturating_sub(1);
    }
    let forced_in_sweep = pos.forced_in_sweep(&b);
    for i in 0..52 {
        let forced = forced_in_sweep[i].min(hand[i]).min(spec.must[i]);
        spec.must[i] -= forced;
        spec.hand[i] += forced;
        spec.bonus -= i32::from(forced) * spec.weight[i];
    }
    spec.forced_hand = false;
    (spec, extra, hand, b)
}

/// What a Tahiti joker's name may be in one branch: not a freed joker's old
/// name (the engine matches jokers by name), not a face whose every copy is
/// down as a natural card (the copies rule): the freed jokers' old names and
/// the down faces.
pub(crate) fn name_limits(pos: &Position, branch: &Branch) -> (Vec<Face>, [bool; 52]) {
    let avoid = branch
        .freed
        .iter()
        .filter(|&&(g, _)| pos.kinds[g] == Kind::Frozen)
        .filter_map(|&(g, i)| pos.table.get(g)?.get(i)?.declared())
        .collect();
    let mut naturals = [0u8; 52];
    for f in pos.table.iter().flatten().filter_map(|c| c.natural_face()) {
        naturals[f.index()] = naturals[f.index()].saturating_add(1);
    }
    (avoid, naturals.map(|n| n >= pos.copies))
}

/// The names the joker of `jg` may carry in a legal play holding it: its
/// cards' namings (a set's missing suits, a run's place or its two ends)
/// within `limits` ([`name_limits`]): what [`name`] chose from, and all a
/// renaming ([`legal::rename_set_jokers`]) can pick.
pub(crate) fn joker_names(
    pos: &Position,
    limits: &(Vec<Face>, [bool; 52]),
    jg: &JokerGroup,
) -> Vec<Face> {
    // The common shapes without listing namings (a tenth of the search's
    // instructions went there): a set's missing suits, and a run's joker
    // between two of its naturals, which has no other place.
    let (avoid, down) = limits;
    let allowed = |f: &Face| !avoid.contains(f) && !down[f.index()];
    let naturals = || jg.cards.iter().filter_map(|c| c.natural_face());
    let quick = jg
        .cards
        .iter()
        .find_map(|c| c.declared())
        .and_then(|named| {
            let rank = named.rank();
            if naturals().all(|f| f.rank() == rank) {
                return Some(
                    Suit::ALL
                        .into_iter()
                        .map(|s| Face::new(rank, s))
                        .filter(|f| !naturals().any(|n| n == *f) && allowed(f))
                        .collect::<Vec<Face>>(),
                );
            }
            let r = rank.value();
            let at = |v: u8| {
                Rank::new(v).is_some_and(|k| naturals().any(|n| n == Face::new(k, named.suit())))
            };
            ((2..=13).contains(&r) && at(r - 1) && at(if r == 13 { 1 } else { r + 1 }))
                .then(|| vec![named].into_iter().filter(allowed).collect())
        });
    match quick {
        Some(mut names) => {
            names.sort_unstable();
            debug_assert_eq!(names, listed_joker_names(pos, limits, jg));
            names
        }
        None => listed_joker_names(pos, limits, jg),
    }
}

/// [`joker_names`] from the group's namings.
fn listed_joker_names(
    pos: &Position,
    limits: &(Vec<Face>, [bool; 52]),
    jg: &JokerGroup,
) -> Vec<Face> {
    let (avoid, down) = limits;
    let cards: Vec<Card> = jg
        .cards
        .iter()
        .map(|&c| if c.is_joker() { Card::JOKER } else { c })
        .collect();
    let mut names: Vec<Face> = joker_namings(&cards, pos.rules.group_rules())
        .into_iter()
        .filter_map(|way| way.first().copied())
        .filter(|f| !avoid.contains(f) && !down[f.index()])
        .collect();
    names.sort_unstable();
    names.dedup();
    names
}

/// The copies rule for the jokers' names, per face `X`, in a play of a
/// branch holding some chosen joker groups: every natural `X` stays on the
/// table and each joker named `X` needs a copy off it, so with `J` jokers
/// named `X` the hand copies of `X` the rest of the play (the sweep and the
/// joker groups left to lay) may put down are at most `copies - table
/// naturals - hand copies already laid (frozen extensions, chosen groups) -
/// J`, when `J > 0`, and no legal play has that below nothing. `J` counts
/// what is sure ([`CopiesLeft::sure`]).
#[derive(Clone)]
struct CopiesLeft {
    /// Per face: `copies - table naturals - hand copies laid - sure`.
    spare: [i32; 52],
    /// Per face: the jokers surely named for it, the table jokers kept
    /// under their names and the chosen groups whose joker has one name
    /// ([`joker_names`]).
    sure: [i32; 52],
    /// Per face: the hand copies not yet laid.
    hand: [i32; 52],
}

impl CopiesLeft {
    fn new(pos: &Position, branch: &Branch, chosen: &[JokerGroup]) -> CopiesLeft {
        let mut left = CopiesLeft::of_branch(pos, branch);
        if !chosen.is_empty() {
            let limits = name_limits(pos, branch);
            for jg in chosen {
                left.lay(jg, &joker_names(pos, &limits, jg));
            }
        }
        left
    }

    /// The branch alone, before any joker group.
    fn of_branch(pos: &Position, branch: &Branch) -> CopiesLeft {
        let mut spare = [i32::from(pos.copies); 52];
        let mut sure = [0i32; 52];
        for (g, group) in pos.table.iter().enumerate() {
            for (i, &c) in group.iter().enumerate() {
                if let Some(f) = c.natural_face() {
                    spare[f.index()] -= 1;
                } else if let Some(f) = c.declared()
                    && pos.kinds[g] == Kind::Frozen
                    && !branch.freed.contains(&(g, i))
                {
                    sure[f.index()] += 1;
                }
            }
        }
        let mut hand = pos.hand_counts.map(i32::from);
        for f in branch
            .frozen
            .iter()
            .flat_map(|(_, ext)| ext)
            .filter_map(|c| c.natural_face())
        {
            spare[f.index()] -= 1;
            hand[f.index()] = (hand[f.index()] - 1).max(0);
        }
        for i in 0..52 {
            spare[i] -= sure[i];
        }
        CopiesLeft { spare, sure, hand }
    }

    /// The joker group `jg` laid, its joker's names `names`.
    fn lay(&mut self, jg: &JokerGroup, names: &[Face]) {
        for f in jg.hand.iter().filter_map(|c| c.natural_face()) {
            self.spare[f.index()] -= 1;
            self.hand[f.index()] = (self.hand[f.index()] - 1).max(0);
        }
        if let [f] = names {
            self.sure[f.index()] += 1;
            self.spare[f.index()] -= 1;
        }
    }

    /// No legal play holds the chosen groups: some face's sure jokers
    /// leave no room even for the copies already down.
    fn broken(&self) -> bool {
        (0..52).any(|i| self.sure[i] > 0 && self.spare[i] < 0)
    }

    /// Per face, the most hand copies the rest of the play may put down
    /// (`i32::MAX` when no joker is surely named for it).
    fn room(&self, i: usize) -> i32 {
        if self.sure[i] > 0 {
            self.spare[i].max(0)
        } else {
            i32::MAX
        }
    }

    /// The faces where one more joker of the name lowers what the rest may
    /// put down below both the hand copies left and the room now: a joker
    /// group still to lay under such a name keeps one of the copies counted
    /// off the table.
    fn tight(&self) -> u64 {
        (0..52)
            .filter(|&i| self.spare[i] - 1 < self.hand[i].min(self.room(i)))
            .fold(0u64, |m, i| m | (1 << i))
    }

    /// Whether a joker group with the hand cards `hand`, its joker named
    /// for one of `names`, may join the chosen groups in a legal play: some
    /// name keeps room for its joker, and its hand cards none of the sure
    /// jokers' room. (A group never holds a natural of its joker's name.)
    fn fits(&self, names: &[Face], hand: &[Card]) -> bool {
        if !names.is_empty() && names.iter().all(|f| self.spare[f.index()] < 1) {
            return false;
        }
        hand.iter().filter_map(|c| c.natural_face()).all(|f| {
            let i = f.index();
            self.sure[i] == 0 || {
                let copies = hand.iter().filter(|c| c.natural_face() == Some(f)).count();
                self.spare[i] >= copies as i32
            }
        })
    }
}

/// Per face: copies.
type Counts = [u8; 52];

/// A joker group as the play sees it (see [`play_key`]).
type GroupKey = (
    Vec<Card>,
    Vec<Card>,
    Vec<Card>,
    Option<usize>,
    Vec<(usize, usize)>,
);

/// What the joker groups of one branch may use.
struct Pools {
    hand: Counts,
    /// Cards that were with a freed joker.
    company: Counts,
    /// Old joker-free groups that may be held whole.
    intact: Vec<usize>,
    /// Faces whose every copy lies on the table as a natural card: no joker
    /// may stand for one in any play (the copies rule; table cards stay
    /// down), so a joker group is named otherwise when it can be.
    down: [bool; 52],
}

/// The combinations of joker groups for one branch, the most valuable first:
/// every freed joker placed (it has to move), each hand joker placed or kept.
fn combos(
    pos: &Position,
    goal: Goal,
    branch: &Branch,
    least: &mut dyn FnMut(i32) -> i32,
) -> Vec<Vec<JokerGroup>> {
    let (slots, alike, state) = slots(pos, branch, cap(OPTIONS_PER_JOKER));
    best_combos(pos, goal, slots, alike, state, least)
}

/// Each joker's options for one branch (see [`best_combos`]: the freed
/// jokers' slots, then from `alike` on the hand jokers', each ending with
/// `None`, kept in the hand) and what the joker groups may use.
/// At most `limit` options per joker.
fn slots(
    pos: &Position,
    branch: &Branch,
    limit: usize,
) -> (Vec<Vec<Option<JokerGroup>>>, usize, State) {
    // The real card that frees a joker may lie in a joker group (with that
    // joker, say) as well as anywhere: it is not held back here.
    let mut hand = pos.hand_counts;
    for c in branch.frozen.iter().flat_map(|(_, ext)| ext) {
        if let Some(f) = c.natural_face() {
            hand[f.index()] = hand[f.index()].saturating_sub(1);
        }
    }
    // A joker that keeps its name (in a group left frozen) may not stand for
    // a card whose every copy is down: the hand copies of its card that can
    // go down, in a joker group or anywhere, are the copies not yet on the
    // table (as `Position::spec` holds them back from the sweep). Without
    // this, options holding one only give plays the rules refuse, each
    // swept for nothing.
    let mut room = [pos.copies; 52];
    let mut named = [false; 52];
    for (g, group) in pos.table.iter().enumerate() {
        for (i, &c) in group.iter().enumerate() {
            let keeps = c.declared().is_some()
                && pos.kinds[g] == Kind::Frozen
                && !branch.freed.contains(&(g, i));
            if let Some(f) = c.declared() {
                named[f.index()] = true;
            }
            if let Some(f) = c.face()
                && (keeps || !c.is_joker())
            {
                room[f.index()] = room[f.index()].saturating_sub(1);
            }
        }
    }
    for f in branch
        .frozen
        .iter()
        .flat_map(|(_, ext)| ext)
        .filter_map(|c| c.natural_face())
    {
        room[f.index()] = room[f.index()].saturating_sub(1);
    }
    for f in 0..52 {
        if named[f] {
            hand[f] = hand[f].min(room[f]);
        }
    }
    let mut company = [0u8; 52];
    let mut freed = Vec::new();
    for &(g, i) in &branch.freed {
        if pos.kinds[g] != Kind::Frozen {
            continue;
        }
        if let Some(&j) = pos.table[g].get(i) {
            freed.push(j);
        }
        for c in &pos.table[g] {
            if let Some(f) = c.natural_face() {
                company[f.index()] += 1;
            }
        }
    }
    let intact: Vec<usize> = (0..pos.table.len())
        .filter(|&g| pos.kinds[g] == Kind::Normal && pos.table[g].len() >= 3)
        .collect();
    let mut naturals = [0u8; 52];
    for f in pos.table.iter().flatten().filter_map(|c| c.natural_face()) {
        naturals[f.index()] = naturals[f.index()].saturating_add(1);
    }
    let pools = Pools {
        hand,
        company,
        intact,
        down: naturals.map(|n| n >= pos.copies),
    };
    // No joker may take a freed joker's old name: the engine matches jokers by
    // name, and would find the freed one not renamed.
    let avoid: Vec<Face> = freed.iter().filter_map(|j| j.declared()).collect();
    // Every joker has the same options: [`options`] reads the joker only to
    // put a hand joker among the group's hand cards (last), and every freed
    // joker is named anew from the same pools under the same `avoid`. So
    // they are listed once, for a hand joker, and a freed joker's are those
    // without the hand joker. (Listed once per joker before: `REACHABLE=1
    // probe tah 4 30 10 300`, 112M instructions of 1,334M in `options`;
    // 1,292M in all once listed once, the answers, states and bites the
    // same.) A cap that bit in the listing bites once per joker, as it did.
    let bites = bites_so_far();
    let hand_options = options(pos, &pools, Card::JOKER, &avoid, limit);
    for _ in 0..(bites_so_far() - bites) * freed.len() as u64 {
        bite();
    }
    let freed_listed: Vec<JokerGroup> = if freed.is_empty() {
        Vec::new()
    } else {
        hand_options
            .iter()
            .map(|jg| {
                let mut jg = jg.clone();
                let joker = jg.hand.pop();
                debug_assert_eq!(joker, Some(Card::JOKER));
                jg
            })
            .collect()
    };
    let freed_options: Vec<Vec<JokerGroup>> = freed.iter().map(|_| freed_listed.clone()).collect();
    let state = State {
        hand: pools.hand,
        company: pools.company,
        intact: pools.intact.clone(),
    };
    let mut slots: Vec<Vec<Option<JokerGroup>>> = freed_options
        .into_iter()
        .map(|o| o.into_iter().map(Some).collect())
        .collect();
    let alike = slots.len();
    for _ in 0..pos.hand_jokers {
        let mut o: Vec<Option<JokerGroup>> = hand_options.iter().cloned().map(Some).collect();
        o.push(None);
        slots.push(o);
    }
    (slots, alike, state)
}

/// [`slots`] without a cap, kept for one [`tahiti_exact`]: they depend on
/// the branch only through the jokers it frees and the hand cards its
/// frozen extensions take, and a group's bound ([`group_bound`]: its
/// branches' frozen groups left as they were) and the walk of the branch
/// among them that extends none ask for the same. (Without a cap the
/// listing never bites, so a kept one stands for a new one in every way.
/// `REACHABLE=1 probe tah 4 30 10 300`: 1,292.4M instructions, 1,282.3M
/// with it, answers, states and bites the same.)
#[derive(Default)]
struct SlotsMemo {
    kept: std::cell::RefCell<Vec<(SlotsKey, SlotsOut)>>,
}

/// What [`slots`] reads of a branch: the jokers it frees, the hand copies
/// its frozen extensions take.
type SlotsKey = (Vec<(usize, usize)>, [u8; 52]);
type SlotsOut = (Vec<Vec<Option<JokerGroup>>>, usize, State);

impl SlotsMemo {
    fn slots(&self, pos: &Position, branch: &Branch) -> SlotsOut {
        let mut ext = [0u8; 52];
        for f in branch
            .frozen
            .iter()
            .flat_map(|(_, e)| e)
            .filter_map(|c| c.natural_face())
        {
            ext[f.index()] += 1;
        }
        let key = (branch.freed.clone(), ext);
        if let Some((_, out)) = self.kept.borrow().iter().find(|(k, _)| *k == key) {
            return out.clone();
        }
        let out = slots(pos, branch, usize::MAX);
        self.kept.borrow_mut().push((key, out.clone()));
        out
    }
}

/// What is left for the next joker.
#[derive(Clone)]
struct State {
    hand: Counts,
    company: Counts,
    intact: Vec<usize>,
}

impl State {
    /// The state once `jg` is laid, or `None` if it does not fit what is left.
    fn take(&self, jg: &JokerGroup) -> Option<State> {
        let mut next = self.clone();
        for c in &jg.hand {
            if let Some(f) = c.natural_face() {
                let n = &mut next.hand[f.index()];
                *n = n.checked_sub(1)?;
            }
        }
        for c in &jg.taken {
            let f = c.natural_face()?;
            let n = &mut next.company[f.index()];
            *n = n.checked_sub(1)?;
        }
        if let Some(g) = jg.kept {
            let at = next.intact.iter().position(|&k| k == g)?;
            next.intact.remove(at);
        }
        Some(next)
    }
}

/// The combinations of one option per joker (`slots`: each joker's options,
/// `None` = it stays in the hand) that fit what `state` leaves, most valuable
/// first: a best-first walk over the options each sorted by the hand cards they
/// put down, so the cap keeps the best combinations whatever their number.
/// Slots from `alike` on are the hand's jokers, alike: their options are taken
/// in order, so each combination comes once. `least`, given the most a
/// combination can score, says the least score worth listing: the walk stops
/// below it (every later combination scores no more).
fn best_combos(
    pos: &Position,
    goal: Goal,
    mut slots: Vec<Vec<Option<JokerGroup>>>,
    alike: usize,
    state: State,
    least: &mut dyn FnMut(i32) -> i32,
) -> Vec<Vec<JokerGroup>> {
    let score = |o: &Option<JokerGroup>| -> i32 {
        o.as_ref().map_or(0, |jg| {
            jg.hand.iter().map(|&c| pos.weight(goal, c)).sum::<i32>()
        })
    };
    for slot in &mut slots {
        slot.sort_by_key(|o| std::cmp::Reverse(score(o)));
    }
    if slots.iter().any(|s| s.is_empty()) {
        return Vec::new();
    }
    let n = slots.len();
    let total = |idx: &[usize]| -> i32 { (0..n).map(|k| score(&slots[k][idx[k]])).sum() };
    let mut heap = std::collections::BinaryHeap::new();
    let mut seen = std::collections::HashSet::new();
    let mut seq = 0u32;
    let start = vec![0usize; n];
    let least = least(total(&start));
    heap.push((total(&start), std::cmp::Reverse(seq), start.clone()));
    seen.insert(start);
    let mut out = Vec::new();
    let mut seen_plays = std::collections::HashSet::new();
    // The cap counts combinations that take different cards: the others are
    // swept only when the rules refused their twin's play (see `drive`).
    let mut seen_uses = std::collections::HashSet::new();
    let mut pops = 0;
    while let Some((t, _, idx)) = heap.pop() {
        if t < least {
            break;
        }
        pops += 1;
        if pops > cap(COMBOS_PER_BRANCH * 20) || seen_uses.len() >= cap(COMBOS_PER_BRANCH) {
            bite();
            break;
        }
        for k in 0..n {
            if idx[k] + 1 < slots[k].len() {
                let mut next = idx.clone();
                next[k] += 1;
                if seen.insert(next.clone()) {
                    seq += 1;
                    heap.push((total(&next), std::cmp::Reverse(seq), next));
                }
            }
        }
        if (alike..n.saturating_sub(1)).any(|k| idx[k] > idx[k + 1]) {
            continue;
        }
        let mut left = state.clone();
        let mut combo = Vec::new();
        let fits = (0..n).all(|k| match &slots[k][idx[k]] {
            None => true,
            Some(jg) => match left.take(jg) {
                Some(next) => {
                    left = next;
                    combo.push(jg.clone());
                    true
                }
                None => false,
            },
        });
        // Two freed jokers have the same options: one combination comes
        // again with their groups swapped, the same play. Once is enough, and
        // the cap counts distinct plays.
        if fits && seen_plays.insert(play_key(&combo)) {
            seen_uses.insert(uses(&combo));
            out.push(combo);
        }
    }
    out
}

/// A combination as the play sees it: each joker group's cards, hand cards,
/// cards taken from a freed joker's group, the old group it holds and the
/// table joker it holds (each sorted), in order.
fn play_key(combo: &[JokerGroup]) -> Vec<GroupKey> {
    let mut key: Vec<GroupKey> = combo
        .iter()
        .map(|jg| {
            let mut cards = jg.cards.clone();
            let mut hand = jg.hand.clone();
            let mut taken = jg.taken.clone();
            cards.sort();
            hand.sort();
            taken.sort();
            (cards, hand, taken, jg.kept, jg.table_jokers.clone())
        })
        .collect();
    key.sort();
    key
}

fn face_at(p: u8, s: usize) -> Option<Face> {
    let rank = Rank::new(if p == 14 { 1 } else { p })?;
    Some(Face::new(rank, Suit::from_index(s)?))
}

/// The joker groups `joker` may make: with hand cards and cards that were with
/// a freed joker (a set of 3 or 4, or a run), or with one old joker-free group
/// kept whole plus hand cards. The largest first, at most
/// `limit`.
fn options(
    pos: &Position,
    pools: &Pools,
    joker: Card,
    avoid: &[Face],
    limit: usize,
) -> Vec<JokerGroup> {
    let rules = pos.rules.group_rules();
    let mut out: Vec<JokerGroup> = Vec::new();
    let avail = |f: Face| pools.hand[f.index()] + pools.company[f.index()] > 0;
    let mut natural_sets: Vec<Vec<Face>> = Vec::new();
    // Sets: two or three suits of a rank.
    for r in 1..=13u8 {
        let Some(rank) = Rank::new(r) else { continue };
        let suits: Vec<Face> = Suit::ALL
            .into_iter()
            .map(|s| Face::new(rank, s))
            .filter(|&f| avail(f))
            .collect();
        for mask in 1u32..(1 << suits.len()) {
            if (2..=3).contains(&mask.count_ones()) {
                natural_sets.push(
                    (0..suits.len())
                        .filter(|i| mask & (1 << i) != 0)
                        .map(|i| suits[i])
                        .collect(),
                );
            }
        }
    }
    // Runs: a stretch of one suit with the joker inside it or at one end (the
    // naturals are the stretch without one place, or the stretch itself).
    let (lo, hi) = crate::sweep::ace_window(pos.rules.ace_mode());
    for s in 0..4 {
        for a in lo..=hi {
            for b in a + 1..=hi {
                let places: Vec<Option<Face>> = (a..=b).map(|p| face_at(p, s)).collect();
                let missing = places.iter().filter(|f| !f.is_some_and(avail)).count();
                if missing > 1 {
                    break;
                }
                let faces: Vec<Face> = places.iter().flatten().copied().collect();
                if missing == 0 {
                    natural_sets.push(faces.clone());
                }
                for skip in 1..faces.len().saturating_sub(1) {
                    if missing == 0 {
                        let mut v = faces.clone();
                        v.remove(skip);
                        natural_sets.push(v);
                    }
                }
                if missing == 1 {
                    let v: Vec<Face> = faces.iter().copied().filter(|&f| avail(f)).collect();
                    natural_sets.push(v);
                }
            }
        }
    }
    natural_sets.sort();
    natural_sets.dedup();
    for faces in natural_sets {
        // Each card from the hand or from the freed joker's company.
        for (hand, taken) in sources(&faces, &pools.hand, &pools.company, limit) {
            let mut cards: Vec<Card> = faces.iter().map(|&f| Card::from_face(f)).collect();
            cards.push(Card::JOKER);
            let ways = joker_namings(&cards, rules);
            if let Some(jg) = name(
                rules,
                joker,
                avoid,
                &pools.down,
                &ways,
                cards,
                hand,
                taken,
                None,
            ) {
                out.push(jg);
            }
        }
    }
    // One old joker-free group kept whole, the joker and hand cards: grow it
    // one hand card at a time (every valid one is reached through valid ones).
    let hand_faces: Vec<Face> = Face::all().filter(|f| pools.hand[f.index()] > 0).collect();
    for &g in &pools.intact {
        let base = &pos.table[g];
        // A group is a set (one rank) or a run (one suit): a hand card of
        // another rank than a set's, or another suit than a run's, makes no
        // group, and every extension holding it has no naming. Such an
        // extension is still counted among those seen (the cap counts them
        // as before), but not built and named only to be dropped.
        let naturals: Vec<Face> = base.iter().filter_map(|c| c.natural_face()).collect();
        let one_rank = naturals.windows(2).all(|w| w[0].rank() == w[1].rank());
        let one_suit = naturals.windows(2).all(|w| w[0].suit() == w[1].suit());
        let fits = |f: Face| {
            naturals.first().is_none_or(|&n| {
                (one_rank && f.rank() == n.rank()) || (one_suit && f.suit() == n.suit())
            })
        };
        let mut seen: Vec<Vec<Face>> = Vec::new();
        let mut frontier: Vec<Vec<Face>> = vec![Vec::new()];
        while let Some(ext) = frontier.pop() {
            let mut cards = base.clone();
            cards.extend(ext.iter().map(|&f| Card::from_face(f)));
            cards.push(Card::JOKER);
            let ways = joker_namings(&cards, rules);
            if ways.is_empty() {
                continue;
            }
            // (Named from these namings: the group is these very cards,
            // the old group's, the hand cards', the joker, in this order.
            // They were asked for twice before: `REACHABLE=1 probe tah 4 30
            // 10 300`, 1,282.3M instructions, 1,278.7M once; `tah 4 84 20
            // 30`, 2,976.9M and 2,946.4M; answers and states the same.)
            let hand: Vec<Card> = ext.iter().map(|&f| Card::from_face(f)).collect();
            if let Some(mut jg) = name(
                rules,
                joker,
                avoid,
                &pools.down,
                &ways,
                cards.clone(),
                hand,
                Vec::new(),
                Some(g),
            ) {
                jg.kept = Some(g);
                out.push(jg);
            }
            for &f in &hand_faces {
                if ext.contains(&f) {
                    continue;
                }
                if seen.len() > limit {
                    bite();
                    continue;
                }
                let mut next = ext.clone();
                next.push(f);
                next.sort();
                if !seen.contains(&next) {
                    seen.push(next.clone());
                    if fits(f) {
                        frontier.push(next);
                    }
                }
            }
        }
    }
    out.sort_by_key(|jg| std::cmp::Reverse(jg.cards.len()));
    if out.len() > limit {
        bite();
        out.truncate(limit);
    }
    out
}

/// The joker group of `joker` with the naturals of `cards` (from `hand` and
/// `taken`, or an old group `kept` whole and `hand`), the joker named;
/// `None` when no name fits. No name whose every copy is down (`down`):
/// every play holding it breaks the copies rule, and
/// no mend ([`legal::rename_set_jokers`]) makes it legal as it stands. A
/// renaming only picks another of the group's namings (a set's missing
/// suits, a run's other end), all down when this one is; a swap gives the
/// set a natural card of a missing suit and the joker that card's name,
/// down too, unless renamed again in the other group, which is then a
/// joker group of its own, another combination of the search; a move takes
/// the joker to another group, the same. Before, the first naming was
/// taken whatever the table held, and every combination holding such a
/// group was swept and refused: on full tables (`probe tah 4 84 20 30`)
/// most of the restricted search's sweeps.
/// (`cards`: the group's natural cards, then an unnamed joker; `ways`: their
/// `joker_namings`.)
#[allow(clippy::too_many_arguments)]
fn name(
    rules: rami_melds::GroupRules,
    joker: Card,
    avoid: &[Face],
    down: &[bool; 52],
    ways: &[Vec<Face>],
    mut cards: Vec<Card>,
    hand: Vec<Card>,
    taken: Vec<Card>,
    kept: Option<usize>,
) -> Option<JokerGroup> {
    // A freed joker must take a new name (`avoid`: the freed jokers' names).
    let namings: Vec<Face> = ways
        .iter()
        .filter_map(|way| way.first().copied())
        .filter(|f| !avoid.contains(f))
        .collect();
    let face = *namings.iter().find(|f| !down[f.index()])?;
    if let Some(last) = cards.last_mut() {
        *last = Card::named_joker(face);
    }
    validate_group(&cards, rules).ok()?;
    let mut hand = hand;
    if joker == Card::JOKER {
        hand.push(Card::JOKER);
    }
    Some(JokerGroup {
        cards,
        hand,
        taken,
        kept,
        table_jokers: Vec::new(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The joker groups of `hand` alone (no freed joker, no old group).
    fn hand_options(table: &str, hand: &str) -> Vec<JokerGroup> {
        let table = rami_cards::parse_table(table).expect("a table");
        let hand = rami_cards::parse_cards(hand).expect("a hand");
        let pos = Position::new(RuleSet::Tahiti, 2, &table, &hand).expect("a position");
        let mut naturals = [0u8; 52];
        for f in pos.table.iter().flatten().filter_map(|c| c.natural_face()) {
            naturals[f.index()] += 1;
        }
        let pools = Pools {
            hand: pos.hand_counts,
            company: [0; 52],
            intact: Vec::new(),
            down: naturals.map(|n| n >= pos.copies),
        };
        options(&pos, &pools, Card::JOKER, &[], usize::MAX)
    }

    /// [`slots`] lists the options once, for a hand joker, and gives a freed
    /// joker the same groups without the hand joker: what [`options`] gives
    /// the freed joker itself (its name only sets the group's name apart,
    /// which is chosen anew), company, kept groups and a capped listing too.
    #[test]
    fn a_freed_jokers_options_are_a_hand_jokers_without_the_hand_joker() {
        let table = rami_cards::parse_table(
            "4H *5H 6H | 9S 9H *9D | 2C 3C 4C 5C | 7S 7H 7D | JD QD KD | 10C JC QC",
        )
        .expect("a table");
        let hand = rami_cards::parse_cards("5H 9D 3H 7H 8H 9C KC 7C QD 2D 3D").expect("a hand");
        let pos = Position::new(RuleSet::Tahiti, 2, &table, &hand).expect("a position");
        let mut naturals = [0u8; 52];
        for f in pos.table.iter().flatten().filter_map(|c| c.natural_face()) {
            naturals[f.index()] += 1;
        }
        let mut company = [0u8; 52];
        for g in [0, 1] {
            for f in pos.table[g].iter().filter_map(|c| c.natural_face()) {
                company[f.index()] += 1;
            }
        }
        let pools = Pools {
            hand: pos.hand_counts,
            company,
            intact: vec![2, 3, 4, 5],
            down: naturals.map(|n| n >= pos.copies),
        };
        let freed = [pos.table[0][1], pos.table[1][2]];
        let avoid: Vec<Face> = freed.iter().filter_map(|j| j.declared()).collect();
        for limit in [usize::MAX, 8] {
            let hand_listed = options(&pos, &pools, Card::JOKER, &avoid, limit);
            if limit == usize::MAX {
                assert!(hand_listed.len() > 8, "{}", hand_listed.len());
                assert!(hand_listed.iter().any(|jg| jg.kept.is_some()));
                assert!(hand_listed.iter().any(|jg| !jg.taken.is_empty()));
            } else {
                assert_eq!(hand_listed.len(), limit);
            }
            for j in freed {
                let own = options(&pos, &pools, j, &avoid, limit);
                assert_eq!(own.len(), hand_listed.len());
                for (a, b) in own.iter().zip(&hand_listed) {
                    let mut b_hand = b.hand.clone();
                    assert_eq!(b_hand.pop(), Some(Card::JOKER));
                    assert_eq!(a.cards, b.cards);
                    assert_eq!(a.hand, b_hand);
                    assert_eq!(a.taken, b.taken);
                    assert_eq!(a.kept, b.kept);
                }
            }
        }
    }

    /// A rest sweep runs on the plain automaton (`rest_sweep_on`): the rest
    /// holds no joker, and without one the two automata find the same
    /// optimum. Every branch of a few
    /// mid-game tables (the first one session 16's slow probe position),
    /// the root's rest and its split rest with the faces priced, and the
    /// rest once a joker group is laid: the same value either way.
    #[test]
    fn a_rest_sweep_on_the_plain_automaton_finds_the_same_optimum() {
        let cases = [
            (
                "*5S 5H 5D 5C | 6D 7D *8D 9D 10D | 8H 9H *10H | 8S 8H 8D 8C | 3S 3H 3D 3C \
                 | 3C 4C 5C 6C 7C 8C | 4S 4H 4D *4C",
                "5S 6S 2S 6H 7H 8D JD KS QC 9S",
            ),
            (
                "AS 2S 3S *4S | QH KH *AH | 7D 8D 9D | 7S 7H 7C | JS JH JD *JC",
                "AH 2H 3H 4S 5S 9D 10D KD KC QC *",
            ),
            (
                "2C 3C *4C 5C | 9S 9H 9D | 10H JH QH",
                "4C 6C 7C 9C 8H 9H 2D 2S KD",
            ),
        ];
        let mut compared = 0;
        for (table, hand) in cases {
            let table = rami_cards::parse_table(table).expect("a table");
            let hand = rami_cards::parse_cards(hand).expect("a hand");
            let pos = Position::new(RuleSet::Tahiti, 2, &table, &hand).expect("a position");
            let dissolve = all_dissolvable(&pos);
            for goal in [Goal::MostCards, Goal::MostPoints] {
                for branch in pos.branches() {
                    let low = i32::MIN / 2;
                    let on = |laid: &[JokerGroup], priced, plain| {
                        rest_sweep_on(&pos, goal, &branch, &dissolve, laid, priced, low, plain)
                    };
                    let (v, all) = on(&[], None, false);
                    let plain = on(&[], None, true);
                    assert_eq!(plain.0, v, "{goal:?} {:?}", branch.freed);
                    let Some(all) = all else { continue };
                    let priced = |plain| on(&[], Some(&all), plain).0;
                    assert_eq!(priced(false), priced(true), "{goal:?} {:?}", branch.freed);
                    let (slots, _, _) = slots(&pos, &branch, usize::MAX);
                    for jg in slots.iter().flatten().flatten().take(6) {
                        let laid = std::slice::from_ref(jg);
                        let after = |plain| on(laid, None, plain).0;
                        assert_eq!(after(false), after(true), "{goal:?} {:?}", jg.cards);
                        compared += 1;
                    }
                    compared += 2;
                }
            }
        }
        assert!(compared > 50, "{compared}");
    }

    /// The priced bound ([`Walk::lagrange`]) never proves a branch below a
    /// play it holds: on seeded Tahiti positions (tables a game can reach,
    /// mid-game and larger), each branch's walk run to its end with no
    /// budget finds the branch's best legal play, worth `v`; the bound asked
    /// to reach `v` must not come back below it (the search would then pass
    /// that play over). Asked to reach `v + 1` it may prove the branch: it
    /// must on some, or the bound does nothing.
    #[test]
    fn the_priced_bound_never_falls_below_a_play_of_its_branch() {
        let mut g = crate::test_positions::Gen::new(71);
        let (mut checked, mut proved) = (0, 0);
        for case in 0..120 {
            let (t, h) = [(30, 10), (40, 14), (50, 12)][case % 3];
            let (table, hand) =
                g.position_from_deck(RuleSet::Tahiti.group_rules(), 4, t, h, 0.3, 2);
            if rami_melds::table_rules::check_copies(&table, 2).is_err() {
                continue;
            }
            let Ok(pos) = Position::new(RuleSet::Tahiti, 2, &table, &hand) else {
                continue;
            };
            let dissolve = all_dissolvable(&pos);
            let memo = SlotsMemo::default();
            let goal = [Goal::MostCards, Goal::MostPoints][case % 2];
            let branches = pos.branches();
            for branch in &branches {
                let Some(mut walk) =
                    Walk::new(&pos, goal, i32::MAX / 2, &dissolve, branch, &None, &memo)
                else {
                    continue;
                };
                let mut best: Kept = None;
                assert!(walk.run(&mut best, u64::MAX));
                let Some((v, _)) = best else { continue };
                let shown = || format!("{goal:?} {:?}\n{table:?}\n{hand:?}", branch.freed);
                assert!(walk.lagrange(v) >= v, "bound below {v}: {}", shown());
                checked += 1;
                if walk.lagrange(v + 1) <= v {
                    proved += 1;
                }
            }
        }
        assert!(checked > 250, "{checked}");
        assert!(proved > 0, "{proved} of {checked}");
    }

    /// A natural AC on the table and the hand's `AS AH AD` twice: each
    /// `AS AH AD *AC` may be laid (a copy of AC is off the table), but not
    /// both (two jokers named AC and a natural AC are three copies), so no
    /// node holding the two is searched, and beside one of them a second
    /// such group does not fit. A hand copy of a name whose other copy is
    /// on the table is what a joker of that name keeps off it (`tight`):
    /// 5C here, and not AC, whose copies are not in the hand.
    #[test]
    fn joker_groups_whose_names_take_every_copy_are_never_laid_together() {
        let table = rami_cards::parse_table("AC 2C 3C | 5C 6C 7C").expect("a table");
        let hand = rami_cards::parse_cards("AS AH AD AS AH AD 5C").expect("a hand");
        let pos = Position::new(RuleSet::Tahiti, 2, &table, &hand).expect("a position");
        let ace = |s| Face::new(Rank::new(1).expect("a rank"), s);
        let set = hand_options("AC 2C 3C | 5C 6C 7C", "AS AH AD AS AH AD 5C")
            .into_iter()
            .find(|jg| jg.hand.len() == 4 && joker_name(jg) == Some(ace(Suit::Clubs)))
            .expect("AS AH AD *AC");
        let branch = Branch::default();
        let names = joker_names(&pos, &name_limits(&pos, &branch), &set);
        assert_eq!(names, vec![ace(Suit::Clubs)]);
        let none = CopiesLeft::new(&pos, &branch, &[]);
        assert!(!none.broken());
        assert!(none.fits(&names, &set.hand));
        let one = CopiesLeft::new(&pos, &branch, std::slice::from_ref(&set));
        assert!(!one.broken());
        assert!(!one.fits(&names, &set.hand));
        assert!(CopiesLeft::new(&pos, &branch, &[set.clone(), set.clone()]).broken());
        let five = Face::new(Rank::new(5).expect("a rank"), Suit::Clubs);
        assert_ne!(none.tight() & (1 << five.index()), 0);
        assert_eq!(none.tight() & (1 << ace(Suit::Clubs).index()), 0);
    }

    fn joker_name(jg: &JokerGroup) -> Option<Face> {
        jg.cards.iter().find_map(|c| c.declared())
    }

    /// Both copies of 10C (and 10H) are on the table, so no joker may stand
    /// for either in any play (the copies rule). A run whose joker has no
    /// other place (`8C 9C *10C JC`) is no option, and one whose joker may
    /// take either end (`8C 9C *10C` or `*7C 8C 9C`) takes the one still
    /// free. Before, the first naming was taken whatever the table held:
    /// every combination holding such a group was swept and refused.
    #[test]
    fn a_run_joker_is_never_named_for_a_card_whose_copies_are_down() {
        let opts = hand_options("10C 10H 10D | 10C 10S 10H", "8C 9C JC QC");
        assert!(!opts.is_empty());
        for jg in &opts {
            let name = joker_name(jg).expect("a named joker");
            assert!(
                name != Face::new(Rank::new(10).expect("a rank"), Suit::Clubs),
                "{}",
                rami_cards::format_cards(&jg.cards)
            );
        }
        // `*7C 8C 9C` is still there.
        assert!(opts.iter().any(|jg| jg.hand.len() == 3
            && joker_name(jg) == Some(Face::new(Rank::new(7).expect("a rank"), Suit::Clubs))));
    }

    /// A set whose every missing suit is down is no option either (no
    /// swap mends it, see [`name`]); one with a missing suit still free
    /// takes that name.
    #[test]
    fn a_set_joker_is_never_named_for_a_card_whose_copies_are_down() {
        let opts = hand_options("3C 4C 5C | 4C 5C 6C | 3D 4D 5D | 4D 5D 6D", "4S 4H 9S 9H");
        let four = |s| Face::new(Rank::new(4).expect("a rank"), s);
        let nine = |s| Face::new(Rank::new(9).expect("a rank"), s);
        assert!(!opts.is_empty());
        for jg in &opts {
            let name = joker_name(jg).expect("a named joker");
            assert!(
                name != four(Suit::Clubs) && name != four(Suit::Diamonds),
                "{}",
                rami_cards::format_cards(&jg.cards)
            );
        }
        // `4S 4H *4x` has no name left; `9S 9H *9D` (or `*9C`) has.
        assert!(!opts.iter().any(|jg| {
            jg.hand.len() == 3
                && jg
                    .hand
                    .iter()
                    .all(|c| c.is_joker() || c.face().is_some_and(|f| f.rank().value() == 4))
        }));
        assert!(opts.iter().any(|jg| {
            jg.hand.len() == 3
                && joker_name(jg)
                    .is_some_and(|f| f == nine(Suit::Diamonds) || f == nine(Suit::Clubs))
        }));
    }
}
