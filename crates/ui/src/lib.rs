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
pub mod nearby;
mod play;
#[cfg(not(target_os = "android"))]
pub mod probe;
pub mod refusal;
pub mod rules_text;

pub use eframe::egui;
pub use i18n::Lang;
pub use play::Play;

use eframe::egui::{Color32, RichText, vec2};
use nearby::{Browser, Cmd, HostControl, HostSetup, JoinSetup, LinkState, Nearby, Note};
use rami_engine::AnyGame;
use rami_game::{
    BotLevel, Game, GameConfig, MustMeldCheck, Options, PlayerView, RuleSet, Seat, UnfinishedMove,
};
use rami_net::discovery::FoundTable;
use rami_protocol::{Lobby, Refusal, SeatInfo};
use rami_session::{ConnId, LobbySnapshot};
use serde::{Deserialize, Serialize};
use std::collections::HashMap;
use std::net::SocketAddr;
use std::time::Duration;

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
    /// Play together nearby: Host or Join.
    Nearby,
    /// Opening a table, then its lobby.
    Host,
    /// Tables found nearby and the join code, then the lobby.
    Join,
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
    /// How well the computer players play.
    level: BotLevel,
    error: Option<String>,
}

impl Default for NewGameForm {
    fn default() -> Self {
        NewGameForm {
            rules: RuleSet::Manipulation,
            players: 3,
            options: Options::default(),
            level: BotLevel::Greedy,
            error: None,
        }
    }
}

/// Host or phone at a nearby table.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Role {
    Host,
    Phone,
}

/// The Host form.
#[derive(Clone, Debug)]
struct HostForm {
    table: String,
    name: String,
    rules: RuleSet,
    seats: usize,
    options: Options,
    /// The level of the computer players seated from the lobby (and of the one
    /// that covers an absent person).
    level: BotLevel,
}

impl Default for HostForm {
    fn default() -> Self {
        HostForm {
            table: "Rami".into(),
            name: String::new(),
            rules: RuleSet::Manipulation,
            seats: 2,
            options: Options::default(),
            level: BotLevel::Greedy,
        }
    }
}

/// The Join form: tables found nearby, the code typed.
#[derive(Default)]
struct JoinForm {
    browser: Option<Browser>,
    found: Vec<FoundTable>,
    browse_error: Option<String>,
    picked: Option<usize>,
    /// A table's address typed by hand (`host:port`), for when discovery
    /// finds nothing.
    addr: String,
    code: String,
    name: String,
    error: Option<String>,
}

/// A nearby table this device hosts or joined.
struct Table {
    link: Nearby,
    role: Role,
    /// Host: the join code and where the table listens.
    hosting: Option<(String, SocketAddr, [u8; 32])>,
    /// Host: the lobby's commands, and the lobby as the host sees it.
    control: Option<HostControl>,
    host_lobby: Option<LobbySnapshot>,
    /// Host: the seat picked for each join request (else the first free one).
    accept_into: HashMap<ConnId, Seat>,
    lobby: Option<Lobby>,
    presence: Vec<SeatInfo>,
    seat: Option<usize>,
    waiting: bool,
    link_state: LinkState,
    /// Why the table could not be reached, or refused us (already translated).
    failed: Option<String>,
    /// Host: why the last lobby command or Start could not be done.
    start_error: Option<String>,
    closed: bool,
}

impl Table {
    fn new(link: Nearby, role: Role) -> Table {
        Table {
            link,
            role,
            hosting: None,
            control: None,
            host_lobby: None,
            accept_into: HashMap::new(),
            lobby: None,
            presence: Vec::new(),
            seat: None,
            waiting: false,
            link_state: LinkState::Up,
            failed: None,
            start_error: None,
            closed: false,
        }
    }

