//! A game on the table: the player's private copy, the hand, the buttons, the
//! computer players' pace, and the end-of-hand and end-of-game panels.

use crate::cards::{self, CardStyle, Marks, card_name, cards_names, face_name};
use crate::i18n::Lang;
use crate::refusal::Why;
use crate::{Settings, rules_text};
use eframe::egui::{
    self, Align2, Color32, CornerRadius, FontId, Rect, RichText, Sense, Stroke, StrokeKind, vec2,
};
use rami_bots::{Level, choose_action, choose_claim, claim_order, claim_time, fallback};
use rami_cards::{Card, Face};
use rami_engine::AnyGame;
use rami_game::{
    Action, ActionError, ActionKind, Bonus, Event, Game, HandEnd, HandResult, Hint, PlayerView,
    RuleSet, Seat, Table,
};
use std::time::Duration;

/// The seat of the person at this device in a game against the computer.
const ME: Seat = 0;

/// A card the player picked: in the hand (index in shown order) or on the copy.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Sel {
    Hand(usize),
    Table(usize, usize),
}

/// Where something can be dropped or placed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Zone {
    Group(usize),
    NewGroup,
    Hand,
    /// Onto the hand card shown at this place (reordering the hand).
    HandAt(usize),
}

#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
enum SortMode {
    #[default]
    Suit,
    Rank,
    /// The player's own order, made by dragging cards in the hand.
    Custom,
}

/// What the message line says (formatted in the current language when shown).
#[derive(Clone, Debug, PartialEq)]
enum Msg {
    Refused { why: Why, group: Option<usize> },
    Hint(Hint),
    GiveUpArmed,
    AddACard,
    JokerName { group: usize },
    SelectOne,
    Dig(Card),
}

/// What the player did this frame, applied once drawing is over.
#[derive(Clone, Debug)]
enum Intent {
    Toggle(Sel),
    Place(Zone),
    Drop(Sel, Zone),
    Sort(SortMode),
    Reset,
    Done,
    Knock,
    Act(Action),
    NameJoker(Face),
    Ack,
    DigAt(usize),
    MeldSelected,
    DigMeld(Option<usize>),
    LayOff(usize),
    DiscardSelected,
    Leave(Leave),
}

/// Leaving the table.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Leave {
    Home,
    NewGame,
}

/// A game being played at this device: against the computer (`game` is here),
/// or at a nearby table (the view comes from the host, actions go to `outbox`).
pub struct Play {
    pub game: Option<AnyGame>,
    /// This device's seat.
    me: Seat,
    view: PlayerView,
    /// Nearby: the names at the table (`None`: a computer player).
    pub(crate) names: Vec<Option<String>>,
    /// Nearby: actions for the host, taken by the app.
    pub(crate) outbox: Vec<Action>,
    /// Nearby: an action sent and not answered yet (its kind, and Knock or not).
    sent: Option<(ActionKind, bool)>,
    /// A notice over the table (the link dropped, a seat taken over).
    pub(crate) banner: Option<String>,
    /// The table as it is, each group in reading order.
    base: Table,
    /// The private copy the player edits.
    copy: Table,
    /// Hand cards not placed on the copy, in the shown order.
    hand: Vec<Card>,
    sort: SortMode,
    /// The player's order of the hand (`SortMode::Custom`), kept between turns;
    /// cards not in it go to the end.
    order: Vec<Card>,
    selection: Vec<Sel>,
    dig: Option<usize>,
    msg: Option<Msg>,
    joker_choice: Option<(usize, Vec<Face>, bool)>,
    /// The last hand whose result the player has closed.
    acked_hand: u32,
    bot_due: Option<f64>,
    /// The computers' claim moment ([`claim_time`]) at which they were last
    /// asked: each Claim window's card is offered to them once.
    claims_asked: Option<u64>,
    log: Vec<(Seat, LogLine)>,
    /// How well the computer players of a game against the computer play.
    level: Level,
}

#[derive(Clone, Debug)]
enum LogLine {
    Played(Vec<Card>),
    Drew(usize),
    Passed,
    Took(Card),
    Claimed(Card),
    Discarded(Card),
    Melded(usize),
    Knocked,
}

impl Play {
    pub fn new(game: AnyGame) -> Play {
        let view = game.view(ME);
        Play::with(Some(game), view)
    }

    /// The same table, its computer players at `level`.
    pub fn with_level(self, level: Level) -> Play {
        Play { level, ..self }
    }

    /// The level of the computer players (a game against the computer).
    pub fn level(&self) -> Level {
        self.level
    }

    /// A seat at a nearby table, as the host's first view of it shows.
    pub(crate) fn remote(view: PlayerView) -> Play {
        Play::with(None, view)
    }

    fn with(game: Option<AnyGame>, view: PlayerView) -> Play {
        let mut play = Play {
            game,
            me: view.seat,
            view,
            names: Vec::new(),
            outbox: Vec::new(),
            sent: None,
            banner: None,
            base: Vec::new(),
            copy: Vec::new(),
            hand: Vec::new(),
            sort: SortMode::default(),
            order: Vec::new(),
            selection: Vec::new(),
            dig: None,
            msg: None,
            joker_choice: None,
            acked_hand: 0,
            bot_due: None,
            claims_asked: None,
            log: Vec::new(),
            level: Level::Greedy,
        };
        play.resync();
        play
    }

    fn rules(&self) -> RuleSet {
        self.view.config.rules
    }

    /// The hand as shown, in the player's order (cards placed on the private
    /// copy are not in it).
    pub(crate) fn shown_hand(&self) -> &[Card] {
        &self.hand
    }

    /// The view of this seat as it is now.
    pub(crate) fn view(&self) -> &PlayerView {
        &self.view
    }

    /// Reads the game again and puts the copy back as the table is.
    fn resync(&mut self) {
        if let Some(game) = &self.game {
            self.view = game.view(self.me);
        }
        self.resync_view();
    }

    /// Puts the copy and the hand back as the view has them.
    fn resync_view(&mut self) {
        let ace = self.rules().ace_mode();
        self.base = self
            .view
            .table
            .iter()
            .map(|g| rami_melds::reading_order(g, ace))
            .collect();
        self.copy = self.base.clone();
        self.hand = self.view.hand.clone();
        self.sort_hand();
        if self.sort == SortMode::Custom {
            self.order = self.hand.clone();
        }
        self.selection.clear();
        self.dig = None;
        self.joker_choice = None;
    }

    fn sort_hand(&mut self) {
        if self.sort == SortMode::Custom {
            let mut left = std::mem::take(&mut self.hand);
            for c in &self.order {
                if let Some(i) = left.iter().position(|x| x == c) {
                    self.hand.push(left.remove(i));
                }
            }
            self.hand.extend(left);
            return;
        }
        let key = |c: &Card| {
            let suit = c.suit().map_or(9, |s| s.index());
            let rank = c.rank().map_or(99, |r| usize::from(r.value()));
            match self.sort {
                SortMode::Suit => (suit, rank),
                SortMode::Rank | SortMode::Custom => (rank, suit),
            }
        };
        self.hand.sort_by_key(key);
    }

    fn my_turn(&self) -> bool {
        self.view.current == Some(self.me)
    }

