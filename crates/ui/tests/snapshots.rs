//! Image snapshots of the main screens: Home, a table in mid-game and the
//! end-of-game panel, rendered headless by egui_kittest's wgpu renderer on
//! Mesa's software rasteriser (lavapipe, `apt-get install mesa-vulkan-drivers`).
//!
//! Refresh after a deliberate change to the look of the app:
//!
//!     UPDATE_SNAPSHOTS=1 cargo test -p rami-ui --test snapshots
//!
//! then look at the PNGs in `crates/ui/tests/snapshots/` before committing them.
//! A machine with no GPU adapter at all (not even a software one) skips the
//! comparison with a message, unless `RAMI_REQUIRE_SNAPSHOTS=1` (CI sets it).

use egui_kittest::{Harness, SnapshotError};
use rami_cards::parse_table;
use rami_engine::AnyGame;
use rami_game::{Action, Game, GameConfig, RuleSet};
use rami_ui::{RamiApp, egui};

mod common;
use common::{harness, position, quick_app};

/// `hands` and `table` dealt from the two decks of `rules`, seat 0 to play.
fn dealt(rules: RuleSet, players: usize, hands: &[&str], table: &str) -> AnyGame {
    position(
        GameConfig::new(rules, players, 7),
        rami_cards::deck(2, 0),
        hands,
        table,
        "",
    )
}

/// Renders and compares, or skips loudly where no adapter exists and CI is not
/// asking for snapshots.
fn snapshot(h: &mut Harness<'static, RamiApp>, name: &str) {
    // The synthetic pointer would otherwise leave a hover highlight in the image.
    h.event(egui::Event::PointerGone);
    h.run();
    match h.try_snapshot(name) {
        Ok(()) => {}
        Err(SnapshotError::RenderError { err })
            if std::env::var_os("RAMI_REQUIRE_SNAPSHOTS").is_none() =>
        {
            eprintln!(
                "snapshot {name} skipped: no renderer here ({err}); install mesa-vulkan-drivers"
            );
        }
        Err(e) => panic!("snapshot {name}: {e}"),
    }
}

#[test]
fn home() {
    let mut h = harness(quick_app());
    h.run();
    snapshot(&mut h, "home");
}

#[test]
fn table_in_mid_game() {
    let game = dealt(
        RuleSet::Manipulation,
        3,
        &[
            "2H 4H 7S 8S 9S JS KD KC 5C 6C AS 3D",
            "3S 5D 10S KS 4D 6D 2S",
            "2C 2D 8D 10C QH QS 7D 7H 4S",
        ],
        "3H 4H 5H 6H | 9D 9S 9C | JC QC KC AC | 5S 5D 5H 5C | 10D JD QD | 7C 8C 9C 10C",
    );
    let mut app = quick_app();
    app.start_game(game);
    let mut h = harness(app);
    h.run();
    snapshot(&mut h, "table_mid_game");
}

#[test]
fn end_of_game() {
    // Machiavelli is played in one hand: going out ends the game.
    let mut game = dealt(
        RuleSet::Machiavelli,
        2,
        &["7H 8H 9H", "3S 5D 9C JD KS 4H 6C"],
        "QS QD QC",
    );
    let table = parse_table("QS QD QC | 7H 8H 9H").expect("test table");
    let events = game
        .apply(0, Action::Done { table }, 0)
        .expect("seat 0 goes out");
    assert!(game.is_terminal(), "{events:?}");
    let mut app = quick_app();
    app.start_game(game);
    let mut h = harness(app);
    h.run();
    snapshot(&mut h, "end_of_game");
}