    /// Who sits where (the host's lobby at the host; presence when known, else
    /// the lobby's seats, at a phone).
    fn seats(&self) -> &[SeatInfo] {
        if let Some(l) = &self.host_lobby {
            &l.seats
        } else if !self.presence.is_empty() {
            &self.presence
        } else {
            self.lobby.as_ref().map_or(&[], |l| &l.seats)
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
    /// The level of that game's computer players.
    saved_level: BotLevel,
    /// The seed of the next game (tests); `None`: from the clock.
    pub next_seed: Option<u64>,
    host_form: HostForm,
    join_form: JoinForm,
    table: Option<Table>,
    /// Where a hosted table listens (tests: `127.0.0.1:0`, no mDNS).
    pub host_bind: SocketAddr,
    /// Publish hosted tables and look for tables by mDNS (off in tests).
    pub mdns: bool,
    /// How long a hosted table keeps a dropped phone's seat before the computer
    /// plays it.
    pub nearby_grace: Duration,
}

impl Default for RamiApp {
    fn default() -> Self {
        RamiApp::new(Settings::default())
    }
}

const SETTINGS_KEY: &str = "rami.settings";
const GAME_KEY: &str = "rami.game";
/// The level of the saved game's computer players (`greedy`, `best`).
const LEVEL_KEY: &str = "rami.game.level";

impl RamiApp {
    pub fn new(settings: Settings) -> RamiApp {
        RamiApp {
            settings,
            screen: Screen::Home,
            form: NewGameForm::default(),
            play: None,
            saved: None,
            saved_level: BotLevel::Greedy,
            next_seed: None,
            host_form: HostForm::default(),
            join_form: JoinForm::default(),
            table: None,
            host_bind: SocketAddr::from(([0, 0, 0, 0], 0)),
            mdns: true,
            nearby_grace: Duration::from_secs(60),
        }
    }

    /// The app as eframe's storage left it: settings, and an unfinished game.
    pub fn from_storage(storage: Option<&dyn eframe::Storage>) -> RamiApp {
        // First run: the system's language; then what Settings chose.
        let settings = storage
            .and_then(|s| eframe::get_value::<Settings>(s, SETTINGS_KEY))
            .unwrap_or_else(|| Settings {
                lang: Lang::system(),
                ..Settings::default()
            });
        let mut app = RamiApp::new(settings);
        app.saved = storage
            .and_then(|s| s.get_string(GAME_KEY))
            .and_then(|text| AnyGame::load(&text).ok())
            .filter(|g| !g.is_terminal());
        app.saved_level = storage
            .and_then(|s| s.get_string(LEVEL_KEY))
            .and_then(|text| text.parse().ok())
            .unwrap_or_default();
        app
    }

    /// Opens the table on `game` (a resumed game, a lesson, a test position).
    /// Leaves a nearby table, if any.
    pub fn start_game(&mut self, game: AnyGame) {
        self.start_game_with(game, BotLevel::Greedy);
    }

    /// [`RamiApp::start_game`], the computer players at `level`.
    pub fn start_game_with(&mut self, game: AnyGame, level: BotLevel) {
        self.table = None;
        self.play = Some(Play::new(game).with_level(level));
        self.screen = Screen::Table;
    }

    /// The level of the computer players in the game against the computer, if any.
    pub fn computer_level(&self) -> Option<BotLevel> {
        self.play
            .as_ref()
            .filter(|p| p.game.is_some())
            .map(|p| p.level())
    }

    /// The game against the computer on the table, if any.
    pub fn game(&self) -> Option<&AnyGame> {
        self.play.as_ref().and_then(|p| p.game.as_ref())
    }

    /// What this device's seat sees of the game on the table (either kind).
    pub fn table_view(&self) -> Option<&PlayerView> {
        self.play.as_ref().map(|p| p.view())
    }

    /// The hand as the table shows it, in the player's order.
    pub fn shown_hand(&self) -> Option<&[rami_cards::Card]> {
        self.play.as_ref().map(|p| p.shown_hand())
    }

    /// Host: the join code, the address and the certificate fingerprint of the
    /// table this device opened.
    pub fn hosting(&self) -> Option<(String, SocketAddr, [u8; 32])> {
        self.table.as_ref().and_then(|t| t.hosting.clone())
    }

    /// Join: a table found nearby (what mDNS discovery adds; tests add one
    /// directly).
    pub fn add_found_table(&mut self, table: FoundTable) {
        self.join_form
            .found
            .retain(|t| t.fingerprint != table.fingerprint);
        self.join_form.found.push(table);
    }

    /// The seat this device has at a nearby table.
    pub fn nearby_seat(&self) -> Option<usize> {
        self.table.as_ref().and_then(|t| t.seat)
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
        self.poll_nearby();
        match self.screen {
            Screen::Table => {
                let mut leave = None;
                match self.play.as_mut() {
                    Some(play) => {
                        leave = play.show(ui, &self.settings);
                        if let Some(t) = &self.table {
                            for action in play.outbox.drain(..) {
                                t.link.send(Cmd::Act(action));
                            }
                        }
                    }
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
                        Screen::Host => self.host_screen(ui),
                        Screen::Join => self.join_screen(ui),
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
            let playing = self
                .play
                .as_ref()
                .is_some_and(|p| p.view().outcome.is_none());
            if (playing || self.saved.is_some())
                && Self::big_button(ui, self.t("home.resume")).clicked()
            {
                if playing {
                    self.screen = Screen::Table;
                } else if let Some(game) = self.saved.take() {
                    self.start_game_with(game, self.saved_level);
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
        let lang = self.settings.lang;
        ui.heading(lang.t("nearby.title"));
        ui.add_space(8.0);
        ui.label(lang.t("nearby.body"));
        ui.add_space(12.0);
        if let Some(t) = &self.table {
            let key = match t.role {
                Role::Host => "nearby.back_to_hosted",
                Role::Phone => "nearby.back_to_joined",
            };
            if Self::big_button(ui, lang.t(key)).clicked() {
                self.screen = if self.play.is_some() {
                    Screen::Table
                } else if t.role == Role::Host {
                    Screen::Host
                } else {
                    Screen::Join
                };
            }
            ui.add_space(8.0);
        }
        if Self::big_button(ui, lang.t("nearby.host")).clicked() {
            self.leave_table();
            self.screen = Screen::Host;
        }
        ui.add_space(8.0);
        if Self::big_button(ui, lang.t("nearby.join")).clicked() {
            self.leave_table();
            self.join_form.error = None;
            self.join_form.picked = None;
            self.screen = Screen::Join;
        }
    }

    /// Leaves (or closes) the nearby table, if any.
    fn leave_table(&mut self) {
        if let Some(t) = self.table.take() {
            t.link.send(Cmd::Stop);
            if self.play.as_ref().is_some_and(|p| p.game.is_none()) {
                self.play = None;
            }
        }
    }

    /// Reads what the nearby table said since the last frame.
    fn poll_nearby(&mut self) {
        if let Some(b) = &self.join_form.browser
            && let Some(found) = b.poll()
        {
            match found {
                Ok(f) => {
                    self.join_form.browse_error = None;
                    for t in f {
                        self.add_found_table(t);
                    }
                }
                Err(e) => self.join_form.browse_error = Some(e),
            }
        }
        let Some(t) = self.table.as_mut() else { return };
        let lang = self.settings.lang;
        for note in t.link.poll() {
            match note {
                Note::Hosting {
                    code,
                    addr,
                    fingerprint,
                    control,
                } => {
                    t.hosting = Some((code, addr, fingerprint));
                    t.control = Some(control);
                }
                Note::HostLobby(l) => {
                    t.accept_into
                        .retain(|id, _| l.pending.iter().any(|r| r.id == *id));
                    t.host_lobby = Some(l);
                }
                Note::Lobby(l) => t.lobby = Some(l),
                Note::Presence(p) => t.presence = p,
                Note::Seated(seat) => {
                    t.seat = Some(seat);
                    t.waiting = false;
                }
                Note::Waiting => t.waiting = true,
                Note::View { view, events } => match self.play.as_mut() {
                    Some(p) if p.game.is_none() => p.on_view(*view, &events),
                    _ => {
                        // An unfinished game against the computer waits on Home.
                        if let Some(game) = self.play.take().and_then(|p| p.game)
                            && !game.is_terminal()
                        {
                            self.saved = Some(game);
                        }
                        self.play = Some(Play::remote(*view));
                        if matches!(self.screen, Screen::Host | Screen::Join) {
                            self.screen = Screen::Table;
                        }
                    }
                },
                Note::Refused { error, text } => {
                    if let Some(p) = self.play.as_mut().filter(|p| p.game.is_none()) {
                        p.on_refused(error, text);
                    }
                }
                Note::Link(state) => t.link_state = state,
                Note::GameOver | Note::Closed => t.closed = true,
                Note::NotThatTable => t.failed = Some(lang.t("join.not_that_table").into()),
                Note::Failed { refusal, text } => {
                    t.failed = Some(match refusal {
                        Some(r) => refusal_text(lang, &r),
                        None => lang.fmt("nearby.unreachable", &[("why", &text)]),
                    });
                }
            }
        }
        // The names at the table, and the notice over it.
        if let Some(p) = self.play.as_mut().filter(|p| p.game.is_none()) {
            let seats = t.seats();
            p.names = seats
                .iter()
                .map(|s| match s {
                    SeatInfo::Human { name, .. } => Some(name.clone()),
                    _ => None,
                })
                .collect();
            p.banner = table_banner(lang, t, p.view().outcome.is_some());
        }
    }

    fn seat_list(&self, ui: &mut egui::Ui, t: &Table) {
        let lang = self.settings.lang;
        ui.label(RichText::new(lang.t("nearby.seats")).strong());
        for (i, s) in t.seats().iter().enumerate() {
            ui.label(seat_text(lang, t.seat, i, s));
        }
    }

    /// The host's lobby: the join code, join requests to accept (into a chosen
    /// seat) or decline, seats to give to the computer or clear, Start.
    fn host_lobby(&mut self, ui: &mut egui::Ui) {
        let lang = self.settings.lang;
        let level = self.host_form.level;
        let Some(t) = self.table.as_mut() else { return };
        if let Some(f) = &t.failed {
            ui.colored_label(Color32::LIGHT_RED, f);
        }
        match &t.hosting {
            Some((code, addr, _)) => {
                ui.label(lang.t("host.code_is"));
                ui.label(RichText::new(code).size(40.0).strong().monospace());
                let shown = reachable_addr(*addr);
                ui.label(RichText::new(lang.fmt("host.listening", &[("addr", &shown)])).weak());
            }
            None if t.failed.is_none() => {
                ui.label(lang.t("host.opening"));
            }
            None => {}
        }
        ui.add_space(8.0);
        let mut close = false;
        if let (Some(l), Some(ctl)) = (t.host_lobby.clone(), t.control.clone()) {
            ui.label(
                RichText::new(format!(
                    "{} - {}",
                    l.table,
                    rules_text::display_name(l.rules)
                ))
                .strong(),
            );
            let open = !l.started && t.failed.is_none();
            let free: Vec<Seat> = (0..l.seats.len())
                .filter(|&i| l.seats[i] == SeatInfo::Empty)
                .collect();
            let mut error: Option<String> = None;
            // Join requests.
            if open && !l.pending.is_empty() {
                ui.add_space(4.0);
                ui.label(RichText::new(lang.t("host.requests")).strong());
                for r in &l.pending {
                    let chosen = t
                        .accept_into
                        .get(&r.id)
                        .copied()
                        .filter(|s| free.contains(s))
                        .or(free.first().copied());
                    ui.horizontal_wrapped(|ui| {
                        ui.label(lang.fmt("host.asks", &[("name", &r.name)]));
                        // Which seat (when there is a choice).
                        if free.len() > 1 {
                            for &s in &free {
                                let text =
                                    lang.fmt("host.into_seat", &[("n", &(s + 1).to_string())]);
                                if ui.selectable_label(chosen == Some(s), text).clicked() {
                                    t.accept_into.insert(r.id, s);
                                }
                            }
                        }
                        let accept = ui.add_enabled(
                            chosen.is_some(),
                            egui::Button::new(lang.fmt("host.accept", &[("name", &r.name)])),
                        );
                        if accept.clicked()
                            && let Err(e) = ctl.accept(r.id, chosen)
                        {
                            error = Some(e.to_string());
                        }
                        if ui
                            .button(lang.fmt("host.decline", &[("name", &r.name)]))
                            .clicked()
                            && let Err(e) = ctl.decline(r.id)
                        {
                            error = Some(e.to_string());
                        }
                    });
                }
                if free.is_empty() {
                    ui.label(RichText::new(lang.t("host.full")).weak());
                }
            }
            // Seats.
            ui.add_space(4.0);
            ui.label(RichText::new(lang.t("nearby.seats")).strong());
            for (i, s) in l.seats.iter().enumerate() {
                let n = (i + 1).to_string();
                ui.horizontal_wrapped(|ui| {
                    ui.label(seat_text(lang, t.seat, i, s));
                    if !open {
                        return;
                    }
                    match s {
                        SeatInfo::Empty => {
                            if ui
                                .button(lang.fmt("host.add_computer", &[("n", &n)]))
                                .clicked()
                                && let Err(e) = ctl.add_bot(i, level)
                            {
                                error = Some(e.to_string());
                            }
                        }
                        _ if t.seat == Some(i) => {}
                        _ => {
                            if ui.button(lang.fmt("host.clear", &[("n", &n)])).clicked()
                                && let Err(e) = ctl.clear_seat(i)
                            {
                                error = Some(e.to_string());
                            }
                        }
                    }
                });
            }
            if open {
                ui.add_space(6.0);
                ui.horizontal_wrapped(|ui| {
                    ui.label(lang.t("host.level"));
                    for lv in [BotLevel::Greedy, BotLevel::Best] {
                        ui.selectable_value(&mut self.host_form.level, lv, lang.t(level_key(lv)));
                    }
                });
                ui.add_space(8.0);
                if !free.is_empty() {
                    ui.label(RichText::new(lang.t("host.empty_seats")).weak());
                }
                if Self::big_button(ui, lang.t("host.start")).clicked() {
                    // Free seats go to the computer, then the deal.
                    ctl.fill_with_bots(level);
                    if let Err(e) = ctl.start() {
                        error = Some(e.to_string());
                    }
                }
            }
            if let Some(e) = error {
                t.start_error = Some(e);
            }
        }
        if let Some(e) = &t.start_error {
            ui.colored_label(Color32::LIGHT_RED, lang.fmt("host.failed", &[("why", e)]));
        }
        ui.add_space(8.0);
        if ui.button(lang.t("host.close")).clicked() {
            close = true;
        }
        if close {
            self.leave_table();
        }
    }

    fn host_screen(&mut self, ui: &mut egui::Ui) {
        self.back_button(ui);
        let lang = self.settings.lang;
        ui.heading(lang.t("host.title"));
        ui.add_space(6.0);
        if self.table.is_some() {
            self.host_lobby(ui);
            return;
        }

        let f = &mut self.host_form;
        let label = ui.label(RichText::new(lang.t("host.table_name")).strong());
        ui.text_edit_singleline(&mut f.table).labelled_by(label.id);
        let label = ui.label(RichText::new(lang.t("nearby.your_name")).strong());
        ui.text_edit_singleline(&mut f.name).labelled_by(label.id);
        ui.add_space(6.0);
        ui.label(RichText::new(lang.t("new.rules")).strong());
        ui.horizontal_wrapped(|ui| {
            for r in RuleSet::ALL {
                if ui
                    .selectable_label(f.rules == r, rules_text::display_name(r))
                    .clicked()
                {
                    f.rules = r;
                    let (min, max) = GameConfig::player_range(r);
                    f.seats = f.seats.clamp(min, max);
                }
            }
        });
        ui.add_space(6.0);
        ui.label(RichText::new(lang.t("host.seats")).strong());
        let (min, max) = GameConfig::player_range(f.rules);
        ui.horizontal(|ui| {
            for n in min..=max {
                ui.selectable_value(&mut f.seats, n, n.to_string());
            }
        });
        ui.add_space(6.0);
        ui.label(RichText::new(lang.t("new.options")).strong());
        let applying = GameConfig::options_that_apply(f.rules);
        if applying.is_empty() {
            ui.label(lang.t("new.no_options"));
        }
        options_ui(ui, lang, applying, &mut f.options);
        ui.add_space(14.0);
        if Self::big_button(ui, lang.t("host.open")).clicked() {
            let name = if f.name.trim().is_empty() {
                lang.t("nearby.default_host").to_string()
            } else {
                f.name.clone()
            };
            let setup = HostSetup {
                table: f.table.clone(),
                rules: f.rules,
                seats: f.seats,
                options: f.options.clone(),
                name,
                bind: self.host_bind,
                publish: self.mdns,
                grace: self.nearby_grace,
                cover_level: f.level,
                computer_delay: Duration::from_secs_f64(self.settings.speed.delay()),
            };
            let link = Nearby::host(ui.ctx(), setup);
            self.play = self.play.take().filter(|p| p.game.is_some());
            self.table = Some(Table::new(link, Role::Host));
        }
    }

    fn join_screen(&mut self, ui: &mut egui::Ui) {
        if ui.button(self.t("nav.back")).clicked() {
            self.join_form.browser = None;
            self.screen = Screen::Nearby;
        }
        ui.add_space(8.0);
        let lang = self.settings.lang;
        ui.heading(lang.t("join.title"));
        ui.add_space(6.0);
        if let Some(t) = &self.table {
            if let Some(f) = &t.failed {
                ui.colored_label(Color32::LIGHT_RED, f);
                if ui.button(lang.t("join.again")).clicked() {
                    self.table = None;
                }
                return;
            }
            let text = if t.seat.is_some() {
                lang.t("join.seated")
            } else if t.waiting {
                lang.t("join.waiting")
            } else {
                lang.t("join.connecting")
            };
            ui.label(RichText::new(text).strong());
            if let Some(l) = &t.lobby {
                ui.label(format!(
                    "{} - {}",
                    l.table,
                    rules_text::display_name(l.rules)
                ));
            }
            self.seat_list(ui, t);
            ui.add_space(12.0);
            if ui.button(lang.t("join.leave")).clicked() {
                self.leave_table();
            }
            return;
        }
        if self.mdns && self.join_form.browser.is_none() {
            self.join_form.browser = Some(Browser::start(ui.ctx()));
        }
        let f = &mut self.join_form;
        let label = ui.label(RichText::new(lang.t("nearby.your_name")).strong());
        ui.text_edit_singleline(&mut f.name).labelled_by(label.id);
        ui.add_space(6.0);
        ui.label(RichText::new(lang.t("join.found")).strong());
        if f.found.is_empty() {
            ui.label(lang.t("join.looking"));
        }
        if let Some(e) = &f.browse_error {
            ui.colored_label(Color32::LIGHT_RED, lang.fmt("join.no_mdns", &[("why", e)]));
        }
        for (i, t) in f.found.iter().enumerate() {
            let rules = match t.rules.parse::<RuleSet>() {
                Ok(r) => rules_text::display_name(r).to_string(),
                Err(_) => t.rules.clone(),
            };
            let text = lang.fmt(
                "join.table",
                &[
                    ("name", &t.name),
                    ("rules", &rules),
                    ("n", &t.free_seats.to_string()),
                ],
            );
            if ui.selectable_label(f.picked == Some(i), text).clicked() {
                f.picked = Some(i);
            }
        }
        ui.add_space(6.0);
        let label = ui.label(RichText::new(lang.t("join.addr")).strong());
        ui.add(egui::TextEdit::singleline(&mut f.addr).hint_text("192.168.1.20:47000"))
            .labelled_by(label.id);
        ui.add_space(8.0);
        let label = ui.label(RichText::new(lang.t("join.code")).strong());
        ui.text_edit_singleline(&mut f.code).labelled_by(label.id);
        // A code picks its table: its first half checks the certificate.
        if f.picked.is_none()
            && let Some(i) = f.found.iter().position(|t| nearby::code_fits(&f.code, t))
        {
            f.picked = Some(i);
        }
        ui.add_space(8.0);
        if let Some(e) = &f.error {
            ui.colored_label(Color32::LIGHT_RED, e);
        }
        if Self::big_button(ui, lang.t("join.join")).clicked() {
            let picked = f.picked.and_then(|i| f.found.get(i));
            let target = picked.and_then(|t| Some((t.addrs.first().copied()?, t.fingerprint?)));
            // A typed address wins over the tables found.
            let typed = (!f.addr.trim().is_empty()).then(|| parse_table_addr(&f.addr));
            let code_ok = rami_protocol::normalize_code(&f.code).len() == 6;
            let go = match (typed, picked, target) {
                (Some(None), ..) => Err("join.bad_addr"),
                (Some(Some(_)), ..) if !code_ok => Err("join.code_needed"),
                (Some(Some(addr)), ..) => Ok((addr, None)),
                (None, None, _) => Err("join.pick"),
                (None, Some(_), None) => Err("join.unusable"),
                (None, Some(t), Some(_)) if !nearby::code_fits(&f.code, t) => {
                    Err("join.wrong_code")
                }
                (None, Some(_), Some((addr, fp))) => Ok((addr, Some(fp))),
            };
            match go {
                Err(key) => f.error = Some(lang.t(key).into()),
                Ok((addr, fingerprint)) => {
                    f.error = None;
                    let name = if f.name.trim().is_empty() {
                        lang.t("nearby.default_phone").to_string()
                    } else {
                        f.name.clone()
                    };
                    let setup = JoinSetup {
                        name,
                        code: f.code.clone(),
                        addr,
                        fingerprint,
                        rejoin_for: Duration::from_secs(120),
                    };
                    let link = Nearby::join(ui.ctx(), setup);
                    f.browser = None;
                    self.play = self.play.take().filter(|p| p.game.is_some());
                    self.table = Some(Table::new(link, Role::Phone));
                }
            }
        }
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
        ui.heading(rules_text::display_name(shown));
        ui.set_max_width(760.0);
        if shown.is_manipulation() {
            ui.label(rules_text::manipulation_basics(self.settings.lang));
            ui.add_space(8.0);
        }
        ui.label(rules_text::summary_in(self.settings.lang, shown));
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
        options_ui(ui, lang, applying, &mut self.form.options);
        ui.add_space(6.0);
        ui.label(RichText::new(lang.t("host.level")).strong());
        ui.horizontal_wrapped(|ui| {
            for lv in [BotLevel::Greedy, BotLevel::Best] {
                ui.selectable_value(&mut self.form.level, lv, lang.t(level_key(lv)));
            }
        });
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
                    self.start_game_with(game, self.form.level);
                }
                Err(e) => self.form.error = Some(e.to_string()),
            }
        }
        if let Some(e) = &self.form.error {
            ui.colored_label(Color32::LIGHT_RED, e);
        }
    }
}

/// The options of a rule set that apply to it (New game and Host).
fn options_ui(ui: &mut egui::Ui, lang: Lang, applying: &[&str], o: &mut Options) {
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
                    ui.selectable_value(&mut o.move_time_limit_ms, None, lang.t("opt.no_limit"));
                    for s in [30u64, 60] {
                        let text = lang.fmt("opt.seconds", &[("n", &s.to_string())]);
                        ui.selectable_value(&mut o.move_time_limit_ms, Some(s * 1000), text);
                    }
                });
            }
            _ => {}
        }
    }
}

