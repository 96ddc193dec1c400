//! Laying out a play with as little change to the input table as possible: the
//! sweep says which hand cards go down; here we look for a small set of input
//! groups to rebuild (the others stay exactly as they were) and rebuild only those.

use crate::build::{self, Fixed};
use crate::sweep::{Guide, Spec, Sweep, guide_of};
use crate::{Branch, Goal, Kind, Play, Position, make_play};
use rami_cards::{Card, CardCounts};
use rami_melds::validate_group;

/// Rank distance (ace counted low and high) at which a card can touch a group.
pub(crate) fn near(a: Card, b: Card) -> bool {
    let (Some(fa), Some(fb)) = (a.face(), b.face()) else {
        return true;
    };
    if fa.rank() == fb.rank() {
        return true;
    }
    if fa.suit() != fb.suit() {
        return false;
    }
    let ra = i32::from(fa.rank().value());
    let rb = i32::from(fb.rank().value());
    let d = (ra - rb).abs();
    d <= 2 || (ra == 1 && (14 - rb).abs() <= 2) || (rb == 1 && (14 - ra).abs() <= 2)
}

/// The sweep that places exactly the cards of `dissolve` and `played` (no choice
/// left but how).
fn exact_spec(
    pos: &Position,
    branch: &Branch,
    dissolve: &[usize],
    played: &[Card],
) -> (Spec, Fixed) {
    let plain = Branch {
        freed: branch.freed.clone(),
        forced: [0; 52],
        frozen: Vec::new(),
        no_wild: branch.no_wild,
        joker_groups: branch.joker_groups.clone(),
    };
    let (mut spec, fixed, _) = pos.spec(Goal::MostCards, &plain, dissolve);
    spec.hand = [0; 52];
    spec.jokers_hand = 0;
    spec.bonus = 0;
    spec.need_hand = false;
    spec.forced_hand = false;
    for c in played {
        match c.natural_face() {
            Some(f) => spec.must[f.index()] += 1,
            None => spec.jokers_must += 1,
        }
    }
    (spec, fixed)
}

/// States one "can these groups take the play" test may generate, and all of
/// them together: past that a test answers no (the groups stay dissolved), so
/// the fewest-changes step stays cheap and deterministic on any table.
const TEST_LIMIT: usize = 40_000;
const ARRANGE_BUDGET: usize = 150_000;

/// States for the neighbourhood test when the search's own layout, with the
/// groups it holds as they were given back, already keeps as many groups as
/// the neighbourhood would: that test then gains little, and on full tables it
/// can run to the test limit before giving up (`probe low 0 84 20 30`
/// position 12: 40,587 of 43,315 states, for the same answer). The walk alone
/// (its 500 states) settles the ones that are easy.
const HOOD_SAME_LIMIT: usize = 500;

/// Whether a [`feasible`] test that found no layout proved there is none:
/// it started within the budget shared by the tests and stopped within its
/// own state limit (`before` and `after`: the states spent before and after
/// it).
pub(crate) fn proved_none(before: usize, after: usize) -> bool {
    before <= ARRANGE_BUDGET && after.saturating_sub(before) < TEST_LIMIT
}

/// A layout of exactly the cards of `dissolve` and `played` (the groups), or
/// `None` when there is none or the test ran out of its budget.
pub(crate) fn feasible(
    pos: &Position,
    branch: &Branch,
    dissolve: &[usize],
    played: &[Card],
    spent: &mut usize,
) -> Option<Vec<Vec<Card>>> {
    feasible_guided(pos, branch, dissolve, played, spent, &mut None, TEST_LIMIT)
}

/// [`feasible`], its walk trying `guide`'s choices first, with at most
/// `limit` states; a layout found becomes the guide for the next test.
fn feasible_guided(
    pos: &Position,
    branch: &Branch,
    dissolve: &[usize],
    played: &[Card],
    spent: &mut usize,
    guide: &mut Option<Guide>,
    limit: usize,
) -> Option<Vec<Vec<Card>>> {
    if *spent > ARRANGE_BUDGET {
        return None;
    }
    // Joker groups laid before the sweep take their table cards (and table
    // jokers) from rebuilt groups only.
    let mut rebuilt = CardCounts::from_cards(dissolve.iter().flat_map(|&g| &pos.table[g]));
    for jg in &branch.joker_groups {
        if jg.taken.iter().any(|&c| !rebuilt.remove(c))
            || jg.table_jokers.iter().any(|(g, _)| !dissolve.contains(g))
        {
            return None;
        }
    }
    let (spec, fixed) = exact_spec(pos, branch, dissolve, played);
    let mut sw = Sweep::new(&spec);
    sw.limit = Some(limit);
    sw.guide = *guide;
    let layout = build::layout(&mut sw, &fixed, &[0; 52]).map(|l| l.groups);
    *spent += sw.explored();
    // The next test differs from this one by a group or two: its walk
    // starts from this layout's choices.
    if layout.is_some()
        && let Some((_, moves)) = sw.path()
    {
        *guide = Some(guide_of(&moves, sw.first()));
    }
    layout
}

