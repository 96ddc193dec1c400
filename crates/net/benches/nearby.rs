//! Nearby play latency over loopback QUIC: a host and a phone in every seat.
//! One round trip: the phone whose turn it is sends its action (chosen
//! beforehand by the computer player, so thinking is not timed) -> the host
//! decodes it, validates it with the engine, applies it, makes each seat's
//! patch (no autosave file: the session makes no save) -> every phone has read and
//! decoded its `Update`. The time is the last phone's arrival.
//!
//! Two tables: Manipulation with 5 phones (its most players), timing only
//! `Done` round trips (the whole proposed table travels and is judged), and
//! Rummy 500 with 7 phones, timing every action. Set `RAMI_BENCH_TABLES` to
//! `manipulation` or `rummy500` for one of them.
//!
//! `cargo bench -p rami-net --bench nearby` prints p50 / p90 / p99 / max over
//! `RAMI_BENCH_ROUND_TRIPS` round trips (default 1000) per table, the byte sizes
//! seen (proposed table, updates, a full view at the biggest table), then
//! criterion's distribution of the mean.

use criterion::{Criterion, criterion_group, criterion_main};
use rami_engine::{AnyGame, new_game};
use rami_game::{Action, ActionKind, RuleSet};
use rami_net::host::{HostOptions, RunningHost, start_host};
use rami_net::link::{Link, LinkRx, LinkTx, QuicLink, QuicTx};
use rami_net::tls::{HostIdentity, client_config, proof};
use rami_protocol::{HostMsg, decode, encode};
use rami_session::{BotFn, ClientSession, HostSettings};
use std::sync::Arc;
use std::time::{Duration, Instant};
use tokio::sync::mpsc;

/// The most phones a table of these rules seats.
fn phones_for(rules: RuleSet) -> usize {
    rami_game::GameConfig::player_range(rules).1
}

/// One timed round trip and the sizes it involved.
struct Sample {
    took: Duration,
    kind: ActionKind,
    /// The encoded `Act` (without the frame header).
    action_bytes: usize,
    /// Cards on the table after the action.
    table_cards: usize,
    /// The encoded `Update`s the phones got (without the frame header).
    updates: Vec<usize>,
    /// A full view (`Snapshot`) of the actor after the action.
    full_view: usize,
}

fn bot() -> BotFn {
    Arc::new(|v| rami_bots::choose_action(v, rami_bots::Level::Greedy))
}

struct Phone {
    tx: QuicTx,
    session: ClientSession,
    _endpoint: quinn::Endpoint,
}

/// A Rummy 500 table of seven phones, driven one action at a time.
struct Table {
    host: Option<RunningHost>,
    phones: Vec<Phone>,
    rx: mpsc::UnboundedReceiver<(usize, HostMsg, usize, Instant)>,
    bot: BotFn,
    /// Round trips that never completed (no sample).
    lost: usize,
    refused: usize,
}

impl Table {
    async fn new(rules: RuleSet, seed: u64) -> Table {
        let phones_n = phones_for(rules);
        let mut settings = HostSettings::new("Bench", rules, phones_n);
        settings.seed = seed;
        settings.auto_start = true;
        let opts = HostOptions {
            settings,
            identity: HostIdentity::generate().unwrap(),
            bind: "127.0.0.1:0".parse().unwrap(),
            computers: 0,
            autosave: None,
            resume: None,
            publish: false,
            exit_when_over: false,
            verbose: false,
            tap: None,
        };
        let host = start_host::<AnyGame>(opts, new_game, rami_net::cli::host_bots())
            .await
            .unwrap();
        let (ev_tx, rx) = mpsc::unbounded_channel();
        let mut phones = Vec::new();
        for i in 0..phones_n {
            let mut endpoint = quinn::Endpoint::client("127.0.0.1:0".parse().unwrap()).unwrap();
            endpoint.set_default_client_config(client_config(host.fingerprint).unwrap());
            let conn = endpoint
                .connect(host.addr, "rami.local")
                .unwrap()
                .await
                .unwrap();
            let (send, recv) = conn.open_bi().await.unwrap();
            let (mut tx, mut lrx) = QuicLink { conn, send, recv }.split();
            let mut session = ClientSession::new(
                &format!("P{i}"),
                &host.code,
                Some(proof(&host.code, &host.fingerprint)),
            );
            tx.send(encode(&session.hello()).unwrap()).await.unwrap();
            let ev = ev_tx.clone();
            tokio::spawn(async move {
                while let Ok(frame) = lrx.recv().await {
                    let msg: HostMsg = decode(&frame).unwrap();
                    if ev.send((i, msg, frame.len(), Instant::now())).is_err() {
                        break;
                    }
                }
            });
            phones.push(Phone {
                tx,
                session,
                _endpoint: endpoint,
            });
        }
        let mut t = Table {
            host: Some(host),
            phones,
            rx,
            bot: bot(),
            lost: 0,
            refused: 0,
        };
        // Wait for the deal on every phone.
        while t.phones.iter().any(|p| p.session.view().is_none()) {
            t.next(Duration::from_secs(10)).await.expect("no deal");
        }
        t
    }

