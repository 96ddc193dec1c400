//! The app driven headless through its accessible names (egui_kittest).

use egui_kittest::Harness;
use egui_kittest::kittest::Queryable as _;
use rami_cards::{Card, parse_table};
use rami_engine::AnyGame;
use rami_game::{Game, GameConfig, RuleSet};
use rami_manipulation::{ManipulationGame, Position};
use rami_ui::{RamiApp, Screen, Settings, Speed, egui};

mod common;
use common::{cards, harness, position, quick_app};

/// Two players; seat 0 holds 7H 8H 9H 2C, the table holds QS QD QC, seat 1 holds
/// cards that make nothing together with the table.
fn known_position() -> AnyGame {
    let config = GameConfig::new(RuleSet::Manipulation, 2, 7);
    let hands = vec![cards("7H 8H 9H 2C"), cards("3S 5D 9C JD KS 4H 6C")];
    let table = parse_table("QS QD QC").expect("test table");
    let mut stock = rami_cards::deck(2, 0);
    for c in hands.iter().flatten().chain(table.iter().flatten()) {
        let i = stock.iter().position(|s| s == c).expect("card in deck");
        stock.remove(i);
    }
    let position = Position {
        hands,
        table,
        stock,
        current: 0,
        opened: Vec::new(),
    };
    AnyGame::Manipulation(ManipulationGame::from_position(config, position).expect("position"))
}

fn at_table(game: AnyGame) -> Harness<'static, RamiApp> {
    let mut app = quick_app();
    app.start_game(game);
    let mut h = harness(app);
    h.run();
    h
}

/// The New game screen, opened from Home; the game to come dealt from `seed`.
fn at_new_game(seed: u64) -> Harness<'static, RamiApp> {
    new_game_screen(quick_app(), seed)
}

/// [`at_new_game`] for an app with settings of its own.
fn new_game_screen(mut app: RamiApp, seed: u64) -> Harness<'static, RamiApp> {
    app.next_seed = Some(seed);
    let mut h = harness(app);
    h.run();
    h.get_by_label("Play against the computer").click();
    h.run();
    h
}

#[test]
fn start_a_manipulation_game_from_home() {
    let mut h = at_new_game(42);
    h.get_by_label("Manipulation").click();
    h.get_by_label("Start").click();
    h.run();
    assert_eq!(h.state().screen, Screen::Table);
    let game = h.state().game().expect("a game");
    assert_eq!(game.rules(), RuleSet::Manipulation);
    assert!(h.query_by_label("Your hand").is_some());
    // Seven cards dealt, each with its name ("7 of hearts").
    let hand = game.view(0).hand;
    assert_eq!(hand.len(), 7);
    let name = rami_ui::cards::card_name(rami_ui::Lang::En, hand[0]);
    assert!(!h.get_all_by_label(&name).collect::<Vec<_>>().is_empty());
}

#[test]
fn a_legal_play_by_tap_to_select_tap_to_place_then_done() {
    let mut h = at_table(known_position());
    h.get_by_label("7 of hearts").click();
    h.get_by_label("8 of hearts").click();
    h.get_by_label("9 of hearts").click();
    h.run();
    h.get_by_label("New group").click();
    h.run();
    // The copy shows the new run as group 2 before anything is played.
    assert!(h.query_by_label("8 of hearts, group 2").is_some());
    h.get_by_label("Done").click();
    h.run();
    let game = h.state().game().expect("a game");
    let view = game.view(0);
    assert_eq!(view.hand, cards("2C"));
    assert!(view.table.contains(&cards("7H 8H 9H")), "{:?}", view.table);
    // The computer has played its turn (instant speed): it is our turn again.
    assert_eq!(game.current_player(), Some(0));
    assert!(h.query_by_label("Draw").is_some());
}

