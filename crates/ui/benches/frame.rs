//! Frame time of the table with a full two-deck table (84 cards in 17 groups) and
//! 20 cards in hand, at 1920x1080: egui's layout pass (`step`) and the whole frame
//! (layout, tessellation, software rendering on Mesa's lavapipe and the read-back
//! of the image, which a real window does not pay). Figures in docs/BENCHMARKS.md.
//!
//!     cargo bench -p rami-ui --bench frame

use criterion::{Criterion, criterion_group, criterion_main};
use egui_kittest::Harness;
use rami_ui::{RamiApp, Settings, Speed, egui};

fn frame(c: &mut Criterion) {
    let mut app = RamiApp::new(Settings {
        speed: Speed::Instant,
        ..Settings::default()
    });
    app.start_game(rami_ui::probe::full_table());
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
