//! One scenario test per rule and decision of RULES.md Part 1, named after it.

mod common;

use common::*;
use rami_game::{
    Action, ActionError, ActionKind, Event, Game, GameConfig, HandEnd, MustMeldCheck, Options,
    RuleSet, UnfinishedMove,
};
use rami_manipulation::ManipulationGame;

fn new(rules: RuleSet, players: usize, seed: u64) -> ManipulationGame {
    ManipulationGame::new(GameConfig::new(rules, players, seed)).expect("config")
}

// ---------------------------------------------------------------- dealing

#[test]
fn deal_sizes_per_rule_set() {
    for (rules, size) in [
        (RuleSet::Manipulation, 7),
        (RuleSet::Machiavelli, 13),
        (RuleSet::Shanghai, 10),
        (RuleSet::Guadalupe, 5),
        (RuleSet::Carousel, 10),
        (RuleSet::Vatikan, 13),
        (RuleSet::Tahiti, 5),
    ] {
        for players in 2..=5 {
            let g = new(rules, players, 3);
            for seat in 0..players {
                assert_eq!(g.hand(seat).unwrap().len(), size, "{rules} {players}");
            }
            assert_eq!(
                g.all_cards().len(),
                deck_len(rules, players),
                "{rules} {players}"
            );
        }
    }
}

fn deck_len(rules: RuleSet, players: usize) -> usize {
    match rules {
        RuleSet::Carousel if players == 2 => 53,
        RuleSet::Carousel | RuleSet::Vatikan => 106,
        RuleSet::Tahiti => 108,
        _ => 104,
    }
}

#[test]
fn decks_hold_the_jokers_of_their_rule_set() {
    let jokers = |rules, players| {
        new(rules, players, 1)
            .all_cards()
            .iter()
            .filter(|c| c.is_joker())
            .count()
    };
    assert_eq!(jokers(RuleSet::Manipulation, 3), 0);
    assert_eq!(jokers(RuleSet::Carousel, 2), 1);
    assert_eq!(jokers(RuleSet::Carousel, 3), 2);
    assert_eq!(jokers(RuleSet::Vatikan, 4), 2);
    assert_eq!(jokers(RuleSet::Tahiti, 5), 4);
}

#[test]
fn shanghai_deals_in_packets_of_3_3_3_1() {
    // Deck top first: 40 cards dealt to 4 players in packets 3,3,3,1.
    let order = rami_cards::deck(2, 0);
    let mut config = GameConfig::new(RuleSet::Shanghai, 4, 0);
    config.deck = Some(order.clone());
    let g = ManipulationGame::new(config).unwrap();
    // Seat 0 gets cards 0-2, 12-14, 24-26 and 36.
    let expect: Vec<_> = [0, 1, 2, 12, 13, 14, 24, 25, 26, 36]
        .iter()
        .map(|&i| order[i])
        .collect();
    assert_eq!(g.hand(0).unwrap(), expect.as_slice());
    let expect1: Vec<_> = [3, 4, 5, 15, 16, 17, 27, 28, 29, 37]
        .iter()
        .map(|&i| order[i])
        .collect();
    assert_eq!(g.hand(1).unwrap(), expect1.as_slice());
}

#[test]
fn other_rule_sets_deal_one_card_at_a_time() {
    let order = rami_cards::deck(2, 0);
    let mut config = GameConfig::new(RuleSet::Manipulation, 2, 0);
    config.deck = Some(order.clone());
    let g = ManipulationGame::new(config).unwrap();
    let expect: Vec<_> = (0..7).map(|i| order[2 * i]).collect();
    assert_eq!(g.hand(0).unwrap(), expect.as_slice());
    // The stock's top is the card after the deal.
    assert_eq!(g.stock_len(), 104 - 14);
}

#[test]
fn tahiti_lays_four_loose_cards_face_up() {
    let g = new(RuleSet::Tahiti, 3, 5);
    assert_eq!(g.table().len(), 4);
    assert!(
        g.table()
            .iter()
            .all(|grp| grp.len() == 1 && !grp[0].is_joker())
    );
}

#[test]
fn an_explicit_deck_must_be_the_rule_sets_deck() {
    let mut config = GameConfig::new(RuleSet::Manipulation, 2, 0);
    config.deck = Some(rami_cards::deck(1, 0));
    assert!(ManipulationGame::new(config).is_err());
}

#[test]
fn player_counts_two_to_five() {
    for players in [0, 1, 6, 7] {
        assert!(ManipulationGame::new(GameConfig::new(RuleSet::Machiavelli, players, 0)).is_err());
    }
}

#[test]
fn same_seed_same_game_other_seed_other_game() {
    let a = new(RuleSet::Machiavelli, 3, 11);
    let b = new(RuleSet::Machiavelli, 3, 11);
    let c = new(RuleSet::Machiavelli, 3, 12);
    assert_eq!(a, b);
    assert_ne!(a.hand(0), c.hand(0));
}

// ------------------------------------------------------- shared rules

#[test]
fn a_table_card_never_goes_back_to_a_hand() {
    let mut g = simple(
        RuleSet::Machiavelli,
        &[
            "5H 6H 7H 8H 9H 10H 2C 3C 4C 5C 6C 7C 8C",
            "KS KH KD QS QH QD JS JH JD 10S 10D 9S 9D",
        ],
        "QC KC AC",
        "",
    );
    let err = refused_done(&mut g, 0, "5H 6H 7H");
    assert!(
        matches!(err, ActionError::TableCardTakenBack { .. }),
        "{err}"
    );
}

#[test]
fn at_least_one_hand_card_must_be_played() {
    let mut g = simple(
        RuleSet::Machiavelli,
        &[
            "5H 6H 7H 8H 9H 10H 2C 3C 4C 5C 6C 7C 8C",
            "KS KH KD QS QH QD JS JH JD 10S 10D 9S 9D",
        ],
        "QC KC AC | 4S 4H 4D",
        "",
    );
    assert_eq!(
        refused_done(&mut g, 0, "QC KC AC | 4S 4H 4D"),
        ActionError::NothingPlayed
    );
}

#[test]
fn every_group_must_be_valid_and_the_error_names_it() {
    let mut g = simple(
        RuleSet::Machiavelli,
        &[
            "5H 6H 7H 8H 9H 10H 2C 3C 4C 5C 6C 7C 8C",
            "KS KH KD QS QH QD JS JH JD 10S 10D 9S 9D",
        ],
        "QC KC AC",
        "",
    );
    let err = refused_done(&mut g, 0, "QC KC AC | 5H 6H 8H");
    assert!(
        matches!(err, ActionError::InvalidGroup { group: 1, .. }),
        "{err}"
    );
    assert!(err.to_string().contains("group 1"));
}

