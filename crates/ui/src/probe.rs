//! Measurement probes of the desktop window (docs/BENCHMARKS.md), switched on
//! by environment variables so the real binary, window and renderer are timed.
//!
//! - `RAMI_CLOSE_AFTER_FIRST_FRAME`: close once the first frame is on screen
//!   (cold start to first frame, timed from outside with `hyperfine`).
//! - `RAMI_FRAME_PROBE=N`: open a full table (84 cards in 17 groups, 20 in
//!   hand) at 1920x1080, repaint it N times as fast as possible (no vsync), print
//!   per-frame timings and percentiles on standard output, close.
//!
//! Both save nothing: a measurement never touches the player's settings or
//! saved game.

use crate::{RamiApp, Settings, Speed, egui};
use rami_cards::{Card, parse_cards, parse_table};
use rami_engine::AnyGame;
use rami_game::{GameConfig, RuleSet};
use rami_manipulation::{ManipulationGame, Position};
use std::time::Instant;

pub(crate) const FIRST_FRAME_PROBE: &str = "RAMI_CLOSE_AFTER_FIRST_FRAME";
pub(crate) const FRAME_PROBE: &str = "RAMI_FRAME_PROBE";
const FRAME_PROBE_HOME: &str = "RAMI_FRAME_PROBE_HOME";

/// Both decks laid out as runs 2-6 and 7-J in every suit, twice, plus four
/// kings (84 cards, 17 groups); the twenty cards left (aces, queens, four kings)
/// in seat 0's hand: the largest table the frame-time target names.
pub fn full_table() -> AnyGame {
    let mut groups = Vec::new();
    for _copy in 0..2 {
        for s in ["S", "H", "D", "C"] {
            groups.push(format!("2{s} 3{s} 4{s} 5{s} 6{s}"));
            groups.push(format!("7{s} 8{s} 9{s} 10{s} J{s}"));
        }
    }
    groups.push("KS KH KD KC".to_string());
    let table = parse_table(&groups.join(" | ")).expect("full table");
    let hand: Vec<Card> =
        parse_cards("AS AH AD AC AS AH AD AC QS QH QD QC QS QH QD QC KS KH KD KC")
            .expect("full hand");
    let position = Position {
        hands: vec![hand, Vec::new()],
        table,
        stock: Vec::new(),
        current: 0,
        opened: Vec::new(),
    };
    let config = GameConfig::new(RuleSet::Manipulation, 2, 1);
    AnyGame::Manipulation(ManipulationGame::from_position(config, position).expect("position"))
}

/// The app, closed once its first frame has been painted.
pub(crate) struct CloseAfterFirstFrame {
    pub app: RamiApp,
    pub frames: u32,
}

impl eframe::App for CloseAfterFirstFrame {
    fn ui(&mut self, ui: &mut egui::Ui, frame: &mut eframe::Frame) {
        eframe::App::ui(&mut self.app, ui, frame);
        self.frames += 1;
        // eframe paints after `ui` returns: the second call means the first
        // frame is on screen.
        if self.frames == 1 {
            ui.ctx().request_repaint();
        } else {
            ui.ctx().send_viewport_cmd(egui::ViewportCommand::Close);
        }
    }
}

/// Frames not counted while the window settles (first paint, font atlas).
const WARM_UP: usize = 20;

/// The full table repainted `left` times; per frame: the app's own `ui` call
/// (layout), eframe's `cpu_usage` of the previous frame (ui + tessellation +
/// GL painting calls, without the buffer swap) and the wall time from one `ui`
/// call to the next (everything, the swap included: on llvmpipe that is where
/// the triangles are rasterised).
pub(crate) struct FrameProbe {
    app: RamiApp,
    left: usize,
    last: Option<Instant>,
    /// (ui ms, cpu_usage ms of the previous frame, interval ms ending here)
    rows: Vec<(f64, f64, f64)>,
    last_ui: f64,
    reported: bool,
    /// The process's CPU time (all threads: llvmpipe rasterises on its own)
    /// when the counted frames began.
    cpu_at_start: Option<f64>,
}

