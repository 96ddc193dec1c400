//! The host driver: a quinn endpoint, one task per phone connection, and one task
//! that owns the [`HostSession`] and turns its outputs into frames, files and
//! mDNS updates.

use crate::discovery::Publisher;
use crate::link::{Link, LinkRx, LinkTx, QuicLink};
use crate::tls::HostIdentity;
use rami_game::Game;
use rami_protocol::{HostMsg, encode};
use rami_session::{BotFn, ConnId, HostSession, HostSettings, NewGameFn, Output};
use serde::{Serialize, de::DeserializeOwned};
use std::collections::HashMap;
use std::net::SocketAddr;
use std::path::PathBuf;
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Duration;
use tokio::sync::{mpsc, watch};

/// How to run a table.
pub struct HostOptions {
    pub settings: HostSettings,
    pub identity: HostIdentity,
    pub bind: SocketAddr,
    /// Seats (from the last) given to computer players before anyone joins.
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

/// A table being hosted.
pub struct RunningHost {
    pub addr: SocketAddr,
    pub code: String,
    pub fingerprint: [u8; 32],
    stop: watch::Sender<bool>,
    task: tokio::task::JoinHandle<Result<(), String>>,
}

impl RunningHost {
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
    bot: BotFn,
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

    let mut session = match &opts.resume {
        Some(bytes) => HostSession::<G>::resume(bytes, new_game, bot, crate::now_ms())
            .map_err(|e| e.to_string())?,
        None => {
            let mut s = HostSession::new(opts.settings.clone(), new_game, bot);
            let seats = opts.settings.seats;
            for i in seats.saturating_sub(opts.computers)..seats {
                s.add_computer(i);
            }
            if s.free_seats() == 0 {
                s.start(crate::now_ms()).map_err(|e| e.to_string())?;
            }
            s
        }
    };
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
    let next_id = Arc::new(AtomicU64::new(1));
    let ep = endpoint.clone();
    tokio::spawn(accept_loop(ep, ev_tx, next_id));
    let verbose = opts.verbose;
    let task = tokio::spawn(async move {
        let r = central(&mut session, ev_rx, stop_rx, opts, publisher).await;
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

async fn central<G>(
    session: &mut HostSession<G>,
    mut ev: mpsc::UnboundedReceiver<ConnEvent>,
    mut stop: watch::Receiver<bool>,
    opts: HostOptions,
    mut publisher: Option<Publisher>,
) -> Result<(), String>
where
    G: Game + Clone + Serialize + DeserializeOwned + 'static,
{
    let mut conns: HashMap<ConnId, mpsc::UnboundedSender<Cmd>> = HashMap::new();
    let mut over_at: Option<tokio::time::Instant> = None;
    let mut free = session.free_seats();
    let verbose = opts.verbose;
    let mut batch = 0u64;
    flush(
        session,
        &mut conns,
        &opts,
        &mut publisher,
        &mut free,
        &mut over_at,
        batch,
    )?;
    loop {
        let wake = session.next_wakeup().map(|t| {
            let now = crate::now_ms();
            tokio::time::Instant::now() + Duration::from_millis(t.saturating_sub(now))
        });
        let far = tokio::time::Instant::now() + Duration::from_secs(3600);
        let until = match (wake, over_at) {
            (Some(a), Some(b)) => a.min(b),
            (a, b) => a.or(b).unwrap_or(far),
        };
        tokio::select! {
            e = ev.recv() => {
                let now = crate::now_ms();
                match e {
                    Some(ConnEvent::Opened(id, tx)) => { conns.insert(id, tx); session.connect(id, now); }
                    Some(ConnEvent::Frame(id, f)) => session.receive(id, &f, now),
                    Some(ConnEvent::Dropped(id, why)) => {
                        if verbose && conns.contains_key(&id) { println!("connection {} dropped: {why}", id.0); }
                        conns.remove(&id);
                        session.disconnect(id, now);
                    }
                    None => return Ok(()),
                }
            }
            _ = tokio::time::sleep_until(until) => {
                if over_at.is_some_and(|t| t <= tokio::time::Instant::now()) {
                    session.close_table();
                    batch += 1;
                    flush(session, &mut conns, &opts, &mut publisher, &mut free, &mut None, batch)?;
                    tokio::time::sleep(Duration::from_millis(300)).await;
                    return Ok(());
                }
                session.tick(crate::now_ms());
            }
            _ = stop.changed() => {
                session.close_table();
                batch += 1;
                flush(session, &mut conns, &opts, &mut publisher, &mut free, &mut None, batch)?;
                tokio::time::sleep(Duration::from_millis(200)).await;
                return Ok(());
            }
        }
        batch += 1;
        flush(
            session,
            &mut conns,
            &opts,
            &mut publisher,
            &mut free,
            &mut over_at,
            batch,
        )?;
    }
}

fn flush<G>(
    session: &mut HostSession<G>,
    conns: &mut HashMap<ConnId, mpsc::UnboundedSender<Cmd>>,
    opts: &HostOptions,
    publisher: &mut Option<Publisher>,
    free: &mut usize,
    over_at: &mut Option<tokio::time::Instant>,
    batch: u64,
) -> Result<(), String>
where
    G: Game + Clone + Serialize + DeserializeOwned + 'static,
{
    while let Some(out) = session.poll() {
        match out {
            Output::Send { conn, msg } => {
                if let (Some(tx), Ok(bytes)) = (conns.get(&conn), encode(&msg)) {
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
                if let Some(tx) = conns.remove(&conn) {
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
                let f = session.free_seats();
                if f != *free {
                    *free = f;
                    if let Some(p) = publisher.as_mut() {
                        let _ = p.update(f);
                    }
                }
                if opts.verbose {
                    let l = session.lobby();
                    println!(
                        "seats: {:?}{}",
                        l.seats,
                        if l.started { " (playing)" } else { "" }
                    );
                }
            }
            Output::GameOver => {
                if opts.verbose
                    && let Some(o) = session.game().and_then(|g| g.outcome())
                {
                    println!("game over: winners {:?}, totals {:?}", o.winners, o.totals);
                }
                if opts.exit_when_over && over_at.is_none() {
                    *over_at = Some(tokio::time::Instant::now() + Duration::from_secs(1));
                }
            }
        }
    }
    Ok(())
}