/// Where phones can reach a table listening on `addr`, as the host screen
/// shows it: the address itself, or for a table listening on every interface
/// the one the system would route out of (a UDP socket is connected to a
/// documentation address: nothing is sent), or only the port.
fn reachable_addr(addr: SocketAddr) -> String {
    if !addr.ip().is_unspecified() {
        return addr.to_string();
    }
    let (bind, probe): (SocketAddr, SocketAddr) = if addr.is_ipv4() {
        (([0u8; 4], 0).into(), ([192, 0, 2, 1], 9).into())
    } else {
        (
            ([0u16; 8], 0).into(),
            ([0x2001, 0xdb8, 0, 0, 0, 0, 0, 1], 9).into(),
        )
    };
    std::net::UdpSocket::bind(bind)
        .and_then(|s| s.connect(probe).and_then(|_| s.local_addr()))
        .ok()
        .filter(|l| !l.ip().is_unspecified())
        .map_or_else(
            || format!("*:{}", addr.port()),
            |l| SocketAddr::new(l.ip(), addr.port()).to_string(),
        )
}

/// A table's address as typed: `IPv4:port` or `[IPv6]:port` (port not 0).
pub fn parse_table_addr(text: &str) -> Option<SocketAddr> {
    text.trim()
        .parse::<SocketAddr>()
        .ok()
        .filter(|a| a.port() != 0 && !a.ip().is_unspecified())
}