/// This process's user + system CPU time in ms (Linux `/proc/self/stat`;
/// `None` elsewhere).
fn process_cpu_ms() -> Option<f64> {
    let stat = std::fs::read_to_string("/proc/self/stat").ok()?;
    // Fields after the command name (which may hold spaces) in parentheses.
    let rest = &stat[stat.rfind(')')? + 2..];
    let f: Vec<&str> = rest.split(' ').collect();
    let ticks: f64 = f.get(11)?.parse::<f64>().ok()? + f.get(12)?.parse::<f64>().ok()?;
    // USER_HZ is 100 on Linux.
    Some(ticks * 10.0)
}

impl FrameProbe {
    pub fn new(frames: usize) -> FrameProbe {
        let mut app = RamiApp::new(Settings {
            speed: Speed::Instant,
            ..Settings::default()
        });
        // `RAMI_FRAME_PROBE_HOME`: Home instead (what any frame costs).
        if std::env::var_os(FRAME_PROBE_HOME).is_none() {
            app.start_game(full_table());
        }
        FrameProbe {
            app,
            left: frames + WARM_UP,
            last: None,
            rows: Vec::new(),
            last_ui: 0.0,
            reported: false,
            cpu_at_start: None,
        }
    }

    fn report(&self) {
        let n = self.rows.len().saturating_sub(WARM_UP);
        if let (Some(a), Some(b)) = (self.cpu_at_start, process_cpu_ms())
            && n > 0
        {
            println!(
                "process CPU time (all threads, llvmpipe's included) per frame: {:.2} ms",
                (b - a) / n as f64
            );
        }
        let rows = &self.rows[self.rows.len() - n..];
        let what = if std::env::var_os(FRAME_PROBE_HOME).is_some() {
            "Home"
        } else {
            "the full table (84 on the table, 20 in hand)"
        };
        println!("frame probe: {n} frames of {what}");
        for (name, pick) in [
            ("ui (layout)", 0usize),
            ("cpu_usage (ui+tessellate+paint, no swap)", 1),
            ("frame interval (all, swap included)", 2),
        ] {
            let mut v: Vec<f64> = rows.iter().map(|r| [r.0, r.1, r.2][pick]).collect();
            v.sort_by(f64::total_cmp);
            let p = |q: f64| v[((v.len() as f64 - 1.0) * q).round() as usize];
            if v.is_empty() {
                continue;
            }
            println!(
                "{name}: p50 {:.2} ms  p90 {:.2} ms  p99 {:.2} ms  max {:.2} ms  mean {:.2} ms",
                p(0.5),
                p(0.9),
                p(0.99),
                v[v.len() - 1],
                v.iter().sum::<f64>() / v.len() as f64
            );
        }
    }
}

impl eframe::App for FrameProbe {
    fn ui(&mut self, ui: &mut egui::Ui, frame: &mut eframe::Frame) {
        let now = Instant::now();
        if let Some(last) = self.last {
            let cpu = frame.info().cpu_usage.unwrap_or(0.0) as f64 * 1e3;
            let interval = (now - last).as_secs_f64() * 1e3;
            self.rows.push((self.last_ui, cpu, interval));
            if self.rows.len() == WARM_UP {
                self.cpu_at_start = process_cpu_ms();
            }
        }
        self.last = Some(now);
        eframe::App::ui(&mut self.app, ui, frame);
        self.last_ui = now.elapsed().as_secs_f64() * 1e3;
        if self.left == 0 {
            if !self.reported {
                self.report();
                self.reported = true;
            }
            ui.ctx().send_viewport_cmd(egui::ViewportCommand::Close);
        } else {
            self.left -= 1;
            ui.ctx().request_repaint();
        }
    }
}
