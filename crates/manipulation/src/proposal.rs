//! Judging a proposed table (the player's private copy, sent with Done).
//!
//! A proposal is accepted only if every group is valid for the rule set, the cards
//! are conserved (old table + played hand cards = new table; nothing goes from the
//! table to a hand), at least one hand card is played, and the rule set's own
//! constraints hold: joker naming and freeing (Carousel, Vatikan, Tahiti), anchored
//! jokers and the run-of-three first meld (Vatikan), frozen joker groups and loose
//! singles (Tahiti), judged by `rami_melds::table_rules` (which the move finder
//! uses too). The first fault found is returned, naming the group.

use rami_cards::{Card, CardCounts, Face};
use rami_game::{ActionError, RuleSet, Table};
use rami_melds::table_rules::{check_table_rules, lays_run_of_three_from_hand};
use rami_melds::{explain_unfit, joker_namings, reading_order, validate_group};

/// An accepted proposal.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Accepted {
    /// The new table: jokers named, each group in reading order.
    pub table: Table,
    /// The hand cards put down (jokers unnamed, as in the hand).
    pub played: Vec<Card>,
}

impl Accepted {
    /// The hand once the played cards are gone.
    pub fn hand_after(&self, hand: &[Card]) -> Vec<Card> {
        let mut out = hand.to_vec();
        for card in &self.played {
            if let Some(i) = out.iter().position(|c| c == card) {
                out.remove(i);
            }
        }
        out
    }
}

/// Judges `proposed` as the table that follows `old` when the player holds `hand`.
/// `first_meld` is true for a Vatikan player who has not melded yet; `copies` is
/// how many of each card the game's deck holds (1 or 2), which a joker's name may
/// not exceed.
pub fn check(
    rules: RuleSet,
    old: &Table,
    hand: &[Card],
    proposed: Table,
    first_meld: bool,
    copies: u8,
) -> Result<Accepted, ActionError> {
    let group_rules = rules.group_rules();
    let mut table = Vec::with_capacity(proposed.len());
    // Naturals on the proposed table: a joker is never named as a card whose
    // every copy is among them, so such a naming is neither chosen nor offered.
    let naturals = CardCounts::from_cards(proposed.iter().flatten().filter(|c| !c.is_joker()));
    for (i, group) in proposed.into_iter().enumerate() {
        let named = name_jokers(rules, i, group, &naturals, copies)?;
        let loose_single = rules == RuleSet::Tahiti && named.len() == 1 && !named[0].is_joker();
        if !loose_single {
            validate_group(&named, group_rules)
                .map_err(|reason| ActionError::InvalidGroup { group: i, reason })?;
        }
        table.push(reading_order(&named, group_rules.ace));
    }

    // Conservation: new = old + played, played from the hand.
    let old_counts = CardCounts::from_cards(old.iter().flatten());
    let new_counts = CardCounts::from_cards(table.iter().flatten());
    let Some(played_counts) = new_counts.minus(&old_counts) else {
        let card = old_counts
            .minus(&new_counts)
            .and_then(|gone| gone.cards().first().copied())
            .or_else(|| first_missing(&old_counts, &new_counts))
            .unwrap_or(Card::JOKER);
        return Err(ActionError::TableCardTakenBack { card });
    };
    let hand_counts = CardCounts::from_cards(hand);
    if let Some(card) = played_counts
        .cards()
        .into_iter()
        .find(|&c| played_counts.count(c) > hand_counts.count(c))
    {
        return Err(ActionError::CardNotInHand { card });
    }
    if played_counts.is_empty() {
        return Err(ActionError::NothingPlayed);
    }
    let played = played_counts.cards();

    if rules == RuleSet::Vatikan && first_meld && !lays_run_of_three_from_hand(&table, &played) {
        return Err(ActionError::FirstMeldNeedsRun);
    }
    check_table_rules(rules, old, &table, &played, copies)?;
    Ok(Accepted { table, played })
}

/// A card that `old` has more of than `new`, for the error message.
fn first_missing(old: &CardCounts, new: &CardCounts) -> Option<Card> {
    old.cards()
        .into_iter()
        .find(|&c| old.count(c) > new.count(c))
}

/// Names the unnamed jokers of a group when only one naming fits (namings that
/// would exceed the deck's `copies` of a card are not counted).
fn name_jokers(
    rules: RuleSet,
    group: usize,
    cards: Vec<Card>,
    naturals: &CardCounts,
    copies: u8,
) -> Result<Vec<Card>, ActionError> {
    if !cards.contains(&Card::JOKER) {
        return Ok(cards);
    }
    let group_rules = rules.group_rules();
    let all_ways = joker_namings(&cards, group_rules);
    let ways: Vec<Vec<Face>> = all_ways
        .iter()
        .filter(|way| way.iter().all(|&f| naturals.face_count(f) < copies))
        .cloned()
        .collect();
    if ways.is_empty()
        && let Some(&face) = all_ways.first().and_then(|w| w.first())
    {
        return Err(ActionError::TooManyCopies {
            group,
            face,
            copies,
        });
    }
    match ways.as_slice() {
        [] => Err(ActionError::InvalidGroup {
            group,
            reason: explain_unfit(&cards, group_rules),
        }),
        [way] => {
            let mut names = way.iter();
            Ok(cards
                .into_iter()
                .map(|c| match c {
                    Card::JOKER => names.next().map_or(c, |&f| Card::named_joker(f)),
                    _ => c,
                })
                .collect())
        }
        many => {
            let mut options: Vec<Face> = many.iter().flatten().copied().collect();
            options.sort_unstable();
            options.dedup();
            Err(ActionError::JokerNeedsName { group, options })
        }
    }
}
