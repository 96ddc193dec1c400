//! Scenario tests of Rami (RULES.md Part 3), one per rule, decision and example,
//! including the Claim option and the move timer. Decks are explicit: seats are
//! dealt round-robin from seat 0, one card starts the discard pile, then the
//! stock (top first).

mod common;

use common::*;
use rami_discard::{CLAIM_WINDOW_MS, DiscardGame, group_value};
use rami_game::{
    Action, ActionError, ActionKind, Bonus, ConfigError, Event, Game, GameConfig, HandEnd, Options,
    RuleSet,
};
use rami_melds::GroupError;

const R: RuleSet = RuleSet::Rami;

fn opts() -> Options {
    Options::default()
}

fn limit(points_limit: u32) -> Options {
    Options {
        points_limit,
        ..Options::default()
    }
}

fn claims() -> Options {
    Options {
        claim: true,
        ..Options::default()
    }
}

fn timer(ms: u64) -> Options {
    Options {
        move_time_limit_ms: Some(ms),
        ..Options::default()
    }
}

#[test]
fn two_to_four_players_110_cards_13_each() {
    for players in 2..=4 {
        let g = DiscardGame::new(GameConfig::new(R, players, 9)).unwrap();
        assert_eq!(g.all_cards().len(), 110);
        assert_eq!(g.all_cards().jokers(), 6);
        for s in 0..players {
            assert_eq!(g.view(s).hand.len(), 13);
        }
        assert_eq!(g.view(0).stock_count, 110 - 13 * players - 1);
    }
    assert!(matches!(
        DiscardGame::new(GameConfig::new(R, 5, 1)),
        Err(ConfigError::Players { .. })
    ));
    let bad = DiscardGame::new(GameConfig {
        options: limit(60),
        ..GameConfig::new(R, 3, 1)
    });
    assert!(matches!(
        bad,
        Err(ConfigError::Option {
            option: "points_limit",
            ..
        })
    ));
}

#[test]
fn turn_is_draw_or_take_discard_then_a_discard_is_required() {
    let mut g = game(R, 2, opts(), &[], "", "");
    let legal = g.legal_actions(0);
    assert!(legal.contains(&ActionKind::Draw) && legal.contains(&ActionKind::TakeDiscard));
    assert!(!legal.contains(&ActionKind::Dig));
    assert!(matches!(
        refused(&mut g, 0, discard("AS"), 0),
        ActionError::NotNow { .. }
    ));
    ok(&mut g, 0, Action::Draw, 0);
    assert!(matches!(
        refused(&mut g, 0, Action::Draw, 0),
        ActionError::NotNow { .. }
    ));
    assert!(matches!(
        refused(&mut g, 0, Action::TakeDiscard, 0),
        ActionError::NotNow { .. }
    ));
    assert_eq!(
        g.current_player(),
        Some(0),
        "the turn ends only with a discard"
    );
    let c = g.view(0).hand[0];
    ok(&mut g, 0, Action::Discard { card: c }, 0);
    assert_eq!(g.current_player(), Some(1));
    assert_eq!(*g.view(1).discard.last().unwrap(), c);
}

#[test]
fn taken_discard_may_be_discarded_again_in_rami() {
    let mut g = game(R, 2, opts(), &[], "9C", "");
    ok(&mut g, 0, Action::TakeDiscard, 0);
    ok(&mut g, 0, discard("9C"), 0);
}

#[test]
fn digging_is_rummy_500_only() {
    let mut g = game(R, 2, opts(), &[], "", "");
    let dig = Action::Dig {
        depth: 0,
        with: vec![],
        onto: None,
        name: None,
    };
    assert!(matches!(
        refused(&mut g, 0, dig, 0),
        ActionError::NotNow { .. }
    ));
}