    fn can(&self, kind: ActionKind) -> bool {
        self.view.legal.contains(&kind)
    }

    /// A hand result the player has not closed yet.
    fn pending_result(&self) -> Option<&HandResult> {
        self.view
            .last_hand
            .as_ref()
            .filter(|r| r.hand > self.acked_hand)
    }

    fn now_ms(now: f64) -> u64 {
        (now.max(0.0) * 1000.0) as u64
    }

    /// The time of the game's clock: the app's own for a game against the
    /// computer, the wall clock (the host's) at a nearby table.
    fn clock_ms(&self, now: f64) -> u64 {
        if self.game.is_some() {
            Self::now_ms(now)
        } else {
            rami_net::now_ms()
        }
    }

    /// Whole seconds left until `deadline`; asks for a repaint when the
    /// number shown changes (no busy loop).
    fn seconds_left(ui: &egui::Ui, deadline: u64, clock: u64) -> u64 {
        let left = deadline.saturating_sub(clock);
        if left > 0 {
            let next = match left % 1000 {
                0 => 1000,
                r => r,
            };
            ui.ctx().request_repaint_after(Duration::from_millis(next));
        }
        left.div_ceil(1000)
    }

    /// Lets the computer players move, one move per `delay` seconds, and lets
    /// the game's own deadlines pass. Asks for a repaint only when something is due.
    fn run_clock(&mut self, ctx: &egui::Context, now: f64, delay: f64) {
        let Some(game) = self.game.as_mut() else {
            return;
        };
        // A new game has no time yet: start the first move timer now.
        let timed = self.view.config.options.move_time_limit_ms.is_some()
            && self.view.config.rules == RuleSet::Rami
            && self.view.outcome.is_none();
        if timed && self.view.move_deadline.is_none() {
            let events = game.advance_time(Self::now_ms(now));
            self.view = game.view(self.me);
            if !events.is_empty() {
                self.note(&events);
                self.resync();
            }
        }
        let Some(game) = self.game.as_mut() else {
            return;
        };
        if let Some(deadline) = game.next_deadline() {
            let now_ms = Self::now_ms(now);
            if deadline <= now_ms {
                let events = game.advance_time(now_ms);
                self.note(&events);
                self.resync();
            } else {
                ctx.request_repaint_after(Duration::from_millis(deadline - now_ms));
            }
        }
        for _ in 0..1000 {
            if self.pending_result().is_some() {
                return;
            }
            // The computers' claims come at their moment in the Claim window
            // (1.5 s after the discard: the player has the first half), unless
            // the next player, a computer, is due to draw before then.
            if let Some(at) = self.computer_claim_at() {
                let now_ms = Self::now_ms(now);
                let draws_first = self.bot_due.is_some_and(|d| Self::now_ms(d) < at);
                if at <= now_ms && !draws_first {
                    self.claims_asked = Some(at);
                    self.computer_claim(now_ms);
                    continue;
                }
                if at > now_ms {
                    ctx.request_repaint_after(Duration::from_millis(at - now_ms));
                }
            }
            let me = self.me;
            let Some(seat) = self
                .game
                .as_ref()
                .and_then(|g| g.current_player())
                .filter(|&s| s != me)
            else {
                return;
            };
            let due = *self.bot_due.get_or_insert(now + delay);
            if due > now {
                ctx.request_repaint_after(Duration::from_secs_f64(due - now));
                return;
            }
            self.bot_due = None;
            if !self.bot_move(seat, Self::now_ms(now)) {
                return;
            }
        }
    }

    /// When the computers may claim the card of the open Claim window (Rami
    /// with the Claim option), if they have not been asked yet.
    fn computer_claim_at(&self) -> Option<u64> {
        // Only Rami has the Claim option: no view to take in other frames.
        let config = &self.view.config;
        if config.rules != RuleSet::Rami || !config.options.claim {
            return None;
        }
        let game = self.game.as_ref()?;
        let at = claim_time(&game.view(game.current_player()?))?;
        (self.claims_asked != Some(at)).then_some(at)
    }

    /// Asks the computer players, in claim order, whether they claim the card
    /// of the open Claim window; the first that does gets it and plays next.
    fn computer_claim(&mut self, now_ms: u64) {
        let me = self.me;
        let Some(game) = self.game.as_mut() else {
            return;
        };
        let Some(next) = game.current_player() else {
            return;
        };
        let claimed = claim_order(game.num_players(), next)
            .filter(|&s| s != me)
            .find_map(|s| {
                let claim = choose_claim(&game.view(s))?;
                game.apply(s, claim, now_ms).ok()
            });
        if let Some(events) = claimed {
            // The claimer's turn begins now, at the computers' pace.
            self.bot_due = None;
            self.note(&events);
            self.resync();
        }
    }

    fn bot_move(&mut self, seat: Seat, now_ms: u64) -> bool {
        let Some(game) = self.game.as_mut() else {
            return false;
        };
        let view = game.view(seat);
        let Some(action) = choose_action(&view, self.level).or_else(|| fallback(&view)) else {
            return false;
        };
        let events = match game.apply(seat, action, now_ms) {
            Ok(events) => events,
            Err(_) => match fallback(&view).map(|a| game.apply(seat, a, now_ms)) {
                Some(Ok(events)) => events,
                _ => return false,
            },
        };
        self.note(&events);
        self.resync();
        true
    }

    /// Keeps the last few things that happened, for the log line.
    fn note(&mut self, events: &[Event]) {
        for e in events {
            let line = match e {
                Event::TablePlayed { seat, played } => {
                    Some((*seat, LogLine::Played(played.clone())))
                }
                Event::Drew { seat, count } => Some((*seat, LogLine::Drew(*count))),
                Event::PenaltyDrawn { seat, count } => Some((*seat, LogLine::Drew(*count))),
                Event::Passed { seat } => Some((*seat, LogLine::Passed)),
                Event::TookDiscard { seat, card } => Some((*seat, LogLine::Took(*card))),
                Event::Claimed { seat, card } => Some((*seat, LogLine::Claimed(*card))),
                Event::Dug { seat, card, .. } => Some((*seat, LogLine::Took(*card))),
                Event::Discarded { seat, card } => Some((*seat, LogLine::Discarded(*card))),
                Event::Melded { seat, groups } => Some((*seat, LogLine::Melded(groups.len()))),
                Event::LaidOff { seat, cards, .. } => Some((*seat, LogLine::Played(cards.clone()))),
                Event::Knocked { seat } => Some((*seat, LogLine::Knocked)),
                Event::Reminded { seat, hint } if *seat == self.me => {
                    self.msg = Some(Msg::Hint(hint.clone()));
                    None
                }
                Event::GiveUpArmed { seat } if *seat == self.me => {
                    self.msg = Some(Msg::GiveUpArmed);
                    None
                }
                _ => None,
            };
            if let Some(line) = line {
                self.log.push(line);
            }
        }
        let keep = 4;
        if self.log.len() > keep {
            self.log.drain(..self.log.len() - keep);
        }
    }

