//! The Remind option's hint: of the plays that put down the fewest hand cards
//! (the search's hint goal finds that count exactly), one changing the fewest
//! input groups, and of those one that does not rearrange the table, if one
//! exists ([`exact`]; "changed" and "rearranged" as `Play` defines them).
//!
//! The search's own answer gives an upper bound (its changed groups, and
//! whether it rearranges); [`exact`] tries sets of input groups by size from
//! the least possible, only sets joined to the hand by cards near each other,
//! each with an exact feasibility test over a handful of cards: joker-free
//! ones with the exact split test below then a sweep that lays them out, the
//! others with a hint sweep per branch of the table rules kept inside the
//! set. At the first size some set takes a play of that many cards, every set
//! of that size is tried for a play that only extends its groups before a
//! rearranged play stands. A hint that is one group extended (the common
//! case) costs nothing more.
//!
//! Before the search, a hand card that simply extends a group is looked for
//! (`hint_extension` in lib.rs), and with jokers around, one card with one
//! group ([`one_card_fewest_groups`], nothing freed, or the card freeing a
//! joker of the group, in Tahiti a frozen group's): each is the least a
//! play can disturb.
//! When that one-card test finds nothing, what it proved (per group, no hand
//! card makes a layout with it alone, nothing freed) spares [`exact`] the
//! same sweeps; a hand card that extends no group alone spares it the
//! sharing-out of one card.
//!
//! When the restricted search of Vatikan or Tahiti finds no hint (it tries
//! only the fewest-card play of each branch of the table rules), the counts
//! between the search's fewest and the best play's are tried by
//! [`fewest_legal`]: each multiset of hand cards as a whole hand for the
//! restricted best play.
//!
//! Exact but for: the feasibility tests' state budget
//! (`arrange::feasible`, shared per hint); at most [`SETS_PER_SIZE`] sets
//! of groups per size; no search for a play without rearrangement past
//! [`UNARRANGED_CARDS`] hand cards; at most [`MULTISETS_PAST_THE_RULES`]
//! multisets past the table rules, within [`STATES_PAST_THE_RULES`] sweep
//! states. Each cap counts its bites
//! (`internal::hint_bites`): none on `finder_hint`'s positions (the test
//! asserts it) nor on 100 mid-game and 30 full-table probe positions of
//! each ace mode, Carousel, Tahiti and Vatikan (the sets cap bit on one
//! full Vatikan table, `probe vat 2 84 20 30 h` #3, until sets that cannot
//! mend a table breaking the copies rule were no longer counted against
//! it, see [`mends_copies`]). A joker put in an extension or a new group takes
//! its first naming, and one the copies rule refuses is renamed (every
//! naming of its group, `legal::rename_set_jokers`), so no naming is lost.
//! Vatikan and Tahiti: a set's test keeps the layout its sweep gives; one the
//! table rules refuse (or mend only by changing a group outside the set) is
//! replaced by the whole finder's hint on the set's groups alone as the
//! table, which reads a joker whose real card lies outside the set as not
//! freeable and counts no copies outside it (its play is judged on the whole
//! table again). Carousel: such a layout is passed over, not replaced (the
//! finder has no search legal under its copies rule yet: `finder_hint` at
//! `RAMI_EXACT_N=10`, case 3645, table `*10D JD QD KD AD | *QH QD QC`, hand
//! `JH 10D 3D`: the freed joker named QD, two groups where `*9D` changes
//! one). And the fewest cards themselves, which are the search's
//! (restricted in Vatikan and Tahiti, see `restricted.rs`).

use crate::arrange::{Test, contains, feasible, near, sorted};
use crate::{Best, Branch, Goal, Kind, Play, Position, Role, legal, make_play, sweep_branch};
use rami_cards::{Card, CardCounts};
use rami_melds::{AceMode, RuleSet};

/// Groups a test may dissolve: plain groups (not Tahiti's frozen or loose ones)
/// whose cards a rebuild may move. A Vatikan group holding a joker is one too:
/// the tests do not model that its joker must stay beside a card that was next
/// to it, so each play is checked against the table rules before it is
/// returned ([`legal_play`]).
fn movable(pos: &Position, g: usize) -> bool {
    pos.kinds[g] == Kind::Normal
}

/// `play` if the table rules of Vatikan and Tahiti allow it, or once a joker
/// named against the copies rule is renamed; `None` otherwise (the search goes
/// on to the next card or groups: another layout of the same groups is not
/// tried, so such a hint may still touch more groups than needed).
fn legal_play(pos: &Position, play: Play) -> Option<Play> {
    // A joker the sweep named after a card whose every copy lies on the new
    // table is renamed or refused (every rule set with named jokers).
    if !legal::copies_ok(&play.table, pos.copies) {
        return legal::rename_set_jokers(pos.rules, pos.copies, &pos.table, &play).filter(|p| {
            legal::check(pos.rules, pos.copies, &pos.table, &p.table, &p.played).is_ok()
        });
    }
    match legal::check(pos.rules, pos.copies, &pos.table, &play.table, &play.played) {
        Ok(()) => Some(play),
        Err(legal::Fault::Names) => {
            legal::rename_set_jokers(pos.rules, pos.copies, &pos.table, &play)
        }
        Err(_) => None,
    }
}

/// [`legal_play`], kept only if the play still changes no group outside
/// `set` (a renaming, swap or move that mends the copies rule can take in
/// another group: that play is one of a larger set, tried in its turn).
fn legal_within(
    pos: &Position,
    play: Play,
    set: &[usize],
    widened: &std::cell::RefCell<Option<Play>>,
) -> Option<Play> {
    let play = legal_play(pos, play)?;
    if play.changed.iter().all(|g| set.contains(g)) {
        return Some(play);
    }
    // Kept for [`exact`]: the fewest groups, then not rearranged.
    let mut wide = widened.borrow_mut();
    let key = |p: &Play| (p.changed.len(), p.rearranged);
    if wide.as_ref().is_none_or(|w| key(&play) < key(w)) {
        *wide = Some(play);
    }
    None
}

/// The natural hand cards, each face once, in hand order.
fn distinct_naturals(pos: &Position) -> Vec<Card> {
    let mut out: Vec<Card> = Vec::new();
    for &c in &pos.hand {
        if !c.is_joker() && !out.contains(&c) {
            out.push(c);
        }
    }
    out
}

/// Card `t` of group `g` can stand next to `c` in a group of the plain
/// branch (nothing freed): near it ([`near`] reads a named joker as its
/// name), or a joker that may take any name there (Carousel's and Vatikan's
/// named jokers whose real card is on the table). (Reading such a joker as
/// its name missed plays: Carousel `finder_hint` case 539.)
fn next_to(pos: &Position, g: usize, i: usize, c: Card) -> bool {
    let t = pos.table[g][i];
    near(t, c) || (t.is_joker() && pos.role(g, t, &Branch::default(), i) == Role::Wild)
}

/// Some card of group `g` can stand next to `c` ([`next_to`]).
fn touches(pos: &Position, g: usize, c: Card) -> bool {
    (0..pos.table[g].len()).any(|i| next_to(pos, g, i, c))
}

/// Some card of group `g` can stand next to some card of group `h`.
fn groups_touch(pos: &Position, g: usize, h: usize) -> bool {
    (0..pos.table[g].len()).any(|i| {
        let t = pos.table[g][i];
        (t.is_joker() && pos.role(g, t, &Branch::default(), i) == Role::Wild) || touches(pos, h, t)
    })
}

/// What [`one_card_fewest_groups`] over one group proved when it found no
/// play: per input group, whether no natural hand card makes a layout with
/// that group alone in the plain branch (every card tried, no test cut
/// short by its budget). [`exact`] then skips the same test (a hint sweep
/// of that group alone, nothing freed) for a one-card hint of a hand
/// without jokers. Kept per thread for the position it was made for.
struct NoOneGroupPlay {
    rules: RuleSet,
    copies: u8,
    table: Vec<Vec<Card>>,
    kinds: Vec<Kind>,
    hand: Vec<Card>,
    proved: Vec<bool>,
    /// The test found no legal play of one card changing this many groups
    /// or fewer (0, 1 or 2), and nothing was cut short or refused on the
    /// way (see [`proved_one_card_groups`]).
    proved_groups: usize,
}

thread_local! {
    static NO_ONE_GROUP_PLAY: std::cell::RefCell<Option<NoOneGroupPlay>> =
        const { std::cell::RefCell::new(None) };
}

/// Whether [`one_card_fewest_groups`] proved that no natural hand card of
/// `pos` makes a layout with group `g` alone, nothing freed.
fn proved_no_one_group_play(pos: &Position, g: usize) -> bool {
    NO_ONE_GROUP_PLAY.with(|p| {
        p.borrow().as_ref().is_some_and(|p| {
            p.proved.get(g) == Some(&true)
                && p.rules == pos.rules
                && p.copies == pos.copies
                && p.kinds == pos.kinds
                && p.hand == pos.hand
                && p.table == pos.table
        })
    })
}

/// The most groups `n` (0, 1 or 2) such that [`one_card_fewest_groups`]
/// proved that no legal play of one hand card of `pos` changes `n` input
/// groups or fewer. It tries every natural hand card (the hand holds no
/// joker) with every group, and (for two) with every pair of groups of
/// which the second is near the card or the first (a group near neither
/// keeps a valid layout of its own, so such a play gives one changing the
/// first alone), in the branch freeing nothing and the one where the card
/// frees a joker of those groups: in Carousel and Vatikan a play of one
/// card frees only a joker it replaces, and every other joker of the
/// groups is free already or keeps its name (all their groups are plain
/// ones). In Tahiti (see [`tahiti_provable`]) a play of one card either
/// rebuilds plain groups (the branch freeing nothing), or frees the one
/// frozen group whose joker is named for it (dissolved, its jokers wild,
/// with any plain group), or extends a frozen group, which no hand card
/// does there, and a loose single there is none. Each test that found no
/// layout proved it, and none gave up or had its layout refused by the
/// rules. Then [`exact`] starts its one-card search past those sizes, as
/// it does without jokers (a hint found by the test at two groups has one
/// group settled: `REACHABLE=1 probe tah 4 30 10 300 h` #220).
fn proved_one_card_groups(pos: &Position) -> usize {
    NO_ONE_GROUP_PLAY.with(|p| {
        p.borrow()
            .as_ref()
            .filter(|p| {
                p.rules == pos.rules
                    && p.copies == pos.copies
                    && p.kinds == pos.kinds
                    && p.hand == pos.hand
                    && p.table == pos.table
            })
            .map_or(0, |p| p.proved_groups)
    })
}

/// Tahiti: whether the one-card tests can prove there is no small play
/// ([`proved_one_card_groups`]): no loose single on the table (the tests
/// take none), and no hand card extends a frozen group (a play of one
/// frozen group the tests do not make).
fn tahiti_provable(pos: &Position) -> bool {
    let rules = pos.rules.group_rules();
    pos.table
        .iter()
        .enumerate()
        .all(|(g, group)| match pos.kinds[g] {
            Kind::Loose => false,
            Kind::Normal => true,
            Kind::Frozen => distinct_naturals(pos).into_iter().all(|c| {
                if !may_extend(group, c) {
                    return true;
                }
                let mut cards = group.clone();
                cards.push(c);
                rami_melds::validate_group(&cards, rules).is_err()
            }),
        })
}