#[test]
fn a_card_not_in_hand_is_refused() {
    let mut g = simple(
        RuleSet::Machiavelli,
        &[
            "5H 6H 7H 8H 9H 10H 2C 3C 4C 5C 6C 7C 8C",
            "KS KH KD QS QH QD JS JH JD 10S 10D 9S 9D",
        ],
        "",
        "",
    );
    let err = refused_done(&mut g, 0, "KS KH KD");
    assert!(matches!(err, ActionError::CardNotInHand { .. }), "{err}");
}

#[test]
fn the_table_may_be_rebuilt_freely() {
    // Split 4H..8H to make a set of 8s with 8C and a set of 4s... with 4C? No: 4H joins 4S 4D? keep it simple:
    // 8H leaves the run for the set of 8s, 8C joins it too.
    let mut g = simple(
        RuleSet::Machiavelli,
        &[
            "8C 4C 2D 3D KD QD JD 9S 9D 9C 10S 10D 10C",
            "KS KH QS QH JS JH 2S 2H 3S 3H 5S 5D 6S",
        ],
        "4H 5H 6H 7H 8H | 8S 8D 8C",
        "",
    );
    done(&mut g, 0, "4H 5H 6H 7H | 8S 8D 8C 8H | 9S 9D 9C").expect("rebuilt");
    assert_eq!(g.current_player(), Some(1));
    assert_eq!(
        rami_cards::format_table(g.table()),
        "4H 5H 6H 7H | 8S 8H 8D 8C | 9S 9D 9C"
    );
}

#[test]
fn actions_out_of_turn_are_refused() {
    let mut g = new(RuleSet::Machiavelli, 3, 1);
    assert_eq!(
        refused(&mut g, 1, Action::Draw),
        ActionError::NotYourTurn { current: 0 }
    );
    assert_eq!(refused(&mut g, 9, Action::Draw), ActionError::NoSuchSeat(9));
}

#[test]
fn actions_of_other_rule_sets_are_refused() {
    let mut g = new(RuleSet::Machiavelli, 3, 1);
    for action in [
        Action::TakeDiscard,
        Action::Claim,
        Action::Knock { table: vec![] },
        Action::EndGame,
    ] {
        assert!(matches!(
            refused(&mut g, 0, action),
            ActionError::NotNow { .. }
        ));
    }
}

#[test]
fn pass_only_when_the_stock_is_empty() {
    let mut g = new(RuleSet::Machiavelli, 2, 1);
    assert!(matches!(
        refused(&mut g, 0, Action::Pass),
        ActionError::NotNow {
            kind: ActionKind::Pass,
            ..
        }
    ));
}

#[test]
fn blocked_hand_when_everyone_passes_in_a_row() {
    let mut g = simple(RuleSet::Machiavelli, &["5H", "KS KD"], "", "");
    // Empty the stock into seat 0 and 1 by drawing.
    while g.stock_len() > 0 {
        let seat = g.current_player().unwrap();
        g.apply(seat, Action::Draw, 0).unwrap();
    }
    let seat = g.current_player().unwrap();
    g.apply(seat, Action::Pass, 0).unwrap();
    assert!(!g.is_terminal());
    let events = g.apply(1 - seat, Action::Pass, 0).unwrap();
    assert!(
        events
            .iter()
            .any(|e| matches!(e, Event::HandEnded { result } if result.end == HandEnd::Blocked))
    );
    assert!(g.is_terminal());
}

// ------------------------------------------------------- Manipulation

#[test]
fn manipulation_ace_is_high() {
    let mut g = simple(
        RuleSet::Manipulation,
        &["AS 2S 3S QH KH AH 9C", "5D 6D 7D 8D 9D 10D JD"],
        "",
        "",
    );
    let err = refused_done(&mut g, 0, "AS 2S 3S");
    assert!(matches!(err, ActionError::InvalidGroup { group: 0, .. }));
    done(&mut g, 0, "QH KH AH").expect("Q-K-A is a run");
}

#[test]
fn manipulation_remind_with_hint_shows_a_play_instead_of_drawing() {
    let mut g = simple(
        RuleSet::Manipulation,
        &["7C 2S 4D 9H JS QD KC", "5D 6D 7D 8D 9D 10D JD"],
        "7H 7D 7S",
        "",
    );
    let stock = g.stock_len();
    let events = g.apply(0, Action::Draw, 0).unwrap();
    match &events[..] {
        [Event::Reminded { seat: 0, hint }] => {
            assert_eq!(hint.cards, cards("7C"));
            assert_eq!(hint.groups, vec![0]);
            assert!(!hint.rearrange);
        }
        other => panic!("expected a reminder, got {other:?}"),
    }
    assert_eq!(g.stock_len(), stock, "the reminder draws nothing");
    assert!(g.view(0).hint.is_some());
    // The second tap goes on anyway.
    g.apply(0, Action::Draw, 0).unwrap();
    assert_eq!(g.stock_len(), stock - 1);
    assert_eq!(g.hand(0).unwrap().len(), 8);
    assert_eq!(
        g.current_player(),
        Some(0),
        "drawing does not end a Manipulation turn"
    );
}

#[test]
fn manipulation_remind_accepts_any_legal_move_not_only_the_hint() {
    let mut g = simple(
        RuleSet::Manipulation,
        &["7C 8H 9H 10H 2S 3D 5C", "5D 6D 7D 8D 9D 10D JD"],
        "7H 7D 7S",
        "",
    );
    g.apply(0, Action::Draw, 0).unwrap();
    done(&mut g, 0, "7H 7D 7S | 8H 9H 10H").expect("another legal move");
}

#[test]
fn manipulation_trust_the_player_draws_at_once() {
    let options = Options {
        must_meld_check: MustMeldCheck::TrustThePlayer,
        ..Options::default()
    };
    let mut g = position(
        RuleSet::Manipulation,
        options,
        &["7C 2S 4D 9H JS QD KC", "5D 6D 7D 8D 9D 10D JD"],
        "7H 7D 7S",
        "",
        0,
    );
    let events = g.apply(0, Action::Draw, 0).unwrap();
    assert!(matches!(events[..], [Event::Drew { seat: 0, count: 1 }]));
}

#[test]
fn manipulation_draws_until_a_meld_then_the_meld_ends_the_turn() {
    let options = Options {
        must_meld_check: MustMeldCheck::TrustThePlayer,
        ..Options::default()
    };
    let mut g = position(
        RuleSet::Manipulation,
        options,
        &["2S 4D 9H JS QD KC 5C", "5D 6D 7D 8D 9D 10D JD"],
        "7H 7D 7S",
        "3S 7C",
        0,
    );
    g.apply(0, Action::Draw, 0).unwrap();
    g.apply(0, Action::Draw, 0).unwrap();
    assert_eq!(g.current_player(), Some(0));
    done(&mut g, 0, "7H 7D 7S 7C").unwrap();
    assert_eq!(g.current_player(), Some(1));
}