    /// The next message of any phone, applied to its session.
    async fn next(&mut self, wait: Duration) -> Option<(usize, HostMsg, usize, Instant)> {
        let (i, msg, len, t) = tokio::time::timeout(wait, self.rx.recv()).await.ok()??;
        self.phones[i].session.receive(msg.clone()).unwrap();
        while self.phones[i].session.poll_event().is_some() {}
        Some((i, msg, len, t))
    }

    fn over(&self) -> bool {
        self.phones.iter().all(|p| p.session.is_over())
    }

    async fn close(&mut self) {
        if let Some(h) = self.host.take() {
            let _ = h.stop().await;
        }
    }

    /// One action -> validated -> every phone updated. `None` when it is
    /// nobody's turn (the game is over) or the action was refused.
    ///
    /// Actions other than `only` are played untimed: they may change nothing
    /// for the other phones (a Manipulation draw answered by a reminder goes to
    /// the drawer only), so the round trip waits for the actor's answer, then
    /// for the table to fall quiet.
    async fn round_trip(&mut self, only: Option<ActionKind>) -> Option<Sample> {
        // Anything still in flight from the last round (GameOver, presence).
        while let Some(_m) = self.next(Duration::ZERO).await {}
        let actor = self.phones.iter().position(|p| {
            p.session
                .view()
                .is_some_and(|v| v.current == Some(v.seat) && !v.legal.is_empty())
        })?;
        let view = self.phones[actor].session.view().unwrap();
        let action = (self.bot)(view).or_else(|| {
            [Action::Draw, Action::Pass]
                .into_iter()
                .find(|a| view.legal.contains(&a.kind()))
        })?;
        let kind = action.kind();
        if only.is_some_and(|k| k != kind) {
            let payload = encode(&self.phones[actor].session.act(action)).unwrap();
            self.phones[actor].tx.send(payload).await.unwrap();
            loop {
                let Some((i, msg, _, _)) = self.next(Duration::from_secs(2)).await else {
                    self.lost += 1;
                    return None;
                };
                if i == actor
                    && matches!(
                        msg,
                        HostMsg::Update { .. }
                            | HostMsg::Snapshot { .. }
                            | HostMsg::ActionRefused { .. }
                    )
                {
                    break;
                }
            }
            while self.next(Duration::from_millis(30)).await.is_some() {}
            return Some(Sample {
                took: Duration::ZERO,
                kind,
                action_bytes: 0,
                table_cards: 0,
                updates: Vec::new(),
                full_view: 0,
            });
        }
        let payload = encode(&self.phones[actor].session.act(action)).unwrap();
        let action_bytes = payload.len();
        let mut got: Vec<Option<Instant>> = vec![None; self.phones.len()];
        let mut updates = Vec::new();
        let t0 = Instant::now();
        self.phones[actor].tx.send(payload).await.unwrap();
        while got.iter().any(Option::is_none) {
            let Some((i, msg, len, t)) = self.next(Duration::from_secs(2)).await else {
                self.lost += 1;
                return None;
            };
            match msg {
                HostMsg::Update { .. } | HostMsg::Snapshot { .. } => {
                    if matches!(msg, HostMsg::Update { .. }) {
                        updates.push(len);
                    }
                    got[i].get_or_insert(t);
                }
                HostMsg::ActionRefused { .. } if i == actor => {
                    self.refused += 1;
                    // Fall back to the simplest move, untimed.
                    let v = self.phones[actor].session.view().unwrap();
                    if let Some(a) = [Action::Draw, Action::Pass]
                        .into_iter()
                        .find(|a| v.legal.contains(&a.kind()))
                    {
                        let p = encode(&self.phones[actor].session.act(a)).unwrap();
                        self.phones[actor].tx.send(p).await.unwrap();
                    }
                    return None;
                }
                _ => {}
            }
        }
        let took = got.iter().flatten().max().map(|t| *t - t0)?;
        let view = self.phones[actor].session.view()?;
        let full_view = encode(&HostMsg::Snapshot {
            view: Box::new(view.clone()),
        })
        .map_or(0, |b| b.len());
        Some(Sample {
            took,
            kind,
            action_bytes,
            table_cards: view.table.iter().map(Vec::len).sum(),
            updates,
            full_view,
        })
    }
}

/// Runs round trips, starting a new table whenever a game ends.
struct Bench {
    rt: tokio::runtime::Runtime,
    rules: RuleSet,
    /// Only round trips of this action are counted (others are played untimed).
    only: Option<ActionKind>,
    table: Option<Table>,
    seed: u64,
    games: usize,
}

impl Bench {
    fn new(rules: RuleSet, only: Option<ActionKind>) -> Bench {
        let rt = tokio::runtime::Builder::new_multi_thread()
            .worker_threads(2)
            .enable_all()
            .build()
            .unwrap();
        Bench {
            rt,
            rules,
            only,
            table: None,
            seed: 500,
            games: 0,
        }
    }