/// Per joker name, how many of the input table's jokers of that name break
/// the copies rule (its naturals and jokers pass the deck's copies): a
/// random table can (a game's tables never do).
fn over_copied(pos: &Position) -> Vec<(rami_cards::Face, usize)> {
    let naturals = CardCounts::from_cards(pos.table.iter().flatten());
    let mut out: Vec<(rami_cards::Face, usize)> = Vec::new();
    for f in pos.table.iter().flatten().filter_map(|c| c.declared()) {
        match out.iter_mut().find(|(x, _)| *x == f) {
            Some((_, n)) => *n += 1,
            None => out.push((f, 1)),
        }
    }
    for (f, jokers) in &mut out {
        *jokers = (usize::from(naturals.face_count(*f)) + *jokers)
            .saturating_sub(usize::from(pos.copies));
    }
    out.retain(|&(_, n)| n > 0);
    out
}

/// Whether a play changing only the groups of `set` can leave a table the
/// copies rule allows, `over` being [`over_copied`]. Cards never leave the
/// table, so a name whose naturals and jokers pass the deck's copies on the
/// input table keeps at least that many naturals: that many of its jokers
/// must be renamed or moved, and an unchanged group keeps its jokers' names.
/// (On such random tables the one-card test and [`exact`] otherwise tried
/// every group alone and then every pair, each play mended into more
/// groups: `probe car 2 30 10 100 h` #68, `car 2 84 20 30 h` #8.)
fn mends_copies(pos: &Position, over: &[(rami_cards::Face, usize)], set: &[usize]) -> bool {
    over.iter().all(|&(f, n)| {
        let inside = set
            .iter()
            .flat_map(|&g| &pos.table[g])
            .filter(|c| c.declared() == Some(f))
            .count();
        inside >= n
    })
}

/// `pos` with only the hand cards a one-card play changing only the groups
/// of `set` can put down; `None` when that is every hand card. The card
/// lies in a new group of three or more with cards of the set: with at most
/// one joker in it, a natural card of the set is next to the card or two
/// places from it across the joker, or of its rank (`near`); only a set
/// holding two jokers can make a group of the card and two jokers. A hand
/// joker is kept, and so is the real card of a joker of the set (freeing
/// it puts that card down).
fn one_card_hand(pos: &Position, set: &[usize]) -> Option<Position> {
    let cards = || set.iter().flat_map(|&g| pos.table[g].iter().copied());
    if cards().filter(|c| c.is_joker()).count() >= 2 {
        return None;
    }
    let hand: Vec<Card> = pos
        .hand
        .iter()
        .copied()
        .filter(|&h| {
            h.is_joker()
                || cards().any(|t| {
                    (!t.is_joker() && near(t, h))
                        || t.declared().is_some_and(|f| h.natural_face() == Some(f))
                })
        })
        .collect();
    if hand.len() == pos.hand.len() {
        return None;
    }
    Some(pos.with_sub_hand(&hand))
}

/// A play of one hand card that changes a number of groups in `sizes` (1, 2
/// or both), the fewest first; failing that, one the rules' mend of such a
/// layout widened to more groups (the fewest of those). `None`: no such play.
pub(crate) fn one_card_fewest_groups(
    pos: &Position,
    sizes: std::ops::RangeInclusive<usize>,
) -> Option<Play> {
    let branch = Branch::default();
    let mut spent = 0usize;
    let cards = distinct_naturals(pos);
    // Tahiti's frozen groups too, each only in the branch where the card
    // frees its joker (see [`freeing_branch`]): its one-card hints of a
    // freed joker were found only by the whole hint sweep, which sweeps
    // the whole table with the joker wild (`REACHABLE=1 probe tah 4 30 10
    // 300 h` #145: `8H` into `8S *8H 8D 8C`, the joker to `QD KD AD`, a
    // sweep of 9,855 states after one of 1,821 for the branch freeing
    // nothing).
    // They come after the plain groups at each size, for every card: their
    // tests are the dearer (the joker wild with any plain group), and a
    // plain play of as many groups spares them (#139: `5C` freeing `5S 5H
    // 5D *5C` tried with every group before `8D`'s plain pair).
    let groups: Vec<usize> = (0..pos.table.len()).filter(|&g| movable(pos, g)).collect();
    let frozen: Vec<usize> = (0..pos.table.len())
        .filter(|&g| frees_alone(pos, g))
        .collect();
    // One group alone: which groups no card can take (see [`NoOneGroupPlay`]).
    let mut proved: Vec<bool> = (0..pos.table.len()).map(|g| movable(pos, g)).collect();
    if sizes.contains(&1) {
        NO_ONE_GROUP_PLAY.with(|p| p.borrow_mut().take());
    }
    let mut wider: Option<Play> = None;
    let over = over_copied(pos);
    // Something was cut short or refused: no proof of "no play" (see
    // [`proved_one_card_groups`]).
    let mut cut = pos.hand_jokers > 0
        || match pos.rules {
            RuleSet::Carousel | RuleSet::Vatikan => false,
            RuleSet::Tahiti => !tahiti_provable(pos),
            _ => true,
        };
    let from_one = sizes.contains(&1);
    for size in sizes {
        for firsts in [&groups, &frozen] {
            for &c in &cards {
                // The first group must take the card; a second one must be near the
                // card or the first group (otherwise it cannot take part).
                for &g1 in firsts.iter() {
                    // No group of the layout can hold the card without a card
                    // next to it: proved for this card.
                    if !touches(pos, g1, c) {
                        continue;
                    }
                    // A frozen group takes part only freed, by its joker's card.
                    if !movable(pos, g1)
                        && first_named_joker(pos, g1).map(|(_, f)| f) != c.natural_face()
                    {
                        continue;
                    }
                    let seconds: Vec<Option<usize>> = if size == 1 {
                        vec![None]
                    } else {
                        // (A frozen group with a plain one: from the frozen
                        // side, where the card frees it; a one-card play
                        // frees one joker, so never two frozen groups.)
                        groups
                            .iter()
                            .filter(|&&g2| {
                                g2 != g1
                                    && (touches(pos, g2, c) || groups_touch(pos, g2, g1))
                                    // A pair whose first group also takes the card
                                    // is tried once, from its lower index (with a
                                    // frozen group, from the frozen side only).
                                    && (g2 > g1 || !touches(pos, g2, c) || !movable(pos, g1))
                            })
                            .map(|&g2| Some(g2))
                            .collect()
                    };
                    for g2 in seconds {
                        let dissolve: Vec<usize> = std::iter::once(g1).chain(g2).collect();
                        if !mends_copies(pos, &over, &dissolve) {
                            // No legal play of these groups (nothing proved of
                            // their layouts).
                            if size == 1 {
                                proved[g1] = false;
                            }
                            continue;
                        }
                        let mut cards: Vec<Card> = dissolve
                            .iter()
                            .flat_map(|&g| pos.table[g].iter().copied())
                            .collect();
                        cards.push(c);
                        // A frozen group is tested freed, its jokers wild, which
                        // `feasible`'s own split check (plain groups only) leaves
                        // to its sweep: the split reading each joker as any card
                        // refutes what has no layout (`REACHABLE=1 probe tah 4
                        // 30 10 300 h` #220: `AD` into `AS AH *AD AC`, a sweep
                        // of 6,230 states for no layout).
                        let frozen = !movable(pos, g1);
                        let splits = if frozen {
                            splits_with_jokers(&cards, pos.rules.ace_mode())
                        } else {
                            splits_into_groups(&cards, pos.rules.ace_mode())
                        };
                        if splits == Some(false) {
                            continue;
                        }
                        // The plain branch, then (when `c` is the real card of
                        // a joker of these groups) the one freeing it: the card
                        // takes the joker's place and the joker a new name in
                        // the same groups (`REACHABLE=1 probe car 2 30 10 300 h`
                        // #79: `2C` into `AC *2C 3C 4C` as `AC 2C 3C 4C *5C`,
                        // found before by the whole hint sweep and its steps).
                        let freeing = freeing_branch(pos, &dissolve, c);
                        // A frozen group is rebuilt only once its joker is freed.
                        let plain_branch = movable(pos, g1).then_some(&branch);
                        for (b, plain) in [(plain_branch, true), (freeing.as_ref(), false)] {
                            let Some(b) = b else { continue };
                            let layout = match feasible(pos, b, &dissolve, &[c], &mut spent) {
                                Test::Layout(l) => l,
                                Test::None => continue,
                                Test::GaveUp => {
                                    if size == 1 && plain {
                                        proved[g1] = false;
                                    }
                                    cut = true;
                                    continue;
                                }
                            };
                            match legal_play(pos, lay_out(pos, c, &dissolve, layout)) {
                                Some(play) if play.changed.len() <= size => return Some(play),
                                // The rules' mend moved a joker to another group
                                // (`legal::rename_set_jokers`): a play, but of more
                                // groups; the search goes on, and it stands if
                                // nothing better turns up.
                                Some(play)
                                    if wider
                                        .as_ref()
                                        .is_none_or(|w| play.changed.len() < w.changed.len()) =>
                                {
                                    wider = Some(play);
                                }
                                _ => {}
                            }
                            // A layout the rules refuse or mend into more groups:
                            // another layout of the same group might not be, so
                            // nothing is proved.
                            if size == 1 && plain {
                                proved[g1] = false;
                            }
                            cut = true;
                        }
                    }
                }
            }
        }
        if size == 1 {
            NO_ONE_GROUP_PLAY.with(|p| {
                *p.borrow_mut() = Some(NoOneGroupPlay {
                    rules: pos.rules,
                    copies: pos.copies,
                    table: pos.table.clone(),
                    kinds: pos.kinds.clone(),
                    hand: pos.hand.clone(),
                    proved: std::mem::take(&mut proved),
                    proved_groups: usize::from(!cut),
                });
            });
        } else if from_one && size == 2 && !cut {
            NO_ONE_GROUP_PLAY.with(|p| {
                if let Some(p) = p.borrow_mut().as_mut() {
                    p.proved_groups = 2;
                }
            });
        }
    }
    wider
}

/// The branch of the table rules in which hand card `c`, put down, frees
/// the jokers of the groups of `dissolve` named for it (Carousel and
/// Vatikan: a joker whose real card is on the table already is free in
/// the plain branch); `None` when no such joker lies there. The jokers
/// named for it in other groups keep their names, as the branches of
/// [`Position::branches`] that free only some of them do. Tahiti: the
/// frozen group of `dissolve` whose first joker is named for `c` (one
/// card frees one frozen group, the first joker as `Position::branches`
/// frees it), every other frozen group staying as it is.
fn freeing_branch(pos: &Position, dissolve: &[usize], c: Card) -> Option<Branch> {
    let f = c.natural_face()?;
    if pos.rules == RuleSet::Tahiti {
        let &g = dissolve.iter().find(|&&g| pos.kinds[g] == Kind::Frozen)?;
        let (i, _) = first_named_joker(pos, g).filter(|&(_, x)| x == f)?;
        let mut forced = [0u8; 52];
        forced[f.index()] = 1;
        return Some(Branch {
            freed: vec![(g, i)],
            forced,
            ..Branch::default()
        });
    }
    if !matches!(pos.rules, RuleSet::Carousel | RuleSet::Vatikan) || pos.on_table[f.index()] {
        return None;
    }
    let freed: Vec<(usize, usize)> = dissolve
        .iter()
        .flat_map(|&g| {
            pos.table[g]
                .iter()
                .enumerate()
                .filter(move |(_, t)| t.declared() == Some(f))
                .map(move |(i, _)| (g, i))
        })
        .collect();
    if freed.is_empty() {
        return None;
    }
    let mut forced = [0u8; 52];
    forced[f.index()] = 1;
    Some(Branch {
        freed,
        forced,
        ..Branch::default()
    })
}