#[test]
fn a_refused_done_shows_the_reason_on_the_group() {
    let mut h = at_table(known_position());
    h.get_by_label("2 of clubs").click();
    h.get_by_label("New group").click();
    h.run();
    // Marked live before Done.
    assert!(
        h.query_by_label_contains("Group 2: a group needs at least 3 cards")
            .is_some()
    );
    h.get_by_label("Done").click();
    h.run();
    assert!(
        h.query_by_label_contains("Refused: group 2 is not valid")
            .is_some()
    );
    // Nothing was played.
    let view = h.state().game().expect("a game").view(0);
    assert_eq!(view.hand.len(), 4);
    assert_eq!(view.table.len(), 1);
}

#[test]
fn reset_restores_the_table_and_the_hand() {
    let mut h = at_table(known_position());
    h.get_by_label("7 of hearts").click();
    h.get_by_label("Group 1").click();
    h.run();
    assert!(h.query_by_label("7 of hearts, group 1").is_some());
    assert!(h.query_by_label("7 of hearts").is_none());
    assert!(
        h.query_by_label_contains("Group 1: the cards are neither")
            .is_some()
    );
    h.get_by_label("Reset").click();
    h.run();
    assert!(h.query_by_label("7 of hearts").is_some());
    assert!(h.query_by_label("7 of hearts, group 1").is_none());
    assert!(h.query_by_label_contains("Group 1: ").is_none());
}

#[test]
fn a_card_dragged_onto_new_group() {
    let mut h = at_table(known_position());
    let from = h.get_by_label("2 of clubs").rect().center();
    let to = h.get_by_label("New group").rect().center();
    h.hover_at(from);
    h.run();
    h.drag_at(from);
    h.run();
    for k in 1..=6 {
        h.hover_at(from + (to - from) * (k as f32 / 6.0));
        h.step();
    }
    h.drop_at(to);
    h.run();
    assert!(h.query_by_label("2 of clubs, group 2").is_some());
}

#[test]
fn draw_with_a_play_available_shows_the_hint() {
    let mut h = at_table(known_position());
    h.get_by_label("Draw").click();
    h.run();
    assert!(h.query_by_label_contains("You can still play").is_some());
}

#[test]
fn switching_language_changes_the_labels() {
    let mut h = harness(quick_app());
    h.run();
    h.get_by_label("Settings").click();
    h.run();
    h.get_by_label("Français").click();
    h.run();
    h.get_by_label("Retour").click();
    h.run();
    assert!(h.query_by_label("Jouer contre l'ordinateur").is_some());
    assert!(h.query_by_label("Play against the computer").is_none());
    h.get_by_label("Réglages").click();
    h.run();
    h.get_by_label("Italiano").click();
    h.run();
    assert!(h.query_by_label("Indietro").is_some());
}

#[test]
fn nearby_and_rules_screens_open() {
    let mut h = harness(quick_app());
    h.run();
    h.get_by_label("Play together nearby").click();
    h.run();
    assert!(h.query_by_label("Host a table").is_some());
    assert!(h.query_by_label("Join a table").is_some());
    h.get_by_label("Back").click();
    h.run();
    h.get_by_label("Rules").click();
    h.run();
    h.get_by_label("Rummy 500").click();
    h.run();
    assert!(h.query_by_label_contains("dig").is_some());
}

#[test]
fn a_rummy_500_turn_draw_then_discard() {
    let mut h = at_new_game(5);
    h.get_by_label("Rummy 500").click();
    h.run();
    h.get_by_label("2").click();
    h.get_by_label("Start").click();
    h.run();
    let view = h.state().game().expect("a game").view(0);
    assert_eq!(view.config.rules, RuleSet::Rummy500);
    assert_eq!(view.current, Some(0));
    assert!(h.query_by_label("Discard pile").is_some());
    h.get_by_label("Draw").click();
    h.run();
    let view = h.state().game().expect("a game").view(0);
    assert_eq!(view.hand.len(), 14);
    // Discard the first card of the hand as shown.
    let card = {
        let mut hand = view.hand.clone();
        hand.sort_by_key(|c| {
            (
                c.suit().map_or(9, |s| s.index()),
                c.rank().map_or(99, |r| r.value()),
            )
        });
        hand[0]
    };
    let name = rami_ui::cards::card_name(rami_ui::Lang::En, card);
    h.get_all_by_label(&name).next().expect("hand card").click();
    h.run();
    h.get_by_label("Discard selected").click();
    h.run();
    let game = h.state().game().expect("a game");
    // The computer has played too; it is our turn again with 13 cards.
    assert_eq!(game.current_player(), Some(0));
    assert_eq!(game.view(0).hand.len(), 13);
}

