//! Nearby play glue: hosting a table and joining one, on a tokio runtime in a
//! background thread that talks to the UI through channels.
//!
//! The UI sends [`Cmd`]s and reads [`Note`]s; every note asks egui for a repaint,
//! so the app repaints only when something arrives (no polling loop). Both the
//! host's own seat and a phone's seat are driven by a [`ClientSession`]: the
//! host's is fed in-process (no socket), a phone's over QUIC. The UI's table is
//! the same for both.
//!
//! The host side owns its [`HostSession`] here, built from `rami_net`'s public
//! pieces (certificate and join code, QUIC links, mDNS publishing), because the
//! headless driver `rami_net::host::start_host` does not let a local player sit
//! at the table or press Start. When `rami_net` gains its interactive lobby
//! (accept/decline, add a computer player, start), [`host_main`] is the one
//! place to swap: the [`Cmd`]/[`Note`] interface stays.

use eframe::egui;
use rami_engine::AnyGame;
use rami_game::{Action, ActionError, Event, Game, Options, PlayerView, RuleSet, Seat};
use rami_net::discovery::{self, FoundTable, Publisher};
use rami_net::link::{Link, LinkRx, LinkTx, QuicLink};
use rami_net::tls::{self, HostIdentity};
use rami_protocol::{ClientMsg, HostMsg, Lobby, Refusal, SeatInfo, decode, encode};
use rami_session::{
    ClientError, ClientEvent, ClientSession, ConnId, HostSession, HostSettings, Output,
};
use std::collections::HashMap;
use std::net::SocketAddr;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, mpsc as std_mpsc};
use std::time::{Duration, Instant};
use tokio::sync::mpsc;

/// What the UI asks of the table.
#[derive(Clone, Debug)]
pub enum Cmd {
    /// An action for this device's seat.
    Act(Action),
    /// Host: fill the empty seats with computer players and start the game.
    Start,
    /// Leave (phone) or close (host) the table.
    Stop,
}

/// Where the link to the table stands.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum LinkState {
    Up,
    /// The link dropped; trying to rejoin the seat.
    Rejoining,
}

/// What the table tells the UI.
#[derive(Clone, Debug)]
pub enum Note {
    /// Host: the table is open.
    Hosting {
        code: String,
        addr: SocketAddr,
        fingerprint: [u8; 32],
    },
    Lobby(Lobby),
    Presence(Vec<SeatInfo>),
    /// This device has a seat.
    Seated(Seat),
    /// The join request waits for the host.
    Waiting,
    View {
        view: Box<PlayerView>,
        events: Vec<Event>,
    },
    /// An action was refused: typed when the engine's error is known here (the
    /// host's own seat), the host's text otherwise.
    Refused {
        error: Option<ActionError>,
        text: String,
    },
    /// The game could not start (host).
    StartFailed(String),
    Link(LinkState),
    GameOver,
    /// The table cannot be reached or refused us; `refusal` when the host said why.
    Failed {
        refusal: Option<Refusal>,
        text: String,
    },
    /// The table was closed (normally).
    Closed,
}

/// How to open a table.
#[derive(Clone, Debug)]
pub struct HostSetup {
    pub table: String,
    pub rules: RuleSet,
    pub seats: usize,
    pub options: Options,
    /// The name of the person playing on this device.
    pub name: String,
    pub bind: SocketAddr,
    /// Publish the table by mDNS.
    pub publish: bool,
    /// How long a dropped phone keeps its seat before a computer player takes it.
    pub grace: Duration,
}

/// How to join a table.
#[derive(Clone, Debug)]
pub struct JoinSetup {
    pub name: String,
    pub code: String,
    pub addr: SocketAddr,
    pub fingerprint: [u8; 32],
    /// How long to keep trying to rejoin after a drop.
    pub rejoin_for: Duration,
}

/// Sends notes to the UI and wakes it.
#[derive(Clone)]
struct Out {
    tx: std_mpsc::Sender<Note>,
    ctx: egui::Context,
}

impl Out {
    fn send(&self, note: Note) {
        let _ = self.tx.send(note);
        self.ctx.request_repaint();
    }
}

/// A table this device hosts or joined: the background thread's handle.
pub struct Nearby {
    cmd: mpsc::UnboundedSender<Cmd>,
    notes: std_mpsc::Receiver<Note>,
}

