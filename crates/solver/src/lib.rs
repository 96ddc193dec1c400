//! The exact move finder of Rami: for a manipulation rule set, a table and a hand,
//! what can be put down. It answers the best play (most cards or most points,
//! exact), the hint the Remind option shows (a play that disturbs the table least)
//! and the best hand-only opening (Vatikan's run of three, Rami's 30 points).
//!
//! The search is a rank-sweep dynamic programme (`sweep`) over card counts; the
//! table rules that do not fit counts (jokers that keep their name until freed,
//! Tahiti's frozen joker groups and loose singles, Vatikan's anchored jokers) are
//! handled by trying each way they can go (a handful at most) around the sweep.
//!
//! Vatikan and Tahiti have rules no count holds: a Vatikan joker must end with a
//! card that was next to it, and a Tahiti group holding a joker may take table
//! cards only from the freed joker's old group or one old group kept whole. Every
//! play of those rule sets is checked as the engine checks it (`legal`); one
//! that fails gives way to searches legal by construction (`restricted`): the
//! Vatikan joker laid first in a piece of run with its neighbour, the Tahiti
//! jokers laid first in the groups the rules allow, the rest swept. They are
//! exact but for their caps and the few cases their module doc lists; no play
//! the engine refuses is returned.
//!
//! The copies rule (a named joker may not stand for a card whose every copy
//! is on the table; two-player Carousel plays one deck) is held by the sweep
//! for kept named jokers and run jokers, and set jokers are renamed after it.
//! A Carousel play no renaming mends sends the search again in strict copies
//! mode, where the sweep names set jokers within each suit's room
//! (`solve_strict`): on demand only, as the plain optimum bounds the
//! strict one. Its ceiling also counts what the rule costs
//! (`copies_ceiling`), so a play reaching it ends the search; the best
//! play (most cards or most points) looks for a play worth it first on the
//! hand without the cards the ceiling keeps back (`try_at_ceiling`). Vatikan's
//! restricted search, once the rule refused plays it swept, runs the same
//! strict search (whose own anchoring faults go to the restricted search in
//! strict mode) and keeps the better legal play.

mod build;
mod dfa;
mod hint;
mod legal;
mod opening;
mod restricted;
mod sweep;

pub use opening::{best_opening, best_opening_on, meld_points};

use build::{Fixed, Layout};
use rami_cards::{Card, CardCounts, Face};
use rami_melds::{GroupError, GroupKind, RuleSet, reading_order, validate_group};
use serde::{Deserialize, Serialize};
use sweep::{Spec, Sweep};

/// What the move finder looks for.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Goal {
    /// A legal play that disturbs the table least, in this order: the fewest
    /// hand cards; among plays of that many cards, the fewest input groups
    /// changed ([`Play::changed`]); among those, one that does not rearrange
    /// ([`Play::rearranged`]) if one exists.
    Hint,
    /// The play that puts down the most hand cards.
    MostCards,
    /// The play that puts down the most points (the rule set's hand values).
    MostPoints,
}

/// One play: the hand cards put down and the table they make.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Play {
    /// Hand cards put down (a joker as it was in the hand: unnamed).
    pub played: Vec<Card>,
    /// The whole table after the play: every group valid, jokers named, each group
    /// in reading order.
    pub table: Vec<Vec<Card>>,
    /// Indexes in the input table of the groups the play changes: every
    /// input group the new table does not hold exactly as it was (the same
    /// cards, its jokers under the same names). A Tahiti loose single the play
    /// leaves alone is unchanged; one it uses is changed.
    pub changed: Vec<usize>,
    /// `played.len()`.
    pub count: usize,
    /// Sum of the rule set's hand points over `played`.
    pub points: u32,
    /// Some changed input group (Tahiti's loose singles aside) is not found
    /// whole, its jokers under the same names, in a new group of its own: it
    /// was split, lost a card, had a joker renamed or was merged into another
    /// input group's new group. `false`: each changed group was only extended
    /// (by hand cards, or Tahiti loose singles), and the other cards went into
    /// new groups.
    pub rearranged: bool,
}

/// Why a position cannot be solved.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum SolveError {
    #[error("group {group} of the table is not valid: {reason}")]
    InvalidTable { group: usize, reason: GroupError },
    #[error("the {rules} deck holds {allowed} of {card}, but the position has {copies}")]
    ImpossibleCards {
        rules: RuleSet,
        card: Card,
        copies: usize,
        allowed: usize,
    },
    #[error("{0} is not a manipulation rule set: its table cannot be rebuilt")]
    NotManipulation(RuleSet),
}

/// Jokers each rule set's deck holds (the largest deck it is played with).
pub fn deck_jokers(rules: RuleSet) -> usize {
    match rules {
        RuleSet::Manipulation | RuleSet::Machiavelli | RuleSet::Shanghai | RuleSet::Guadalupe => 0,
        RuleSet::Carousel | RuleSet::Vatikan | RuleSet::Rummy500 => 2,
        RuleSet::Tahiti => 4,
        RuleSet::Rami => 6,
    }
}

/// A hand's copies per face and its jokers.
fn counts_of(hand: &[Card]) -> ([u8; 52], u8) {
    let mut faces = [0u8; 52];
    let mut jokers = 0;
    for c in hand {
        match c.natural_face() {
            Some(f) => faces[f.index()] += 1,
            None => jokers += 1,
        }
    }
    (faces, jokers)
}

/// Refuses cards the rule set's deck cannot hold: `copies` of each face (two
/// decks, or one), and its jokers.
pub(crate) fn check_deck<'a>(
    rules: RuleSet,
    copies: u8,
    cards: impl IntoIterator<Item = &'a Card>,
) -> Result<(), SolveError> {
    let mut faces = [0usize; 52];
    let mut jokers = 0;
    for c in cards {
        match c.natural_face() {
            Some(f) => faces[f.index()] += 1,
            None => jokers += 1,
        }
    }
    let allowed = usize::from(copies);
    if let Some((i, &n)) = faces.iter().enumerate().find(|(_, n)| **n > allowed) {
        let card = Face::from_index(i).map_or(Card::JOKER, Card::from_face);
        return Err(SolveError::ImpossibleCards {
            rules,
            card,
            copies: n,
            allowed,
        });
    }
    let allowed = deck_jokers(rules);
    if jokers > allowed {
        return Err(SolveError::ImpossibleCards {
            rules,
            card: Card::JOKER,
            copies: jokers,
            allowed,
        });
    }
    Ok(())
}

/// How a table joker stands in the search.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Role {
    /// Free to take any name (its real card is on the table).
    Wild,
    /// Keeps its name; may go anywhere as that card.
    Fixed(Face),
    /// Keeps its name and stays in a group of its kind (Vatikan).
    Anchored(Face, GroupKind),
}

/// What each input group is.
#[derive(Clone, Debug, PartialEq, Eq)]
enum Kind {
    Normal,
    /// Tahiti: a single card lying loose.
    Loose,
    /// Tahiti: holds a joker whose real card has not been played: it may only be
    /// extended with hand cards.
    Frozen,
}

/// One way the table rules can go: which jokers are freed, how frozen groups are
/// extended.
#[derive(Clone, Debug)]
struct Branch {
    /// Per table group: for each card, its role if a joker.
    freed: Vec<(usize, usize)>,
    forced: [u8; 52],
    /// Frozen groups and the hand cards added to each.
    frozen: Vec<(usize, Vec<Card>)>,
    /// Tahiti's restricted search: no joker goes to the sweep (hand jokers, freed
    /// jokers and loose jokers are left out of it) ...
    no_wild: bool,
    /// ... and these groups hold them instead, laid out before the sweep.
    joker_groups: Vec<JokerGroup>,
}

/// A group holding a joker, laid out before the sweep, made only as the rules
/// allow. Tahiti: the joker (from the hand, or freed), hand cards, cards that
/// were with a freed joker, or one old joker-free group kept whole. Vatikan: an
/// anchored joker's piece of run, with the neighbour it must keep.
#[derive(Clone, Debug)]
struct JokerGroup {
    /// The group as laid (its joker named).
    cards: Vec<Card>,
    /// The hand cards in it (a hand joker unnamed, as in the hand).
    hand: Vec<Card>,
    /// Cards that were with a freed joker (table cards of a dissolved group).
    taken: Vec<Card>,
    /// The old joker-free group it holds whole (not rebuilt by the sweep).
    kept: Option<usize>,
    /// The table jokers it holds (group, place in it), which the sweep then
    /// leaves out: a Vatikan piece's anchored joker, and maybe a second table
    /// joker filling a place of the piece.
    table_jokers: Vec<(usize, usize)>,
}

impl Default for Branch {
    fn default() -> Branch {
        Branch {
            freed: Vec::new(),
            forced: [0; 52],
            frozen: Vec::new(),
            no_wild: false,
            joker_groups: Vec::new(),
        }
    }
}

/// The position after validation.
#[derive(Clone)]
struct Position {
    rules: RuleSet,
    /// Copies of each card in the game's deck (two decks, or one in
    /// two-player Carousel): the copies rule of named jokers.
    copies: u8,
    /// The sweeps keep the copies rule by construction (`Spec::strict_copies`):
    /// set only once a play broke it, as the plain sweep is cheaper and
    /// bounds the strict one from above.
    strict: bool,
    /// Strict copies mode: the most a legal play can be worth
    /// ([`copies_ceiling`]); a play reaching it ends the search.
    ceiling: Option<i32>,
    /// Strict copies mode: only plays worth at least this are looked for
    /// (the try at the ceiling itself, see [`solve_strict`]).
    floor: Option<i32>,
    table: Vec<Vec<Card>>,
    kinds: Vec<Kind>,
    hand: Vec<Card>,
    hand_counts: [u8; 52],
    hand_jokers: u8,
    /// Faces present as natural cards anywhere on the input table.
    on_table: [bool; 52],
}

impl Position {
    fn new(
        rules: RuleSet,
        copies: u8,
        table: &[Vec<Card>],
        hand: &[Card],
    ) -> Result<Position, SolveError> {
        if !rules.is_manipulation() {
            return Err(SolveError::NotManipulation(rules));
        }
        let group_rules = rules.group_rules();
        let mut kinds = Vec::with_capacity(table.len());
        for (i, g) in table.iter().enumerate() {
            if rules == RuleSet::Tahiti && g.len() == 1 {
                // A joker never lies loose: the deal sets one turned up aside
                // (it would have no name), and the engine refuses every table
                // holding one, so no play of such a table is legal.
                if g[0].is_joker() {
                    return Err(SolveError::InvalidTable {
                        group: i,
                        reason: GroupError::OnlyJokers,
                    });
                }
                kinds.push(Kind::Loose);
                continue;
            }
            validate_group(g, group_rules)
                .map_err(|reason| SolveError::InvalidTable { group: i, reason })?;
            let frozen = rules == RuleSet::Tahiti && g.iter().any(|c| c.is_joker());
            kinds.push(if frozen { Kind::Frozen } else { Kind::Normal });
        }
        check_deck(rules, copies, table.iter().flatten().chain(hand.iter()))?;
        let (hand_counts, hand_jokers) = counts_of(hand);
        let mut on_table = [false; 52];
        for c in table.iter().flatten() {
            if let Some(f) = c.natural_face() {
                on_table[f.index()] = true;
            }
        }
        Ok(Position {
            rules,
            copies,
            strict: false,
            ceiling: None,
            floor: None,
            table: table.to_vec(),
            kinds,
            hand: hand.iter().map(|c| c.in_hand()).collect(),
            hand_counts,
            hand_jokers,
            on_table,
        })
    }