    /// Plays one of the player's own actions.
    fn act(&mut self, action: Action, now_ms: u64) {
        let kind = action.kind();
        let knock = kind == ActionKind::Knock;
        let Some(game) = self.game.as_mut() else {
            // Nearby: a joker that could stand for several cards is named here,
            // before the proposal goes to the host.
            if let Action::Done { table } | Action::Knock { table } = &action
                && let Some((group, options)) = self.joker_question(table)
            {
                self.joker_choice = Some((group, options, knock));
                self.msg = Some(Msg::JokerName { group });
                return;
            }
            self.sent = Some((kind, knock));
            self.outbox.push(action);
            return;
        };
        match game.apply(self.me, action, now_ms) {
            Ok(events) => {
                if kind != ActionKind::GiveUp {
                    self.msg = None;
                }
                self.note(&events);
                if kind == ActionKind::TouchTable {
                    if let Some(game) = &self.game {
                        self.view = game.view(self.me);
                    }
                } else {
                    self.resync();
                }
            }
            Err(e) => self.refused(Why::Error(e), knock),
        }
    }

    /// The first group of `table` holding an unnamed joker that could stand for
    /// several cards, and those cards.
    fn joker_question(&self, table: &Table) -> Option<(usize, Vec<Face>)> {
        if !self.rules().is_manipulation() {
            return None;
        }
        let gr = self.rules().group_rules();
        table.iter().enumerate().find_map(|(g, group)| {
            if !group.contains(&Card::JOKER) {
                return None;
            }
            let ways = rami_melds::joker_namings(group, gr);
            if ways.len() < 2 {
                return None;
            }
            let mut options: Vec<Face> = ways.into_iter().flatten().collect();
            options.sort_unstable();
            options.dedup();
            Some((g, options))
        })
    }

    fn refused(&mut self, why: Why, knock: bool) {
        match why {
            Why::Error(ActionError::JokerNeedsName { group, options }) => {
                self.joker_choice = Some((group, options, knock));
                self.msg = Some(Msg::JokerName { group });
            }
            why => {
                let group = why.group();
                self.msg = Some(Msg::Refused { why, group });
            }
        }
    }

    /// Nearby: the host sent a new view of this seat.
    pub(crate) fn on_view(&mut self, view: PlayerView, events: &[Event]) {
        if let Some((kind, _)) = self.sent.take()
            && kind != ActionKind::GiveUp
        {
            self.msg = None;
        }
        self.note(events);
        // Keep the player's edits while the table and the hand are unchanged
        // (the answer to touching the table, a turn indicator moving on).
        let keep = view.table == self.view.table && view.hand == self.view.hand;
        self.me = view.seat;
        self.view = view;
        if !keep {
            self.resync_view();
        }
    }

    /// Nearby: the host refused this seat's action.
    pub(crate) fn on_refused(&mut self, error: Option<ActionError>, text: String) {
        let sent = self.sent.take();
        if matches!(sent, Some((ActionKind::TouchTable, _))) {
            // Touching the table is bookkeeping; the player did not ask for it.
            return;
        }
        let knock = sent.is_some_and(|(_, k)| k);
        let why = match error {
            Some(e) => Why::Error(e),
            None => Why::Text(text),
        };
        self.refused(why, knock);
    }

    /// Takes the selected cards off the hand and the copy (empty groups stay
    /// until the move is over, so group numbers hold).
    fn take_selected(&mut self, sels: &[Sel]) -> Vec<Card> {
        let mut hand_idx: Vec<usize> = sels
            .iter()
            .filter_map(|s| match s {
                Sel::Hand(i) if *i < self.hand.len() => Some(*i),
                _ => None,
            })
            .collect();
        let mut table_idx: Vec<(usize, usize)> = sels
            .iter()
            .filter_map(|s| match s {
                Sel::Table(g, i) if self.copy.get(*g).is_some_and(|grp| *i < grp.len()) => {
                    Some((*g, *i))
                }
                _ => None,
            })
            .collect();
        hand_idx.sort_unstable();
        hand_idx.dedup();
        table_idx.sort_unstable();
        table_idx.dedup();
        let mut cards = Vec::new();
        for &i in hand_idx.iter().rev() {
            cards.push(self.hand.remove(i));
        }
        for &(g, i) in table_idx.iter().rev() {
            cards.push(self.copy[g].remove(i));
        }
        cards.reverse();
        cards
    }

    /// Moves the hand card shown at `from` to the place `to` (the player's own
    /// order, kept between turns).
    fn reorder(&mut self, from: usize, to: usize) {
        if from >= self.hand.len() || from == to {
            return;
        }
        let card = self.hand.remove(from);
        self.hand.insert(to.min(self.hand.len()), card);
        // Cards now on the private copy keep their place after the hand's.
        let mut rest = self.order.clone();
        for c in &self.hand {
            if let Some(i) = rest.iter().position(|x| x == c) {
                rest.remove(i);
            }
        }
        self.order = self.hand.clone();
        self.order.extend(rest);
        self.sort = SortMode::Custom;
        self.selection.retain(|s| matches!(s, Sel::Table(..)));
    }

    /// Cards of the copy that came from the hand this turn (may go back).
    fn returnable(&self, card: Card) -> bool {
        let count = |t: &Table| {
            t.iter()
                .flatten()
                .filter(|c| c.in_hand() == card.in_hand())
                .count()
        };
        count(&self.copy) > count(&self.base)
    }

    /// Moves `sels` to `zone` on the private copy.
    fn move_to(&mut self, sels: &[Sel], zone: Zone, now_ms: u64) {
        if !self.my_turn() || sels.is_empty() {
            return;
        }
        if zone == Zone::Hand {
            let back: Vec<Sel> = sels
                .iter()
                .copied()
                .filter(|s| match s {
                    Sel::Table(g, i) => self
                        .copy
                        .get(*g)
                        .and_then(|grp| grp.get(*i))
                        .is_some_and(|&c| self.returnable(c)),
                    Sel::Hand(_) => false,
                })
                .collect();
            let cards = self.take_selected(&back);
            self.hand.extend(cards.iter().map(|c| c.in_hand()));
            self.sort_hand();
        } else {
            let cards = self.take_selected(sels);
            match zone {
                Zone::Group(g) if g < self.copy.len() => self.copy[g].extend(cards),
                _ => self.copy.push(cards),
            }
        }
        self.copy.retain(|g| !g.is_empty());
        let ace = self.rules().ace_mode();
        for g in &mut self.copy {
            *g = rami_melds::reading_order(g, ace);
        }
        self.selection.clear();
        if matches!(self.msg, Some(Msg::Refused { .. } | Msg::AddACard)) {
            self.msg = None;
        }
        // Nearby: touch the table once; the host's answer updates `legal`.
        let in_flight = matches!(self.sent, Some((ActionKind::TouchTable, _)));
        if self.copy != self.base && self.can(ActionKind::TouchTable) && !in_flight {
            self.act(Action::TouchTable, now_ms);
        }
    }

    /// Why a group of the copy is not valid (live, while editing).
    fn group_problem(&self, group: &[Card]) -> Option<rami_melds::GroupError> {
        let rules = self.rules();
        let gr = rules.group_rules();
        if rules == RuleSet::Tahiti && group.len() == 1 && !group[0].is_joker() {
            return None;
        }
        if group.contains(&Card::JOKER) {
            return rami_melds::joker_namings(group, gr)
                .is_empty()
                .then(|| rami_melds::explain_unfit(group, gr));
        }
        rami_melds::validate_group(group, gr).err()
    }