#[test]
fn manipulation_penalties_ace_15_tens_and_faces_10_others_5() {
    let mut g = simple(
        RuleSet::Manipulation,
        &["9H", "AS KD 10C 2H 7S 3D 4C"],
        "7H 8H 10H JH | 5S 5D 5C",
        "",
    );
    // 9H completes 7-8-9-10-J: seat 0 goes out.
    let events = done(&mut g, 0, "7H 8H 9H 10H JH | 5S 5D 5C").unwrap();
    let result = events
        .iter()
        .find_map(|e| match e {
            Event::HandEnded { result } => Some(result.clone()),
            _ => None,
        })
        .expect("hand ended");
    assert_eq!(result.end, HandEnd::WentOut { seat: 0 });
    assert_eq!(result.deltas, vec![0, 15 + 10 + 10 + 5 + 5 + 5 + 5]);
    assert_eq!(g.scores(), vec![0, 55]);
    assert!(!g.is_terminal(), "hands follow one another");
}

#[test]
fn manipulation_game_ends_at_200_and_the_lowest_total_wins() {
    // Seat 1 holds 14 aces-and-tens worth 200+ in penalties.
    let loser = "AS AD AC AH AS AD AC AH KS KD KC KH QS QD QC QH JS JD";
    let mut g = simple(RuleSet::Manipulation, &["9H", loser], "7H 8H 10H JH", "");
    let events = done(&mut g, 0, "7H 8H 9H 10H JH").unwrap();
    assert!(g.is_terminal());
    let outcome = g.outcome().unwrap();
    assert_eq!(outcome.winners, vec![0]);
    assert_eq!(outcome.totals, vec![0, 8 * 15 + 10 * 10]);
    assert!(events.iter().any(|e| matches!(e, Event::GameEnded { .. })));
}

#[test]
fn manipulation_play_to_300_goes_on_past_200() {
    let options = Options {
        play_to: 300,
        ..Options::default()
    };
    let mut g = position(
        RuleSet::Manipulation,
        options,
        &["9H", "AS AD AC AH KS KD KC KH QS QD QC QH JS JD"],
        "7H 8H 10H JH",
        "",
        0,
    );
    done(&mut g, 0, "7H 8H 9H 10H JH").unwrap();
    assert!(!g.is_terminal());
    assert_eq!(g.view(0).hand_number, 2);
}

#[test]
fn manipulation_options_refuse_other_targets() {
    let mut config = GameConfig::new(RuleSet::Manipulation, 2, 0);
    config.options.play_to = 250;
    assert!(ManipulationGame::new(config).is_err());
}

// ------------------------------------------------------- Machiavelli

#[test]
fn machiavelli_ace_either_but_never_around_the_corner() {
    let mut g = simple(
        RuleSet::Machiavelli,
        &[
            "AS 2S 3S QH KH AH KD AD 2D 9C 9H 9S 4C",
            "5D 6D 7D 8D 9D 10D JD QD 5C 6C 7C 8C 10C",
        ],
        "",
        "",
    );
    let err = refused_done(&mut g, 0, "KD AD 2D");
    assert!(matches!(err, ActionError::InvalidGroup { .. }));
    done(&mut g, 0, "AS 2S 3S | QH KH AH").expect("both ends");
}

#[test]
fn machiavelli_drawing_ends_the_turn() {
    let mut g = new(RuleSet::Machiavelli, 3, 2);
    g.apply(0, Action::Draw, 0).unwrap();
    assert_eq!(g.current_player(), Some(1));
    assert_eq!(g.hand(0).unwrap().len(), 14);
}

#[test]
fn machiavelli_undo_no_penalty_has_no_give_up() {
    let mut g = new(RuleSet::Machiavelli, 2, 2);
    assert!(!g.legal_actions(0).contains(&ActionKind::GiveUp));
    assert!(matches!(
        refused(&mut g, 0, Action::TouchTable),
        ActionError::NotNow { .. }
    ));
}

fn take_back() -> Options {
    Options {
        unfinished_move: UnfinishedMove::TakeBackDrawThree,
        ..Options::default()
    }
}

#[test]
fn machiavelli_take_back_give_up_takes_two_taps_and_draws_three() {
    let mut g = position(
        RuleSet::Machiavelli,
        take_back(),
        &[
            "5H 6H 7H 8H 9H 10H 2C 3C 4C 5C 6C 7C 8C",
            "KS KH KD QS QH QD JS JH JD 10S 10D 9S 9D",
        ],
        "",
        "",
        0,
    );
    g.apply(0, Action::TouchTable, 0).unwrap();
    // Once the table is touched the turn ends only with Done or Give up.
    assert!(matches!(
        refused(&mut g, 0, Action::Draw),
        ActionError::NotNow { .. }
    ));
    let first = g.apply(0, Action::GiveUp, 0).unwrap();
    assert_eq!(first, vec![Event::GiveUpArmed { seat: 0 }]);
    assert_eq!(g.hand(0).unwrap().len(), 13);
    let second = g.apply(0, Action::GiveUp, 0).unwrap();
    assert!(second.contains(&Event::PenaltyDrawn { seat: 0, count: 3 }));
    assert_eq!(g.hand(0).unwrap().len(), 16);
    assert_eq!(g.current_player(), Some(1));
}

#[test]
fn machiavelli_give_up_draws_fewer_when_the_stock_is_short() {
    let mut g = position(RuleSet::Machiavelli, take_back(), &["5H", "KS"], "", "", 0);
    // Leave two cards in the stock.
    while g.stock_len() > 2 {
        let seat = g.current_player().unwrap();
        g.apply(seat, Action::Draw, 0).unwrap();
    }
    let seat = g.current_player().unwrap();
    let before = g.hand(seat).unwrap().len();
    g.apply(seat, Action::TouchTable, 0).unwrap();
    g.apply(seat, Action::GiveUp, 0).unwrap();
    g.apply(seat, Action::GiveUp, 0).unwrap();
    assert_eq!(g.hand(seat).unwrap().len(), before + 2);
}

#[test]
fn machiavelli_one_hand_cards_left_count_one_each() {
    let mut g = simple(RuleSet::Machiavelli, &["9H", "AS KD 10C"], "7H 8H 10H", "");
    done(&mut g, 0, "7H 8H 9H 10H").unwrap();
    let outcome = g.outcome().unwrap();
    assert_eq!(outcome.winners, vec![0]);
    assert_eq!(outcome.totals, vec![0, 3]);
}

#[test]
fn machiavelli_blocked_hand_fewest_cards_wins_and_a_tie_is_a_draw() {
    for hands in [["5H", "KS KD"], ["5H", "KS"]] {
        let mut g = simple(RuleSet::Machiavelli, &hands, "", "");
        while g.stock_len() > 0 {
            let seat = g.current_player().unwrap();
            g.apply(seat, Action::Draw, 0).unwrap();
        }
        while !g.is_terminal() {
            let seat = g.current_player().unwrap();
            g.apply(seat, Action::Pass, 0).unwrap();
        }
        let o = g.outcome().unwrap();
        let sizes: Vec<usize> = (0..2).map(|s| g.hand(s).unwrap().len()).collect();
        assert_eq!(o.draw, sizes[0] == sizes[1]);
        if !o.draw {
            assert_eq!(o.winners, vec![if sizes[0] < sizes[1] { 0 } else { 1 }]);
        }
    }
}

