//! The authoritative host: lobby, seats, validation with the engine, per-seat
//! views, presence, grace period, computer players, autosave and resume.

use rami_game::{Action, ActionKind, ConfigError, Event, Game, GameConfig, Options, PlayerView};
use rami_game::{Audience, BotLevel, RuleSet, Seat};
use rami_protocol::{
    ActionRefusal, ClientMsg, HostMsg, Intent, Lobby, MAGIC, PROTOCOL_VERSION, Refusal, SeatInfo,
    SeatToken, ViewPatch, normalize_code,
};
use rand::{RngCore, SeedableRng};
use rand_chacha::ChaCha20Rng;
use serde::{Deserialize, Serialize, de::DeserializeOwned};
use std::collections::{BTreeMap, VecDeque};
use std::sync::Arc;

/// A computer player: an action for `view.seat`, `None` when it has nothing to do.
pub type BotFn = Arc<dyn Fn(&PlayerView) -> Option<Action> + Send + Sync>;

/// The host's computer players: an action for `view.seat` played at `level`,
/// on its turn or, out of turn, a claim of the discard (Rami's Claim option).
/// The session asks a seat out of turn only from the computers' moment in the
/// Claim window on ([`rami_discard::claim_time`]), so that people claim or
/// draw first. (`rami_bots::choose_action_or_claim` in the app; the session
/// does not depend on the bots.)
pub type HostBotFn = Arc<dyn Fn(&PlayerView, BotLevel) -> Option<Action> + Send + Sync>;

/// Starts a game of any rule set (`rami_engine::new_game`).
pub type NewGameFn<G> = fn(GameConfig) -> Result<G, ConfigError>;

/// One connection, numbered by the driver.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
pub struct ConnId(pub u64);

/// What the driver must do.
#[derive(Clone, Debug, PartialEq)]
pub enum Output {
    Send {
        conn: ConnId,
        msg: HostMsg,
    },
    /// Close the connection once what was sent to it has gone out.
    Close {
        conn: ConnId,
    },
    /// Write this save file (replacing the last one). Made when the outputs
    /// queued before it were taken: after the messages of the same input.
    Save(Vec<u8>),
    /// The lobby changed (for the host's own screen and the mDNS free-seat count).
    LobbyChanged,
    GameOver,
}

/// How the host runs its table.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct HostSettings {
    pub table: String,
    pub rules: RuleSet,
    pub options: Options,
    /// Number of seats (within the rule set's limits).
    pub seats: usize,
    /// The join code phones must give (compared without case, spaces or dashes).
    pub code: String,
    /// What [`HostMsg::Welcome`] proves (see `rami_protocol::proof_input`).
    pub proof: [u8; 32],
    /// How long a dropped phone keeps its seat before a computer player may take it.
    pub grace_ms: u64,
    /// After the grace period, a computer player plays for the absent person.
    pub computer_takes_over: bool,
    /// Seat every join request at once (a headless host has nobody to ask).
    pub auto_accept: bool,
    /// Start the game by itself once every seat is taken.
    pub auto_start: bool,
    /// Seeds the game and the seat tokens.
    pub seed: u64,
    /// The level of the computer player that covers an absent person.
    #[serde(default)]
    pub cover_level: BotLevel,
    /// How long the driver waits before each computer move, in milliseconds
    /// (0: computer players move at once, inside the input that gave them the
    /// turn). When it is not 0 the session plays no computer turn by itself: it
    /// reports the seat ([`HostSession::computer_to_move`]) and the driver plays
    /// it after the delay ([`HostSession::play_computer`]). The session never
    /// reads a clock; waiting is the driver's. A host with a person at it
    /// should use [`DEFAULT_COMPUTER_MOVE_DELAY_MS`].
    #[serde(default)]
    pub computer_move_delay_ms: u64,
}

/// A readable pace for computer moves at a table with a person at the host
/// (the host's screen): one second per move.
pub const DEFAULT_COMPUTER_MOVE_DELAY_MS: u64 = 1000;

impl HostSettings {
    pub fn new(table: &str, rules: RuleSet, seats: usize) -> Self {
        HostSettings {
            table: table.to_string(),
            rules,
            options: Options::default(),
            seats,
            code: String::new(),
            proof: [0; 32],
            grace_ms: 120_000,
            computer_takes_over: true,
            auto_accept: true,
            auto_start: false,
            seed: 0,
            cover_level: BotLevel::Greedy,
            computer_move_delay_ms: 0,
        }
    }
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
enum Occupant {
    Empty,
    Computer {
        level: BotLevel,
    },
    Human {
        name: String,
        token: SeatToken,
        /// Connected now (not saved).
        #[serde(skip)]
        conn: Option<ConnId>,
        /// Since when the phone has been away.
        away_since: Option<u64>,
        /// A computer player plays for the person.
        covered: bool,
    },
}

#[derive(Clone, Debug, Serialize, Deserialize)]
struct SeatSlot {
    occ: Occupant,
    /// The highest action `seq` seen from this seat (replays are refused).
    last_seq: u64,
    /// The view last sent to the phone (not saved: a rejoin gets a snapshot).
    #[serde(skip)]
    sent: Option<PlayerView>,
}

#[derive(Clone, Debug, PartialEq, Eq)]
enum Stage {
    AwaitHello,
    Looking,
    Waiting { name: String },
    Seated(Seat),
    Closed,
}

/// Why the game cannot start.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum StartError {
    #[error("the game has already started")]
    Started,
    #[error("seat {0} is empty: seat a player or a computer player there")]
    EmptySeat(Seat),
    #[error(transparent)]
    Config(#[from] ConfigError),
}

/// A host command of the lobby that cannot be carried out; nothing changed.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum LobbyError {
    #[error("the game has already started")]
    Started,
    #[error("that join request is no longer waiting (the phone left or was answered)")]
    NoSuchRequest(ConnId),
    #[error("there is no seat {0} at this table")]
    NoSuchSeat(Seat),
    #[error("seat {0} is already taken")]
    SeatTaken(Seat),
    #[error("the table is full: free a seat first")]
    TableFull,
}