    fn player_name(&self, lang: Lang, seat: Seat) -> String {
        if seat == self.me {
            lang.t("table.you").to_string()
        } else if let Some(Some(name)) = self.names.get(seat) {
            name.clone()
        } else {
            lang.fmt("table.computer", &[("n", &seat.to_string())])
        }
    }

    /// Draws the table; returns where to go if the player leaves it.
    pub(crate) fn show(&mut self, ui: &mut egui::Ui, settings: &Settings) -> Option<Leave> {
        let now = ui.input(|i| i.time);
        let ctx = ui.ctx().clone();
        self.run_clock(&ctx, now, settings.speed.delay());
        let lang = settings.lang;
        let clock = self.clock_ms(now);
        let style = CardStyle::new(settings.large_cards, settings.four_colours);
        let mut intents = Vec::new();
        let mut zones: Vec<(Rect, Zone)> = Vec::new();

        egui::Panel::top("table_top").show(ui, |ui| {
            self.top_bar(ui, lang, &mut intents);
        });
        let over = self.view.outcome.is_some() || self.pending_result().is_some();
        if !over {
            egui::Panel::bottom("table_bottom").show(ui, |ui| {
                self.bottom(ui, lang, &style, clock, &mut intents, &mut zones);
            });
        }
        let felt = Color32::from_rgb(22, 92, 58);
        egui::CentralPanel::default()
            .frame(egui::Frame::central_panel(ui.style()).fill(felt))
            .show(ui, |ui| {
                ui.visuals_mut().override_text_color = Some(Color32::from_gray(235));
                egui::ScrollArea::vertical().show(ui, |ui| {
                    if let Some(outcome) = self.view.outcome.clone() {
                        self.game_over(ui, lang, &outcome, &mut intents);
                    } else if let Some(result) = self.pending_result().cloned() {
                        self.hand_over(ui, lang, &result, &mut intents);
                    } else {
                        if !self.rules().is_manipulation() {
                            self.discard_pile(ui, lang, &style, &mut intents);
                        }
                        self.groups(ui, lang, &style, &mut intents, &mut zones);
                    }
                });
            });

        // Drag and drop: the card held is dropped on whatever zone is under it.
        let held = egui::DragAndDrop::has_payload_of_type::<Sel>(&ctx);
        if let Some(pos) = ui.input(|i| i.pointer.latest_pos()).filter(|_| held) {
            let under = zones.iter().find(|(r, _)| r.contains(pos)).copied();
            if let Some((rect, _)) = under {
                ui.ctx()
                    .layer_painter(egui::LayerId::new(
                        egui::Order::Foreground,
                        egui::Id::unique("drop_hl"),
                    ))
                    .rect_stroke(
                        rect,
                        CornerRadius::same(6),
                        Stroke::new(3.0, Color32::from_rgb(120, 200, 255)),
                        StrokeKind::Outside,
                    );
            }
            if ui.input(|i| i.pointer.any_released())
                && let Some(sel) = egui::DragAndDrop::take_payload::<Sel>(&ctx)
                && let Some((_, zone)) = under
            {
                intents.push(Intent::Drop(*sel, zone));
            }
        }

        let now_ms = Self::now_ms(now);
        let mut leave = None;
        for intent in intents {
            if let Intent::Leave(l) = intent {
                leave = Some(l);
            } else {
                self.apply_intent(intent, now_ms);
                ctx.request_repaint();
            }
        }
        leave
    }

    fn apply_intent(&mut self, intent: Intent, now_ms: u64) {
        match intent {
            Intent::Toggle(sel) => {
                if let Some(i) = self.selection.iter().position(|s| *s == sel) {
                    self.selection.remove(i);
                } else {
                    self.selection.push(sel);
                }
            }
            Intent::Place(zone) => {
                let sels = std::mem::take(&mut self.selection);
                self.move_to(&sels, zone, now_ms);
            }
            Intent::Drop(Sel::Hand(from), zone @ (Zone::HandAt(_) | Zone::Hand)) => {
                let to = match zone {
                    Zone::HandAt(to) => to,
                    _ => self.hand.len(),
                };
                self.reorder(from, to);
            }
            Intent::Drop(sel, zone) => {
                let zone = if let Zone::HandAt(_) = zone {
                    Zone::Hand
                } else {
                    zone
                };
                let mut sels = if self.selection.contains(&sel) {
                    std::mem::take(&mut self.selection)
                } else {
                    vec![sel]
                };
                if self.rules().is_manipulation() {
                    self.move_to(&sels, zone, now_ms);
                } else if let (Zone::Group(g), true) = (zone, self.my_turn()) {
                    sels.retain(|s| matches!(s, Sel::Hand(_)));
                    self.selection = sels;
                    self.apply_intent(Intent::LayOff(g), now_ms);
                }
            }
            Intent::Sort(mode) => {
                self.sort = mode;
                // Keep the selection on the same cards.
                let picked: Vec<Card> = self
                    .selection
                    .iter()
                    .filter_map(|s| match s {
                        Sel::Hand(i) => self.hand.get(*i).copied(),
                        Sel::Table(..) => None,
                    })
                    .collect();
                self.selection.retain(|s| matches!(s, Sel::Table(..)));
                self.sort_hand();
                let mut used = vec![false; self.hand.len()];
                for c in picked {
                    if let Some(i) = (0..self.hand.len()).find(|&i| !used[i] && self.hand[i] == c) {
                        used[i] = true;
                        self.selection.push(Sel::Hand(i));
                    }
                }
            }
            Intent::Reset => {
                let sort = self.sort;
                self.resync();
                self.sort = sort;
                self.msg = None;
            }
            Intent::Done | Intent::Knock => {
                if self.copy == self.base {
                    self.msg = Some(Msg::AddACard);
                } else {
                    let table = self.copy.clone();
                    let action = if matches!(intent, Intent::Knock) {
                        Action::Knock { table }
                    } else {
                        Action::Done { table }
                    };
                    self.act(action, now_ms);
                }
            }
            Intent::Act(action) => self.act(action, now_ms),
            Intent::NameJoker(face) => {
                if let Some((group, _, knock)) = self.joker_choice.take() {
                    if let Some(slot) = self
                        .copy
                        .get_mut(group)
                        .and_then(|g| g.iter_mut().find(|c| **c == Card::JOKER))
                    {
                        *slot = Card::named_joker(face);
                    }
                    let table = self.copy.clone();
                    let action = if knock {
                        Action::Knock { table }
                    } else {
                        Action::Done { table }
                    };
                    self.act(action, now_ms);
                }
            }
            Intent::Ack => {
                if let Some(r) = &self.view.last_hand {
                    self.acked_hand = r.hand;
                }
                self.msg = None;
            }
            Intent::DigAt(depth) => {
                self.dig = if self.dig == Some(depth) {
                    None
                } else {
                    Some(depth)
                };
                self.msg = self.dig.and_then(|d| {
                    let len = self.view.discard.len();
                    len.checked_sub(d + 1)
                        .and_then(|i| self.view.discard.get(i))
                        .map(|&c| Msg::Dig(c))
                });
            }
            Intent::MeldSelected => {
                // The selection may hold several groups (a first meld worth 30
                // points often does): split it; if it cannot be split, send it
                // whole and let the engine say why.
                let cards = self.selected_hand_cards();
                let gr = self.rules().group_rules();
                let groups = split_into_groups(&cards, gr, &mut Default::default())
                    .unwrap_or_else(|| vec![cards]);
                self.act(Action::Meld { groups }, now_ms);
            }
            Intent::DigMeld(onto) => {
                if let Some(depth) = self.dig {
                    let with = self.selected_hand_cards();
                    self.act(
                        Action::Dig {
                            depth,
                            with,
                            onto,
                            name: None,
                        },
                        now_ms,
                    );
                }
            }
            Intent::LayOff(meld) => {
                if self.dig.is_some() {
                    self.apply_intent(Intent::DigMeld(Some(meld)), now_ms);
                } else {
                    let cards = self.selected_hand_cards();
                    if cards.is_empty() {
                        self.msg = Some(Msg::SelectOne);
                    } else {
                        self.act(Action::LayOff { meld, cards }, now_ms);
                    }
                }
            }
            Intent::DiscardSelected => match self.selected_hand_cards().as_slice() {
                [card] => self.act(Action::Discard { card: *card }, now_ms),
                _ => self.msg = Some(Msg::SelectOne),
            },
            Intent::Leave(_) => {}
        }
    }