// ------------------------------------------------------- Shanghai

#[test]
fn shanghai_ace_is_low() {
    let mut g = simple(
        RuleSet::Shanghai,
        &[
            "AS 2S 3S QH KH AH 9C 4D 5D 8C",
            "5C 6C 7C 10D JD QD KD 2H 3H 4H",
        ],
        "",
        "",
    );
    let err = refused_done(&mut g, 0, "QH KH AH");
    assert!(matches!(err, ActionError::InvalidGroup { .. }));
    done(&mut g, 0, "AS 2S 3S").expect("A-2-3");
}

#[test]
fn shanghai_one_point_per_card_left() {
    let mut g = simple(RuleSet::Shanghai, &["9H", "AS KD 10C 2H"], "7H 8H 10H", "");
    done(&mut g, 0, "7H 8H 9H 10H").unwrap();
    assert_eq!(g.scores(), vec![0, 4]);
    assert!(!g.is_terminal(), "no fixed end");
}

#[test]
fn shanghai_must_meld_reminds_like_manipulation() {
    let mut g = simple(
        RuleSet::Shanghai,
        &[
            "7C 2S 4D 9H JS QD KC 3C 5S 6D",
            "5D 7D 8D 9D 10D JD 2H 3H 4H 6H",
        ],
        "7H 7D 7S",
        "",
    );
    let events = g.apply(0, Action::Draw, 0).unwrap();
    assert!(matches!(events[..], [Event::Reminded { .. }]));
}

#[test]
fn shanghai_the_host_ends_the_game_and_the_leader_wins() {
    let mut g = simple(RuleSet::Shanghai, &["9H", "AS KD 10C 2H"], "7H 8H 10H", "");
    done(&mut g, 0, "7H 8H 9H 10H").unwrap();
    assert!(matches!(
        refused(&mut g, 1, Action::EndGame),
        ActionError::NotNow { .. }
    ));
    // The host may end it whoever's turn it is.
    g.apply(0, Action::EndGame, 0).unwrap();
    assert_eq!(g.outcome().unwrap().winners, vec![0]);
}

// ------------------------------------------------------- Guadalupe

#[test]
fn guadalupe_draws_two() {
    let mut g = new(RuleSet::Guadalupe, 2, 4);
    g.apply(0, Action::Draw, 0).unwrap();
    assert_eq!(g.hand(0).unwrap().len(), 7);
    assert_eq!(g.current_player(), Some(1));
}

#[test]
fn guadalupe_playing_without_going_out_draws_one_at_the_end() {
    let mut g = simple(
        RuleSet::Guadalupe,
        &["9H 2C", "AS KD 10C 2H 3H"],
        "7H 8H 10H",
        "4S",
    );
    done(&mut g, 0, "7H 8H 9H 10H").unwrap();
    assert_eq!(hand(&g, 0), "2C 4S");
    assert_eq!(g.current_player(), Some(1));
}

#[test]
fn guadalupe_draw_two_with_one_card_left_draws_one_and_empty_stock_passes() {
    // An odd stock, so the last draw finds one card left.
    let mut g = simple(RuleSet::Guadalupe, &["2C 3D", "KD 5S", "9C"], "", "");
    while g.stock_len() > 1 {
        let seat = g.current_player().unwrap();
        g.apply(seat, Action::Draw, 0).unwrap();
    }
    let seat = g.current_player().unwrap();
    let before = g.hand(seat).unwrap().len();
    g.apply(seat, Action::Draw, 0).unwrap();
    assert_eq!(g.hand(seat).unwrap().len(), before + 1);
    let next = g.current_player().unwrap();
    assert!(g.legal_actions(next).contains(&ActionKind::Pass));
    assert!(!g.legal_actions(next).contains(&ActionKind::Draw));
}

#[test]
fn guadalupe_no_end_of_turn_draw_when_the_stock_is_empty() {
    let mut g = simple(RuleSet::Guadalupe, &["9H 2C", "KD"], "7H 8H 10H", "");
    while g.stock_len() > 0 {
        let seat = g.current_player().unwrap();
        g.apply(seat, Action::Draw, 0).unwrap();
    }
    // Seat 0 may hold many cards now; 9H is still there.
    let seat = g.current_player().unwrap();
    if seat == 0 {
        let before = g.hand(0).unwrap().len();
        done(&mut g, 0, "7H 8H 9H 10H").unwrap();
        assert_eq!(g.hand(0).unwrap().len(), before - 1);
    }
}

// ------------------------------------------------------- Carousel

#[test]
fn carousel_always_draws_first() {
    let mut g = simple(
        RuleSet::Carousel,
        &[
            "9H 2C 3D 4S 5S 6S 7D 8D KC QC",
            "AS KD 10C 2H 3H 4H 5D 6D 7C 8C",
        ],
        "7H 8H 10H",
        "",
    );
    assert_eq!(g.legal_actions(0), vec![ActionKind::Draw]);
    assert!(matches!(
        refused_done(&mut g, 0, "7H 8H 9H 10H"),
        ActionError::NotNow { .. }
    ));
    g.apply(0, Action::Draw, 0).unwrap();
    done(&mut g, 0, "7H 8H 9H 10H").unwrap();
    assert_eq!(g.current_player(), Some(1));
}

#[test]
fn carousel_the_third_draw_ends_the_turn() {
    let mut g = new(RuleSet::Carousel, 3, 9);
    for _ in 0..3 {
        assert_eq!(g.current_player(), Some(0));
        g.apply(0, Action::Draw, 0).unwrap();
    }
    assert_eq!(g.hand(0).unwrap().len(), 13);
    assert_eq!(g.current_player(), Some(1));
}

#[test]
fn carousel_knock_with_five_points_or_fewer_ends_the_hand() {
    // After the meld seat 0 keeps 2C 3D (5 points).
    let mut g = simple(
        RuleSet::Carousel,
        &["9H 2C 3D", "AS KD 10C"],
        "7H 8H 10H",
        "4C",
    );
    g.apply(0, Action::Draw, 0).unwrap();
    let err = refused(
        &mut g,
        0,
        Action::Knock {
            table: table("7H 8H 9H 10H"),
        },
    );
    assert_eq!(err, ActionError::KnockTooHigh { points: 9 });
    // With 4C drawn: meld 2C 3D 4C too? Not a run with 9H; meld 9H only leaves 9.
    let mut g = simple(
        RuleSet::Carousel,
        &["9H 2C 3D", "AS KD 10C"],
        "7H 8H 10H | 4S 4H 4D",
        "4C",
    );
    g.apply(0, Action::Draw, 0).unwrap();
    let events = g
        .apply(
            0,
            Action::Knock {
                table: table("7H 8H 9H 10H | 4S 4H 4D 4C"),
            },
            0,
        )
        .unwrap();
    assert!(events.contains(&Event::Knocked { seat: 0 }));
    let result = g.view(0).last_hand.unwrap();
    assert_eq!(result.end, HandEnd::Knocked { seat: 0 });
    // Knocker 5, other 1+10+10 = 21: knocker scores 16.
    assert_eq!(result.deltas, vec![16, 0]);
}

