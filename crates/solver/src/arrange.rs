//! Laying out a play with as little change to the input table as possible: the
//! sweep says which hand cards go down; here we look for a small set of input
//! groups to rebuild (the others stay exactly as they were) and rebuild only those.

use crate::build::{self, Fixed};
use crate::partition;
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
    feasible_guided(
        pos,
        branch,
        dissolve,
        played,
        spent,
        &mut None,
        Limits::SHRINK,
    )
}

/// How far one test of [`feasible_guided`] may go, and what may stand as
/// its layout.
#[derive(Clone, Copy)]
struct Limits {
    /// States a direction of the general sweep.
    states: usize,
    /// Whether a mid-game test with jokers that the relaxed split splits
    /// takes that split's layout ([`split_with_jokers`]) in place of the
    /// sweep's. The shrink's tests and the hints' do; the step's first two
    /// tests (the play alone, the neighbourhood) keep the sweep's: their
    /// layout is where the greedy shrink starts, and with the split's
    /// `REACHABLE=1 probe vat 2 30 10 300 points` #230 gave back the
    /// untouched `QS QH QD QC` at once and then could not give back group
    /// 0, ending at five changed groups where the sweep's start ends at
    /// four (over the probe sets, three plays one group better and two one
    /// worse: `car 2 30 10 300` 1,089 -> 1,087 changed groups, `vat 2 30 10
    /// 300 points` 1,045 -> 1,046). Their sweeps cost some 10M
    /// instructions of `car 2 30 10 300`'s 489M.
    split_layout: bool,
}

