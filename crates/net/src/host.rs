//! The host driver: a quinn endpoint, one task per phone connection, and one task
//! that drives the [`HostSession`] and turns its outputs into frames, files and
//! mDNS updates.
//!
//! The host's own screen runs the lobby through a [`HostHandle`]
//! ([`RunningHost::handle`]): see the join requests, accept one into a seat or
//! decline it, seat computer players, start; and follow the lobby and presence
//! through [`HostHandle::events`]. Every call is synchronous (no async needed in
//! a UI frame): the session sits behind a mutex the driver holds only while it
//! handles one input, and a call wakes the driver to send what it produced.

use crate::discovery::Publisher;
use crate::link::{Link, LinkRx, LinkTx, QuicLink};
use crate::tls::HostIdentity;
use rami_game::{BotLevel, Game, Seat};
use rami_protocol::{HostMsg, encode};
use rami_session::{
    ConnId, HostBotFn, HostSession, HostSettings, LobbyError, LobbySnapshot, NewGameFn, Output,
    StartError,
};
use serde::{Serialize, de::DeserializeOwned};
use std::collections::HashMap;
use std::net::SocketAddr;
use std::path::PathBuf;
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Mutex, MutexGuard};
use std::time::Duration;
use tokio::sync::{Notify, broadcast, mpsc, watch};

/// How to run a table.
pub struct HostOptions {
    /// The table's settings. `settings.computer_move_delay_ms` paces computer
    /// moves: the driver waits that long before each one (0: at once; a host
    /// with a person at it: `rami_session::DEFAULT_COMPUTER_MOVE_DELAY_MS`).
    pub settings: HostSettings,
    pub identity: HostIdentity,
    pub bind: SocketAddr,
    /// Seats (from the last) given to computer players (of
    /// `settings.cover_level`) before anyone joins.
    pub computers: usize,
    pub autosave: Option<PathBuf>,
    /// A save file to continue from.
    pub resume: Option<Vec<u8>>,
    /// Publish the table by mDNS.
    pub publish: bool,
    /// Stop once the game is over (after the phones were told).
    pub exit_when_over: bool,
    /// Print what happens on standard output.
    pub verbose: bool,
    /// Sees every message as it is handed to a connection (tests: the leak check
    /// over real QUIC compares what each phone receives with the host's truth).
    pub tap: Option<SendTap>,
}

/// One message the host hands to a connection, with the game as it is at that
/// moment: what the leak check over real QUIC compares each phone's bytes with.
pub struct Sent<'a> {
    pub conn: ConnId,
    /// Messages of one batch were made by one input (a frame, a tick, a start);
    /// the phone's view equals the host's view of its seat after each batch.
    pub batch: u64,
    pub msg: &'a HostMsg,
    /// The encoded message (without the frame header), as it goes on the stream.
    pub payload: &'a [u8],
    /// The authoritative game (`None` before the start): downcast it to the game
    /// type the host runs (`rami_engine::AnyGame`).
    pub game: Option<&'a dyn std::any::Any>,
}

/// A callback that sees every message the host sends ([`HostOptions::tap`]).
pub type SendTap = Arc<dyn Fn(&Sent<'_>) + Send + Sync>;

enum ConnEvent {
    Opened(ConnId, mpsc::UnboundedSender<Cmd>),
    Frame(ConnId, Vec<u8>),
    Dropped(ConnId, String),
}

enum Cmd {
    Send(Vec<u8>),
    Close,
}

/// What happens at a hosted table, for the host's own screen
/// ([`HostHandle::events`]).
#[derive(Clone, Debug, PartialEq)]
pub enum HostEvent {
    /// The lobby or the presence changed: a join request came or went, a seat
    /// was taken or freed, a phone dropped or came back, a computer player
    /// covers someone, the game started. Carries the lobby as it is now.
    Lobby(LobbySnapshot),
    /// The game ended (the outcome is in every phone's view).
    GameOver,
    /// The table closed; no more events come.
    Closed,
}

/// The session and the bell that wakes the driver after a command.
struct Shared<G> {
    session: Mutex<HostSession<G>>,
    wake: Notify,
}

impl<G> Shared<G> {
    fn lock(&self) -> MutexGuard<'_, HostSession<G>> {
        // A panic elsewhere while holding the lock must not take the table down
        // with it: the session's own state is still consistent between calls.
        self.session.lock().unwrap_or_else(|e| e.into_inner())
    }
}