/// eframe's storage, in memory.
#[derive(Default)]
struct MemStorage(std::collections::HashMap<String, String>);

impl eframe::Storage for MemStorage {
    fn get_string(&self, key: &str) -> Option<String> {
        self.0.get(key).cloned()
    }
    fn set_string(&mut self, key: &str, value: String) {
        self.0.insert(key.to_string(), value);
    }
    fn remove_string(&mut self, key: &str) {
        self.0.remove(key);
    }
    fn flush(&mut self) {}
}

#[test]
fn the_language_chosen_in_settings_is_kept_between_runs() {
    let mut h = harness(quick_app());
    h.run();
    h.get_by_label("Settings").click();
    h.run();
    h.get_by_label("Italiano").click();
    h.run();
    let mut storage = MemStorage::default();
    eframe::App::save(h.state_mut(), &mut storage);
    // Next run: the stored choice wins over the system's language.
    let app = RamiApp::from_storage(Some(&storage));
    assert_eq!(app.settings.lang, rami_ui::Lang::It);
    let mut h = harness(app);
    h.run();
    assert!(h.query_by_label("Gioca contro il computer").is_some());
    // A first run (nothing stored) takes the system's language.
    let first = RamiApp::from_storage(None);
    assert_eq!(first.settings.lang, rami_ui::Lang::system());
}

#[test]
fn an_unfinished_game_is_saved_and_resumed_from_home() {
    let mut h = at_table(known_position());
    h.get_by_label("Draw").click();
    h.run();
    h.get_by_label("Draw").click();
    h.run();
    let before = h.state().game().expect("a game").save();
    let mut storage = MemStorage::default();
    eframe::App::save(h.state_mut(), &mut storage);
    drop(h);

    let app = RamiApp::from_storage(Some(&storage));
    assert!(app.game().is_none());
    let mut h = harness(app);
    h.run();
    h.get_by_label("Resume the game").click();
    h.run();
    assert_eq!(h.state().screen, Screen::Table);
    let game = h.state().game().expect("the saved game");
    assert_eq!(game.save(), before);
    assert!(h.query_by_label("Your hand").is_some());
}

#[test]
fn the_computer_level_is_chosen_in_new_game_and_kept_with_the_saved_game() {
    let mut h = at_new_game(42);
    // Quick by default.
    h.get_by_label("Start").click();
    h.run();
    assert_eq!(
        h.state().computer_level(),
        Some(rami_game::BotLevel::Greedy)
    );
    h.get_by_label("Home").click();
    h.run();
    h.get_by_label("Play against the computer").click();
    h.run();
    h.get_by_label("best (rearranges the table)").click();
    h.get_by_label("Start").click();
    h.run();
    assert_eq!(h.state().computer_level(), Some(rami_game::BotLevel::Best));
    // The next run resumes the game with the same level.
    let mut storage = MemStorage::default();
    eframe::App::save(h.state_mut(), &mut storage);
    drop(h);
    let mut h = harness(RamiApp::from_storage(Some(&storage)));
    h.run();
    h.get_by_label("Resume the game").click();
    h.run();
    assert_eq!(h.state().computer_level(), Some(rami_game::BotLevel::Best));
}

fn drag(h: &mut Harness<'static, RamiApp>, from: egui::Pos2, to: egui::Pos2) {
    h.hover_at(from);
    h.run();
    h.drag_at(from);
    h.run();
    for k in 1..=6 {
        h.hover_at(from + (to - from) * (k as f32 / 6.0));
        h.step();
    }
    h.drop_at(to);
    h.run();
}

