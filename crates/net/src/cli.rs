//! `rami host` and `rami join`: clap argument structs and their runners.

use crate::discovery;
use crate::host::{HostOptions, identity_path, start_host};
use crate::phone::{PhoneError, PhoneOptions, run_phone};
use crate::tls::{HostIdentity, code_matches, parse_hex32};
use clap::Args;
use rami_engine::{AnyGame, new_game};
use rami_game::{GameConfig, MustMeldCheck, Options, RuleSet, UnfinishedMove};
use rami_session::{BotFn, HostBotFn, HostSettings};
use std::net::{IpAddr, SocketAddr};
use std::path::PathBuf;
use std::process::ExitCode;
use std::sync::Arc;
use std::time::Duration;

/// `rami host`: hosts a nearby table.
#[derive(Args, Debug, Clone)]
pub struct HostArgs {
    /// Rule set (manipulation machiavelli shanghai guadalupe carousel vatikan tahiti rummy500 rami).
    #[arg(long)]
    pub rules: RuleSet,
    /// Number of seats (within the rule set's limits).
    #[arg(long, default_value_t = 4)]
    pub players: usize,
    /// Seats (counted from the last) played by computer players.
    #[arg(long, default_value_t = 0)]
    pub bots: usize,
    /// Level of those computer players, and of the one that covers an absent
    /// person (`greedy` or `best`).
    #[arg(long, default_value = "greedy")]
    pub bot_level: rami_bots::Level,
    /// Table name shown to phones.
    #[arg(long, default_value = "Rami table")]
    pub name: String,
    /// UDP port to listen on (0: any free port; a resumed table reuses its port).
    #[arg(long)]
    pub port: Option<u16>,
    /// Address to listen on.
    #[arg(long, default_value = "0.0.0.0")]
    pub bind: IpAddr,
    /// Write the table here after every accepted action (and FILE.identity beside it).
    #[arg(long)]
    pub autosave: Option<PathBuf>,
    /// Continue the table saved in FILE (autosaves to FILE unless --autosave says otherwise).
    #[arg(long)]
    pub resume: Option<PathBuf>,
    /// Seconds a dropped phone keeps its seat before a computer player takes it.
    #[arg(long, default_value_t = 120)]
    pub grace: u64,
    /// Never let a computer player take an absent person's seat.
    #[arg(long)]
    pub no_takeover: bool,
    /// Milliseconds the host waits before each computer move (0: at once).
    #[arg(long, default_value_t = 0)]
    pub computer_delay_ms: u64,
    /// Run without a window (the window's host is Home > Play together nearby >
    /// Host in the app): every join request is
    /// accepted at once into the first empty seat, and the game starts when the
    /// last seat is taken.
    #[arg(long)]
    pub headless: bool,
    /// Seed of the shuffles (default: random).
    #[arg(long)]
    pub seed: Option<u64>,
    /// Do not publish the table by mDNS (phones need --addr and --fingerprint).
    #[arg(long)]
    pub no_mdns: bool,
    /// Accept any join code (an open table).
    #[arg(long)]
    pub no_code: bool,
    /// Keep the table open after the game ends (until Ctrl-C).
    #[arg(long)]
    pub keep_open: bool,
    /// The rule set's table options.
    #[command(flatten)]
    pub table_options: TableOptionArgs,
    /// Print less.
    #[arg(long)]
    pub quiet: bool,
}

/// The table options of the rule book (each flag only where its rule set has
/// that option), shared by `rami host` and `rami play` so that both take the
/// same flags.
#[derive(Args, Debug, Clone, Default)]
pub struct TableOptionArgs {
    /// Manipulation: 200 or 300.
    #[arg(long)]
    pub play_to: Option<u32>,
    /// Manipulation, Shanghai: `remind` (with hint) or `trust`.
    #[arg(long)]
    pub must_meld_check: Option<String>,
    /// Machiavelli, Guadalupe, Tahiti: `undo` or `take-back` (draw three).
    #[arg(long)]
    pub unfinished_move: Option<String>,
    /// Rummy 500: 250, 500 or 1000.
    #[arg(long)]
    pub target: Option<u32>,
    /// Rummy 500 with two players: 7, 10 or 13 cards.
    #[arg(long)]
    pub two_player_hand: Option<u8>,
    /// Rummy 500: play with two jokers.
    #[arg(long)]
    pub jokers: bool,
    /// Rami: the Claim button.
    #[arg(long)]
    pub claim: bool,
    /// Rami: points limit 1, 50 or 100.
    #[arg(long)]
    pub points_limit: Option<u32>,
    /// Rami: seconds per move.
    #[arg(long)]
    pub move_time_limit: Option<u64>,
}

