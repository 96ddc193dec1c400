//! Nearby play glue: hosting a table and joining one, on a tokio runtime in a
//! background thread that talks to the UI through channels.
//!
//! The UI sends [`Cmd`]s and reads [`Note`]s; every note asks egui for a repaint,
//! so the app repaints only when something arrives (no polling loop).
//!
//! Hosting runs `rami_net`'s own host driver ([`start_host`]); the host screen
//! works its lobby through the [`HostHandle`] it gets in [`Note::Hosting`]
//! (accept or decline join requests, computer seats, clear a seat, start), and
//! follows it through [`Note::HostLobby`]. The person at the host's device plays
//! exactly like a phone: a [`ClientSession`] over QUIC on the loopback address,
//! whose join request the host accepts into the first seat before the join code
//! is shown (nobody else can have asked yet: the request must carry the code).
//! So the table the host's player sees comes from the same views and typed
//! refusals as everyone else's.

use eframe::egui;
use rami_game::{Action, ActionError, BotLevel, Event, Options, PlayerView, RuleSet, Seat};
use rami_net::discovery::{self, FoundTable};
use rami_net::host::{HostEvent, HostHandle, HostOptions, start_host};
use rami_net::link::{Link, LinkRx, LinkTx, QuicLink};
use rami_net::tls::{self, HostIdentity};
use rami_protocol::{ClientMsg, HostMsg, Lobby, Refusal, SeatInfo, decode, encode};
use rami_session::{ClientError, ClientEvent, ClientSession, HostSettings, LobbySnapshot};
use std::net::{IpAddr, Ipv4Addr, Ipv6Addr, SocketAddr};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, mpsc as std_mpsc};
use std::time::{Duration, Instant};
use tokio::sync::{broadcast, mpsc};

/// What the UI asks of the table.
#[derive(Clone, Debug)]
pub enum Cmd {
    /// An action for this device's seat.
    Act(Action),
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
    /// Host: the table is open and this device's player has the first seat.
    Hosting {
        code: String,
        addr: SocketAddr,
        fingerprint: [u8; 32],
        control: HostControl,
    },
    /// Host: the lobby as the host sees it (join requests, seats, presence).
    HostLobby(LobbySnapshot),
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
    /// An action was refused: typed when the host said which engine error
    /// (every game refusal), its text otherwise.
    Refused {
        error: Option<ActionError>,
        text: String,
    },
    Link(LinkState),
    GameOver,
    /// Join by typed address: what answered there is not the table of that code.
    NotThatTable,
    /// The table cannot be reached or refused us; `refusal` when the host said why.
    Failed {
        refusal: Option<Refusal>,
        text: String,
    },
    /// The table was closed (normally).
    Closed,
}

/// The host screen's hold on the lobby: `rami_net`'s [`HostHandle`]. Its calls
/// are synchronous and answer at once (a frame may call them).
#[derive(Clone)]
pub struct HostControl(pub HostHandle);

impl std::fmt::Debug for HostControl {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("HostControl")
    }
}

impl std::ops::Deref for HostControl {
    type Target = HostHandle;
    fn deref(&self) -> &HostHandle {
        &self.0
    }
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
    /// The level of the computer player that covers an absent person.
    pub cover_level: BotLevel,
    /// The pause before each computer move (the Settings' computer speed), so
    /// the people at the table can follow what the computer plays.
    pub computer_delay: Duration,
}