    /// The same table with `hand` as the hand (a fresh search: not in
    /// strict copies mode), for a sub-multiset of this position's hand: the
    /// table is not checked again (`Position::new` validates every group,
    /// which cost the one-card hint tests more than their own sweeps).
    fn with_sub_hand(&self, hand: &[Card]) -> Position {
        let (hand_counts, hand_jokers) = counts_of(hand);
        debug_assert!(
            (0..52).all(|f| hand_counts[f] <= self.hand_counts[f])
                && hand_jokers <= self.hand_jokers
        );
        Position {
            strict: false,
            ceiling: None,
            floor: None,
            hand: hand.iter().map(|c| c.in_hand()).collect(),
            hand_counts,
            hand_jokers,
            ..self.clone()
        }
    }

    /// A quick necessary condition for a play putting down one of `cards` (hand
    /// counts per face, jokers last): one of them has, among all the cards of
    /// the position (jokers counted as wild), two more suits of its rank or a
    /// window of three places of its suit around it.
    fn some_card_fits(&self, cards: &[u8; 53]) -> bool {
        let mut avail = [false; 52];
        let mut jokers = usize::from(self.hand_jokers);
        for c in self.table.iter().flatten() {
            match c.natural_face() {
                Some(f) => avail[f.index()] = true,
                None => jokers += 1,
            }
        }
        for (a, &h) in avail.iter_mut().zip(&self.hand_counts) {
            *a |= h > 0;
        }
        if cards[52] > 0 {
            // A joker fits anywhere two cards that could meet do; leave it to the
            // search.
            return true;
        }
        let ace = self.rules.ace_mode();
        let (lo, hi) = crate::sweep::ace_window(ace);
        (0..52).any(|f| {
            cards[f] > 0 && sweep::could_have_group(&avail, f / 13, f % 13, jokers, lo, hi)
        })
    }

    /// A joker in the hand or on the table: the full search then tries every
    /// way the jokers can go, so cheap hint tests go first.
    fn jokers_around(&self) -> bool {
        self.hand_jokers > 0 || self.table.iter().flatten().any(|c| c.is_joker())
    }

    fn weight(&self, goal: Goal, card: Card) -> i32 {
        match goal {
            Goal::MostCards => 1,
            Goal::MostPoints => self.rules.hand_points(card) as i32,
            Goal::Hint => -1,
        }
    }

    /// The role of the joker `card` of group `g` in a branch.
    fn role(&self, g: usize, card: Card, branch: &Branch, idx: usize) -> Role {
        let Some(face) = card.declared() else {
            return Role::Wild;
        };
        if branch.freed.contains(&(g, idx)) {
            return Role::Wild;
        }
        match self.rules {
            RuleSet::Carousel if self.on_table[face.index()] => Role::Wild,
            RuleSet::Vatikan if self.on_table[face.index()] => Role::Wild,
            RuleSet::Vatikan => {
                let kind = validate_group(&self.table[g], self.rules.group_rules())
                    .unwrap_or(GroupKind::Run);
                Role::Anchored(face, kind)
            }
            RuleSet::Tahiti => Role::Wild, // only reached for freed groups
            _ => Role::Fixed(face),
        }
    }

    /// Every branch of the table rules (jokers freed or not, frozen groups
    /// extended or not), capped so a strange position cannot explode.
    fn branches(&self) -> Vec<Branch> {
        let mut out = vec![Branch::default()];
        let freeable_here = matches!(
            self.rules,
            RuleSet::Carousel | RuleSet::Vatikan | RuleSet::Tahiti
        );
        for (g, group) in self.table.iter().enumerate() {
            let jokers: Vec<(usize, Face)> = group
                .iter()
                .enumerate()
                .filter_map(|(i, c)| c.declared().map(|f| (i, f)))
                .collect();
            if self.kinds[g] == Kind::Frozen {
                let mut next = Vec::new();
                for b in &out {
                    // Hand copies the branch has given already (to other frozen
                    // groups, or to free jokers): a card goes down once.
                    let mut given = b.forced;
                    for c in b.frozen.iter().flat_map(|(_, ext)| ext) {
                        if let Some(f) = c.natural_face() {
                            given[f.index()] += 1;
                        }
                    }
                    let fits = |ext: &[Card]| {
                        ext.iter().all(|c| {
                            c.natural_face().is_none_or(|f| {
                                let n = ext.iter().filter(|x| *x == c).count();
                                usize::from(given[f.index()]) + n
                                    <= usize::from(self.hand_counts[f.index()])
                            })
                        })
                    };
                    // Stay frozen, extended by hand cards in each possible way.
                    for ext in self.frozen_extensions(g) {
                        if !fits(&ext) {
                            continue;
                        }
                        let mut nb = b.clone();
                        nb.frozen.push((g, ext));
                        next.push(nb);
                    }
                    // Or free it by playing the real card from the hand.
                    if let Some(&(i, f)) = jokers.first()
                        && self.hand_counts[f.index()] > given[f.index()]
                    {
                        let mut nb = b.clone();
                        nb.freed.push((g, i));
                        nb.forced[f.index()] += 1;
                        next.push(nb);
                    }
                }
                out = next;
                continue;
            }
            if !freeable_here || self.kinds[g] != Kind::Normal {
                continue;
            }
            for (i, f) in jokers {
                if self.on_table[f.index()] || self.hand_counts[f.index()] == 0 {
                    continue;
                }
                let mut next = Vec::new();
                for b in &out {
                    next.push(b.clone());
                    let mut nb = b.clone();
                    nb.freed.push((g, i));
                    // One real card frees every joker standing for it.
                    nb.forced[f.index()] = 1;
                    next.push(nb);
                }
                out = next;
            }
            if out.len() > 512 {
                out.truncate(512);
            }
        }
        out
    }

    /// The ways to extend frozen group `g` with hand cards only (none included).
    fn frozen_extensions(&self, g: usize) -> Vec<Vec<Card>> {
        let group = &self.table[g];
        let rules = self.rules.group_rules();
        let mut out = vec![Vec::new()];
        let naturals: Vec<Card> = Face::all()
            .filter(|f| self.hand_counts[f.index()] > 0)
            .map(Card::from_face)
            .collect();
        // Grow one card at a time (a run grows at its ends, a set by a suit), keeping
        // every intermediate group valid: that reaches every valid extension.
        let mut frontier: Vec<Vec<Card>> = vec![Vec::new()];
        while let Some(ext) = frontier.pop() {
            for &c in &naturals {
                if ext.contains(&c) {
                    continue;
                }
                // A card near no card of the group so far (a valid group)
                // cannot continue it (`hint::may_extend`): no validation for
                // it (a Tahiti hint's search and its exact step each make
                // every frozen group's extensions; `REACHABLE=1 probe tah 4
                // 30 10 100 h`, the finder less the automata's build: 12.33M
                // instructions, 12.11M with it).
                if !hint::may_extend(group, c) && !ext.iter().any(|&e| arrange::near(e, c)) {
                    continue;
                }
                let mut next = ext.clone();
                next.push(c);
                next.sort();
                if out.contains(&next) {
                    continue;
                }
                let mut cards = group.clone();
                cards.extend(&next);
                if validate_group(&cards, rules).is_ok() {
                    out.push(next.clone());
                    frontier.push(next);
                }
            }
        }
        out
    }

    /// The real cards the sweep must put down to free jokers: those the branch
    /// forces, less those its joker groups put down already.
    fn forced_in_sweep(&self, branch: &Branch) -> [u8; 52] {
        let mut out = branch.forced;
        for f in branch
            .joker_groups
            .iter()
            .flat_map(|jg| &jg.hand)
            .filter_map(|c| c.natural_face())
        {
            out[f.index()] = out[f.index()].saturating_sub(1);
        }
        out
    }

