//! A host and phones over real QUIC on loopback.

mod common;

use common::{host_bots, host_opts, phone, table};
use rami_engine::{AnyGame, new_game};
use rami_game::RuleSet;
use rami_net::host::start_host;
use rami_net::phone::{PhoneError, run_phone};

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
    let host = start_host::<AnyGame>(
        host_opts(RuleSet::Manipulation, 2, 0, 1),
        new_game,
        host_bots(),
    )
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
