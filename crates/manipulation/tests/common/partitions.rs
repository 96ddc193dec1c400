//! Brute force for the finder's tests: every way to lay cards out in valid
//! groups, which the engine then judges (`finder_exact`, `finder_hint`).

use rami_cards::Card;
use rami_game::RuleSet;
use rami_melds::joker_namings;

/// Every partition of `cards` into groups that are valid under some naming
/// of their jokers (or loose singles from `loose`, Tahiti), each group with
/// every naming, passed to `f`.
pub fn partitions(
    rules: RuleSet,
    cards: &[Card],
    loose: &[Card],
    laid: &mut Vec<Vec<Card>>,
    f: &mut dyn FnMut(&[Vec<Card>]),
) {
    let Some(&first) = cards.first() else {
        f(laid);
        return;
    };
    let rest: Vec<Card> = cards[1..].to_vec();
    let n = rest.len();
    let mut tried: Vec<Vec<Card>> = Vec::new();
    for mask in 0u32..(1 << n) {
        let mut group = vec![first];
        group.extend((0..n).filter(|i| mask & (1 << i) != 0).map(|i| rest[i]));
        if group.len() == 2 || (group.len() == 1 && rules != RuleSet::Tahiti) {
            continue;
        }
        let ways: Vec<Vec<Card>> = if group.len() == 1 {
            if rules == RuleSet::Tahiti && !first.is_joker() && loose.contains(&first) {
                vec![group.clone()]
            } else {
                continue;
            }
        } else {
            let bare: Vec<Card> = group.iter().map(|c| c.in_hand()).collect();
            joker_namings(&bare, rules.group_rules())
                .into_iter()
                .map(|way| {
                    let mut names = way.into_iter();
                    bare.iter()
                        .map(|&c| {
                            if c == Card::JOKER {
                                names.next().map_or(c, Card::named_joker)
                            } else {
                                c
                            }
                        })
                        .collect()
                })
                .collect()
        };
        if ways.is_empty() {
            continue;
        }
        // Copies of a card make the same group more than once.
        let mut key = group.clone();
        key.sort();
        if tried.contains(&key) {
            continue;
        }
        tried.push(key);
        let left: Vec<Card> = (0..n)
            .filter(|i| mask & (1 << i) == 0)
            .map(|i| rest[i])
            .collect();
        for way in ways {
            laid.push(way);
            partitions(rules, &left, loose, laid, f);
            laid.pop();
        }
    }
}
