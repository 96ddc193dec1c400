//! The phone driver: connects to a host (pinning its certificate), keeps a
//! [`ClientSession`], and optionally plays with a computer player. After a drop it
//! reconnects and rejoins its seat with the seat token.

use crate::link::{Link, LinkRx, LinkTx, QuicLink};
use rami_game::{Action, PlayerView};
use rami_protocol::{HostMsg, decode, encode};
use rami_session::{BotFn, ClientError, ClientEvent, ClientSession};
use std::net::SocketAddr;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

pub struct PhoneOptions {
    pub name: String,
    pub code: String,
    pub fingerprint: [u8; 32],
    pub addr: SocketAddr,
    /// Play with this computer player (`None`: only watch).
    pub bot: Option<BotFn>,
    /// How long to keep trying to rejoin after a drop.
    pub rejoin_for: Duration,
    /// Pause before each computer move.
    pub delay: Duration,
    /// Records every byte received (leak tests).
    pub capture: Option<Arc<Mutex<Vec<u8>>>>,
    pub verbose: bool,
}

/// How a phone's game went.
#[derive(Debug, Clone)]
pub struct PhoneReport {
    pub seat: Option<usize>,
    pub view: Option<PlayerView>,
    pub reconnects: usize,
    pub refusals: Vec<rami_protocol::ActionRefusal>,
    pub messages: usize,
}

#[derive(Debug, thiserror::Error)]
pub enum PhoneError {
    #[error(transparent)]
    Client(#[from] ClientError),
    #[error("cannot reach the host: {0}")]
    Unreachable(String),
    #[error("{0}")]
    Setup(String),
}

enum Outcome {
    Over,
    Dropped(String),
}

pub async fn run_phone(opts: PhoneOptions) -> Result<PhoneReport, PhoneError> {
    let proof = crate::tls::proof(&opts.code, &opts.fingerprint);
    let mut session = ClientSession::new(&opts.name, &opts.code, Some(proof));
    let cfg = crate::tls::client_config(opts.fingerprint)
        .map_err(|e| PhoneError::Setup(e.to_string()))?;
    let bind: SocketAddr = if opts.addr.is_ipv6() {
        "[::]:0"
    } else {
        "0.0.0.0:0"
    }
    .parse()
    .map_err(|_| PhoneError::Setup("bind address".into()))?;
    let mut endpoint =
        quinn::Endpoint::client(bind).map_err(|e| PhoneError::Setup(e.to_string()))?;
    endpoint.set_default_client_config(cfg);
    let mut report = PhoneReport {
        seat: None,
        view: None,
        reconnects: 0,
        refusals: Vec::new(),
        messages: 0,
    };
    let mut dropped_at: Option<Instant> = None;
    loop {
        let attempt = async {
            let conn = endpoint
                .connect(opts.addr, "rami.local")
                .map_err(|e| e.to_string())?
                .await
                .map_err(|e| e.to_string())?;
            let (send, recv) = conn.open_bi().await.map_err(|e| e.to_string())?;
            Ok::<_, String>(QuicLink { conn, send, recv })
        };
        let link = match tokio::time::timeout(Duration::from_secs(5), attempt).await {
            Ok(Ok(l)) => l,
            other => {
                let why = match other {
                    Ok(Err(e)) => e,
                    _ => "timed out".to_string(),
                };
                match dropped_at {
                    Some(t) if t.elapsed() <= opts.rejoin_for => {
                        tokio::time::sleep(Duration::from_millis(500)).await;
                        continue;
                    }
                    Some(_) => {
                        return Err(PhoneError::Unreachable(format!("gave up rejoining: {why}")));
                    }
                    None => return Err(PhoneError::Unreachable(why)),
                }
            }
        };
        if dropped_at.take().is_some() {
            report.reconnects += 1;
        }
        match play(&mut session, link, &opts, &mut report).await? {
            Outcome::Over => {
                report.seat = session.seat();
                report.view = session.view().cloned();
                endpoint.close(0u32.into(), b"bye");
                return Ok(report);
            }
            Outcome::Dropped(why) => {
                if opts.verbose {
                    println!("link dropped ({why}); rejoining");
                }
                dropped_at = Some(Instant::now());
            }
        }
    }
}

async fn play(
    session: &mut ClientSession,
    link: QuicLink,
    opts: &PhoneOptions,
    report: &mut PhoneReport,
) -> Result<Outcome, PhoneError> {
    let (mut tx, mut rx) = link.split();
    if let Some(c) = &opts.capture {
        rx.capture_into(c.clone());
    }
    let hello = encode(&session.hello()).map_err(|e| PhoneError::Setup(e.to_string()))?;
    if let Err(e) = tx.send(hello).await {
        return Ok(Outcome::Dropped(e.to_string()));
    }
    let mut pending: Option<u64> = None;
    loop {
        let frame = match rx.recv().await {
            Ok(f) => f,
            Err(e) => {
                if session.is_over() {
                    return Ok(Outcome::Over);
                }
                return Ok(Outcome::Dropped(e.to_string()));
            }
        };
        report.messages += 1;
        let msg: HostMsg = match decode(&frame) {
            Ok(m) => m,
            Err(e) => {
                return Ok(Outcome::Dropped(format!(
                    "unreadable message from the host: {e}"
                )));
            }
        };
        session.receive(msg)?;
        let mut fallback = false;
        while let Some(ev) = session.poll_event() {
            match ev {
                ClientEvent::View { .. } => pending = None,
                ClientEvent::Refused { seq, reason } => {
                    if opts.verbose {
                        println!("refused: {reason}");
                    }
                    report.refusals.push(reason);
                    if pending == Some(seq) {
                        pending = None;
                        fallback = true;
                    }
                }
                ClientEvent::Waiting if opts.verbose => {
                    println!("waiting for the host to accept the request to join")
                }
                ClientEvent::Seated { seat, .. } if opts.verbose => {
                    println!("seated at seat {seat}")
                }
                ClientEvent::GameOver => {
                    report.seat = session.seat();
                    report.view = session.view().cloned();
                    tx.close().await;
                    return Ok(Outcome::Over);
                }
                _ => {}
            }
        }
        let Some(bot) = &opts.bot else { continue };
        if pending.is_some() {
            continue;
        }
        let Some(view) = session.view() else { continue };
        if view.legal.is_empty() {
            continue;
        }
        let action = if fallback {
            [Action::Draw, Action::Pass]
                .into_iter()
                .find(|a| view.legal.contains(&a.kind()))
        } else {
            bot(view)
        };
        if let Some(a) = action {
            if !opts.delay.is_zero() {
                tokio::time::sleep(opts.delay).await;
            }
            let seq = session.next_seq();
            let msg = encode(&session.act(a)).map_err(|e| PhoneError::Setup(e.to_string()))?;
            pending = Some(seq);
            if let Err(e) = tx.send(msg).await {
                return Ok(Outcome::Dropped(e.to_string()));
            }
        }
    }
}