/// A phone asking to join, waiting for the host to accept or decline it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct JoinRequest {
    /// Pass it to [`HostSession::accept`] or [`HostSession::decline`].
    pub id: ConnId,
    pub name: String,
}

/// The lobby as the host's own screen shows it: what phones see, plus the join
/// requests with their ids.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct LobbySnapshot {
    pub table: String,
    pub rules: RuleSet,
    pub options: Options,
    /// One entry per seat (who sits there, connected or not, covered or not).
    pub seats: Vec<SeatInfo>,
    /// Join requests in the order they came.
    pub pending: Vec<JoinRequest>,
    pub started: bool,
    /// The game has ended.
    pub over: bool,
    /// Every seat is taken and the game has not started: `start` will work.
    pub can_start: bool,
}

/// A save file that cannot be resumed.
#[derive(Debug, thiserror::Error)]
pub enum ResumeError {
    #[error("not a Rami save file: {0}")]
    Format(String),
    #[error("save file of version {0}, this host reads version {SAVE_VERSION}")]
    Version(u32),
}

/// Version 2: computer seats keep their level.
const SAVE_VERSION: u32 = 2;

/// Everything needed to resume a table after a crash (JSON).
#[derive(Serialize, Deserialize)]
#[serde(bound = "G: Serialize + DeserializeOwned")]
pub struct SaveFile<G> {
    pub format: String,
    pub version: u32,
    pub settings: HostSettings,
    seats: Vec<SeatSlot>,
    pub game: Option<G>,
    rng_state: [u8; 32],
}

/// The host side of a table. Generic over the game so tests can use any
/// [`Game`]; the app uses `rami_engine::AnyGame`.
pub struct HostSession<G> {
    settings: HostSettings,
    new_game: NewGameFn<G>,
    bot: HostBotFn,
    seats: Vec<SeatSlot>,
    conns: BTreeMap<ConnId, Stage>,
    game: Option<G>,
    out: VecDeque<Output>,
    rng: ChaCha20Rng,
    now: u64,
    game_over_sent: bool,
    /// Make an [`Output::Save`] after every change (see
    /// [`HostSession::set_autosave`]).
    autosave: bool,
    /// A change wants saving: the save is made when the outputs before it
    /// have been taken ([`HostSession::poll`]), so messages go out first.
    save_due: bool,
    /// The computers' claim moment ([`rami_discard::claim_time`]) at which
    /// they were last asked: each Claim window's card is offered to them once.
    claims_asked: Option<u64>,
}

/// A save file made from borrowed parts: the same JSON as [`SaveFile`],
/// without cloning the game and the seats (the views last sent among them).
#[derive(Serialize)]
#[serde(bound = "G: Serialize")]
struct SaveRef<'a, G> {
    format: &'a str,
    version: u32,
    settings: &'a HostSettings,
    seats: &'a [SeatSlot],
    game: Option<&'a G>,
    rng_state: [u8; 32],
}

/// Longest player name kept.
const MAX_NAME: usize = 24;
/// Most actions computer players take in a row before the host looks at the
/// clock and the network again (a safety bound, never reached in a real game).
const MAX_BOT_STEPS: usize = 10_000;

