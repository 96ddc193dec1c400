//! Walks an optimal path of a finished sweep and lays out the groups it stands for.

use crate::dfa::{DEAD, Origins, SLOTS, nfa_accepts, nfa_step, sym};
use crate::sweep::{Choice, Move, Sweep, split_sets_named, split_sets_remembered};
use rami_cards::{Card, Face, Rank, Suit};

/// Named jokers that stand as one card in the sweep (counted in `Spec::must`):
/// per face, those that must go to a run, to a set, or anywhere.
#[derive(Clone, Debug)]
pub(crate) struct Fixed {
    pub run: [u8; 52],
    pub set: [u8; 52],
    pub free: [u8; 52],
}

impl Default for Fixed {
    fn default() -> Fixed {
        Fixed {
            run: [0; 52],
            set: [0; 52],
            free: [0; 52],
        }
    }
}

/// The groups of one optimal arrangement, and the hand copies it puts down.
#[derive(Clone, Debug)]
pub(crate) struct Layout {
    pub groups: Vec<Vec<Card>>,
    /// Hand copies placed per face (forced ones included).
    pub hand: [u8; 52],
    pub hand_jokers: u8,
}

fn face_at(p: u8, s: usize) -> Face {
    let rank = if p == 14 { 1 } else { p };
    Face::new(
        Rank::new(rank).unwrap_or(Rank::ACE),
        Suit::from_index(s).unwrap_or(Suit::Spades),
    )
}

/// For each suit, the run multisets of one path through its automaton that
/// reads `symbols` (run cards, jokers among them, per position) and ends with
/// every run 3 long, with where each run came from at each step.
fn suit_path(sw: &Sweep<'_>, symbols: &[(u8, u8)]) -> Option<Vec<Origins>> {
    let dfa = sw.dfa();
    let one = sw.spec.one_joker;
    let mut states = vec![0u16];
    for &(r, rj) in symbols {
        let d = *states.last()?;
        let next = dfa.trans[usize::from(d)][sym(r, rj)];
        if next == DEAD {
            return None;
        }
        states.push(next);
    }
    let last = usize::from(*states.last()?);
    let mut y = *dfa.sets[last].iter().find(|&&x| nfa_accepts(x))?;
    let mut out = vec![[(0u8, false); SLOTS]; symbols.len()];
    for t in (0..symbols.len()).rev() {
        let (r, rj) = symbols[t];
        let mut found = None;
        for &x in &dfa.sets[usize::from(states[t])] {
            nfa_step(x, r, rj, one, &mut |z, origin| {
                if found.is_none() && z == y {
                    found = Some((x, origin));
                }
            });
            if found.is_some() {
                break;
            }
        }
        let (x, origin) = found?;
        out[t] = origin;
        y = x;
    }
    Some(out)
}