    fn selected_hand_cards(&self) -> Vec<Card> {
        self.selection
            .iter()
            .filter_map(|s| match s {
                Sel::Hand(i) => self.hand.get(*i).copied(),
                Sel::Table(..) => None,
            })
            .collect()
    }

    fn top_bar(&self, ui: &mut egui::Ui, lang: Lang, intents: &mut Vec<Intent>) {
        ui.add_space(4.0);
        if let Some(banner) = &self.banner {
            ui.label(
                RichText::new(banner)
                    .strong()
                    .size(17.0)
                    .color(Color32::from_rgb(255, 200, 80)),
            );
        }
        ui.horizontal_wrapped(|ui| {
            if ui.button(lang.t("nav.home")).clicked() {
                intents.push(Intent::Leave(Leave::Home));
            }
            ui.separator();
            ui.label(RichText::new(rules_text::display_name(self.rules())).strong());
            ui.label(lang.fmt(
                "table.hand_no",
                &[("n", &self.view.hand_number.to_string())],
            ));
            ui.label(lang.fmt("table.stock", &[("n", &self.view.stock_count.to_string())]));
            ui.separator();
            for (seat, p) in self.view.players.iter().enumerate() {
                let name = self.player_name(lang, seat);
                let cards = lang.fmt("cards_n", &[("n", &p.cards_in_hand.to_string())]);
                let points = lang.fmt("points", &[("n", &p.score.to_string())]);
                let text = format!("{name}: {cards}, {points}");
                let mut rich = RichText::new(text);
                if self.view.current == Some(seat) {
                    rich = rich.strong().color(Color32::from_rgb(255, 210, 90));
                }
                if p.eliminated {
                    rich = rich.strikethrough();
                }
                ui.label(rich);
            }
        });
        ui.horizontal_wrapped(|ui| {
            let status = match self.view.current {
                Some(s) if s == self.me => lang.t("table.your_turn").to_string(),
                Some(s) => lang.fmt("table.playing", &[("name", &self.player_name(lang, s))]),
                None => lang.t("end.game_over").to_string(),
            };
            ui.label(RichText::new(status).strong());
            for (seat, line) in &self.log {
                let name = self.player_name(lang, *seat);
                // The player's own lines: French and Italian conjugate for "you".
                let own = *seat == self.me;
                let key = |other: &'static str, you: &'static str| if own { you } else { other };
                let text = match line {
                    LogLine::Played(cards) => lang.fmt(
                        key("log.played", "log.played.you"),
                        &[("name", &name), ("cards", &cards_names(lang, cards))],
                    ),
                    LogLine::Drew(n) => lang.fmt(
                        key("log.drew", "log.drew.you"),
                        &[("name", &name), ("n", &n.to_string())],
                    ),
                    LogLine::Passed => {
                        lang.fmt(key("log.passed", "log.passed.you"), &[("name", &name)])
                    }
                    LogLine::Took(c) => lang.fmt(
                        key("log.took", "log.took.you"),
                        &[("name", &name), ("card", &card_name(lang, *c))],
                    ),
                    LogLine::Claimed(c) => lang.fmt(
                        key("log.claimed", "log.claimed.you"),
                        &[("name", &name), ("card", &card_name(lang, *c))],
                    ),
                    LogLine::Discarded(c) => lang.fmt(
                        key("log.discarded", "log.discarded.you"),
                        &[("name", &name), ("card", &card_name(lang, *c))],
                    ),
                    LogLine::Melded(n) => lang.fmt(
                        key("log.melded", "log.melded.you"),
                        &[("name", &name), ("n", &n.to_string())],
                    ),
                    LogLine::Knocked => {
                        lang.fmt(key("end.knocked", "end.knocked.you"), &[("name", &name)])
                    }
                };
                ui.separator();
                ui.label(RichText::new(text).weak());
            }
        });
        ui.add_space(4.0);
    }

    fn message(&self, ui: &mut egui::Ui, lang: Lang, intents: &mut Vec<Intent>) {
        let Some(msg) = &self.msg else { return };
        let (text, colour) = match msg {
            Msg::Refused { why, .. } => (
                lang.fmt("msg.refused", &[("why", &why.text(lang))]),
                Color32::from_rgb(255, 130, 120),
            ),
            Msg::Hint(hint) => {
                let mut text = lang.fmt("msg.hint", &[("cards", &cards_names(lang, &hint.cards))]);
                if hint.rearrange {
                    text.push(' ');
                    text.push_str(lang.t("msg.rearrange"));
                }
                (text, Color32::from_rgb(255, 210, 90))
            }
            Msg::GiveUpArmed => (
                lang.t("msg.give_up_armed").into(),
                Color32::from_rgb(255, 210, 90),
            ),
            Msg::AddACard => (
                lang.t("msg.add_a_card").into(),
                Color32::from_rgb(255, 130, 120),
            ),
            Msg::JokerName { group } => (
                lang.fmt("msg.joker_name", &[("n", &(group + 1).to_string())]),
                Color32::from_rgb(255, 210, 90),
            ),
            Msg::SelectOne => (
                lang.t("msg.select_one").into(),
                Color32::from_rgb(255, 130, 120),
            ),
            Msg::Dig(card) => (
                lang.fmt("msg.dig_target", &[("card", &card_name(lang, *card))]),
                Color32::from_rgb(255, 210, 90),
            ),
        };
        ui.label(RichText::new(text).color(colour).size(16.0));
        if let Some((_, options, _)) = &self.joker_choice {
            ui.horizontal_wrapped(|ui| {
                for &face in options {
                    if ui.button(face_name(lang, face)).clicked() {
                        intents.push(Intent::NameJoker(face));
                    }
                }
            });
        }
    }