#[test]
fn sets_never_repeat_a_card_and_three_cards_never_hold_two_jokers() {
    let mut g = game(
        R,
        2,
        opts(),
        &["10D 10C 10D AS * * 5H 6H KS KH KD 2C 9S"],
        "",
        "4S",
    );
    ok(&mut g, 0, Action::Draw, 0);
    assert_eq!(
        refused(&mut g, 0, meld("10D 10C 10D"), 0),
        ActionError::InvalidGroup {
            group: 0,
            reason: GroupError::RepeatedSuitInSet
        }
    );
    assert_eq!(
        refused(&mut g, 0, meld("AS * *"), 0),
        ActionError::InvalidGroup {
            group: 0,
            reason: GroupError::JokersOutnumberNaturals
        }
    );
    // Two jokers with two natural cards: jokers do not outnumber them.
    ok(&mut g, 0, meld("5H 6H *7H *8H | KS KH KD"), 0);
}

#[test]
fn meld_values_ace_1_low_10_high_or_in_a_set_joker_as_its_card() {
    assert_eq!(group_value(R, &cards("AH 2H 3H")), 6);
    assert_eq!(group_value(R, &cards("QH KH AH")), 30);
    assert_eq!(group_value(R, &cards("AS AH AD")), 30);
    assert_eq!(group_value(R, &cards("KS KH *KD")), 30);
    assert_eq!(group_value(R, &cards("*AH 2H 3H")), 6);
    // The seed's "three threes make 21" is a slip for three sevens.
    assert_eq!(group_value(R, &cards("3S 3H 3D")), 9);
    assert_eq!(group_value(R, &cards("7S 7H 7D")), 21);
}

#[test]
fn first_meld_needs_30_points_in_one_turn_from_the_hand() {
    let mut g = game(
        R,
        2,
        opts(),
        &["7S 7H 7D 2C 3C 4C AH 2H 3H QD KD AD 9S"],
        "",
        "5S",
    );
    ok(&mut g, 0, Action::Draw, 0);
    assert_eq!(
        refused(&mut g, 0, meld("7S 7H 7D"), 0),
        ActionError::OpeningTooLow {
            points: 21,
            needed: 30
        }
    );
    assert_eq!(
        refused(&mut g, 0, meld("AH 2H 3H | 7S 7H 7D"), 0),
        ActionError::OpeningTooLow {
            points: 27,
            needed: 30
        }
    );
    assert!(!g.view(0).players[0].opened);
    // Several groups add up: exactly 30 opens.
    ok(&mut g, 0, meld("7S 7H 7D | 2C 3C 4C"), 0);
    assert!(g.view(1).players[0].opened);
    // Once open, any group may follow, whatever its value.
    ok(&mut g, 0, meld("AH 2H 3H"), 0);
    ok(&mut g, 0, meld("QD KD AD"), 0);
}

#[test]
fn lay_offs_only_after_the_first_meld_and_they_do_not_count_towards_30() {
    let mut g = game(
        R,
        2,
        opts(),
        &[
            "KS KH KD 7C 8C 9C 2D 4H 6C 8D 10H QS AC",
            "KC 10C QD QC QH 5S 5H 3C 9D JH 4C 6D 8H",
        ],
        "",
        "3S 4D",
    );
    ok(&mut g, 0, Action::Draw, 0);
    assert!(matches!(
        refused(&mut g, 0, lay_off(0, "6C"), 0),
        ActionError::NoSuchMeld(0) | ActionError::NotOpened { .. }
    ));
    ok(&mut g, 0, meld("KS KH KD | 7C 8C 9C"), 0);
    // Lay off in the same turn, after the first meld.
    ok(&mut g, 0, lay_off(1, "6C"), 0);
    ok(&mut g, 0, discard("3S"), 0);
    ok(&mut g, 1, Action::Draw, 0);
    assert_eq!(
        refused(&mut g, 1, lay_off(0, "KC"), 0),
        ActionError::NotOpened {
            needed: 30,
            what: rami_game::Deed::LayOff
        }
    );
    ok(&mut g, 1, meld("QD QC QH"), 0);
    // On anyone's group.
    ok(&mut g, 1, lay_off(0, "KC"), 0);
    ok(&mut g, 1, lay_off(1, "10C"), 0);
    assert_eq!(g.view(0).table[1], cards("6C 7C 8C 9C 10C"));
    assert!(
        g.view(0).table_owners.is_empty(),
        "owners are a Rummy 500 fact"
    );
}