impl Nearby {
    fn spawn<F, Fut>(ctx: &egui::Context, name: &str, body: F) -> Nearby
    where
        F: FnOnce(mpsc::UnboundedReceiver<Cmd>, Out) -> Fut + Send + 'static,
        Fut: std::future::Future<Output = ()>,
    {
        let (cmd_tx, cmd_rx) = mpsc::unbounded_channel();
        let (note_tx, note_rx) = std_mpsc::channel();
        let out = Out {
            tx: note_tx,
            ctx: ctx.clone(),
        };
        let fail = out.clone();
        let spawned = std::thread::Builder::new()
            .name(name.to_string())
            .spawn(move || {
                match tokio::runtime::Builder::new_current_thread()
                    .enable_all()
                    .build()
                {
                    Ok(rt) => rt.block_on(body(cmd_rx, out)),
                    Err(e) => out.send(Note::Failed {
                        refusal: None,
                        text: e.to_string(),
                    }),
                }
            });
        if let Err(e) = spawned {
            fail.send(Note::Failed {
                refusal: None,
                text: e.to_string(),
            });
        }
        Nearby {
            cmd: cmd_tx,
            notes: note_rx,
        }
    }

    /// Opens a table on this device.
    pub fn host(ctx: &egui::Context, setup: HostSetup) -> Nearby {
        Nearby::spawn(ctx, "rami-host", move |cmds, out| async move {
            if let Err(e) = host_main(setup, cmds, &out).await {
                out.send(Note::Failed {
                    refusal: None,
                    text: e,
                });
            }
        })
    }

    /// Joins a table as a phone.
    pub fn join(ctx: &egui::Context, setup: JoinSetup) -> Nearby {
        Nearby::spawn(ctx, "rami-phone", move |cmds, out| async move {
            phone_main(setup, cmds, &out).await;
        })
    }

    pub fn send(&self, cmd: Cmd) {
        let _ = self.cmd.send(cmd);
    }

    /// The notes that arrived since the last call.
    pub fn poll(&self) -> Vec<Note> {
        self.notes.try_iter().collect()
    }
}

impl Drop for Nearby {
    fn drop(&mut self) {
        let _ = self.cmd.send(Cmd::Stop);
    }
}

/// Looks for tables nearby (mDNS) until dropped.
pub struct Browser {
    rx: std_mpsc::Receiver<Result<Vec<FoundTable>, String>>,
    stop: Arc<AtomicBool>,
}

impl Browser {
    pub fn start(ctx: &egui::Context) -> Browser {
        let (tx, rx) = std_mpsc::channel();
        let stop = Arc::new(AtomicBool::new(false));
        let flag = stop.clone();
        let ctx = ctx.clone();
        let _ = std::thread::Builder::new()
            .name("rami-browse".into())
            .spawn(move || {
                let mut last: Option<Vec<FoundTable>> = None;
                while !flag.load(Ordering::Relaxed) {
                    let found = discovery::browse(Duration::from_secs(2), |_| false);
                    let failed = found.is_err();
                    let changed = match (&found, &last) {
                        (Ok(f), Some(l)) => f != l,
                        _ => true,
                    };
                    if changed {
                        if let Ok(f) = &found {
                            last = Some(f.clone());
                        }
                        if tx.send(found).is_err() {
                            return;
                        }
                        ctx.request_repaint();
                    }
                    if failed {
                        // No multicast here; try again later.
                        std::thread::sleep(Duration::from_secs(5));
                    }
                }
            });
        Browser { rx, stop }
    }

    /// The latest list of tables (or why browsing failed), if it changed.
    pub fn poll(&self) -> Option<Result<Vec<FoundTable>, String>> {
        self.rx.try_iter().last()
    }
}

impl Drop for Browser {
    fn drop(&mut self) {
        self.stop.store(true, Ordering::Relaxed);
    }
}

/// Whether a typed join code belongs to a table found nearby.
pub fn code_fits(code: &str, table: &FoundTable) -> bool {
    table
        .fingerprint
        .is_some_and(|fp| tls::code_matches(code, &fp))
}

fn random_seed() -> u64 {
    let mut b = [0u8; 8];
    let _ = ring::rand::SecureRandom::fill(&ring::rand::SystemRandom::new(), &mut b);
    u64::from_le_bytes(b)
}