impl TableOptionArgs {
    /// The game's options: the rule book's defaults, changed where a flag says
    /// so. A word it does not know is an error naming the flag; a number out of
    /// the rule set's range is left to `GameConfig::validate`.
    pub fn options(&self) -> Result<Options, String> {
        let mut o = Options::default();
        if let Some(v) = self.play_to {
            o.play_to = v;
        }
        if let Some(v) = &self.must_meld_check {
            o.must_meld_check = match v.as_str() {
                "remind" => MustMeldCheck::RemindWithHint,
                "trust" => MustMeldCheck::TrustThePlayer,
                _ => return Err(format!("--must-meld-check: `{v}` (known: remind, trust)")),
            };
        }
        if let Some(v) = &self.unfinished_move {
            o.unfinished_move = match v.as_str() {
                "undo" => UnfinishedMove::UndoNoPenalty,
                "take-back" => UnfinishedMove::TakeBackDrawThree,
                _ => return Err(format!("--unfinished-move: `{v}` (known: undo, take-back)")),
            };
        }
        if let Some(v) = self.target {
            o.target = v;
        }
        if let Some(v) = self.two_player_hand {
            o.two_player_hand = v;
        }
        o.jokers = self.jokers;
        o.claim = self.claim;
        if let Some(v) = self.points_limit {
            o.points_limit = v;
        }
        o.move_time_limit_ms = self.move_time_limit.map(|s| s.saturating_mul(1000));
        Ok(o)
    }
}

/// `rami join`: joins a nearby table.
#[derive(Args, Debug, Clone)]
pub struct JoinArgs {
    /// Play as a computer player of this level (`greedy`).
    #[arg(long)]
    pub bot: Option<String>,
    /// Your name at the table.
    #[arg(long, default_value = "Computer")]
    pub name: String,
    /// The join code shown by the host (its first half also picks the table).
    #[arg(long)]
    pub code: Option<String>,
    /// Connect to this address instead of discovering the table by mDNS.
    #[arg(long)]
    pub addr: Option<SocketAddr>,
    /// The host's certificate fingerprint (hex), needed with --addr.
    #[arg(long)]
    pub fingerprint: Option<String>,
    /// Pick the table with this name.
    #[arg(long)]
    pub table: Option<String>,
    /// Seconds to look for tables.
    #[arg(long, default_value_t = 15)]
    pub discover: u64,
    /// Seconds to keep trying to rejoin after a drop.
    #[arg(long, default_value_t = 120)]
    pub rejoin: u64,
    /// Milliseconds to wait before each computer move.
    #[arg(long, default_value_t = 0)]
    pub delay_ms: u64,
    /// Only list the tables nearby.
    #[arg(long)]
    pub list: bool,
    /// Print less.
    #[arg(long)]
    pub quiet: bool,
}

fn runtime() -> Result<tokio::runtime::Runtime, String> {
    tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .map_err(|e| e.to_string())
}

fn bot_fn(level: rami_bots::Level) -> BotFn {
    Arc::new(move |v| rami_bots::choose_action(v, level))
}

/// The host's computer players, at the level of each seat: their turns, and
/// their claims of a discard out of turn (Rami's Claim option).
pub fn host_bots() -> HostBotFn {
    Arc::new(rami_bots::choose_action_or_claim)
}

#[derive(serde::Serialize, serde::Deserialize)]
struct IdentityFile {
    identity: HostIdentity,
    port: u16,
}