#[test]
fn the_hand_is_reordered_by_dragging_and_keeps_its_order_between_turns() {
    let mut h = at_table(known_position());
    assert_eq!(h.state().shown_hand(), Some(&cards("7H 8H 9H 2C")[..]));
    // Drag the 2 of clubs onto the 7 of hearts: it takes its place.
    let from = h.get_by_label("2 of clubs").rect().center();
    let to = h.get_by_label("7 of hearts").rect().center();
    drag(&mut h, from, to);
    assert_eq!(h.state().shown_hand(), Some(&cards("2C 7H 8H 9H")[..]));
    // Nothing was played: the table is unchanged.
    assert!(h.query_by_label("2 of clubs, group 2").is_none());
    // Draw twice (the reminder, then the card); the computer plays; the order
    // stays, the new card comes last.
    h.get_by_label("Draw").click();
    h.run();
    h.get_by_label("Draw").click();
    h.run();
    let shown = h.state().shown_hand().expect("a hand").to_vec();
    assert_eq!(shown.len(), 5);
    assert_eq!(&shown[..4], &cards("2C 7H 8H 9H")[..]);
    // The sort button still sorts.
    h.get_by_label("Sort by suit").click();
    h.run();
    let sorted = h.state().shown_hand().expect("a hand").to_vec();
    assert_ne!(sorted[..4], shown[..4]);
}

/// A Rami game for three against the computer from the New game screen, with
/// the Claim button and a 60 s move timer; computer players at the slow pace
/// (each frame of the harness is a quarter of a second).
fn rami_with_claim_and_timer(seed: u64) -> Harness<'static, RamiApp> {
    let app = RamiApp::new(Settings {
        speed: Speed::Slow,
        ..Settings::default()
    });
    let mut h = new_game_screen(app, seed);
    h.get_by_label("Rami").click();
    h.run();
    h.get_by_label("3").click();
    h.get_by_label("Claim button").click();
    h.get_by_label("60 s").click();
    h.run();
    h.get_by_label("Start").click();
    h.run();
    h
}

#[test]
fn rami_shows_the_move_timer_and_the_claim_window() {
    let mut h = rami_with_claim_and_timer(11);
    let view = h.state().game().expect("a game").view(0);
    assert_eq!(view.config.rules, RuleSet::Rami);
    assert!(view.move_deadline.is_some(), "the first move timer started");
    assert_eq!(view.current, Some(0));
    assert!(h.query_by_label("Your move: 60 s left").is_some());
    // Time passes: the number goes down.
    for _ in 0..8 {
        h.step();
    }
    h.run();
    assert!(h.query_by_label("Your move: 58 s left").is_some());

    // Draw, then discard the first card shown.
    h.get_by_label("Draw").click();
    h.run();
    let first = h.state().shown_hand().expect("a hand")[0];
    let name = rami_ui::cards::card_name(rami_ui::Lang::En, first);
    h.get_all_by_label(&name).next().expect("hand card").click();
    h.run();
    h.get_by_label("Discard selected").click();
    h.run();
    assert!(
        h.query_by_label("Computer 1 is playing: 60 s left")
            .is_some()
    );
    assert!(h.query_by_label("Claim").is_none());

    // Computer 1 moves and discards; before Computer 2 draws, the discard may
    // be claimed: the button and its window show.
    let mut steps = 0;
    while h.query_by_label("Claim").is_none() {
        steps += 1;
        assert!(steps < 60, "no claim window opened");
        h.step();
    }
    h.run();
    assert!(h.query_by_label_contains("can be claimed for").is_some());
    let before = h.state().game().expect("a game").view(0).hand.len();
    h.get_by_label("Claim").click();
    h.run();
    let view = h.state().game().expect("a game").view(0);
    // The card and two penalty cards; our turn to meld and discard.
    assert_eq!(view.hand.len(), before + 3);
    assert_eq!(view.current, Some(0));
    assert!(h.query_by_label("Discard selected").is_some());
}

