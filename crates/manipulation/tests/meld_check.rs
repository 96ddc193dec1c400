//! The must-meld check of Remind-with-hint on large hands: bounded by a
//! deterministic budget, asked once per turn (docs/RULES.md, "Must meld within a
//! budget").

mod common;

use common::{cards, position, table};
use rami_cards::{Card, deck};
use rami_game::{Action, Event, Game, Options, RuleSet};
use rami_manipulation::{ManipulationGame, MeldCheck, MeldCheckBudget, meld_check};

/// 45 cards of the two decks in deck order, leaving out the table's 7H 7D 7S
/// and every 7C (the one card that would extend the table's set on its own).
fn big_hand() -> Vec<Card> {
    let mut rest = rami_cards::CardCounts::from_cards(&deck(2, 0));
    for c in cards("7H 7D 7S 7C 7C") {
        assert!(rest.remove(c));
    }
    let mut hand = Vec::new();
    for c in deck(2, 0) {
        if hand.len() < 45 && rest.remove(c) {
            hand.push(c);
        }
    }
    hand
}

fn big_game(budget: Option<MeldCheckBudget>) -> ManipulationGame {
    let text = rami_cards::format_cards(&big_hand());
    let mut g = position(
        RuleSet::Manipulation,
        Options::default(),
        &[&text, "2S 4D 9H JS QD KC 5C"],
        "7H 7D 7S",
        "",
        0,
    );
    if let Some(b) = budget {
        g.set_meld_check_budget(b);
    }
    g
}

#[test]
fn a_45_card_hand_is_answered_and_the_hint_is_a_legal_play() {
    let mut g = big_game(None);
    assert_eq!(g.hand(0).unwrap().len(), 45);
    let stock = g.stock_len();
    let events = g.apply(0, Action::Draw, 0).expect("the draw is answered");
    let hint = match &events[..] {
        [Event::Reminded { seat: 0, hint }] => hint.clone(),
        other => panic!("expected a reminder, got {other:?}"),
    };
    assert_eq!(g.stock_len(), stock, "a reminder draws nothing");
    assert_eq!(g.meld_check_counts(), (0, 1));
    // The hint is a play the engine itself accepts.
    g.apply(
        0,
        Action::Done {
            table: hint.table.clone(),
        },
        0,
    )
    .expect("the hint's table is a legal Done");
    assert_eq!(g.hand(0).unwrap().len(), 45 - hint.cards.len());
}

#[test]
fn the_hint_found_once_answers_the_rest_of_the_turn() {
    let mut g = big_game(None);
    let first = match &g.apply(0, Action::Draw, 0).unwrap()[..] {
        [Event::Reminded { hint, .. }] => hint.clone(),
        other => panic!("expected a reminder, got {other:?}"),
    };
    // The player ignores it: the second tap draws, the third reminds again with
    // the same play (still legal: same table, the hand only grew), and the move
    // finder was asked once.
    for round in 0..5 {
        let drew = g.apply(0, Action::Draw, 0).unwrap();
        assert!(
            matches!(drew[..], [Event::Drew { seat: 0, count: 1 }]),
            "{drew:?}"
        );
        match &g.apply(0, Action::Draw, 0).unwrap()[..] {
            [Event::Reminded { hint, .. }] => assert_eq!(*hint, first),
            other => panic!("round {round}: expected a reminder, got {other:?}"),
        }
    }
    assert_eq!(g.hand(0).unwrap().len(), 50);
    assert_eq!(g.meld_check_counts(), (5, 1));
    // A saved game answers alike (the shown hint is part of the turn).
    let saved = serde_json::to_string(&g).unwrap();
    let mut resumed: ManipulationGame = serde_json::from_str(&saved).unwrap();
    assert_eq!(resumed, g);
    g.apply(0, Action::Draw, 0).unwrap();
    resumed.apply(0, Action::Draw, 0).unwrap();
    assert_eq!(
        serde_json::to_string(&resumed).unwrap(),
        serde_json::to_string(&g).unwrap()
    );
    assert_eq!(
        resumed.meld_check_counts(),
        (0, 0),
        "the counters are not saved"
    );
}

#[test]
fn out_of_budget_the_draw_is_allowed() {
    // One hand card at a time: the finder is given the best-connected card,
    // which extends nothing, so no play is found within the budget even though
    // the hand has many.
    let mut g = big_game(Some(MeldCheckBudget { hand_cards: 1 }));
    let stock = g.stock_len();
    let events = g.apply(0, Action::Draw, 0).expect("the draw is answered");
    assert!(
        matches!(events[..], [Event::Drew { seat: 0, count: 1 }]),
        "{events:?}"
    );
    assert_eq!(g.stock_len(), stock - 1);
    assert_eq!(g.hand(0).unwrap().len(), 46);
    // The budget is saved with the game.
    let resumed: ManipulationGame =
        serde_json::from_str(&serde_json::to_string(&g).unwrap()).unwrap();
    assert_eq!(
        resumed.meld_check_budget(),
        MeldCheckBudget { hand_cards: 1 }
    );
}

#[test]
fn the_check_says_which_answer_it_is() {
    let hand = big_hand();
    let t = table("7H 7D 7S");
    let rules = RuleSet::Manipulation;
    // Within the budget: exact.
    let whole = meld_check::check(rules, 2, &t, &hand, MeldCheckBudget { hand_cards: 45 });
    assert!(matches!(whole, MeldCheck::Play(_)), "{whole:?}");
    // Over it: the sub-hand of the best-connected cards still holds a play.
    let sub = meld_check::check(rules, 2, &t, &hand, MeldCheckBudget::DEFAULT);
    let MeldCheck::Play(hint) = &sub else {
        panic!("{sub:?}")
    };
    let chosen = meld_check::sub_hand(rules, &t, &hand, 32);
    assert_eq!(chosen.len(), 32);
    assert!(hint.cards.iter().all(|c| chosen.contains(c)));
    // Budget 1: nothing found, and it says so (not "no play").
    let none = meld_check::check(rules, 2, &t, &hand, MeldCheckBudget { hand_cards: 1 });
    assert_eq!(none, MeldCheck::OutOfBudget);
    // A small hand with no play is proved so.
    let proof = meld_check::check(
        rules,
        2,
        &t,
        &cards("2S 4D 9H JS"),
        MeldCheckBudget::DEFAULT,
    );
    assert_eq!(proof, MeldCheck::NoPlay);
}

#[test]
fn the_sub_hand_prefers_cards_that_extend_the_table_or_have_partners() {
    let t = table("7H 7D 7S");
    let hand = cards("2S KD 7C 9H 5C 6C 4H");
    let chosen = meld_check::sub_hand(RuleSet::Manipulation, &t, &hand, 3);
    // 7C extends the set (2) and has 5C 6C within two ranks (2): first; 5C and 6C
    // have two partners each (each other and 7C).
    assert_eq!(chosen, cards("7C 5C 6C"));
}