    fn bottom(
        &self,
        ui: &mut egui::Ui,
        lang: Lang,
        style: &CardStyle,
        clock: u64,
        intents: &mut Vec<Intent>,
        zones: &mut Vec<(Rect, Zone)>,
    ) {
        ui.add_space(6.0);
        self.message(ui, lang, intents);
        let mine = self.my_turn();
        // Rami's move timer.
        if let (Some(deadline), Some(current)) = (self.view.move_deadline, self.view.current) {
            let n = Self::seconds_left(ui, deadline, clock).to_string();
            let text = if current == self.me {
                lang.fmt("timer.yours", &[("n", &n)])
            } else {
                lang.fmt(
                    "timer.theirs",
                    &[("name", &self.player_name(lang, current)), ("n", &n)],
                )
            };
            let urgent = current == self.me && deadline.saturating_sub(clock) <= 10_000;
            let colour = if urgent {
                Color32::from_rgb(255, 120, 110)
            } else {
                Color32::from_gray(230)
            };
            ui.label(RichText::new(text).strong().color(colour));
        }
        ui.horizontal_wrapped(|ui| {
            let (sort_key, other) = match self.sort {
                SortMode::Suit => ("btn.sort_rank", SortMode::Rank),
                SortMode::Rank | SortMode::Custom => ("btn.sort_suit", SortMode::Suit),
            };
            if ui.button(lang.t(sort_key)).clicked() {
                intents.push(Intent::Sort(other));
            }
            ui.separator();
            let mut button = |kind: Option<ActionKind>, key: &'static str, intent: Intent| {
                let shown = kind.is_none_or(|k| self.can(k));
                if mine && shown && ui.button(lang.t(key)).clicked() {
                    intents.push(intent);
                }
            };
            if self.rules().is_manipulation() {
                let changed = self.copy != self.base;
                if self.can(ActionKind::GiveUp) {
                    button(
                        Some(ActionKind::GiveUp),
                        "btn.give_up",
                        Intent::Act(Action::GiveUp),
                    );
                } else if changed {
                    button(None, "btn.reset", Intent::Reset);
                }
                button(Some(ActionKind::Done), "btn.done", Intent::Done);
                button(Some(ActionKind::Knock), "btn.knock", Intent::Knock);
                button(
                    Some(ActionKind::Draw),
                    "btn.draw",
                    Intent::Act(Action::Draw),
                );
                button(
                    Some(ActionKind::Pass),
                    "btn.pass",
                    Intent::Act(Action::Pass),
                );
                button(
                    Some(ActionKind::EndGame),
                    "btn.end_game",
                    Intent::Act(Action::EndGame),
                );
            } else {
                button(
                    Some(ActionKind::Draw),
                    "btn.draw",
                    Intent::Act(Action::Draw),
                );
                button(
                    Some(ActionKind::TakeDiscard),
                    "btn.take",
                    Intent::Act(Action::TakeDiscard),
                );
                if self.dig.is_some() {
                    button(Some(ActionKind::Dig), "btn.dig", Intent::DigMeld(None));
                }
                button(Some(ActionKind::Meld), "btn.meld", Intent::MeldSelected);
                button(
                    Some(ActionKind::Discard),
                    "btn.discard",
                    Intent::DiscardSelected,
                );
            }
            if self.can(ActionKind::Claim) {
                let top = self.view.discard.last().map(|&c| card_name(lang, c));
                let button = egui::Button::new(RichText::new(lang.t("btn.claim")).strong())
                    .fill(Color32::from_rgb(150, 90, 20));
                if ui.add(button).clicked() {
                    intents.push(Intent::Act(Action::Claim));
                }
                if let Some(closes) = self.view.claim_deadline {
                    let n = Self::seconds_left(ui, closes, clock).to_string();
                    let card = top.unwrap_or_default();
                    ui.label(lang.fmt("claim.window", &[("card", &card), ("n", &n)]));
                }
            }
            let returnable = self.selection.iter().any(|s| match s {
                Sel::Table(g, i) => self
                    .copy
                    .get(*g)
                    .and_then(|grp| grp.get(*i))
                    .is_some_and(|&c| self.returnable(c)),
                Sel::Hand(_) => false,
            });
            if mine && returnable && ui.button(lang.t("table.back_to_hand")).clicked() {
                intents.push(Intent::Place(Zone::Hand));
            }
        });
        ui.add_space(4.0);
        ui.label(RichText::new(lang.t("table.your_hand")).strong());
        let hint_cards: Vec<Card> = self
            .view
            .hint
            .as_ref()
            .map(|h| h.cards.clone())
            .unwrap_or_default();
        let top = ui.cursor().min;
        ui.horizontal_wrapped(|ui| {
            ui.spacing_mut().item_spacing = vec2(6.0, 10.0);
            let mut hinted_left = hint_cards.clone();
            for (i, &card) in self.hand.iter().enumerate() {
                let (rect, _) = ui.allocate_exact_size(style.size, Sense::hover());
                let sel = Sel::Hand(i);
                let hinted = match hinted_left.iter().position(|c| *c == card) {
                    Some(k) => {
                        hinted_left.remove(k);
                        true
                    }
                    None => false,
                };
                let marks = Marks {
                    selected: self.selection.contains(&sel),
                    hinted,
                    dimmed: false,
                };
                let name = card_name(lang, card);
                let r = cards::card_widget(
                    ui,
                    rect,
                    ui.scope_id().with(("hand", i)),
                    card,
                    &name,
                    style,
                    marks,
                    true,
                );
                // Hand cards can be dragged any time (to reorder the hand);
                // onto the table only on the player's turn.
                r.dnd_set_drag_payload(sel);
                zones.push((rect, Zone::HandAt(i)));
                if r.clicked() {
                    intents.push(Intent::Toggle(sel));
                }
            }
        });
        let bottom_right = ui.min_rect().max;
        zones.push((Rect::from_min_max(top, bottom_right), Zone::Hand));
        ui.add_space(8.0);
    }

    fn discard_pile(
        &self,
        ui: &mut egui::Ui,
        lang: Lang,
        style: &CardStyle,
        intents: &mut Vec<Intent>,
    ) {
        ui.label(
            RichText::new(lang.t("discard.pile"))
                .strong()
                .color(Color32::WHITE),
        );
        if self.view.discard.is_empty() {
            ui.label(lang.t("discard.empty"));
            return;
        }
        let n = self.view.discard.len();
        let step = style.size.x * 0.62;
        let width = step * (n - 1) as f32 + style.size.x;
        let (area, _) = ui.allocate_exact_size(vec2(width, style.size.y + 10.0), Sense::hover());
        let can_pick =
            self.my_turn() && (self.can(ActionKind::Dig) || self.can(ActionKind::TakeDiscard));
        for (i, &card) in self.view.discard.iter().enumerate() {
            let depth = n - 1 - i;
            let rect = Rect::from_min_size(area.min + vec2(step * i as f32, 8.0), style.size);
            let marks = Marks {
                selected: self.dig == Some(depth),
                ..Marks::default()
            };
            let name = lang.fmt("card.in_discard", &[("card", &card_name(lang, card))]);
            let r = cards::card_widget(
                ui,
                rect,
                ui.scope_id().with(("discard", i)),
                card,
                &name,
                style,
                marks,
                can_pick,
            );
            if r.clicked() {
                intents.push(Intent::DigAt(depth));
            }
        }
        ui.add_space(8.0);
    }

    fn groups(
        &self,
        ui: &mut egui::Ui,
        lang: Lang,
        style: &CardStyle,
        intents: &mut Vec<Intent>,
        zones: &mut Vec<(Rect, Zone)>,
    ) {
        let manipulation = self.rules().is_manipulation();
        let mine = self.my_turn();
        let hint_groups: Vec<usize> = self
            .view
            .hint
            .as_ref()
            .map(|h| h.groups.clone())
            .unwrap_or_default();
        let fault = match &self.msg {
            Some(Msg::Refused { group, .. }) => *group,
            Some(Msg::JokerName { group }) => Some(*group),
            _ => None,
        };
        if self.copy.is_empty() {
            ui.label(RichText::new(lang.t("table.empty")).color(Color32::WHITE));
        } else if manipulation && mine {
            ui.label(RichText::new(lang.t("table.how_to")).color(Color32::from_gray(220)));
        }
        let header_h = 24.0;
        let step = style.size.x * 0.62;
        let mut problems = Vec::new();
        ui.horizontal_wrapped(|ui| {
            ui.spacing_mut().item_spacing = vec2(12.0, 12.0);
            for (g, group) in self.copy.iter().enumerate() {
                let n = group.len().max(1);
                let width = (step * (n - 1) as f32 + style.size.x).max(96.0) + 12.0;
                let (tile, _) = ui.allocate_exact_size(
                    vec2(width, header_h + style.size.y + 16.0),
                    Sense::hover(),
                );
                zones.push((tile, Zone::Group(g)));
                let problem = if manipulation {
                    self.group_problem(group)
                        .map(|e| crate::refusal::group_error(lang, &e))
                } else {
                    None
                };
                let hinted = hint_groups.contains(&g) && self.copy == self.base;
                let border = if fault == Some(g) || problem.is_some() {
                    Stroke::new(2.5, Color32::from_rgb(240, 80, 70))
                } else if hinted {
                    Stroke::new(2.5, Color32::from_rgb(255, 190, 0))
                } else {
                    Stroke::new(1.0, Color32::from_rgb(60, 130, 90))
                };
                ui.painter().rect(
                    tile,
                    CornerRadius::same(6),
                    Color32::from_rgb(30, 110, 70),
                    border,
                    StrokeKind::Inside,
                );
                let header = Rect::from_min_size(tile.min, vec2(tile.width(), header_h));
                let label = lang.fmt("table.group", &[("n", &(g + 1).to_string())]);
                let hr = ui.interact(header, ui.scope_id().with(("group", g)), Sense::click());
                let mut head_text = label.clone();
                if problem.is_some() {
                    head_text = format!("{head_text}: {}", lang.t("table.not_valid"));
                }
                let head_colour = if problem.is_some() {
                    Color32::from_rgb(255, 160, 150)
                } else if hr.hovered() {
                    Color32::WHITE
                } else {
                    Color32::from_gray(215)
                };
                ui.painter().text(
                    header.left_center() + vec2(8.0, 0.0),
                    Align2::LEFT_CENTER,
                    head_text,
                    FontId::proportional(14.0),
                    head_colour,
                );
                let enabled = mine;
                hr.widget_info(|| egui::WidgetInfo::labeled(egui::Role::Button, enabled, &label));
                if hr.clicked() && enabled {
                    intents.push(if manipulation {
                        Intent::Place(Zone::Group(g))
                    } else {
                        Intent::LayOff(g)
                    });
                }
                if let Some(p) = problem {
                    problems.push(lang.fmt(
                        "table.group_fault",
                        &[("n", &(g + 1).to_string()), ("why", &p)],
                    ));
                }
                for (i, &card) in group.iter().enumerate() {
                    let rect = Rect::from_min_size(
                        tile.min + vec2(6.0 + step * i as f32, header_h + 8.0),
                        style.size,
                    );
                    let sel = Sel::Table(g, i);
                    let marks = Marks {
                        selected: self.selection.contains(&sel),
                        ..Marks::default()
                    };
                    let name = lang.fmt(
                        "card.in_group",
                        &[
                            ("card", &card_name(lang, card)),
                            ("n", &(g + 1).to_string()),
                        ],
                    );
                    let r = cards::card_widget(
                        ui,
                        rect,
                        ui.scope_id().with(("table", g, i)),
                        card,
                        &name,
                        style,
                        marks,
                        manipulation && mine,
                    );
                    if manipulation && mine {
                        r.dnd_set_drag_payload(sel);
                        if r.clicked() {
                            intents.push(Intent::Toggle(sel));
                        }
                    }
                }
            }
            if manipulation && mine {
                let size = vec2(style.size.x + 60.0, header_h + style.size.y + 16.0);
                let (tile, r) = ui.allocate_exact_size(size, Sense::click());
                zones.push((tile, Zone::NewGroup));
                let colour = if r.hovered() {
                    Color32::WHITE
                } else {
                    Color32::from_gray(200)
                };
                ui.painter().rect_stroke(
                    tile,
                    CornerRadius::same(6),
                    Stroke::new(1.5, colour),
                    StrokeKind::Inside,
                );
                ui.painter().text(
                    tile.center(),
                    Align2::CENTER_CENTER,
                    lang.t("table.new_group"),
                    FontId::proportional(15.0),
                    colour,
                );
                let label = lang.t("table.new_group");
                r.widget_info(|| egui::WidgetInfo::labeled(egui::Role::Button, true, label));
                if r.clicked() {
                    intents.push(Intent::Place(Zone::NewGroup));
                }
            }
        });
        for p in problems {
            ui.label(RichText::new(p).color(Color32::from_rgb(255, 170, 160)));
        }
        if let Some(Msg::Refused {
            why,
            group: Some(g),
        }) = &self.msg
            && self
                .copy
                .get(*g)
                .is_some_and(|grp| self.group_problem(grp).is_none())
        {
            ui.label(
                RichText::new(lang.fmt(
                    "table.group_fault",
                    &[("n", &(g + 1).to_string()), ("why", &why.text(lang))],
                ))
                .color(Color32::from_rgb(255, 170, 160))
                .strong(),
            );
        }
    }

    fn end_reason(&self, lang: Lang, end: HandEnd) -> String {
        match end {
            HandEnd::WentOut { seat } if seat == self.me => lang.t("end.went_out.you").into(),
            HandEnd::WentOut { seat } => {
                lang.fmt("end.went_out", &[("name", &self.player_name(lang, seat))])
            }
            HandEnd::Blocked => lang.t("end.blocked").into(),
            HandEnd::Knocked { seat } if seat == self.me => lang.t("end.knocked.you").into(),
            HandEnd::Knocked { seat } => {
                lang.fmt("end.knocked", &[("name", &self.player_name(lang, seat))])
            }
            HandEnd::StockOut => lang.t("end.stock_out").into(),
            HandEnd::EndedByHost => lang.t("end.by_host").into(),
        }
    }

    fn bonus_name(lang: Lang, bonus: Bonus) -> &'static str {
        lang.t(match bonus {
            Bonus::Undercut => "bonus.undercut",
            Bonus::GoingOut => "bonus.going_out",
            Bonus::Reached150 => "bonus.reached_150",
            Bonus::HandsWon => "bonus.hands_won",
            Bonus::RamiSec => "bonus.rami_sec",
        })
    }

    fn result_grid(&self, ui: &mut egui::Ui, lang: Lang, r: &HandResult) {
        ui.label(
            RichText::new(self.end_reason(lang, r.end))
                .color(Color32::WHITE)
                .size(17.0),
        );
        ui.add_space(6.0);
        egui::Grid::new("hand_result")
            .striped(true)
            .spacing([18.0, 6.0])
            .show(ui, |ui| {
                for key in [
                    "end.player",
                    "end.cards_left",
                    "end.hand_points",
                    "end.this_hand",
                    "end.total",
                ] {
                    ui.label(RichText::new(lang.t(key)).strong());
                }
                ui.end_row();
                for seat in 0..r.totals.len() {
                    ui.label(self.player_name(lang, seat));
                    let left = r
                        .hands_left
                        .get(seat)
                        .map(|h| cards_names(lang, h))
                        .unwrap_or_default();
                    ui.label(if left.is_empty() {
                        "-".to_string()
                    } else {
                        left
                    });
                    ui.label(
                        r.hand_points
                            .get(seat)
                            .map_or(String::new(), |p| p.to_string()),
                    );
                    ui.label(
                        r.deltas
                            .get(seat)
                            .map_or(String::new(), |p| format!("{p:+}")),
                    );
                    ui.label(RichText::new(r.totals[seat].to_string()).strong());
                    ui.end_row();
                }
            });
        if !r.bonuses.is_empty() {
            ui.add_space(4.0);
            ui.label(RichText::new(lang.t("end.bonuses")).strong());
            for (seat, bonus, points) in &r.bonuses {
                ui.label(format!(
                    "{}: {} {points:+}",
                    self.player_name(lang, *seat),
                    Self::bonus_name(lang, *bonus)
                ));
            }
        }
    }

    fn hand_over(&self, ui: &mut egui::Ui, lang: Lang, r: &HandResult, intents: &mut Vec<Intent>) {
        ui.add_space(12.0);
        ui.heading(
            RichText::new(lang.fmt("end.hand_over", &[("n", &r.hand.to_string())]))
                .color(Color32::WHITE)
                .size(26.0),
        );
        self.result_grid(ui, lang, r);
        ui.add_space(12.0);
        if ui
            .add_sized([200.0, 40.0], egui::Button::new(lang.t("end.next_hand")))
            .clicked()
        {
            intents.push(Intent::Ack);
        }
    }

    fn game_over(
        &self,
        ui: &mut egui::Ui,
        lang: Lang,
        outcome: &rami_game::Outcome,
        intents: &mut Vec<Intent>,
    ) {
        ui.add_space(12.0);
        ui.heading(
            RichText::new(lang.t("end.game_over"))
                .color(Color32::WHITE)
                .size(30.0),
        );
        let text = if outcome.draw || outcome.winners.is_empty() {
            lang.t("end.draw").to_string()
        } else {
            let names: Vec<String> = outcome
                .winners
                .iter()
                .map(|&s| self.player_name(lang, s))
                .collect();
            lang.fmt("end.winner", &[("names", &names.join(", "))])
        };
        ui.label(
            RichText::new(text)
                .color(Color32::from_rgb(255, 210, 90))
                .size(22.0),
        );
        ui.add_space(8.0);
        if let Some(r) = &self.view.last_hand {
            self.result_grid(ui, lang, r);
        }
        if !outcome.bonuses.is_empty() {
            ui.add_space(4.0);
            for (seat, bonus, points) in &outcome.bonuses {
                ui.label(format!(
                    "{}: {} {points:+}",
                    self.player_name(lang, *seat),
                    Self::bonus_name(lang, *bonus)
                ));
            }
        }
        ui.add_space(12.0);
        ui.horizontal(|ui| {
            if ui
                .add_sized([200.0, 40.0], egui::Button::new(lang.t("end.play_again")))
                .clicked()
            {
                intents.push(Intent::Leave(Leave::NewGame));
            }
            if ui
                .add_sized([200.0, 40.0], egui::Button::new(lang.t("nav.home")))
                .clicked()
            {
                intents.push(Intent::Leave(Leave::Home));
            }
        });
    }
}

