//! What makes a group of cards valid in each rule set: sets, runs, the three ace
//! modes, joker limits, and the names an unnamed joker could take in a group.
//!
//! Pure functions over slices of [`Card`]s; the rules engine, the move finder and
//! the command line all judge groups here, so they can never disagree.
//! [`table_rules`] holds the rules that compare a table before and after a move.

mod ruleset;
pub mod table_rules;

pub use ruleset::{RuleSet, UnknownRuleSet};

use rami_cards::{Card, Face, Rank, Suit};
use serde::{Deserialize, Serialize};

/// Where an ace may stand in a run.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum AceMode {
    /// Q-K-A is a run; A-2-3 is not.
    High,
    /// A-2-3 is a run; Q-K-A is not.
    Low,
    /// Both A-2-3 and Q-K-A; never K-A-2.
    Either,
}

impl AceMode {
    /// The positions (1 = low ace … 14 = high ace) an ace may take.
    fn ace_positions(self) -> &'static [u8] {
        match self {
            AceMode::High => &[14],
            AceMode::Low => &[1],
            AceMode::Either => &[1, 14],
        }
    }
}

/// How many jokers a group may hold.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum JokerLimit {
    /// The rule set has no jokers: any joker is refused.
    None,
    /// Any number, as long as one natural card is in the group.
    AtLeastOneNatural,
    /// At most one joker in a group (Tahiti).
    One,
    /// Jokers may not outnumber natural cards (Rami).
    NoMoreThanNaturals,
}

/// The group rules of one rule set.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct GroupRules {
    pub ace: AceMode,
    pub jokers: JokerLimit,
}

/// A valid group is a set or a run.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum GroupKind {
    Set,
    Run,
}

/// Why a group is not valid.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error, Serialize, Deserialize)]
pub enum GroupError {
    #[error("a group needs at least 3 cards")]
    TooFewCards,
    #[error("a set has at most 4 cards")]
    SetTooLong,
    #[error("a set may not hold two cards of the same suit")]
    RepeatedSuitInSet,
    #[error("the cards are neither one rank (a set) nor one suit (a run)")]
    NeitherSetNorRun,
    #[error("a run may not hold the same card twice")]
    RepeatedCardInRun,
    #[error("the run is not in sequence")]
    NotInSequence,
    #[error("the ace does not fit this run ({0})")]
    AceMisplaced(AceMisplaced),
    #[error("this rule set plays without jokers")]
    NoJokersHere,
    #[error("a group needs at least one card that is not a joker")]
    OnlyJokers,
    #[error("a group may hold only one joker here")]
    TooManyJokers,
    #[error("jokers may not outnumber the other cards of a group")]
    JokersOutnumberNaturals,
    #[error("a joker in this group has not been given the card it stands for")]
    UnnamedJoker,
}

/// Why an ace is refused, per mode (for a clear message).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum AceMisplaced {
    HighOnly,
    LowOnly,
    NeverAroundTheCorner,
}

impl std::fmt::Display for AceMisplaced {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            AceMisplaced::HighOnly => "aces are high here: Q-K-A, not A-2-3",
            AceMisplaced::LowOnly => "aces are low here: A-2-3, not Q-K-A",
            AceMisplaced::NeverAroundTheCorner => "a run never goes around the corner (K-A-2)",
        })
    }
}

fn check_jokers(jokers: usize, naturals: usize, limit: JokerLimit) -> Result<(), GroupError> {
    if jokers == 0 {
        return Ok(());
    }
    match limit {
        JokerLimit::None => return Err(GroupError::NoJokersHere),
        JokerLimit::One if jokers > 1 => return Err(GroupError::TooManyJokers),
        JokerLimit::NoMoreThanNaturals if jokers > naturals => {
            return Err(GroupError::JokersOutnumberNaturals);
        }
        _ => {}
    }
    if naturals == 0 {
        return Err(GroupError::OnlyJokers);
    }
    Ok(())
}

/// Judges a group whose jokers all declare a card: `Ok(kind)` or the first reason
/// it is not valid.
pub fn validate_group(cards: &[Card], rules: GroupRules) -> Result<GroupKind, GroupError> {
    let jokers = cards.iter().filter(|c| c.is_joker()).count();
    check_jokers(jokers, cards.len() - jokers, rules.jokers)?;
    let mut faces = Vec::with_capacity(cards.len());
    for card in cards {
        faces.push(card.face().ok_or(GroupError::UnnamedJoker)?);
    }
    judge_faces(&faces, rules.ace)
}

fn judge_faces(faces: &[Face], ace: AceMode) -> Result<GroupKind, GroupError> {
    if faces.len() < 3 {
        return Err(GroupError::TooFewCards);
    }
    let rank = faces[0].rank();
    let suit = faces[0].suit();
    if faces.iter().all(|f| f.rank() == rank) {
        if faces.len() > 4 {
            return Err(GroupError::SetTooLong);
        }
        let mut seen = [false; 4];
        for f in faces {
            if std::mem::replace(&mut seen[f.suit().index()], true) {
                return Err(GroupError::RepeatedSuitInSet);
            }
        }
        return Ok(GroupKind::Set);
    }
    if !faces.iter().all(|f| f.suit() == suit) {
        return Err(GroupError::NeitherSetNorRun);
    }
    judge_run(faces, ace).map(|_| GroupKind::Run)
}