#[test]
fn carousel_no_knock_after_the_third_draw_or_in_the_last_turns() {
    let mut g = new(RuleSet::Carousel, 2, 3);
    g.apply(0, Action::Draw, 0).unwrap();
    g.apply(0, Action::Draw, 0).unwrap();
    assert!(g.legal_actions(0).contains(&ActionKind::Knock));
}

#[test]
fn carousel_worked_examples() {
    let score = |points: [i64; 3], knocker| {
        rami_manipulation::scoring::carousel_deltas(HandEnd::Knocked { seat: knocker }, &points)
    };
    assert_eq!(score([4, 9, 15], 0), vec![16, 0, 0]);
    assert_eq!(score([5, 3, 12], 0), vec![0, 21, 0]);
    assert_eq!(score([4, 4, 10], 0), vec![0, 16, 0]);
}

#[test]
fn carousel_two_others_tied_for_fewest_both_win_with_the_undercut() {
    let d = rami_manipulation::scoring::carousel_deltas(HandEnd::Knocked { seat: 0 }, &[5, 3, 3]);
    // Each: (5 - 3) + (3 - 3) + the undercut 10.
    assert_eq!(d, vec![0, 12, 12]);
}

#[test]
fn carousel_going_out_scores_the_other_hands_plus_25() {
    let d = rami_manipulation::scoring::carousel_deltas(HandEnd::WentOut { seat: 1 }, &[7, 0, 12]);
    assert_eq!(d, vec![0, 19 + 25, 0]);
    // Through the game: a meld that empties the hand ends it as going out.
    let mut g = simple(
        RuleSet::Carousel,
        &["9H", "AS KD 10C"],
        "7H 8H 10H | 3S 4S 5S",
        "2S",
    );
    g.apply(0, Action::Draw, 0).unwrap();
    done(&mut g, 0, "7H 8H 9H 10H | 2S 3S 4S 5S").unwrap();
    let result = g.view(0).last_hand.unwrap();
    assert_eq!(result.end, HandEnd::WentOut { seat: 0 });
    assert_eq!(result.deltas, vec![21 + 25, 0]);
}

#[test]
fn carousel_stock_out_ties_all_win_without_undercut() {
    let d = rami_manipulation::scoring::carousel_deltas(HandEnd::StockOut, &[4, 4, 10]);
    assert_eq!(d, vec![6, 6, 0]);
}

#[test]
fn carousel_last_turns_after_the_stock_runs_out() {
    // Two players; the stock holds 3 cards after the deal.
    let mut g = simple(
        RuleSet::Carousel,
        &[
            "2S 5S 9S JS KS 2D 5D 9D JD KD",
            "2H 5H 9H JH KH 2C 5C 9C JC KC",
        ],
        "",
        "",
    );
    while g.stock_len() > 0 {
        let seat = g.current_player().unwrap();
        g.apply(seat, Action::Draw, 0).unwrap();
    }
    // Is the player who drew the last card still in their turn (fewer than 3 draws)?
    let drawer_still_playing = g.view(g.current_player().unwrap()).draws_this_turn > 0;
    let mut turns = 0;
    while !g.is_terminal() {
        let seat = g.current_player().unwrap();
        assert!(!g.legal_actions(seat).contains(&ActionKind::Draw));
        if turns > 0 {
            assert!(
                !g.legal_actions(seat).contains(&ActionKind::Knock),
                "no knocking in the last turns"
            );
        }
        g.apply(seat, Action::Pass, 0).unwrap();
        turns += 1;
        if g.view(0).hand_number > 1 {
            break;
        }
    }
    // The drawer finishes their turn, then each player once, ending with the drawer.
    assert_eq!(turns, if drawer_still_playing { 1 + 2 } else { 2 });
    let result = g.view(0).last_hand.unwrap();
    assert_eq!(result.end, HandEnd::StockOut);
}

#[test]
fn carousel_game_ends_at_150_with_100_and_25_a_hand_won() {
    use rami_manipulation::scoring::game_outcome;
    let end = |totals: &[i64], won: &[u32]| {
        game_outcome(
            RuleSet::Carousel,
            &Options::default(),
            totals,
            won,
            HandEnd::StockOut,
            None,
        )
    };
    let outcome = end(&[160, 90], &[3, 1]).unwrap();
    assert_eq!(outcome.totals, vec![160 + 100 + 75, 90 + 25]);
    assert_eq!(outcome.winners, vec![0]);
    assert!(end(&[140, 90], &[3, 1]).is_none());
    // Two players past 150 in the same hand each score the 100.
    let both = end(&[150, 175], &[1, 0]).unwrap();
    assert_eq!(both.totals, vec![275, 275]);
    assert!(both.draw, "a tie for highest is a draw");
}

#[test]
fn manipulation_a_shared_lowest_total_plays_one_more_hand() {
    use rami_manipulation::scoring::game_outcome;
    let end = |totals: &[i64]| {
        game_outcome(
            RuleSet::Manipulation,
            &Options::default(),
            totals,
            &[0, 0, 0],
            HandEnd::Blocked,
            None,
        )
    };
    assert!(
        end(&[40, 40, 210]).is_none(),
        "tie for lowest: one more hand"
    );
    assert_eq!(end(&[40, 45, 210]).unwrap().winners, vec![0]);
    assert!(end(&[40, 40, 190]).is_none(), "nobody at 200 yet");
}

#[test]
fn carousel_joker_is_named_when_one_card_fits_and_asked_when_several() {
    let mut g = simple(RuleSet::Carousel, &["5H * 7H 3C", "AS KD 10C"], "", "2S");
    g.apply(0, Action::Draw, 0).unwrap();
    done(&mut g, 0, "5H * 7H").unwrap();
    assert_eq!(rami_cards::format_table(g.table()), "5H *6H 7H");

    let mut g = simple(RuleSet::Carousel, &["5H 6H * 3C", "AS KD 10C"], "", "2S");
    g.apply(0, Action::Draw, 0).unwrap();
    match refused_done(&mut g, 0, "5H 6H *") {
        ActionError::JokerNeedsName { group: 0, options } => {
            let names: Vec<String> = options.iter().map(|f| f.to_string()).collect();
            assert_eq!(names, vec!["4H", "7H"]);
        }
        other => panic!("{other}"),
    }
    done(&mut g, 0, "5H 6H *7H").unwrap();
}