#[test]
fn joker_exchange_by_an_opened_player_with_the_real_card() {
    let mut g = game(
        R,
        2,
        opts(),
        &[
            "KS KH * 7C 8C 9C 2D 4H 6S 8D 10H QS AC",
            "KD QD QC QH 5S 5H 3C 9D JH 4C 6D 8H 2S",
        ],
        "",
        "3S 4D",
    );
    ok(&mut g, 0, Action::Draw, 0);
    ok(&mut g, 0, meld("KS KH *KD | 7C 8C 9C"), 0);
    ok(&mut g, 0, discard("3S"), 0);
    ok(&mut g, 1, Action::Draw, 0);
    let exchange = |meld: usize, c: &str| Action::ExchangeJoker {
        meld,
        card: card(c),
    };
    assert_eq!(
        refused(&mut g, 1, exchange(0, "KD"), 0),
        ActionError::NotOpened {
            needed: 30,
            what: rami_game::Deed::ExchangeJoker
        }
    );
    ok(&mut g, 1, meld("QD QC QH"), 0);
    assert_eq!(
        refused(&mut g, 1, exchange(1, "KD"), 0),
        ActionError::NoJokerFor {
            meld: 1,
            face: card("KD").natural_face().unwrap()
        }
    );
    assert_eq!(
        refused(&mut g, 1, exchange(0, "*"), 0),
        ActionError::ExchangeNeedsRealCard { card: card("*") }
    );
    assert_eq!(
        refused(&mut g, 1, exchange(0, "KC"), 0),
        ActionError::CardNotInHand { card: card("KC") }
    );
    let before = g.view(1).hand.len();
    ok(&mut g, 1, exchange(0, "KD"), 0);
    assert_eq!(g.view(1).table[0], cards("KS KH KD"));
    assert!(g.view(1).hand.contains(&card("*")));
    assert_eq!(g.view(1).hand.len(), before);
}

/// Seat 0's thirteen cards make four groups worth 103.
const OUT_HAND: &str = "KS KH KD 7C 8C 9C 10C 2D 3D 4D QH QS QC";
/// 15 + 30 + 2 + 5 + 9 + 10 + 6 + 8 + 10 + 4 + 3 + 7 + 10 = 119.
const HIGH_HAND: &str = "AS * 2H 5H 9S JD 6C 8D 10H 4S 3C 7S KC";

#[test]
fn rami_sec_doubles_every_opponents_penalty() {
    let mut g = game(R, 2, opts(), &[OUT_HAND, HIGH_HAND], "", "5S");
    ok(&mut g, 0, Action::Draw, 0);
    ok(
        &mut g,
        0,
        meld("KS KH KD | 7C 8C 9C 10C | 2D 3D 4D | QH QS QC"),
        0,
    );
    // The last card may be the discard.
    let events = ok(&mut g, 0, discard("5S"), 0);
    let r = hand_result(&events).unwrap();
    assert_eq!(r.end, HandEnd::WentOut { seat: 0 });
    assert_eq!(r.hand_points, vec![0, 119], "ace 15, joker 30");
    assert_eq!(r.deltas, vec![0, 238]);
    assert_eq!(r.bonuses, vec![(1, Bonus::RamiSec, 119)]);
    // 238 passes 100: seat 1 is out, the last player left wins.
    assert!(events.contains(&Event::Eliminated { seat: 1 }));
    let o = g.outcome().unwrap();
    assert_eq!(o.winners, vec![0]);
    assert_eq!(o.totals, vec![0, 238]);
    assert_eq!(g.current_player(), None);
}

#[test]
fn going_out_by_melding_every_card_is_also_rami_sec() {
    let mut g = game(R, 2, opts(), &[OUT_HAND, HIGH_HAND], "", "JC");
    ok(&mut g, 0, Action::Draw, 0);
    let events = ok(
        &mut g,
        0,
        meld("KS KH KD | 7C 8C 9C 10C JC | 2D 3D 4D | QH QS QC"),
        0,
    );
    let r = hand_result(&events).unwrap();
    assert_eq!(r.end, HandEnd::WentOut { seat: 0 });
    assert_eq!(r.deltas[1], 238);
}

