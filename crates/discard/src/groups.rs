//! Judging the groups a player puts down, naming their jokers, and what the cards
//! of a group are worth (Rummy 500 scores, the Rami opening).

use rami_cards::{Card, Face};
use rami_game::{ActionError, RuleSet};
use rami_melds::{GroupError, GroupKind, joker_namings, reading_order, validate_group};

/// Names the unnamed jokers of `cards` when exactly one naming makes the group
/// valid, judges it, and returns it in reading order. `index` is the group's
/// number in error messages.
pub(crate) fn judge(
    cards: &[Card],
    rules: RuleSet,
    index: usize,
) -> Result<(Vec<Card>, GroupKind), ActionError> {
    let gr = rules.group_rules();
    let bad = |reason| ActionError::InvalidGroup {
        group: index,
        reason,
    };
    let mut named = cards.to_vec();
    if named.contains(&Card::JOKER) {
        let ways = joker_namings(cards, gr);
        match ways.as_slice() {
            [] => return Err(bad(why_no_naming(cards, rules))),
            [way] => {
                let mut faces = way.iter();
                for card in named.iter_mut().filter(|c| **c == Card::JOKER) {
                    if let Some(&face) = faces.next() {
                        *card = Card::named_joker(face);
                    }
                }
            }
            _ => {
                let mut options: Vec<Face> = ways.iter().flatten().copied().collect();
                options.sort_unstable();
                options.dedup();
                return Err(ActionError::JokerNeedsName {
                    group: index,
                    options,
                });
            }
        }
    }
    let kind = validate_group(&named, gr).map_err(bad)?;
    Ok((reading_order(&named, gr.ace), kind))
}

/// A reason to show when no name for the jokers makes the group valid.
fn why_no_naming(cards: &[Card], rules: RuleSet) -> GroupError {
    match validate_group(cards, rules.group_rules()) {
        Err(GroupError::UnnamedJoker) | Ok(_) => {}
        Err(e) => return e,
    }
    if cards.len() < 3 {
        return GroupError::TooFewCards;
    }
    let naturals: Vec<Card> = cards.iter().copied().filter(|c| !c.is_joker()).collect();
    match validate_group(&naturals, rules.group_rules()) {
        Err(GroupError::TooFewCards) | Ok(_) => GroupError::NeitherSetNorRun,
        Err(e) => e,
    }
}

/// What one card of a valid group is worth on the table: Rummy 500's melded
/// points (ace 15 but 1 low in a run, joker 15) or Rami's opening values (ace 1
/// low in a run and 10 elsewhere, a joker the card it stands for).
/// `low_run`: the group is a run holding a 2, so its ace (if any) is low.
pub fn value_in_group(rules: RuleSet, card: Card, kind: GroupKind, low_run: bool) -> u32 {
    if rules == RuleSet::Rummy500 && card.is_joker() {
        return 15;
    }
    let Some(face) = card.face() else {
        return 0;
    };
    match face.rank().value() {
        1 if kind == GroupKind::Run && low_run => 1,
        1 if rules == RuleSet::Rummy500 => 15,
        1 => 10,
        v @ 2..=10 => u32::from(v),
        _ => 10,
    }
}

/// The value of a whole valid group (0 for an invalid one).
pub fn group_value(rules: RuleSet, cards: &[Card]) -> u32 {
    let Ok(kind) = validate_group(cards, rules.group_rules()) else {
        return 0;
    };
    let low_run = kind == GroupKind::Run
        && cards
            .iter()
            .any(|c| c.rank().is_some_and(|r| r.value() == 2));
    cards
        .iter()
        .map(|&c| value_in_group(rules, c, kind, low_run))
        .sum()
}