/// The lobby commands of [`HostHandle`], on a session of any game type.
trait Control: Send + Sync {
    fn snapshot(&self) -> LobbySnapshot;
    fn accept(&self, id: ConnId, seat: Option<Seat>) -> Result<Seat, LobbyError>;
    fn decline(&self, id: ConnId) -> Result<(), LobbyError>;
    fn add_bot(&self, seat: Seat, level: BotLevel) -> Result<(), LobbyError>;
    fn fill_with_bots(&self, level: BotLevel) -> usize;
    fn clear_seat(&self, seat: Seat) -> Result<(), LobbyError>;
    fn start(&self) -> Result<(), StartError>;
}

impl<G> Control for Shared<G>
where
    G: Game + Clone + Serialize + DeserializeOwned + Send,
{
    fn snapshot(&self) -> LobbySnapshot {
        self.lock().lobby_snapshot()
    }
    fn accept(&self, id: ConnId, seat: Option<Seat>) -> Result<Seat, LobbyError> {
        let r = self.lock().accept(id, seat);
        self.wake.notify_one();
        r
    }
    fn decline(&self, id: ConnId) -> Result<(), LobbyError> {
        let r = self.lock().decline(id);
        self.wake.notify_one();
        r
    }
    fn add_bot(&self, seat: Seat, level: BotLevel) -> Result<(), LobbyError> {
        let r = self.lock().add_computer(seat, level);
        self.wake.notify_one();
        r
    }
    fn fill_with_bots(&self, level: BotLevel) -> usize {
        let r = self.lock().fill_with_computers(level);
        self.wake.notify_one();
        r
    }
    fn clear_seat(&self, seat: Seat) -> Result<(), LobbyError> {
        let r = self.lock().clear_seat(seat);
        self.wake.notify_one();
        r
    }
    fn start(&self) -> Result<(), StartError> {
        let r = self.lock().start(crate::now_ms());
        self.wake.notify_one();
        r
    }
}

/// The host's own screen's hold on a running table: the lobby and its
/// commands, and the events to follow. Cheap to clone; every method is
/// synchronous and may be called from any thread (a UI frame). Each command
/// answers at once with a typed error when it cannot be done (nothing changes
/// then); what it sends to the phones goes out right after.
///
/// Lobby flow: a phone's `Join` appears in [`LobbySnapshot::pending`] (and a
/// [`HostEvent::Lobby`]); [`HostHandle::accept`] seats it (the phone gets its
/// seat and token), [`HostHandle::decline`] tells it "the host declined the
/// request to join" and disconnects it; [`HostHandle::add_bot`] /
/// [`HostHandle::fill_with_bots`] seat computer players; [`HostHandle::start`]
/// deals once every seat is taken (phones still waiting are told the game has
/// started). A host made with `settings.auto_accept` (`rami host --headless`)
/// seats every request at once instead, and with `settings.auto_start` starts
/// when the last seat is taken.
#[derive(Clone)]
pub struct HostHandle {
    ctl: Arc<dyn Control>,
    events: broadcast::Sender<HostEvent>,
    stop: watch::Sender<bool>,
}

impl HostHandle {
    /// The lobby now: seats (who, connected, covered), join requests, started.
    pub fn lobby_snapshot(&self) -> LobbySnapshot {
        self.ctl.snapshot()
    }

    /// Seats the join request `id` in `seat` (`None`: the first empty seat).
    pub fn accept(&self, id: ConnId, seat: Option<Seat>) -> Result<Seat, LobbyError> {
        self.ctl.accept(id, seat)
    }

    /// Declines the join request `id`; the phone is told and disconnected.
    pub fn decline(&self, id: ConnId) -> Result<(), LobbyError> {
        self.ctl.decline(id)
    }

    /// Seats a computer player of `level` in the empty `seat` (before the start).
    pub fn add_bot(&self, seat: Seat, level: BotLevel) -> Result<(), LobbyError> {
        self.ctl.add_bot(seat, level)
    }

    /// Fills every empty seat with a computer player; returns how many.
    pub fn fill_with_bots(&self, level: BotLevel) -> usize {
        self.ctl.fill_with_bots(level)
    }

    /// Empties `seat` before the start (a computer player leaves; a person is
    /// told the host gave the seat away, and disconnected).
    pub fn clear_seat(&self, seat: Seat) -> Result<(), LobbyError> {
        self.ctl.clear_seat(seat)
    }

    /// Deals. Every seat must be taken ([`StartError::EmptySeat`] otherwise).
    pub fn start(&self) -> Result<(), StartError> {
        self.ctl.start()
    }