/// Tahiti: the first named joker of frozen group `g` (its place and name),
/// the one a card of that name frees ([`Position::branches`]).
fn first_named_joker(pos: &Position, g: usize) -> Option<(usize, rami_cards::Face)> {
    if pos.kinds[g] != Kind::Frozen {
        return None;
    }
    pos.table[g]
        .iter()
        .enumerate()
        .find_map(|(i, c)| c.declared().map(|f| (i, f)))
}

/// Tahiti: frozen group `g` can be freed by a hand card (the real card of
/// its first named joker is in the hand).
fn frees_alone(pos: &Position, g: usize) -> bool {
    first_named_joker(pos, g).is_some_and(|(_, f)| pos.hand_counts[f.index()] > 0)
}

/// The table left (`None`: a group rebuilt elsewhere), then the layout's
/// groups that took no input group's place (`used`), at the end.
fn joined(
    table: Vec<Option<Vec<Card>>>,
    layout: Vec<Vec<Card>>,
    used: Vec<bool>,
) -> Vec<Vec<Card>> {
    let mut out: Vec<Vec<Card>> = table.into_iter().flatten().collect();
    out.extend(
        layout
            .into_iter()
            .zip(used)
            .filter(|(_, u)| !u)
            .map(|(g, _)| g),
    );
    out
}

/// The play that rebuilds `dissolve` with `card` as `layout`: each new group
/// takes the place of an input group it holds whole; the others go at the end.
fn lay_out(pos: &Position, card: Card, dissolve: &[usize], layout: Vec<Vec<Card>>) -> Play {
    let mut table: Vec<Option<Vec<Card>>> = pos.table.iter().cloned().map(Some).collect();
    let mut used = vec![false; layout.len()];
    let mut rearranged = false;
    for &g in dissolve {
        let home = (0..layout.len()).find(|&k| !used[k] && contains(&layout[k], &pos.table[g]));
        match home {
            Some(k) => {
                used[k] = true;
                table[g] = Some(layout[k].clone());
            }
            None => {
                rearranged = true;
                table[g] = None;
            }
        }
    }
    let out = joined(table, layout, used);
    let mut changed = dissolve.to_vec();
    changed.sort_unstable();
    make_play(pos, vec![card], out, changed, rearranged)
}

/// Whether joker-free `cards` split wholly into groups (`None` with a joker
/// among them: the caller asks the sweep). Exact, and far cheaper than a sweep
/// on the handful of cards a hint test holds: the copies each rank gives to
/// sets are tried in every way (only ranks with three suits can have a set),
/// and what is left of each suit must split into runs of three or more, which
/// a greedy pass over the positions decides (extend the runs still short of
/// three first, then the long ones, then start new ones).
pub(crate) fn splits_into_groups(cards: &[Card], ace: AceMode) -> Option<bool> {
    let mut counts = [[0u8; 13]; 4];
    for c in cards {
        let f = c.natural_face()?;
        counts[f.suit().index()][usize::from(f.rank().value()) - 1] += 1;
    }
    Some(splits_counts(&mut counts, ace))
}

/// [`splits_into_groups`] on counts per suit and rank (ace first). A suit
/// with no card at a rank of three suits or more gives no card to a set:
/// its runs are settled once, before the ways the sets can go are tried,
/// and only the other suits' runs after each way.
#[allow(clippy::needless_range_loop)] // counts indexed by suit and rank alike
fn splits_counts(counts: &mut [[u8; 13]; 4], ace: AceMode) -> bool {
    let mut set_ranks = [0usize; 13];
    let mut n = 0;
    let mut in_sets = [false; 4];
    for r in 0..13 {
        if (0..4).filter(|&s| counts[s][r] > 0).count() >= 3 {
            set_ranks[n] = r;
            n += 1;
            for s in 0..4 {
                in_sets[s] |= counts[s][r] > 0;
            }
        }
    }
    if (0..4).any(|s| !in_sets[s] && !runs_only(&counts[s], ace)) {
        return false;
    }
    sets_then_runs(counts, &set_ranks[..n], ace, in_sets)
}

/// Splits of [`splits_with_jokers`] at most (each about 1,500 instructions;
/// a sweep that refutes a small test costs some 20,000 to 80,000).
const JOKER_SPLITS: usize = 24;

/// Whether each natural card of `these` could lie in a group of natural
/// cards among `cards` (`sweep::could_have_group` without jokers).
fn each_has_a_group(cards: &[Card], these: &[Card], ace: AceMode) -> bool {
    let mut present = [false; 52];
    for f in cards.iter().filter_map(|c| c.natural_face()) {
        present[f.index()] = true;
    }
    let (lo, hi) = crate::sweep::ace_window(ace);
    these.iter().filter_map(|c| c.natural_face()).all(|f| {
        let f = f.index();
        crate::sweep::could_have_group(&present, f / 13, f % 13, 0, lo, hi)
    })
}

/// Whether `cards` (at most two jokers among them, each read as any card)
/// can split wholly into groups: `Some(false)` proves no layout of exactly
/// these cards exists (the jokers standing for cards as the sweep reads
/// them, a named joker keeping its name or not); `None`: not settled within
/// [`JOKER_SPLITS`] splits, or too many cards or jokers to try. A natural
/// card that no group of the naturals alone can hold (`could_have_group`
/// without jokers, within the ace mode's window) has a joker in its group,
/// and that joker stands next to it in a run (two places at most: a run
/// of three through the card with no joker in it would hold it) or at its
/// rank in a set; each such card is tried for one joker, and the rest
/// recursively, down to [`splits_into_groups`]'s exact split of naturals.
/// When every natural card has a group without jokers, each face next to
/// some card is tried for a joker instead (see [`jokers_then_split`]), if
/// they are few enough.
pub(crate) fn splits_with_jokers(cards: &[Card], ace: AceMode) -> Option<bool> {
    let mut counts = [[0u8; 13]; 4];
    let mut jokers = 0usize;
    for c in cards {
        match c.natural_face() {
            Some(f) => counts[f.suit().index()][usize::from(f.rank().value()) - 1] += 1,
            None => jokers += 1,
        }
    }
    if jokers > 2 || cards.len() > 16 {
        return None;
    }
    let mut budget = JOKER_SPLITS;
    jokers_then_split(&mut counts, jokers, ace, &mut budget)
}

/// [`splits_with_jokers`] on counts per suit and rank (ace first).
fn jokers_then_split(
    counts: &mut [[u8; 13]; 4],
    jokers: usize,
    ace: AceMode,
    budget: &mut usize,
) -> Option<bool> {
    if jokers == 0 {
        *budget = budget.checked_sub(1)?;
        return Some(splits_counts(counts, ace));
    }
    let mut present = [false; 52];
    for (f, p) in present.iter_mut().enumerate() {
        *p = counts[f / 13][f % 13] > 0;
    }
    let (lo, hi) = crate::sweep::ace_window(ace);
    // Every natural card can be grouped with naturals alone: the joker still
    // lies in a group with a natural card (a group holds three cards and a
    // test two jokers at most). Some joker of that group stands at the
    // card's rank (a set) or next to a card of the group in its suit (a run
    // is unbroken), and a joker tried as a card counts as that card for the
    // next: so trying each face of the rank of some card, or one place from
    // it in its suit, for one joker, and the rest recursively, misses no
    // layout. While the faces are few enough for the budget
    // (`REACHABLE=1 probe car 2 30 10 300 h` #240: `AS AH AD AC` and the
    // joker freed by the hand's `AD`, refused by a sweep of 1,296 states).
    let Some(x) = (0..52).find(|&f| {
        present[f] && !crate::sweep::could_have_group(&present, f / 13, f % 13, 0, lo, hi)
    }) else {
        let mut near = [false; 52];
        for f in (0..52).filter(|&f| present[f]) {
            for (g, n) in near.iter_mut().enumerate() {
                *n |= faces_near(f, g);
            }
        }
        if near.iter().filter(|&&n| n).count() > *budget {
            return None;
        }
        for f in (0..52).filter(|&f| near[f]) {
            counts[f / 13][f % 13] += 1;
            let found = jokers_then_split(counts, jokers - 1, ace, budget);
            counts[f / 13][f % 13] -= 1;
            if found != Some(false) {
                return found;
            }
        }
        return Some(false);
    };
    let (suit, rank) = (x / 13, x % 13);
    // The faces a joker in its group can stand for: its rank in the other
    // suits, its suit two places either side (an ace at either end).
    let mut tried = [false; 52];
    tried[x] = true;
    let mut faces: Vec<usize> = (0..4)
        .filter(|&t| t != suit)
        .map(|t| t * 13 + rank)
        .collect();
    let places: &[i32] = if rank == 0 {
        &[1, 14]
    } else {
        &[rank as i32 + 1]
    };
    for &p in places {
        for q in [p - 2, p - 1, p + 1, p + 2] {
            if (1..=14).contains(&q) {
                faces.push(suit * 13 + if q == 14 { 0 } else { q as usize - 1 });
            }
        }
    }
    for f in faces {
        if std::mem::replace(&mut tried[f], true) {
            continue;
        }
        counts[f / 13][f % 13] += 1;
        let found = jokers_then_split(counts, jokers - 1, ace, budget);
        counts[f / 13][f % 13] -= 1;
        if found != Some(false) {
            return found;
        }
    }
    Some(false)
}

/// Whether a joker standing for face `g` can lie in a group next to the
/// card of face `f` (indexes `suit * 13 + rank - 1`): the same rank, or
/// the same suit one place away (an ace at either end).
fn faces_near(f: usize, g: usize) -> bool {
    if f % 13 == g % 13 {
        return true;
    }
    if f / 13 != g / 13 {
        return false;
    }
    let places = |r: usize| if r == 0 { [1, 14] } else { [r + 1, r + 1] };
    places(f % 13)
        .iter()
        .any(|&p| places(g % 13).iter().any(|&q| p.abs_diff(q) <= 1))
}

/// Tries every way the first rank of `set_ranks` can give copies to sets,
/// then whether the suits of `check` split into runs.
fn sets_then_runs(
    counts: &mut [[u8; 13]; 4],
    set_ranks: &[usize],
    ace: AceMode,
    check: [bool; 4],
) -> bool {
    let Some((&r, rest)) = set_ranks.split_first() else {
        return (0..4).all(|s| !check[s] || runs_only(&counts[s], ace));
    };
    let have = [counts[0][r], counts[1][r], counts[2][r], counts[3][r]];
    // Every way the rank's copies go to sets: none, one set, or two.
    crate::partition::set_choices_for(have).iter().any(|take| {
        for s in 0..4 {
            counts[s][r] -= take[s];
        }
        let ok = sets_then_runs(counts, rest, ace, check);
        for s in 0..4 {
            counts[s][r] += take[s];
        }
        ok
    })
}

/// Do one suit's copies (per rank, ace first) split into runs of three or more?
fn runs_only(counts: &[u8; 13], ace: AceMode) -> bool {
    // Positions 1..=14; the ace at 1 (low), 14 (high) or split between them.
    let aces = counts[0];
    let lows = match ace {
        AceMode::High => 0..=0,
        AceMode::Low => aces..=aces,
        AceMode::Either => 0..=aces,
    };
    lows.into_iter().any(|low| {
        let mut at = [0u8; 16];
        at[1] = low;
        at[14] = aces - low;
        at[2..14].copy_from_slice(&counts[1..13]);
        // Runs ending at the previous position: 1 long, 2 long, 3 or more.
        let (mut one, mut two, mut long) = (0u8, 0u8, 0u8);
        for &x in &at[1..16] {
            if x < one + two {
                return false;
            }
            let spare = x - one - two;
            let kept = spare.min(long);
            (one, two, long) = (spare - kept, one, two + kept);
        }
        one == 0 && two == 0
    })
}

