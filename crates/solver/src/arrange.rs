//! Laying out a play with as little change to the input table as possible: the
//! sweep says which hand cards go down; here we look for a small set of input
//! groups to rebuild (the others stay exactly as they were) and rebuild only those.

use crate::build::{self, Fixed};
use crate::sweep::{Guide, Spec, Sweep, could_have_group, guide_of};
use crate::{Branch, Goal, Kind, Play, Position, make_play};
use rami_cards::{Card, CardCounts, Face};
use rami_melds::{AceMode, validate_group};

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

/// What one feasibility test found.
pub(crate) enum Test {
    /// A layout of exactly the cards of the groups and the play.
    Layout(Vec<Vec<Card>>),
    /// There is none (proved: the test ran to its end within its limits).
    None,
    /// The test stopped at its state limit or the shared budget.
    GaveUp,
}

impl Test {
    pub(crate) fn layout(self) -> Option<Vec<Vec<Card>>> {
        match self {
            Test::Layout(l) => Some(l),
            Test::None | Test::GaveUp => None,
        }
    }
}

/// A layout of exactly the cards of `dissolve` and `played` (the groups), or
/// why there is none ([`Test`]).
pub(crate) fn feasible(
    pos: &Position,
    branch: &Branch,
    dissolve: &[usize],
    played: &[Card],
    spent: &mut usize,
) -> Test {
    feasible_guided(pos, branch, dissolve, played, spent, &mut None, TEST_LIMIT)
}

/// A test limit at or below this (the walk's own budget,
/// `FIRST_PATH_BUDGET` in `sweep.rs`) gets no separate walks first.
const FIRST_TRY: usize = 500;

/// [`feasible`], its walk trying `guide`'s choices first, with at most
/// `limit` states a direction; a layout found becomes the guide for the next
/// test.
///
/// A test without jokers is also swept from the top rank down (the same
/// cards with the ranks mirrored: ace high becomes ace low, runs stay runs,
/// sets sets), which is as exact: the walks of both directions, then the
/// sweeps forwards, then backwards if those stopped at their limit. A full
/// table's test often fails at its top ranks, which the forward sweep
/// reaches carrying every way the low ranks could go: `REACHABLE=1 probe
/// high 0 84 20 60` position 28, a test of 15 groups refused in 13,302
/// states forwards, 12 backwards.
fn feasible_guided(
    pos: &Position,
    branch: &Branch,
    dissolve: &[usize],
    played: &[Card],
    spent: &mut usize,
    guide: &mut Option<Guide>,
    limit: usize,
) -> Test {
    if *spent > ARRANGE_BUDGET {
        return Test::GaveUp;
    }
    if stranded(pos, branch, dissolve, played) {
        return Test::None;
    }
    if plain_cards(pos, branch, dissolve) {
        let cards: Vec<Card> = dissolve
            .iter()
            .flat_map(|&g| pos.table[g].iter().copied())
            .chain(played.iter().copied())
            .collect();
        if cards.iter().any(|c| c.is_joker())
            && crate::hint::splits_with_jokers(&cards, pos.rules.ace_mode()) == Some(false)
        {
            return Test::None;
        }
    }
    // Joker groups laid before the sweep take their table cards (and table
    // jokers) from rebuilt groups only.
    let mut rebuilt = CardCounts::from_cards(dissolve.iter().flat_map(|&g| &pos.table[g]));
    for jg in &branch.joker_groups {
        if jg.taken.iter().any(|&c| !rebuilt.remove(c))
            || jg.table_jokers.iter().any(|(g, _)| !dissolve.contains(g))
        {
            return Test::None;
        }
    }
    let (spec, fixed) = exact_spec(pos, branch, dissolve, played);
    let Some(back) = mirrored(&spec, &fixed) else {
        return one_way(&spec, &fixed, guide, limit, spent, false, Try::Whole);
    };
    // A small limit (the neighbourhood test's): each direction once, walk
    // and sweeps within it. Otherwise the walks first, then the sweeps
    // without walking again (the same guide: the walk would give up again).
    let tries: &[(bool, Try)] = if limit <= FIRST_TRY {
        &[(false, Try::Whole), (true, Try::Whole)]
    } else {
        &[
            (false, Try::Walk),
            (true, Try::Walk),
            (false, Try::Sweeps),
            (true, Try::Sweeps),
        ]
    };
    for &(reversed, how) in tries {
        let s = if reversed { &back } else { &spec };
        let found = one_way(s, &fixed, guide, limit, spent, reversed, how);
        if !matches!(found, Test::GaveUp) {
            return found;
        }
    }
    Test::GaveUp
}

