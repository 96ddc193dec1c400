//! The Rami windowed app, built on egui/eframe: Home, New game, the table
//! (manipulation rule sets, and Rummy 500 / Rami), Rules and Settings, in English,
//! French and Italian.
//!
//! The app is a library so that the desktop binary (`rami`) and a future phone
//! build share it: [`RamiApp`] draws into any [`egui::Ui`] (the tests drive it
//! headless with `egui_kittest`), and [`run_native`] opens it in a desktop window.
//! Nothing here calls a desktop-only API; time comes from egui's input, saves go
//! through eframe's storage.

pub mod cards;
pub mod i18n;
mod play;
pub mod rules_text;

pub use eframe::egui;
pub use i18n::Lang;
pub use play::Play;

use eframe::egui::{Color32, RichText, vec2};
use rami_engine::AnyGame;
use rami_game::{Game, GameConfig, MustMeldCheck, Options, RuleSet, UnfinishedMove};
use serde::{Deserialize, Serialize};

/// How fast the computer players move.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub enum Speed {
    Slow,
    #[default]
    Normal,
    Fast,
    /// No pause at all (tests, impatient players).
    Instant,
}

impl Speed {
    pub const ALL: [Speed; 4] = [Speed::Slow, Speed::Normal, Speed::Fast, Speed::Instant];

    /// Seconds between two computer moves.
    pub fn delay(self) -> f64 {
        match self {
            Speed::Slow => 1.8,
            Speed::Normal => 1.0,
            Speed::Fast => 0.4,
            Speed::Instant => 0.0,
        }
    }

    fn key(self) -> &'static str {
        match self {
            Speed::Slow => "speed.slow",
            Speed::Normal => "speed.normal",
            Speed::Fast => "speed.fast",
            Speed::Instant => "speed.instant",
        }
    }
}

/// What the player chose in Settings (kept between runs).
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct Settings {
    pub lang: Lang,
    pub four_colours: bool,
    pub large_cards: bool,
    pub speed: Speed,
}

/// The screens of the app.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Screen {
    Home,
    Nearby,
    Rules(RuleSet),
    Settings,
    NewGame,
    Table,
}

/// The New game form.
#[derive(Clone, Debug)]
struct NewGameForm {
    rules: RuleSet,
    players: usize,
    options: Options,
    error: Option<String>,
}

impl Default for NewGameForm {
    fn default() -> Self {
        NewGameForm {
            rules: RuleSet::Manipulation,
            players: 3,
            options: Options::default(),
            error: None,
        }
    }
}

/// The whole app: settings, the screen shown, and the game being played.
pub struct RamiApp {
    pub settings: Settings,
    pub screen: Screen,
    form: NewGameForm,
    play: Option<Play>,
    /// An unfinished game from an earlier run, offered on Home.
    saved: Option<AnyGame>,
    /// The seed of the next game (tests); `None`: from the clock.
    pub next_seed: Option<u64>,
}

impl Default for RamiApp {
    fn default() -> Self {
        RamiApp::new(Settings::default())
    }
}

const SETTINGS_KEY: &str = "rami.settings";
const GAME_KEY: &str = "rami.game";

impl RamiApp {
    pub fn new(settings: Settings) -> RamiApp {
        RamiApp {
            settings,
            screen: Screen::Home,
            form: NewGameForm::default(),
            play: None,
            saved: None,
            next_seed: None,
        }
    }

    /// The app as eframe's storage left it: settings, and an unfinished game.
    pub fn from_storage(storage: Option<&dyn eframe::Storage>) -> RamiApp {
        let settings = storage
            .and_then(|s| eframe::get_value::<Settings>(s, SETTINGS_KEY))
            .unwrap_or_default();
        let mut app = RamiApp::new(settings);
        app.saved = storage
            .and_then(|s| s.get_string(GAME_KEY))
            .and_then(|text| AnyGame::load(&text).ok())
            .filter(|g| !g.is_terminal());
        app
    }

    /// Opens the table on `game` (a resumed game, a lesson, a test position).
    pub fn start_game(&mut self, game: AnyGame) {
        self.play = Some(Play::new(game));
        self.screen = Screen::Table;
    }

    /// The game on the table, if any.
    pub fn game(&self) -> Option<&AnyGame> {
        self.play.as_ref().map(|p| &p.game)
    }