/// The exact hint, from the search's answer `base` (its count, the fewest hand
/// cards, is exact): among plays of that many cards, one changing the fewest
/// input groups, and among those one that does not rearrange if one exists.
///
/// Sets of groups are tried by size, from the least possible (none when three
/// cards can make a group of their own, else one) up to `base`'s own: the
/// first size at which some set takes a play of that many cards is the
/// fewest, since every smaller set was tried and failed. At that size a play
/// without rearrangement is looked for on every set before a rearranged one
/// stands. Only sets joined to the hand can take part (see [`Exact::sets`]),
/// and on a table breaking the copies rule only sets that can mend it (see
/// [`mends_copies`]); a legal play found on the way whose groups reach past
/// its set (the copies mend took one in) lowers the bound like `base`'s.
pub(crate) fn exact(pos: &Position, base: Play) -> Play {
    // Should the search's play name a joker after a card whose every copy
    // is on the new table (`solve_checked` renames such a play or, in
    // Carousel, replaces it by the strict copies search's; a search cut
    // short by its budget may still leave one), any play of as many cards
    // replaces it, at any size. (A table that broke that rule already is
    // taken as it is.)
    let sound =
        legal::copies_ok(&base.table, pos.copies) || !legal::copies_ok(&pos.table, pos.copies);
    let top = if sound {
        base.changed.len()
    } else {
        pos.table.len()
    };
    if sound && (top == 0 || (top == 1 && !base.rearranged)) {
        return base;
    }
    let mut search = Exact::new(pos, base.count);
    let mut low = if base.count >= 3 { 0 } else { 1 };
    if sound
        && base.count == 1
        && !pos.jokers_around()
        && !matches!(pos.rules, RuleSet::Vatikan | RuleSet::Tahiti)
    {
        // Such a hint came from the search's `finish_best`, which tried every
        // card with one group and with two (while fewer than its own) by the
        // same tests: those sizes are settled.
        low = top.min(3);
    } else if sound && base.count == 1 {
        // With jokers around, the same tests before the search proved there
        // is no such play of so many groups or fewer.
        let proved = proved_one_card_groups(pos);
        if proved > 0 {
            low = (proved + 1).min(top);
        }
    }
    let loose = (0..pos.table.len())
        .filter(|&g| pos.kinds[g] == Kind::Loose)
        .count();
    let (mut best, mut sound, mut top) = (base, sound, top);
    let mut size = low;
    while size <= top {
        // At the best play's own size only a play without rearrangement
        // improves it, and such a play extends each group it changes by a
        // card at least (a hand card, or a loose single of the set).
        let only_unarranged = sound && size == top;
        if only_unarranged && (!best.rearranged || size > best.count + 2 * loose.min(size)) {
            break;
        }
        let mut candidate: Option<Play> = None;
        for set in search.sets(size) {
            if !search.mends_copies(&set) {
                continue;
            }
            if let Some(play) = search.unarranged(&set) {
                return play;
            }
            if candidate.is_none() && !only_unarranged {
                candidate = search.any_play(&set);
                if let Some(play) = candidate.take_if(|p| !p.rearranged) {
                    return play;
                }
            }
        }
        if let Some(play) = candidate {
            return play;
        }
        // A legal play the copies mend widened past its set, found on the
        // way, is a play of its own groups: when it beats the best so far,
        // it bounds the sizes left (on full Carousel tables such plays turn
        // up at one group, and the search of every pair of groups that
        // followed then looks only for a play without rearrangement).
        if let Some(wide) = search.widened.take()
            && (!sound || (wide.changed.len(), wide.rearranged) < (top, best.rearranged))
        {
            top = wide.changed.len();
            best = wide;
            sound = true;
        }
        size += 1;
    }
    best
}

thread_local! {
    /// Times one of the hint's caps cut its search short on this thread
    /// (tests and the probe read it: `internal::hint_bites`).
    static BITES: std::cell::Cell<u64> = const { std::cell::Cell::new(0) };
}

/// A cap cut the hint's search short: the answer may not be the least.
fn bite() {
    BITES.with(|b| b.set(b.get() + 1));
}

/// The hint's bites on this thread since the last call (then reset).
pub(crate) fn bites() -> u64 {
    BITES.with(|b| b.replace(0))
}

/// The hint's bites on this thread so far, without resetting them.
pub(crate) fn bites_so_far() -> u64 {
    BITES.with(|b| b.get())
}

/// Multisets of hand cards [`fewest_legal`] tries at most, each with a
/// search of its own, and the sweep states they may spend in all (the
/// restricted searches' own budget): past either the best play by cards
/// stands (a cap on exactness, deterministic: states, not time).
const MULTISETS_PAST_THE_RULES: usize = 256;
const STATES_PAST_THE_RULES: u64 = 300_000;

/// A legal play of the fewest hand cards from `from` (the unrestricted
/// search's fewest: no legal play undercuts it) up to `best`'s count, `best`
/// itself (legal, the most cards) when no fewer cards make one. For when
/// the restricted search found no hint: it tries only the fewest-card play
/// of each branch of the table rules, and when every such play breaks a rule
/// a play of more cards may still be legal. Each count's multisets of hand
/// cards are tried in turn, each as a whole hand for the best-play search
/// (restricted, so legal by construction): a multiset all of whose cards it
/// puts down is a legal play of that many cards. `exact` then settles the
/// fewest groups among plays of that count.
pub(crate) fn fewest_legal(pos: &Position, from: usize, best: Play) -> Play {
    // Only cards that could be in some group at all can be put down.
    let mut kinds: Vec<(Card, u8)> = Vec::new();
    for &c in &pos.hand {
        let mut one = [0u8; 53];
        match c.natural_face() {
            Some(f) => one[f.index()] = 1,
            None => one[52] = 1,
        }
        if !pos.some_card_fits(&one) {
            continue;
        }
        match kinds.iter_mut().find(|(x, _)| *x == c) {
            Some((_, n)) => *n += 1,
            None => kinds.push((c, 1)),
        }
    }
    let mut tried = 0usize;
    let states = || crate::sweep::STATS.with(|s| s.get().states);
    let start = states();
    for count in from.max(1)..best.count {
        let mut found: Option<Play> = None;
        let whole = for_each_multiset(&kinds, count, &mut |hand| {
            if tried >= MULTISETS_PAST_THE_RULES
                || states().saturating_sub(start) > STATES_PAST_THE_RULES
            {
                bite();
                return false;
            }
            tried += 1;
            found = all_put_down(pos, hand);
            found.is_none()
        });
        if let Some(play) = found {
            return play;
        }
        if !whole {
            break;
        }
    }
    best
}

/// The best legal play of `pos`'s table with `hand` as the whole hand, if it
/// puts every card of `hand` down.
fn all_put_down(pos: &Position, hand: &[Card]) -> Option<Play> {
    let sub = Position::new(pos.rules, pos.copies, &pos.table, hand).ok()?;
    // The unrestricted optimum first: a few sweeps, where the restricted
    // search may take many; no legal play beats it.
    if crate::search_value(&sub, Goal::MostCards) != Some(hand.len() as i32) {
        return None;
    }
    crate::solve_checked(&sub, Goal::MostCards)
        .ok()
        .flatten()
        .filter(|p| p.count == hand.len())
}

/// Calls `f` with every multiset of `k` cards from `kinds` (each card with
/// its copies) until it returns `false`; `false` then, `true` when every
/// multiset was seen.
fn for_each_multiset(kinds: &[(Card, u8)], k: usize, f: &mut dyn FnMut(&[Card]) -> bool) -> bool {
    fn go(
        kinds: &[(Card, u8)],
        left: usize,
        cur: &mut Vec<Card>,
        f: &mut dyn FnMut(&[Card]) -> bool,
    ) -> bool {
        if left == 0 {
            return f(cur);
        }
        let Some((&(c, n), rest)) = kinds.split_first() else {
            return true;
        };
        for take in (0..=usize::from(n).min(left)).rev() {
            cur.extend(std::iter::repeat_n(c, take));
            let go_on = go(rest, left - take, cur, f);
            cur.truncate(cur.len() - take);
            if !go_on {
                return false;
            }
        }
        true
    }
    go(kinds, k, &mut Vec::new(), f)
}

/// Sets of groups tried per size at most: a table joker is near every card,
/// so on a full table with jokers the sets of four or more groups could
/// number in the hundreds of thousands. Past this the larger sets are not
/// tried (a cap on exactness, like the tests' state budget).
const SETS_PER_SIZE: usize = 5_000;
/// Plays of more hand cards than this, or with more cards to share out
/// (hand cards and loose singles), are not searched for a way without
/// rearrangement: the ways to share them out grow as a power of their count.
const UNARRANGED_CARDS: usize = 4;
const UNARRANGED_POOL: usize = 6;

/// A card near another, a joker near every card (it may take any name).
fn close(a: Card, b: Card) -> bool {
    a.is_joker() || b.is_joker() || near(a, b)
}

/// The cards of a group as [`close`] reads them, to tell whether some card
/// of one group is close to some card of another without trying each pair.
#[derive(Clone, Copy, Default)]
struct Reach {
    /// Some card at all, and some joker among them (close to every card).
    any: bool,
    joker: bool,
    /// Bit `r`: a card of rank `r` (ace 1).
    ranks: u16,
    /// Per suit, bit `p`: a card at place `p` of a run (an ace at 1 and 14).
    places: [u16; 4],
}

impl Reach {
    fn of(cards: &[Card]) -> Reach {
        let mut r = Reach::default();
        for c in cards {
            r.any = true;
            if c.is_joker() {
                r.joker = true;
                continue;
            }
            let Some(f) = c.face() else { continue };
            let rank = f.rank().value();
            let places = &mut r.places[f.suit().index()];
            r.ranks |= 1 << rank;
            *places |= 1 << rank;
            if rank == 1 {
                *places |= 1 << 14;
            }
        }
        r
    }

    /// Some card of `self` is [`close`] to some card of `other`: a joker
    /// with any card; else the same rank, or the same suit within two
    /// places (`near`, an ace at either end of its suit).
    fn touches(&self, other: &Reach) -> bool {
        if (self.joker && other.any) || (other.joker && self.any) || self.ranks & other.ranks != 0 {
            return true;
        }
        (0..4).any(|s| {
            let p = self.places[s];
            let window = p | p << 1 | p << 2 | p >> 1 | p >> 2;
            window & other.places[s] != 0
        })
    }
}

/// The state of one exact hint search.
struct Exact<'a> {
    pos: &'a Position,
    /// The fewest hand cards a play puts down.
    k: usize,
    /// Per input group, the groups with a card near one of its cards.
    adjacent: Vec<Vec<usize>>,
    /// The groups with a card near a hand card.
    roots: Vec<usize>,
    /// The hand's cards, each once, with its copies (jokers unnamed).
    kinds: Vec<(Card, u8)>,
    /// The branches of the table rules, made when first needed.
    branches: Option<Vec<Branch>>,
    /// Per joker name, how many of the input table's jokers of that name
    /// break the copies rule (the naturals and jokers of it pass the deck's
    /// copies): a random table can (a game's tables never do).
    over_copied: Vec<(rami_cards::Face, usize)>,
    /// The most jokers one input group holds.
    most_jokers: usize,
    /// The best legal play found whose copies mend changed groups outside
    /// the set tested (see [`legal_within`]).
    widened: std::cell::RefCell<Option<Play>>,
    /// Per input group, whether some hand card alone extends it into a
    /// valid group (made when first needed).
    extendable: Option<Vec<bool>>,
    /// Sweep states the feasibility tests spent (see [`feasible`]'s budget).
    spent: usize,
}