impl Limits {
    const SHRINK: Limits = Limits {
        states: TEST_LIMIT,
        split_layout: true,
    };
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
    limits: Limits,
) -> Test {
    let limit = limits.states;
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
    // Carousel in either mode, any rule set in strict copies mode (whose
    // layouts must leave the whole table keeping the rule).
    if (pos.rules == rami_melds::RuleSet::Carousel || spec.strict_copies)
        && !kept_jokers_hold(pos, dissolve, played)
    {
        return Test::None;
    }
    if let Some(found) = split_with_jokers(
        pos,
        branch,
        dissolve,
        &spec,
        &fixed,
        spent,
        limits.split_layout,
    ) {
        return found;
    }
    if spec.strict_copies && branch.joker_groups.is_empty() && branch.frozen.is_empty() {
        let first = match named_first(pos, dissolve, &spec, &fixed, spent) {
            Test::GaveUp => plain_first(pos, dissolve, &spec, &fixed, spent, guide),
            settled => settled,
        };
        if !matches!(first, Test::GaveUp) {
            return first;
        }
    }
    if let Some(found) = split_plain(pos, dissolve, &spec, &fixed, spent) {
        return found;
    }
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

/// A test of plain cards ([`plain_spec`]) settled by the lean exact split
/// (`partition.rs`) in place of a sweep, the groups of `dissolve` kept
/// whole where it can; `None` for any other test, or one the split leaves
/// unsettled (the caller sweeps it).
fn split_plain(
    pos: &Position,
    dissolve: &[usize],
    spec: &Spec,
    fixed: &Fixed,
    spent: &mut usize,
) -> Option<Test> {
    if !plain_spec(spec, fixed) {
        return None;
    }
    let prefer: Vec<&[Card]> = dissolve.iter().map(|&g| pos.table[g].as_slice()).collect();
    let split = partition::split(&spec.must, spec.ace, &prefer);
    *spent += split.states;
    match split.found {
        partition::Found::Groups(groups) => Some(Test::Layout(groups)),
        partition::Found::NoSplit => Some(Test::None),
        partition::Found::Unsettled => None,
    }
}

/// A test `partition.rs`'s relaxed split with jokers reads loosely enough
/// to be sound ([`split_with_jokers`]): groups needing one natural
/// card, plain groups, every card to place, plain copies mode, and some
/// joker (plain cards go to `split_plain`).
fn relaxed_split_applies(
    pos: &Position,
    branch: &Branch,
    dissolve: &[usize],
    spec: &Spec,
    fixed: &Fixed,
) -> bool {
    if pos.rules.group_rules().jokers != rami_melds::JokerLimit::AtLeastOneNatural
        || !plain_cards(pos, branch, dissolve)
        || spec.one_joker
        || spec.strict_copies
        || spec.need_hand
        || spec.jokers_hand > 0
        || spec.hand.iter().chain(&spec.loose).any(|&n| n > 0)
    {
        return false;
    }
    let named = fixed.run.iter().chain(&fixed.set).chain(&fixed.free);
    spec.jokers_must > 0 || named.clone().any(|&n| n > 0)
}

/// A mid-game test ([`JOKER_SPLIT_CARDS`], [`JOKER_SPLIT_TABLE`]).
fn small_test(pos: &Position, spec: &Spec) -> bool {
    let cards = spec.must.iter().map(|&n| usize::from(n)).sum::<usize>();
    let table = pos.table.iter().map(Vec::len).sum::<usize>();
    cards + usize::from(spec.jokers_must) <= JOKER_SPLIT_CARDS && table <= JOKER_SPLIT_TABLE
}

/// A test with jokers (wild, or named ones standing as their cards)
/// settled by `partition::split_with_jokers`, a relaxation of it: the
/// test's natural cards and named jokers read as natural copies of their
/// names, its wild jokers as jokers, the spec's other limits (strict copies
/// mode, anchored jokers' runs or sets) dropped but for the run jokers'
/// `joker_face_cap`, which the split keeps as the sweep does. Each drop only
/// widens what is allowed, and the rule sets whose groups need only one
/// natural card (Carousel, Vatikan, Rummy 500) ask nothing more of the
/// jokers, so every layout of the test is a split of the relaxed cards: a
/// "no split" proves no layout. Only for plain groups (no joker groups, no
/// loose cards), every card to place (`REACHABLE=1 probe car 2 30 10 100`:
/// of the step's 550 tests 215 with wild jokers had no layout, 43,700 of
/// its 67,400 states). A split, every group valid, is a layout of exactly
/// the test's cards with what the general sweep's own layout promises in
/// plain copies mode (run jokers within `joker_face_cap`; set jokers named
/// for suits their sets lack, here with room under the cap where there is
/// one: the finder's check of the copies rule mends the rest, as it does
/// the sweep's); on a mid-game table ([`small_test`]) only where
/// `split_layout` says so ([`Limits`]). Tests holding named jokers kept as
/// their cards are only refused here (their split lays those out as
/// natural cards). `None`: settled nothing, the sweep decides.
///
/// Why: a full table's test with two wild jokers costs the general sweep
/// some 1,000 instructions a state and often runs to [`TEST_LIMIT`]
/// (`REACHABLE=1 probe car 2 84 20 300` #293: tests of 62 cards that gave
/// up at 40,123 and 47,371 states, or were laid out at 37,179, which the
/// split lays out in 128-274, and refusals of 6,000-20,000 states that it
/// makes in some hundreds, most from the top rank down). With the jokers a
/// count, the split is a few shifts a state. Mid-game, the split's layout
/// spares the sweep that laid out the tests it splits (session 13:
/// `REACHABLE=1 probe car 2 30 10 300`, 157 of the 546 tests that reached
/// the split were split, and the sweep then laid out 136 of them in 50M
/// instructions, 10% of the probe).
fn split_with_jokers(
    pos: &Position,
    branch: &Branch,
    dissolve: &[usize],
    spec: &Spec,
    fixed: &Fixed,
    spent: &mut usize,
    split_layout: bool,
) -> Option<Test> {
    if !relaxed_split_applies(pos, branch, dissolve, spec, fixed) {
        return None;
    }
    let small = small_test(pos, spec);
    let limit = if small {
        partition::JOKER_STATES
    } else {
        FULL_JOKER_STATES
    };
    let prefer: Vec<&[Card]> = dissolve.iter().map(|&g| pos.table[g].as_slice()).collect();
    let named = fixed.run.iter().chain(&fixed.set).chain(&fixed.free);
    let split = partition::split_with_jokers(
        &spec.must,
        spec.jokers_must,
        spec.ace,
        &spec.joker_face_cap,
        &prefer,
        spent,
        limit,
    );
    match split {
        partition::JokerSplit::NoSplit => Some(Test::None),
        partition::JokerSplit::Unsettled => None,
        // Named jokers kept as their cards came out natural: the sweep lays
        // those out.
        partition::JokerSplit::Groups(_) if named.clone().any(|&n| n > 0) => None,
        partition::JokerSplit::Groups(_) if small && !split_layout => None,
        partition::JokerSplit::Groups(groups) => {
            let rules = pos.rules.group_rules();
            groups
                .iter()
                .all(|g| validate_group(g, rules).is_ok())
                .then_some(Test::Layout(groups))
        }
    }
}

/// States [`split_with_jokers`]' search may visit on a full table (a
/// mid-game test's: `partition::JOKER_STATES`).
const FULL_JOKER_STATES: usize = 1_000;

/// The most cards (jokers counted) a mid-game test ([`small_test`]) may
/// hold, and the most cards on the table: [`split_with_jokers`] gives those
/// [`partition::JOKER_STATES`] states a direction. Mid-game tests (`probe car 2
/// 30 10 100`) hold at most 40; on a full table's (`probe car 2 84 20 30`:
/// 36-60 cards) the split's depth-first search, dense cards at every rank,
/// ran to its state limit in 19 of 85 tests and took 135 states a refusal,
/// twice the whole probe's instructions (at 1,000 states). With 40 cards
/// and plain copies mode, full tables still lost 1-2% (`car 2 84 20 30`, `vat
/// 2 84 20 20`: 3 and 5 searches, most of them laid out by the sweep anyway).
const JOKER_SPLIT_CARDS: usize = 40;
const JOKER_SPLIT_TABLE: usize = 60;

/// Whether the jokers of the groups a test keeps as they were keep the
/// copies rule once the play is down (a freed joker kept in its old group
/// keeps its old name, whose real card the play put down): the natural
/// cards on the table are the same whatever the layout, so when they do
/// not, no layout of the test makes a legal table. (The rule fails for a
/// face when its natural copies and the jokers named for it together
/// exceed the deck's copies, whatever the order of the groups; a layout
/// only adds jokers.) Carousel refuses such a test in either mode, every
/// rule set in strict copies mode, whose layouts must keep the rule
/// (`REACHABLE=1 probe vat 2 84 20 100`: 75 namings of `named_first` laid
/// out and refused so, each test then run to the strict sweep's limit).
fn kept_jokers_hold(pos: &Position, dissolve: &[usize], played: &[Card]) -> bool {
    let kept = (0..pos.table.len()).filter(|g| !dissolve.contains(g));
    if !kept
        .clone()
        .any(|g| pos.table[g].iter().any(|c| c.declared().is_some()))
    {
        return true;
    }
    // The kept groups, and one made of every other natural card.
    let mut table: Vec<Vec<Card>> = kept.map(|g| pos.table[g].clone()).collect();
    table.push(
        dissolve
            .iter()
            .flat_map(|&g| pos.table[g].iter())
            .chain(played)
            .copied()
            .filter(|c| !c.is_joker())
            .collect(),
    );
    crate::legal::copies_ok(&table, pos.copies)
}

/// The table a test's layout makes: the groups it does not rebuild, and the
/// layout.
fn with_kept(pos: &Position, dissolve: &[usize], layout: &[Vec<Card>]) -> Vec<Vec<Card>> {
    let mut table: Vec<Vec<Card>> = (0..pos.table.len())
        .filter(|g| !dissolve.contains(g))
        .map(|g| pos.table[g].clone())
        .collect();
    table.extend(layout.iter().cloned());
    table
}

/// Strict copies mode: the test run plainly first (plain cards by the exact
/// split of `partition.rs`, else [`PLAIN_FIRST`] states a direction, the
/// walk on, both directions without jokers), its layout kept
/// when the table it makes keeps the copies rule. Every strict layout is a
/// plain one, so a plain test that proves there is none settles the strict
/// one too. `GaveUp`: the strict test decides (the plain one gave up, or its
/// layout breaks the rule).
fn plain_first(
    pos: &Position,
    dissolve: &[usize],
    strict: &Spec,
    fixed: &Fixed,
    spent: &mut usize,
    guide: &mut Option<Guide>,
) -> Test {
    let mut spec = strict.clone();
    spec.strict_copies = false;
    let mut g = *guide;
    let found = match split_plain(pos, dissolve, &spec, fixed, spent) {
        Some(found) => found,
        None => plain_first_swept(&spec, fixed, &mut g, spent),
    };
    match found {
        Test::Layout(layout) => {
            if crate::legal::copies_ok(&with_kept(pos, dissolve, &layout), pos.copies) {
                *guide = g;
                Test::Layout(layout)
            } else {
                Test::GaveUp
            }
        }
        other => other,
    }
}

/// [`plain_first`]'s test by the sweep, each direction within
/// [`PLAIN_FIRST`] states.
fn plain_first_swept(spec: &Spec, fixed: &Fixed, g: &mut Option<Guide>, spent: &mut usize) -> Test {
    match mirrored(spec, fixed) {
        Some(back) => match one_way(spec, fixed, g, PLAIN_FIRST, spent, false, Try::Whole) {
            Test::GaveUp => one_way(&back, fixed, g, PLAIN_FIRST, spent, true, Try::Whole),
            settled => settled,
        },
        None => one_way(spec, fixed, g, PLAIN_FIRST, spent, false, Try::Whole),
    }
}

/// States a direction of [`plain_first`]'s and [`named_first`]'s tests may
/// spend.
const PLAIN_FIRST: usize = FIRST_TRY;

/// Ways to name the jokers [`named_first`] tries, at most.
const NAMINGS: usize = 8;

/// Strict copies mode, a test holding wild jokers (and named jokers kept
/// free): on a full table few faces have a copy left under the cap, so the
/// jokers can be named in few ways. Each way is a test without jokers (each
/// joker a natural copy of its name: the same groups), settled by the exact
/// split of `partition.rs` (or, holding three copies of a face, swept both
/// directions with the walk on); a layout found gets its jokers back under
/// those names. Sound both ways: a strict layout, its jokers made natural
/// copies of their names, is a layout of one of these tests (a joker's name
/// has room under the cap, two of one name room for two), so when every
/// way proves it has none there is none; a layout found is kept only when
/// its groups, jokers back, are valid and the table keeps the copies rule.
/// `GaveUp` otherwise (too many ways, a way given up, or a layout that does
/// not hold with its jokers back): the other tries decide.
fn named_first(
    pos: &Position,
    dissolve: &[usize],
    strict: &Spec,
    fixed: &Fixed,
    spent: &mut usize,
) -> Test {
    if strict.jokers_must == 0 && fixed.free.iter().all(|&n| n == 0) {
        return Test::GaveUp;
    }
    if fixed.run.iter().chain(&fixed.set).any(|&n| n > 0) {
        return Test::GaveUp;
    }
    let mut base = strict.clone();
    base.strict_copies = false;
    base.jokers_must = 0;
    let room: Vec<(usize, u8)> = (0..52)
        .filter_map(|f| {
            let r = strict.joker_face_cap[f].saturating_sub(strict.must[f]);
            (r > 0).then_some((f, r))
        })
        .collect();
    // The ways: multisets of `jokers_must` faces within their rooms.
    let mut ways: Vec<Vec<usize>> = Vec::new();
    fn pick(
        room: &[(usize, u8)],
        from: usize,
        left: u8,
        way: &mut Vec<usize>,
        ways: &mut Vec<Vec<usize>>,
    ) -> bool {
        if left == 0 {
            ways.push(way.clone());
            return ways.len() <= NAMINGS;
        }
        for i in from..room.len() {
            let (f, r) = room[i];
            let used = way.iter().filter(|&&x| x == f).count();
            if used >= usize::from(r) {
                continue;
            }
            way.push(f);
            let more = pick(room, i, left - 1, way, ways);
            way.pop();
            if !more {
                return false;
            }
        }
        true
    }
    if !pick(&room, 0, strict.jokers_must, &mut Vec::new(), &mut ways) {
        return Test::GaveUp;
    }
    let rules = pos.rules.group_rules();
    let mut settled = true;
    for way in ways {
        let mut spec = base.clone();
        for &f in &way {
            spec.must[f] += 1;
        }
        let none = Fixed::default();
        let found = if let Some(found) = split_plain(pos, dissolve, &spec, &none, spent) {
            found
        } else {
            let Some(back) = mirrored(&spec, &none) else {
                return Test::GaveUp;
            };
            match one_way(
                &spec,
                &none,
                &mut None,
                PLAIN_FIRST,
                spent,
                false,
                Try::Whole,
            ) {
                Test::GaveUp => one_way(
                    &back,
                    &none,
                    &mut None,
                    PLAIN_FIRST,
                    spent,
                    true,
                    Try::Whole,
                ),
                other => other,
            }
        };
        let mut layout = match found {
            Test::None => continue,
            Test::GaveUp => {
                settled = false;
                continue;
            }
            Test::Layout(l) => l,
        };
        // The jokers back: the wild ones under their names, the named ones
        // kept free as they were, each in place of a natural copy of its
        // name in a group that stays valid.
        let mut jokers: Vec<usize> = way.clone();
        for (f, &n) in fixed.free.iter().enumerate() {
            jokers.extend(std::iter::repeat_n(f, usize::from(n)));
        }
        let mut back_in = true;
        for f in jokers {
            let Some(face) = Face::from_index(f) else {
                back_in = false;
                break;
            };
            let natural = Card::from_face(face);
            let joker = Card::named_joker(face);
            let placed = layout.iter_mut().any(|g| {
                let Some(i) = g.iter().position(|&c| c == natural) else {
                    return false;
                };
                g[i] = joker;
                if validate_group(g, rules).is_ok() {
                    return true;
                }
                g[i] = natural;
                false
            });
            if !placed {
                back_in = false;
                break;
            }
        }
        if back_in && crate::legal::copies_ok(&with_kept(pos, dissolve, &layout), pos.copies) {
            return Test::Layout(layout);
        }
        settled = false;
    }
    if settled { Test::None } else { Test::GaveUp }
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
    let mut copies = [0u8; 52];
    let mut jokers = 0usize;
    for c in cards() {
        match c.natural_face() {
            Some(f) => copies[f.index()] += 1,
            None => jokers += 1,
        }
    }
    let present = copies.map(|n| n > 0);
    let (lo, hi) = crate::sweep::ace_window(pos.rules.ace_mode());
    (0..52).any(|f| present[f] && !could_have_group(&present, f / 13, f % 13, jokers, lo, hi))
        || (jokers > 0 && jokers_short(&copies, jokers, lo, hi))
}

/// Whether the test's natural cards (`copies` per face) need more than
/// `jokers` jokers, each read as any card. A card that no group of the
/// naturals alone can hold has a joker in its group, at its rank in a set
/// or at most two places from it in a run (a run of three through it with
/// no joker in it would hold it); so two such cards share a joker only if
/// they are of one rank and two suits, or of one suit at most four places
/// apart. Cards no two of which can share one each need their own: a
/// lower bound on the jokers, counted greedily (`REACHABLE=1 probe car 2
/// 30 10 100`: the fewest-changes step's tests with jokers that have no
/// layout were 308 of its 552 tests and 59,223 of its 83,130 states).
pub(crate) fn jokers_short(copies: &[u8; 52], jokers: usize, lo: u8, hi: u8) -> bool {
    let present = copies.map(|n| n > 0);
    let places = |f: usize| -> [Option<u8>; 2] {
        let within = |p: u8| (lo..=hi).contains(&p).then_some(p);
        match f % 13 {
            0 => [within(1), within(14)],
            r => [Some(r as u8 + 1), None],
        }
    };
    let may_share = |a: usize, b: usize| {
        if a == b {
            return false;
        }
        if a % 13 == b % 13 {
            return true;
        }
        a / 13 == b / 13
            && places(a)
                .iter()
                .flatten()
                .any(|&p| places(b).iter().flatten().any(|&q| p.abs_diff(q) <= 4))
    };
    let mut apart: Vec<usize> = Vec::new();
    for f in 0..52 {
        if !present[f] || could_have_group(&present, f / 13, f % 13, 0, lo, hi) {
            continue;
        }
        for _ in 0..copies[f] {
            if apart.iter().all(|&g| !may_share(f, g)) {
                apart.push(f);
                if apart.len() > jokers {
                    return true;
                }
            }
        }
    }
    false
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
pub(crate) fn mirror_face(f: usize) -> usize {
    let (suit, rank) = (f / 13, f % 13);
    suit * 13 + if rank == 0 { 0 } else { 13 - rank }
}

/// A natural card with its rank mirrored ([`mirror_face`]).
pub(crate) fn mirror_card(c: Card) -> Card {
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
    if !plain_spec(spec, fixed) {
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

/// A test of natural cards that must all be placed: no joker, no named
/// joker standing as a card, nothing optional, no copies rule in the sweep.
fn plain_spec(spec: &Spec, fixed: &Fixed) -> bool {
    spec.jokers_must == 0
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
        .all(|a| a.iter().all(|&n| n == 0))
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
            Limits {
                states: TEST_LIMIT,
                split_layout: false,
            },
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
                    Limits {
                        states: hood_limit,
                        split_layout: false,
                    },
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
                Limits::SHRINK,
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

    /// A natural card that makes a valid group one card longer is `near` one
    /// of its cards (a named joker as its name), which `hint_extension` reads
    /// before it validates: every run of three to five places and every set
    /// of three suits, each card in turn a named joker, in every ace mode.
    #[test]
    fn a_card_that_extends_a_group_is_near_one_of_its_cards() {
        let face = |suit: usize, place: usize| {
            Face::from_index(suit * 13 + if place == 14 { 0 } else { place - 1 })
        };
        let mut groups: Vec<Vec<Face>> = Vec::new();
        for suit in 0..4 {
            for start in 1..=12 {
                for len in 3..=5 {
                    let run: Option<Vec<Face>> = (start..(start + len).min(15))
                        .map(|p| face(suit, p))
                        .collect();
                    groups.extend(run);
                }
            }
        }
        for place in 1..=13 {
            for missing in 0..4 {
                let set: Option<Vec<Face>> = (0..4)
                    .filter(|&s| s != missing)
                    .map(|s| face(s, place))
                    .collect();
                groups.extend(set);
            }
        }
        let mut checked = 0;
        for rules in [RuleSet::Manipulation, RuleSet::Shanghai, RuleSet::Carousel] {
            let group_rules = rules.group_rules();
            for faces in &groups {
                for named in (0..=faces.len()).map(|k| k.checked_sub(1)) {
                    let group: Vec<Card> = faces
                        .iter()
                        .enumerate()
                        .map(|(i, &f)| {
                            if Some(i) == named {
                                Card::named_joker(f)
                            } else {
                                Card::from_face(f)
                            }
                        })
                        .collect();
                    if validate_group(&group, group_rules).is_err() {
                        continue;
                    }
                    for c in (0..52).filter_map(Face::from_index).map(Card::from_face) {
                        let mut longer = group.clone();
                        longer.push(c);
                        if validate_group(&longer, group_rules).is_ok() {
                            checked += 1;
                            assert!(
                                group.iter().any(|&g| super::near(g, c)),
                                "{group:?} + {c:?}"
                            );
                        }
                    }
                }
            }
        }
        assert!(checked > 1000, "{checked}");
    }

    /// Strict copies mode: the jokers named first ([`super::named_first`])
    /// agree with the strict test. A "none" is one the strict test (run to
    /// its end) proves too; a layout is valid groups of exactly the test's
    /// cards, the jokers named, and its table keeps the copies rule. (A
    /// wrong "none" would change more groups; a wrong layout would break the
    /// rule.) Carousel tables dealt from one deck and from two.
    #[test]
    fn jokers_named_first_agree_with_the_strict_test() {
        use super::{exact_spec, named_first, with_kept};
        use crate::{Branch, Position};
        let mut gen_ = crate::test_positions::Gen::new(11);
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(3);
        let rules = RuleSet::Carousel;
        let (mut layouts, mut nones) = (0, 0);
        for case in 0..600 {
            let (copies, t, h) = if case % 2 == 0 {
                (1, 34, 12)
            } else {
                (2, 84, 20)
            };
            let (table, hand) = gen_.position_from_deck(rules.group_rules(), 2, t, h, 0.3, copies);
            if rami_melds::table_rules::check_copies(&table, copies).is_err() {
                continue;
            }
            let Ok(plain) = Position::new(rules, copies, &table, &hand) else {
                continue;
            };
            let pos = Position {
                strict: true,
                ..plain
            };
            let branch = Branch::default();
            // Some groups and some hand cards (jokers among them, often).
            let dissolve: Vec<usize> = (0..table.len()).filter(|_| rng.random_bool(0.9)).collect();
            let played: Vec<Card> = hand
                .iter()
                .copied()
                .filter(|c| c.is_joker() || rng.random_bool(0.25))
                .collect();
            let (spec, fixed) = exact_spec(&pos, &branch, &dissolve, &played);
            if !spec.strict_copies {
                continue;
            }
            let mut spent = 0;
            let named = named_first(&pos, &dissolve, &spec, &fixed, &mut spent);
            let mut spent = 0;
            let strict = one_way(
                &spec,
                &fixed,
                &mut None,
                2_000_000,
                &mut spent,
                false,
                super::Try::Whole,
            );
            match named {
                Test::None => {
                    assert!(matches!(strict, Test::None), "case {case}");
                    nones += 1;
                }
                Test::Layout(layout) => {
                    assert!(!matches!(strict, Test::None), "case {case}");
                    for g in &layout {
                        assert!(
                            validate_group(g, rules.group_rules()).is_ok(),
                            "case {case}: {g:?}"
                        );
                    }
                    let mut want: Vec<Card> = dissolve
                        .iter()
                        .flat_map(|&g| table[g].iter().copied())
                        .chain(played.iter().copied())
                        .collect();
                    let mut laid: Vec<Card> = layout.iter().flatten().copied().collect();
                    // (Jokers compared unnamed: a wild joker takes its name here.)
                    let unname = |c: &Card| if c.is_joker() { Card::JOKER } else { *c };
                    want = want.iter().map(unname).collect();
                    laid = laid.iter().map(unname).collect();
                    want.sort();
                    laid.sort();
                    assert_eq!(want, laid, "case {case}");
                    assert!(
                        crate::legal::copies_ok(&with_kept(&pos, &dissolve, &layout), copies),
                        "case {case}"
                    );
                    layouts += 1;
                }
                Test::GaveUp => {}
            }
        }
        // Both answers occur.
        assert!(layouts > 10 && nones > 10, "{layouts} {nones}");
    }

    /// What [`super::split_with_jokers`] settles on mid-game tables the
    /// general sweep agrees with: Carousel and Vatikan, some of their groups
    /// and some hand cards (jokers among them, often), from one deck and
    /// from two. A refusal is one the sweep makes too (run to its end); a
    /// layout (the shrink's tests take it, `split_layout`) is valid groups
    /// of exactly the test's cards, for a test the sweep does not refuse.
    /// Seen failing with `split_layout` off (no layout, as before session
    /// 13's change).
    #[test]
    fn mid_game_tests_with_jokers_settled_by_the_split_agree_with_the_sweep() {
        use crate::Position;
        let mut gen_ = crate::test_positions::Gen::new(17);
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(9);
        let (mut refused, mut laid_out, mut tried) = (0, 0, 0);
        for case in 0..1200 {
            let rules = [RuleSet::Carousel, RuleSet::Vatikan][case % 2];
            let copies = 1 + (case / 2 % 2) as u8;
            let (table, hand) =
                gen_.position_from_deck(rules.group_rules(), 2, 30, 10, 0.3, copies);
            let Ok(pos) = Position::new(rules, copies, &table, &hand) else {
                continue;
            };
            let dissolve: Vec<usize> = (0..table.len()).filter(|_| rng.random_bool(0.5)).collect();
            let played: Vec<Card> = hand
                .iter()
                .copied()
                .filter(|c| (c.is_joker() && rng.random_bool(0.7)) || rng.random_bool(0.3))
                .collect();
            tried += 1;
            let Some((found, swept)) = split_and_sweep(&pos, &dissolve, &played, 2_000_000) else {
                continue;
            };
            match found {
                Test::None => {
                    assert!(
                        matches!(swept, Test::None),
                        "case {case}: {rules:?} {dissolve:?} {played:?} {table:?}"
                    );
                    refused += 1;
                }
                Test::Layout(layout) => {
                    assert!(
                        matches!(swept, Test::Layout(_)),
                        "case {case}: {rules:?} {layout:?}"
                    );
                    assert_laid_out_cards(case, rules, &layout, &table, &dissolve, &played);
                    laid_out += 1;
                }
                Test::GaveUp => panic!("case {case}: the split gives no GaveUp"),
            }
        }
        assert!(
            refused > 100 && laid_out > 20,
            "{refused} refused, {laid_out} laid out of {tried}"
        );
    }

    /// The test of `dissolve` and `played` (no joker branch) put to
    /// [`super::split_with_jokers`] and to the general sweep (within
    /// `budget` states): both answers, or `None` where the split does not
    /// take the test.
    fn split_and_sweep(
        pos: &crate::Position,
        dissolve: &[usize],
        played: &[Card],
        budget: usize,
    ) -> Option<(Test, Test)> {
        let branch = crate::Branch::default();
        let (spec, fixed) = super::exact_spec(pos, &branch, dissolve, played);
        let found = super::split_with_jokers(pos, &branch, dissolve, &spec, &fixed, &mut 0, true)?;
        let swept = one_way(
            &spec,
            &fixed,
            &mut None,
            budget,
            &mut 0,
            false,
            super::Try::Whole,
        );
        Some((found, swept))
    }

    /// A split's layout is valid groups holding exactly the test's cards:
    /// the dissolved groups' and the played ones (jokers unnamed).
    fn assert_laid_out_cards(
        case: usize,
        rules: RuleSet,
        layout: &[Vec<Card>],
        table: &[Vec<Card>],
        dissolve: &[usize],
        played: &[Card],
    ) {
        for g in layout {
            assert!(
                validate_group(g, rules.group_rules()).is_ok(),
                "case {case}: {g:?}"
            );
        }
        let unname = |c: &Card| if c.is_joker() { Card::JOKER } else { *c };
        let mut want: Vec<Card> = dissolve
            .iter()
            .flat_map(|&g| table[g].iter())
            .chain(played)
            .map(unname)
            .collect();
        let mut laid: Vec<Card> = layout.iter().flatten().map(unname).collect();
        want.sort();
        laid.sort();
        assert_eq!(want, laid, "case {case}");
    }

    /// What [`super::split_with_jokers`] settles on full two-deck tables
    /// (Carousel and Vatikan, two jokers) the general sweep agrees with: a
    /// refusal the sweep makes too (run to its end), and a layout is valid
    /// groups of exactly the test's cards, for a test the sweep does not
    /// refuse.
    #[test]
    fn full_table_tests_with_jokers_settled_by_the_split_agree_with_the_sweep() {
        use crate::Position;
        let mut gen_ = crate::test_positions::Gen::new(23);
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(29);
        let (mut refused, mut laid_out) = (0, 0);
        for case in 0..160 {
            let rules = [RuleSet::Carousel, RuleSet::Vatikan][case % 2];
            let (table, hand) = gen_.position_from_deck(rules.group_rules(), 2, 84, 20, 0.3, 2);
            let Ok(pos) = Position::new(rules, 2, &table, &hand) else {
                continue;
            };
            let dissolve: Vec<usize> = (0..table.len()).filter(|_| rng.random_bool(0.7)).collect();
            let played: Vec<Card> = hand
                .iter()
                .copied()
                .filter(|c| c.is_joker() || rng.random_bool(0.3))
                .collect();
            let Some((found, swept)) = split_and_sweep(&pos, &dissolve, &played, 300_000) else {
                continue;
            };
            match found {
                Test::None => {
                    assert!(
                        !matches!(swept, Test::Layout(_)),
                        "case {case}: {dissolve:?} {played:?}"
                    );
                    refused += 1;
                }
                Test::Layout(layout) => {
                    assert!(!matches!(swept, Test::None), "case {case}: {layout:?}");
                    assert_laid_out_cards(case, rules, &layout, &table, &dissolve, &played);
                    laid_out += 1;
                }
                Test::GaveUp => panic!("case {case}: the split gives no GaveUp"),
            }
        }
        // Both answers occur.
        assert!(
            refused > 3 && laid_out > 10,
            "{refused} refused, {laid_out} laid out"
        );
    }

    /// A kept group whose joker's name the play's natural copies use up
    /// makes every layout of the test illegal (a freed joker left in its
    /// old group keeps the old name); rebuilt, or with a copy to spare, it
    /// does not.
    #[test]
    fn a_kept_joker_whose_copies_the_play_uses_up_refuses_the_test() {
        use super::kept_jokers_hold;
        use crate::{Branch, Position};
        use rami_cards::{parse_cards, parse_table};
        let table = parse_table("*6S 6H 6D | 6S 7S 8S | 2C 3C 4C").expect("table");
        let six = parse_cards("6S").expect("hand");
        let pos = Position::new(RuleSet::Carousel, 2, &table, &six).expect("position");
        // Kept with the hand's 6S down: both copies of 6S lie naturally.
        assert!(!kept_jokers_hold(&pos, &[1], &six));
        assert!(!kept_jokers_hold(&pos, &[1, 2], &six));
        assert!(matches!(
            super::feasible(&pos, &Branch::default(), &[1], &six, &mut 0),
            Test::None
        ));
        // Rebuilt (it may take another name), or nothing of 6S played.
        assert!(kept_jokers_hold(&pos, &[0, 1], &six));
        assert!(kept_jokers_hold(&pos, &[1], &[]));
        // Without the table's 6S, the one played leaves the joker a copy.
        let pos = Position::new(RuleSet::Carousel, 2, &table[..1], &six).expect("position");
        assert!(kept_jokers_hold(&pos, &[], &[]));
        assert!(kept_jokers_hold(&pos, &[], &six));
    }

    /// What [`kept_jokers_hold`] refuses stays refused whatever layout the
    /// test makes: when the kept groups and the test's natural cards already
    /// break the copies rule, adding the layout's jokers (any names) and
    /// putting the groups in any order never mends it. Random cards of few
    /// faces, so the rule often breaks.
    #[test]
    fn the_copies_rule_broken_by_kept_jokers_stays_broken() {
        use crate::legal::copies_ok;
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(31);
        let card = |rng: &mut rand_chacha::ChaCha8Rng| {
            let f = Face::from_index(rng.random_range(0..6)).expect("a face");
            if rng.random_bool(0.3) {
                Card::named_joker(f)
            } else {
                Card::from_face(f)
            }
        };
        let mut broken = 0;
        for _ in 0..3000 {
            let mut kept: Vec<Vec<Card>> = (0..rng.random_range(1..4))
                .map(|_| (0..3).map(|_| card(&mut rng)).collect())
                .collect();
            let naturals: Vec<Card> = (0..rng.random_range(0..5))
                .filter_map(|_| Face::from_index(rng.random_range(0..6)).map(Card::from_face))
                .collect();
            let mut pseudo = kept.clone();
            pseudo.push(naturals.clone());
            if copies_ok(&pseudo, 2) {
                continue;
            }
            broken += 1;
            // The layout: the naturals and some jokers, in some groups.
            let mut layout = vec![naturals];
            for _ in 0..rng.random_range(0..3) {
                let f = Face::from_index(rng.random_range(0..6)).expect("a face");
                layout.push(vec![Card::named_joker(f)]);
            }
            kept.extend(layout);
            let k = kept.len();
            kept.swap(0, rng.random_range(0..k));
            assert!(!copies_ok(&kept, 2), "{kept:?}");
        }
        assert!(broken > 500, "{broken} broken tables");
    }

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
            let mut faces = crate::hint::random_group_faces(&mut rng, 1..=4, 6);
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