#[test]
fn no_rami_sec_for_a_player_who_melded_in_an_earlier_turn() {
    let mut g = game(R, 2, opts(), &[OUT_HAND, HIGH_HAND], "", "5S 6S 9H");
    ok(&mut g, 0, Action::Draw, 0);
    ok(&mut g, 0, meld("KS KH KD"), 0);
    ok(&mut g, 0, discard("5S"), 0);
    ok(&mut g, 1, Action::Draw, 0);
    ok(&mut g, 1, discard("6S"), 0);
    ok(&mut g, 0, Action::Draw, 0);
    ok(&mut g, 0, meld("7C 8C 9C 10C | 2D 3D 4D | QH QS QC"), 0);
    let events = ok(&mut g, 0, discard("9H"), 0);
    let r = hand_result(&events).unwrap();
    assert_eq!(r.deltas, vec![0, 119]);
    assert!(r.bonuses.is_empty());
}

/// Three players, limit 50: seat 1 (150) passes it, seat 2 (exactly 50) does not.
fn elimination_game(points_limit: u32) -> (DiscardGame, Vec<Event>) {
    let mut g = game(
        R,
        3,
        limit(points_limit),
        &[
            "KS KH KD 7C 8C 9C 10C 4D 5D 6D QH QS QC",
            "AS AH AD AC JS JH JD JC KC KC QD QD 10S",
            "2S 2H 2D 2C 2S 2H 2D 2C 10S 10H 4S 5S 5H",
        ],
        "",
        "5S 6S 7S 8S",
    );
    ok(&mut g, 0, Action::Draw, 0);
    ok(&mut g, 0, meld("KS KH KD"), 0);
    ok(&mut g, 0, discard("5S"), 0);
    ok(&mut g, 1, Action::Draw, 0);
    ok(&mut g, 1, discard("6S"), 0);
    ok(&mut g, 2, Action::Draw, 0);
    ok(&mut g, 2, discard("7S"), 0);
    ok(&mut g, 0, Action::Draw, 0);
    ok(&mut g, 0, meld("7C 8C 9C 10C | 4D 5D 6D | QH QS QC"), 0);
    let events = ok(&mut g, 0, discard("8S"), 0);
    (g, events)
}

#[test]
fn passing_the_points_limit_eliminates_and_the_others_play_a_new_deal() {
    let (mut g, events) = elimination_game(50);
    let r = hand_result(&events).unwrap();
    assert_eq!(r.deltas, vec![0, 150, 50]);
    assert!(events.contains(&Event::Eliminated { seat: 1 }));
    assert!(
        !events.contains(&Event::Eliminated { seat: 2 }),
        "50 does not pass 50"
    );
    // A new deal among the players left; the next first player skips seat 1.
    assert!(events.contains(&Event::HandStarted { hand: 2, first: 2 }));
    assert!(g.outcome().is_none());
    assert_eq!(g.current_player(), Some(2));
    let v = g.view(0);
    assert!(v.players[1].eliminated);
    assert_eq!(v.players[1].cards_in_hand, 0);
    assert_eq!(v.hand.len(), 13);
    assert_eq!(g.view(2).hand.len(), 13);
    assert_eq!(g.all_cards().len(), 110);
    assert!(g.legal_actions(1).is_empty());
    assert_eq!(
        refused(&mut g, 1, Action::Draw, 0),
        ActionError::SeatEliminated(1)
    );
    ok(&mut g, 2, Action::Draw, 0);
    let c = g.view(2).hand[0];
    ok(&mut g, 2, Action::Discard { card: c }, 0);
    assert_eq!(g.current_player(), Some(0), "seat 1 is skipped");
}

#[test]
fn points_limit_1_plays_a_single_hand_lowest_penalty_wins() {
    let (g, events) = elimination_game(1);
    assert!(!events.iter().any(|e| matches!(e, Event::Eliminated { .. })));
    let o = g.outcome().expect("one hand only");
    assert_eq!(o.winners, vec![0]);
    assert_eq!(o.totals, vec![0, 150, 50]);
}