impl<'a> Exact<'a> {
    fn new(pos: &'a Position, k: usize) -> Exact<'a> {
        let n = pos.table.len();
        let over_copied = over_copied(pos);
        // Each group's reach, once, instead of every pair of cards of every
        // pair of groups (`REACHABLE=1 probe tah 4 30 10 100 h`, the finder
        // less the automata's build: 12.99M instructions, 12.91M with it).
        let reaches: Vec<Reach> = pos.table.iter().map(|g| Reach::of(g)).collect();
        let adjacent = (0..n)
            .map(|g| {
                (0..n)
                    .filter(|&h| h != g && reaches[g].touches(&reaches[h]))
                    .collect()
            })
            .collect();
        let hand = Reach::of(&pos.hand);
        let roots = (0..n).filter(|&g| reaches[g].touches(&hand)).collect();
        let mut kinds: Vec<(Card, u8)> = Vec::new();
        for &c in &pos.hand {
            match kinds.iter_mut().find(|(x, _)| *x == c) {
                Some((_, n)) => *n += 1,
                None => kinds.push((c, 1)),
            }
        }
        Exact {
            pos,
            k,
            adjacent,
            roots,
            kinds,
            branches: None,
            over_copied,
            widened: std::cell::RefCell::new(None),
            most_jokers: pos
                .table
                .iter()
                .map(|g| g.iter().filter(|c| c.is_joker()).count())
                .max()
                .unwrap_or(0),
            extendable: None,
            spent: 0,
        }
    }

    /// [`mends_copies`] for this position.
    fn mends_copies(&self, set: &[usize]) -> bool {
        mends_copies(self.pos, &self.over_copied, set)
    }

    /// Every set of `size` input groups in which each group is joined to the
    /// hand by a chain of groups of the set, each with a card near one of the
    /// next (a joker is near every card). A play's changed groups are such a
    /// set, or hold one that takes a play too: cards of one group are joined
    /// by such chains, so groups the hand's cards never reach could be left
    /// as they were. Each set once (Wernicke's ESU enumeration, the hand as
    /// its root).
    fn sets(&self, size: usize) -> Vec<Vec<usize>> {
        let mut out = Vec::new();
        if size == 0 {
            out.push(Vec::new());
        } else {
            self.grow(&mut Vec::new(), self.roots.clone(), size, &mut out);
            // (Counted when the cap is reached: there may have been no more.)
            if out.len() >= SETS_PER_SIZE {
                bite();
            }
        }
        out
    }

    fn grow(
        &self,
        set: &mut Vec<usize>,
        mut ext: Vec<usize>,
        size: usize,
        out: &mut Vec<Vec<usize>>,
    ) {
        if out.len() >= SETS_PER_SIZE {
            return;
        }
        // A table breaking the copies rule: the jokers to rename or move
        // ([`mends_copies`]) that the set lacks need more groups than are
        // left to add (each holds at most `most_jokers` of them), so no set
        // grown from this one takes a legal play (sets counted against the
        // cap are then only those that can).
        if !self.over_copied.is_empty() {
            let lacking: usize = self
                .over_copied
                .iter()
                .map(|&(f, n)| {
                    let inside = set
                        .iter()
                        .flat_map(|&g| &self.pos.table[g])
                        .filter(|c| c.declared() == Some(f))
                        .count();
                    n.saturating_sub(inside)
                })
                .sum();
            if lacking > self.most_jokers * (size - set.len()) {
                return;
            }
        }
        if set.len() == size {
            let mut s = set.clone();
            s.sort_unstable();
            out.push(s);
            return;
        }
        while let Some(w) = ext.pop() {
            let mut next = ext.clone();
            for &u in &self.adjacent[w] {
                let reached = self.roots.contains(&u)
                    || set.contains(&u)
                    || set.iter().any(|&x| self.adjacent[x].contains(&u));
                if !reached && !next.contains(&u) {
                    next.push(u);
                }
            }
            set.push(w);
            self.grow(set, next, size, out);
            set.pop();
        }
    }

    /// The hand's kinds of cards joined to the cards of `set` by a chain of
    /// hand cards, each near the next (all of them for the empty set).
    fn reach(&self, set: &[usize]) -> Vec<(Card, u8)> {
        if set.is_empty() {
            return self.kinds.clone();
        }
        let mut on: Vec<bool> = self
            .kinds
            .iter()
            .map(|&(c, _)| {
                set.iter()
                    .any(|&g| self.pos.table[g].iter().any(|&t| close(t, c)))
            })
            .collect();
        loop {
            let mut grew = false;
            for i in 0..self.kinds.len() {
                if !on[i]
                    && (0..self.kinds.len())
                        .any(|j| on[j] && close(self.kinds[i].0, self.kinds[j].0))
                {
                    on[i] = true;
                    grew = true;
                }
            }
            if !grew {
                break;
            }
        }
        self.kinds
            .iter()
            .zip(on)
            .filter(|(_, on)| *on)
            .map(|(k, _)| *k)
            .collect()
    }

    /// Every multiset of `self.k` cards from `kinds`.
    fn multisets(&self, kinds: &[(Card, u8)]) -> Vec<Vec<Card>> {
        fn go(kinds: &[(Card, u8)], left: usize, cur: &mut Vec<Card>, out: &mut Vec<Vec<Card>>) {
            if left == 0 {
                out.push(cur.clone());
                return;
            }
            let Some((&(c, n), rest)) = kinds.split_first() else {
                return;
            };
            for take in (0..=usize::from(n).min(left)).rev() {
                cur.extend(std::iter::repeat_n(c, take));
                go(rest, left - take, cur, out);
                cur.truncate(cur.len() - take);
            }
        }
        let mut out = Vec::new();
        go(kinds, self.k, &mut Vec::new(), &mut out);
        out
    }

    /// A legal play of `self.k` hand cards that changes exactly the groups of
    /// `set` and rearranges none: each group that is not a loose single only
    /// extended (by hand cards, or loose singles of the set), the rest of the
    /// cards in new groups. Every way to share the cards out is tried.
    fn unarranged(&mut self, set: &[usize]) -> Option<Play> {
        let pos = self.pos;
        let (loose, whole): (Vec<usize>, Vec<usize>) =
            set.iter().partition(|&&g| pos.kinds[g] == Kind::Loose);
        // Each extended group takes a card at least.
        if whole.len() > self.k + loose.len() {
            return None;
        }
        // One hand card and no loose single: the card must extend the one
        // group (three cards at least make a new group), which is known per
        // group once for all the sets (the sharing below tries every hand
        // card with every set holding the group: a table joker's group is in
        // most of them).
        if self.k == 1 && loose.is_empty() {
            let &[g] = whole.as_slice() else {
                return None;
            };
            let rules = pos.rules.group_rules();
            let extendable = self.extendable.get_or_insert_with(|| {
                (0..pos.table.len())
                    .map(|g| {
                        pos.kinds[g] != Kind::Loose
                            && self.kinds.iter().any(|&(c, _)| {
                                // (Most cards are near no card of the group:
                                // no validation for them. `REACHABLE=1 probe
                                // tah 4 30 10 100 h`, the finder less the
                                // automata's build: 12.60M instructions,
                                // 12.33M with it.)
                                if !may_extend(&pos.table[g], c) {
                                    return false;
                                }
                                let mut cards = pos.table[g].clone();
                                cards.push(c);
                                named(cards, rules).is_some()
                            })
                    })
                    .collect()
            });
            if !extendable[g] {
                return None;
            }
        }
        // Every way to share the cards out is tried: kept to a handful.
        if self.k > UNARRANGED_CARDS || self.k + loose.len() > UNARRANGED_POOL {
            bite();
            return None;
        }
        let loose_cards: Vec<Card> = loose.iter().map(|&g| pos.table[g][0]).collect();
        for m in self.multisets(&self.reach(set)) {
            let pool: Vec<(Card, bool)> = m
                .iter()
                .map(|&c| (c, true))
                .chain(loose_cards.iter().map(|&c| (c, false)))
                .collect();
            let mut buckets: Vec<Vec<Card>> = vec![Vec::new(); whole.len() + 1];
            if let Some(play) = self.share(&pool, &whole, &mut buckets, &m, set) {
                return Some(play);
            }
        }
        None
    }

    /// [`Exact::unarranged`]: gives each card of `pool` to an extension of a
    /// group of `whole` or to the new groups (the last bucket), every way.
    fn share(
        &self,
        pool: &[(Card, bool)],
        whole: &[usize],
        buckets: &mut Vec<Vec<Card>>,
        played: &[Card],
        set: &[usize],
    ) -> Option<Play> {
        let pos = self.pos;
        let Some((&(card, from_hand), rest)) = pool.split_first() else {
            return self.extended(whole, buckets, played, set);
        };
        for b in 0..buckets.len() {
            // Tahiti: a frozen group grows by hand cards only.
            if b < whole.len() && (pos.kinds[whole[b]] == Kind::Frozen && !from_hand) {
                continue;
            }
            buckets[b].push(card);
            let found = self.share(rest, whole, buckets, played, set);
            buckets[b].pop();
            if found.is_some() {
                return found;
            }
        }
        None
    }

    /// The play of one way to share the cards out, if each extended group and
    /// the new groups are valid and the rules allow it.
    fn extended(
        &self,
        whole: &[usize],
        buckets: &[Vec<Card>],
        played: &[Card],
        set: &[usize],
    ) -> Option<Play> {
        let pos = self.pos;
        let rules = pos.rules.group_rules();
        let fresh = &buckets[whole.len()];
        // Counts first: each extension takes a card, new groups three.
        if buckets[..whole.len()].iter().any(|b| b.is_empty()) || matches!(fresh.len(), 1 | 2) {
            return None;
        }
        let mut grown = Vec::with_capacity(whole.len());
        for (i, &g) in whole.iter().enumerate() {
            let mut cards = pos.table[g].clone();
            cards.extend(&buckets[i]);
            grown.push(named(cards, rules)?);
        }
        let mut new = Vec::new();
        if !split_named(fresh, rules, &mut new) {
            return None;
        }
        let mut table = pos.table.clone();
        for (&g, cards) in whole.iter().zip(grown) {
            table[g] = cards;
        }
        // Loose singles of the set went into the groups.
        let mut out: Vec<Vec<Card>> = table
            .into_iter()
            .enumerate()
            .filter(|(g, _)| !(set.contains(g) && pos.kinds[*g] == Kind::Loose))
            .map(|(_, t)| t)
            .collect();
        out.extend(new);
        let mut played = played.to_vec();
        played.sort();
        legal_within(
            pos,
            make_play(pos, played, out, set.to_vec(), false),
            set,
            &self.widened,
        )
    }

    /// A legal play of `self.k` hand cards (or fewer) changing only groups of
    /// `set`, rearranged or not.
    fn any_play(&mut self, set: &[usize]) -> Option<Play> {
        let pos = self.pos;
        if !self.coverable(set) {
            return None;
        }
        let jokers = pos.hand_jokers > 0
            || set.iter().any(|&g| {
                pos.kinds[g] == Kind::Frozen || pos.table[g].iter().any(|c| c.is_joker())
            });
        // The one-card test before the search proved that no card makes a
        // layout with this group alone, nothing freed: the plain branch's
        // sweep (the only one without jokers) would find nothing.
        let plain_proved = self.k == 1
            && set.len() == 1
            && pos.hand_jokers == 0
            && proved_no_one_group_play(pos, set[0]);
        if !jokers && plain_proved {
            return None;
        }
        if !jokers && self.k <= 2 {
            // Few multisets of cards, each settled by the exact split test
            // before a sweep lays it out.
            let branch = Branch::default();
            let mut cards: Vec<Card> = set
                .iter()
                .flat_map(|&g| pos.table[g].iter().copied())
                .collect();
            let base = cards.len();
            for m in self.multisets(&self.reach(set)) {
                cards.truncate(base);
                cards.extend(&m);
                // A hand card with no group among these cards (two more of
                // its rank, or two neighbours in its suit) has no layout, and
                // that costs less to see than the split (`REACHABLE=1 probe
                // car 2 30 10 300 h` #151: 462 splits for the sets of three
                // groups, none of which takes a card).
                if !each_has_a_group(&cards, &m, pos.rules.ace_mode())
                    || splits_into_groups(&cards, pos.rules.ace_mode()) != Some(true)
                {
                    continue;
                }
                let Some(layout) = feasible(pos, &branch, set, &m, &mut self.spent).layout() else {
                    continue;
                };
                if let Some(play) = legal_within(
                    pos,
                    build(pos, &branch, set, m.clone(), &m, layout),
                    set,
                    &self.widened,
                ) {
                    return Some(play);
                }
            }
            return None;
        }
        // Otherwise one hint sweep per branch of the table rules that changes
        // nothing outside the set: the fewest hand cards the set takes.
        // One hand card: only those that can stand in a group with cards of
        // the set are given to the sweeps (on full tables a sweep of a set
        // and the whole hand of twenty cards cost about a million
        // instructions, `probe car 2 84 20 30 h` #2).
        let narrow = if self.k == 1 {
            one_card_hand(pos, set)
        } else {
            None
        };
        // The branch freeing nothing reads a joker of the set that keeps its
        // name as that card: when no multiset of cards splits with the set
        // so, its sweep finds nothing either.
        let plain_refuted = !plain_proved && self.k <= 2 && self.named_jokers_refute(set);
        let branches = self.branches.get_or_insert_with(|| pos.branches());
        let floor = -(self.k as i32);
        let mut refused = false;
        for branch in branches.iter() {
            let inside = branch.joker_groups.is_empty()
                && branch.freed.iter().all(|(g, _)| set.contains(g))
                && branch.frozen.iter().all(|(g, ext)| {
                    ext.is_empty() || (set.contains(g) && !branch.freed.iter().any(|(h, _)| h == g))
                });
            let plain = branch.freed.is_empty()
                && branch.frozen.iter().all(|(_, ext)| ext.is_empty())
                && branch.joker_groups.is_empty();
            if !inside || (plain && (plain_proved || plain_refuted)) {
                continue;
            }
            let dissolve: Vec<usize> = set
                .iter()
                .copied()
                .filter(|&g| pos.kinds[g] != Kind::Frozen)
                .collect();
            // A set of frozen groups only, none of them freed or extended in
            // this branch: the sweep has no table card to place, so its
            // plays are new groups of hand cards alone, three cards each at
            // least, more than a hint of one or two cards puts down (each
            // such sweep cost some 35,000 instructions for nothing, four of
            // them on `REACHABLE=1 probe tah 4 30 10 100 h` #45).
            if self.k < 3 && hand_cards_alone(&dissolve, branch) {
                continue;
            }
            let Some(best) = sweep_branch(
                narrow.as_ref().unwrap_or(pos),
                Goal::Hint,
                branch.clone(),
                &dissolve,
                Some(floor),
            ) else {
                continue;
            };
            let Best { branch, layout, .. } = best;
            let mut in_sweep = Vec::new();
            for f in rami_cards::Face::all() {
                let n = layout.hand[f.index()];
                in_sweep.extend(std::iter::repeat_n(Card::from_face(f), usize::from(n)));
            }
            in_sweep.extend(std::iter::repeat_n(
                Card::JOKER,
                usize::from(layout.hand_jokers),
            ));
            let mut played = in_sweep.clone();
            played.extend(
                branch
                    .frozen
                    .iter()
                    .flat_map(|(_, ext)| ext.iter().copied()),
            );
            let rebuilt = crate::branch_groups(pos, &branch, &dissolve);
            let play = build(pos, &branch, &rebuilt, played, &in_sweep, layout.groups);
            match legal_within(pos, play, set, &self.widened) {
                Some(play) => return Some(play),
                None => refused = true,
            }
        }
        // Vatikan and Tahiti: the sweep's layout broke a rule it does not
        // model, and another layout of the same set may not (Tahiti `7S 7H
        // 7D | 10S JS *QS KS AS | 6H`, hand `QS JH`: the freed joker went to
        // the set, where `*9S 10S JS QS KS AS` changes one group; Vatikan
        // `*QS QD QC | QS QH QD *QC`, hand `KS 9S JS 3S`: `QH QD *QC | JS QS
        // KS`). The whole finder, restricted searches included, on the set's
        // groups alone as the table gives it.
        if refused && matches!(pos.rules, RuleSet::Vatikan | RuleSet::Tahiti) {
            return self.within(set);
        }
        None
    }

    /// Whether no multiset of `self.k` hand cards that reach `set` splits
    /// wholly into groups with the set's cards, each joker of the set read
    /// as the card it is named for: only when, nothing freed, every one of
    /// them keeps its name (`Role::Fixed`: the sweep places it as that card,
    /// and the copies rule only narrows where) and the hand holds no joker.
    /// Then the sweep of the branch freeing nothing finds no play of the set
    /// (on a Carousel table whose named jokers the hand cannot free, each
    /// set of groups holding one cost a sweep: `REACHABLE=1 probe car 2 30
    /// 10 300 h` #151, 49 sweeps of sets that take no play).
    fn named_jokers_refute(&self, set: &[usize]) -> bool {
        let pos = self.pos;
        if pos.hand_jokers > 0 {
            return false;
        }
        let plain = Branch::default();
        let mut cards: Vec<Card> = Vec::new();
        for &g in set {
            if pos.kinds[g] != Kind::Normal {
                return false;
            }
            for (i, &c) in pos.table[g].iter().enumerate() {
                if !c.is_joker() {
                    cards.push(c);
                    continue;
                }
                match pos.role(g, c, &plain, i) {
                    Role::Fixed(f) => cards.push(Card::from_face(f)),
                    _ => return false,
                }
            }
        }
        let base = cards.len();
        self.multisets(&self.reach(set)).into_iter().all(|m| {
            cards.truncate(base);
            cards.extend(&m);
            // A hand card near no other card lies in no group: refuted
            // without the split check (which tries every way the ranks
            // with three suits give copies to sets).
            let alone = (base..cards.len())
                .any(|i| !(0..cards.len()).any(|j| j != i && near(cards[i], cards[j])));
            alone || splits_into_groups(&cards, pos.rules.ace_mode()) == Some(false)
        })
    }

    /// A legal play of at most `self.k` hand cards changing only groups of
    /// `set`, found by the finder on a table of those groups alone (its
    /// play judged again on the whole table: a joker whose real card lies
    /// outside the set, or copies outside it, can make the rules read the
    /// two tables differently).
    fn within(&self, set: &[usize]) -> Option<Play> {
        let pos = self.pos;
        let table: Vec<Vec<Card>> = set.iter().map(|&g| pos.table[g].clone()).collect();
        let sub = Position::new(pos.rules, pos.copies, &table, &pos.hand).ok()?;
        let play = crate::solve_checked(&sub, Goal::Hint).ok().flatten()?;
        if play.count > self.k {
            return None;
        }
        let mut out: Vec<Vec<Card>> = (0..pos.table.len())
            .filter(|g| !set.contains(g))
            .map(|g| pos.table[g].clone())
            .collect();
        out.extend(play.table);
        let mut changed: Vec<usize> = play
            .changed
            .iter()
            .filter_map(|&i| set.get(i))
            .copied()
            .collect();
        changed.sort_unstable();
        legal_within(
            pos,
            Play {
                table: out,
                changed,
                ..play
            },
            set,
            &self.widened,
        )
    }

    /// A quick necessary condition: each natural card of `set` could be in a
    /// group among the cards of the set and the hand.
    fn coverable(&self, set: &[usize]) -> bool {
        let pos = self.pos;
        let mut present = [false; 52];
        let mut jokers = usize::from(pos.hand_jokers);
        let cards = set.iter().flat_map(|&g| pos.table[g].iter());
        for c in cards.clone() {
            match c.natural_face() {
                Some(f) => present[f.index()] = true,
                None => jokers += 1,
            }
        }
        for (p, &h) in present.iter_mut().zip(&pos.hand_counts) {
            *p |= h > 0;
        }
        let (lo, hi) = crate::sweep::ace_window(pos.rules.ace_mode());
        cards.filter_map(|c| c.natural_face()).all(|f| {
            let f = f.index();
            crate::sweep::could_have_group(&present, f / 13, f % 13, jokers, lo, hi)
        })
    }
}

/// Whether a sweep of `branch` rebuilding `dissolve` has only the hand's
/// cards to lay out: no input group to rebuild, no joker freed (which
/// rebuilds its frozen group), no frozen group extended by hand cards and
/// no joker group laid before it. Each of its plays is then new groups of
/// hand cards alone.
fn hand_cards_alone(dissolve: &[usize], branch: &Branch) -> bool {
    dissolve.is_empty()
        && branch.freed.is_empty()
        && branch.frozen.iter().all(|(_, ext)| ext.is_empty())
        && branch.joker_groups.is_empty()
}

/// Whether `card` may make a valid group with `group`'s cards: a joker
/// may; a natural card only next to one of them ([`near`]: of its rank, or
/// of its suit two places away at most, a named joker read as its name, as
/// validation reads it), since a set holds one rank and a run's cards stand
/// in a row (the fact `hint_extension` in lib.rs relies on too; unit test
/// `a_card_extends_only_a_group_near_it`).
pub(crate) fn may_extend(group: &[Card], card: Card) -> bool {
    card.is_joker() || group.iter().any(|&t| near(t, card))
}

/// `cards` as a valid group, its unnamed jokers named (the first way), or
/// `None`.
fn named(cards: Vec<Card>, rules: rami_melds::GroupRules) -> Option<Vec<Card>> {
    if !cards.contains(&Card::JOKER) {
        return rami_melds::validate_group(&cards, rules)
            .is_ok()
            .then_some(cards);
    }
    let way = rami_melds::joker_namings(&cards, rules)
        .into_iter()
        .next()?;
    let mut names = way.into_iter();
    Some(
        cards
            .into_iter()
            .map(|c| {
                if c == Card::JOKER {
                    names.next().map_or(c, Card::named_joker)
                } else {
                    c
                }
            })
            .collect(),
    )
}

/// Splits a handful of `cards` wholly into valid groups (jokers named),
/// pushed to `out`; `false` when they do not split.
fn split_named(cards: &[Card], rules: rami_melds::GroupRules, out: &mut Vec<Vec<Card>>) -> bool {
    let Some((&first, rest)) = cards.split_first() else {
        return true;
    };
    let n = rest.len();
    for mask in 0u32..(1 << n) {
        if mask.count_ones() < 2 {
            continue;
        }
        let mut group = vec![first];
        let mut others = Vec::new();
        for (i, &c) in rest.iter().enumerate() {
            if mask & (1 << i) != 0 {
                group.push(c);
            } else {
                others.push(c);
            }
        }
        let Some(group) = named(group, rules) else {
            continue;
        };
        out.push(group);
        if split_named(&others, rules, out) {
            return true;
        }
        out.pop();
    }
    false
}

/// The play that rebuilds the groups `rebuilt` as `layout` (with the hand
/// cards `in_layout`), extends the frozen groups of `branch` by their hand
/// cards and puts down `played` in all. Each new group takes the place of an
/// input group it holds whole (that group was only extended); an input group
/// with no such place was split or lost cards: the play rearranges. Loose
/// singles the layout did not use stay where they were.
fn build(
    pos: &Position,
    branch: &Branch,
    rebuilt: &[usize],
    mut played: Vec<Card>,
    in_layout: &[Card],
    layout: Vec<Vec<Card>>,
) -> Play {
    // The loose singles used: the layout's natural cards less those of the
    // other rebuilt groups and of the hand.
    let mut placed = CardCounts::from_cards(layout.iter().flatten().filter(|c| !c.is_joker()));
    for &g in rebuilt {
        if pos.kinds[g] != Kind::Loose {
            for c in pos.table[g].iter().filter(|c| !c.is_joker()) {
                placed.remove(*c);
            }
        }
    }
    for c in in_layout.iter().filter(|c| !c.is_joker()) {
        placed.remove(*c);
    }
    let mut table: Vec<Option<Vec<Card>>> = pos.table.iter().cloned().map(Some).collect();
    let mut used = vec![false; layout.len()];
    let mut rearranged = false;
    let mut changed = Vec::new();
    for &g in rebuilt {
        if pos.kinds[g] == Kind::Loose {
            if placed.remove(pos.table[g][0]) {
                table[g] = None;
                changed.push(g);
            }
            continue;
        }
        let home = (0..layout.len()).find(|&k| !used[k] && contains(&layout[k], &pos.table[g]));
        match home {
            Some(k) => {
                used[k] = true;
                if sorted(&layout[k]) != sorted(&pos.table[g]) {
                    changed.push(g);
                }
                table[g] = Some(layout[k].clone());
            }
            None => {
                rearranged = true;
                changed.push(g);
                table[g] = None;
            }
        }
    }
    for (g, ext) in &branch.frozen {
        if !ext.is_empty()
            && !branch.freed.iter().any(|(h, _)| h == g)
            && let Some(Some(group)) = table.get_mut(*g)
        {
            group.extend(ext.iter().copied());
            changed.push(*g);
        }
    }
    let out = joined(table, layout, used);
    changed.sort_unstable();
    changed.dedup();
    played.sort();
    make_play(pos, played, out, changed, rearranged)
}

/// Tests: the faces (index `suit * 13 + rank - 1`) of `groups` random groups,
/// each a set of 3-4 suits or a run of 3 to `longest` cards (the ace at
/// either end), for the split checks' tests here and in `arrange.rs`.
#[cfg(test)]
pub(crate) fn random_group_faces(
    rng: &mut impl rand::Rng,
    // i32, as the tests' literals were: the same draws from the same seed.
    groups: std::ops::RangeInclusive<i32>,
    longest: usize,
) -> Vec<usize> {
    let mut faces: Vec<usize> = Vec::new();
    for _ in 0..rng.random_range(groups) {
        let suit = rng.random_range(0..4);
        if rng.random_bool(0.5) {
            let rank = rng.random_range(0..13);
            let len = rng.random_range(3..=4);
            faces.extend((0..len).map(|k| ((suit + k) % 4) * 13 + rank));
        } else {
            let start = rng.random_range(0..12); // 0 = ace low, 11 = Q-K-A
            let len = rng.random_range(3..=longest);
            faces.extend((start..start + len).map(|p| suit * 13 + (p % 13)));
        }
    }
    faces
}

/// Tests: `filter` (a quick "may this card extend this group" check) turns
/// down no natural card that makes a valid group with a group of a random
/// table (every card with every group of 100 tables of three rule sets, one
/// per ace mode, named jokers among them, drawn from `seed`). Returns the
/// valid extensions and the cards turned down.
#[cfg(test)]
pub(crate) fn no_extension_turned_down(
    seed: u64,
    filter: impl Fn(&[Card], Card) -> bool,
) -> (usize, usize) {
    let mut g = crate::test_positions::Gen::new(seed);
    let (mut valid, mut turned_down) = (0, 0);
    for rules in [RuleSet::Tahiti, RuleSet::Manipulation, RuleSet::Shanghai] {
        let group_rules = rules.group_rules();
        for _ in 0..100 {
            let (table, _) = g.position(group_rules, 4, 30, 0, 0.3);
            for group in table.iter().filter(|t| t.len() > 1) {
                for f in rami_cards::Face::all() {
                    let card = Card::from_face(f);
                    let mut cards = group.clone();
                    cards.push(card);
                    let ok = rami_melds::validate_group(&cards, group_rules).is_ok();
                    valid += usize::from(ok);
                    turned_down += usize::from(!filter(group, card));
                    assert!(
                        !ok || filter(group, card),
                        "{}",
                        rami_cards::format_cards(&cards)
                    );
                }
            }
        }
    }
    (valid, turned_down)
}

#[cfg(test)]
mod tests {
    use super::{Exact, splits_into_groups};
    use rami_cards::{Card, Face};
    use rami_melds::{RuleSet, validate_group};
    use rand::{Rng, SeedableRng};