#[test]
fn carousel_joker_moves_only_as_the_same_card() {
    let mut g = simple(
        RuleSet::Carousel,
        &["6S 6D 9C", "AS KD 10C"],
        "3H 4H 5H *6H",
        "2S",
    );
    g.apply(0, Action::Draw, 0).unwrap();
    // Renamed without the real 6H on the table: refused.
    let err = refused_done(&mut g, 0, "3H 4H 5H | 6S 6D *6C");
    assert_eq!(
        err,
        ActionError::JokerRenamed {
            was: "6H".parse_face()
        }
    );
    // Moved to another group as the same card: fine.
    done(&mut g, 0, "3H 4H 5H | 6S 6D *6H").unwrap();
}

trait ParseFace {
    fn parse_face(&self) -> rami_cards::Face;
}
impl ParseFace for str {
    fn parse_face(&self) -> rami_cards::Face {
        rami_cards::parse_card(self).unwrap().face().unwrap()
    }
}

#[test]
fn carousel_joker_is_freed_once_the_real_card_is_on_the_table() {
    let mut g = simple(
        RuleSet::Carousel,
        &["6H 9C 2D", "AS KD 10C"],
        "5H *6H 7H | 9S 9H 9D",
        "2S",
    );
    g.apply(0, Action::Draw, 0).unwrap();
    done(&mut g, 0, "5H 6H 7H | 9S 9H 9D *9C").expect("freed joker takes a new name");
}

// ------------------------------------------------------- Vatikan

#[test]
fn vatikan_draw_or_meld_never_both() {
    let mut g = new(RuleSet::Vatikan, 2, 5);
    g.apply(0, Action::Draw, 0).unwrap();
    assert_eq!(g.current_player(), Some(1));
}

#[test]
fn vatikan_first_meld_needs_a_natural_run_of_three_from_the_hand() {
    let hands = [
        "7S 7H 7D 4C 5C * 9D 10D JD KS QS 2H 3H",
        "AS KD 10C 2S 3S 4S 5S 6S 8S 9S 10S JS AD",
    ];
    let mut g = simple(RuleSet::Vatikan, &hands, "", "");
    assert_eq!(
        refused_done(&mut g, 0, "7S 7H 7D"),
        ActionError::FirstMeldNeedsRun
    );
    // Jokers do not count among the three.
    assert_eq!(
        refused_done(&mut g, 0, "4C 5C *6C"),
        ActionError::FirstMeldNeedsRun
    );
    done(&mut g, 0, "9D 10D JD | 7S 7H 7D").expect("a run of three opens; more may follow");
    assert!(g.view(0).players[0].opened);
}

#[test]
fn vatikan_first_meld_run_of_three_is_laid_as_a_run() {
    // The three hearts 5-6-7 come from the hand, but spread over three sets they
    // are not a run: refused.
    let hands = [
        "5H 6H 7H 2C 3C 9D 10D JD KS QS 2H 3H 8C",
        "AS KD 10C 2S 3S 4S 5S 6S 8S 9S 10S JS AD",
    ];
    let opened = vec![false, true];
    let mut g = position_with(
        RuleSet::Vatikan,
        Options::default(),
        &hands,
        "5S 5D 5C | 6S 6D 6C | 7S 7D 7C",
        "",
        0,
        opened,
    );
    assert_eq!(
        refused_done(&mut g, 0, "5S 5D 5C 5H | 6S 6D 6C 6H | 7S 7D 7C 7H"),
        ActionError::FirstMeldNeedsRun
    );
    // Laid as a run, it opens; in the same turn the player may go on rearranging,
    // so the run may also be joined to a run on the table (decision, docs/RULES.md).
    done(&mut g, 0, "5S 5D 5C | 6S 6D 6C | 7S 7D 7C | 5H 6H 7H").expect("a run opens");
    assert!(g.view(0).players[0].opened);
}

#[test]
fn vatikan_first_meld_run_may_join_a_run_in_the_same_turn() {
    let hands = [
        "5H 6H 7H 2C 3C 9D 10D JD KS QS 2H 3D 8C",
        "AS KD 10C 2S 3S 4S 5S 6S 8S 9S 10S JS AD",
    ];
    let mut g = position_with(
        RuleSet::Vatikan,
        Options::default(),
        &hands,
        "2H 3H 4H",
        "",
        0,
        vec![false, true],
    );
    done(&mut g, 0, "2H 3H 4H 5H 6H 7H").expect("the three from the hand, then joined");
}

#[test]
fn a_joker_cannot_be_a_card_whose_every_copy_is_on_the_table() {
    // Carousel for two: one deck, so one 5H. A joker named 5H beside the real
    // 5H is refused; named 5C it is fine.
    let hands = [
        "* 5S 5D 2C 3D 4S KS 7D 8D KC",
        "AS KD 10C 2H 3H 4H 5C 6D 7C 8C",
    ];
    let mut g = simple(RuleSet::Carousel, &hands, "5H 6H 7H", "");
    g.apply(0, Action::Draw, 0).unwrap();
    assert_eq!(
        refused_done(&mut g, 0, "5H 6H 7H | 5S 5D *5H"),
        ActionError::TooManyCopies {
            group: 1,
            face: "5H".parse_face(),
            copies: 1
        }
    );
    done(&mut g, 0, "5H 6H 7H | 5S 5D *5C").expect("5C is still in the deck");
    // With three players there are two decks: a joker may be the second 5H.
    let hands3 = [
        "* 5S 5D 2C 3D 4S KS 7D 8D KC",
        "AS KD 10C 2H 3H 4H 5C 6D 7C 8C",
        "AC KH 10S 2D 3S 4D 6C 9D 9C 8S",
    ];
    let mut g = simple(RuleSet::Carousel, &hands3, "5H 6H 7H", "");
    g.apply(0, Action::Draw, 0).unwrap();
    done(&mut g, 0, "5H 6H 7H | 5S 5D *5H").expect("two decks: the second 5H");
}

#[test]
fn vatikan_after_the_first_meld_any_play_is_fine() {
    let hands = [
        "7S 7H 7D 4C 5C 6C 9D 10D JD KS QS 2H 3H",
        "AS KD 10C 2S 3S 4S 5S 6S 8S 9S 10S JS AD",
    ];
    let mut g = simple(RuleSet::Vatikan, &hands, "", "");
    done(&mut g, 0, "4C 5C 6C").unwrap();
    g.apply(1, Action::Draw, 0).unwrap();
    done(&mut g, 0, "4C 5C 6C | 7S 7H 7D").expect("a set after opening");
}