    /// The sweep for the groups `dissolve` and the hand, in one branch.
    #[allow(clippy::needless_range_loop)] // per-face arrays indexed alike
    fn spec(&self, goal: Goal, branch: &Branch, dissolve: &[usize]) -> (Spec, Fixed, i32) {
        let rules = self.rules;
        let mut spec = Spec::new(rules.ace_mode(), rules == RuleSet::Tahiti);
        let mut fixed = Fixed::default();
        for f in Face::all() {
            spec.weight[f.index()] = self.weight(goal, Card::from_face(f));
        }
        spec.joker_weight = self.weight(goal, Card::JOKER);
        spec.need_hand = goal == Goal::Hint;
        for &g in dissolve {
            let group = &self.table[g];
            if self.kinds[g] == Kind::Loose {
                // (Never a joker: `Position::new` refuses a loose joker.)
                if let Some(f) = group[0].natural_face() {
                    spec.loose[f.index()] += 1;
                }
                continue;
            }
            for (i, &c) in group.iter().enumerate() {
                if branch
                    .joker_groups
                    .iter()
                    .any(|jg| jg.table_jokers.contains(&(g, i)))
                {
                    continue;
                }
                match (c.natural_face(), self.role(g, c, branch, i)) {
                    (Some(f), _) => spec.must[f.index()] += 1,
                    // Placed in a joker group instead.
                    (None, Role::Wild) if branch.no_wild => {}
                    (None, Role::Wild) => spec.jokers_must += 1,
                    (None, Role::Fixed(f)) => {
                        spec.must[f.index()] += 1;
                        fixed.free[f.index()] += 1;
                    }
                    (None, Role::Anchored(f, kind)) => {
                        spec.must[f.index()] += 1;
                        if kind == GroupKind::Run {
                            spec.run_only[f.index()] += 1;
                            // An ace at the high end of its run stays there
                            // (ace-either: the low end is the other place).
                            let low = group
                                .iter()
                                .any(|c| c.face().is_some_and(|x| x.rank().value() == 2));
                            if f.rank().value() == 1
                                && rules.ace_mode() == rami_melds::AceMode::Either
                                && !low
                            {
                                spec.run_only_high_ace[f.index() / 13] += 1;
                            }
                            fixed.run[f.index()] += 1;
                        } else {
                            spec.set_only[f.index()] += 1;
                            fixed.set[f.index()] += 1;
                        }
                    }
                }
            }
        }
        // Hand cards left after the frozen groups' extensions.
        let mut hand = self.hand_counts;
        let mut jokers = self.hand_jokers;
        let mut extra = 0;
        for (_, ext) in &branch.frozen {
            for &c in ext {
                match c.natural_face() {
                    Some(f) => hand[f.index()] = hand[f.index()].saturating_sub(1),
                    None => jokers = jokers.saturating_sub(1),
                }
                extra += self.weight(goal, c);
            }
        }
        // Joker groups: their hand cards are counted here, the cards that were
        // with a freed joker are placed by them.
        // Real cards a joker group puts down count towards the freeing ones.
        let forced_in_sweep = self.forced_in_sweep(branch);
        for jg in &branch.joker_groups {
            for &c in &jg.hand {
                match c.natural_face() {
                    Some(f) => hand[f.index()] = hand[f.index()].saturating_sub(1),
                    None => jokers = jokers.saturating_sub(1),
                }
                extra += self.weight(goal, c);
            }
            for c in &jg.taken {
                if let Some(f) = c.natural_face() {
                    spec.must[f.index()] = spec.must[f.index()].saturating_sub(1);
                }
            }
        }
        if branch.no_wild {
            jokers = 0;
        }
        for f in 0..52 {
            let forced = forced_in_sweep[f].min(hand[f]);
            spec.must[f] += forced;
            spec.hand[f] = hand[f] - forced;
            spec.bonus += i32::from(forced) * spec.weight[f];
            if forced > 0 {
                spec.forced_hand = true;
            }
        }
        spec.jokers_hand = jokers;
        // (Each cap below only drops plays the copies rule refuses, so the
        // plain optimum still bounds every legal play from above: what lets
        // Carousel run its strict search on demand, see `solve_strict`.)
        if matches!(
            rules,
            RuleSet::Carousel | RuleSet::Vatikan | RuleSet::Tahiti
        ) {
            // A joker keeping its name may not stand for a card whose every
            // copy is on the table: hand copies of its card stay in the hand.
            let mut left = [self.copies; 52];
            for (g, group) in self.table.iter().enumerate() {
                for (i, &c) in group.iter().enumerate() {
                    let keeps = match c.declared() {
                        None => false,
                        Some(_) if rules == RuleSet::Tahiti => {
                            self.kinds[g] == Kind::Frozen && !branch.freed.contains(&(g, i))
                        }
                        Some(_) => matches!(self.role(g, c, branch, i), Role::Anchored(..)),
                    };
                    let f = c.face().map(|f| f.index());
                    if let Some(f) = f
                        && (keeps || !c.is_joker())
                    {
                        left[f] = left[f].saturating_sub(1);
                    }
                }
            }
            for (_, ext) in &branch.frozen {
                for f in ext.iter().filter_map(|c| c.natural_face()) {
                    left[f.index()] = left[f.index()].saturating_sub(1);
                }
            }
            // So are the hand copies a Vatikan piece lays (`8C 9C *10C JC QC
            // KC` beside an anchored `*KC`: the second KC of the hand stays
            // there; before, every such sweep's play broke the copies rule
            // and was refused). (Tahiti's joker groups: below.)
            // A piece's second joker under a new name (the hand's, or a free
            // table joker) takes a copy of that card as well, and limits the
            // hand's copies as a table joker's name does.
            let mut piece_named = [false; 52];
            if rules == RuleSet::Vatikan {
                for jg in &branch.joker_groups {
                    for f in jg.hand.iter().filter_map(|c| c.natural_face()) {
                        left[f.index()] = left[f.index()].saturating_sub(1);
                    }
                    // Anchored jokers keep their names: counted above.
                    let mut keeping: Vec<Card> = jg
                        .table_jokers
                        .iter()
                        .filter_map(|&(g, i)| {
                            let c = *self.table.get(g)?.get(i)?;
                            matches!(self.role(g, c, branch, i), Role::Anchored(..)).then_some(c)
                        })
                        .collect();
                    for c in jg.cards.iter().filter(|c| c.is_joker()) {
                        if let Some(k) = keeping.iter().position(|x| x == c) {
                            keeping.swap_remove(k);
                        } else if let Some(f) = c.declared() {
                            left[f.index()] = left[f.index()].saturating_sub(1);
                            piece_named[f.index()] = true;
                        }
                    }
                }
            }
            // Tahiti's joker groups alike: a joker with one name its group
            // allows takes a copy of that card, and so do the group's hand
            // cards (`8C 9C *10C JC` beside a natural 10C: the hand's second
            // 10C stays there; before, every such sweep's play broke the
            // copies rule and was refused, and its next best was lost). A
            // joker with two names (a run's two ends) holds nothing back.
            if rules == RuleSet::Tahiti && branch.no_wild && !branch.joker_groups.is_empty() {
                let limits = restricted::name_limits(self, branch);
                for jg in &branch.joker_groups {
                    for f in jg.hand.iter().filter_map(|c| c.natural_face()) {
                        left[f.index()] = left[f.index()].saturating_sub(1);
                    }
                    if let [f] = restricted::joker_names(self, &limits, jg)[..] {
                        left[f.index()] = left[f.index()].saturating_sub(1);
                        piece_named[f.index()] = true;
                    }
                }
            }
            // Nor may a joker the sweep names: the copies it may stand beside
            // are those not already down outside the sweep.
            let mut outside = [0u8; 52];
            for (g, group) in self.table.iter().enumerate() {
                if dissolve.contains(&g) {
                    continue;
                }
                for f in group.iter().filter_map(|c| c.face()) {
                    outside[f.index()] += 1;
                }
            }
            let mut set_aside: Vec<Card> = branch
                .frozen
                .iter()
                .flat_map(|(_, ext)| ext.iter().copied())
                .collect();
            for jg in &branch.joker_groups {
                // A kept group's own cards are counted with the table.
                let kept = jg
                    .kept
                    .and_then(|g| self.table.get(g))
                    .map_or(&[][..], |v| &v[..]);
                let mut own = CardCounts::from_cards(kept);
                set_aside.extend(
                    jg.cards
                        .iter()
                        .filter(|&&c| c.is_joker() || !own.remove(c))
                        .copied(),
                );
            }
            for f in set_aside.iter().filter_map(|c| c.face()) {
                outside[f.index()] += 1;
            }
            for f in 0..52 {
                spec.joker_face_cap[f] = self.copies.saturating_sub(outside[f]);
            }
            spec.strict_copies = self.strict && !spec.one_joker;
            // The faces some table joker is named for (one pass: per face,
            // a pass over the table cost a Carousel hint's small sweeps a
            // tenth of their instructions).
            let mut named = [false; 52];
            for f in self.table.iter().flatten().filter_map(|c| c.declared()) {
                named[f.index()] = true;
            }
            for f in 0..52 {
                if named[f] || piece_named[f] {
                    // (Tahiti: the real cards a joker group holds are in
                    // its hand cards, counted above, not again here.)
                    let forced = if rules == RuleSet::Tahiti {
                        forced_in_sweep[f]
                    } else {
                        branch.forced[f]
                    };
                    let room = left[f].saturating_sub(forced.min(hand[f]));
                    spec.hand[f] = spec.hand[f].min(room);
                }
            }
        }
        if extra != 0 && goal == Goal::Hint {
            spec.forced_hand = true;
        }
        (spec, fixed, extra)
    }
}

/// The groups the sweep may rebuild: every group but frozen ones.
fn all_dissolvable(pos: &Position) -> Vec<usize> {
    (0..pos.table.len())
        .filter(|&g| pos.kinds[g] != Kind::Frozen)
        .collect()
}

#[derive(Clone)]
struct Best {
    value: i32,
    branch: Branch,
    layout: Layout,
    /// The sweep path's choices: where the fewest-changes tests' walks start.
    guide: Option<sweep::Guide>,
}

/// The best play over every branch, rebuilding `dissolve`.
fn search(pos: &Position, goal: Goal, dissolve: &[usize]) -> Option<Best> {
    let mut best: Option<Best> = None;
    for branch in search_order(pos, goal) {
        // (Strict copies mode: no branch beats a play worth the ceiling.)
        if best
            .as_ref()
            .zip(pos.ceiling)
            .is_some_and(|(b, c)| b.value >= c)
        {
            break;
        }
        try_branch(pos, goal, branch, dissolve, &mut best);
    }
    best
}

/// The branches in the order the searches try them. Carousel: the named
/// table jokers freed first ([`Position::branches`] lists the kept branch
/// first and the one freeing every joker last). Freeing plays the real card
/// from the hand and gives a wild joker, so that branch is mostly the best
/// one, and its value is then the floor every other branch must beat (most
/// end before any sweep, or after a sweep that drops every state below it);
/// in the old order each branch's exact search ran with a lower floor
/// (`probe car 2 30 10 100` #95: branches worth 5, 7, none and 8 in turn).
/// A different branch may win a tie (same value, other cards), never a
/// better or worse value. Not for a hint: the fewest cards, which a freed
/// joker's forced real card mostly is not (Carousel hints, `probe car 2 30
/// 10 100 h`: 21.2M instructions kept first, 26.3M freed first).
fn search_order(pos: &Position, goal: Goal) -> Vec<Branch> {
    let mut branches = pos.branches();
    if pos.rules == RuleSet::Carousel && goal != Goal::Hint {
        branches.reverse();
    }
    branches
}

/// Sweeps one branch and keeps it in `best` when it beats it.
fn try_branch(
    pos: &Position,
    goal: Goal,
    branch: Branch,
    dissolve: &[usize],
    best: &mut Option<Best>,
) {
    // Only a better branch matters (and in the try at the ceiling, nothing
    // below it).
    let floor = match (best.as_ref().map(|b| b.value + 1), pos.floor) {
        (Some(a), Some(b)) => Some(a.max(b)),
        (a, b) => a.or(b),
    };
    if let Some(b) = sweep_branch(pos, goal, branch, dissolve, floor) {
        *best = Some(b);
    }
}

/// The value of one branch's best play (no layout), `None` if it has none
/// worth `floor`.
fn branch_top(
    pos: &Position,
    goal: Goal,
    branch: &Branch,
    dissolve: &[usize],
    floor: Option<i32>,
) -> Option<i32> {
    let groups = branch_groups(pos, branch, dissolve);
    let (spec, _, extra) = pos.spec(goal, branch, &groups);
    let mut sw = Sweep::new(&spec);
    sw.at_least = floor.map(|f| f - extra);
    sw.at_most = pos.ceiling.map(|c| c - extra);
    let value = sw.best()? + extra;
    floor.is_none_or(|f| value >= f).then_some(value)
}