    /// When the one-card test over one and two groups proves there is no
    /// such play ([`super::proved_one_card_groups`]), the exact search's own
    /// test of every set of one and two groups (every branch of the table
    /// rules kept inside the set) finds none either: random mid-game
    /// Carousel and Vatikan positions, jokers on the table, none in hand.
    #[test]
    fn no_small_play_proved_is_no_small_play() {
        let mut g = crate::test_positions::Gen::new(14);
        let mut proved = 0;
        for case in 0..8000 {
            let rules = [RuleSet::Carousel, RuleSet::Vatikan][case % 2];
            let (table, hand) = g.position(rules.group_rules(), 2, 30, 10, 0.3);
            if hand.iter().any(|c| c.is_joker()) || !table.iter().flatten().any(|c| c.is_joker()) {
                continue;
            }
            let Ok(pos) = crate::Position::new(rules, 2, &table, &hand) else {
                continue;
            };
            if super::one_card_fewest_groups(&pos, 1..=2).is_some()
                || super::proved_one_card_groups(&pos) < 2
            {
                continue;
            }
            proved += 1;
            let mut search = Exact::new(&pos, 1);
            for size in 1..=2 {
                for set in search.sets(size) {
                    assert!(
                        search.any_play(&set).is_none(),
                        "{rules:?} {} | hand {}: groups {set:?}",
                        rami_cards::format_table(&table),
                        rami_cards::format_cards(&hand)
                    );
                }
            }
        }
        assert!(proved > 80, "{proved} positions proved");
    }