impl<G> HostSession<G>
where
    G: Game + Clone + Serialize + DeserializeOwned,
{
    pub fn new(settings: HostSettings, new_game: NewGameFn<G>, bot: HostBotFn) -> Self {
        let seats = (0..settings.seats)
            .map(|_| SeatSlot {
                occ: Occupant::Empty,
                last_seq: 0,
                sent: None,
            })
            .collect();
        let rng = ChaCha20Rng::seed_from_u64(settings.seed ^ 0x5EA7_70C3);
        HostSession {
            settings,
            new_game,
            bot,
            seats,
            conns: BTreeMap::new(),
            game: None,
            out: VecDeque::new(),
            rng,
            now: 0,
            game_over_sent: false,
            autosave: true,
            save_due: false,
            claims_asked: None,
        }
    }

    /// Continues a saved table: every person is away (their grace period starts
    /// now) until their phone rejoins with its seat token.
    pub fn resume(
        bytes: &[u8],
        new_game: NewGameFn<G>,
        bot: HostBotFn,
        now: u64,
    ) -> Result<Self, ResumeError> {
        let save: SaveFile<G> =
            serde_json::from_slice(bytes).map_err(|e| ResumeError::Format(e.to_string()))?;
        if save.format != "rami-table" {
            return Err(ResumeError::Format("wrong format name".into()));
        }
        if save.version != SAVE_VERSION {
            return Err(ResumeError::Version(save.version));
        }
        let mut seats = save.seats;
        for s in &mut seats {
            if let Occupant::Human {
                away_since, conn, ..
            } = &mut s.occ
            {
                *conn = None;
                if away_since.is_none() {
                    *away_since = Some(now);
                }
            }
        }
        Ok(HostSession {
            settings: save.settings,
            new_game,
            bot,
            seats,
            conns: BTreeMap::new(),
            game: save.game,
            out: VecDeque::new(),
            rng: ChaCha20Rng::from_seed(save.rng_state),
            now,
            game_over_sent: false,
            autosave: true,
            save_due: false,
            claims_asked: None,
        })
    }

    pub fn settings(&self) -> &HostSettings {
        &self.settings
    }

    pub fn game(&self) -> Option<&G> {
        self.game.as_ref()
    }

    pub fn started(&self) -> bool {
        self.game.is_some()
    }

    pub fn is_over(&self) -> bool {
        self.game.as_ref().is_some_and(|g| g.is_terminal())
    }

    /// Seats nobody has taken yet.
    pub fn free_seats(&self) -> usize {
        self.seats
            .iter()
            .filter(|s| s.occ == Occupant::Empty)
            .count()
    }

    /// The next output for the driver.
    pub fn poll(&mut self) -> Option<Output> {
        if self.out.is_empty() && self.save_due {
            self.save_due = false;
            self.write_save();
        }
        self.out.pop_front()
    }

    /// Every pending output.
    pub fn drain(&mut self) -> Vec<Output> {
        let mut all: Vec<Output> = self.out.drain(..).collect();
        if self.save_due {
            self.save_due = false;
            self.write_save();
            all.extend(self.out.drain(..));
        }
        all
    }

    /// The lobby as everyone sees it.
    pub fn lobby(&self) -> Lobby {
        Lobby {
            table: self.settings.table.clone(),
            rules: self.settings.rules,
            options: self.settings.options.clone(),
            seats: self.seat_infos(),
            waiting: self
                .conns
                .values()
                .filter_map(|s| match s {
                    Stage::Waiting { name } => Some(name.clone()),
                    _ => None,
                })
                .collect(),
            started: self.started(),
        }
    }

    fn seat_infos(&self) -> Vec<SeatInfo> {
        self.seats
            .iter()
            .map(|s| match &s.occ {
                Occupant::Empty => SeatInfo::Empty,
                Occupant::Computer { level } => SeatInfo::Computer { level: *level },
                Occupant::Human {
                    name,
                    conn,
                    covered,
                    ..
                } => SeatInfo::Human {
                    name: name.clone(),
                    connected: conn.is_some(),
                    covered: *covered,
                },
            })
            .collect()
    }

    /// When the driver should call [`HostSession::tick`] next.
    pub fn next_wakeup(&self) -> Option<u64> {
        let game = self.game.as_ref().and_then(|g| g.next_deadline());
        let game = match (game, self.computer_claim_due()) {
            (Some(a), Some(b)) => Some(a.min(b)),
            (a, b) => a.or(b),
        };
        let grace = if self.settings.computer_takes_over {
            self.seats
                .iter()
                .filter_map(|s| match &s.occ {
                    Occupant::Human {
                        away_since: Some(t),
                        covered: false,
                        ..
                    } => Some(t.saturating_add(self.settings.grace_ms)),
                    _ => None,
                })
                .min()
        } else {
            None
        };
        match (game, grace) {
            (Some(a), Some(b)) => Some(a.min(b)),
            (a, b) => a.or(b),
        }
    }

    // ---- the host's own commands --------------------------------------------------

    /// The lobby as the host's screen shows it (with the join requests' ids).
    pub fn lobby_snapshot(&self) -> LobbySnapshot {
        let started = self.started();
        LobbySnapshot {
            table: self.settings.table.clone(),
            rules: self.settings.rules,
            options: self.settings.options.clone(),
            seats: self.seat_infos(),
            pending: self.pending(),
            started,
            over: self.is_over(),
            can_start: !started && self.free_seat().is_none(),
        }
    }

    /// The phones asking to join, in the order they asked.
    pub fn pending(&self) -> Vec<JoinRequest> {
        self.conns
            .iter()
            .filter_map(|(id, s)| match s {
                Stage::Waiting { name } => Some(JoinRequest {
                    id: *id,
                    name: name.clone(),
                }),
                _ => None,
            })
            .collect()
    }

    /// `seat` to change in the lobby: refused once the game has started.
    fn lobby_seat(&mut self, seat: Seat) -> Result<&mut SeatSlot, LobbyError> {
        if self.started() {
            return Err(LobbyError::Started);
        }
        self.seats.get_mut(seat).ok_or(LobbyError::NoSuchSeat(seat))
    }

    /// Puts a computer player of `level` in the empty `seat` (lobby only).
    pub fn add_computer(&mut self, seat: Seat, level: BotLevel) -> Result<(), LobbyError> {
        let slot = self.lobby_seat(seat)?;
        if slot.occ != Occupant::Empty {
            return Err(LobbyError::SeatTaken(seat));
        }
        slot.occ = Occupant::Computer { level };
        self.lobby_changed();
        Ok(())
    }

    /// Fills every empty seat with a computer player of `level`; returns how many.
    pub fn fill_with_computers(&mut self, level: BotLevel) -> usize {
        (0..self.seats.len())
            .filter(|&i| self.add_computer(i, level).is_ok())
            .count()
    }

    /// Empties `seat` (lobby only): a computer player goes; a person is told the
    /// host gave the seat away ([`Refusal::Removed`]) and disconnected.
    pub fn clear_seat(&mut self, seat: Seat) -> Result<(), LobbyError> {
        let slot = self.lobby_seat(seat)?;
        let old = std::mem::replace(&mut slot.occ, Occupant::Empty);
        if let Occupant::Human { conn: Some(c), .. } = old {
            self.refuse(c, Refusal::Removed);
        }
        self.lobby_changed();
        Ok(())
    }

    /// Seats a person playing on the host's own device; returns the seat and its
    /// token (the local UI acts through [`HostSession::act_local`]).
    pub fn seat_local(&mut self, name: &str) -> Option<(Seat, SeatToken)> {
        let seat = self.free_seat()?;
        let token = self.new_token();
        self.seats[seat].occ = Occupant::Human {
            name: clean_name(name),
            token,
            conn: None,
            away_since: None,
            covered: false,
        };
        self.lobby_changed();
        Some((seat, token))
    }

    /// Accepts the join request `id`: the phone gets `seat`, or the first empty
    /// seat when `None`. On an error nothing changes and the request still waits.
    pub fn accept(&mut self, id: ConnId, seat: Option<Seat>) -> Result<Seat, LobbyError> {
        if self.started() {
            return Err(LobbyError::Started);
        }
        let Some(Stage::Waiting { name }) = self.conns.get(&id).cloned() else {
            return Err(LobbyError::NoSuchRequest(id));
        };
        let seat = match seat {
            Some(s) => match self.seats.get(s) {
                None => return Err(LobbyError::NoSuchSeat(s)),
                Some(slot) if slot.occ != Occupant::Empty => {
                    return Err(LobbyError::SeatTaken(s));
                }
                Some(_) => s,
            },
            None => self.free_seat().ok_or(LobbyError::TableFull)?,
        };
        self.seat_conn_at(id, name, seat);
        Ok(seat)
    }

    /// Declines the join request `id`: the phone is told ([`Refusal::Declined`])
    /// and disconnected.
    pub fn decline(&mut self, id: ConnId) -> Result<(), LobbyError> {
        match self.conns.get(&id) {
            Some(Stage::Waiting { .. }) => {
                self.refuse(id, Refusal::Declined);
                self.lobby_changed();
                Ok(())
            }
            _ => Err(LobbyError::NoSuchRequest(id)),
        }
    }

    /// Starts the game. Every seat must be taken.
    pub fn start(&mut self, now: u64) -> Result<(), StartError> {
        self.now = self.now.max(now);
        if self.started() {
            return Err(StartError::Started);
        }
        if let Some(i) = self.seats.iter().position(|s| s.occ == Occupant::Empty) {
            return Err(StartError::EmptySeat(i));
        }
        let config = GameConfig {
            rules: self.settings.rules,
            players: self.seats.len(),
            options: self.settings.options.clone(),
            seed: self.settings.seed,
            deck: None,
        };
        let mut game = (self.new_game)(config)?;
        // Time starts now: a game is created without a clock, and the first
        // turn's move timer (Rami) starts at the first time it is given.
        let mut events = game.advance_time(self.now);
        self.game = Some(game);
        // Phones still asking to join can no longer get a seat.
        for req in self.pending() {
            self.refuse(req.id, Refusal::GameStarted);
        }
        self.lobby_changed();
        for seat in 0..self.seats.len() {
            self.send_snapshot(seat);
        }
        events.extend(self.run_bots());
        self.broadcast(events);
        self.save();
        Ok(())
    }

    /// With paced computer moves (`computer_move_delay_ms` > 0): the computer
    /// seat whose turn it is, if any. The driver waits the delay, then calls
    /// [`HostSession::play_computer`]. Always `None` without pacing (computer
    /// players then move at once).
    pub fn computer_to_move(&self) -> Option<Seat> {
        if !self.paced() {
            return None;
        }
        let g = self.game.as_ref()?;
        if g.is_terminal() {
            return None;
        }
        let seat = g.current_player()?;
        self.bot_level(seat).map(|_| seat)
    }

    /// Plays one move of the computer seat whose turn it is (see
    /// [`HostSession::computer_to_move`]) and sends the updates. Returns false
    /// when no computer seat is to move.
    pub fn play_computer(&mut self, now: u64) -> bool {
        self.now = self.now.max(now);
        let Some(seat) = self.computer_to_move() else {
            return false;
        };
        let Some(level) = self.bot_level(seat) else {
            return false;
        };
        let bot = self.bot.clone();
        let now = self.now;
        let Some(g) = self.game.as_mut() else {
            return false;
        };
        let Some(mut events) = bot_step(g, &bot, seat, level, now) else {
            return false;
        };
        // Other computer seats' moves out of turn (claims) still come at once.
        events.extend(self.run_bots());
        self.broadcast(events);
        self.save();
        true
    }

    fn paced(&self) -> bool {
        self.settings.computer_move_delay_ms > 0
    }

    /// An action of the person playing on the host's own device.
    pub fn act_local(&mut self, seat: Seat, action: Action, now: u64) -> Result<(), ActionRefusal> {
        self.now = self.now.max(now);
        let g = self.game.as_mut().ok_or(ActionRefusal::NotStarted)?;
        let mut events = g
            .apply(seat, action, self.now)
            .map_err(ActionRefusal::Game)?;
        events.extend(self.run_bots());
        self.broadcast(events);
        self.save();
        Ok(())
    }

    /// Ends the table: every phone is told and closed.
    pub fn close_table(&mut self) {
        let conns: Vec<ConnId> = self.conns.keys().copied().collect();
        for c in conns {
            self.refuse(c, Refusal::Closing);
        }
    }

    // ---- driver inputs -----------------------------------------------------------

    /// A new connection (nothing is sent until its Hello).
    pub fn connect(&mut self, conn: ConnId, now: u64) {
        self.now = self.now.max(now);
        self.conns.insert(conn, Stage::AwaitHello);
    }

    /// The connection dropped (or the driver closed it).
    pub fn disconnect(&mut self, conn: ConnId, now: u64) {
        self.now = self.now.max(now);
        let Some(stage) = self.conns.remove(&conn) else {
            return;
        };
        match stage {
            Stage::Seated(seat) => {
                if let Some(Occupant::Human {
                    conn: c,
                    away_since,
                    ..
                }) = self.seats.get_mut(seat).map(|s| &mut s.occ)
                    && *c == Some(conn)
                {
                    *c = None;
                    *away_since = Some(self.now);
                    self.seats[seat].sent = None;
                    self.presence();
                }
            }
            Stage::Waiting { .. } => self.lobby_changed(),
            _ => {}
        }
    }

    /// Time passes: deadlines of the game, grace periods.
    pub fn tick(&mut self, now: u64) {
        self.now = self.now.max(now);
        let mut changed_presence = false;
        if self.settings.computer_takes_over {
            for s in &mut self.seats {
                if let Occupant::Human {
                    away_since: Some(t),
                    covered,
                    ..
                } = &mut s.occ
                    && !*covered
                    && self.now >= t.saturating_add(self.settings.grace_ms)
                {
                    *covered = true;
                    changed_presence = true;
                }
            }
        }
        if changed_presence {
            self.presence();
        }
        let mut events = Vec::new();
        if let Some(g) = self.game.as_mut()
            && g.next_deadline().is_some_and(|d| d <= self.now)
        {
            events = g.advance_time(self.now);
        }
        events.extend(self.run_bots());
        if !events.is_empty() {
            self.broadcast(events);
            self.save();
        }
    }

    /// One frame's payload from a connection.
    pub fn receive(&mut self, conn: ConnId, payload: &[u8], now: u64) {
        self.now = self.now.max(now);
        let Some(stage) = self.conns.get(&conn).cloned() else {
            return;
        };
        let msg = match rami_protocol::decode::<ClientMsg>(payload) {
            Ok(m) => m,
            Err(e) => {
                if stage == Stage::AwaitHello {
                    self.refuse(conn, Refusal::BadHello);
                } else {
                    // The decoder's words name postcard internals; the phone
                    // only needs to know the message was dropped.
                    let _ = e;
                    self.send(
                        conn,
                        HostMsg::ActionRefused {
                            seq: 0,
                            reason: ActionRefusal::Unreadable,
                        },
                    );
                }
                return;
            }
        };
        self.handle(conn, stage, msg);
    }

    /// One decoded message from a connection.
    pub fn handle_msg(&mut self, conn: ConnId, msg: ClientMsg, now: u64) {
        self.now = self.now.max(now);
        if let Some(stage) = self.conns.get(&conn).cloned() {
            self.handle(conn, stage, msg);
        }
    }

    fn handle(&mut self, conn: ConnId, stage: Stage, msg: ClientMsg) {
        match (stage, msg) {
            (Stage::Closed, _) => {}
            (
                Stage::AwaitHello,
                ClientMsg::Hello {
                    magic,
                    version,
                    code,
                    intent,
                },
            ) => {
                if magic != MAGIC {
                    return self.refuse(conn, Refusal::BadHello);
                }
                if version != PROTOCOL_VERSION {
                    return self.refuse(
                        conn,
                        Refusal::Version {
                            ours: PROTOCOL_VERSION,
                            theirs: version,
                        },
                    );
                }
                if normalize_code(&code) != normalize_code(&self.settings.code) {
                    return self.refuse(conn, Refusal::WrongCode);
                }
                self.hello(conn, intent);
            }
            (Stage::AwaitHello, _) => self.refuse(conn, Refusal::BadHello),
            (_, ClientMsg::Hello { .. }) => self.send(
                conn,
                HostMsg::ActionRefused {
                    seq: 0,
                    reason: ActionRefusal::AlreadyGreeted,
                },
            ),
            (Stage::Seated(seat), ClientMsg::Act { seq, action }) => {
                self.phone_action(conn, seat, seq, action)
            }
            (Stage::Seated(seat), ClientMsg::Resync) => {
                self.seats[seat].sent = None;
                self.send_snapshot(seat);
            }
            (Stage::Seated(seat), ClientMsg::Leave) => {
                self.conns.insert(conn, Stage::Closed);
                self.seats[seat].occ = if self.started() {
                    Occupant::Computer {
                        level: self.settings.cover_level,
                    }
                } else {
                    Occupant::Empty
                };
                self.seats[seat].sent = None;
                self.out.push_back(Output::Close { conn });
                self.lobby_changed();
                let events = self.run_bots();
                if !events.is_empty() {
                    self.broadcast(events);
                    self.save();
                }
            }
            (_, ClientMsg::Leave) => {
                self.conns.insert(conn, Stage::Closed);
                self.out.push_back(Output::Close { conn });
                self.lobby_changed();
            }
            (_, ClientMsg::Act { seq, .. }) => self.send(
                conn,
                HostMsg::ActionRefused {
                    seq,
                    reason: ActionRefusal::NoSeat,
                },
            ),
            (_, ClientMsg::Resync) => {
                let lobby = self.lobby();
                self.send(conn, HostMsg::Lobby(lobby));
            }
        }
    }

    fn hello(&mut self, conn: ConnId, intent: Intent) {
        let welcome = HostMsg::Welcome {
            version: PROTOCOL_VERSION,
            proof: self.settings.proof,
        };
        match intent {
            Intent::Look => {
                self.send(conn, welcome);
                self.conns.insert(conn, Stage::Looking);
                let lobby = self.lobby();
                self.send(conn, HostMsg::Lobby(lobby));
            }
            Intent::Join { name } => {
                if self.started() {
                    return self.refuse(conn, Refusal::GameStarted);
                }
                // A host who answers requests may free a seat (a computer
                // player's) for a late phone, so only an auto-accepting host
                // turns it away at once.
                if self.settings.auto_accept && self.free_seat().is_none() {
                    return self.refuse(conn, Refusal::TableFull);
                }
                self.send(conn, welcome);
                let name = clean_name(&name);
                if self.settings.auto_accept {
                    self.seat_conn(conn, name);
                } else {
                    self.conns.insert(conn, Stage::Waiting { name });
                    self.send(conn, HostMsg::Waiting);
                    self.lobby_changed();
                }
            }
            Intent::Rejoin { token } => {
                let Some(seat) = self.seats.iter().position(
                    |s| matches!(&s.occ, Occupant::Human { token: t, .. } if *t == token),
                ) else {
                    return self.refuse(conn, Refusal::UnknownToken);
                };
                self.send(conn, welcome);
                if let Occupant::Human {
                    conn: c,
                    away_since,
                    covered,
                    ..
                } = &mut self.seats[seat].occ
                {
                    let old = c.replace(conn);
                    *away_since = None;
                    *covered = false;
                    if let Some(old) = old
                        && old != conn
                    {
                        self.conns.insert(old, Stage::Closed);
                        self.send(
                            old,
                            HostMsg::Refused {
                                reason: Refusal::Replaced,
                                message: Refusal::Replaced.to_string(),
                            },
                        );
                        self.out.push_back(Output::Close { conn: old });
                    }
                }
                self.conns.insert(conn, Stage::Seated(seat));
                self.send(conn, HostMsg::Seated { seat, token });
                let lobby = self.lobby();
                self.send(conn, HostMsg::Lobby(lobby));
                self.seats[seat].sent = None;
                self.send_snapshot(seat);
                self.presence();
            }
        }
    }

    /// Seats an auto-accepted phone in the first empty seat.
    fn seat_conn(&mut self, conn: ConnId, name: String) -> bool {
        let Some(seat) = self.free_seat() else {
            self.refuse(conn, Refusal::TableFull);
            self.lobby_changed();
            return false;
        };
        self.seat_conn_at(conn, name, seat);
        true
    }

    /// Seats `conn` in the empty `seat`.
    fn seat_conn_at(&mut self, conn: ConnId, name: String, seat: Seat) {
        let token = self.new_token();
        self.seats[seat].occ = Occupant::Human {
            name,
            token,
            conn: Some(conn),
            away_since: None,
            covered: false,
        };
        self.conns.insert(conn, Stage::Seated(seat));
        self.send(conn, HostMsg::Seated { seat, token });
        self.lobby_changed();
        if self.settings.auto_start && self.free_seat().is_none() {
            let now = self.now;
            let _ = self.start(now);
        }
    }

    fn phone_action(&mut self, conn: ConnId, seat: Seat, seq: u64, action: Action) {
        let last = self.seats[seat].last_seq;
        if seq <= last {
            return self.send(
                conn,
                HostMsg::ActionRefused {
                    seq,
                    reason: ActionRefusal::Replayed { seq, last },
                },
            );
        }
        self.seats[seat].last_seq = seq;
        let now = self.now;
        let Some(g) = self.game.as_mut() else {
            return self.send(
                conn,
                HostMsg::ActionRefused {
                    seq,
                    reason: ActionRefusal::NotStarted,
                },
            );
        };
        match g.apply(seat, action, now) {
            Err(e) => self.send(
                conn,
                HostMsg::ActionRefused {
                    seq,
                    reason: ActionRefusal::Game(e),
                },
            ),
            Ok(mut events) => {
                events.extend(self.run_bots());
                self.broadcast(events);
                self.save();
            }
        }
    }

    // ---- computer players ----------------------------------------------------------

    /// When the computer seats are to be asked whether they claim the card
    /// of the open Claim window, if they have not been asked yet and one of
    /// them may claim (not the next player's seat).
    fn computer_claim_due(&self) -> Option<u64> {
        let g = self.game.as_ref()?;
        let next = g.current_player()?;
        let at = rami_discard::claim_time(&g.view(next))?;
        let someone = (0..self.seats.len()).any(|s| s != next && self.bot_level(s).is_some());
        (someone && self.claims_asked != Some(at)).then_some(at)
    }

    /// The level of the computer player playing `seat`, if one does.
    fn bot_level(&self, seat: Seat) -> Option<BotLevel> {
        match &self.seats[seat].occ {
            Occupant::Computer { level } => Some(*level),
            Occupant::Empty => Some(self.settings.cover_level),
            Occupant::Human { covered: true, .. } => Some(self.settings.cover_level),
            Occupant::Human { .. } => None,
        }
    }

    /// Lets computer players act until it is a person's turn. With paced
    /// computer moves, a computer seat's own turn is left to the driver
    /// ([`HostSession::play_computer`]). Moves out of turn (claims) come here,
    /// once the computers' moment in the Claim window has come
    /// ([`rami_discard::claim_time`]), the seats asked in
    /// [`rami_discard::claim_order`].
    fn run_bots(&mut self) -> Vec<Event> {
        let mut events = Vec::new();
        let now = self.now;
        let paced = self.paced();
        let bot = self.bot.clone();
        let bot_seats: Vec<(Seat, BotLevel)> = (0..self.seats.len())
            .filter_map(|s| self.bot_level(s).map(|l| (s, l)))
            .collect();
        let Some(g) = self.game.as_mut() else {
            return events;
        };
        for _ in 0..MAX_BOT_STEPS {
            if g.is_terminal() {
                break;
            }
            if let Some(ev) = bot_claim(g, &bot, &bot_seats, now, &mut self.claims_asked) {
                events.extend(ev);
                continue;
            }
            let mut acted = false;
            for &(seat, level) in &bot_seats {
                if g.current_player() != Some(seat) || paced {
                    continue;
                }
                if let Some(ev) = bot_step(g, &bot, seat, level, now) {
                    events.extend(ev);
                    acted = true;
                }
            }
            if !acted {
                break;
            }
        }
        events
    }

    // ---- sending -------------------------------------------------------------------

    fn broadcast(&mut self, events: Vec<Event>) {
        let Some(g) = self.game.as_ref() else {
            return;
        };
        let mut sends = Vec::new();
        for (seat, slot) in self.seats.iter_mut().enumerate() {
            let Occupant::Human {
                conn: Some(conn), ..
            } = &slot.occ
            else {
                continue;
            };
            let view = g.view(seat);
            let mine: Vec<Event> = events
                .iter()
                .filter(|e| match e.audience() {
                    Audience::Everyone => true,
                    Audience::Only(s) => s == seat,
                })
                .cloned()
                .collect();
            let msg = match &slot.sent {
                Some(old) => {
                    let patch = ViewPatch::diff_after(old, &mine, &view);
                    if patch.is_empty() && mine.is_empty() {
                        continue;
                    }
                    HostMsg::Update {
                        events: mine,
                        patch: Box::new(patch),
                    }
                }
                None => HostMsg::Snapshot {
                    view: Box::new(view.clone()),
                },
            };
            slot.sent = Some(view);
            sends.push((*conn, msg));
        }
        let over = g.is_terminal();
        for (conn, msg) in sends {
            self.send(conn, msg);
        }
        if over && !self.game_over_sent {
            self.game_over_sent = true;
            let conns: Vec<ConnId> = self.conns.keys().copied().collect();
            for c in conns {
                self.send(c, HostMsg::GameOver);
            }
            self.out.push_back(Output::GameOver);
        }
    }

    fn send_snapshot(&mut self, seat: Seat) {
        let Some(g) = self.game.as_ref() else {
            return;
        };
        let Occupant::Human {
            conn: Some(conn), ..
        } = self.seats[seat].occ
        else {
            return;
        };
        let view = g.view(seat);
        self.seats[seat].sent = Some(view.clone());
        self.send(
            conn,
            HostMsg::Snapshot {
                view: Box::new(view),
            },
        );
    }

    fn send(&mut self, conn: ConnId, msg: HostMsg) {
        self.out.push_back(Output::Send { conn, msg });
    }

    fn refuse(&mut self, conn: ConnId, reason: Refusal) {
        let message = reason.to_string();
        self.send(conn, HostMsg::Refused { reason, message });
        self.conns.insert(conn, Stage::Closed);
        self.out.push_back(Output::Close { conn });
    }

    fn presence(&mut self) {
        let seats = self.seat_infos();
        let conns: Vec<ConnId> = self
            .conns
            .iter()
            .filter(|(_, s)| matches!(s, Stage::Seated(_) | Stage::Looking | Stage::Waiting { .. }))
            .map(|(c, _)| *c)
            .collect();
        for c in conns {
            self.send(
                c,
                HostMsg::Presence {
                    seats: seats.clone(),
                },
            );
        }
        self.out.push_back(Output::LobbyChanged);
    }

    fn lobby_changed(&mut self) {
        let lobby = self.lobby();
        let conns: Vec<ConnId> = self
            .conns
            .iter()
            .filter(|(_, s)| matches!(s, Stage::Seated(_) | Stage::Looking | Stage::Waiting { .. }))
            .map(|(c, _)| *c)
            .collect();
        for c in conns {
            self.send(c, HostMsg::Lobby(lobby.clone()));
        }
        self.out.push_back(Output::LobbyChanged);
    }

    /// Asks for an autosave: made once the outputs queued before it have been
    /// taken, so the JSON is written after the messages are on their way.
    fn save(&mut self) {
        if self.autosave {
            self.save_due = true;
        }
    }

    fn write_save(&mut self) {
        let mut rng_state = [0u8; 32];
        let mut fork = self.rng.clone();
        fork.fill_bytes(&mut rng_state);
        let save = SaveRef {
            format: "rami-table",
            version: SAVE_VERSION,
            settings: &self.settings,
            seats: &self.seats,
            game: self.game.as_ref(),
            rng_state,
        };
        if let Ok(bytes) = serde_json::to_vec(&save) {
            self.out.push_back(Output::Save(bytes));
        }
    }

    /// Whether the session makes an [`Output::Save`] after every change (on by
    /// default). A driver that writes no autosave turns it off, so that no
    /// input waits for a save nobody keeps; [`HostSession::save_bytes`] still
    /// works.
    pub fn set_autosave(&mut self, on: bool) {
        self.autosave = on;
    }

    /// The save file of the table as it is now.
    pub fn save_bytes(&mut self) -> Vec<u8> {
        self.write_save();
        match self.out.pop_back() {
            Some(Output::Save(b)) => b,
            Some(other) => {
                self.out.push_back(other);
                Vec::new()
            }
            None => Vec::new(),
        }
    }

    fn free_seat(&self) -> Option<Seat> {
        self.seats.iter().position(|s| s.occ == Occupant::Empty)
    }

    fn new_token(&mut self) -> SeatToken {
        let mut t = [0u8; 16];
        self.rng.fill_bytes(&mut t);
        SeatToken(t)
    }
}