#[test]
fn vatikan_joker_stays_in_its_group_until_freed() {
    let opened = |table_text: &str, hand0: &str| {
        let hands = [hand0, "AS KD 10C 2S 3S 10S JS AD 5D 6D 7D 8D KC"];
        position_with(
            RuleSet::Vatikan,
            Options::default(),
            &hands,
            table_text,
            "",
            0,
            vec![true, true],
        )
    };
    // Moving *6H away from its neighbours (into a set of sixes) is refused...
    let mut g = opened("3H 4H 5H *6H", "6S 6D 9C 2C 3C 4C 5C 8C 9S 10D QD JC QC");
    let err = refused_done(&mut g, 0, "3H 4H 5H | 6S 6D *6H");
    assert_eq!(
        err,
        ActionError::JokerMoved {
            face: "6H".parse_face()
        }
    );
    // ...while in Carousel the same move is allowed (see above). Splitting its
    // group is fine as long as a neighbour stays with it.
    let mut g = opened(
        "3H 4H 5H *6H 7H 8H",
        "9H 6D 9C 2C 3C 4C 5C 8C 9S 10D QD JC QC",
    );
    done(&mut g, 0, "3H 4H 5H | *6H 7H 8H 9H").expect("split, neighbour kept");
    // Freed once the real card is on the table.
    let mut g = opened("3H 4H 5H *6H", "6H 6S 6D 2C 3C 4C 5C 8C 9S 10D QD JC QC");
    done(&mut g, 0, "3H 4H 5H 6H | 6S 6D *6C").expect("freed");
}

// ------------------------------------------------------- Tahiti

#[test]
fn tahiti_loose_singles_may_stay_or_be_used_but_never_become_loose_again() {
    let mut g = simple(
        RuleSet::Tahiti,
        &["8H 9H 10H 2C 3C", "AS KS 10C 2S 3S"],
        "7H | 4D | 5D | QS",
        "",
    );
    done(&mut g, 0, "7H 8H 9H | 4D | 5D | QS").expect("one loose card used, three stay");
    g.apply(1, Action::Draw, 0).unwrap();
    let err = refused_done(&mut g, 0, "7H | 8H 9H 10H | 4D | 5D | QS");
    assert_eq!(
        err,
        ActionError::LoneCard {
            card: cards("7H")[0]
        }
    );
}

#[test]
fn tahiti_a_group_holds_one_joker() {
    let mut g = simple(
        RuleSet::Tahiti,
        &["8H * * 2C 3C", "AS KS 10C 2S 3S"],
        "4D | 5D | QS | JS",
        "",
    );
    let err = refused_done(&mut g, 0, "8H *9H *10H");
    assert!(matches!(err, ActionError::InvalidGroup { .. }), "{err}");
}

#[test]
fn tahiti_joker_group_is_frozen_only_hand_cards_join_it() {
    let mut g = simple(
        RuleSet::Tahiti,
        &["7H 6H 2C 3C KD", "AS KS 10C 2S 3S"],
        "8H *9H 10H | JH QH KH | 4D | QS",
        "",
    );
    // A table card may not join it.
    let err = refused_done(&mut g, 0, "7H 8H *9H 10H JH QH KH | 4D | QS");
    assert_eq!(err, ActionError::FrozenGroupChanged { group: 0 });
    // Its cards may not move out.
    let mut h = simple(
        RuleSet::Tahiti,
        &["6H 2D 2C 3C KD", "AS KS 10C 2S 3S"],
        "7H 8H *9H 10H | JH QH KH | 4D | QS",
        "",
    );
    let err = refused_done(&mut h, 0, "6H 7H 8H *9H | 10H JH QH KH | 4D | QS");
    assert_eq!(err, ActionError::FrozenGroupChanged { group: 0 });
    // A hand card may.
    done(&mut g, 0, "7H 8H *9H 10H | JH QH KH | 4D | QS").expect("hand card joins a joker group");
}

#[test]
fn tahiti_joker_freed_only_by_the_real_card_from_the_hand() {
    // The real 9H from the hand frees *9H, which goes on as *9S beside hand cards.
    let mut g = simple(
        RuleSet::Tahiti,
        &["9H 9C 9D 3C KD", "AS KS 10C 2S 3S"],
        "8H *9H 10H | 4D | 5D | QS",
        "",
    );
    done(&mut g, 0, "8H 9H 10H | 9C *9S 9D | 4D | 5D | QS").expect("freed, renamed");
    // A real 9H already on the table does not free it.
    let mut g = simple(
        RuleSet::Tahiti,
        &["JH 2C 3C KD 5S", "AS KS 10C 2S 3S"],
        "7H 8H *9H 10H | 9H 9S 9D 9C | 4D | QS",
        "",
    );
    let err = refused_done(&mut g, 0, "7H 8H 9H 10H JH *QH | 9S 9D 9C | 4D | QS");
    assert_eq!(
        err,
        ActionError::JokerRenamed {
            was: "9H".parse_face()
        }
    );
}

#[test]
fn tahiti_freed_joker_group_may_be_rearranged_around_the_renamed_joker() {
    // 6H from the hand frees *6H; its group is rearranged and the joker, now *8H,
    // stays with 5H and 7H, which were already with it.
    let mut g = simple(
        RuleSet::Tahiti,
        &["6H 4H 3C KD 2S", "AS KS 10C 2D 3S"],
        "5H *6H 7H | 9C 9D 9S | QS",
        "",
    );
    done(&mut g, 0, "4H 5H 6H 7H *8H | 9C 9D 9S | QS").expect("freed group rearranged");
    // Only the cards that were with the joker: the loose QS still may not join it.
    let mut g = simple(
        RuleSet::Tahiti,
        &["6H 4H QD KD 2S", "AS KS 10C 2D 3S"],
        "5H *6H 7H | 9C 9D 9S | QS",
        "",
    );
    assert_eq!(
        refused_done(&mut g, 0, "4H 5H 6H 7H | 9C 9D 9S | QS QD *QH"),
        ActionError::TableCardJoinsJokerGroup { group: 2 }
    );
}

#[test]
fn tahiti_a_table_card_may_not_join_a_new_joker_group() {
    let mut g = simple(
        RuleSet::Tahiti,
        &["* 9C 2C 3C KD", "AS KS 10C 2S 3S"],
        "9S | 9D | 5D | QS",
        "",
    );
    let err = refused_done(&mut g, 0, "9S 9D *9H | 5D | QS");
    assert_eq!(err, ActionError::TableCardJoinsJokerGroup { group: 0 });
}

#[test]
fn tahiti_penalties_joker_30_ace_11() {
    let mut g = simple(
        RuleSet::Tahiti,
        &["9H", "* AS KD 5C"],
        "8H 10H JH | 4D | 5D | QS | JS",
        "",
    );
    done(&mut g, 0, "8H 9H 10H JH | 4D | 5D | QS | JS").unwrap();
    let o = g.outcome().unwrap();
    assert_eq!(o.winners, vec![0]);
    assert_eq!(o.totals, vec![0, 30 + 11 + 10 + 5]);
}

// ------------------------------------------------------- saving