    /// As [`no_small_play_proved_is_no_small_play`], for every proof: when
    /// the one-card test over one and two groups proves there is no play
    /// of one card of so many groups or fewer ([`super::proved_one_card_groups`]),
    /// the exact search's own tests of every set of that many groups or
    /// fewer (every branch of the table rules kept inside the set) find
    /// none either: random mid-game Carousel and Vatikan positions with
    /// jokers on the table, Tahiti ones with frozen groups (tables a game
    /// can reach), no joker in the hand. A play the test finds changes
    /// more groups than it proved.
    #[test]
    fn fewer_groups_proved_take_no_one_card_play() {
        let mut g = crate::test_positions::Gen::new(14);
        let mut proved = [[0usize; 3]; 3];
        for case in 0..9000 {
            let r = case % 3;
            let rules = [RuleSet::Carousel, RuleSet::Vatikan, RuleSet::Tahiti][r];
            let jokers = if rules == RuleSet::Tahiti { 4 } else { 2 };
            let (table, hand) =
                g.position_from_deck(rules.group_rules(), jokers, 30, 10, 0.3, rules.max_copies());
            if hand.iter().any(|c| c.is_joker())
                || !table.iter().flatten().any(|c| c.is_joker())
                || rami_melds::table_rules::check_copies(&table, rules.max_copies()).is_err()
            {
                continue;
            }
            let Ok(pos) = crate::Position::new(rules, 2, &table, &hand) else {
                continue;
            };
            let found = super::one_card_fewest_groups(&pos, 1..=2);
            let groups = super::proved_one_card_groups(&pos);
            proved[r][groups] += 1;
            if groups == 0 {
                continue;
            }
            let at = || {
                format!(
                    "{rules:?} {} | hand {}",
                    rami_cards::format_table(&table),
                    rami_cards::format_cards(&hand)
                )
            };
            if let Some(play) = &found {
                assert!(play.changed.len() > groups, "{}", at());
            }
            let mut search = Exact::new(&pos, 1);
            for size in 1..=groups {
                for set in search.sets(size) {
                    assert!(
                        search.unarranged(&set).is_none() && search.any_play(&set).is_none(),
                        "{}: groups {set:?}",
                        at()
                    );
                }
            }
        }
        for (r, p) in proved.iter().enumerate() {
            assert!(
                p[1] + p[2] > 40,
                "rules {r}: {p:?} positions with 0, 1, 2 groups proved"
            );
        }
    }

    /// Three sets of one rank: eight natural fives and a joker make
    /// `5S 5H 5D | 5S 5H 5C | 5D 5C *5S`, the joker a third copy of a
    /// face as the split counts it (two sets of four leave it alone).
    #[test]
    fn a_joker_can_make_a_third_set_of_a_rank() {
        let cards = rami_cards::parse_cards("5S 5S 5H 5H 5D 5D 5C 5C *").expect("cards");
        for rules in [RuleSet::Carousel, RuleSet::Manipulation] {
            assert_ne!(
                super::splits_with_jokers(&cards, rules.ace_mode()),
                Some(false)
            );
        }
        let nine = rami_cards::parse_cards("5S 5S 5S 5H 5H 5D 5D 5C 5C").expect("cards");
        assert_eq!(
            splits_into_groups(&nine, rami_melds::AceMode::Either),
            Some(true)
        );
        let six = rami_cards::parse_cards("5S 5S 5S 5H 5H 5H").expect("cards");
        assert_eq!(
            splits_into_groups(&six, rami_melds::AceMode::Either),
            Some(false)
        );
    }

    /// A hand card that frees a joker of one group, the joker renamed in
    /// that same group, is a one-card play of one group
    /// ([`super::one_card_fewest_groups`] tries the branch freeing it):
    /// `2C` takes `*2C`'s place in `AC *2C 3C 4C` and the joker goes on at
    /// an end. In the plain branch the joker stays `2C`, beside which the
    /// hand's `2C` fits no group, so the plain tests alone find nothing.
    #[test]
    fn a_card_freeing_a_joker_of_one_group_changes_that_group_alone() {
        for rules in [RuleSet::Carousel, RuleSet::Vatikan] {
            let table = rami_cards::parse_table("AC *2C 3C 4C | 5S 5H 5D").expect("a table");
            let hand = rami_cards::parse_cards("2C 9H").expect("a hand");
            let pos = crate::Position::new(rules, 2, &table, &hand).expect("a valid position");
            let play = super::one_card_fewest_groups(&pos, 1..=1).expect("a one-group play");
            assert_eq!(play.played, rami_cards::parse_cards("2C").expect("a card"));
            assert_eq!(play.changed, [0], "{rules:?}");
            assert_eq!(
                crate::legal::check(rules, 2, &table, &play.table, &play.played),
                Ok(()),
                "{rules:?}"
            );
        }
    }