/// The groups a branch rebuilds.
fn branch_groups(pos: &Position, branch: &Branch, dissolve: &[usize]) -> Vec<usize> {
    // Freeing in Tahiti dissolves the frozen group too; a group a joker group
    // holds whole is not rebuilt.
    let mut groups: Vec<usize> = dissolve
        .iter()
        .copied()
        .filter(|g| !branch.joker_groups.iter().any(|jg| jg.kept == Some(*g)))
        .collect();
    for &(g, _) in &branch.freed {
        if pos.kinds[g] == Kind::Frozen && !groups.contains(&g) {
            groups.push(g);
        }
    }
    groups
}

/// The best play of one branch worth at least `floor`, laid out.
fn sweep_branch(
    pos: &Position,
    goal: Goal,
    branch: Branch,
    dissolve: &[usize],
    floor: Option<i32>,
) -> Option<Best> {
    let groups = branch_groups(pos, &branch, dissolve);
    let (mut spec, fixed, extra) = pos.spec(goal, &branch, &groups);
    // Tahiti's restricted search lays its jokers before the sweep: with none
    // left in it, the plain run automaton (at most 64 states, not 698) finds
    // the same optimum. (Session 17: on the probe's 70 + 18 tables the safety
    // net no longer bites, on full tables' most points 2 of 15 where 3.)
    if branch.no_wild && spec.jokers_must == 0 && spec.jokers_hand == 0 {
        spec.one_joker = false;
    }
    let mut sw = Sweep::new(&spec);
    sw.at_least = floor.map(|f| f - extra);
    sw.at_most = pos.ceiling.map(|c| c - extra);
    let value = sw.best()? + extra;
    if floor.is_some_and(|f| value < f) {
        return None;
    }
    // Lay it out now, from the path this sweep already found.
    let layout = build::layout(&mut sw, &fixed, &pos.forced_in_sweep(&branch))?;
    let guide = sw
        .path()
        .map(|(_, moves)| sweep::guide_of(&moves, sw.first()));
    Some(Best {
        value,
        branch,
        layout,
        guide,
    })
}

/// Ok(None) = no legal play. Exact optimum for [`Goal::MostCards`] and
/// [`Goal::MostPoints`]; for [`Goal::Hint`] a legal play disturbing the table
/// least. The deck is the rule set's largest (two of each card): in a game,
/// where two-player Carousel plays one deck, use [`solve_with_copies`].
pub fn solve(
    rules: RuleSet,
    table: &[Vec<Card>],
    hand: &[Card],
    goal: Goal,
) -> Result<Option<Play>, SolveError> {
    solve_with_copies(rules, rules.max_copies(), table, hand, goal)
}

/// [`solve`] for a game whose deck holds `copies` of each card
/// (`RuleSet::copies(players)`): a named joker may not stand for a card whose
/// every copy is on the table, and a position holding more copies than that
/// is refused.
pub fn solve_with_copies(
    rules: RuleSet,
    copies: u8,
    table: &[Vec<Card>],
    hand: &[Card],
    goal: Goal,
) -> Result<Option<Play>, SolveError> {
    let pos = Position::new(rules, copies, table, hand)?;
    if let Some((plain, faces)) = fixed_jokers_as_cards(&pos) {
        let play = solve_with_copies(rules, copies, &plain, hand, goal)?;
        return Ok(play.map(|p| jokers_back(p, &faces)));
    }
    let mut counts = [0u8; 53];
    counts[..52].copy_from_slice(&pos.hand_counts);
    counts[52] = pos.hand_jokers;
    // A hand that had no play on this very table, plus some cards: a play now
    // has to put one of the new cards down.
    let known = NO_PLAY.with(|memo| {
        memo.borrow()
            .iter()
            .find(|(r, c, t, h)| {
                (*r, *c) == (rules, copies)
                    && t.as_slice() == table
                    && h.iter().zip(&counts).all(|(a, b)| a <= b)
            })
            .map(|(_, _, _, h)| *h)
    });
    if let Some(before) = known {
        let mut new = [0u8; 53];
        for i in 0..53 {
            new[i] = counts[i] - before[i];
        }
        if !pos.some_card_fits(&new) {
            return Ok(None);
        }
    }
    let cuts = || {
        (
            sweep::STATS.with(|s| s.get().strict_cut),
            restricted::bites_so_far(),
            hint::bites_so_far(),
        )
    };
    let cuts_before = cuts();
    let play = solve_position(pos, goal)?.map(|p| keep_places(table, p));
    // (Most points can answer "none" for a play worth no points, and a
    // search cut short by a cap or budget (the strict copies search, the
    // restricted searches, the hint's) may miss one: not proofs.)
    if play.is_none() && goal != Goal::MostPoints && cuts() == cuts_before {
        NO_PLAY.with(|memo| {
            let mut memo = memo.borrow_mut();
            if memo.len() >= NO_PLAY_MEMO {
                memo.remove(0);
            }
            memo.push((rules, copies, table.to_vec(), counts));
        });
    }
    Ok(play)
}

/// Carousel: the table with each joker that can never take a new name in
/// this play (no natural copy of its card on the table nor in the hand, so
/// none can be put down beside it) replaced by a natural card of its name,
/// and those names; `None` when no joker is such. Such a joker is its card
/// in every way a play can use it: it moves only as that card, every group
/// holding it is valid exactly when the group holding the card is (the
/// validator reads a named joker as its name), and the copies rule counts
/// a face's naturals and jokers together (a hand joker named for the card
/// breaks the rule in both tables alike). So the solve of the plain table
/// is the solve of this one, with the joker-free searches' speed (a
/// one-card hint with table jokers tried every card with every group and
/// pair of groups, each test a sweep with jokers: `REACHABLE=1 probe car 2
/// 30 10 300 h` #151). The cards put back: every natural card of those
/// names on the plain table is one of the jokers (no other copy exists).
/// Not when the input table breaks the copies rule for a name (the plain
/// table would hold more copies than the deck).
fn fixed_jokers_as_cards(pos: &Position) -> Option<(Vec<Vec<Card>>, [bool; 52])> {
    if pos.rules != RuleSet::Carousel {
        return None;
    }
    let mut faces = [false; 52];
    let mut named = [0u8; 52];
    for f in pos.table.iter().flatten().filter_map(|c| c.declared()) {
        named[f.index()] += 1;
    }
    for (f, &n) in named.iter().enumerate() {
        faces[f] = n > 0 && !pos.on_table[f] && pos.hand_counts[f] == 0 && n <= pos.copies;
    }
    if !faces.contains(&true) {
        return None;
    }
    let plain = pos
        .table
        .iter()
        .map(|g| {
            g.iter()
                .map(|&c| match c.declared() {
                    Some(f) if faces[f.index()] => Card::from_face(f),
                    _ => c,
                })
                .collect()
        })
        .collect();
    Some((plain, faces))
}

/// A play of [`fixed_jokers_as_cards`]' plain table on the input table:
/// each natural card of the replaced names a joker named for it again.
fn jokers_back(mut play: Play, faces: &[bool; 52]) -> Play {
    for c in play.table.iter_mut().flatten() {
        if let Some(f) = c.natural_face()
            && faces[f.index()]
        {
            *c = Card::named_joker(f);
        }
    }
    play
}

/// `play` with every group it leaves as it was back at its place in `old`,
/// the groups it made filling the places it emptied, in order, and any more
/// after them: the table does not shuffle under the players' eyes, and a
/// phone's table update (the groups that differ at each place) stays small.
fn keep_places(old: &[Vec<Card>], mut play: Play) -> Play {
    use arrange::sorted;
    let mut placed: Vec<Option<Vec<Card>>> = vec![None; old.len()];
    let mut made = Vec::new();
    for group in std::mem::take(&mut play.table) {
        let key = sorted(&group);
        match (0..old.len())
            .find(|&i| placed[i].is_none() && !play.changed.contains(&i) && sorted(&old[i]) == key)
        {
            Some(i) => placed[i] = Some(group),
            None => made.push(group),
        }
    }
    let mut made = made.into_iter();
    for slot in placed.iter_mut().filter(|s| s.is_none()) {
        *slot = made.next();
    }
    play.table = placed.into_iter().flatten().chain(made).collect();
    play
}

/// Positions found to have no play lately (rule set, copies, table, hand counts
/// with jokers last), per thread: the must-meld check asks again after every
/// draw.
const NO_PLAY_MEMO: usize = 8;
type NoPlay = (RuleSet, u8, Vec<Vec<Card>>, [u8; 53]);
thread_local! {
    static NO_PLAY: std::cell::RefCell<Vec<NoPlay>> = const { std::cell::RefCell::new(Vec::new()) };
}

fn solve_position(pos: Position, goal: Goal) -> Result<Option<Play>, SolveError> {
    let play = solve_checked(&pos, goal)?;
    // The search's hint has the fewest cards; the fewest groups and no
    // rearrangement among plays of that many cards are settled here.
    Ok(match play {
        Some(play) if goal == Goal::Hint => Some(hint::exact(&pos, play)),
        play => play,
    })
}

/// The search's play, made legal for Carousel, Vatikan and Tahiti.
fn solve_checked(pos: &Position, goal: Goal) -> Result<Option<Play>, SolveError> {
    if legal::stuck_joker(pos.rules, pos.copies, &pos.table) {
        return Ok(None);
    }
    // Tahiti's hint by one natural card extending a group passes the table
    // rules whenever it passes the copies rule (see
    // [`extension_keeps_tahiti_rules`]): the whole check is spared (most
    // mid-game hints are such plays; `REACHABLE=1 probe tah 4 30 10 100 h`,
    // the finder's instructions less the automata's build: 15.45M, 13.65M
    // without it).
    // Any such extension will do, not only the first: one the copies rule
    // refuses went to the check and then to the restricted search
    // (`REACHABLE=1 probe tah 4 84 20 100 h` #40: 32M instructions for
    // `5H` on `2H 3H 4H`).
    // (One pass: the first extension is kept for the check should none be
    // vouched for.)
    let play = if goal == Goal::Hint && !pos.strict && pos.rules == RuleSet::Tahiti {
        let mut first: Option<Play> = None;
        let vouched = hint_extension_where(pos, |p| {
            first.get_or_insert_with(|| p.clone());
            extension_keeps_tahiti_rules(pos, p)
        });
        if vouched.is_some() {
            return Ok(vouched);
        }
        match first {
            Some(play) => Some(play),
            None => solve_past_extension(pos, goal),
        }
    } else {
        solve_unchecked(pos, goal)
    };
    if !legal::has_named_jokers(pos.rules) {
        return Ok(play);
    }
    // Every legal play is a play of the unrestricted search, so "none" stands,
    // and a legal answer is the answer.
    let Some(play) = play else { return Ok(None) };
    match legal::check(pos.rules, pos.copies, &pos.table, &play.table, &play.played) {
        Ok(()) => Ok(Some(play)),
        Err(legal::Fault::Names) => {
            if let Some(renamed) =
                legal::rename_set_jokers(pos.rules, pos.copies, &pos.table, &play)
            {
                return Ok(Some(renamed));
            }
            if pos.rules == RuleSet::Carousel {
                // The strict search's own plays keep the rule (one still
                // refused comes from a search cut short: none stands).
                // (A hint the strict search cannot give, the best play by
                // cards stands in, as in Vatikan and Tahiti.)
                return Ok(if pos.strict {
                    None
                } else {
                    solve_strict(pos, goal, &play).or_else(|| hint_past_the_rules(pos, goal, &play))
                });
            }
            Ok(restricted::solve(pos, goal, legal::Fault::Names, &play)
                .or_else(|| hint_past_the_rules(pos, goal, &play)))
        }
        Err(fault) => Ok(restricted::solve(pos, goal, fault, &play)
            .or_else(|| hint_past_the_rules(pos, goal, &play))),
    }
}