#[test]
fn a_game_saves_and_resumes_exactly() {
    let mut g = new(RuleSet::Carousel, 3, 21);
    g.apply(0, Action::Draw, 0).unwrap();
    let text = serde_json::to_string(&g).unwrap();
    let back: ManipulationGame = serde_json::from_str(&text).unwrap();
    assert_eq!(back, g);
}

#[test]
fn an_unnamed_joker_is_never_named_as_a_card_whose_copies_are_all_down() {
    // One deck: 4H is on the table, so the joker after 5H 6H 7H can only be 8H.
    let hands = [
        "* 2C 3D 2S KS 7D 8D KC 9S 9D",
        "AS KD 10C 2H 3H QH 5D 6D 7C 8C",
    ];
    let mut g = simple(RuleSet::Carousel, &hands, "5H 6H 7H | 4H 4S 4C", "");
    g.apply(0, Action::Draw, 0).unwrap();
    done(&mut g, 0, "5H 6H 7H * | 4H 4S 4C").expect("named 8H for the player");
    assert!(
        g.view(0)
            .table
            .iter()
            .flatten()
            .any(|c| c.declared() == Some("8H".parse_face()))
    );
}

#[test]
fn tahiti_the_real_card_played_elsewhere_leaves_the_joker_group_frozen_and_whole() {
    // 2H from the hand goes to the hearts run; *2H's group stays whole: allowed,
    // and nothing is freed.
    let mut g = simple(
        RuleSet::Tahiti,
        &["2H 3H 9C KD 2C", "AS KS 10C 2D 3S"],
        "2S *2H 2D | 4H 5H 6H | QS",
        "",
    );
    done(&mut g, 0, "2S *2H 2D | 2H 3H 4H 5H 6H | QS").expect("the joker's group kept whole");
}

// ------------------------------------------------------- blocked hands

/// Plays `g` until a hand ends blocked: everyone draws (a second tap when Remind
/// with hint shows a play) until the stock is empty, then everyone passes.
fn block(g: &mut ManipulationGame) -> rami_game::HandResult {
    for _ in 0..10_000 {
        let seat = g.current_player().expect("a player to move");
        let action = if g.stock_len() > 0 {
            Action::Draw
        } else {
            Action::Pass
        };
        let events = match g.apply(seat, action.clone(), 0) {
            Ok(events) => events,
            // Guadalupe, Tahiti and the others may refuse Pass while a draw is
            // possible; Remind with hint needs the second tap.
            Err(e) => panic!("{action:?} refused: {e}"),
        };
        for e in events {
            if let Event::HandEnded { result } = e {
                assert_eq!(result.end, HandEnd::Blocked);
                return result;
            }
        }
    }
    panic!("the hand never ended")
}

fn trusting() -> Options {
    Options {
        must_meld_check: MustMeldCheck::TrustThePlayer,
        ..Options::default()
    }
}

#[test]
fn blocked_hands_are_scored_as_each_rule_set_says() {
    // Hands that can never meld: one card each of different ranks and suits far
    // apart (the stock holds the rest but is drawn by turns, so melds may appear;
    // the rule is checked on whatever is left).
    for rules in [
        RuleSet::Manipulation,
        RuleSet::Shanghai,
        RuleSet::Guadalupe,
        RuleSet::Vatikan,
        RuleSet::Tahiti,
    ] {
        for hands in [["5H", "KS"], ["5H 9C", "KS"]] {
            let mut g = position(rules, trusting(), &hands, "", "", 0);
            // Nobody plays: only draws and passes, so every card ends in a hand.
            let r = block(&mut g);
            let counts: Vec<usize> = r.hands_left.iter().map(Vec::len).collect();
            let points: Vec<i64> = r
                .hands_left
                .iter()
                .map(|h| h.iter().map(|&c| i64::from(rules.hand_points(c))).sum())
                .collect();
            match rules {
                // Scored as usual: each seat adds the points of what it holds.
                RuleSet::Manipulation | RuleSet::Shanghai => {
                    assert_eq!(r.deltas, points, "{rules}");
                    if rules == RuleSet::Shanghai {
                        assert_eq!(r.deltas, vec![counts[0] as i64, counts[1] as i64]);
                    }
                }
                // Fewest cards wins; a tie is a draw.
                RuleSet::Guadalupe | RuleSet::Vatikan => {
                    let expected = match counts[0].cmp(&counts[1]) {
                        std::cmp::Ordering::Less => vec![0],
                        std::cmp::Ordering::Greater => vec![1],
                        std::cmp::Ordering::Equal => vec![],
                    };
                    assert_eq!(r.winners, expected, "{rules} {counts:?}");
                }
                // Fewest points wins; a tie is a draw.
                _ => {
                    let expected = match points[0].cmp(&points[1]) {
                        std::cmp::Ordering::Less => vec![0],
                        std::cmp::Ordering::Greater => vec![1],
                        std::cmp::Ordering::Equal => vec![],
                    };
                    assert_eq!(r.winners, expected, "{rules} {points:?}");
                }
            }
        }
    }
}

// ------------------------------------------------------- options across rule sets

#[test]
fn shanghai_trust_the_player_draws_at_once() {
    let mut g = position(
        RuleSet::Shanghai,
        trusting(),
        &[
            "7C 2S 4D 9H JS QD KC 3C 5S 6D",
            "5D 7D 8D 9D 10D JD 2H 3H 4H 6H",
        ],
        "7H 7D 7S",
        "",
        0,
    );
    // 7C fits the set on the table, but no reminder: the card is drawn.
    let events = g.apply(0, Action::Draw, 0).unwrap();
    assert!(matches!(events[..], [Event::Drew { seat: 0, count: 1 }]));
}

#[test]
fn take_back_draw_three_works_in_guadalupe_and_tahiti_too() {
    for (rules, hands, table_text) in [
        (RuleSet::Guadalupe, ["5H 6H 7H 2C 9S", "KS KH KD QS 3D"], ""),
        (
            RuleSet::Tahiti,
            ["5H 6H 7H 2C 9S", "KS KH KD QS 3D"],
            "4D | 8C | JD | 10S",
        ),
    ] {
        let mut g = position(rules, take_back(), &hands, table_text, "", 0);
        let before = g.hand(0).unwrap().len();
        g.apply(0, Action::TouchTable, 0).unwrap();
        assert!(
            matches!(refused(&mut g, 0, Action::Draw), ActionError::NotNow { .. }),
            "{rules}"
        );
        // Two taps: the first only arms it.
        assert_eq!(
            g.apply(0, Action::GiveUp, 0).unwrap(),
            vec![Event::GiveUpArmed { seat: 0 }],
            "{rules}"
        );
        let second = g.apply(0, Action::GiveUp, 0).unwrap();
        assert!(
            second.contains(&Event::PenaltyDrawn { seat: 0, count: 3 }),
            "{rules}"
        );
        assert_eq!(g.hand(0).unwrap().len(), before + 3, "{rules}");
        assert_eq!(g.current_player(), Some(1), "{rules}");
    }
}