    /// Tahiti: a hand card that frees a frozen group's joker is a one-card
    /// play of that group, or of it and one more ([`super::one_card_fewest_groups`]
    /// tries the freed group in the branch freeing it, as the whole hint
    /// sweep does): `4H` into `2H 3H *4H 5H 6H`, the joker on at the end
    /// (one group); `8H` into `8S *8H 8D 8C`, the joker beside `QD KD AD`
    /// (a set of four has no room for it: two groups). The plays pass the
    /// table rules.
    #[test]
    fn a_card_freeing_a_tahiti_joker_is_a_one_card_play() {
        for (table, hand, card, groups) in [
            ("2H 3H *4H 5H 6H | 9S 9H 9D", "4H KC", "4H", 1),
            ("AS AH AC | 8S *8H 8D 8C | QD KD AD", "8H 5S", "8H", 2),
        ] {
            let table = rami_cards::parse_table(table).expect("a table");
            let hand = rami_cards::parse_cards(hand).expect("a hand");
            let pos =
                crate::Position::new(RuleSet::Tahiti, 2, &table, &hand).expect("a valid position");
            let play = super::one_card_fewest_groups(&pos, 1..=2).expect("a one-card play");
            assert_eq!(play.played, rami_cards::parse_cards(card).expect("a card"));
            assert_eq!(
                play.changed.len(),
                groups,
                "{}",
                rami_cards::format_table(&play.table)
            );
            assert_eq!(
                crate::legal::check(RuleSet::Tahiti, 2, &table, &play.table, &play.played),
                Ok(())
            );
        }
    }

    /// One to three groups' cards (a set, or a run with the ace at either
    /// end), often a card more or less, at most two copies of a card and
    /// `cap` cards: half split, half nearly do. The cases of the split
    /// checks' tests (the same draws from the same seed as when each test
    /// drew them itself).
    fn random_group_cards(rng: &mut rand_chacha::ChaCha8Rng, cap: usize) -> Vec<Card> {
        let mut faces = super::random_group_faces(rng, 1..=3, 5);
        match rng.random_range(0..4) {
            0 => faces.push(rng.random_range(0..52)),
            1 if faces.len() > 3 => {
                let i = rng.random_range(0..faces.len());
                faces.remove(i);
            }
            _ => {}
        }
        let mut cards: Vec<Card> = Vec::new();
        for f in faces {
            if let Some(c) = Face::from_index(f).map(Card::from_face)
                && cards.iter().filter(|&&x| x == c).count() < 2
                && cards.len() < cap
            {
                cards.push(c);
            }
        }
        cards
    }

    /// [`random_group_cards`] of at most eleven cards, then one or two jokers
    /// in place of cards or added: the cases of the joker split checks.
    fn random_cards_with_jokers(rng: &mut rand_chacha::ChaCha8Rng) -> Vec<Card> {
        let mut cards = random_group_cards(rng, 11);
        for _ in 0..rng.random_range(1..=2) {
            if rng.random_bool(0.5) && cards.len() > 1 {
                let i = rng.random_range(0..cards.len());
                cards[i] = Card::JOKER;
            } else {
                cards.push(Card::JOKER);
            }
        }
        cards
    }

    /// Plain search: the first card's group, every way, then the rest
    /// (unnamed jokers: some naming makes the group valid).
    fn brute(cards: &[Card], rules: RuleSet) -> bool {
        let Some((&first, rest)) = cards.split_first() else {
            return true;
        };
        (0u32..1 << rest.len()).any(|mask| {
            let (mut group, mut others) = (vec![first], Vec::new());
            for (i, &c) in rest.iter().enumerate() {
                if mask & (1 << i) != 0 {
                    group.push(c);
                } else {
                    others.push(c);
                }
            }
            let valid = if group.contains(&Card::JOKER) {
                !rami_melds::joker_namings(&group, rules.group_rules()).is_empty()
            } else {
                validate_group(&group, rules.group_rules()).is_ok()
            };
            group.len() >= 3 && valid && brute(&others, rules)
        })
    }

    /// `splits_with_jokers` refutes only what has no split: on one to three
    /// groups with one or two unnamed jokers in place of their cards or
    /// added, often a card more or less, every `Some(false)` is checked by
    /// the plain search (which names each joker by the group rules; the
    /// rule sets with jokers all read the ace either way). It reads a named
    /// joker as any card, as it does an unnamed one.
    #[test]
    fn splits_with_jokers_refutes_only_what_has_no_split() {
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(12);
        let (mut refuted, mut splittable, mut unsettled) = (0, 0, 0);
        for case in 0..3000 {
            let rules = [RuleSet::Carousel, RuleSet::Vatikan, RuleSet::Rami][case % 3];
            let cards = random_cards_with_jokers(&mut rng);
            let got = super::splits_with_jokers(&cards, rules.ace_mode());
            let want = brute(&cards, rules);
            splittable += usize::from(want);
            match got {
                Some(false) => {
                    refuted += 1;
                    assert!(
                        !want,
                        "{rules:?} {} refuted but splits",
                        rami_cards::format_cards(&cards)
                    );
                }
                Some(true) => {}
                None => unsettled += 1,
            }
        }
        // Refutations must be common, or the test proves little.
        assert!(
            refuted >= 250 && splittable >= 500,
            "refuted {refuted}, splittable {splittable}, unsettled {unsettled}"
        );
    }

    /// `arrange::jokers_short` refutes only what has no split: the cases of
    /// `splits_with_jokers_refutes_only_what_has_no_split` (one to three
    /// groups, one or two jokers in place of their cards or added, often a
    /// card more or less), every refusal checked by the plain search.
    #[test]
    fn jokers_short_refutes_only_what_has_no_split() {
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(13);
        let (mut refuted, mut splittable) = (0, 0);
        for case in 0..3000 {
            let rules = [RuleSet::Carousel, RuleSet::Vatikan, RuleSet::Rami][case % 3];
            let cards = random_cards_with_jokers(&mut rng);
            let mut copies = [0u8; 52];
            for f in cards.iter().filter_map(|c| c.natural_face()) {
                copies[f.index()] += 1;
            }
            let jokers = cards.iter().filter(|c| c.is_joker()).count();
            let (lo, hi) = crate::sweep::ace_window(rules.ace_mode());
            let want = brute(&cards, rules);
            splittable += usize::from(want);
            if crate::arrange::jokers_short(&copies, jokers, lo, hi) {
                refuted += 1;
                assert!(
                    !want,
                    "{rules:?} {} refuted but splits",
                    rami_cards::format_cards(&cards)
                );
            }
        }
        // Refutations must be common, or the test proves little.
        assert!(
            refuted >= 100 && splittable >= 500,
            "refuted {refuted}, splittable {splittable}"
        );
    }

    #[test]
    fn splits_into_groups_agrees_with_plain_search() {
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(11);
        let mut splittable = 0;
        for case in 0..3000 {
            let rules = [
                RuleSet::Manipulation,
                RuleSet::Shanghai,
                RuleSet::Machiavelli,
            ][case % 3];
            let cards = random_group_cards(&mut rng, 12);
            let want = brute(&cards, rules);
            splittable += usize::from(want);
            assert_eq!(
                splits_into_groups(&cards, rules.ace_mode()),
                Some(want),
                "{rules:?} {}",
                rami_cards::format_cards(&cards)
            );
        }
        // Both answers must be common, or the test proves little.
        assert!(
            (600..2400).contains(&splittable),
            "positive cases: {splittable}"
        );
    }

    /// A set of groups whose named joker keeps its name (Carousel, its card
    /// not on the table, none in the hand) is refused without a sweep only
    /// when no hand card splits with it, the joker read as its card: `*5S`
    /// must go to the run `2S 3S 4S *5S 6S`, which reading the joker as
    /// anything else (or refusing every such set) would miss.
    #[test]
    fn a_kept_joker_name_refutes_only_sets_that_take_no_card() {
        let table = rami_cards::parse_table("2S 3S 4S | *5S 5D 5H 5C").expect("table");
        let hand = rami_cards::parse_cards("6S").expect("hand");
        let pos = crate::Position::new(RuleSet::Carousel, 2, &table, &hand).expect("position");
        let mut exact = Exact::new(&pos, 1);
        assert!(exact.named_jokers_refute(&[1]));
        assert!(!exact.named_jokers_refute(&[0, 1]));
        assert!(exact.any_play(&[1]).is_none());
        let play = exact.any_play(&[0, 1]).expect("the joker goes to the run");
        assert_eq!(play.changed, vec![0, 1]);
    }

    /// [`super::hand_cards_alone`]: a hint sweep of such a branch finds no
    /// play of one or two cards (hand cards alone make groups of three at
    /// least: it finds those), on random Tahiti tables with frozen groups;
    /// the branches that free or extend one do find such plays.
    #[test]
    fn hand_cards_alone_make_no_hint_of_two_cards() {
        use crate::{Goal, Position, sweep_branch};
        let mut g = crate::test_positions::Gen::new(12);
        let (mut alone, mut of_three, mut others_found) = (0, 0, 0);
        for _ in 0..400 {
            let (table, hand) = g.position(RuleSet::Tahiti.group_rules(), 4, 30, 10, 0.3);
            let Ok(pos) = Position::new(RuleSet::Tahiti, 2, &table, &hand) else {
                continue;
            };
            for branch in pos.branches() {
                let two = sweep_branch(&pos, Goal::Hint, branch.clone(), &[], Some(-2));
                if !super::hand_cards_alone(&[], &branch) {
                    others_found += usize::from(two.is_some());
                    continue;
                }
                alone += 1;
                assert!(
                    two.is_none(),
                    "{} | hand {}",
                    rami_cards::format_table(&pos.table),
                    rami_cards::format_cards(&pos.hand)
                );
                of_three +=
                    usize::from(sweep_branch(&pos, Goal::Hint, branch, &[], None).is_some());
            }
        }
        assert!(
            alone > 300 && of_three > 30 && others_found > 30,
            "{alone} {of_three} {others_found}"
        );
    }

    /// [`super::Reach::touches`] is some pair of [`super::close`] cards:
    /// on groups of random tables and random hands (aces, named jokers),
    /// both ways round.
    #[test]
    fn reaches_touch_where_some_cards_are_close() {
        use super::{Reach, close};
        let mut g = crate::test_positions::Gen::new(13);
        let (mut pairs, mut touching) = (0, 0);
        for _ in 0..200 {
            let (table, hand) = g.position(RuleSet::Tahiti.group_rules(), 4, 30, 6, 0.3);
            let mut groups = table.clone();
            groups.push(hand);
            groups.extend(table.iter().map(|t| t[..1].to_vec()));
            for a in &groups {
                for b in &groups {
                    let pairwise = a.iter().any(|&x| b.iter().any(|&y| close(x, y)));
                    pairs += 1;
                    touching += usize::from(pairwise);
                    assert_eq!(
                        Reach::of(a).touches(&Reach::of(b)),
                        pairwise,
                        "{} / {}",
                        rami_cards::format_cards(a),
                        rami_cards::format_cards(b)
                    );
                }
            }
        }
        assert!(
            touching > 1000 && pairs - touching > 1000,
            "{touching} of {pairs}"
        );
    }

    /// [`super::may_extend`] turns down no card that makes a valid group
    /// with a group of a random table (every natural card tried with every
    /// group, named jokers among them), in each ace mode.
    #[test]
    fn a_card_extends_only_a_group_near_it() {
        let (valid, turned_down) = super::no_extension_turned_down(14, super::may_extend);
        assert!(
            valid > 1000 && turned_down > 10_000,
            "{valid} {turned_down}"
        );
    }
}