/// Rami for four with the Claim button: computer 3 has just discarded K♠ (at
/// t = 0) and the player, seat 0, is next; computer 1 holds K♥ K♦, the only
/// cards in its hand that go together.
fn computer_3_discarded_a_king() -> AnyGame {
    let mut config = GameConfig::new(RuleSet::Rami, 4, 1);
    config.options.claim = true;
    let hands = ["2S", "KH KD 2C 8C QC 4S 7S 10S 6D 9D 3H JH 3S", "4D", "KS"];
    let hands: Vec<Vec<Card>> = hands.iter().map(|h| cards(h)).collect();
    config.deck =
        Some(rami_discard::scripted_deck(&config, &hands, &cards("5H AD 5D 5C")).expect("a deal"));
    let mut game = rami_engine::new_game(config).expect("a Rami game");
    for (seat, card) in [(0, "2S"), (1, "3S"), (2, "4D"), (3, "KS")] {
        game.apply(seat, rami_game::Action::Draw, 0).expect("draw");
        let card = cards(card)[0];
        game.apply(seat, rami_game::Action::Discard { card }, 0)
            .expect("discard");
    }
    game
}

#[test]
fn a_computer_claims_the_discard_the_player_leaves_half_way_through_the_window() {
    let mut app = RamiApp::new(Settings {
        speed: Speed::Slow,
        ..Settings::default()
    });
    app.start_game(computer_3_discarded_a_king());
    let mut h = harness(app);
    let hand = |h: &Harness<'static, RamiApp>, seat| {
        h.state().game().expect("a game").view(seat).hand.len()
    };
    // Frame by frame (the harness's own clock, the game's `now`): the player,
    // next, may draw or take the king; computer 1 claims it once the window
    // is half over.
    loop {
        h.step();
        let time = h.ctx.input(|i| i.time);
        let game = h.state().game().expect("a game");
        if game.current_player() != Some(0) {
            assert!(time >= 1.5, "claimed at {time} s, before its moment");
            break;
        }
        assert!(
            game.view(0).claim_deadline.is_some(),
            "no claim in the window"
        );
        assert!(h.query_by_label_contains("claimed").is_none());
    }
    let king = rami_ui::cards::card_name(rami_ui::Lang::En, cards("KS")[0]);
    let line = format!("Computer 1 claimed {king} from the discard pile.");
    assert!(h.query_by_label(&line).is_some(), "no `{line}`");
    let game = h.state().game().expect("a game");
    assert_eq!(game.current_player(), Some(1), "computer 1 plays now");
    assert_eq!(hand(&h, 1), 16, "the king and two penalty cards");
    assert!(game.view(0).claim_deadline.is_none());
    // At the computers' pace it melds the kings, then discards.
    let mut steps = 0;
    while h.state().game().expect("a game").view(0).table.is_empty() {
        steps += 1;
        assert!(steps < 40, "computer 1 never melded");
        h.step();
    }
    let table = h.state().game().expect("a game").view(0).table;
    assert!(
        table.iter().any(|g| g.contains(&cards("KS")[0])),
        "{table:?}"
    );
}

/// The log's and the hand's end lines about the player are conjugated for
/// "you" in French and Italian ("Vous avez pioché", not "Vous a pioché").
#[test]
fn the_log_speaks_to_the_player_in_their_language() {
    for (lang, draw, new_group, knock, drew, knocked) in [
        (
            rami_ui::Lang::Fr,
            "Piocher",
            "Nouveau groupe",
            "Toquer",
            "Vous avez pioché 1.",
            "Vous avez toqué.",
        ),
        (
            rami_ui::Lang::It,
            "Pesca",
            "Nuovo gruppo",
            "Bussa",
            "Hai pescato 1.",
            "Hai bussato.",
        ),
    ] {
        let game = carousel_knock_in_reach();
        let mut app = quick_app();
        app.settings.lang = lang;
        app.start_game(game);
        let mut h = harness(app);
        h.run();
        h.get_by_label(draw).click();
        h.run();
        assert!(h.query_by_label(drew).is_some(), "{lang:?}: no `{drew}`");
        for card in cards("7H 8H 9H") {
            h.get_by_label(&rami_ui::cards::card_name(lang, card))
                .click();
        }
        h.get_by_label(new_group).click();
        h.run();
        h.get_by_label(knock).click();
        h.run();
        assert!(
            h.query_all_by_label(knocked).next().is_some(),
            "{lang:?}: no `{knocked}`"
        );
    }
}