    fn run(&mut self, n: u64, mut each: impl FnMut(Sample)) -> Duration {
        let Bench {
            rt,
            rules,
            only,
            table,
            seed,
            games,
        } = self;
        rt.block_on(async {
            let mut total = Duration::ZERO;
            let mut done = 0;
            while done < n {
                if table.is_none() {
                    *seed += 1;
                    *games += 1;
                    *table = Some(Table::new(*rules, *seed).await);
                }
                let t = table.as_mut().unwrap();
                match t.round_trip(*only).await {
                    Some(s) if only.is_none_or(|k| k == s.kind) => {
                        total += s.took;
                        done += 1;
                        each(s);
                    }
                    Some(_) => {}
                    None => {
                        // Let late messages (GameOver) arrive, then look again.
                        while t.next(Duration::from_millis(20)).await.is_some() {}
                        if t.over() || t.lost > 50 {
                            assert!(t.lost <= 50, "round trips keep getting lost");
                            t.close().await;
                            *table = None;
                        }
                    }
                }
            }
            total
        })
    }
}

fn pct(sorted: &[Duration], q: f64) -> Duration {
    sorted[((sorted.len() - 1) as f64 * q).round() as usize]
}

fn pctl(sorted: &[usize], q: f64) -> usize {
    sorted[((sorted.len() - 1) as f64 * q).round() as usize]
}

fn latency(c: &mut Criterion) {
    let which = std::env::var("RAMI_BENCH_TABLES").unwrap_or_default();
    let tables = [
        (
            "manipulation_5_phones_done",
            RuleSet::Manipulation,
            Some(ActionKind::Done),
        ),
        ("rummy500_7_phones_any", RuleSet::Rummy500, None),
    ];
    for (name, rules, only) in tables {
        if !which.is_empty() && !name.starts_with(which.as_str()) {
            continue;
        }
        table_latency(c, name, rules, only);
    }
}

fn table_latency(c: &mut Criterion, name: &str, rules: RuleSet, only: Option<ActionKind>) {
    let mut bench = Bench::new(rules, only);
    let n: u64 = std::env::var("RAMI_BENCH_ROUND_TRIPS")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(1000);
    // Warm up (connections, allocator, caches), then the percentiles.
    bench.run(50, |_| {});
    let mut all = Vec::with_capacity(n as usize);
    let mut action_bytes = Vec::new();
    let mut updates = Vec::new();
    let mut tables = Vec::new();
    // (table cards, full view bytes) at the biggest table seen.
    let mut biggest = (0, 0);
    let mut max_view = 0;
    bench.run(n, |s| {
        all.push(s.took);
        action_bytes.push(s.action_bytes);
        updates.extend(&s.updates);
        tables.push(s.table_cards);
        max_view = max_view.max(s.full_view);
        if s.table_cards >= biggest.0 {
            biggest = (s.table_cards, s.full_view);
        }
    });
    all.sort();
    action_bytes.sort();
    updates.sort();
    tables.sort();
    let mean = all.iter().sum::<Duration>() / all.len() as u32;
    let phones = phones_for(rules);
    println!(
        "nearby {name}: {} round trips ({}) over {} games, action -> validated -> all {phones} phones updated: \
         p50 {:.3} ms, p90 {:.3} ms, p99 {:.3} ms, max {:.3} ms, mean {:.3} ms",
        all.len(),
        only.map_or("every action".to_string(), |k| format!("{k:?} only")),
        bench.games,
        pct(&all, 0.50).as_secs_f64() * 1e3,
        pct(&all, 0.90).as_secs_f64() * 1e3,
        pct(&all, 0.99).as_secs_f64() * 1e3,
        all.last().unwrap().as_secs_f64() * 1e3,
        mean.as_secs_f64() * 1e3,
    );
    println!(
        "  bytes: action p50 {} max {}; update p50 {} p90 {} max {} (n={}); \
         table cards p50 {} max {}; full view max {}, at the biggest table ({} cards) {}",
        pctl(&action_bytes, 0.5),
        action_bytes.last().unwrap(),
        pctl(&updates, 0.5),
        pctl(&updates, 0.9),
        updates.last().unwrap(),
        updates.len(),
        pctl(&tables, 0.5),
        tables.last().unwrap(),
        max_view,
        biggest.0,
        biggest.1,
    );
    if let Some(t) = &bench.table {
        println!(
            "  (refused actions {}, lost round trips {})",
            t.refused, t.lost
        );
    }

    let mut group = c.benchmark_group(format!("nearby_{name}"));
    group.sample_size(50);
    group.measurement_time(Duration::from_secs(8));
    group.bench_function("action_to_all_updated", |b| {
        b.iter_custom(|iters| bench.run(iters, |_| {}))
    });
    group.finish();
    if let Some(mut t) = bench.table.take() {
        bench.rt.block_on(t.close());
    }
}

criterion_group!(benches, latency);
criterion_main!(benches);