/// Runs `rami host`.
pub fn run_host(a: HostArgs) -> ExitCode {
    if !a.headless {
        eprintln!(
            "rami host: the command line hosts only with --headless; to host with a window, run `rami` and choose Play together nearby > Host"
        );
        return ExitCode::from(2);
    }
    let opts = match a.table_options.options() {
        Ok(o) => o,
        Err(e) => {
            eprintln!("rami host: {e}");
            return ExitCode::from(2);
        }
    };
    let config = GameConfig {
        rules: a.rules,
        players: a.players,
        options: opts.clone(),
        seed: 0,
        deck: None,
    };
    if let Err(e) = config.validate() {
        eprintln!("rami host: {e}");
        return ExitCode::from(2);
    }
    if a.bots > a.players {
        eprintln!(
            "rami host: --bots {} is more than --players {}",
            a.bots, a.players
        );
        return ExitCode::from(2);
    }
    let (resume, saved) = match &a.resume {
        Some(p) => {
            let save = std::fs::read(p);
            let id = std::fs::read(identity_path(p))
                .ok()
                .and_then(|b| serde_json::from_slice::<IdentityFile>(&b).ok());
            match (save, id) {
                (Ok(s), Some(id)) => (Some(s), Some(id)),
                (Err(e), _) => {
                    eprintln!("rami host: cannot read {}: {e}", p.display());
                    return ExitCode::from(1);
                }
                (_, None) => {
                    eprintln!(
                        "rami host: {} is missing or unreadable",
                        identity_path(p).display()
                    );
                    return ExitCode::from(1);
                }
            }
        }
        None => (None, None),
    };
    let identity = match &saved {
        Some(s) => s.identity.clone(),
        None => match HostIdentity::generate() {
            Ok(i) => i,
            Err(e) => {
                eprintln!("rami host: {e}");
                return ExitCode::from(1);
            }
        },
    };
    let mut identity = identity;
    if a.no_code {
        identity.code = String::new();
    }
    let port = a.port.or(saved.as_ref().map(|s| s.port)).unwrap_or(0);
    let seed = a.seed.unwrap_or_else(|| {
        let mut b = [0u8; 8];
        let _ = ring::rand::SecureRandom::fill(&ring::rand::SystemRandom::new(), &mut b);
        u64::from_le_bytes(b)
    });
    let mut settings = HostSettings::new(&a.name, a.rules, a.players);
    settings.options = opts;
    settings.grace_ms = a.grace.saturating_mul(1000);
    settings.computer_takes_over = !a.no_takeover;
    // Headless: nobody is there to answer join requests or press Start.
    settings.auto_accept = true;
    settings.auto_start = true;
    settings.seed = seed;
    settings.cover_level = a.bot_level;
    settings.computer_move_delay_ms = a.computer_delay_ms;
    let autosave = a.autosave.clone().or(a.resume.clone());
    let host_opts = HostOptions {
        settings,
        identity: identity.clone(),
        bind: SocketAddr::new(a.bind, port),
        computers: a.bots,
        autosave: autosave.clone(),
        resume,
        publish: !a.no_mdns,
        exit_when_over: !a.keep_open,
        verbose: !a.quiet,
        tap: None,
    };
    let rt = match runtime() {
        Ok(r) => r,
        Err(e) => {
            eprintln!("rami host: {e}");
            return ExitCode::from(1);
        }
    };
    let r: Result<(), String> = rt.block_on(async move {
        let host = start_host::<AnyGame>(host_opts, new_game, host_bots()).await?;
        if let Some(path) = &autosave {
            let f = IdentityFile {
                identity,
                port: host.addr.port(),
            };
            let bytes = serde_json::to_vec(&f).map_err(|e| e.to_string())?;
            crate::host::write_atomically(&identity_path(path), &bytes)
                .map_err(|e| e.to_string())?;
        }
        println!("table: {}", a.name);
        println!("rules: {}", a.rules.name());
        println!("listening: {}", host.addr);
        println!("fingerprint: {}", crate::tls::hex(&host.fingerprint));
        println!(
            "join code: {}",
            if host.code.is_empty() {
                "(none)"
            } else {
                &host.code
            }
        );
        tokio::select! {
            r = host_wait(host) => r,
        }
    });
    match r {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("rami host: {e}");
            ExitCode::from(1)
        }
    }
}

async fn host_wait(host: crate::host::RunningHost) -> Result<(), String> {
    let stop = host_stopper(&host);
    tokio::spawn(async move {
        if tokio::signal::ctrl_c().await.is_ok() {
            stop();
        }
    });
    host.wait().await
}