/// Some natural card of the test (the cards of `dissolve` and `played`) can
/// be in no group of those cards, each joker among them filling any gap: the
/// sweep's own first refusal (`Sweep::stranded_card`), here before the
/// test's spec is built and its sweep set up, which cost more than the check
/// (a one-card hint's pair tests around a wild table joker: `REACHABLE=1
/// probe car 2 30 10 300 h` #149, 44 of its 61 tests). A relaxation of that
/// check, so as sound: a named joker counts as a joker, not as its card
/// (every layout of the test is one with the jokers read as any card), and
/// the window is the ace mode's widest. Only for plain groups and no joker
/// groups laid before the sweep (those take cards of their own).
fn stranded(pos: &Position, branch: &Branch, dissolve: &[usize], played: &[Card]) -> bool {
    if !plain_cards(pos, branch, dissolve) {
        return false;
    }
    let cards = || dissolve.iter().flat_map(|&g| &pos.table[g]).chain(played);
    let mut present = [false; 52];
    let mut jokers = 0usize;
    for c in cards() {
        match c.natural_face() {
            Some(f) => present[f.index()] = true,
            None => jokers += 1,
        }
    }
    let (lo, hi) = match pos.rules.ace_mode() {
        AceMode::High => (2u8, 14u8),
        AceMode::Low => (1, 13),
        AceMode::Either => (1, 14),
    };
    (0..52).any(|f| present[f] && !could_have_group(&present, f / 13, f % 13, jokers, lo, hi))
}

/// A test whose layout holds exactly the cards of `dissolve` and the play:
/// plain groups, no joker groups laid before the sweep.
fn plain_cards(pos: &Position, branch: &Branch, dissolve: &[usize]) -> bool {
    branch.joker_groups.is_empty() && dissolve.iter().all(|&g| pos.kinds[g] == Kind::Normal)
}

/// What one direction of a test runs.
#[derive(Clone, Copy)]
enum Try {
    /// The walk, then the sweeps (within the limit).
    Whole,
    /// The walk alone ([`FIRST_TRY`] states at most: its own budget).
    Walk,
    /// The sweeps alone.
    Sweeps,
}

/// One direction of [`feasible_guided`]: `spec` as given, or mirrored
/// (`reversed`: the guide, kept in the forward direction, is mirrored in,
/// and the layout and the next guide mirrored back).
fn one_way(
    spec: &Spec,
    fixed: &Fixed,
    guide: &mut Option<Guide>,
    limit: usize,
    spent: &mut usize,
    reversed: bool,
    how: Try,
) -> Test {
    let mut sw = Sweep::new(spec);
    sw.limit = Some(limit);
    sw.walk_only = matches!(how, Try::Walk);
    sw.skip_walk = matches!(how, Try::Sweeps);
    sw.guide = if reversed {
        guide.as_ref().map(mirror_guide)
    } else {
        *guide
    };
    let layout = build::layout(&mut sw, fixed, &[0; 52]).map(|l| l.groups);
    *spent += sw.explored();
    let Some(layout) = layout else {
        // Within its limit the sweep (or the walk) ran to its end.
        return if sw.explored() <= limit && !sw.unsettled() {
            Test::None
        } else {
            Test::GaveUp
        };
    };
    // The next test differs from this one by a group or two: its walk
    // starts from this layout's choices.
    if let Some((_, moves)) = sw.path() {
        let g = guide_of(&moves, sw.first());
        *guide = Some(if reversed { mirror_guide(&g) } else { g });
    }
    if !reversed {
        return Test::Layout(layout);
    }
    Test::Layout(
        layout
            .into_iter()
            .map(|g| g.into_iter().map(mirror_card).collect())
            .collect(),
    )
}

/// The face index with its rank mirrored: the ace stays, 2..K become K..2.
fn mirror_face(f: usize) -> usize {
    let (suit, rank) = (f / 13, f % 13);
    suit * 13 + if rank == 0 { 0 } else { 13 - rank }
}

/// A natural card with its rank mirrored ([`mirror_face`]).
fn mirror_card(c: Card) -> Card {
    c.natural_face()
        .and_then(|f| Face::from_index(mirror_face(f.index())))
        .map_or(c, Card::from_face)
}

/// Positions 1-14 run backwards: the ace at the low end goes to the high end.
fn mirror_guide(g: &Guide) -> Guide {
    let mut out: Guide = [[None; 4]; 15];
    for p in 1..15 {
        out[15 - p] = g[p];
    }
    out
}