/// Turns what the client session noticed into notes for the UI.
fn forward(client: &mut ClientSession, out: &Out) {
    while let Some(ev) = client.poll_event() {
        let note = match ev {
            ClientEvent::Welcomed => continue,
            ClientEvent::Waiting => Note::Waiting,
            ClientEvent::Seated { seat, .. } => Note::Seated(seat),
            ClientEvent::Lobby => match client.lobby() {
                Some(l) => Note::Lobby(l.clone()),
                None => continue,
            },
            ClientEvent::View { events } => match client.view() {
                Some(v) => Note::View {
                    view: Box::new(v.clone()),
                    events,
                },
                None => continue,
            },
            ClientEvent::Refused { reason, .. } => Note::Refused {
                error: reason.game_error().cloned(),
                text: reason.to_string(),
            },
            ClientEvent::Presence => Note::Presence(client.presence().to_vec()),
            ClientEvent::GameOver => Note::GameOver,
        };
        out.send(note);
    }
}

enum ConnEvent {
    Opened(ConnId, mpsc::UnboundedSender<Vec<u8>>),
    Frame(ConnId, Vec<u8>),
    Dropped(ConnId),
}

/// The host's own seat talks to the session through this connection number.
const LOCAL: ConnId = ConnId(0);

async fn host_main(
    setup: HostSetup,
    mut cmds: mpsc::UnboundedReceiver<Cmd>,
    out: &Out,
) -> Result<(), String> {
    let identity = HostIdentity::generate().map_err(|e| e.to_string())?;
    let fp = identity.fingerprint();
    let code = identity.code.clone();
    let mut settings = HostSettings::new(&setup.table, setup.rules, setup.seats);
    settings.options = setup.options.clone();
    settings.code = code.clone();
    settings.proof = tls::proof(&code, &fp);
    settings.grace_ms = setup.grace.as_millis() as u64;
    settings.computer_takes_over = true;
    settings.auto_accept = true;
    settings.auto_start = false;
    settings.seed = random_seed();
    let server = identity.server_config().map_err(|e| e.to_string())?;
    let endpoint = quinn::Endpoint::server(server, setup.bind).map_err(|e| e.to_string())?;
    let addr = endpoint.local_addr().map_err(|e| e.to_string())?;
    let mut session =
        HostSession::<AnyGame>::new(settings, rami_engine::new_game, rami_net::cli::host_bots());
    let mut publisher = if setup.publish {
        Publisher::start(
            &tls::hex(&fp[..6]),
            &setup.table,
            setup.rules.name(),
            &fp,
            addr.port(),
            session.free_seats(),
        )
        .ok()
    } else {
        None
    };
    out.send(Note::Hosting {
        code: code.clone(),
        addr,
        fingerprint: fp,
    });

    // The person at this device takes the first seat, through a connection that
    // never leaves this thread.
    let mut me = ClientSession::new(&setup.name, &code, None);
    let now = rami_net::now_ms();
    session.connect(LOCAL, now);
    session.handle_msg(LOCAL, me.hello(), now);

    let (ev_tx, mut ev_rx) = mpsc::unbounded_channel();
    tokio::spawn(accept_loop(endpoint.clone(), ev_tx));
    let mut conns: HashMap<ConnId, mpsc::UnboundedSender<Vec<u8>>> = HashMap::new();
    let mut free = usize::MAX;
    loop {
        // Hand out what the session produced.
        while let Some(o) = session.poll() {
            match o {
                Output::Send { conn, msg } if conn == LOCAL => {
                    if let Err(e) = me.receive(msg) {
                        out.send(Note::Failed {
                            refusal: None,
                            text: e.to_string(),
                        });
                    }
                }
                Output::Send { conn, msg } => {
                    if let (Some(tx), Ok(bytes)) = (conns.get(&conn), encode(&msg)) {
                        let _ = tx.send(bytes);
                    }
                }
                Output::Close { conn } => {
                    conns.remove(&conn);
                }
                Output::LobbyChanged => {
                    let f = session.free_seats();
                    if f != free {
                        free = f;
                        if let Some(p) = publisher.as_mut() {
                            let _ = p.update(f);
                        }
                    }
                }
                Output::Save(_) | Output::GameOver => {}
            }
        }
        forward(&mut me, out);

        let wake = session.next_wakeup().map(|t| {
            let now = rami_net::now_ms();
            tokio::time::Instant::now() + Duration::from_millis(t.saturating_sub(now))
        });
        let until = wake.unwrap_or_else(|| tokio::time::Instant::now() + Duration::from_secs(3600));
        tokio::select! {
            ev = ev_rx.recv() => {
                let now = rami_net::now_ms();
                match ev {
                    Some(ConnEvent::Opened(id, tx)) => { conns.insert(id, tx); session.connect(id, now); }
                    Some(ConnEvent::Frame(id, f)) => session.receive(id, &f, now),
                    Some(ConnEvent::Dropped(id)) => { conns.remove(&id); session.disconnect(id, now); }
                    None => break,
                }
            }
            cmd = cmds.recv() => {
                let now = rami_net::now_ms();
                match cmd {
                    Some(Cmd::Act(action)) => {
                        // Judge the action on a copy first, so the local player sees
                        // the engine's own error (translated, with its group and
                        // joker names), not only its English text.
                        let verdict = match (session.game(), me.seat()) {
                            (Some(g), Some(seat)) => g.clone().apply(seat, action.clone(), now).err(),
                            _ => None,
                        };
                        match verdict {
                            Some(e) => out.send(Note::Refused { text: e.to_string(), error: Some(e) }),
                            None => {
                                let msg = me.act(action);
                                session.handle_msg(LOCAL, msg, now);
                            }
                        }
                    }
                    Some(Cmd::Start) => {
                        session.fill_with_computers(rami_game::BotLevel::Greedy);
                        if let Err(e) = session.start(now) {
                            out.send(Note::StartFailed(e.to_string()));
                        }
                    }
                    Some(Cmd::Stop) | None => break,
                }
            }
            _ = tokio::time::sleep_until(until) => session.tick(rami_net::now_ms()),
        }
    }
    session.close_table();
    while let Some(o) = session.poll() {
        if let Output::Send { conn, msg } = o
            && let (Some(tx), Ok(bytes)) = (conns.get(&conn), encode(&msg))
        {
            let _ = tx.send(bytes);
        }
    }
    drop(conns);
    drop(publisher);
    // Let the closing messages go out.
    tokio::time::sleep(Duration::from_millis(200)).await;
    endpoint.close(0u32.into(), b"closed");
    out.send(Note::Closed);
    Ok(())
}