/// The run's positions in order (ace 1 or 14), or why it is not a run.
fn judge_run(faces: &[Face], ace: AceMode) -> Result<Vec<u8>, GroupError> {
    let mut present = [false; 15];
    let mut has_ace = false;
    for f in faces {
        let v = f.rank().value();
        if f.rank().is_ace() {
            if has_ace {
                // Two aces can only be A-…-K-A, which is never a run.
                return Err(GroupError::RepeatedCardInRun);
            }
            has_ace = true;
        } else if std::mem::replace(&mut present[usize::from(v)], true) {
            return Err(GroupError::RepeatedCardInRun);
        }
    }
    let positions = |ace_pos: Option<u8>| -> Vec<u8> {
        let mut p: Vec<u8> = (2..=13u8).filter(|&v| present[usize::from(v)]).collect();
        if let Some(a) = ace_pos {
            p.push(a);
            p.sort_unstable();
        }
        p
    };
    let consecutive = |p: &[u8]| p.windows(2).all(|w| w[1] == w[0] + 1);
    if !has_ace {
        let p = positions(None);
        return if consecutive(&p) {
            Ok(p)
        } else {
            Err(GroupError::NotInSequence)
        };
    }
    for &a in ace.ace_positions() {
        let p = positions(Some(a));
        if consecutive(&p) {
            return Ok(p);
        }
    }
    // Say why: would the ace fit at the other end, or is it around the corner?
    let other: &[u8] = match ace {
        AceMode::High => &[1],
        AceMode::Low => &[14],
        AceMode::Either => &[],
    };
    if other.iter().any(|&a| consecutive(&positions(Some(a)))) {
        return Err(GroupError::AceMisplaced(match ace {
            AceMode::High => AceMisplaced::HighOnly,
            _ => AceMisplaced::LowOnly,
        }));
    }
    let around = present[13] && present[2];
    if around {
        return Err(GroupError::AceMisplaced(AceMisplaced::NeverAroundTheCorner));
    }
    Err(GroupError::NotInSequence)
}

/// Every way to name the unnamed jokers (`*`) of `cards` so that the group is
/// valid: one `Vec<Face>` per way, holding the faces given to the unnamed jokers in
/// the order they appear. Ways that differ only by swapping two unnamed jokers are
/// listed once. Empty when no naming works (or the joker limit is broken).
pub fn joker_namings(cards: &[Card], rules: GroupRules) -> Vec<Vec<Face>> {
    let unnamed = cards.iter().filter(|c| **c == Card::JOKER).count();
    let jokers = cards.iter().filter(|c| c.is_joker()).count();
    if check_jokers(jokers, cards.len() - jokers, rules.jokers).is_err() || cards.len() < 3 {
        return Vec::new();
    }
    let known: Vec<Face> = cards.iter().filter_map(|c| c.face()).collect();
    if unnamed == 0 {
        return if judge_faces(&known, rules.ace).is_ok() {
            vec![Vec::new()]
        } else {
            Vec::new()
        };
    }
    let Some(first) = known.first().copied() else {
        return Vec::new();
    };
    let mut ways: Vec<Vec<Face>> = Vec::new();
    // As a set: the known cards share a rank; jokers take missing suits.
    if known.iter().all(|f| f.rank() == first.rank()) && cards.len() <= 4 {
        let missing: Vec<Suit> = Suit::ALL
            .into_iter()
            .filter(|s| !known.iter().any(|f| f.suit() == *s))
            .collect();
        for combo in combinations(missing.len(), unnamed) {
            let way: Vec<Face> = combo
                .iter()
                .map(|&i| Face::new(first.rank(), missing[i]))
                .collect();
            let mut all = known.clone();
            all.extend(&way);
            if judge_faces(&all, rules.ace) == Ok(GroupKind::Set) {
                ways.push(way);
            }
        }
    }
    // As a run: every window of the group's length that holds the known cards.
    if known.iter().all(|f| f.suit() == first.suit()) {
        let len = cards.len() as u8;
        let (lowest_start, highest_end): (u8, u8) = match rules.ace {
            AceMode::High => (2, 14),
            AceMode::Low => (1, 13),
            AceMode::Either => (1, 14),
        };
        for start in lowest_start..=highest_end.saturating_sub(len - 1) {
            let window = start..start + len;
            let pos = |f: &Face| -> Option<u8> {
                let v = f.rank().value();
                if f.rank().is_ace() {
                    [1u8, 14].into_iter().find(|p| window.contains(p))
                } else {
                    window.contains(&v).then_some(v)
                }
            };
            let mut taken = [false; 15];
            let mut fits = true;
            for f in &known {
                match pos(f) {
                    Some(p) if !taken[usize::from(p)] => taken[usize::from(p)] = true,
                    _ => fits = false,
                }
            }
            if !fits {
                continue;
            }
            let way: Vec<Face> = window
                .clone()
                .filter(|p| !taken[usize::from(*p)])
                .map(|p| {
                    let rank = Rank::new(if p == 14 { 1 } else { p }).unwrap_or(Rank::ACE);
                    Face::new(rank, first.suit())
                })
                .collect();
            let mut all = known.clone();
            all.extend(&way);
            if way.len() == unnamed && judge_faces(&all, rules.ace) == Ok(GroupKind::Run) {
                ways.push(way);
            }
        }
    }
    for w in &mut ways {
        w.sort_unstable();
    }
    ways.sort_unstable();
    ways.dedup();
    ways
}