    /// Events from now on. A receiver that falls more than 64 events behind
    /// gets `Lagged` and should read [`HostHandle::lobby_snapshot`] again.
    pub fn events(&self) -> broadcast::Receiver<HostEvent> {
        self.events.subscribe()
    }

    /// Closes the table: every phone is told, then the driver ends.
    pub fn stop(&self) {
        let _ = self.stop.send(true);
    }
}

/// A table being hosted.
pub struct RunningHost {
    pub addr: SocketAddr,
    pub code: String,
    pub fingerprint: [u8; 32],
    stop: watch::Sender<bool>,
    handle: HostHandle,
    task: tokio::task::JoinHandle<Result<(), String>>,
}

impl RunningHost {
    /// The lobby commands and events of this table (for the host's screen).
    pub fn handle(&self) -> HostHandle {
        self.handle.clone()
    }

    /// Waits for the table to end (game over with `exit_when_over`, or stop).
    pub async fn wait(self) -> Result<(), String> {
        self.task.await.map_err(|e| e.to_string())?
    }

    /// A handle that stops the table when `true` is sent.
    pub fn stopper(&self) -> watch::Sender<bool> {
        self.stop.clone()
    }

    /// Stops the table now.
    pub async fn stop(self) -> Result<(), String> {
        let _ = self.stop.send(true);
        self.wait().await
    }
}

/// The identity file kept beside an autosave (`FILE.identity`).
pub fn identity_path(save: &std::path::Path) -> PathBuf {
    let mut p = save.as_os_str().to_owned();
    p.push(".identity");
    PathBuf::from(p)
}

/// Starts hosting. Returns once the endpoint listens.
pub async fn start_host<G>(
    mut opts: HostOptions,
    new_game: NewGameFn<G>,
    bot: HostBotFn,
) -> Result<RunningHost, String>
where
    G: Game + Clone + Serialize + DeserializeOwned + Send + 'static,
{
    let fp = opts.identity.fingerprint();
    let code = opts.identity.code.clone();
    opts.settings.code = code.clone();
    opts.settings.proof = crate::tls::proof(&code, &fp);
    let server = opts.identity.server_config().map_err(|e| e.to_string())?;
    let endpoint = quinn::Endpoint::server(server, opts.bind)
        .map_err(|e| format!("cannot listen on {}: {e}", opts.bind))?;
    let addr = endpoint.local_addr().map_err(|e| e.to_string())?;

    let session = match &opts.resume {
        Some(bytes) => HostSession::<G>::resume(bytes, new_game, bot, crate::now_ms())
            .map_err(|e| e.to_string())?,
        None => {
            let mut s = HostSession::new(opts.settings.clone(), new_game, bot);
            let seats = opts.settings.seats;
            let level = opts.settings.cover_level;
            for i in seats.saturating_sub(opts.computers)..seats {
                s.add_computer(i, level).map_err(|e| e.to_string())?;
            }
            if opts.settings.auto_start && s.free_seats() == 0 {
                s.start(crate::now_ms()).map_err(|e| e.to_string())?;
            }
            s
        }
    };
    let mut session = session;
    // Without an autosave file nobody keeps the saves: do not make them.
    session.set_autosave(opts.autosave.is_some());
    let publisher = if opts.publish {
        let instance = crate::tls::hex(&fp[..6]);
        match Publisher::start(
            &instance,
            &session.settings().table,
            session.settings().rules.name(),
            &fp,
            addr.port(),
            session.free_seats(),
        ) {
            Ok(p) => Some(p),
            Err(e) => {
                eprintln!("mDNS publishing failed ({e}); phones must be given the address");
                None
            }
        }
    } else {
        None
    };

    let (ev_tx, ev_rx) = mpsc::unbounded_channel();
    let (stop_tx, stop_rx) = watch::channel(false);
    let (events, _) = broadcast::channel(64);
    let shared = Arc::new(Shared {
        session: Mutex::new(session),
        wake: Notify::new(),
    });
    let handle = HostHandle {
        ctl: shared.clone(),
        events: events.clone(),
        stop: stop_tx.clone(),
    };
    let next_id = Arc::new(AtomicU64::new(1));
    let ep = endpoint.clone();
    tokio::spawn(accept_loop(ep, ev_tx, next_id));
    let verbose = opts.verbose;
    let task = tokio::spawn(async move {
        let r = central(&shared, ev_rx, stop_rx, opts, publisher, &events).await;
        let _ = events.send(HostEvent::Closed);
        endpoint.close(0u32.into(), b"closed");
        // Let the close frames go out.
        tokio::time::sleep(Duration::from_millis(100)).await;
        if verbose {
            println!("table closed");
        }
        r
    });
    Ok(RunningHost {
        addr,
        code,
        fingerprint: fp,
        stop: stop_tx,
        handle,
        task,
    })
}