async fn accept_loop(ep: quinn::Endpoint, ev: mpsc::UnboundedSender<ConnEvent>) {
    let next = Arc::new(AtomicU64::new(1));
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
            let (mut tx, mut rx) = QuicLink { conn, send, recv }.split();
            let (out_tx, mut out_rx) = mpsc::unbounded_channel::<Vec<u8>>();
            if ev.send(ConnEvent::Opened(id, out_tx)).is_err() {
                return;
            }
            tokio::spawn(async move {
                while let Some(bytes) = out_rx.recv().await {
                    if tx.send(bytes).await.is_err() {
                        return;
                    }
                }
                // The session closed this connection: flush and close.
                tx.close().await;
            });
            loop {
                match rx.recv().await {
                    Ok(f) => {
                        if ev.send(ConnEvent::Frame(id, f)).is_err() {
                            return;
                        }
                    }
                    Err(_) => {
                        let _ = ev.send(ConnEvent::Dropped(id));
                        return;
                    }
                }
            }
        });
    }
}

async fn connect(endpoint: &quinn::Endpoint, addr: SocketAddr) -> Result<QuicLink, String> {
    let attempt = async {
        let conn = endpoint
            .connect(addr, "rami.local")
            .map_err(|e| e.to_string())?
            .await
            .map_err(|e| e.to_string())?;
        let (send, recv) = conn.open_bi().await.map_err(|e| e.to_string())?;
        Ok::<_, String>(QuicLink { conn, send, recv })
    };
    match tokio::time::timeout(Duration::from_secs(5), attempt).await {
        Ok(r) => r,
        Err(_) => Err("timed out".into()),
    }
}

enum Ended {
    Over,
    Stopped,
    Dropped,
    Failed(Option<Refusal>, String),
}