#[test]
fn a_refusal_is_shown_in_the_players_language() {
    for (lang, new_group, done, live, refused) in [
        (
            rami_ui::Lang::Fr,
            "Nouveau groupe",
            "Valider",
            "Groupe 2 : un groupe a au moins 3 cartes",
            "Refusé : le groupe 2 n'est pas valable : un groupe a au moins 3 cartes",
        ),
        (
            rami_ui::Lang::It,
            "Nuovo gruppo",
            "Fatto",
            "Gruppo 2: un gruppo ha almeno 3 carte",
            "Rifiutato: il gruppo 2 non è valido: un gruppo ha almeno 3 carte",
        ),
    ] {
        let mut app = RamiApp::new(Settings {
            lang,
            speed: Speed::Instant,
            ..Settings::default()
        });
        app.start_game(known_position());
        let mut h = harness(app);
        h.run();
        let two = rami_ui::cards::card_name(lang, cards("2C")[0]);
        h.get_by_label(&two).click();
        h.get_by_label(new_group).click();
        h.run();
        assert!(h.query_by_label_contains(live).is_some(), "{lang:?}: live");
        h.get_by_label(done).click();
        h.run();
        assert!(
            h.query_by_label_contains(refused).is_some(),
            "{lang:?}: refused"
        );
    }
}

#[test]
fn give_up_takes_two_taps_restores_the_move_and_draws_three() {
    let mut config = GameConfig::new(RuleSet::Machiavelli, 2, 3);
    config.options.unfinished_move = rami_game::UnfinishedMove::TakeBackDrawThree;
    let game = position(
        config,
        rami_cards::deck(2, 0),
        &["7H 8H 9H 2C", "3S 5D 9C JD KS 4H 6C"],
        "QS QD QC",
        "",
    );
    let mut h = at_table(game);
    assert!(h.query_by_label("Give up (+3)").is_none());
    h.get_by_label("2 of clubs").click();
    h.get_by_label("Group 1").click();
    h.run();
    // Once the table is touched, Reset becomes Give up (+3).
    assert!(h.query_by_label("Reset").is_none());
    h.get_by_label("Give up (+3)").click();
    h.run();
    assert!(h.query_by_label_contains("Tap Give up again").is_some());
    assert_eq!(h.state().game().expect("a game").view(0).hand.len(), 4);
    h.get_by_label("Give up (+3)").click();
    h.run();
    let view = h.state().game().expect("a game").view(0);
    // The hand is back, with three more cards; the table is as it was.
    assert_eq!(view.hand.len(), 7);
    assert!(view.hand.contains(&cards("2C")[0]));
    assert_eq!(view.table, vec![cards("QS QD QC")]);
}

/// Carousel for two, the player to draw the 3 of clubs: then 7-8-9 of hearts
/// go down and 2 and 3 of clubs (5 points) are left, so Knock is offered.
fn carousel_knock_in_reach() -> AnyGame {
    position(
        GameConfig::new(RuleSet::Carousel, 2, 3),
        rami_cards::deck(1, 1),
        &["7H 8H 9H 2C", "3S 5D 9C JD KS 4H 6C"],
        "QS QD QC",
        "3C",
    )
}

#[test]
fn carousel_knock_ends_the_hand_with_five_points_or_fewer() {
    let mut h = at_table(carousel_knock_in_reach());
    assert!(h.query_by_label("Knock").is_none());
    h.get_by_label("Draw").click();
    h.run();
    assert!(h.query_by_label("3 of clubs").is_some());
    for name in ["7 of hearts", "8 of hearts", "9 of hearts"] {
        h.get_by_label(name).click();
    }
    h.get_by_label("New group").click();
    h.run();
    // 2 and 3 of clubs left: 5 points, so Knock is offered.
    h.get_by_label("Knock").click();
    h.run();
    assert!(h.query_by_label("Hand 1 is over").is_some());
    assert!(h.query_all_by_label("You knocked.").next().is_some());
    let view = h.state().game().expect("a game").view(0);
    let last = view.last_hand.expect("the hand's result");
    assert_eq!(last.end, rami_game::HandEnd::Knocked { seat: 0 });
    // The next hand waits until the player has read the scores.
    h.get_by_label("Next hand").click();
    h.run();
    assert!(h.query_by_label("Your hand").is_some());
}

