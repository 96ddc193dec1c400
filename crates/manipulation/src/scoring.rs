//! Hand results and game ends of the seven rule sets (RULES.md Part 1).

use rami_cards::Card;
use rami_game::{Bonus, HandEnd, HandResult, Options, Outcome, RuleSet, Seat};

pub struct Scored {
    pub result: HandResult,
}

/// Seats holding the lowest value.
fn lowest(values: &[i64]) -> Vec<Seat> {
    let Some(&min) = values.iter().min() else {
        return Vec::new();
    };
    (0..values.len()).filter(|&s| values[s] == min).collect()
}

fn highest(values: &[i64]) -> Vec<Seat> {
    let Some(&max) = values.iter().max() else {
        return Vec::new();
    };
    (0..values.len()).filter(|&s| values[s] == max).collect()
}

/// Scores a finished hand.
pub fn score_hand(
    rules: RuleSet,
    hand: u32,
    end: HandEnd,
    hands: &[Vec<Card>],
    totals: &[i64],
) -> Scored {
    let n = hands.len();
    let points: Vec<i64> = hands
        .iter()
        .map(|h| h.iter().map(|&c| i64::from(rules.hand_points(c))).sum())
        .collect();
    let cards: Vec<i64> = hands.iter().map(|h| h.len() as i64).collect();
    let mut bonuses = Vec::new();
    let (winners, deltas) = match rules {
        RuleSet::Carousel => carousel(end, &points, &mut bonuses),
        _ => {
            let winners = match end {
                HandEnd::WentOut { seat } => vec![seat],
                // Blocked hands: Manipulation and Shanghai score penalties as usual
                // (the lowest leads); the one-hand games name a winner, and a tie
                // for the fewest is a draw.
                _ => {
                    let measure = match rules {
                        RuleSet::Machiavelli | RuleSet::Guadalupe | RuleSet::Vatikan => &cards,
                        _ => &points,
                    };
                    let best = lowest(measure);
                    let one_hand = !matches!(rules, RuleSet::Manipulation | RuleSet::Shanghai);
                    if one_hand && best.len() > 1 {
                        Vec::new()
                    } else {
                        best
                    }
                }
            };
            let deltas = match rules {
                RuleSet::Vatikan => vec![0; n],
                _ => points.clone(),
            };
            (winners, deltas)
        }
    };
    let new_totals: Vec<i64> = totals.iter().zip(&deltas).map(|(t, d)| t + d).collect();
    Scored {
        result: HandResult {
            hand,
            end,
            winners,
            hands_left: hands.to_vec(),
            hand_points: points,
            deltas,
            bonuses,
            totals: new_totals,
        },
    }
}

/// Carousel's hand result: winners and what each seat adds.
fn carousel(
    end: HandEnd,
    points: &[i64],
    bonuses: &mut Vec<(Seat, Bonus, i64)>,
) -> (Vec<Seat>, Vec<i64>) {
    let n = points.len();
    let mut deltas = vec![0; n];
    let differences = |w: Seat| -> i64 {
        (0..n)
            .filter(|&j| j != w)
            .map(|j| points[j] - points[w])
            .sum()
    };
    let winners = match end {
        HandEnd::WentOut { seat } => {
            deltas[seat] = points.iter().sum::<i64>() + 25;
            bonuses.push((seat, Bonus::GoingOut, 25));
            vec![seat]
        }
        HandEnd::Knocked { seat: knocker } => {
            let best = lowest(points);
            let others: Vec<Seat> = best.iter().copied().filter(|&s| s != knocker).collect();
            if others.is_empty() {
                deltas[knocker] = differences(knocker);
                vec![knocker]
            } else {
                // Undercut: someone else has the fewest, or ties the knocker.
                for &w in &others {
                    deltas[w] = differences(w) + 10;
                    bonuses.push((w, Bonus::Undercut, 10));
                }
                others
            }
        }
        _ => {
            let best = lowest(points);
            for &w in &best {
                deltas[w] = differences(w);
            }
            best
        }
    };
    (winners, deltas)
}

/// The end of the game after a hand, if it ends.
pub fn game_outcome(
    rules: RuleSet,
    options: &Options,
    totals: &[i64],
    hands_won: &[u32],
    end: HandEnd,
    last: Option<&HandResult>,
) -> Option<Outcome> {
    match rules {
        RuleSet::Manipulation => {
            let target = i64::from(options.play_to);
            if !totals.iter().any(|&t| t >= target) {
                return None;
            }
            let best = lowest(totals);
            // A shared lowest total plays one more hand.
            (best.len() == 1).then(|| lowest_total_wins(totals, Vec::new()))
        }
        RuleSet::Shanghai => {
            (end == HandEnd::EndedByHost).then(|| lowest_total_wins(totals, Vec::new()))
        }
        RuleSet::Carousel => {
            if !totals.iter().any(|&t| t >= 150) {
                return None;
            }
            let mut bonuses = Vec::new();
            let mut final_totals = totals.to_vec();
            for (s, total) in final_totals.iter_mut().enumerate() {
                if totals[s] >= 150 {
                    *total += 100;
                    bonuses.push((s, Bonus::Reached150, 100));
                }
                let won = i64::from(hands_won[s]) * 25;
                if won > 0 {
                    *total += won;
                    bonuses.push((s, Bonus::HandsWon, won));
                }
            }
            let best = highest(&final_totals);
            let draw = best.len() > 1;
            Some(Outcome {
                winners: if draw { Vec::new() } else { best },
                draw,
                totals: final_totals,
                bonuses,
            })
        }
        // One hand only.
        _ => {
            let winners = last.map(|r| r.winners.clone()).unwrap_or_default();
            Some(Outcome {
                draw: winners.is_empty(),
                winners,
                totals: totals.to_vec(),
                bonuses: Vec::new(),
            })
        }
    }
}

/// The lowest total wins (shared if several hold it).
pub fn lowest_total_wins(totals: &[i64], bonuses: Vec<(Seat, Bonus, i64)>) -> Outcome {
    Outcome {
        winners: lowest(totals),
        draw: false,
        totals: totals.to_vec(),
        bonuses,
    }
}

/// Carousel: what each seat adds for a hand ended by `end` with these hand points.
pub fn carousel_deltas(end: HandEnd, points: &[i64]) -> Vec<i64> {
    carousel(end, points, &mut Vec::new()).1
}