/// Who sits in seat `i` (`mine`: this device's seat), in `lang`.
fn seat_text(lang: Lang, mine: Option<Seat>, i: Seat, s: &SeatInfo) -> String {
    let n = (i + 1).to_string();
    match s {
        SeatInfo::Empty => lang.fmt("nearby.seat_empty", &[("n", &n)]),
        SeatInfo::Computer { level } => lang.fmt(
            "nearby.seat_computer",
            &[("n", &n), ("level", lang.t(level_key(*level)))],
        ),
        SeatInfo::Human {
            name,
            connected,
            covered,
        } => {
            let mut name = name.clone();
            if mine == Some(i) {
                name = format!("{name} ({})", lang.t("table.you"));
            }
            let state = if *covered {
                "nearby.covered"
            } else if *connected || mine == Some(i) {
                "nearby.connected"
            } else {
                "nearby.away"
            };
            lang.fmt(
                "nearby.seat_person",
                &[("n", &n), ("name", &name), ("state", lang.t(state))],
            )
        }
    }
}

/// The catalogue key of a computer player's level.
fn level_key(level: BotLevel) -> &'static str {
    match level {
        BotLevel::Greedy => "level.greedy",
        BotLevel::Best => "level.best",
    }
}

/// Why the host refused this phone, in `lang`.
fn refusal_text(lang: Lang, r: &Refusal) -> String {
    let key = match r {
        Refusal::Version { .. } => "refusal.version",
        Refusal::WrongCode => "refusal.wrong_code",
        Refusal::UnknownToken => "refusal.unknown_token",
        Refusal::TableFull => "refusal.table_full",
        Refusal::GameStarted => "refusal.game_started",
        Refusal::Declined => "refusal.declined",
        Refusal::BadHello => "refusal.bad_hello",
        Refusal::Closing => "refusal.closing",
        Refusal::Replaced => "refusal.replaced",
        Refusal::Removed => "refusal.removed",
    };
    lang.t(key).to_string()
}

