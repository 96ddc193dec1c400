//! The host's lobby over real QUIC on loopback: phones ask to join, the host's
//! screen (through `HostHandle`) accepts two into seats it picks, declines a
//! third, seats a computer player and starts; the game plays to the end.

mod common;

use common::{host_bots, host_opts, phone};
use rami_engine::{AnyGame, new_game};
use rami_game::{BotLevel, RuleSet};
use rami_net::host::{HostEvent, start_host};
use rami_net::phone::{PhoneError, run_phone};
use rami_protocol::{Refusal, SeatInfo};
use rami_session::{ClientError, LobbyError, LobbySnapshot, StartError};
use std::time::Duration;
use tokio::sync::broadcast;

/// The next lobby event whose snapshot satisfies `want` (bounded, so a broken
/// host fails the test instead of hanging it; not a timing assertion).
async fn lobby_until(
    rx: &mut broadcast::Receiver<HostEvent>,
    want: impl Fn(&LobbySnapshot) -> bool,
) -> LobbySnapshot {
    tokio::time::timeout(Duration::from_secs(60), async {
        loop {
            match rx.recv().await {
                Ok(HostEvent::Lobby(l)) if want(&l) => return l,
                Ok(_) | Err(broadcast::error::RecvError::Lagged(_)) => {}
                Err(e) => panic!("host events ended: {e}"),
            }
        }
    })
    .await
    .expect("the lobby never reached the expected state")
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn host_accepts_declines_seats_a_computer_and_starts() {
    let mut opts = host_opts(RuleSet::Manipulation, 3, 0, 31);
    opts.settings.auto_accept = false;
    opts.settings.auto_start = false;
    let host = start_host::<AnyGame>(opts, new_game, host_bots())
        .await
        .unwrap();
    let h = host.handle();
    let mut events = h.events();

    // Phones that play with a computer player once seated.
    let spawn = |name: &str| {
        tokio::spawn(run_phone(phone(
            name,
            &host.code,
            host.fingerprint,
            host.addr,
            None,
        )))
    };
    // One at a time, so the join requests come in a known order.
    let ann = spawn("Ann");
    lobby_until(&mut events, |l| l.pending.len() == 1).await;
    let bob = spawn("Bob");
    lobby_until(&mut events, |l| l.pending.len() == 2).await;
    let cid = spawn("Cid");
    let l = lobby_until(&mut events, |l| l.pending.len() == 3).await;
    let names: Vec<&str> = l.pending.iter().map(|r| r.name.as_str()).collect();
    assert_eq!(names, ["Ann", "Bob", "Cid"]);
    assert!(l.seats.iter().all(|s| *s == SeatInfo::Empty));
    assert!(!l.can_start);
    let (ann_id, bob_id, cid_id) = (l.pending[0].id, l.pending[1].id, l.pending[2].id);

    // Cid is declined and told so.
    h.decline(cid_id).unwrap();
    let r = tokio::time::timeout(Duration::from_secs(60), cid)
        .await
        .unwrap()
        .unwrap();
    match r {
        Err(PhoneError::Client(ClientError::Refused {
            reason: Refusal::Declined,
            message,
        })) => assert!(message.contains("declined"), "{message}"),
        other => panic!("{other:?}"),
    }
    assert_eq!(h.decline(cid_id), Err(LobbyError::NoSuchRequest(cid_id)));

    // Seats of the host's choice.
    assert_eq!(h.accept(ann_id, Some(2)), Ok(2));
    assert_eq!(h.accept(bob_id, Some(2)), Err(LobbyError::SeatTaken(2)));
    assert_eq!(h.accept(bob_id, None), Ok(0));
    assert!(matches!(h.start(), Err(StartError::EmptySeat(1))));
    assert_eq!(h.add_bot(1, BotLevel::Greedy), Ok(()));
    let l = lobby_until(&mut events, |l| l.can_start).await;
    assert!(matches!(&l.seats[2], SeatInfo::Human { name, .. } if name == "Ann"));
    assert!(matches!(&l.seats[0], SeatInfo::Human { name, .. } if name == "Bob"));
    assert_eq!(
        l.seats[1],
        SeatInfo::Computer {
            level: BotLevel::Greedy
        }
    );
    assert_eq!(h.lobby_snapshot(), l);

    h.start().unwrap();
    lobby_until(&mut events, |l| l.started).await;
    for (task, seat) in [(ann, 2), (bob, 0)] {
        let r = tokio::time::timeout(Duration::from_secs(240), task)
            .await
            .unwrap()
            .unwrap()
            .unwrap();
        assert_eq!(r.seat, Some(seat));
        assert!(r.view.unwrap().outcome.is_some());
    }
    // The screen hears the end, then the close (exit_when_over).
    let mut saw_over = false;
    tokio::time::timeout(Duration::from_secs(60), async {
        loop {
            match events.recv().await {
                Ok(HostEvent::GameOver) => saw_over = true,
                Ok(HostEvent::Closed) | Err(broadcast::error::RecvError::Closed) => break,
                _ => {}
            }
        }
    })
    .await
    .unwrap();
    assert!(saw_over);
    assert!(h.lobby_snapshot().over);
    host.wait().await.unwrap();
}
