//! The greedy computer player of the manipulation rule sets: new groups from the
//! hand (runs first, then sets), then hand cards added one by one to any group
//! they extend. It never rearranges the table, so it is fast on any table; the
//! exact move finder plays the `best` level.

use rami_cards::{Card, Face, Rank, Suit};
use rami_game::{RuleSet, Table};
use rami_melds::{AceMode, joker_namings, validate_group};

/// The table after the greedy play, or `None` when it finds nothing to put down.
/// `opened` is false for a Vatikan player who still owes the run of three;
/// `copies` is how many of each card the deck holds (a joker is never named as a
/// card whose every copy is on the table).
pub fn greedy_table(
    rules: RuleSet,
    table: &Table,
    hand: &[Card],
    opened: bool,
    copies: u8,
) -> Option<Table> {
    // A card whose every copy is already on the table, counting the jokers named
    // as it, would force a joker to a new name: the greedy player keeps it.
    let down = |f: Face| {
        table
            .iter()
            .flatten()
            .filter(|c| c.face() == Some(f))
            .count()
    };
    let mut left: Vec<Card> = Vec::with_capacity(hand.len());
    for &card in hand {
        let same_in_left = left.iter().filter(|&&c| c == card).count();
        match card.natural_face() {
            Some(f) if down(f) + same_in_left >= usize::from(copies) => {}
            _ => left.push(card),
        }
    }
    let mut groups = hand_runs(rules, &mut left);
    let opened_now = opened || rules != RuleSet::Vatikan || !groups.is_empty();
    if !opened_now {
        return None;
    }
    groups.extend(hand_sets(rules, &mut left));
    let mut out = table.clone();
    out.extend(groups);
    // Natural cards first: a joker placed before them could take the name
    // one of them needs (and then keep it out by the copies rule).
    left.sort_by_key(|c| c.is_joker());
    extend_groups(rules, &mut out, &mut left, copies);
    (out != *table).then_some(out)
}

/// Position of a rank in a run (ace low 1 or high 14).
fn card_at(suit: Suit, pos: usize) -> Card {
    let value = if pos == 14 { 1 } else { pos as u8 };
    Card::from_face(Face::new(Rank::new(value).unwrap_or(Rank::ACE), suit))
}

/// Takes runs of three or more natural cards of one suit out of `left`.
fn hand_runs(rules: RuleSet, left: &mut Vec<Card>) -> Vec<Vec<Card>> {
    let ace = rules.ace_mode();
    let mut runs = Vec::new();
    for suit in Suit::ALL {
        loop {
            let has = |pos: usize| left.contains(&card_at(suit, pos));
            let ace_ok = |pos: usize| match pos {
                1 => ace != AceMode::High,
                14 => ace != AceMode::Low,
                _ => true,
            };
            // The longest window of present cards (never both aces).
            let mut best: Option<(usize, usize)> = None;
            let mut start = None;
            for pos in 1..=15 {
                let present = pos <= 14 && has(pos) && ace_ok(pos);
                match (present, start) {
                    (true, None) => start = Some(pos),
                    (false, Some(s)) => {
                        let end = if s == 1 && pos - 1 == 14 { 13 } else { pos - 1 };
                        if end + 1 - s >= 3 && best.is_none_or(|(bs, be)| end - s > be - bs) {
                            best = Some((s, end));
                        }
                        start = None;
                    }
                    _ => {}
                }
            }
            let Some((s, e)) = best else { break };
            let run: Vec<Card> = (s..=e).map(|p| card_at(suit, p)).collect();
            if validate_group(&run, rules.group_rules()).is_err() {
                break;
            }
            for c in &run {
                if let Some(i) = left.iter().position(|x| x == c) {
                    left.remove(i);
                }
            }
            runs.push(run);
        }
    }
    runs
}

/// Takes sets (3 or 4 cards of a rank, suits all different) out of `left`.
fn hand_sets(rules: RuleSet, left: &mut Vec<Card>) -> Vec<Vec<Card>> {
    let mut sets = Vec::new();
    for rank in Rank::all() {
        loop {
            let set: Vec<Card> = Suit::ALL
                .into_iter()
                .map(|s| Card::natural(rank, s))
                .filter(|c| left.contains(c))
                .collect();
            if set.len() < 3 || validate_group(&set, rules.group_rules()).is_err() {
                break;
            }
            for c in &set {
                if let Some(i) = left.iter().position(|x| x == c) {
                    left.remove(i);
                }
            }
            sets.push(set);
        }
    }
    sets
}