#[test]
fn a_joker_that_fits_two_places_is_named_by_the_player() {
    let game = position(
        GameConfig::new(RuleSet::Carousel, 2, 3),
        rami_cards::deck(1, 1),
        &["7H 8H * 2C", "3S 5D 9C JD KS 4H 6C"],
        "QS QD QC",
        "3C",
    );
    let mut h = at_table(game);
    h.get_by_label("Draw").click();
    h.run();
    for name in ["7 of hearts", "8 of hearts", "Joker"] {
        h.get_by_label(name).click();
    }
    h.get_by_label("New group").click();
    h.run();
    h.get_by_label("Done").click();
    h.run();
    assert!(
        h.query_by_label("Which card does the joker in group 2 stand for?")
            .is_some()
    );
    h.get_by_label("9 of hearts").click();
    h.run();
    let view = h.state().game().expect("a game").view(0);
    let named = Card::named_joker(cards("9H")[0].face().expect("a face"));
    assert!(
        view.table
            .iter()
            .any(|g| g.contains(&named) && g.len() == 3),
        "{:?}",
        view.table
    );
    assert!(h.query_by_label("Joker as 9 of hearts, group 2").is_some());
}

#[test]
fn the_end_of_the_game_shows_the_winner_and_the_scores() {
    let game = position(
        GameConfig::new(RuleSet::Machiavelli, 2, 3),
        rami_cards::deck(2, 0),
        &["7H 8H 9H QH", "3S 5D 9C JD KS 4H 6C"],
        "QS QD QC",
        "",
    );
    let mut h = at_table(game);
    h.get_by_label("Queen of hearts").click();
    h.get_by_label("Group 1").click();
    h.run();
    for name in ["7 of hearts", "8 of hearts", "9 of hearts"] {
        h.get_by_label(name).click();
    }
    h.get_by_label("New group").click();
    h.run();
    h.get_by_label("Done").click();
    h.run();
    assert!(h.state().game().expect("a game").is_terminal());
    assert!(h.query_all_by_label("Game over").next().is_some());
    assert!(h.query_by_label("Winner: You").is_some());
    assert!(h.query_by_label("You went out.").is_some());
    // The breakdown: the computer's cards left are listed.
    assert!(h.query_by_label_contains("King of spades").is_some());
    // Nothing to resume any more; Play again opens New game.
    h.get_by_label("Play again").click();
    h.run();
    assert_eq!(h.state().screen, Screen::NewGame);
}

/// A two-player Rummy 500 deal (seven cards each) from an explicit deck: seat 0
/// gets `mine`, seat 1 `theirs`, `up` starts the discard pile and `next` is the
/// first card drawn.
fn rummy500_deal(mine: &str, theirs: &str, up: &str, next: &str) -> AnyGame {
    let mut config = GameConfig::new(RuleSet::Rummy500, 2, 1);
    config.options.two_player_hand = 7;
    let (mine, theirs) = (cards(mine), cards(theirs));
    let mut deck: Vec<Card> = mine
        .iter()
        .zip(&theirs)
        .flat_map(|(a, b)| [*a, *b])
        .collect();
    deck.extend(cards(up));
    deck.extend(cards(next));
    let rest: Vec<Card> = rami_cards::deck(1, 0)
        .into_iter()
        .filter(|c| !deck.contains(c))
        .collect();
    // The stock is drawn from the end of what is left after the deal.
    deck.extend(rest.into_iter().rev());
    config.deck = Some(deck);
    rami_engine::new_game(config).expect("a Rummy 500 deal")
}