#[test]
fn stock_runs_out_the_discard_pile_except_its_top_becomes_the_stock() {
    let mut g = DiscardGame::new(GameConfig::new(R, 2, 5)).unwrap();
    for _ in 0..200 {
        let seat = g.current_player().unwrap();
        ok(&mut g, seat, Action::Draw, 0);
        let drawn = *g.view(seat).hand.last().unwrap();
        let pile = g.view(seat).discard.len();
        let events = ok(&mut g, seat, Action::Discard { card: drawn }, 0);
        if let Some(size) = events.iter().find_map(|e| match e {
            Event::StockReshuffled { size } => Some(*size),
            _ => None,
        }) {
            assert_eq!(size, pile, "all but the new top card");
            let v = g.view(0);
            assert_eq!(v.discard, vec![drawn]);
            assert_eq!(v.stock_count, pile);
            assert_eq!(g.all_cards().len(), 110);
            return;
        }
    }
    panic!("the stock never ran out");
}

// ---- Claim ("frapper") -------------------------------------------------------

/// Four players, Claim on: seat 0 draws and discards 9♥ at t = 1000.
fn claim_game(players: usize) -> DiscardGame {
    let mut g = game(R, players, claims(), &["9H"], "", "5S 6S 7S 8S 9S");
    ok(&mut g, 0, Action::Draw, 1000);
    ok(&mut g, 0, discard("9H"), 1000);
    g
}

#[test]
fn claim_takes_the_discard_plus_two_penalty_cards_and_plays_at_once() {
    let mut g = claim_game(4);
    assert_eq!(g.view(2).claim_deadline, Some(1000 + CLAIM_WINDOW_MS));
    assert!(g.legal_actions(2).contains(&ActionKind::Claim));
    assert!(g.legal_actions(3).contains(&ActionKind::Claim));
    assert!(!g.legal_actions(1).contains(&ActionKind::Claim));
    assert!(!g.legal_actions(0).contains(&ActionKind::Claim));
    let events = ok(&mut g, 2, Action::Claim, 2000);
    assert_eq!(
        events,
        vec![
            Event::Claimed {
                seat: 2,
                card: card("9H")
            },
            Event::PenaltyDrawn { seat: 2, count: 2 },
            Event::TurnStarted { seat: 2 },
        ]
    );
    assert_eq!(g.view(2).hand.len(), 16);
    assert!(g.view(2).hand.contains(&card("9H")));
    assert_eq!(g.current_player(), Some(2));
    // Draw step done: meld, then discard.
    let legal = g.legal_actions(2);
    assert!(legal.contains(&ActionKind::Discard) && !legal.contains(&ActionKind::Draw));
    let c = g.view(2).hand[0];
    ok(&mut g, 2, Action::Discard { card: c }, 2500);
    assert_eq!(g.current_player(), Some(3), "play goes on from the claimer");
}

#[test]
fn next_player_and_discarder_may_not_claim() {
    let mut g = claim_game(3);
    assert!(matches!(
        refused(&mut g, 1, Action::Claim, 1100),
        ActionError::NotNow { .. }
    ));
    assert!(matches!(
        refused(&mut g, 0, Action::Claim, 1100),
        ActionError::NotNow { .. }
    ));
}

#[test]
fn first_claim_wins_the_same_way_every_time() {
    let start = claim_game(4);
    for (a, b) in [(2, 3), (3, 2)] {
        let mut runs = Vec::new();
        for _ in 0..2 {
            let mut g = start.clone();
            ok(&mut g, a, Action::Claim, 1500);
            assert!(matches!(
                refused(&mut g, b, Action::Claim, 1500),
                ActionError::NotNow { .. }
            ));
            assert_eq!(g.current_player(), Some(a));
            runs.push(serde_json::to_string(&g).unwrap());
        }
        assert_eq!(runs[0], runs[1]);
    }
}

#[test]
fn claim_window_closes_after_3_seconds() {
    let mut g = claim_game(3);
    assert_eq!(g.next_deadline(), Some(4000));
    let mut late = g.clone();
    ok(&mut g.clone(), 2, Action::Claim, 3999);
    assert!(matches!(
        refused(&mut late, 2, Action::Claim, 4000),
        ActionError::NotNow { .. }
    ));
    assert!(g.advance_time(3999).is_empty());
    assert_eq!(g.advance_time(4000), vec![Event::ClaimWindowClosed]);
    assert!(!g.legal_actions(2).contains(&ActionKind::Claim));
    assert_eq!(g.view(2).claim_deadline, None);
}