async fn phone_main(setup: JoinSetup, mut cmds: mpsc::UnboundedReceiver<Cmd>, out: &Out) {
    let fail = |refusal, text: String| out.send(Note::Failed { refusal, text });
    let proof = tls::proof(&setup.code, &setup.fingerprint);
    let mut client = ClientSession::new(&setup.name, &setup.code, Some(proof));
    let cfg = match tls::client_config(setup.fingerprint) {
        Ok(c) => c,
        Err(e) => return fail(None, e.to_string()),
    };
    let bind: SocketAddr = if setup.addr.is_ipv6() {
        SocketAddr::from(([0u16; 8], 0))
    } else {
        SocketAddr::from(([0u8; 4], 0))
    };
    let mut endpoint = match quinn::Endpoint::client(bind) {
        Ok(e) => e,
        Err(e) => return fail(None, e.to_string()),
    };
    endpoint.set_default_client_config(cfg);
    let mut dropped_at: Option<Instant> = None;
    loop {
        let link = match connect(&endpoint, setup.addr).await {
            Ok(l) => l,
            Err(why) => match dropped_at {
                Some(t) if t.elapsed() <= setup.rejoin_for => {
                    tokio::select! {
                        _ = tokio::time::sleep(Duration::from_millis(500)) => continue,
                        cmd = cmds.recv() => match cmd {
                            Some(Cmd::Stop) | None => return,
                            // Actions wait for the link to come back.
                            Some(_) => continue,
                        },
                    }
                }
                _ => return fail(None, why),
            },
        };
        if dropped_at.take().is_some() {
            out.send(Note::Link(LinkState::Up));
        }
        match play_link(&mut client, link, &mut cmds, out).await {
            Ended::Over => {
                out.send(Note::Closed);
                break;
            }
            Ended::Stopped => break,
            Ended::Failed(r, text) => {
                fail(r, text);
                break;
            }
            Ended::Dropped => {
                out.send(Note::Link(LinkState::Rejoining));
                dropped_at = Some(Instant::now());
            }
        }
    }
    endpoint.close(0u32.into(), b"bye");
    // Let the close go out before the runtime ends.
    tokio::time::sleep(Duration::from_millis(100)).await;
}

async fn play_link(
    client: &mut ClientSession,
    link: QuicLink,
    cmds: &mut mpsc::UnboundedReceiver<Cmd>,
    out: &Out,
) -> Ended {
    let (mut tx, mut rx) = link.split();
    let (frame_tx, mut frames) = mpsc::unbounded_channel();
    let reader = tokio::spawn(async move {
        loop {
            let r = rx.recv().await;
            let end = r.is_err();
            if frame_tx.send(r).is_err() || end {
                return;
            }
        }
    });
    let ended = async {
        let Ok(hello) = encode(&client.hello()) else {
            return Ended::Failed(None, "cannot encode hello".into());
        };
        if tx.send(hello).await.is_err() {
            return Ended::Dropped;
        }
        loop {
            tokio::select! {
                f = frames.recv() => {
                    let frame = match f {
                        Some(Ok(frame)) => frame,
                        _ if client.is_over() => return Ended::Over,
                        _ => return Ended::Dropped,
                    };
                    let msg: HostMsg = match decode(&frame) {
                        Ok(m) => m,
                        Err(_) => return Ended::Dropped,
                    };
                    let r = client.receive(msg);
                    forward(client, out);
                    match r {
                        Ok(()) => {}
                        Err(ClientError::Refused { reason, message }) => {
                            return Ended::Failed(Some(reason), message);
                        }
                        Err(e) => return Ended::Failed(None, e.to_string()),
                    }
                }
                cmd = cmds.recv() => match cmd {
                    Some(Cmd::Act(action)) => {
                        let msg = client.act(action);
                        if let Ok(bytes) = encode(&msg)
                            && tx.send(bytes).await.is_err()
                        {
                            return Ended::Dropped;
                        }
                    }
                    Some(Cmd::Start) => {}
                    Some(Cmd::Stop) | None => {
                        if !client.is_over()
                            && let Ok(bytes) = encode(&ClientMsg::Leave)
                        {
                            let _ = tx.send(bytes).await;
                        }
                        tx.close().await;
                        return Ended::Stopped;
                    }
                },
            }
        }
    }
    .await;
    reader.abort();
    ended
}