/// A hint whose fewest-card plays all break a table rule the restricted
/// search cannot mend for hints (it looks for the fewest cards only among
/// the plays the rules allow of a branch, and may find none): the best play
/// by cards, which the restricted search finds legal, bounds the count from
/// above, `failed` (the unrestricted search's fewest, which no legal play
/// undercuts) from below, and [`hint::fewest_legal`] tries the counts
/// between (Vatikan table `4S 4H 4D 4C | *4S 4H 4D 4C`, hand `6S 4S 7S`: the
/// search's one-card play names the joker for a four whose copies are all
/// down, the best play puts down three, and `6S` alone takes the joker away
/// as `*5S`; in Carousel, a hint the strict copies search cannot give). So
/// the hint never says "no play" where there is one. `None` for the other
/// goals.
fn hint_past_the_rules(pos: &Position, goal: Goal, failed: &Play) -> Option<Play> {
    if goal != Goal::Hint {
        return None;
    }
    let best = solve_checked(pos, Goal::MostCards).ok().flatten()?;
    Some(hint::fewest_legal(pos, failed.count, best))
}

/// Sweep states the strict copies search ([`solve_strict`]) may spend, a
/// safety net (states, not time, so answers stay deterministic; until
/// session 8 a sweep's finished runs counted twice, so an ace-split branch
/// and bound of many nodes stopped near half of it, 1.0-1.3M: two of the
/// four Vatikan full-table solves `vatikan_caps_against_the_uncapped_search`
/// found below the uncapped search at `RAMI_CAPS_N=1000`, #631 and #956
/// most points, need 1.7M and 1.3M). Measured (session 7,
/// BENCHMARKS): in whole games it ran a few thousand states at most; on
/// full two-deck tables with 20-card hands (`probe car 2 84 20 30`) it
/// bit on 23 of 30 (70M-300M states would prove those optima, session 6),
/// with the same answers at 2M as at 20M, 0.1-0.4 s against 1-2.5 s
/// (release). Since the copies ceiling ([`copies_ceiling`], "Session 7,
/// the copies bound") it bites on none of the 77 reachable full tables of
/// `REACHABLE=1 probe car 2 84 20 200` (most cards: the ceiling is
/// reached). Most points bit on 58 of the 10,000 positions of the long
/// differential run, below the reference, where the ceiling was the optimum
/// but the search found it only after millions of states; since the try at
/// the ceiling ([`try_at_ceiling`], "Session 7, most points under the
/// copies rule") on none of them.
const STRICT_STATES: u64 = 2_000_000;

thread_local! {
    /// [`STRICT_STATES`], but for measurements (`internal::strict_states`).
    static STRICT_BUDGET: std::cell::Cell<u64> = const { std::cell::Cell::new(STRICT_STATES) };
}

/// Carousel's best play (or hint) under the copies rule, once the plain
/// search's play broke it and no renaming mended it (and Vatikan's best play,
/// from `restricted::solve`, once the rule refused plays the restricted
/// search swept; a strict play that breaks the anchoring rule goes on to
/// the restricted search in strict mode): the search
/// again in strict copies mode (`Spec::strict_copies`), whose sweeps keep
/// the rule by construction. Run on demand only: the plain optimum bounds
/// the strict one from above (every legal play is a play of the plain
/// search), so a plain play that is legal, or that renaming makes legal,
/// is already the exact answer; only the rest pay for the strict search.
/// The search's ceiling is the least of the plain optimum (each branch's
/// sweep bound) and [`copies_ceiling`] (`Position::ceiling`): a play worth
/// it ends the search, exact, without the proof the plain bound could not
/// give (that proof spent the whole budget on full tables). The best play
/// (most points; since session 8 most cards too) first looks for a play
/// worth the ceiling alone ([`try_at_ceiling`]), within a part of the budget.
///
/// Within [`STRICT_STATES`] the answer is exact. Past it (counted as a
/// bite of `internal::restricted_caps` and in `Stats::strict_cut`; off with
/// the caps) the best legal play found stands: every play the strict search
/// gives is checked again, and one still refused is dropped, so the finder
/// never answers a play the engine would refuse.
fn solve_strict(pos: &Position, goal: Goal, plain: &Play) -> Option<Play> {
    // (The plain play is the plain optimum, but for a hint, which has no
    // ceiling.)
    let plain_value: i32 = plain.played.iter().map(|&c| pos.weight(goal, c)).sum();
    let strict = Position {
        strict: true,
        ceiling: copies_ceiling(pos, goal).map(|c| c.min(plain_value)),
        ..pos.clone()
    };
    let budget = if restricted::capped() {
        STRICT_BUDGET.with(|b| b.get())
    } else {
        u64::MAX
    };
    let legal =
        |p: &Play| legal::check(pos.rules, pos.copies, &pos.table, &p.table, &p.played).is_ok();
    let before = sweep::strict_budget_start(budget);
    if let Some(at_ceiling) =
        try_at_ceiling(pos, goal, strict.ceiling, budget / AT_CEILING_SHARE).filter(|p| legal(p))
    {
        sweep::strict_budget_end(before);
        return Some(at_ceiling);
    }
    let found = solve_checked(&strict, goal).ok().flatten();
    let cut = sweep::strict_budget_end(before);
    if cut {
        restricted::bite();
    }
    found.filter(|p| legal(p))
}

/// The part of the strict budget ([`STRICT_STATES`]) the try at the ceiling
/// ([`try_at_ceiling`]) may spend: one in this many states.
const AT_CEILING_SHARE: u64 = 4;

/// Ways to keep the ceiling's cards the try at the ceiling ([`try_at_ceiling`])
/// looks at, at most: with most cards every natural hand card is worth one,
/// so keeping any one of them back reaches the same ceiling (full Vatikan
/// tables of `vatikan_caps_against_the_uncapped_search`: #956, 19 of 20
/// cards, found keeping 4C back in 65k strict states, where the whole
/// search needed 3.1M; #876, 18 of 20 keeping AC AC, 39k against 2.4M).
const AT_CEILING_TRIES: usize = 24;

/// The try at the ceiling gives each choice of cards to keep back at least
/// one in this many of its states.
const AT_CEILING_SHARES: usize = 4;

/// Strict copies mode: a play worth exactly `ceiling`, looked for on the
/// hand without the natural cards [`copies_ceiling`] keeps (as many of the
/// least worth as it says; each distinct choice of that worth in turn, in
/// hand order among equals, at most [`AT_CEILING_TRIES`]: for most cards any
/// cards, for most points ties of worth; session 7 tried most points only,
/// and one choice) and the hand jokers it does not play, with every
/// state below the ceiling dropped. On full tables the ceiling is mostly the
/// strict optimum, which the whole search found only after millions of
/// states (the ace-split branch and bound's leaves all tie at the plain
/// bound, and each costs hundreds of thousands of states); here the cards to
/// keep are fixed and nothing may be left out, so a state that drops a card
/// dies at once. Sound either way: every play of the smaller hand is a play
/// of the whole hand, worth the same; one worth the ceiling is optimal
/// (nothing beats the ceiling), anything else is discarded and the whole
/// search runs. Within `budget` states in all (a part of the caller's strict
/// budget: a try that runs out is not a cut of the search, which then runs
/// with what is left), each choice within a share of it
/// ([`AT_CEILING_SHARES`]: #956 of the caps test, most points, keeps one of
/// four aces of equal worth back; the first has no play at the ceiling and
/// took the whole part to refute).
fn try_at_ceiling(pos: &Position, goal: Goal, ceiling: Option<i32>, budget: u64) -> Option<Play> {
    if goal == Goal::Hint {
        return None;
    }
    let ceiling = ceiling?;
    let (value, kept, jokers_played) = ceiling_keeping(pos, goal)?;
    // (A ceiling below the copies bound is the plain optimum's: it does not
    // say which cards to keep. One that keeps nothing back is tried too,
    // on the whole hand: the whole search has no floor there and proves
    // the plays below first, which on full Vatikan tables whose optimum is
    // the whole hand ran past the budget, 2.5-4.1M states, caps test
    // `RAMI_CAPS_N=3000` #1414, #1497, #2573, #2625.)
    if value != ceiling {
        return None;
    }
    let mut naturals: Vec<Card> = pos.hand.iter().copied().filter(|c| !c.is_joker()).collect();
    // (A stable sort: equals stay in hand order.)
    naturals.sort_by_key(|&c| pos.weight(goal, c));
    let least: i32 = naturals
        .iter()
        .take(kept)
        .map(|&c| pos.weight(goal, c))
        .sum();
    let jokers = pos
        .hand
        .iter()
        .copied()
        .filter(|c| c.is_joker())
        .take(usize::from(jokers_played));
    let part = sweep::strict_part_start(budget);
    let choices = kept_choices(&naturals, kept, least, |c| pos.weight(goal, c));
    // (Each choice within a share of the part, so a first one with no play
    // at the ceiling, which can take the whole part to refute, leaves room
    // for the next.)
    let each = budget / choices.len().clamp(1, AT_CEILING_SHARES) as u64;
    let mut found = None;
    for keep in choices {
        if sweep::strict_left() == 0 {
            break;
        }
        let mut rest = CardCounts::from_cards(&naturals);
        for c in &keep {
            rest.remove(*c);
        }
        let hand: Vec<Card> = naturals
            .iter()
            .copied()
            .filter(|&c| {
                // (Each kept copy once.)
                if rest.count(c) > 0 {
                    rest.remove(c);
                    true
                } else {
                    false
                }
            })
            .chain(jokers.clone())
            .collect();
        let Ok(smaller) = Position::new(pos.rules, pos.copies, &pos.table, &hand) else {
            continue;
        };
        let smaller = Position {
            strict: true,
            ceiling: Some(ceiling),
            floor: Some(ceiling),
            ..smaller
        };
        let one = sweep::strict_part_start(each);
        found = solve_checked(&smaller, goal)
            .ok()
            .flatten()
            .filter(|p| p.played.iter().map(|&c| pos.weight(goal, c)).sum::<i32>() == ceiling);
        sweep::strict_part_end(one);
        if found.is_some() {
            break;
        }
    }
    sweep::strict_part_end(part);
    found
}