/// How to join a table.
#[derive(Clone, Debug)]
pub struct JoinSetup {
    pub name: String,
    pub code: String,
    pub addr: SocketAddr,
    /// The host's certificate as discovery found it; `None` for a typed
    /// address: the first connection then accepts the certificate whose
    /// fingerprint the code's first half names, and pins it for the rest.
    pub fingerprint: Option<[u8; 32]>,
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

/// Where this device's own player reaches the table it hosts: the loopback
/// address of the family the table listens on (or the address itself when the
/// table listens on one).
fn local_addr(listening: SocketAddr) -> SocketAddr {
    let ip = match listening.ip() {
        IpAddr::V4(ip) if ip.is_unspecified() => IpAddr::V4(Ipv4Addr::LOCALHOST),
        IpAddr::V6(ip) if ip.is_unspecified() => IpAddr::V6(Ipv6Addr::LOCALHOST),
        ip => ip,
    };
    SocketAddr::new(ip, listening.port())
}

async fn host_main(
    setup: HostSetup,
    cmds: mpsc::UnboundedReceiver<Cmd>,
    out: &Out,
) -> Result<(), String> {
    let identity = HostIdentity::generate().map_err(|e| e.to_string())?;
    let mut settings = HostSettings::new(&setup.table, setup.rules, setup.seats);
    settings.options = setup.options.clone();
    settings.grace_ms = setup.grace.as_millis() as u64;
    settings.computer_takes_over = true;
    // The host's screen answers join requests and presses Start.
    settings.auto_accept = false;
    settings.auto_start = false;
    settings.seed = random_seed();
    settings.cover_level = setup.cover_level;
    settings.computer_move_delay_ms = setup.computer_delay.as_millis() as u64;
    let opts = HostOptions {
        settings,
        identity,
        bind: setup.bind,
        computers: 0,
        autosave: None,
        resume: None,
        publish: setup.publish,
        exit_when_over: false,
        verbose: false,
        tap: None,
    };
    let running =
        start_host::<rami_engine::AnyGame>(opts, rami_engine::new_game, rami_net::cli::host_bots())
            .await?;
    let handle = running.handle();
    let mut events = handle.events();
    let me = JoinSetup {
        name: setup.name.clone(),
        code: running.code.clone(),
        addr: local_addr(running.addr),
        fingerprint: Some(running.fingerprint),
        // The loopback link does not drop; if it ever does, keep trying.
        rejoin_for: Duration::from_secs(24 * 3600),
    };
    let phone = phone_main(me, cmds, out);
    tokio::pin!(phone);

    // This device's player asks first: seat them in seat 1 (index 0). No one
    // else can have asked: a request needs the code, not shown yet.
    let seat_me = async {
        loop {
            if let Some(r) = handle.lobby_snapshot().pending.first() {
                return handle
                    .accept(r.id, Some(0))
                    .map(|_| ())
                    .map_err(|e| e.to_string());
            }
            match events.recv().await {
                Ok(HostEvent::Closed) | Err(broadcast::error::RecvError::Closed) => {
                    return Err("the table closed".to_string());
                }
                _ => {}
            }
        }
    };
    let seated = tokio::select! {
        r = seat_me => r,
        // The player's link failed (its note says why).
        _ = &mut phone => Err(String::new()),
    };
    if let Err(e) = seated {
        let _ = running.stop().await;
        return if e.is_empty() { Ok(()) } else { Err(e) };
    }
    // The lobby first: once the code shows, the seats show with it.
    out.send(Note::HostLobby(handle.lobby_snapshot()));
    out.send(Note::Hosting {
        code: running.code.clone(),
        addr: running.addr,
        fingerprint: running.fingerprint,
        control: HostControl(handle.clone()),
    });
    let lobby = async {
        loop {
            match events.recv().await {
                Ok(HostEvent::Lobby(l)) => out.send(Note::HostLobby(l)),
                Ok(HostEvent::GameOver) => {}
                Err(broadcast::error::RecvError::Lagged(_)) => {
                    out.send(Note::HostLobby(handle.lobby_snapshot()))
                }
                Ok(HostEvent::Closed) | Err(broadcast::error::RecvError::Closed) => return,
            }
        }
    };
    // Until the player leaves (closes the table) or the table ends.
    tokio::select! {
        _ = &mut phone => {}
        _ = lobby => {}
    }
    running.stop().await
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

/// Why a connection by join code alone failed.
enum CodeConnectError {
    /// Something answered, but its certificate is not the one the code names.
    NotThatTable,
    Other(String),
}

/// Connects to a typed address knowing only the join code: the host's
/// certificate must be the one whose fingerprint the code's first half names
/// (the same check a table found by mDNS gets), and the host still proves in
/// its Welcome that it knows the whole code. Returns the link and the
/// fingerprint, pinned from then on.
async fn connect_by_code(
    endpoint: &quinn::Endpoint,
    addr: SocketAddr,
    code: &str,
) -> Result<(QuicLink, [u8; 32]), CodeConnectError> {
    let verifier = Arc::new(CodeVerifier {
        code: code.to_string(),
        provider: Arc::new(rustls::crypto::ring::default_provider()),
        mismatch: AtomicBool::new(false),
    });
    let other = |e: &dyn std::fmt::Display| CodeConnectError::Other(e.to_string());
    let mut tls = rustls::ClientConfig::builder_with_provider(verifier.provider.clone())
        .with_protocol_versions(&[&rustls::version::TLS13])
        .map_err(|e| other(&e))?
        .dangerous()
        .with_custom_certificate_verifier(verifier.clone())
        .with_no_client_auth();
    tls.alpn_protocols = vec![rami_protocol::ALPN.to_vec()];
    let crypto = quinn::crypto::rustls::QuicClientConfig::try_from(tls).map_err(|e| other(&e))?;
    let mut cfg = quinn::ClientConfig::new(Arc::new(crypto));
    // As `rami_net::tls::client_config` does: the same keep-alive and idle
    // timeout as every other link.
    let mut transport = quinn::TransportConfig::default();
    transport.keep_alive_interval(Some(tls::KEEP_ALIVE));
    transport.max_idle_timeout(quinn::IdleTimeout::try_from(tls::IDLE_TIMEOUT).ok());
    cfg.transport_config(Arc::new(transport));
    let attempt = async {
        let conn = endpoint
            .connect_with(cfg, addr, "rami.local")
            .map_err(|e| other(&e))?
            .await
            .map_err(|e| {
                if verifier.mismatch.load(Ordering::Relaxed) {
                    CodeConnectError::NotThatTable
                } else {
                    other(&e)
                }
            })?;
        let fp = conn
            .peer_identity()
            .and_then(|id| {
                id.downcast::<Vec<rustls::pki_types::CertificateDer<'static>>>()
                    .ok()
            })
            .and_then(|certs| certs.first().map(|c| tls::fingerprint(c)))
            .ok_or_else(|| CodeConnectError::Other("the host showed no certificate".into()))?;
        let (send, recv) = conn.open_bi().await.map_err(|e| other(&e))?;
        Ok((QuicLink { conn, send, recv }, fp))
    };
    match tokio::time::timeout(Duration::from_secs(5), attempt).await {
        Ok(r) => r,
        Err(_) => Err(CodeConnectError::Other("timed out".into())),
    }
}

/// Accepts the certificate whose fingerprint matches the join code's first
/// half, and checks the TLS 1.3 handshake signature (the host holds its key).
#[derive(Debug)]
struct CodeVerifier {
    code: String,
    provider: Arc<rustls::crypto::CryptoProvider>,
    mismatch: AtomicBool,
}

impl rustls::client::danger::ServerCertVerifier for CodeVerifier {
    fn verify_server_cert(
        &self,
        end_entity: &rustls::pki_types::CertificateDer<'_>,
        _intermediates: &[rustls::pki_types::CertificateDer<'_>],
        _server_name: &rustls::pki_types::ServerName<'_>,
        _ocsp: &[u8],
        _now: rustls::pki_types::UnixTime,
    ) -> Result<rustls::client::danger::ServerCertVerified, rustls::Error> {
        if tls::code_matches(&self.code, &tls::fingerprint(end_entity)) {
            Ok(rustls::client::danger::ServerCertVerified::assertion())
        } else {
            self.mismatch.store(true, Ordering::Relaxed);
            Err(rustls::Error::General(
                "the host's certificate does not match the join code".into(),
            ))
        }
    }
    fn verify_tls12_signature(
        &self,
        _message: &[u8],
        _cert: &rustls::pki_types::CertificateDer<'_>,
        _dss: &rustls::DigitallySignedStruct,
    ) -> Result<rustls::client::danger::HandshakeSignatureValid, rustls::Error> {
        Err(rustls::Error::General("TLS 1.2 is not used".into()))
    }
    fn verify_tls13_signature(
        &self,
        message: &[u8],
        cert: &rustls::pki_types::CertificateDer<'_>,
        dss: &rustls::DigitallySignedStruct,
    ) -> Result<rustls::client::danger::HandshakeSignatureValid, rustls::Error> {
        rustls::crypto::verify_tls13_signature(
            message,
            cert,
            dss,
            &self.provider.signature_verification_algorithms,
        )
    }
    fn supported_verify_schemes(&self) -> Vec<rustls::SignatureScheme> {
        self.provider
            .signature_verification_algorithms
            .supported_schemes()
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
    let bind: SocketAddr = if setup.addr.is_ipv6() {
        SocketAddr::from(([0u16; 8], 0))
    } else {
        SocketAddr::from(([0u8; 4], 0))
    };
    let mut endpoint = match quinn::Endpoint::client(bind) {
        Ok(e) => e,
        Err(e) => return fail(None, e.to_string()),
    };
    // A typed address: learn the certificate on the first connection.
    let (fingerprint, mut first) = match setup.fingerprint {
        Some(fp) => (fp, None),
        None => match connect_by_code(&endpoint, setup.addr, &setup.code).await {
            Ok((link, fp)) => (fp, Some(link)),
            Err(CodeConnectError::NotThatTable) => return out.send(Note::NotThatTable),
            Err(CodeConnectError::Other(why)) => return fail(None, why),
        },
    };
    let proof = tls::proof(&setup.code, &fingerprint);
    let mut client = ClientSession::new(&setup.name, &setup.code, Some(proof));
    match tls::client_config(fingerprint) {
        Ok(c) => endpoint.set_default_client_config(c),
        Err(e) => return fail(None, e.to_string()),
    }
    let mut dropped_at: Option<Instant> = None;
    loop {
        let next = match first.take() {
            Some(link) => Ok(link),
            None => connect(&endpoint, setup.addr).await,
        };
        let link = match next {
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