/// The notice over a nearby table: the link dropped, the table closed, a seat
/// played by the computer, someone away.
fn table_banner(lang: Lang, t: &Table, over: bool) -> Option<String> {
    if let Some(f) = &t.failed {
        return Some(f.clone());
    }
    if t.closed && !over {
        return Some(lang.t("banner.closed").into());
    }
    if t.link_state == LinkState::Rejoining {
        return Some(lang.t("banner.rejoining").into());
    }
    let mut notes = Vec::new();
    for (i, s) in t.seats().iter().enumerate() {
        if let SeatInfo::Human {
            name,
            connected,
            covered,
        } = s
            && t.seat != Some(i)
        {
            if *covered {
                notes.push(lang.fmt("banner.taken_over", &[("name", name)]));
            } else if !connected {
                notes.push(lang.fmt("banner.away", &[("name", name)]));
            }
        }
    }
    (!notes.is_empty()).then(|| notes.join(" "))
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
            .and_then(|p| p.game.as_ref())
            .or(self.saved.as_ref())
            .filter(|g| !g.is_terminal());
        storage.set_string(GAME_KEY, unfinished.map(AnyGame::save).unwrap_or_default());
        let level = self.computer_level().unwrap_or(self.saved_level);
        storage.set_string(LEVEL_KEY, level.name().to_string());
    }
}