/// The distinct multisets of `kept` cards of `naturals` (sorted by worth,
/// equals in hand order) worth `least` in all, in that order, at most
/// [`AT_CEILING_TRIES`].
fn kept_choices(
    naturals: &[Card],
    kept: usize,
    least: i32,
    worth: impl Fn(Card) -> i32,
) -> Vec<Vec<Card>> {
    // Distinct cards with their copies, in order of first appearance.
    let mut distinct: Vec<(Card, usize)> = Vec::new();
    for &c in naturals {
        match distinct.iter_mut().find(|(d, _)| *d == c) {
            Some((_, n)) => *n += 1,
            None => distinct.push((c, 1)),
        }
    }
    // Depth first over the distinct cards: how many copies of each to keep.
    struct Walk<'a> {
        distinct: &'a [(Card, usize)],
        least: i32,
        worth: &'a dyn Fn(Card) -> i32,
        chosen: Vec<Card>,
        out: Vec<Vec<Card>>,
    }
    impl Walk<'_> {
        fn go(&mut self, at: usize, left: usize, value: i32) {
            if self.out.len() >= AT_CEILING_TRIES {
                return;
            }
            if left == 0 {
                if value == self.least {
                    self.out.push(self.chosen.clone());
                }
                return;
            }
            let Some(&(card, copies)) = self.distinct.get(at) else {
                return;
            };
            // (Worth never falls along the list: `left` more cards are worth
            // at least `left` of this one.)
            if value + (self.worth)(card) * left as i32 > self.least {
                return;
            }
            for n in (0..=copies.min(left)).rev() {
                let v = value + (self.worth)(card) * n as i32;
                self.chosen.extend(std::iter::repeat_n(card, n));
                self.go(at + 1, left - n, v);
                self.chosen.truncate(self.chosen.len() - n);
            }
        }
    }
    let mut walk = Walk {
        distinct: &distinct,
        least,
        worth: &worth,
        chosen: Vec::new(),
        out: Vec::new(),
    };
    walk.go(0, kept, 0);
    walk.out
}

/// The most any play legal under the copies rule can be worth (most cards or
/// most points; `None` for a hint, whose best is the least), for the strict
/// search's ceiling: the plain optimum cannot see what the rule costs, and on
/// full tables the strict search spent its whole budget proving a play
/// below it optimal.
///
/// Why it holds: every play the finder answers passes the engine's copies
/// check on the whole new table (`legal::check`), where a face `f` named by
/// `j` jokers needs `naturals(f) + j <= copies`, so `j` is at most `f`'s
/// copies in neither the table nor the new table: the deck's copies in
/// neither the table nor the hand (`outside`), plus `f`'s hand copies left
/// in the hand. Summed over faces: the named jokers on the new table (every
/// named table joker stays there, named, and every hand joker played, which
/// the sweep's groups name) are at most `outside` plus the natural hand
/// cards kept. So playing `p` hand jokers keeps at least
/// `table jokers + p - outside` natural hand cards in the hand: the bound is
/// the best of `p = 0..=hand jokers`, keeping the least worth.
fn copies_ceiling(pos: &Position, goal: Goal) -> Option<i32> {
    ceiling_keeping(pos, goal).map(|(value, _, _)| value)
}

/// [`copies_ceiling`], with how it is reached: the natural hand cards kept
/// (that many of the least worth) and the hand jokers played.
fn ceiling_keeping(pos: &Position, goal: Goal) -> Option<(i32, usize, u8)> {
    if goal == Goal::Hint {
        return None;
    }
    let mut on_table = [0u8; 52];
    let mut table_jokers: i32 = 0;
    for c in pos.table.iter().flatten() {
        match (c.natural_face(), c.declared()) {
            (Some(f), _) => on_table[f.index()] = on_table[f.index()].saturating_add(1),
            // (An unnamed table joker, where only one card fits, may stay
            // unnamed in a group kept as it was, outside the rule: not
            // counted. The sweep's groups name every joker they hold.)
            (None, Some(_)) => table_jokers += 1,
            (None, None) => {}
        }
    }
    let outside: i32 = on_table
        .iter()
        .zip(&pos.hand_counts)
        .map(|(&t, &h)| i32::from(pos.copies.saturating_sub(t.saturating_add(h))))
        .sum();
    // The natural hand cards' worth, least first.
    let mut worth: Vec<i32> = pos
        .hand
        .iter()
        .filter(|c| !c.is_joker())
        .map(|&c| pos.weight(goal, c))
        .collect();
    worth.sort_unstable();
    let naturals: i32 = worth.iter().sum();
    let joker = pos.weight(goal, Card::JOKER);
    (0..=pos.hand_jokers)
        .map(|played| {
            let kept = usize::try_from(table_jokers + i32::from(played) - outside)
                .unwrap_or(0)
                .min(worth.len());
            (
                naturals - worth[..kept].iter().sum::<i32>() + i32::from(played) * joker,
                kept,
                played,
            )
        })
        // (The most worth; among equals the fewest cards kept.)
        .max_by_key(|&(value, kept, _)| (value, std::cmp::Reverse(kept)))
}

/// The finder without the rules of [`legal`]: exact for the other rule sets.
fn solve_unchecked(pos: &Position, goal: Goal) -> Option<Play> {
    // (Strict copies mode: the extension is not checked against the copies
    // rule, and the plain search already found it wanting.)
    if goal == Goal::Hint
        && !pos.strict
        && let Some(play) = hint_extension(pos)
    {
        return Some(play);
    }
    solve_past_extension(pos, goal)
}

/// [`solve_unchecked`] once [`hint_extension`] found nothing (or was not
/// asked).
fn solve_past_extension(pos: &Position, goal: Goal) -> Option<Play> {
    // With jokers the full search tries every way the table jokers can go:
    // first look for one card that needs one group rebuilt, then two (a
    // one-card play is the fewest cards, so the search is spared; the sizes
    // then go to `hint::exact`. `REACHABLE=1 probe car 2 30 10 300 h`,
    // the positions' solves alone: 55.6M instructions with one group
    // tried first, 37.0M with two; `vat`: 54.8M, 37.7M; full tables, where
    // a hint is mostly one card extending a group, the same).
    if goal == Goal::Hint
        && pos.jokers_around()
        && let Some(play) = hint::one_card_fewest_groups(pos, 1..=2)
    {
        return Some(play);
    }
    let mut all = [0u8; 53];
    all[..52].copy_from_slice(&pos.hand_counts);
    all[52] = pos.hand_jokers;
    if !pos.some_card_fits(&all) {
        return None;
    }
    let dissolve = all_dissolvable(pos);
    let best = search(pos, goal, &dissolve)?;
    // Carousel's and Vatikan's plain best play worth more than the copies
    // ceiling breaks the copies rule in every layout (the ceiling bounds
    // every play that passes the engine's copies check), so `solve_checked`
    // refuses it whatever its layout, and only its value and fault are read
    // after (the strict and restricted searches' ceiling): the fewest-changes
    // step is skipped and the sweep's own layout stands in. (On full tables
    // that step was most of the plain search's states: `REACHABLE=1 probe
    // car 2 84 20 60`, 0.24M of the 0.45M outside the strict search.)
    if !pos.strict
        && matches!(pos.rules, RuleSet::Carousel | RuleSet::Vatikan)
        && copies_ceiling(pos, goal).is_some_and(|c| best.value > c)
    {
        return Some(finish(pos, best, false));
    }
    finish_best(pos, goal, best)
}

/// The best value over every branch without any layout: what [`search`]
/// finds, for the benchmarks' like-for-like comparison with the reference
/// (which gives the optimum only). Vatikan and Tahiti: the unrestricted one.
fn search_value(pos: &Position, goal: Goal) -> Option<i32> {
    let mut all = [0u8; 53];
    all[..52].copy_from_slice(&pos.hand_counts);
    all[52] = pos.hand_jokers;
    if legal::stuck_joker(pos.rules, pos.copies, &pos.table) || !pos.some_card_fits(&all) {
        return None;
    }
    let dissolve = all_dissolvable(pos);
    let mut best: Option<i32> = None;
    for branch in search_order(pos, goal) {
        if let Some(v) = branch_top(pos, goal, &branch, &dissolve, best.map(|b| b + 1)) {
            best = Some(v);
        }
    }
    best.filter(|&v| goal == Goal::Hint || v > 0)
}

/// The play of the best branch, unless it puts nothing down worth having.
fn finish_best(pos: &Position, goal: Goal, best: Best) -> Option<Play> {
    if goal != Goal::Hint && best.value <= 0 {
        return None;
    }
    // Strict copies mode: the fewest-changes step gives back groups it holds
    // unchanged untested, so it may keep an old group whose joker's name the
    // play's other copies now break (or one that broke it already); the
    // sweep's own layout keeps the rule by construction.
    let sweeps_own = pos.strict.then(|| best.clone());
    let mut play = finish(pos, best, true);
    if let Some(best) = sweeps_own
        && legal::check(pos.rules, pos.copies, &pos.table, &play.table, &play.played).is_err()
    {
        play = finish(pos, best, false);
    }
    // One card is the fewest, but another card may need fewer groups than the
    // one the sweep chose. (With jokers around, one and two groups were
    // tried before the search.) `hint::exact` settles the fewest groups
    // afterwards and, for a one-card hint without jokers, starts past the
    // sizes this quick try covered (its per-card tests are the cheapest for
    // those sizes).
    if goal == Goal::Hint
        && play.count == 1
        && !pos.jokers_around()
        && play.changed.len() > 1
        && let Some(fewer) = hint::one_card_fewest_groups(pos, 1..=play.changed.len().min(3) - 1)
        && fewer.changed.len() < play.changed.len()
    {
        return Some(fewer);
    }
    Some(play)
}

/// A hand card that simply extends one group (the least a play can disturb).
fn hint_extension(pos: &Position) -> Option<Play> {
    hint_extension_where(pos, |_| true)
}