/// Gives back every group of `d` (not in `keep`) that `layout` holds exactly
/// as it was: the rest of the layout then still places the others and the
/// play. Returns the layout without those groups.
fn give_back_unchanged(
    pos: &Position,
    d: &mut Vec<usize>,
    keep: &[usize],
    layout: Vec<Vec<Card>>,
) -> Vec<Vec<Card>> {
    let mut layout: Vec<(Vec<Card>, bool)> =
        layout.into_iter().map(|g| (sorted(&g), true)).collect();
    d.retain(|&g| {
        if keep.contains(&g) || pos.kinds[g] != Kind::Normal {
            return true;
        }
        let want = sorted(&pos.table[g]);
        match layout.iter_mut().find(|(l, free)| *free && *l == want) {
            Some(slot) => {
                slot.1 = false;
                false
            }
            None => true,
        }
    });
    layout
        .into_iter()
        .filter(|(_, free)| *free)
        .map(|(g, _)| g)
        .collect()
}

/// Is `inner` (a multiset) inside `outer`?
pub(crate) fn contains(outer: &[Card], inner: &[Card]) -> bool {
    CardCounts::from_cards(inner).is_subset_of(&CardCounts::from_cards(outer))
        && inner.iter().filter(|c| c.is_joker()).all(|j| {
            // A named joker keeps its name unless freed: match it by name.
            outer.contains(j) || j.declared().is_none()
        })
}