fn clean_name(name: &str) -> String {
    let n: String = name
        .chars()
        .filter(|c| !c.is_control())
        .take(MAX_NAME)
        .collect();
    let n = n.trim().to_string();
    if n.is_empty() { "Player".into() } else { n }
}

/// A computer seat's claim of the card of the open Claim window, once the
/// computers' moment has come at `now` and if they were not asked at that
/// moment yet (`asked` remembers it): the seats in claim order, the first
/// whose bot claims, and the claim's events.
fn bot_claim<G: Game>(
    g: &mut G,
    bot: &HostBotFn,
    bot_seats: &[(Seat, BotLevel)],
    now: u64,
    asked: &mut Option<u64>,
) -> Option<Vec<Event>> {
    let next = g.current_player()?;
    let at = rami_discard::claim_time(&g.view(next))?;
    if now < at || *asked == Some(at) {
        return None;
    }
    *asked = Some(at);
    rami_discard::claim_order(g.num_players(), next).find_map(|seat| {
        let &(_, level) = bot_seats.iter().find(|(s, _)| *s == seat)?;
        if !g.legal_actions(seat).contains(&ActionKind::Claim) {
            return None;
        }
        match bot(&g.view(seat), level)? {
            Action::Claim => g.apply(seat, Action::Claim, now).ok(),
            _ => None,
        }
    })
}

/// One move of the computer player in `seat`, if it has one: its own choice,
/// or, when that is not valid on its turn, the simplest legal way to end or
/// advance the turn.
fn bot_step<G: Game>(
    g: &mut G,
    bot: &HostBotFn,
    seat: Seat,
    level: BotLevel,
    now: u64,
) -> Option<Vec<Event>> {
    let legal = g.legal_actions(seat);
    if legal.is_empty() {
        return None;
    }
    let view = g.view(seat);
    if let Some(ev) = bot(&view, level).and_then(|a| g.apply(seat, a, now).ok()) {
        return Some(ev);
    }
    if g.current_player() != Some(seat) {
        return None;
    }
    for kind in [
        ActionKind::Draw,
        ActionKind::Pass,
        ActionKind::TakeDiscard,
        ActionKind::GiveUp,
    ] {
        if !legal.contains(&kind) {
            continue;
        }
        let a = match kind {
            ActionKind::Draw => Action::Draw,
            ActionKind::Pass => Action::Pass,
            ActionKind::TakeDiscard => Action::TakeDiscard,
            _ => Action::GiveUp,
        };
        if let Ok(ev) = g.apply(seat, a, now) {
            return Some(ev);
        }
    }
    None
}
