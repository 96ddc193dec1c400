//! Paced computer moves at a nearby table, over loopback QUIC.

mod common;

use common::{host_bots, host_opts, phone};
use rami_engine::{AnyGame, new_game};
use rami_game::{Event, RuleSet};
use rami_net::host::start_host;
use rami_net::phone::run_phone;
use rami_protocol::HostMsg;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

/// Events that are a move of `seat` (not only something that happened to it).
fn moved(events: &[Event], seat: usize) -> bool {
    events.iter().any(|e| match e {
        Event::Drew { seat: s, .. } | Event::Passed { seat: s } => *s == seat,
        Event::TablePlayed { seat: s, .. } => *s == seat,
        _ => false,
    })
}

/// With `computer_move_delay_ms`, every computer move leaves the host at least
/// the delay after the update before it (the one that gave the computer its
/// turn, or its own previous move): so it reaches the phone at least the delay
/// after the phone's own action. Only a lower bound: nothing here says how late
/// a move may be.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_phone_sees_computer_moves_no_sooner_than_the_delay() {
    let delay = Duration::from_millis(250);
    // Seat 1 is the computer; the phone (seat 0) deals first.
    let mut opts = host_opts(RuleSet::Manipulation, 2, 1, 8);
    opts.settings.computer_move_delay_ms = delay.as_millis() as u64;
    opts.exit_when_over = false;
    let sent: Arc<Mutex<Vec<(Instant, HostMsg)>>> = Arc::default();
    let log = sent.clone();
    opts.tap = Some(Arc::new(move |s| {
        if matches!(s.msg, HostMsg::Update { .. }) {
            log.lock().unwrap().push((Instant::now(), s.msg.clone()));
        }
    }));
    let host = start_host::<AnyGame>(opts, new_game, host_bots())
        .await
        .unwrap();
    let phone_task = tokio::spawn(run_phone(phone(
        "P",
        &host.code,
        host.fingerprint,
        host.addr,
        None,
    )));
    // Wait for a few computer moves (each takes at least the delay).
    let start = Instant::now();
    let computer_moves = || {
        sent.lock()
            .unwrap()
            .iter()
            .filter(|(_, m)| matches!(m, HostMsg::Update { events, .. } if moved(events, 1)))
            .count()
    };
    while computer_moves() < 4 && start.elapsed() < Duration::from_secs(60) {
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    host.stop().await.unwrap();
    phone_task.abort();
    let sent = sent.lock().unwrap();
    let mut checked = 0;
    for w in sent.windows(2) {
        let (prev_at, _) = &w[0];
        let (at, msg) = &w[1];
        if let HostMsg::Update { events, .. } = msg
            && moved(events, 1)
        {
            let gap = at.duration_since(*prev_at);
            assert!(
                gap >= delay,
                "a computer move came {gap:?} after the update before it"
            );
            checked += 1;
        }
    }
    assert!(checked >= 4, "only {checked} computer moves seen");
}

/// Without a delay (the headless default) computer moves come in the same
/// input as the move that gave them the turn.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn without_a_delay_computer_moves_come_at_once() {
    let mut opts = host_opts(RuleSet::Machiavelli, 2, 1, 9);
    assert_eq!(opts.settings.computer_move_delay_ms, 0);
    let batches: Arc<Mutex<Vec<(u64, HostMsg)>>> = Arc::default();
    let log = batches.clone();
    opts.tap = Some(Arc::new(move |s| {
        if matches!(s.msg, HostMsg::Update { .. }) {
            log.lock().unwrap().push((s.batch, s.msg.clone()));
        }
    }));
    let host = start_host::<AnyGame>(opts, new_game, host_bots())
        .await
        .unwrap();
    let report = run_phone(phone("P", &host.code, host.fingerprint, host.addr, None))
        .await
        .unwrap();
    assert!(report.view.unwrap().outcome.is_some(), "the game finished");
    host.wait().await.unwrap();
    // Every computer move shares its batch (one input of the host) with a move
    // of the phone: none waited for a timer of its own.
    let b = batches.lock().unwrap();
    let mut seen = 0;
    for (batch, msg) in b.iter() {
        if let HostMsg::Update { events, .. } = msg
            && moved(events, 1)
        {
            seen += 1;
            assert!(
                moved(events, 0)
                    || b.iter().any(|(x, m)| x == batch
                        && matches!(m, HostMsg::Update { events, .. } if moved(events, 0))),
                "a computer move in a batch of its own"
            );
        }
    }
    assert!(seen > 0);
}
