//! Brute force for the finder's tests (`finder_exact`, `finder_hint`): every
//! way to lay cards out in valid groups, which the engine then judges, and
//! what the two share about their positions.

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

/// Positions per test: `RAMI_EXACT_N` times `positions` (default: once).
pub fn scaled(positions: usize) -> usize {
    std::env::var("RAMI_EXACT_N")
        .ok()
        .and_then(|v| v.parse::<usize>().ok())
        .map_or(positions, |n| n.max(1) * positions)
}

/// The cards can come from a game with `copies` of each card: at most that
/// many copies of a card in all, and the table's jokers within the copies
/// rule.
pub fn reachable(table: &[Vec<Card>], hand: &[Card], copies: u8) -> bool {
    let all: Vec<Card> = table.iter().flatten().chain(hand).copied().collect();
    all.iter()
        .filter(|c| !c.is_joker())
        .all(|c| all.iter().filter(|&x| x == c).count() <= usize::from(copies))
        && rami_melds::table_rules::check_copies(table, copies).is_ok()
}