/// `None` only if the sweep has no solution (callers check `best` first).
pub(crate) fn layout(sw: &mut Sweep<'_>, fixed: &Fixed, forced: &[u8; 52]) -> Option<Layout> {
    let spec = sw.spec;
    let (_, moves) = sw.path()?;
    let first = sw.first();
    let last = sw.last();
    let n_pos = usize::from(last - first) + 1;
    // The choices, per position and suit, and the set jokers per position.
    let mut choice = vec![[Choice::default(); 4]; n_pos];
    let mut set_jokers = vec![0u8; n_pos];
    let mut it = moves.into_iter().skip(1);
    for t in 0..n_pos {
        for c in choice[t].iter_mut() {
            let Some(Move::Suit(o)) = it.next() else {
                return None;
            };
            *c = o;
        }
        let Some(Move::Sets(j)) = it.next() else {
            return None;
        };
        set_jokers[t] = j;
    }
    let mut origins: Vec<Vec<Origins>> = Vec::with_capacity(4);
    for s in 0..4 {
        let symbols: Vec<(u8, u8)> = choice
            .iter()
            .map(|at| (at[s].nat_r + at[s].jok_r, at[s].jok_r))
            .collect();
        origins.push(suit_path(sw, &symbols)?);
    }
    let mut runs: [Vec<Vec<Card>>; 4] = Default::default();
    let mut groups: Vec<Vec<Card>> = Vec::new();
    let mut totals = [0u8; 52];
    let mut jokers_used = 0u8;
    // Fixed jokers not yet placed, per face (aces are met twice in either mode).
    let mut fixed_left = fixed.clone();
    for (t, p) in (first..=last).enumerate() {
        let mut set_cards: [Vec<Card>; 4] = Default::default();
        for s in 0..4 {
            let o = choice[t][s];
            jokers_used += o.jok_r;
            let face = face_at(p, s);
            let f = face.index();
            totals[f] += o.used;
            // The physical cards: anchored jokers where they must go, free named
            // jokers in runs first, naturals for the rest.
            let mut run_cards: Vec<Card> = Vec::new();
            let mut set_side: Vec<Card> = Vec::new();
            let joker = Card::named_joker(face);
            let take = |n: &mut u8, room: u8, out: &mut Vec<Card>| {
                let k = (*n).min(room);
                *n -= k;
                out.extend(std::iter::repeat_n(joker, usize::from(k)));
            };
            take(&mut fixed_left.run[f], o.nat_r, &mut run_cards);
            take(&mut fixed_left.set[f], o.to_sets, &mut set_side);
            let room = o.nat_r - run_cards.len() as u8;
            take(&mut fixed_left.free[f], room, &mut run_cards);
            let room = o.to_sets - set_side.len() as u8;
            take(&mut fixed_left.free[f], room, &mut set_side);
            while run_cards.len() < usize::from(o.nat_r) {
                run_cards.push(Card::from_face(face));
            }
            while set_side.len() < usize::from(o.to_sets) {
                set_side.push(Card::from_face(face));
            }
            set_cards[s] = set_side;
            let mut old: Vec<Option<Vec<Card>>> =
                std::mem::take(&mut runs[s]).into_iter().map(Some).collect();
            let mut new_runs = Vec::new();
            let mut naturals = run_cards.into_iter();
            let r = usize::from(o.nat_r + o.jok_r);
            for &(origin, is_joker) in origins[s][t].iter().take(r) {
                let mut run = if usize::from(origin) < SLOTS {
                    old.get_mut(usize::from(origin))
                        .and_then(Option::take)
                        .unwrap_or_default()
                } else {
                    Vec::new()
                };
                if is_joker {
                    run.push(joker);
                } else {
                    run.push(naturals.next().unwrap_or(Card::from_face(face)));
                }
                new_runs.push(run);
            }
            // Runs not extended here end here.
            groups.extend(old.into_iter().flatten().filter(|r| !r.is_empty()));
            runs[s] = new_runs;
        }
        // The sets of this rank.
        let j = set_jokers[t];
        jokers_used += j;
        let counts: [u8; 4] = std::array::from_fn(|s| set_cards[s].len() as u8);
        // Each set as (suit mask of its naturals, suit mask its jokers are
        // named for): strict copies mode names them as the sweep's rooms
        // allow (see `Spec::strict_copies`), otherwise for the first missing
        // suits (the finder renames them where the copies rule refuses).
        let strict = spec.strict_copies.then(|| {
            // Ace-either: the high end's aces share the cap (its choices
            // are the last position's).
            let high_end = spec.ace == rami_melds::AceMode::Either && p == 1;
            let room: [u8; 4] = std::array::from_fn(|s| {
                let o = choice[t][s];
                let mut down = o.used + o.jok_r;
                if high_end && let Some(h) = choice.last().map(|at| at[s]) {
                    down += h.used + h.jok_r;
                }
                let cap = spec.joker_face_cap[face_at(p, s).index()];
                cap.saturating_sub(down)
            });
            split_sets_named(counts, room, j, spec.one_joker)
        });
        // (A strict path with no legal naming comes only from an ace budget
        // search cut short: named as usual, the finder's check refuses it.)
        let split: Vec<(u8, u8)> = if let Some(Some(split)) = strict {
            split
        } else {
            split_sets_remembered(counts, j, spec.one_joker)?
                .into_iter()
                .map(|(mask, jokers)| {
                    let named = (0..4u8)
                        .filter(|s| mask & (1 << s) == 0)
                        .take(usize::from(jokers))
                        .fold(0u8, |m, s| m | (1 << s));
                    (mask, named)
                })
                .collect()
        };
        let mut pools: [std::vec::IntoIter<Card>; 4] = set_cards.map(|v| v.into_iter());
        for (mask, named) in split {
            let mut set = Vec::new();
            for (s, pool) in pools.iter_mut().enumerate() {
                if mask & (1 << s) != 0 {
                    set.extend(pool.next());
                }
            }
            for s in (0..4).filter(|s| named & (1 << s) != 0) {
                set.push(Card::named_joker(face_at(p, s)));
            }
            groups.push(set);
        }
    }
    for suit_runs in runs {
        groups.extend(suit_runs.into_iter().filter(|r| !r.is_empty()));
    }
    // Ace-either: a run from the low ace to the high ace holds the ace twice;
    // the same cards make two runs (the automaton does not tell them apart).
    let mut k = 0;
    while k < groups.len() {
        if groups[k].len() > 13 {
            let g = &groups[k];
            let natural = |part: &[Card]| part.iter().any(|c| !c.is_joker());
            if let Some(at) = (3..=g.len() - 3).find(|&at| natural(&g[..at]) && natural(&g[at..])) {
                let rest = groups[k].split_off(at);
                groups.push(rest);
            }
        }
        k += 1;
    }
    let mut hand = [0u8; 52];
    for f in 0..52 {
        hand[f] = spec_hand(spec, f, totals[f]) + forced[f];
    }
    let hand_jokers = spec_joker_hand(spec, jokers_used);
    // A hint whose only hand card stands where a loose copy of it could
    // (`Spec::hand_for_loose`): the hand copy goes down, the loose one stays.
    if spec.need_hand
        && !spec.forced_hand
        && hand_jokers == 0
        && (0..52).all(|f| hand[f] == forced[f])
        && let Some(f) = (0..52).find(|&f| spec.hand_for_loose(f, totals[f]))
    {
        hand[f] += 1;
    }
    Some(Layout {
        groups,
        hand,
        hand_jokers,
    })
}

fn spec_hand(spec: &crate::sweep::Spec, f: usize, total: u8) -> u8 {
    let free = if spec.weight[f] >= 0 {
        spec.must[f]
    } else {
        spec.must[f] + spec.loose[f]
    };
    total.saturating_sub(free).min(spec.hand[f])
}

fn spec_joker_hand(spec: &crate::sweep::Spec, total: u8) -> u8 {
    total.saturating_sub(spec.jokers_must).min(spec.jokers_hand)
}