    fn t(&self, key: &'static str) -> &'static str {
        self.settings.lang.t(key)
    }

    /// Draws the app into `ui` (the whole window).
    pub fn show(&mut self, ui: &mut egui::Ui) {
        ui.style_mut().spacing.button_padding = vec2(10.0, 6.0);
        ui.style_mut()
            .text_styles
            .insert(egui::TextStyle::Button, egui::FontId::proportional(16.0));
        ui.style_mut()
            .text_styles
            .insert(egui::TextStyle::Body, egui::FontId::proportional(15.0));
        match self.screen {
            Screen::Table => {
                let mut leave = None;
                match self.play.as_mut() {
                    Some(play) => leave = play.show(ui, &self.settings),
                    None => self.screen = Screen::Home,
                }
                match leave {
                    Some(play::Leave::Home) => self.screen = Screen::Home,
                    Some(play::Leave::NewGame) => {
                        self.play = None;
                        self.screen = Screen::NewGame;
                    }
                    None => {}
                }
            }
            _ => {
                egui::CentralPanel::default().show(ui, |ui| {
                    egui::ScrollArea::vertical().show(ui, |ui| match self.screen {
                        Screen::Home => self.home(ui),
                        Screen::Nearby => self.nearby(ui),
                        Screen::Rules(r) => self.rules(ui, r),
                        Screen::Settings => self.settings_screen(ui),
                        Screen::NewGame => self.new_game(ui),
                        Screen::Table => {}
                    });
                });
            }
        }
    }

    fn big_button(ui: &mut egui::Ui, text: &str) -> egui::Response {
        ui.add_sized(
            [340.0, 48.0],
            egui::Button::new(RichText::new(text).size(20.0)),
        )
    }

    fn back_button(&mut self, ui: &mut egui::Ui) {
        if ui.button(self.t("nav.back")).clicked() {
            self.screen = Screen::Home;
        }
        ui.add_space(8.0);
    }

    fn home(&mut self, ui: &mut egui::Ui) {
        ui.vertical_centered(|ui| {
            ui.add_space(40.0);
            ui.label(
                RichText::new(self.t("app.title"))
                    .size(56.0)
                    .strong()
                    .color(Color32::from_rgb(230, 200, 90)),
            );
            ui.add_space(30.0);
            let playing = self.play.as_ref().is_some_and(|p| !p.game.is_terminal());
            if (playing || self.saved.is_some())
                && Self::big_button(ui, self.t("home.resume")).clicked()
            {
                if let Some(game) = self.saved.take() {
                    self.start_game(game);
                } else {
                    self.screen = Screen::Table;
                }
            }
            ui.add_space(8.0);
            if Self::big_button(ui, self.t("home.play_computer")).clicked() {
                self.form.error = None;
                self.screen = Screen::NewGame;
            }
            ui.add_space(8.0);
            if Self::big_button(ui, self.t("home.play_nearby")).clicked() {
                self.screen = Screen::Nearby;
            }
            ui.add_space(8.0);
            if Self::big_button(ui, self.t("home.rules")).clicked() {
                self.screen = Screen::Rules(RuleSet::Manipulation);
            }
            ui.add_space(8.0);
            if Self::big_button(ui, self.t("home.settings")).clicked() {
                self.screen = Screen::Settings;
            }
            ui.add_space(24.0);
            ui.label(RichText::new(self.t("home.lesson_soon")).weak());
        });
    }

    fn nearby(&mut self, ui: &mut egui::Ui) {
        self.back_button(ui);
        ui.heading(self.t("nearby.title"));
        ui.add_space(8.0);
        ui.label(self.t("nearby.body"));
    }

    fn rules(&mut self, ui: &mut egui::Ui, shown: RuleSet) {
        self.back_button(ui);
        ui.heading(self.t("rules.title"));
        ui.horizontal_wrapped(|ui| {
            for r in RuleSet::ALL {
                if ui
                    .selectable_label(r == shown, rules_text::display_name(r))
                    .clicked()
                {
                    self.screen = Screen::Rules(r);
                }
            }
        });
        ui.separator();
        if self.settings.lang != Lang::En {
            ui.label(RichText::new(self.t("rules.english_only")).italics());
        }
        ui.heading(rules_text::display_name(shown));
        ui.set_max_width(760.0);
        if shown.is_manipulation() {
            ui.label(rules_text::MANIPULATION_BASICS);
            ui.add_space(8.0);
        }
        ui.label(rules_text::summary(shown));
    }

    fn settings_screen(&mut self, ui: &mut egui::Ui) {
        self.back_button(ui);
        ui.heading(self.t("settings.title"));
        ui.add_space(8.0);
        ui.label(RichText::new(self.t("settings.language")).strong());
        ui.horizontal(|ui| {
            for lang in Lang::ALL {
                ui.selectable_value(&mut self.settings.lang, lang, lang.native_name());
            }
        });
        ui.add_space(8.0);
        let lang = self.settings.lang;
        ui.checkbox(
            &mut self.settings.four_colours,
            lang.t("settings.four_colours"),
        );
        ui.checkbox(
            &mut self.settings.large_cards,
            lang.t("settings.large_cards"),
        );
        ui.add_space(8.0);
        ui.label(RichText::new(lang.t("settings.speed")).strong());
        ui.horizontal(|ui| {
            for speed in Speed::ALL {
                ui.selectable_value(&mut self.settings.speed, speed, lang.t(speed.key()));
            }
        });
        ui.add_space(12.0);
        // A preview of the cards with these settings.
        let style = cards::CardStyle::new(self.settings.large_cards, self.settings.four_colours);
        ui.horizontal(|ui| {
            for suit in rami_cards::Suit::ALL {
                let (rect, response) = ui.allocate_exact_size(style.size, egui::Sense::hover());
                let card = rami_cards::Card::natural(rami_cards::Rank::ACE, suit);
                cards::paint_card(ui.painter(), rect, card, &style, cards::Marks::default());
                let name = cards::card_name(lang, card);
                response.widget_info(|| egui::WidgetInfo::labeled(egui::Role::Image, true, &name));
            }
        });
    }

    fn new_game(&mut self, ui: &mut egui::Ui) {
        self.back_button(ui);
        let lang = self.settings.lang;
        ui.heading(lang.t("new.title"));
        ui.add_space(6.0);
        ui.label(RichText::new(lang.t("new.rules")).strong());
        ui.horizontal_wrapped(|ui| {
            for r in RuleSet::ALL {
                if ui
                    .selectable_label(self.form.rules == r, rules_text::display_name(r))
                    .clicked()
                {
                    self.form.rules = r;
                    let (min, max) = GameConfig::player_range(r);
                    self.form.players = self.form.players.clamp(min, max);
                }
            }
        });
        ui.add_space(6.0);
        ui.label(RichText::new(lang.t("new.players")).strong());
        let (min, max) = GameConfig::player_range(self.form.rules);
        ui.horizontal(|ui| {
            for n in min..=max {
                ui.selectable_value(&mut self.form.players, n, n.to_string());
            }
        });
        ui.add_space(6.0);
        ui.label(RichText::new(lang.t("new.options")).strong());
        let applying = GameConfig::options_that_apply(self.form.rules);
        if applying.is_empty() {
            ui.label(lang.t("new.no_options"));
        }
        let o = &mut self.form.options;
        let points = |n: u32| lang.fmt("points", &[("n", &n.to_string())]);
        for &name in applying {
            match name {
                "must_meld_check" => {
                    ui.label(lang.t("opt.must_meld_check"));
                    ui.horizontal(|ui| {
                        ui.selectable_value(
                            &mut o.must_meld_check,
                            MustMeldCheck::RemindWithHint,
                            lang.t("opt.remind"),
                        );
                        ui.selectable_value(
                            &mut o.must_meld_check,
                            MustMeldCheck::TrustThePlayer,
                            lang.t("opt.trust"),
                        );
                    });
                }
                "play_to" => {
                    ui.label(lang.t("opt.play_to"));
                    ui.horizontal(|ui| {
                        for v in [200, 300] {
                            ui.selectable_value(&mut o.play_to, v, points(v));
                        }
                    });
                }
                "unfinished_move" => {
                    ui.label(lang.t("opt.unfinished_move"));
                    ui.horizontal(|ui| {
                        ui.selectable_value(
                            &mut o.unfinished_move,
                            UnfinishedMove::UndoNoPenalty,
                            lang.t("opt.undo"),
                        );
                        ui.selectable_value(
                            &mut o.unfinished_move,
                            UnfinishedMove::TakeBackDrawThree,
                            lang.t("opt.take_back"),
                        );
                    });
                }
                "two_player_hand" => {
                    ui.label(lang.t("opt.two_player_hand"));
                    ui.horizontal(|ui| {
                        for v in [7u8, 10, 13] {
                            let text = lang.fmt("cards_n", &[("n", &v.to_string())]);
                            ui.selectable_value(&mut o.two_player_hand, v, text);
                        }
                    });
                }
                "target" => {
                    ui.label(lang.t("opt.target"));
                    ui.horizontal(|ui| {
                        for v in [250, 500, 1000] {
                            ui.selectable_value(&mut o.target, v, points(v));
                        }
                    });
                }
                "jokers" => {
                    ui.checkbox(&mut o.jokers, lang.t("opt.jokers"));
                }
                "claim" => {
                    ui.checkbox(&mut o.claim, lang.t("opt.claim"));
                }
                "points_limit" => {
                    ui.label(lang.t("opt.points_limit"));
                    ui.horizontal(|ui| {
                        ui.selectable_value(&mut o.points_limit, 1, lang.t("opt.single_hand"));
                        for v in [50, 100] {
                            ui.selectable_value(&mut o.points_limit, v, points(v));
                        }
                    });
                }
                "move_time_limit_ms" => {
                    ui.label(lang.t("opt.move_time"));
                    ui.horizontal(|ui| {
                        ui.selectable_value(
                            &mut o.move_time_limit_ms,
                            None,
                            lang.t("opt.no_limit"),
                        );
                        for s in [30u64, 60] {
                            let text = lang.fmt("opt.seconds", &[("n", &s.to_string())]);
                            ui.selectable_value(&mut o.move_time_limit_ms, Some(s * 1000), text);
                        }
                    });
                }
                _ => {}
            }
        }
        ui.add_space(14.0);
        if Self::big_button(ui, lang.t("new.start")).clicked() {
            let seed = self.next_seed.take().unwrap_or_else(clock_seed);
            let config = GameConfig {
                rules: self.form.rules,
                players: self.form.players,
                options: self.form.options.clone(),
                seed,
                deck: None,
            };
            match rami_engine::new_game(config) {
                Ok(game) => {
                    self.form.error = None;
                    self.start_game(game);
                }
                Err(e) => self.form.error = Some(e.to_string()),
            }
        }
        if let Some(e) = &self.form.error {
            ui.colored_label(Color32::LIGHT_RED, e);
        }
    }
}

fn clock_seed() -> u64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_nanos() as u64)
}