/// The first play of [`hint_extension`] that `accept` takes.
fn hint_extension_where(pos: &Position, mut accept: impl FnMut(&Play) -> bool) -> Option<Play> {
    let rules = pos.rules.group_rules();
    let mut tried: Vec<Card> = Vec::with_capacity(pos.hand.len());
    let mut buffer: Vec<Card> = Vec::new();
    for &c in &pos.hand {
        if tried.contains(&c) {
            continue;
        }
        tried.push(c);
        for (g, group) in pos.table.iter().enumerate() {
            if pos.kinds[g] == Kind::Loose {
                continue;
            }
            // A natural card extends a group only next to one of its cards
            // (its rank, or its suit one place on; a joker as the face it is
            // named for, the one validation reads): the check costs a
            // fraction of the validation (callgrind, `REACHABLE=1 probe car 2
            // 30 10 300 h`: 9,282 validations, 4.3M instructions).
            if !c.is_joker() && !may_continue(group, c) {
                continue;
            }
            // (A natural card is judged in one buffer, not a fresh group per
            // card and group: `REACHABLE=1 probe tah 4 30 10 100 h`, the
            // finder less the automata's build, 12.91M instructions, 12.60M
            // with it.)
            if !c.is_joker() {
                buffer.clear();
                buffer.extend_from_slice(group);
                buffer.push(c);
                if validate_group(&buffer, rules).is_err() {
                    continue;
                }
            }
            let mut cards = group.clone();
            cards.push(c);
            let named = if c.is_joker() {
                let ways = rami_melds::joker_namings(&cards, rules);
                let Some(way) = ways.first() else { continue };
                let Some(&face) = way.first() else { continue };
                if let Some(last) = cards.last_mut() {
                    *last = Card::named_joker(face);
                }
                cards
            } else {
                cards
            };
            let mut table = pos.table.clone();
            table[g] = named;
            let play = make_play(pos, vec![c], table, vec![g], false);
            if accept(&play) {
                return Some(play);
            }
        }
    }
    None
}

/// Whether the natural `card` may extend the valid `group` (of three cards
/// or more, a named joker read as its name, as validation reads it): a set
/// (one rank) only by a card of its rank, a run (one suit, ranks in a row)
/// only by a card of its suit one place from one of its cards (an ace next
/// to a two and to a king), as a run has no gap to fill. `true` when the
/// group holds an unnamed joker. A necessary condition only (validation
/// decides): unit test `a_card_continues_only_a_group_it_may_continue`.
/// (It turns down many cards `arrange::near`, two places either way of
/// any card, lets through to a validation: `REACHABLE=1 probe tah 4 30 10
/// 100 h`, the finder less the automata's build, 12.11M instructions,
/// 11.82M with it.)
fn may_continue(group: &[Card], card: Card) -> bool {
    let Some(f) = card.natural_face() else {
        return true;
    };
    if group.iter().any(|c| c.face().is_none()) {
        return true;
    }
    let Some(first) = group.first().and_then(|c| c.face()) else {
        return true;
    };
    let faces = || group.iter().filter_map(|c| c.face());
    if faces().all(|x| x.rank() == first.rank()) {
        return f.rank() == first.rank();
    }
    let r = f.rank().value();
    faces().any(|x| {
        let q = x.rank().value();
        x.suit() == f.suit() && (q.abs_diff(r) == 1 || (q.min(r) == 1 && q.max(r) == 13))
    })
}

/// Whether `play`, a play of [`hint_extension`] (one hand card added to one
/// input group that is not a loose single, every other group as it was),
/// passes Tahiti's table rules, known without `legal::check`'s whole-table
/// pass: when the card is natural, every table joker is named and the new
/// table keeps the copies rule. `false` says nothing (the check decides).
///
/// Sound: `legal::check` asks three things. The jokers keep their names:
/// the new table holds the very jokers of the old one, so none was renamed.
/// The copies rule: asked here. Tahiti's groups (`check_tahiti`): no group
/// of one card is new; every frozen group (an old group holding a named
/// joker) is continued whole with hand cards only, the engine matching each,
/// in table order, to the first unused new group that holds it plus hand
/// cards. Every new group holding a joker is an old frozen group (the card
/// played is natural), so by induction over the table order each frozen
/// group at place `i` finds the places before `i` that could hold it taken
/// by their own frozen groups and takes its own place `i`: as it was, or
/// with the one card played, which no group took before. No new group
/// holding a joker is then left over, and the engine's other test (joker
/// groups made of hand cards or kept groups) has nothing to judge. An
/// unnamed joker on the table would be left unmatched by the engine, so
/// such a table is left to the check.
fn extension_keeps_tahiti_rules(pos: &Position, play: &Play) -> bool {
    pos.rules == RuleSet::Tahiti
        && matches!(play.played[..], [c] if !c.is_joker())
        && pos
            .table
            .iter()
            .flatten()
            .all(|c| !c.is_joker() || c.declared().is_some())
        && legal::copies_ok(&play.table, pos.copies)
}

fn make_play(
    pos: &Position,
    played: Vec<Card>,
    table: Vec<Vec<Card>>,
    changed: Vec<usize>,
    rearranged: bool,
) -> Play {
    let ace = pos.rules.ace_mode();
    let table: Vec<Vec<Card>> = table.iter().map(|g| in_reading_order(g, ace)).collect();
    let points = played.iter().map(|&c| pos.rules.hand_points(c)).sum();
    // The layouts judge `rearranged` as they place the sweep's groups, where
    // an input group not found whole among them counts as rearranged. It may
    // still lie whole in a group laid apart from them (a Vatikan piece of run
    // or a Tahiti joker group extending it), or lose its home to a first fit:
    // a `true` is checked again on the whole table.
    let rearranged = rearranged && legal::rearranges(&pos.table, &changed, &table);
    Play {
        count: played.len(),
        points,
        played,
        table,
        changed,
        rearranged,
    }
}

/// `reading_order(group, ace)`, without its work (a run judged, a vector
/// of faces, a sort) for a group holding no ace whose cards already stand in
/// that order, which most groups of a play do (the input groups it leaves
/// as they lay; `REACHABLE=1 probe tah 4 30 10 100 h`, the finder less the
/// automata's build: 13.65M instructions, 13.32M with this). Exact:
/// `reading_order` sorts stably by (rank, suit, joker), an ace's rank read
/// as 14 at the high end of a run; without an ace that key does not depend
/// on the run, and a stable sort leaves a sequence already sorted by its
/// key as it was.
fn in_reading_order(group: &[Card], ace: rami_melds::AceMode) -> Vec<Card> {
    let key = |c: &Card| match c.face() {
        Some(f) => (f.rank().value(), f.suit() as u8, c.is_joker()),
        None => (15, 0, true),
    };
    let no_ace = group
        .iter()
        .all(|c| c.face().is_none_or(|f| f.rank().value() != 1));
    if no_ace && group.windows(2).all(|w| key(&w[0]) <= key(&w[1])) {
        return group.to_vec();
    }
    reading_order(group, ace)
}

/// Turns the sweep's layout into a play that keeps as many input groups as they
/// were as it can (`minimal`), or that rebuilds every group the sweep did but
/// those it laid out exactly as they were.
fn finish(pos: &Position, best: Best, minimal: bool) -> Play {
    let Best {
        branch,
        layout,
        guide,
        ..
    } = best;
    // The hand cards put down.
    let mut played = Vec::new();
    for f in Face::all() {
        let n = layout.hand[f.index()];
        played.extend(std::iter::repeat_n(Card::from_face(f), usize::from(n)));
    }
    played.extend(std::iter::repeat_n(
        Card::JOKER,
        usize::from(layout.hand_jokers),
    ));
    for (_, ext) in &branch.frozen {
        played.extend(ext.iter().copied());
    }
    for jg in &branch.joker_groups {
        played.extend(jg.hand.iter().copied());
    }
    played.sort();
    let frozen: Vec<usize> = branch
        .frozen
        .iter()
        .filter(|(g, _)| !branch.freed.iter().any(|(h, _)| h == g))
        .map(|(g, _)| *g)
        .collect();
    arrange::arrange(pos, &branch, played, layout.groups, &frozen, minimal, guide)
}

mod arrange;
mod partition;

/// The test positions' generator (`tests/common/positions.rs`), for unit tests.
#[cfg(test)]
#[path = "../tests/common/positions.rs"]
#[allow(dead_code)]
mod test_positions;

/// The bare optimum over card counts, for the differential tests and benchmarks:
/// not part of the app's interface.
#[doc(hidden)]
pub mod internal {
    use crate::sweep::{Spec, Sweep};
    use rami_melds::AceMode;

    pub use crate::sweep::Stats;

    /// Tests: the restricted searches' caps on or off for this thread; returns
    /// how often a cap cut a search short since the last call.
    pub fn restricted_caps(on: bool) -> u64 {
        crate::restricted::caps(on)
    }

    /// Times the hint's own caps (sets of groups per size, the cards shared
    /// out without rearrangement, the multisets tried past the table rules)
    /// cut its search short on this thread since the last call (then reset).
    pub fn hint_bites() -> u64 {
        crate::hint::bites()
    }

    /// Measurements: the strict copies search's state budget on this thread
    /// (the finder's own is `STRICT_STATES`, 2M).
    pub fn strict_states(states: u64) {
        crate::STRICT_BUDGET.with(|b| b.set(states));
    }

    /// This thread's work counters since the last call (then reset).
    pub fn take_stats() -> Stats {
        crate::sweep::STATS.with(|s| s.replace(Stats::default()))
    }

    /// Counts per face (`Face::index`): table copies that must be placed, hand
    /// copies with their weight; wild jokers on the table (must) and in hand.
    /// `None`: the table itself cannot be laid out. `Some(0)`: no play.
    #[allow(clippy::too_many_arguments)]
    pub fn best_value(
        ace: AceMode,
        one_joker: bool,
        table: &[u8; 52],
        table_jokers: u8,
        hand: &[u8; 52],
        hand_jokers: u8,
        weight: &[i32; 52],
        joker_weight: i32,
    ) -> Option<i32> {
        let mut spec = Spec::new(ace, one_joker);
        spec.must = *table;
        spec.hand = *hand;
        spec.weight = *weight;
        spec.jokers_must = table_jokers;
        spec.jokers_hand = hand_jokers;
        spec.joker_weight = joker_weight;
        Sweep::new(&spec).best()
    }

    /// The optimum `solve` would reach for `goal` (the value of its best
    /// play: cards or points), found by the same search but with no play laid
    /// out (no layout, no fewest-changes step, no hint fast paths). `Ok(None)`:
    /// no play. For timing against the reference like for like.
    pub fn optimum(
        rules: rami_melds::RuleSet,
        table: &[Vec<rami_cards::Card>],
        hand: &[rami_cards::Card],
        goal: crate::Goal,
    ) -> Result<Option<i32>, crate::SolveError> {
        let pos = crate::Position::new(rules, rules.max_copies(), table, hand)?;
        Ok(crate::search_value(&pos, goal))
    }

    /// Tests: [`best_value`] (no table jokers, weight 1) by the sweep in
    /// strict copies mode, every face's copies (naturals and jokers named
    /// for it) within `copies`.
    pub fn best_value_strict(
        ace: AceMode,
        table: &[u8; 52],
        hand: &[u8; 52],
        hand_jokers: u8,
        copies: u8,
    ) -> Option<i32> {
        let mut spec = Spec::new(ace, false);
        spec.must = *table;
        spec.hand = *hand;
        spec.jokers_hand = hand_jokers;
        spec.strict_copies = true;
        spec.joker_face_cap = [copies; 52];
        Sweep::new(&spec).best()
    }

