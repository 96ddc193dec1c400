//! A host and phones over real QUIC on loopback.

use rami_engine::{AnyGame, new_game};
use rami_game::RuleSet;
use rami_net::host::{HostOptions, start_host};
use rami_net::phone::{PhoneError, PhoneOptions, run_phone};
use rami_net::tls::HostIdentity;
use rami_protocol::{FrameDecoder, HostMsg, decode};
use rami_session::{BotFn, HostSettings};
use std::sync::{Arc, Mutex};
use std::time::Duration;

fn bot() -> BotFn {
    Arc::new(|v| rami_bots::choose_action(v, rami_bots::Level::Greedy))
}

fn host_opts(rules: RuleSet, seats: usize, computers: usize, seed: u64) -> HostOptions {
    let mut settings = HostSettings::new("Loopback", rules, seats);
    settings.seed = seed;
    settings.auto_start = true;
    HostOptions {
        settings,
        identity: HostIdentity::generate().unwrap(),
        bind: "127.0.0.1:0".parse().unwrap(),
        computers,
        autosave: None,
        resume: None,
        publish: false,
        exit_when_over: true,
        verbose: false,
    }
}

fn phone(
    name: &str,
    code: &str,
    fp: [u8; 32],
    addr: std::net::SocketAddr,
    capture: Option<Arc<Mutex<Vec<u8>>>>,
) -> PhoneOptions {
    PhoneOptions {
        name: name.into(),
        code: code.into(),
        fingerprint: fp,
        addr,
        bot: Some(bot()),
        rejoin_for: Duration::from_secs(5),
        delay: Duration::ZERO,
        capture,
        verbose: false,
    }
}

async fn table(rules: RuleSet, phones: usize, computers: usize, seed: u64) {
    let host = start_host::<AnyGame>(
        host_opts(rules, phones + computers, computers, seed),
        new_game,
        bot(),
    )
    .await
    .unwrap();
    let mut tasks = Vec::new();
    let mut captures = Vec::new();
    for i in 0..phones {
        let cap = Arc::new(Mutex::new(Vec::new()));
        captures.push(cap.clone());
        tasks.push(tokio::spawn(run_phone(phone(
            &format!("P{i}"),
            &host.code,
            host.fingerprint,
            host.addr,
            Some(cap),
        ))));
    }
    let mut seats = Vec::new();
    for t in tasks {
        let r = tokio::time::timeout(Duration::from_secs(240), t)
            .await
            .unwrap()
            .unwrap()
            .unwrap();
        let v = r.view.unwrap();
        assert!(
            v.outcome.is_some(),
            "{rules}: game not over for seat {:?}",
            r.seat
        );
        seats.push(r.seat.unwrap());
    }
    seats.sort();
    seats.dedup();
    assert_eq!(seats.len(), phones);
    tokio::time::timeout(Duration::from_secs(10), host.wait())
        .await
        .unwrap()
        .unwrap();
    // Every byte each phone received is a well-formed frame of host messages, and
    // none is a snapshot of another seat.
    for (i, cap) in captures.iter().enumerate() {
        let bytes = cap.lock().unwrap().clone();
        let mut d = FrameDecoder::new();
        d.push(&bytes);
        let mut my_seat = None;
        let mut n = 0;
        while let Some(f) = d.next_frame().unwrap() {
            n += 1;
            match decode::<HostMsg>(&f).unwrap() {
                HostMsg::Seated { seat, .. } => my_seat = Some(seat),
                HostMsg::Snapshot { view } => assert_eq!(Some(view.seat), my_seat, "phone {i}"),
                _ => {}
            }
        }
        assert!(n > 10);
        assert_eq!(d.buffered(), 0);
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn five_phones_manipulation() {
    table(RuleSet::Manipulation, 5, 0, 21).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn four_phones_and_a_computer_vatikan() {
    table(RuleSet::Vatikan, 4, 1, 22).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn three_phones_carousel() {
    table(RuleSet::Carousel, 3, 1, 23).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn wrong_code_and_wrong_pin_are_refused() {
    let host = start_host::<AnyGame>(host_opts(RuleSet::Manipulation, 2, 0, 1), new_game, bot())
        .await
        .unwrap();
    let wrong = format!("{}-ZZZ", &host.code[..3]);
    let r = run_phone(phone("x", &wrong, host.fingerprint, host.addr, None)).await;
    match r {
        Err(PhoneError::Client(e)) => assert!(e.to_string().contains("wrong join code"), "{e}"),
        other => panic!("{other:?}"),
    }
    let r = run_phone(phone("x", &host.code, [7; 32], host.addr, None)).await;
    match r {
        Err(PhoneError::Unreachable(e)) => assert!(e.contains("fingerprint"), "{e}"),
        other => panic!("{other:?}"),
    }
    host.stop().await.unwrap();
}
