//! What the UI test files share: the harness at the app's usual size, an app
//! whose computer plays at once, cards from notation, positions dealt by hand.
#![allow(dead_code)]

use egui_kittest::Harness;
use rami_cards::{Card, parse_cards, parse_table};
use rami_engine::AnyGame;
use rami_game::GameConfig;
use rami_manipulation::{ManipulationGame, Position};
use rami_ui::{RamiApp, Settings, Speed, egui};

pub fn harness(app: RamiApp) -> Harness<'static, RamiApp> {
    Harness::builder()
        .with_size(egui::vec2(1280.0, 800.0))
        .build_ui_state(|ui, app: &mut RamiApp| app.show(ui), app)
}

pub fn quick_app() -> RamiApp {
    RamiApp::new(Settings {
        speed: Speed::Instant,
        ..Settings::default()
    })
}

pub fn cards(text: &str) -> Vec<Card> {
    parse_cards(text).expect("test cards")
}

/// A manipulation position: `hands` (seat 0 first), the table, seat 0 to play,
/// and the rest of the rule set's deck as the stock (top first, `top` first
/// of all).
pub fn position(
    config: GameConfig,
    deck: Vec<Card>,
    hands: &[&str],
    table: &str,
    top: &str,
) -> AnyGame {
    let hands: Vec<Vec<Card>> = hands.iter().map(|h| cards(h)).collect();
    let table = if table.is_empty() {
        Vec::new()
    } else {
        parse_table(table).expect("test table")
    };
    let mut stock = deck;
    let top = cards(top);
    for c in hands
        .iter()
        .flatten()
        .chain(table.iter().flatten())
        .chain(top.iter())
    {
        let i = stock.iter().position(|s| s == c).expect("card in deck");
        stock.remove(i);
    }
    let mut full = top;
    full.extend(stock);
    let position = Position {
        opened: Vec::new(),
        hands,
        table,
        stock: full,
        current: 0,
    };
    AnyGame::Manipulation(ManipulationGame::from_position(config, position).expect("position"))
}