fn host_stopper(host: &crate::host::RunningHost) -> impl FnOnce() + Send + 'static {
    let s = host.stopper();
    move || {
        let _ = s.send(true);
    }
}

/// Runs `rami join`.
pub fn run_join(a: JoinArgs) -> ExitCode {
    let level = match a.bot.as_deref().map(str::parse::<rami_bots::Level>) {
        None => None,
        Some(Ok(l)) => Some(l),
        Some(Err(e)) => {
            eprintln!("rami join: --bot: {e}");
            return ExitCode::from(2);
        }
    };
    let code = a.code.clone().unwrap_or_default();
    let (addr, fp) = match (a.addr, &a.fingerprint) {
        (Some(addr), Some(fp)) => match parse_hex32(fp) {
            Some(fp) => (addr, fp),
            None => {
                eprintln!("rami join: --fingerprint must be 64 hex digits");
                return ExitCode::from(2);
            }
        },
        _ => {
            let pick = |t: &discovery::FoundTable| {
                t.version == rami_protocol::PROTOCOL_VERSION
                    && a.table.as_ref().is_none_or(|n| &t.name == n)
                    && a.addr
                        .is_none_or(|ad| t.addrs.iter().any(|x| x.port() == ad.port()))
                    && (code.is_empty() || t.fingerprint.is_some_and(|f| code_matches(&code, &f)))
            };
            let wait = Duration::from_secs(a.discover);
            let found = match discovery::browse(wait, |t| !a.list && pick(t)) {
                Ok(f) => f,
                Err(e) => {
                    eprintln!("rami join: mDNS: {e}");
                    return ExitCode::from(1);
                }
            };
            if a.list {
                for t in &found {
                    println!(
                        "{}\t{}\t{} free\t{}",
                        t.name,
                        t.rules,
                        t.free_seats,
                        t.addrs
                            .iter()
                            .map(|a| a.to_string())
                            .collect::<Vec<_>>()
                            .join(",")
                    );
                }
                return ExitCode::SUCCESS;
            }
            let Some(t) = found.into_iter().find(|t| pick(t)) else {
                eprintln!(
                    "rami join: no matching table found nearby within {} s",
                    a.discover
                );
                return ExitCode::from(1);
            };
            let (Some(fp), Some(addr)) = (t.fingerprint, a.addr.or(t.addrs.first().copied()))
            else {
                eprintln!(
                    "rami join: the table `{}` published no usable address or fingerprint",
                    t.name
                );
                return ExitCode::from(1);
            };
            if !a.quiet {
                println!("found table `{}` ({}) at {addr}", t.name, t.rules);
            }
            (addr, fp)
        }
    };
    if !code.is_empty() && !code_matches(&code, &fp) {
        eprintln!(
            "rami join: the join code does not belong to this host's certificate (wrong code or wrong host)"
        );
        return ExitCode::from(3);
    }
    let opts = PhoneOptions {
        name: a.name.clone(),
        code: code.clone(),
        fingerprint: fp,
        addr,
        bot: level.map(bot_fn),
        rejoin_for: Duration::from_secs(a.rejoin),
        delay: Duration::from_millis(a.delay_ms),
        capture: None,
        verbose: !a.quiet,
    };
    let rt = match runtime() {
        Ok(r) => r,
        Err(e) => {
            eprintln!("rami join: {e}");
            return ExitCode::from(1);
        }
    };
    match rt.block_on(run_phone(opts)) {
        Ok(r) => {
            let v = r.view.as_ref();
            println!(
                "game over: seat {:?}, winners {:?}, totals {:?}, reconnects {}",
                r.seat,
                v.and_then(|v| v.outcome.as_ref())
                    .map(|o| o.winners.clone()),
                v.and_then(|v| v.outcome.as_ref()).map(|o| o.totals.clone()),
                r.reconnects
            );
            ExitCode::SUCCESS
        }
        Err(PhoneError::Client(e)) => {
            eprintln!("rami join: {e}");
            ExitCode::from(3)
        }
        Err(e) => {
            eprintln!("rami join: {e}");
            ExitCode::from(1)
        }
    }
}