/// Why a group with unnamed jokers fits no naming at all (for a clear refusal).
pub fn explain_unfit(cards: &[Card], rules: GroupRules) -> GroupError {
    let jokers = cards.iter().filter(|c| c.is_joker()).count();
    if let Err(e) = check_jokers(jokers, cards.len() - jokers, rules.jokers) {
        return e;
    }
    if cards.len() < 3 {
        return GroupError::TooFewCards;
    }
    let known: Vec<Face> = cards.iter().filter_map(|c| c.face()).collect();
    match known.first() {
        Some(f) if known.iter().all(|k| k.rank() == f.rank()) => {
            if cards.len() > 4 {
                GroupError::SetTooLong
            } else {
                GroupError::RepeatedSuitInSet
            }
        }
        Some(f) if known.iter().all(|k| k.suit() == f.suit()) => judge_run(&known, rules.ace)
            .err()
            .unwrap_or(GroupError::NotInSequence),
        _ => GroupError::NeitherSetNorRun,
    }
}

fn combinations(n: usize, k: usize) -> Vec<Vec<usize>> {
    fn go(start: usize, n: usize, k: usize, cur: &mut Vec<usize>, out: &mut Vec<Vec<usize>>) {
        if cur.len() == k {
            out.push(cur.clone());
            return;
        }
        for i in start..n {
            cur.push(i);
            go(i + 1, n, k, cur, out);
            cur.pop();
        }
    }
    let mut out = Vec::new();
    go(0, n, k, &mut Vec::new(), &mut out);
    out
}

/// The group's cards in reading order: a run from low to high (the ace where it
/// stands), a set by suit. Invalid groups come back sorted by face.
pub fn reading_order(cards: &[Card], ace: AceMode) -> Vec<Card> {
    let mut out = cards.to_vec();
    let faces: Option<Vec<Face>> = cards.iter().map(|c| c.face()).collect();
    let ace_high = faces
        .as_deref()
        .and_then(|f| judge_run(f, ace).ok())
        .is_some_and(|p| p.last() == Some(&14));
    let key = |c: &Card| -> (u8, u8, bool) {
        match c.face() {
            Some(f) => {
                let r = f.rank().value();
                let r = if ace_high && r == 1 { 14 } else { r };
                (r, f.suit() as u8, c.is_joker())
            }
            None => (15, 0, true),
        }
    };
    out.sort_by_key(key);
    out
}

/// Why a whole table is not valid for a rule set, naming the first bad group:
/// every group valid (unnamed jokers only where one card fits; Tahiti's loose
/// singles allowed), and no card more often than the rule set's deck holds it.
pub fn check_table(rules: RuleSet, table: &[Vec<Card>]) -> Result<(), String> {
    let group_rules = rules.group_rules();
    let show = |g: &[Card]| rami_cards::format_cards(g);
    for (i, group) in table.iter().enumerate() {
        if rules == RuleSet::Tahiti && group.len() == 1 && !group[0].is_joker() {
            continue;
        }
        if group.contains(&Card::JOKER) {
            match joker_namings(group, group_rules).len() {
                0 => {
                    let why = explain_unfit(group, group_rules);
                    return Err(format!("group {i} ({}): {why}", show(group)));
                }
                1 => continue,
                _ => {
                    return Err(format!(
                        "group {i} ({}): the joker could stand for several cards; name it (*5H)",
                        show(group)
                    ));
                }
            }
        }
        if let Err(why) = validate_group(group, group_rules) {
            return Err(format!("group {i} ({}): {why}", show(group)));
        }
    }
    let counts = rami_cards::CardCounts::from_cards(table.iter().flatten());
    if counts.jokers() > rules.max_jokers() {
        return Err(format!(
            "the table holds {} jokers; a {rules} deck has {}",
            counts.jokers(),
            rules.max_jokers()
        ));
    }
    if let Some(face) = Face::all().find(|&f| counts.face_count(f) > rules.max_copies()) {
        return Err(format!(
            "the table holds {face} {} times; a {rules} deck has {}",
            counts.face_count(face),
            rules.max_copies()
        ));
    }
    Ok(())
}

#[cfg(test)]
mod tests;