#[test]
fn rummy_500_dig_a_deeper_card_then_lay_off_and_discard() {
    let game = rummy500_deal("5H 6H 8H 9S 9D 2C 4S", "KS KD QC JC 10S 8D 3C", "7H", "KC");
    let mut h = at_table(game);
    let view = h.state().game().expect("a game").view(0);
    assert_eq!(view.discard, cards("7H"));
    assert_eq!(view.current, Some(0));
    // First turn: draw (the king of clubs), discard the 2 of clubs.
    h.get_by_label("Draw").click();
    h.run();
    assert!(h.query_by_label("King of clubs").is_some());
    h.get_by_label("2 of clubs").click();
    h.get_by_label("Discard selected").click();
    h.run();
    // The computer has played; the 7 of hearts is still at the bottom of the
    // pile, under at least the 2 of clubs.
    let view = h.state().game().expect("a game").view(0);
    assert_eq!(view.current, Some(0));
    assert_eq!(view.discard.first(), Some(&cards("7H")[0]));
    let above = view.discard.len() - 1;
    assert!(above >= 1, "{:?}", view.discard);
    // Dig: tap the 7 of hearts in the pile, select the 5 and 6, Dig and meld.
    h.get_by_label("7 of hearts, discard pile").click();
    h.run();
    assert!(h.query_by_label("Dig and meld").is_some());
    h.get_by_label("5 of hearts").click();
    h.get_by_label("6 of hearts").click();
    h.get_by_label("Dig and meld").click();
    h.run();
    let view = h.state().game().expect("a game").view(0);
    assert!(view.table.contains(&cards("5H 6H 7H")), "{:?}", view.table);
    assert!(view.discard.is_empty());
    // The cards above the 7 came to the hand; the 5 and 6 went to the meld.
    assert_eq!(view.hand.len(), 7 - 2 + above);
    // Lay off the 8 of hearts on that meld by tapping its group.
    let ours = view
        .table
        .iter()
        .position(|g| g.contains(&cards("7H")[0]))
        .expect("our meld");
    h.get_by_label("8 of hearts").click();
    h.get_by_label(&format!("Group {}", ours + 1)).click();
    h.run();
    let view = h.state().game().expect("a game").view(0);
    assert!(
        view.table.contains(&cards("5H 6H 7H 8H")),
        "{:?}",
        view.table
    );
    // Discard to end the turn.
    h.get_by_label("4 of spades").click();
    h.get_by_label("Discard selected").click();
    h.run();
    let view = h.state().game().expect("a game").view(0);
    assert!(!view.hand.contains(&cards("4S")[0]));
}

#[test]
fn meld_selected_puts_down_several_groups_at_once() {
    let game = rummy500_deal("5H 6H 7H 9S 9D 9C 2C", "KS KD QC JC 10S 8D 3C", "4D", "KC");
    let mut h = at_table(game);
    h.get_by_label("Draw").click();
    h.run();
    for name in [
        "5 of hearts",
        "9 of spades",
        "6 of hearts",
        "9 of diamonds",
        "7 of hearts",
        "9 of clubs",
    ] {
        h.get_by_label(name).click();
    }
    h.get_by_label("Meld selected").click();
    h.run();
    let view = h.state().game().expect("a game").view(0);
    assert_eq!(view.table.len(), 2, "{:?}", view.table);
    assert!(view.table.contains(&cards("5H 6H 7H")));
    assert_eq!(view.hand, cards("2C KC"));
}

#[test]
fn the_rules_read_in_french_and_italian() {
    for (lang, rules, word) in [
        (rami_ui::Lang::Fr, "Règles", "en fouillant"),
        (rami_ui::Lang::It, "Regole", "scavando"),
    ] {
        let mut h = harness(RamiApp::new(Settings {
            lang,
            ..Settings::default()
        }));
        h.run();
        h.get_by_label(rules).click();
        h.run();
        h.get_by_label("Rummy 500").click();
        h.run();
        assert!(h.query_by_label_contains(word).is_some(), "{lang:?}");
    }
}
