//! Walks an optimal path of a finished sweep and lays out the groups it stands for.

use crate::sweep::{Move, SLOTS, Sweep, split_sets};
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
#[derive(Debug)]
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

/// `None` only if the sweep has no solution (callers check `best` first).
pub(crate) fn layout(sw: &mut Sweep<'_>, fixed: &Fixed, forced: &[u8; 52]) -> Option<Layout> {
    let spec = sw.spec;
    let (_, moves) = sw.path()?;
    let mut moves = moves.into_iter().skip(1);
    let first = sw.first();
    let last = sw.last();
    let mut runs: [Vec<Vec<Card>>; 4] = Default::default();
    let mut groups: Vec<Vec<Card>> = Vec::new();
    let mut totals = [0u8; 52];
    let mut jokers_used = 0u8;
    // Fixed jokers not yet placed, per face (aces are met twice in either mode).
    let mut fixed_left = fixed.clone();
    for p in first..=last {
        let mut set_cards: [Vec<Card>; 4] = Default::default();
        for s in 0..4 {
            let Some(Move::Suit(o)) = moves.next() else {
                return None;
            };
            jokers_used += o.jokers;
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
            take(&mut fixed_left.run[f], o.to_runs, &mut run_cards);
            take(&mut fixed_left.set[f], o.to_sets, &mut set_side);
            let room = o.to_runs - run_cards.len() as u8;
            take(&mut fixed_left.free[f], room, &mut run_cards);
            let room = o.to_sets - set_side.len() as u8;
            take(&mut fixed_left.free[f], room, &mut set_side);
            while run_cards.len() < usize::from(o.to_runs) {
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
            for i in 0..SLOTS {
                let code = (o.slots >> (12 - 4 * i)) & 15;
                if code == 0 {
                    break;
                }
                let (origin, is_joker) = o.origin[i];
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
        let Some(Move::Sets(j)) = moves.next() else {
            return None;
        };
        jokers_used += j;
        let counts: [u8; 4] = std::array::from_fn(|s| set_cards[s].len() as u8);
        let split = split_sets(counts, j, spec.one_joker)?;
        let mut pools: [std::vec::IntoIter<Card>; 4] = set_cards.map(|v| v.into_iter());
        for (mask, jokers) in split {
            let mut set = Vec::new();
            for (s, pool) in pools.iter_mut().enumerate() {
                if mask & (1 << s) != 0 {
                    set.extend(pool.next());
                }
            }
            let mut free_suits = (0..4).filter(|s| mask & (1 << s) == 0);
            for _ in 0..jokers {
                let s = free_suits.next().unwrap_or(0);
                set.push(Card::named_joker(face_at(p, s)));
            }
            groups.push(set);
        }
    }
    for suit_runs in runs {
        groups.extend(suit_runs.into_iter().filter(|r| !r.is_empty()));
    }
    let mut hand = [0u8; 52];
    for f in 0..52 {
        hand[f] = spec_hand(spec, f, totals[f]) + forced[f];
    }
    let hand_jokers = spec_joker_hand(spec, jokers_used);
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
    let free = if spec.joker_weight >= 0 {
        spec.jokers_must
    } else {
        spec.jokers_must + spec.jokers_loose
    };
    total.saturating_sub(free).min(spec.jokers_hand)
}