pub(crate) fn arrange(
    pos: &Position,
    branch: &Branch,
    played: Vec<Card>,
    full_layout: Vec<Vec<Card>>,
    frozen: &[usize],
    minimal: bool,
    mut guide: Option<Guide>,
) -> Play {
    // The hand cards that go to the sweep (not to frozen groups).
    let mut sweep_played = played.clone();
    let set_aside = branch
        .frozen
        .iter()
        .flat_map(|(_, ext)| ext.iter())
        .chain(branch.joker_groups.iter().flat_map(|jg| jg.hand.iter()));
    for c in set_aside {
        if let Some(i) = sweep_played.iter().position(|p| p == c) {
            sweep_played.remove(i);
        }
    }
    // Input groups a joker group holds whole: not rebuilt.
    let kept: Vec<usize> = branch
        .joker_groups
        .iter()
        .filter_map(|jg| jg.kept)
        .collect();
    // Freed frozen groups, and the groups a joker group took its table joker
    // from (kept whole, they would hold that joker twice: Vatikan table
    // `2H 3H 4H | 5H 6H *7H`, hand `6S 6D 8H 9H 6S` once laid the piece
    // `5H 6H *7H 8H 9H` beside the group it came from).
    let mut must_dissolve: Vec<usize> = branch
        .freed
        .iter()
        .map(|&(g, _)| g)
        .filter(|&g| pos.kinds[g] == Kind::Frozen)
        .chain(
            branch
                .joker_groups
                .iter()
                .flat_map(|jg| jg.table_jokers.iter().map(|&(g, _)| g)),
        )
        .collect();
    must_dissolve.sort_unstable();
    must_dissolve.dedup();
    let candidates: Vec<usize> = (0..pos.table.len())
        .filter(|&g| {
            pos.kinds[g] != Kind::Frozen && !must_dissolve.contains(&g) && !kept.contains(&g)
        })
        .collect();
    let with_must = |d: &[usize]| -> Vec<usize> {
        let mut v = must_dissolve.clone();
        v.extend_from_slice(d);
        v.sort_unstable();
        v.dedup();
        v
    };

    let mut spent = 0usize;
    // The groups to rebuild and a layout of them with the played cards.
    let (dissolve, new_groups) = 'found: {
        if sweep_played.is_empty() && must_dissolve.is_empty() {
            break 'found (Vec::new(), Vec::new());
        }
        if !minimal {
            // The sweep's own layout (a group kept as it was may keep a joker
            // under a name the play no longer allows).
            let mut d = candidates.clone();
            let layout = give_back_unchanged(pos, &mut d, &must_dissolve, full_layout);
            break 'found (with_must(&d), layout);
        }
        if let Some(l) = feasible_guided(
            pos,
            branch,
            &with_must(&[]),
            &sweep_played,
            &mut spent,
            &mut guide,
            TEST_LIMIT,
        ) {
            break 'found (with_must(&[]), l);
        }
        let hood: Vec<usize> = candidates
            .iter()
            .copied()
            .filter(|&g| {
                pos.table[g]
                    .iter()
                    .any(|&c| sweep_played.iter().any(|&p| near(c, p)))
            })
            .collect();
        // The search's layout with what it keeps given back: no test needed.
        let mut from_full = candidates.clone();
        let full_given = give_back_unchanged(pos, &mut from_full, &must_dissolve, full_layout);
        let hood_limit = if hood.len() < from_full.len() {
            TEST_LIMIT
        } else {
            HOOD_SAME_LIMIT
        };
        let (mut d, mut layout) = match (hood.len() < candidates.len())
            .then(|| {
                feasible_guided(
                    pos,
                    branch,
                    &with_must(&hood),
                    &sweep_played,
                    &mut spent,
                    &mut guide,
                    hood_limit,
                )
            })
            .flatten()
        {
            Some(l) => (hood, l),
            None => (from_full, full_given),
        };
        // Groups the layout already holds as they were cost no test.
        layout = give_back_unchanged(pos, &mut d, &must_dissolve, layout);
        // Shrink: give back every group the play can do without.
        let mut i = 0;
        let mut tests = 0;
        while i < d.len() && tests < 16 {
            let mut fewer = d.clone();
            fewer.remove(i);
            tests += 1;
            match feasible_guided(
                pos,
                branch,
                &with_must(&fewer),
                &sweep_played,
                &mut spent,
                &mut guide,
                TEST_LIMIT,
            ) {
                Some(l) => {
                    d = fewer;
                    layout = give_back_unchanged(pos, &mut d, &must_dissolve, l);
                }
                None => i += 1,
            }
        }
        (with_must(&d), layout)
    };
    // Loose singles the rebuild left alone lie where they were.
    let mut pool = CardCounts::new();
    for g in &new_groups {
        for &c in g {
            pool.add(c);
        }
    }
    let left_loose: Vec<usize> = dissolve
        .iter()
        .copied()
        .filter(|&g| pos.kinds[g] == Kind::Loose)
        .collect();
    // Which loose singles were used: compare the copies placed with the copies
    // that had to be placed.
    let mut placed = pool.clone();
    // Cards that were with a freed joker and went to a joker group are not in
    // the rebuilt groups.
    let mut taken = CardCounts::from_cards(branch.joker_groups.iter().flat_map(|jg| &jg.taken));
    for &g in &dissolve {
        if pos.kinds[g] != Kind::Loose {
            for &c in &pos.table[g] {
                if !taken.remove(c) {
                    placed.remove(c);
                }
            }
        }
    }
    for &c in &sweep_played {
        placed.remove(c);
    }
    let mut untouched_loose = Vec::new();
    for g in left_loose {
        let c = pos.table[g][0];
        if !placed.remove(c) {
            untouched_loose.push(g);
        }
    }

    // Put each rebuilt group where an input group it contains was.
    let mut table: Vec<Option<Vec<Card>>> = pos.table.iter().cloned().map(Some).collect();
    let mut used = vec![false; new_groups.len()];
    let mut rearranged = false;
    let mut same = Vec::new();
    for &g in &dissolve {
        if untouched_loose.contains(&g) {
            continue;
        }
        let home = (0..new_groups.len()).find(|&k| {
            !used[k] && pos.kinds[g] != Kind::Loose && contains(&new_groups[k], &pos.table[g])
        });
        match home {
            Some(k) => {
                used[k] = true;
                if sorted(&new_groups[k]) == sorted(&pos.table[g]) {
                    same.push(g);
                }
                table[g] = Some(new_groups[k].clone());
            }
            None => {
                if pos.kinds[g] != Kind::Loose {
                    rearranged = true;
                }
                table[g] = None;
            }
        }
    }
    for (g, ext) in &branch.frozen {
        if frozen.contains(g)
            && !ext.is_empty()
            && let Some(Some(group)) = table.get_mut(*g)
        {
            group.extend(ext.iter().copied());
            // The joker keeps its name; the extension is valid by construction.
            debug_assert!(validate_group(group, pos.rules.group_rules()).is_ok());
        }
    }
    let mut loose_joker_groups = Vec::new();
    for jg in &branch.joker_groups {
        match jg.kept.and_then(|g| table.get_mut(g)) {
            Some(slot) => *slot = Some(jg.cards.clone()),
            None => loose_joker_groups.push(jg.cards.clone()),
        }
    }
    let mut out: Vec<Vec<Card>> = table.into_iter().flatten().collect();
    for (k, g) in new_groups.into_iter().enumerate() {
        if !used[k] {
            out.push(g);
        }
    }
    out.extend(loose_joker_groups);
    let mut changed: Vec<usize> = dissolve
        .iter()
        .copied()
        .filter(|g| !untouched_loose.contains(g))
        // A group rebuilt exactly as it was is not touched.
        .filter(|g| !same.contains(g))
        .collect();
    for (g, ext) in &branch.frozen {
        if !ext.is_empty() && frozen.contains(g) {
            changed.push(*g);
        }
    }
    changed.extend(kept);
    changed.sort_unstable();
    changed.dedup();
    make_play(pos, played, out, changed, rearranged)
}

/// A group's cards in a fixed order, to compare groups as multisets.
pub(crate) fn sorted(g: &[Card]) -> Vec<Card> {
    let mut v = g.to_vec();
    v.sort();
    v
}