#[test]
fn claim_window_closes_when_the_next_player_draws() {
    let mut g = claim_game(3);
    let events = ok(&mut g, 1, Action::Draw, 1100);
    assert!(events.contains(&Event::ClaimWindowClosed));
    assert!(matches!(
        refused(&mut g, 2, Action::Claim, 1200),
        ActionError::NotNow { .. }
    ));
}

#[test]
fn claim_button_off_refuses_claims() {
    let mut g = game(R, 3, opts(), &["9H"], "", "5S");
    ok(&mut g, 0, Action::Draw, 1000);
    ok(&mut g, 0, discard("9H"), 1000);
    assert!(!g.legal_actions(2).contains(&ActionKind::Claim));
    assert!(matches!(
        refused(&mut g, 2, Action::Claim, 1100),
        ActionError::NotNow { .. }
    ));
}

// ---- Move timer ---------------------------------------------------------------

const TIMED_HAND: &str = "* KS 2C 3D 4H 5S 6C 7D 8H 9S 10C JD 3H";

#[test]
fn timed_out_player_draws_then_discards_the_highest_penalty_card() {
    let mut g = game(R, 3, timer(10_000), &[TIMED_HAND], "", "AS");
    // The clock starts with the first time the driver gives.
    assert_eq!(g.next_deadline(), None);
    assert!(g.advance_time(500).is_empty());
    assert_eq!(g.next_deadline(), Some(10_500));
    assert_eq!(g.view(0).move_deadline, Some(10_500));
    assert!(g.advance_time(10_499).is_empty());
    let events = g.advance_time(10_500);
    assert_eq!(
        events,
        vec![
            Event::TimedOut { seat: 0 },
            Event::Drew { seat: 0, count: 1 },
            Event::Discarded {
                seat: 0,
                card: card("*")
            },
            Event::TurnStarted { seat: 1 },
        ]
    );
    assert_eq!(
        hand(&g, 0),
        sorted("AS KS 2C 3D 4H 5S 6C 7D 8H 9S 10C JD 3H")
    );
    // The next turn began when the last one timed out.
    assert_eq!(g.view(1).move_deadline, Some(20_500));
}

#[test]
fn timed_out_player_who_drew_just_discards() {
    let mut g = game(R, 3, timer(10_000), &[TIMED_HAND], "", "AS");
    ok(&mut g, 0, Action::Draw, 1000);
    assert_eq!(g.next_deadline(), Some(11_000));
    // Too late: the host plays for the player instead.
    assert_eq!(
        refused(&mut g, 0, discard("AS"), 11_000),
        ActionError::TimeUp { deadline: 11_000 }
    );
    let events = g.advance_time(11_000);
    assert_eq!(events[0], Event::TimedOut { seat: 0 });
    assert!(!events.iter().any(|e| matches!(e, Event::Drew { .. })));
    assert!(events.contains(&Event::Discarded {
        seat: 0,
        card: card("*")
    }));
}

#[test]
fn timeouts_play_out_the_same_whenever_time_is_advanced() {
    let mut o = timer(10_000);
    o.claim = true;
    let base = game(R, 3, o, &[TIMED_HAND], "", "");
    let mut once = base.clone();
    once.advance_time(0);
    once.advance_time(35_000);
    let mut stepped = base.clone();
    let mut t = 0;
    while t <= 35_000 {
        stepped.advance_time(t);
        t += 700;
    }
    stepped.advance_time(35_000);
    assert_eq!(once, stepped);
    assert_eq!(once.turns(), 4, "three timeouts at 10, 20 and 30 s");
    assert_eq!(once.view(0).move_deadline, Some(40_000));
}

#[test]
fn a_timed_out_discard_may_be_claimed() {
    let mut o = timer(10_000);
    o.claim = true;
    let mut g = game(R, 3, o, &[TIMED_HAND], "", "");
    g.advance_time(0);
    g.advance_time(10_000);
    assert_eq!(g.view(2).claim_deadline, Some(10_000 + CLAIM_WINDOW_MS));
    ok(&mut g, 2, Action::Claim, 10_100);
    assert_eq!(g.current_player(), Some(2));
}