    /// Like [`best_value`], with the number of states the sweep explored.
    #[allow(clippy::too_many_arguments)]
    pub fn best_value_states(
        ace: AceMode,
        table: &[u8; 52],
        hand: &[u8; 52],
    ) -> (Option<i32>, usize) {
        let mut spec = Spec::new(ace, false);
        spec.must = *table;
        spec.hand = *hand;
        let mut sw = Sweep::new(&spec);
        let v = sw.best();
        (v, sw.explored())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The try at the ceiling's choices of cards to keep back: every distinct
    /// multiset of the least worth in all, in hand order, each once.
    #[test]
    fn kept_choices_are_the_distinct_ways_of_least_worth() {
        let cards = rami_cards::parse_cards("2C 3C 3D 3D 5S").expect("cards");
        let worth = |c: Card| c.natural_face().map_or(0, |f| i32::from(f.rank().value()));
        // Two cards worth 5 at least: 2C with a three (3C, or 3D once).
        let two = kept_choices(&cards, 2, 5, worth);
        assert_eq!(two.len(), 2, "{two:?}");
        assert_eq!(two[0], rami_cards::parse_cards("2C 3C").expect("cards"));
        assert_eq!(two[1], rami_cards::parse_cards("2C 3D").expect("cards"));
        // All worth one (most cards): any one card, each face once.
        let one = kept_choices(&cards, 1, 1, |_| 1);
        assert_eq!(one.len(), 4, "{one:?}");
        // Two of a face kept together.
        let pairs = kept_choices(&cards, 2, 2, |_| 1);
        assert!(pairs.contains(&rami_cards::parse_cards("3D 3D").expect("cards")));
        assert_eq!(pairs.len(), 7, "{pairs:?}");
    }

    /// [`extension_keeps_tahiti_rules`] only vouches for plays the table
    /// rules allow: on random Tahiti positions (loose singles among them),
    /// every first extension it passes `legal::check` accepts, and a natural
    /// card whose copies leave a table joker stuck is left to the check.
    #[test]
    fn a_vouched_tahiti_extension_passes_the_table_rules() {
        let t = |s| rami_cards::parse_table(s).expect("a table");
        let h = |s| rami_cards::parse_cards(s).expect("a hand");
        // 5H goes to the set; both natural fives then leave `*5H` stuck.
        let stuck = Position::new(
            RuleSet::Tahiti,
            2,
            &t("3H 4H *5H | 5S 5D 5C | 5H 6H 7H"),
            &h("5H"),
        )
        .expect("a valid position");
        let play = hint_extension(&stuck).expect("an extension");
        assert!(legal::check(RuleSet::Tahiti, 2, &stuck.table, &play.table, &play.played).is_err());
        assert!(!extension_keeps_tahiti_rules(&stuck, &play));
        let mut g = test_positions::Gen::new(10);
        let mut vouched = 0;
        for _ in 0..3000 {
            let (table, hand) = g.position(RuleSet::Tahiti.group_rules(), 4, 30, 10, 0.3);
            let Ok(pos) = Position::new(RuleSet::Tahiti, 2, &table, &hand) else {
                continue;
            };
            let Some(play) = hint_extension(&pos) else {
                continue;
            };
            if extension_keeps_tahiti_rules(&pos, &play) {
                vouched += 1;
                assert_eq!(
                    legal::check(RuleSet::Tahiti, 2, &pos.table, &play.table, &play.played),
                    Ok(()),
                    "{} | hand {}",
                    rami_cards::format_table(&pos.table),
                    rami_cards::format_cards(&pos.hand)
                );
            }
        }
        assert!(vouched > 1000, "{vouched} plays vouched for");
    }

    /// A Carousel table's jokers that can never take a new name, solved as
    /// their cards ([`fixed_jokers_as_cards`]), give the plays the finder
    /// gives on the table itself (`solve_position` does not replace them):
    /// on random mid-game positions holding such a joker, the same count
    /// and points for most cards and most points, and for the hint the same
    /// count, groups changed and rearrangement; every play the engine's
    /// table rules accept on the input table (the jokers back under their
    /// names).
    #[test]
    fn jokers_that_keep_their_names_solve_as_their_cards() {
        let mut g = test_positions::Gen::new(12);
        let rules = RuleSet::Carousel;
        let mut tried = 0;
        for _ in 0..400 {
            let (table, hand) = g.position(rules.group_rules(), 2, 30, 10, 0.3);
            let Ok(pos) = Position::new(rules, 2, &table, &hand) else {
                continue;
            };
            if fixed_jokers_as_cards(&pos).is_none() {
                continue;
            }
            tried += 1;
            for goal in [Goal::MostCards, Goal::MostPoints, Goal::Hint] {
                let whole = solve_position(pos.clone(), goal).expect("a valid position");
                let plain =
                    solve_with_copies(rules, 2, &table, &hand, goal).expect("a valid position");
                let key = |p: &Play| {
                    let groups = (goal == Goal::Hint).then_some((p.changed.len(), p.rearranged));
                    (p.count, p.points, groups)
                };
                let at = || {
                    format!(
                        "{goal:?}: {} | hand {}",
                        rami_cards::format_table(&table),
                        rami_cards::format_cards(&hand)
                    )
                };
                assert_eq!(whole.as_ref().map(key), plain.as_ref().map(key), "{}", at());
                if let Some(p) = &plain {
                    assert_eq!(
                        legal::check(rules, 2, &table, &p.table, &p.played),
                        Ok(()),
                        "{}",
                        at()
                    );
                    // The cards conserved, each joker a joker again.
                    assert_eq!(
                        CardCounts::from_cards(p.table.iter().flatten()),
                        CardCounts::from_cards(table.iter().flatten().chain(&p.played)),
                        "{}",
                        at()
                    );
                }
            }
        }
        assert!(
            tried > 40,
            "{tried} positions with a joker that keeps its name"
        );
    }

    /// Tahiti's hint takes the first extension the table rules surely
    /// allow, past one the copies rule refuses: `5H` on the set leaves
    /// `*5H` beside both natural fives, `8H` on `5H 6H 7H` is the hint.
    #[test]
    fn a_tahiti_hint_passes_an_extension_the_copies_rule_refuses() {
        let table = rami_cards::parse_table("3H 4H *5H | 5S 5D 5C | 5H 6H 7H").expect("a table");
        let hand = rami_cards::parse_cards("5H 8H").expect("a hand");
        let pos = Position::new(RuleSet::Tahiti, 2, &table, &hand).expect("a valid position");
        let first = hint_extension(&pos).expect("an extension");
        assert!(!extension_keeps_tahiti_rules(&pos, &first));
        let vouched = hint_extension_where(&pos, |p| extension_keeps_tahiti_rules(&pos, p))
            .expect("a vouched extension");
        assert_eq!(
            vouched.played,
            rami_cards::parse_cards("8H").expect("a card")
        );
        let hint = solve(RuleSet::Tahiti, &table, &hand, Goal::Hint)
            .expect("a valid position")
            .expect("a hint");
        assert_eq!(
            (hint.played, hint.changed, hint.rearranged),
            (vouched.played, vec![2], false)
        );
    }

    /// [`may_continue`] turns down no natural card that makes a valid group
    /// with a group of a random table (every card with every group, named
    /// jokers among them), in each ace mode, and does turn down most.
    #[test]
    fn a_card_continues_only_a_group_it_may_continue() {
        let (valid, turned_down) = crate::hint::no_extension_turned_down(15, may_continue);
        assert!(
            valid > 1000 && turned_down > 20_000,
            "{valid} {turned_down}"
        );
    }

    /// [`in_reading_order`] is `reading_order`: on the groups of random
    /// tables (runs with an ace at either end, jokers named and not), as
    /// they lie and in every rotation and reversal of their cards.
    #[test]
    fn groups_come_in_reading_order_as_reading_order_gives_them() {
        let mut g = test_positions::Gen::new(11);
        let mut groups = 0;
        for rules in [RuleSet::Tahiti, RuleSet::Carousel, RuleSet::Manipulation] {
            let ace = rules.ace_mode();
            for _ in 0..300 {
                let (table, _) = g.position(rules.group_rules(), 4, 30, 0, 0.3);
                for group in table {
                    for reversed in [false, true] {
                        let mut cards = group.clone();
                        if reversed {
                            cards.reverse();
                        }
                        for _ in 0..cards.len() {
                            cards.rotate_left(1);
                            groups += 1;
                            assert_eq!(
                                in_reading_order(&cards, ace),
                                reading_order(&cards, ace),
                                "{}",
                                rami_cards::format_cards(&cards)
                            );
                        }
                    }
                }
            }
        }
        let aces_high = rami_cards::parse_cards("AS QS KS").expect("cards");
        assert_eq!(
            in_reading_order(&aces_high, rami_melds::AceMode::Either),
            rami_cards::parse_cards("QS KS AS").expect("cards")
        );
        assert!(groups > 10_000, "{groups} groups");
    }

    /// A plain best play worth more than the copies ceiling, which the copies
    /// rule refuses in any layout, is not laid out: no fewest-changes test
    /// runs (#1214 of `vatikan_caps_against_the_uncapped_search` at
    /// `RAMI_CAPS_N=3000`: the plain play puts the whole hand down, 20, the
    /// ceiling 18). The value is the plain search's all the same.
    #[test]
    fn a_plain_play_past_the_copies_ceiling_is_not_laid_out() {
        let table = rami_cards::parse_table(
            "6S 6H 6D 6C | *5C 6C 7C 8C 9C 10C | 9C 10C JC *QC | 2D 3D 4D 5D 6D 7D | \
             10S JS QS KS | 8S 8H 8D 8C | JS QS KS | 4S 4H 4D 4C | 8H 9H 10H JH QH KH | \
             AS AH AD | 6S 7S 8S 9S | AS 2S 3S | 10D JD QD KD | AH 2H 3H 4H 5H 6H | \
             7D 8D 9D 10D JD QD | 2C 3C 4C | 2H 2D 2C | 2S 3S 4S 5S | 9S 9H 9D | 5S 5H 5D | \
             7S 7H 7C",
        )
        .expect("a table");
        let hand = rami_cards::parse_cards(
            "QC 10S KH 3C 5C QC QH KC AC KC 3D 5C JC 3H 7H KD AC JH 10H AD",
        )
        .expect("a hand");
        for rules in [RuleSet::Vatikan, RuleSet::Carousel] {
            let pos = Position::new(rules, 2, &table, &hand).expect("a valid position");
            assert_eq!(copies_ceiling(&pos, Goal::MostCards), Some(18));
            internal::take_stats();
            let play = solve_unchecked(&pos, Goal::MostCards).expect("a play");
            let stats = internal::take_stats();
            assert_eq!(play.count, 20, "{rules:?}");
            assert_eq!(stats.limited, 0, "{rules:?}: fewest-changes tests ran");
        }
    }
}