/// Opens the app in a desktop window (what `rami` with no arguments calls),
/// with the settings and unfinished game that eframe's storage kept.
#[cfg(not(target_os = "android"))]
pub fn run_native() -> eframe::Result<()> {
    run_native_with(None)
}

/// Opens the app in a desktop window; `game`, if given, is opened on the table
/// (a resumed game, a demonstration position). The probes of [`probe`]
/// (environment variables) time the window instead.
#[cfg(not(target_os = "android"))]
pub fn run_native_with(game: Option<AnyGame>) -> eframe::Result<()> {
    let frames: Option<usize> = std::env::var(probe::FRAME_PROBE)
        .ok()
        .and_then(|v| v.parse().ok());
    let mut viewport = egui::ViewportBuilder::default()
        .with_title("Rami")
        .with_inner_size([1200.0, 800.0])
        .with_min_inner_size([640.0, 480.0]);
    if frames.is_some() {
        viewport = viewport.with_inner_size([1920.0, 1080.0]);
    }
    let mut options = eframe::NativeOptions {
        viewport,
        // The frame probe: at 1920x1080, whatever size an earlier run left.
        persist_window: frames.is_none(),
        ..Default::default()
    };
    // ... and as fast as it can.
    options.glow_options.vsync = frames.is_none();
    eframe::run_native(
        "Rami",
        options,
        Box::new(move |cc| {
            if let Some(n) = frames {
                return Ok(Box::new(probe::FrameProbe::new(n)) as Box<dyn eframe::App>);
            }
            let mut app = RamiApp::from_storage(cc.storage);
            if let Some(game) = game {
                app.start_game(game);
            }
            let app: Box<dyn eframe::App> = if std::env::var_os(probe::FIRST_FRAME_PROBE).is_some()
            {
                Box::new(probe::CloseAfterFirstFrame { app, frames: 0 })
            } else {
                Box::new(app)
            };
            Ok(app)
        }),
    )
}