async fn accept_loop(
    ep: quinn::Endpoint,
    ev: mpsc::UnboundedSender<ConnEvent>,
    next: Arc<AtomicU64>,
) {
    while let Some(incoming) = ep.accept().await {
        let ev = ev.clone();
        let id = ConnId(next.fetch_add(1, Ordering::Relaxed));
        tokio::spawn(async move {
            let Ok(conn) = incoming.await else { return };
            let Ok(Ok((send, recv))) =
                tokio::time::timeout(Duration::from_secs(10), conn.accept_bi()).await
            else {
                conn.close(1u32.into(), b"no stream");
                return;
            };
            serve_link(id, QuicLink { conn, send, recv }, ev);
        });
    }
}

/// Serves one phone's link: a reader task and a writer task.
fn serve_link<L: Link>(id: ConnId, link: L, ev: mpsc::UnboundedSender<ConnEvent>) {
    let (mut tx, mut rx) = link.split();
    let (cmd_tx, mut cmd_rx) = mpsc::unbounded_channel::<Cmd>();
    if ev.send(ConnEvent::Opened(id, cmd_tx)).is_err() {
        return;
    }
    tokio::spawn(async move {
        while let Some(cmd) = cmd_rx.recv().await {
            match cmd {
                Cmd::Send(p) => {
                    if tx.send(p).await.is_err() {
                        break;
                    }
                }
                Cmd::Close => {
                    tx.close().await;
                    break;
                }
            }
        }
    });
    tokio::spawn(async move {
        loop {
            match rx.recv().await {
                Ok(f) => {
                    if ev.send(ConnEvent::Frame(id, f)).is_err() {
                        break;
                    }
                }
                Err(e) => {
                    let _ = ev.send(ConnEvent::Dropped(id, e.to_string()));
                    break;
                }
            }
        }
    });
}

/// Serves a link that is not QUIC (tests, and later Bluetooth LE) on a running
/// session loop. Exposed for the in-memory tests.
pub fn write_atomically(path: &std::path::Path, bytes: &[u8]) -> std::io::Result<()> {
    let mut tmp = path.as_os_str().to_owned();
    tmp.push(".tmp");
    std::fs::write(&tmp, bytes)?;
    std::fs::rename(&tmp, path)
}

/// What `flush` needs besides the session.
struct Driver<'a> {
    conns: HashMap<ConnId, mpsc::UnboundedSender<Cmd>>,
    opts: &'a HostOptions,
    publisher: Option<Publisher>,
    free: usize,
    over_at: Option<tokio::time::Instant>,
    batch: u64,
    events: &'a broadcast::Sender<HostEvent>,
}