/// Adds hand cards to groups they extend, until none fits anywhere. Loose
/// singles (Tahiti) are left alone.
fn extend_groups(rules: RuleSet, table: &mut Table, left: &mut Vec<Card>, copies: u8) {
    let group_rules = rules.group_rules();
    loop {
        let mut placed = false;
        let table_cards: Vec<Card> = table.iter().flatten().copied().collect();
        'cards: for i in 0..left.len() {
            let card = left[i];
            for group in table.iter_mut().filter(|g| g.len() >= 3) {
                let mut trial = group.clone();
                let played = if card.is_joker() {
                    let mut with_joker = group.clone();
                    with_joker.push(Card::JOKER);
                    let free = |f: Face| {
                        table_cards.iter().filter(|c| c.face() == Some(f)).count()
                            < usize::from(copies)
                    };
                    match joker_namings(&with_joker, group_rules)
                        .iter()
                        .filter_map(|w| w.first())
                        .find(|&&f| free(f))
                    {
                        Some(&face) => Card::named_joker(face),
                        None => continue,
                    }
                } else if card.natural_face().is_some_and(|f| {
                    table_cards.iter().filter(|c| c.face() == Some(f)).count()
                        >= usize::from(copies)
                }) {
                    // A joker already named as this card would then stand
                    // for a card whose every copy is down (the copies rule):
                    // the greedy player never renames, so it keeps the card.
                    continue 'cards;
                } else {
                    card
                };
                trial.push(played);
                if validate_group(&trial, group_rules).is_ok() {
                    *group = trial;
                    left.remove(i);
                    placed = true;
                    break 'cards;
                }
            }
        }
        if !placed {
            return;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rami_cards::{format_table, parse_cards, parse_table};

    fn play(rules: RuleSet, table: &str, hand: &str) -> Option<String> {
        greedy_table(
            rules,
            &parse_table(table).unwrap(),
            &parse_cards(hand).unwrap(),
            true,
            2,
        )
        .map(|t| format_table(&t))
    }

    #[test]
    fn runs_then_sets_then_extensions() {
        assert_eq!(
            play(RuleSet::Manipulation, "7H 7D 7S", "7C 8H 9H 10H 2S 2D 2C"),
            Some("7H 7D 7S 7C | 8H 9H 10H | 2S 2D 2C".into())
        );
        assert_eq!(play(RuleSet::Manipulation, "", "2S 5D 9C"), None);
    }

    #[test]
    fn aces_follow_the_rule_set() {
        assert_eq!(play(RuleSet::Manipulation, "", "AS 2S 3S"), None);
        assert_eq!(
            play(RuleSet::Shanghai, "", "AS 2S 3S"),
            Some("AS 2S 3S".into())
        );
        assert_eq!(
            play(RuleSet::Manipulation, "", "QS KS AS"),
            Some("QS KS AS".into())
        );
    }

    #[test]
    fn jokers_extend_groups_with_a_name() {
        assert_eq!(
            play(RuleSet::Carousel, "5H 6H 7H", "*"),
            Some("5H 6H 7H *4H".into())
        );
        // One deck (two-player Carousel) with the 4H on the table: *8H instead.
        assert_eq!(
            greedy_table(
                RuleSet::Carousel,
                &parse_table("5H 6H 7H | 2H 3H 4H").unwrap(),
                &parse_cards("*").unwrap(),
                true,
                1,
            )
            .map(|t| format_table(&t)),
            Some("5H 6H 7H *8H | 2H 3H 4H".into())
        );
    }

    #[test]
    fn a_card_a_joker_was_named_for_stays_in_hand_when_every_copy_is_down() {
        // Found walking four-player Vatikan games (seed 100): the joker went
        // to 6C 7C 8C as 5C (one 5C down), then the hand's 5C joined
        // 2C 3C 4C, and the engine refused the plan (two 5C and a joker 5C).
        let table = parse_table("6C 7C 8C | 2C 3C 4C | 5S 5D 5C").unwrap();
        for hand in ["* 5C", "5C *", "* 5C 9C", "9C * 5C"] {
            let out = greedy_table(
                RuleSet::Vatikan,
                &table,
                &parse_cards(hand).unwrap(),
                true,
                2,
            )
            .expect("a play");
            assert!(
                rami_melds::table_rules::check_copies(&out, 2).is_ok(),
                "{hand}: {}",
                format_table(&out)
            );
            assert!(out.iter().flatten().any(|c| c.is_joker()), "{hand}");
        }
    }

    #[test]
    fn vatikan_opens_only_with_a_run() {
        let t = |hand: &str| {
            greedy_table(
                RuleSet::Vatikan,
                &Vec::new(),
                &parse_cards(hand).unwrap(),
                false,
                2,
            )
            .map(|t| format_table(&t))
        };
        assert_eq!(t("7S 7H 7D"), None);
        assert_eq!(t("7S 7H 7D 4C 5C 6C"), Some("4C 5C 6C | 7S 7H 7D".into()));
    }
}
