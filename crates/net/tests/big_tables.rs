//! Full tables over real QUIC on loopback: seven phones at one Rummy 500 table,
//! and a Rami table of four, each played to the end with the leak check of
//! every byte each phone received (see `common::check_phone`).

mod common;

use rami_game::RuleSet;
use std::time::Duration;

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn seven_phones_rummy500() {
    let took = common::table(RuleSet::Rummy500, 7, 0, 31).await;
    assert!(took < Duration::from_secs(120), "{took:?}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn four_phones_rami() {
    let took = common::table(RuleSet::Rami, 4, 0, 32).await;
    assert!(took < Duration::from_secs(120), "{took:?}");
}

/// The leak check is not vacuous: a game's real bytes, with one message changed
/// (in what the host sent and what the phone got alike), fail it.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn leak_check_catches_leaks() {
    use rami_game::{Event, Hint};
    use rami_protocol::HostMsg;
    let p = common::play(RuleSet::Rummy500, 3, 0, 33).await;
    for (i, c) in p.captures.iter().enumerate() {
        common::check_phone(&p.records, c, &format!("phone {i}"));
    }
    let fails = |records: &[common::Record], capture: &[u8]| -> String {
        let r = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
            common::check_phone(records, capture, "doctored")
        }));
        let e = r.expect_err("the leak check passed a doctored game");
        e.downcast_ref::<String>().cloned().unwrap_or_default()
    };
    // Another seat's card in an event (a hint).
    let (r, c) = common::doctored(&p, 0, |m, t, me| {
        let HostMsg::Update { events, patch } = m else {
            return None;
        };
        let mine = &t.views[me];
        let secret = t
            .views
            .iter()
            .filter(|v| v.seat != me)
            .flat_map(|v| v.hand.iter().copied())
            .find(|c| {
                !mine.hand.contains(c)
                    && !mine.discard.contains(c)
                    && !mine.table.iter().flatten().any(|x| x == c)
            })?;
        let mut events = events.clone();
        // A reminder addressed to another seat: since protocol version 3 a
        // phone's own reminder also sets its view's hint (which the view check
        // would catch first); this one must be caught by the card check.
        events.push(Event::Reminded {
            seat: (me + 1) % t.views.len(),
            hint: Hint {
                cards: vec![secret],
                groups: vec![],
                rearrange: false,
                table: vec![],
            },
        });
        Some(HostMsg::Update {
            events,
            patch: patch.clone(),
        })
    });
    assert!(fails(&r, &c).contains("only another seat holds"));
    // A snapshot of another seat.
    let (r, c) = common::doctored(&p, 1, |m, t, me| match m {
        HostMsg::Snapshot { .. } => Some(HostMsg::Snapshot {
            view: Box::new(t.views[(me + 1) % t.views.len()].clone()),
        }),
        _ => None,
    });
    assert!(fails(&r, &c).contains("snapshot of another seat"));
    // Another seat's hand in a patch.
    let (r, c) = common::doctored(&p, 2, |m, t, me| match m {
        HostMsg::Update { events, patch } => {
            let mut patch = patch.clone();
            patch.hand = Some(t.views[(me + 1) % t.views.len()].hand.clone());
            Some(HostMsg::Update {
                events: events.clone(),
                patch,
            })
        }
        _ => None,
    });
    let e = fails(&r, &c);
    assert!(
        e.contains("differs from the host's") || e.contains("only another seat holds"),
        "{e}"
    );
    // Bytes the host never sent.
    let mut c = p.captures[0].clone();
    let n = c.len();
    c[n - 1] ^= 0x55;
    let e = fails(&p.records, &c);
    assert!(e.contains("never sent") || e.contains("unreadable"), "{e}");
}