impl eframe::App for RamiApp {
    fn ui(&mut self, ui: &mut egui::Ui, _frame: &mut eframe::Frame) {
        self.show(ui);
    }

    fn save(&mut self, storage: &mut dyn eframe::Storage) {
        eframe::set_value(storage, SETTINGS_KEY, &self.settings);
        let unfinished = self
            .play
            .as_ref()
            .map(|p| &p.game)
            .or(self.saved.as_ref())
            .filter(|g| !g.is_terminal());
        storage.set_string(GAME_KEY, unfinished.map(AnyGame::save).unwrap_or_default());
    }
}

/// Opens the app in a desktop window (what `rami` with no arguments calls),
/// with the settings and unfinished game that eframe's storage kept.
#[cfg(not(target_os = "android"))]
pub fn run_native() -> eframe::Result<()> {
    run_native_with(None)
}

/// Opens the app in a desktop window; `game`, if given, is opened on the table
/// (a resumed game, a demonstration position).
#[cfg(not(target_os = "android"))]
pub fn run_native_with(game: Option<AnyGame>) -> eframe::Result<()> {
    let options = eframe::NativeOptions {
        viewport: egui::ViewportBuilder::default()
            .with_title("Rami")
            .with_inner_size([1200.0, 800.0])
            .with_min_inner_size([640.0, 480.0]),
        ..Default::default()
    };
    eframe::run_native(
        "Rami",
        options,
        Box::new(|cc| {
            let mut app = RamiApp::from_storage(cc.storage);
            if let Some(game) = game {
                app.start_game(game);
            }
            let app: Box<dyn eframe::App> = Box::new(app);
            Ok(app)
        }),
    )
}