/// A feasibility test's spec with the ranks mirrored (positions 1-14 run
/// backwards, ace high and ace low swap, ace either stays), where that is
/// the same test: only natural cards that must be placed (no joker, no named
/// joker standing as a card, nothing optional, no copies rule in the sweep).
fn mirrored(spec: &Spec, fixed: &Fixed) -> Option<Spec> {
    let plain = spec.jokers_must == 0
        && spec.jokers_hand == 0
        && !spec.one_joker
        && !spec.strict_copies
        && !spec.need_hand
        && !spec.forced_hand
        && [
            &spec.hand,
            &spec.loose,
            &spec.run_only,
            &spec.set_only,
            &fixed.run,
            &fixed.set,
            &fixed.free,
        ]
        .iter()
        .all(|a| a.iter().all(|&n| n == 0));
    if !plain {
        return None;
    }
    let ace = match spec.ace {
        AceMode::High => AceMode::Low,
        AceMode::Low => AceMode::High,
        AceMode::Either => AceMode::Either,
    };
    let mut back = Spec::new(ace, false);
    back.bonus = spec.bonus;
    for f in 0..52 {
        back.must[mirror_face(f)] = spec.must[f];
    }
    Some(back)
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
        )
        .layout()
        {
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
                .layout()
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
            )
            .layout()
            {
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

#[cfg(test)]
mod tests {
    use super::{Test, mirror_face, mirrored, one_way};
    use crate::build::Fixed;
    use crate::hint::splits_into_groups;
    use crate::sweep::Spec;
    use rami_cards::{Card, CardCounts, Face};
    use rami_melds::{RuleSet, validate_group};
    use rand::{Rng, SeedableRng};

    #[test]
    fn mirroring_a_face_twice_gives_it_back() {
        for f in 0..52 {
            assert_eq!(mirror_face(mirror_face(f)), f);
            assert_eq!(mirror_face(f) / 13, f / 13);
        }
        // The ace stays, the two becomes the king.
        assert_eq!(mirror_face(0), 0);
        assert_eq!(mirror_face(1), 12);
    }

    /// Each direction of a test agrees with the exact split check, and a
    /// layout found backwards, mirrored back, is valid groups of exactly
    /// the test's cards (a mirroring mistake would lay out other cards, or
    /// runs the rules refuse: `Q K A` is a run ace high, `A K Q` mirrored
    /// must be read ace low).
    #[test]
    fn a_test_swept_backwards_agrees_and_lays_out_its_own_cards() {
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(5);
        let mut found = 0;
        for case in 0..1500 {
            let rules = [
                RuleSet::Manipulation,
                RuleSet::Shanghai,
                RuleSet::Machiavelli,
            ][case % 3];
            // A few groups (sets, runs with the ace at either end), then
            // often a card more or less.
            let mut faces: Vec<usize> = Vec::new();
            for _ in 0..rng.random_range(1..=4) {
                let suit = rng.random_range(0..4);
                if rng.random_bool(0.5) {
                    let rank = rng.random_range(0..13);
                    let len = rng.random_range(3..=4);
                    faces.extend((0..len).map(|k| ((suit + k) % 4) * 13 + rank));
                } else {
                    let start = rng.random_range(0..12);
                    let len = rng.random_range(3..=6);
                    faces.extend((start..start + len).map(|p| suit * 13 + (p % 13)));
                }
            }
            match rng.random_range(0..3) {
                0 => faces.push(rng.random_range(0..52)),
                1 => {
                    let i = rng.random_range(0..faces.len());
                    faces.remove(i);
                }
                _ => {}
            }
            let mut spec = Spec::new(rules.ace_mode(), false);
            for &f in &faces {
                spec.must[f] = spec.must[f].saturating_add(1);
            }
            if spec.must.iter().any(|&n| n > 2) {
                continue;
            }
            let cards: Vec<Card> = faces
                .iter()
                .filter_map(|&f| Face::from_index(f))
                .map(Card::from_face)
                .collect();
            let want = splits_into_groups(&cards, rules.ace_mode());
            let fixed = Fixed::default();
            let back = mirrored(&spec, &fixed).expect("a joker-free test mirrors");
            for reversed in [false, true] {
                let s = if reversed { &back } else { &spec };
                let mut spent = 0;
                let test = one_way(
                    s,
                    &fixed,
                    &mut None,
                    1_000_000,
                    &mut spent,
                    reversed,
                    super::Try::Whole,
                );
                match test {
                    Test::Layout(layout) => {
                        assert_eq!(want, Some(true), "case {case} reversed {reversed}");
                        for g in &layout {
                            assert!(
                                validate_group(g, rules.group_rules()).is_ok(),
                                "case {case} reversed {reversed}: {g:?}"
                            );
                        }
                        let laid = CardCounts::from_cards(layout.iter().flatten());
                        assert!(laid == CardCounts::from_cards(&cards), "case {case}");
                        found += usize::from(reversed);
                    }
                    Test::None => assert_eq!(want, Some(false), "case {case} reversed {reversed}"),
                    Test::GaveUp => panic!("case {case}: no limit was set"),
                }
            }
        }
        // Both answers occur.
        assert!(found > 100, "{found}");
    }
}