/// Whether `group` is a valid group (jokers not yet named: if they can be).
fn fits(group: &[Card], gr: rami_melds::GroupRules) -> bool {
    if group.contains(&Card::JOKER) {
        !rami_melds::joker_namings(group, gr).is_empty()
    } else {
        rami_melds::validate_group(group, gr).is_ok()
    }
}

/// Splits `cards` into valid groups, if they can be (`failed` remembers the
/// remainders that cannot, so the search stays small for a hand's worth).
fn split_into_groups(
    cards: &[Card],
    gr: rami_melds::GroupRules,
    failed: &mut std::collections::HashSet<Vec<Card>>,
) -> Option<Vec<Vec<Card>>> {
    if cards.is_empty() {
        return Some(Vec::new());
    }
    if fits(cards, gr) {
        return Some(vec![cards.to_vec()]);
    }
    let mut key = cards.to_vec();
    key.sort_unstable();
    if cards.len() < 6 || cards.len() > 20 || failed.contains(&key) {
        return None;
    }
    let (first, rest) = (cards[0], &cards[1..]);
    for mask in 1u32..(1u32 << rest.len()) {
        if mask.count_ones() < 2 {
            continue;
        }
        let mut group = vec![first];
        let mut left = Vec::with_capacity(rest.len());
        for (i, &c) in rest.iter().enumerate() {
            if mask & (1 << i) != 0 {
                group.push(c);
            } else {
                left.push(c);
            }
        }
        if left.len() < 3 || !fits(&group, gr) {
            continue;
        }
        if let Some(mut groups) = split_into_groups(&left, gr, failed) {
            groups.insert(0, group);
            return Some(groups);
        }
    }
    failed.insert(key);
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    fn cards(text: &str) -> Vec<Card> {
        rami_cards::parse_cards(text).expect("test cards")
    }

    #[test]
    fn a_selection_splits_into_its_groups() {
        let gr = RuleSet::Rami.group_rules();
        let groups = split_into_groups(&cards("9S 5H 9D 6H 9C 7H"), gr, &mut Default::default())
            .expect("two groups");
        assert_eq!(groups.len(), 2);
        assert!(groups.iter().all(|g| fits(g, gr)));
        assert_eq!(groups.iter().map(Vec::len).sum::<usize>(), 6);
        assert!(
            split_into_groups(&cards("9S 5H 9D 6H 9C 8H"), gr, &mut Default::default()).is_none()
        );
        // One group stays one group.
        let one = split_into_groups(&cards("5H 6H 7H 8H"), gr, &mut Default::default());
        assert_eq!(one, Some(vec![cards("5H 6H 7H 8H")]));
    }
}
