//! Frame time of the table with a full two-deck table (84 cards in 17 groups) and
//! 20 cards in hand, at 1920x1080: egui's layout pass (`step`) and the whole frame
//! (layout, tessellation, software rendering on Mesa's lavapipe and the read-back
//! of the image, which a real window does not pay). Figures in docs/BENCHMARKS.md.
//!
//!     cargo bench -p rami-ui --bench frame

use criterion::{Criterion, criterion_group, criterion_main};
use egui_kittest::Harness;
use rami_cards::{Card, parse_cards, parse_table};
use rami_engine::AnyGame;
use rami_game::{GameConfig, RuleSet};
use rami_manipulation::{ManipulationGame, Position};
use rami_ui::{RamiApp, Settings, Speed, egui};

/// Both decks laid out as runs 2-6 and 7-J in every suit, twice, plus four kings;
/// the twenty cards left (aces, queens, four kings) are in seat 0's hand.
fn full_table() -> AnyGame {
    let mut groups = Vec::new();
    for _copy in 0..2 {
        for s in ["S", "H", "D", "C"] {
            groups.push(format!("2{s} 3{s} 4{s} 5{s} 6{s}"));
            groups.push(format!("7{s} 8{s} 9{s} 10{s} J{s}"));
        }
    }
    groups.push("KS KH KD KC".to_string());
    let table = parse_table(&groups.join(" | ")).expect("bench table");
    let hand: Vec<Card> =
        parse_cards("AS AH AD AC AS AH AD AC QS QH QD QC QS QH QD QC KS KH KD KC")
            .expect("bench hand");
    let position = Position {
        hands: vec![hand, Vec::new()],
        table,
        stock: Vec::new(),
        current: 0,
        opened: Vec::new(),
    };
    let config = GameConfig::new(RuleSet::Manipulation, 2, 1);
    AnyGame::Manipulation(
        ManipulationGame::from_position(config, position).expect("bench position"),
    )
}

fn frame(c: &mut Criterion) {
    let mut app = RamiApp::new(Settings {
        speed: Speed::Instant,
        ..Settings::default()
    });
    app.start_game(full_table());
    let mut h = Harness::builder()
        .with_size(egui::vec2(1920.0, 1080.0))
        .build_ui_state(|ui, app: &mut RamiApp| app.show(ui), app);
    h.run();
    c.bench_function("ui/full table 1920x1080: layout (step)", |b| {
        b.iter(|| h.step())
    });
    if let Err(e) = h.render() {
        eprintln!("no renderer here ({e}): the whole-frame figure is skipped");
        return;
    }
    c.bench_function(
        "ui/full table 1920x1080: whole frame (step + render)",
        |b| {
            b.iter(|| {
                h.step();
                h.render().expect("render")
            })
        },
    );
}

criterion_group! {
    name = benches;
    config = Criterion::default().sample_size(20);
    targets = frame
}
criterion_main!(benches);