async fn central<G>(
    shared: &Shared<G>,
    mut ev: mpsc::UnboundedReceiver<ConnEvent>,
    mut stop: watch::Receiver<bool>,
    opts: HostOptions,
    publisher: Option<Publisher>,
    events: &broadcast::Sender<HostEvent>,
) -> Result<(), String>
where
    G: Game + Clone + Serialize + DeserializeOwned + 'static,
{
    let verbose = opts.verbose;
    let mut d = Driver {
        conns: HashMap::new(),
        free: shared.lock().free_seats(),
        opts: &opts,
        publisher,
        over_at: None,
        batch: 0,
        events,
    };
    flush(&mut shared.lock(), &mut d)?;
    // Paced computer moves (`HostSettings::computer_move_delay_ms`): when the
    // session reports a computer seat to move, its move is played once the
    // delay has passed since the input that gave it the turn.
    let mut computer_due: Option<tokio::time::Instant> = None;
    loop {
        let (wake, to_move, delay) = {
            let s = shared.lock();
            (
                s.next_wakeup(),
                s.computer_to_move(),
                Duration::from_millis(s.settings().computer_move_delay_ms),
            )
        };
        let wake = wake.map(|t| {
            let now = crate::now_ms();
            tokio::time::Instant::now() + Duration::from_millis(t.saturating_sub(now))
        });
        computer_due =
            to_move.map(|_| computer_due.unwrap_or_else(|| tokio::time::Instant::now() + delay));
        let wake = match (wake, computer_due) {
            (Some(a), Some(b)) => Some(a.min(b)),
            (a, b) => a.or(b),
        };
        let far = tokio::time::Instant::now() + Duration::from_secs(3600);
        let until = match (wake, d.over_at) {
            (Some(a), Some(b)) => a.min(b),
            (a, b) => a.or(b).unwrap_or(far),
        };
        // Each branch only takes the lock in plain code (never across an await).
        let closing = tokio::select! {
            e = ev.recv() => {
                let now = crate::now_ms();
                let mut s = shared.lock();
                match e {
                    Some(ConnEvent::Opened(id, tx)) => { d.conns.insert(id, tx); s.connect(id, now); }
                    Some(ConnEvent::Frame(id, f)) => s.receive(id, &f, now),
                    Some(ConnEvent::Dropped(id, why)) => {
                        if verbose && d.conns.contains_key(&id) { println!("connection {} dropped: {why}", id.0); }
                        d.conns.remove(&id);
                        s.disconnect(id, now);
                    }
                    None => return Ok(()),
                }
                None
            }
            // A lobby command of the host's screen left outputs to send.
            _ = shared.wake.notified() => None,
            _ = tokio::time::sleep_until(until) => {
                if d.over_at.is_some_and(|t| t <= tokio::time::Instant::now()) {
                    Some(Duration::from_millis(300))
                } else {
                    let mut s = shared.lock();
                    if computer_due.is_some_and(|t| t <= tokio::time::Instant::now()) {
                        computer_due = None;
                        s.play_computer(crate::now_ms());
                    }
                    s.tick(crate::now_ms());
                    None
                }
            }
            _ = stop.changed() => Some(Duration::from_millis(200)),
        };
        d.batch += 1;
        if let Some(linger) = closing {
            {
                let mut s = shared.lock();
                s.close_table();
                d.over_at = None;
                flush(&mut s, &mut d)?;
            }
            tokio::time::sleep(linger).await;
            return Ok(());
        }
        flush(&mut shared.lock(), &mut d)?;
    }
}

fn flush<G>(session: &mut HostSession<G>, d: &mut Driver<'_>) -> Result<(), String>
where
    G: Game + Clone + Serialize + DeserializeOwned + 'static,
{
    let opts = d.opts;
    let batch = d.batch;
    let mut lobby_changed = false;
    while let Some(out) = session.poll() {
        match out {
            Output::Send { conn, msg } => {
                if let (Some(tx), Ok(bytes)) = (d.conns.get(&conn), encode(&msg)) {
                    if let Some(tap) = &opts.tap {
                        tap(&Sent {
                            conn,
                            batch,
                            msg: &msg,
                            payload: &bytes,
                            game: session.game().map(|g| g as &dyn std::any::Any),
                        });
                    }
                    let _ = tx.send(Cmd::Send(bytes));
                }
            }
            Output::Close { conn } => {
                if let Some(tx) = d.conns.remove(&conn) {
                    let _ = tx.send(Cmd::Close);
                }
            }
            Output::Save(bytes) => {
                if let Some(path) = &opts.autosave
                    && let Err(e) = write_atomically(path, &bytes)
                {
                    eprintln!("autosave to {} failed: {e}", path.display());
                }
            }
            Output::LobbyChanged => {
                lobby_changed = true;
                let f = session.free_seats();
                if f != d.free {
                    d.free = f;
                    if let Some(p) = d.publisher.as_mut() {
                        let _ = p.update(f);
                    }
                }
            }
            Output::GameOver => {
                if opts.verbose
                    && let Some(o) = session.game().and_then(|g| g.outcome())
                {
                    println!("game over: winners {:?}, totals {:?}", o.winners, o.totals);
                }
                // No receiver (no screen) is fine.
                let _ = d.events.send(HostEvent::GameOver);
                if opts.exit_when_over && d.over_at.is_none() {
                    d.over_at = Some(tokio::time::Instant::now() + Duration::from_secs(1));
                }
            }
        }
    }
    // One event per input, however many changes it made.
    if lobby_changed {
        let l = session.lobby_snapshot();
        if opts.verbose {
            println!(
                "seats: {:?}{}{}",
                l.seats,
                if l.pending.is_empty() {
                    String::new()
                } else {
                    format!(" waiting: {:?}", l.pending)
                },
                if l.started { " (playing)" } else { "" }
            );
        }
        let _ = d.events.send(HostEvent::Lobby(l));
    }
    Ok(())
}
