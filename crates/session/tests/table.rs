//! Whole tables in memory: a host and phones exchanging real encoded bytes.

use rami_engine::{AnyGame, new_game};
use rami_game::{Action, ActionError, BotLevel, Card, Game, RuleSet};
use rami_protocol::{
    ActionRefusal, ClientMsg, HostMsg, Intent, PROTOCOL_VERSION, Refusal, decode, encode, hello,
};
use rami_session::{
    ClientError, ClientEvent, ClientSession, ConnId, HostBotFn, HostSession, HostSettings, Output,
};
use std::sync::Arc;

const CODE: &str = "ABC-DEF";

fn bot() -> HostBotFn {
    Arc::new(rami_bots::choose_action_or_claim)
}

fn settings(rules: RuleSet, seats: usize, seed: u64) -> HostSettings {
    let mut s = HostSettings::new("Kitchen", rules, seats);
    s.code = CODE.into();
    s.seed = seed;
    s
}

struct Phone {
    conn: ConnId,
    session: ClientSession,
    received: Vec<Vec<u8>>,
    closed: bool,
    errors: Vec<ClientError>,
    refusals: Vec<ActionRefusal>,
}

struct Table {
    host: HostSession<AnyGame>,
    phones: Vec<Phone>,
    now: u64,
    saves: usize,
    last_save: Vec<u8>,
    leak_checks: usize,
}

fn find_key<'a>(v: &'a serde_json::Value, key: &str) -> Option<&'a serde_json::Value> {
    match v {
        serde_json::Value::Object(m) => m
            .get(key)
            .or_else(|| m.values().find_map(|x| find_key(x, key))),
        serde_json::Value::Array(a) => a.iter().find_map(|x| find_key(x, key)),
        _ => None,
    }
}

fn cards_of(v: &serde_json::Value) -> Vec<u8> {
    v.as_array()
        .map(|a| {
            a.iter()
                .filter_map(|c| c.as_u64().map(|n| n as u8))
                .collect()
        })
        .unwrap_or_default()
}

fn contains(hay: &[u8], needle: &[u8]) -> bool {
    needle.len() <= hay.len() && hay.windows(needle.len()).any(|w| w == needle)
}

impl Table {
    fn new(rules: RuleSet, seats: usize, seed: u64) -> Self {
        Table {
            host: HostSession::new(settings(rules, seats, seed), new_game, bot()),
            phones: Vec::new(),
            now: 1_000,
            saves: 0,
            last_save: Vec::new(),
            leak_checks: 0,
        }
    }

    /// A table whose host accepts each join request itself (the app's lobby).
    fn asking(rules: RuleSet, seats: usize, seed: u64) -> Self {
        let mut s = settings(rules, seats, seed);
        s.auto_accept = false;
        let mut t = Table::new(rules, seats, seed);
        t.host = HostSession::new(s, new_game, bot());
        t
    }

    fn join(&mut self, name: &str) -> usize {
        let conn = ConnId(100 + self.phones.len() as u64);
        let mut session = ClientSession::new(name, CODE, Some([0; 32]));
        self.host.connect(conn, self.now);
        let hello = session.hello();
        self.phones.push(Phone {
            conn,
            session,
            received: Vec::new(),
            closed: false,
            errors: Vec::new(),
            refusals: Vec::new(),
        });
        self.send(self.phones.len() - 1, &hello);
        self.phones.len() - 1
    }

    fn send(&mut self, phone: usize, msg: &ClientMsg) {
        let bytes = encode(msg).unwrap();
        let conn = self.phones[phone].conn;
        self.host.receive(conn, &bytes, self.now);
        self.pump();
    }

    /// Delivers host outputs, checking each message for leaks first.
    fn pump(&mut self) {
        let secrets = self.secrets();
        while let Some(out) = self.host.poll() {
            match out {
                Output::Send { conn, msg } => {
                    let bytes = encode(&msg).unwrap();
                    let Some(p) = self.phones.iter_mut().position(|p| p.conn == conn) else {
                        continue;
                    };
                    let reveals_hands = matches!(&msg, HostMsg::Update { patch, events }
                        if patch.last_hand.is_some() || patch.outcome.is_some()
                            || events.iter().any(|e| matches!(e, rami_game::Event::HandEnded { .. } | rami_game::Event::GameEnded { .. })))
                        || matches!(&msg, HostMsg::Snapshot { view } if view.last_hand.is_some());
                    if let Some((hands, stock)) = &secrets {
                        let seat = self.phones[p].session.seat();
                        for (s, h) in hands.iter().enumerate() {
                            if Some(s) != seat && h.len() >= 6 && !reveals_hands {
                                let mut enc = vec![h.len() as u8];
                                enc.extend(h);
                                assert!(
                                    !contains(&bytes, &enc),
                                    "hand of seat {s} leaked to {seat:?}"
                                );
                                self.leak_checks += 1;
                            }
                        }
                        if stock.len() >= 6 {
                            let top: Vec<u8> = stock.iter().rev().take(6).copied().collect();
                            let bottom: Vec<u8> = stock.iter().take(6).copied().collect();
                            let mut rtop = top.clone();
                            rtop.reverse();
                            for s in [&top, &bottom, &rtop] {
                                assert!(!contains(&bytes, s), "stock order leaked");
                            }
                            self.leak_checks += 1;
                        }
                    }
                    let phone = &mut self.phones[p];
                    phone.received.push(bytes.clone());
                    let decoded: HostMsg = decode(&bytes).unwrap();
                    if let Err(e) = phone.session.receive(decoded) {
                        phone.errors.push(e);
                    }
                    while let Some(ev) = phone.session.poll_event() {
                        if let rami_session::ClientEvent::Refused { reason, .. } = ev {
                            phone.refusals.push(reason);
                        }
                    }
                }
                Output::Close { conn } => {
                    if let Some(p) = self.phones.iter_mut().find(|p| p.conn == conn) {
                        p.closed = true;
                        self.host.disconnect(conn, self.now);
                    }
                }
                Output::Save(b) => {
                    self.saves += 1;
                    self.last_save = b;
                }
                Output::LobbyChanged | Output::GameOver => {}
            }
        }
        // Every phone's view is exactly its seat's view.
        if let Some(g) = self.host.game() {
            for p in &self.phones {
                if let (Some(seat), Some(v), false) = (p.session.seat(), p.session.view(), p.closed)
                {
                    assert_eq!(v, &g.view(seat), "phone view out of sync");
                }
            }
        }
    }

    fn secrets(&self) -> Option<(Vec<Vec<u8>>, Vec<u8>)> {
        let g = self.host.game()?;
        let json = serde_json::to_value(g).ok()?;
        let hands = find_key(&json, "hands")?
            .as_array()?
            .iter()
            .map(cards_of)
            .collect();
        let stock = cards_of(find_key(&json, "stock")?);
        Some((hands, stock))
    }

    /// Phones play with the computer player on their own views until the end.
    fn play_out(&mut self, max_steps: usize) -> usize {
        let mut steps = 0;
        while !self.host.is_over() && steps < max_steps {
            steps += 1;
            let mut acted = false;
            for i in 0..self.phones.len() {
                if self.phones[i].closed {
                    continue;
                }
                let Some(view) = self.phones[i].session.view().cloned() else {
                    continue;
                };
                if let Some(a) = rami_bots::choose_action(&view, rami_bots::Level::Greedy) {
                    let before = self.phones[i].refusals.len();
                    let msg = self.phones[i].session.act(a);
                    self.send(i, &msg);
                    if self.phones[i].refusals.len() > before {
                        // Refused: fall back to the simplest move.
                        for a in [Action::Draw, Action::Pass] {
                            let msg = self.phones[i].session.act(a);
                            self.send(i, &msg);
                        }
                    }
                    acted = true;
                }
            }
            if !acted {
                self.now += 1_000;
                self.host.tick(self.now);
                self.pump();
            }
        }
        steps
    }
}

fn whole_game(rules: RuleSet, phones: usize, seats: usize, seed: u64) {
    let mut t = Table::new(rules, seats, seed);
    for i in 0..phones {
        t.join(&format!("P{i}"));
    }
    t.host.fill_with_computers(BotLevel::Greedy);
    t.host.start(t.now).unwrap();
    t.pump();
    let steps = t.play_out(20_000);
    assert!(t.host.is_over(), "{rules}: not over after {steps} steps");
    for p in &t.phones {
        assert!(p.errors.is_empty(), "{:?}", p.errors);
        assert!(p.session.is_over());
    }
    assert!(t.saves > 10);
    assert!(t.leak_checks > 100, "{}", t.leak_checks);
}

#[test]
fn manipulation_five_phones() {
    whole_game(RuleSet::Manipulation, 5, 5, 1);
}

#[test]
fn machiavelli_four_phones_and_a_computer() {
    whole_game(RuleSet::Machiavelli, 4, 5, 2);
}

#[test]
fn carousel_three_phones() {
    whole_game(RuleSet::Carousel, 3, 4, 3);
}

#[test]
fn hostile_phone_changes_nothing() {
    let mut t = Table::new(RuleSet::Manipulation, 3, 7);
    let a = t.join("A");
    let b = t.join("B");
    t.host.fill_with_computers(BotLevel::Greedy);
    t.host.start(t.now).unwrap();
    t.pump();
    let state = serde_json::to_string(t.host.game().unwrap()).unwrap();
    let b_received = t.phones[b].received.len();

    // Whoever is not current acts out of turn.
    let cur = t.host.game().unwrap().current_player().unwrap();
    let other = if cur == 0 { b } else { a };
    let msg = t.phones[other].session.act(Action::Draw);
    t.send(other, &msg);
    assert!(matches!(
        t.phones[other].refusals.last(),
        Some(ActionRefusal::Game(ActionError::NotYourTurn { .. }))
    ));

    let me = if cur == 0 { a } else { b };
    let view = t.phones[me].session.view().unwrap().clone();
    // Forged Done: a card not in hand.
    let absent = (0..52u8)
        .map(|n| Card::try_from(n).unwrap())
        .find(|c| !view.hand.contains(c))
        .unwrap();
    let mut forged = view.table.clone();
    forged.push(vec![absent, absent, absent]);
    let msg = t.phones[me].session.act(Action::Done { table: forged });
    t.send(me, &msg);
    // Forged Done: a duplicated hand card.
    let mut forged = view.table.clone();
    forged.push(vec![view.hand[0]; 3]);
    let msg = t.phones[me].session.act(Action::Done { table: forged });
    t.send(me, &msg);
    assert_eq!(
        t.phones[me].refusals.len(),
        2,
        "{:?}",
        t.phones[me].refusals
    );
    // Typed: the phone knows which card is at fault, not just a sentence.
    assert!(
        t.phones[me]
            .refusals
            .iter()
            .all(|r| r.game_error().is_some()),
        "{:?}",
        t.phones[me].refusals
    );

    // A replayed action (old seq).
    let msg = ClientMsg::Act {
        seq: 1,
        action: Action::Draw,
    };
    t.send(me, &msg);
    assert!(matches!(
        t.phones[me].refusals.last(),
        Some(ActionRefusal::Replayed { seq: 1, .. })
    ));

    // Garbage bytes, an oversized-looking payload.
    let conn = t.phones[me].conn;
    t.host.receive(conn, &[0xff, 0xfe, 0x00, 0x13], t.now);
    t.host.receive(conn, &vec![7u8; 20_000], t.now);
    t.pump();
    assert_eq!(
        t.phones[me].refusals.last(),
        Some(&ActionRefusal::Unreadable)
    );

    // Wrong code, wrong version, wrong token, garbage hello: each refused.
    for (bytes, want) in [
        (
            encode(&hello("ZZZ-ZZZ", Intent::Join { name: "x".into() })).unwrap(),
            Refusal::WrongCode,
        ),
        (
            encode(&ClientMsg::Hello {
                magic: *b"RAMI",
                version: PROTOCOL_VERSION + 1,
                code: CODE.into(),
                intent: Intent::Look,
            })
            .unwrap(),
            Refusal::Version {
                ours: PROTOCOL_VERSION,
                theirs: PROTOCOL_VERSION + 1,
            },
        ),
        (
            encode(&hello(
                CODE,
                Intent::Rejoin {
                    token: rami_protocol::SeatToken([9; 16]),
                },
            ))
            .unwrap(),
            Refusal::UnknownToken,
        ),
        (
            // A phone of version 1 (before typed refusals) is told clearly.
            encode(&ClientMsg::Hello {
                magic: *b"RAMI",
                version: 1,
                code: CODE.into(),
                intent: Intent::Join { name: "old".into() },
            })
            .unwrap(),
            Refusal::Version {
                ours: PROTOCOL_VERSION,
                theirs: 1,
            },
        ),
        (vec![1, 2, 3], Refusal::BadHello),
    ] {
        let conn = ConnId(9_000 + t.now);
        t.now += 1;
        t.host.connect(conn, t.now);
        t.host.receive(conn, &bytes, t.now);
        let outs = t.host.drain();
        assert!(
            outs.iter().any(|o| matches!(o, Output::Send { msg: HostMsg::Refused { reason, .. }, .. } if *reason == want)),
            "{want:?}: {outs:?}"
        );
        assert!(outs.iter().any(|o| matches!(o, Output::Close { .. })));
        assert!(
            !outs
                .iter()
                .any(|o| matches!(o, Output::Send { conn: c, .. } if *c != conn))
        );
        t.host.disconnect(conn, t.now);
    }

    assert_eq!(
        state,
        serde_json::to_string(t.host.game().unwrap()).unwrap()
    );
    // The other phone heard nothing of all this.
    if other != b && me != b {
        assert_eq!(t.phones[b].received.len(), b_received);
    }
    let other_phone = if me == a { b } else { a };
    let _ = other_phone;
    t.play_out(20_000);
    assert!(t.host.is_over());
}

fn id_of(t: &Table, phone: usize) -> ConnId {
    t.phones[phone].conn
}

#[test]
fn lobby_accept_decline_seat_choice_and_start() {
    use rami_protocol::SeatInfo;
    use rami_session::LobbyError;
    let mut t = Table::asking(RuleSet::Manipulation, 4, 21);
    let a = t.join("Ann");
    let b = t.join("Bob");
    let c = t.join("Cid");
    // Nobody is seated until the host says so; each phone knows it waits.
    for p in [a, b, c] {
        assert_eq!(t.phones[p].session.seat(), None);
        assert!(t.phones[p].errors.is_empty());
    }
    let snap = t.host.lobby_snapshot();
    let names: Vec<&str> = snap.pending.iter().map(|r| r.name.as_str()).collect();
    assert_eq!(names, ["Ann", "Bob", "Cid"]);
    assert!(snap.seats.iter().all(|s| *s == SeatInfo::Empty));
    assert!(!snap.can_start);
    assert_eq!(
        t.phones[a].session.lobby().unwrap().waiting,
        ["Ann", "Bob", "Cid"]
    );

    // Seat choice.
    assert_eq!(t.host.accept(id_of(&t, a), Some(2)), Ok(2));
    t.pump();
    assert_eq!(t.phones[a].session.seat(), Some(2));
    assert_eq!(t.host.accept(id_of(&t, b), None), Ok(0));
    t.pump();
    assert_eq!(t.phones[b].session.seat(), Some(0));
    // A taken seat, a seat that does not exist: refused, the request still waits.
    assert_eq!(
        t.host.accept(id_of(&t, c), Some(2)),
        Err(LobbyError::SeatTaken(2))
    );
    assert_eq!(
        t.host.accept(id_of(&t, c), Some(9)),
        Err(LobbyError::NoSuchSeat(9))
    );
    assert_eq!(t.host.lobby_snapshot().pending.len(), 1);
    // Accepting twice is an error, not a second seat.
    assert_eq!(
        t.host.accept(id_of(&t, a), None),
        Err(LobbyError::NoSuchRequest(id_of(&t, a)))
    );

    // Decline: the phone is told why and disconnected.
    assert_eq!(t.host.decline(id_of(&t, c)), Ok(()));
    t.pump();
    assert!(t.phones[c].closed);
    assert!(matches!(
        t.phones[c].errors.as_slice(),
        [ClientError::Refused {
            reason: Refusal::Declined,
            ..
        }]
    ));
    assert_eq!(
        t.host.decline(id_of(&t, c)),
        Err(LobbyError::NoSuchRequest(id_of(&t, c)))
    );
    assert!(t.host.lobby_snapshot().pending.is_empty());

    // Start needs every seat taken.
    assert!(matches!(
        t.host.start(t.now),
        Err(rami_session::StartError::EmptySeat(1))
    ));
    assert!(!t.host.started());
    assert_eq!(t.host.add_computer(1, BotLevel::Best), Ok(()));
    assert_eq!(
        t.host.add_computer(1, BotLevel::Greedy),
        Err(LobbyError::SeatTaken(1))
    );
    // A computer player can be taken away again before the start.
    assert_eq!(t.host.clear_seat(1), Ok(()));
    assert_eq!(t.host.fill_with_computers(BotLevel::Greedy), 2);
    t.pump();
    let snap = t.host.lobby_snapshot();
    assert!(snap.can_start);
    assert_eq!(
        snap.seats[1],
        SeatInfo::Computer {
            level: BotLevel::Greedy
        }
    );
    assert!(
        matches!(&snap.seats[2], SeatInfo::Human { name, connected: true, .. } if name == "Ann")
    );
    // Phones see the seats too.
    assert_eq!(t.phones[a].session.lobby().unwrap().seats, snap.seats);

    // A late request waits; the start turns it away with a clear reason.
    let d = t.join("Dee");
    assert_eq!(t.host.lobby_snapshot().pending.len(), 1);
    assert_eq!(
        t.host.accept(id_of(&t, d), None),
        Err(LobbyError::TableFull)
    );
    t.host.start(t.now).unwrap();
    t.pump();
    assert!(t.phones[d].closed);
    assert!(matches!(
        t.phones[d].errors.as_slice(),
        [ClientError::Refused {
            reason: Refusal::GameStarted,
            ..
        }]
    ));
    assert_eq!(t.host.accept(id_of(&t, d), None), Err(LobbyError::Started));
    assert_eq!(
        t.host.add_computer(1, BotLevel::Greedy),
        Err(LobbyError::Started)
    );
    for p in [a, b] {
        assert!(t.phones[p].session.view().is_some());
    }
    t.play_out(20_000);
    assert!(t.host.is_over());
    for p in [a, b] {
        assert!(t.phones[p].errors.is_empty(), "{:?}", t.phones[p].errors);
    }
}

#[test]
fn lobby_removed_phone_is_told() {
    let mut t = Table::asking(RuleSet::Machiavelli, 2, 5);
    let a = t.join("Ann");
    t.host.accept(id_of(&t, a), Some(1)).unwrap();
    t.pump();
    let waited = t.phones[a]
        .received
        .iter()
        .any(|b| matches!(decode::<HostMsg>(b), Ok(HostMsg::Waiting)));
    assert!(waited, "the phone was told it waits for the host");
    t.host.clear_seat(1).unwrap();
    t.pump();
    assert!(t.phones[a].closed);
    assert!(matches!(
        t.phones[a].errors.as_slice(),
        [ClientError::Refused {
            reason: Refusal::Removed,
            ..
        }]
    ));
    assert_eq!(t.host.free_seats(), 2);
    let _ = ClientEvent::Waiting;
}

#[test]
fn drop_grace_takeover_and_rejoin_same_hand() {
    let mut t = Table::new(RuleSet::Manipulation, 3, 11);
    let a = t.join("A");
    t.join("B");
    t.join("C");
    t.host.start(t.now).unwrap();
    t.pump();
    let seat = t.phones[a].session.seat().unwrap();
    let hand = t.phones[a].session.view().unwrap().hand.clone();
    // A drops.
    let conn = t.phones[a].conn;
    t.host.disconnect(conn, t.now);
    t.phones[a].closed = true;
    t.pump();
    assert!(t.phones[1].session.presence().iter().any(|s| matches!(
        s,
        rami_protocol::SeatInfo::Human {
            connected: false,
            ..
        }
    )));
    // Within the grace period, nobody plays for A.
    t.now += 60_000;
    t.host.tick(t.now);
    t.pump();
    if t.host.game().unwrap().current_player() == Some(seat) {
        assert_eq!(t.host.game().unwrap().view(seat).hand, hand);
    }
    // Rejoin with the token: same seat, same hand.
    let new_conn = ConnId(777);
    t.phones[a].conn = new_conn;
    t.phones[a].closed = false;
    t.host.connect(new_conn, t.now);
    let hello = t.phones[a].session.hello();
    t.send(a, &hello);
    assert_eq!(t.phones[a].session.seat(), Some(seat));
    assert_eq!(
        t.phones[a].session.view().unwrap().hand,
        t.host.game().unwrap().view(seat).hand
    );
    // Now drop past the grace period: a computer player takes over; the game goes on.
    t.host.disconnect(new_conn, t.now);
    t.phones[a].closed = true;
    t.now += 121_000;
    t.host.tick(t.now);
    t.pump();
    assert!(
        t.phones[1]
            .session
            .presence()
            .iter()
            .any(|s| matches!(s, rami_protocol::SeatInfo::Human { covered: true, .. }))
    );
    // Take it back.
    let conn3 = ConnId(778);
    t.phones[a].conn = conn3;
    t.phones[a].closed = false;
    t.host.connect(conn3, t.now);
    let hello = t.phones[a].session.hello();
    t.send(a, &hello);
    assert_eq!(t.phones[a].session.seat(), Some(seat));
    t.play_out(20_000);
    assert!(t.host.is_over());
}

#[test]
fn resume_from_autosave() {
    let mut t = Table::new(RuleSet::Vatikan, 3, 5);
    t.join("A");
    t.join("B");
    t.host.fill_with_computers(BotLevel::Greedy);
    t.host.start(t.now).unwrap();
    t.pump();
    t.play_out(6);
    assert!(!t.host.is_over());
    let save = t.last_save.clone();
    let before: AnyGame = t.host.game().unwrap().clone();
    // The host dies; a new one resumes from the file.
    t.host = HostSession::resume(&save, new_game, bot(), t.now).unwrap();
    assert_eq!(t.host.game().unwrap(), &before);
    for i in 0..t.phones.len() {
        let conn = ConnId(500 + i as u64);
        t.phones[i].conn = conn;
        t.phones[i].closed = false;
        t.host.connect(conn, t.now);
        let hello = t.phones[i].session.hello();
        t.send(i, &hello);
        assert!(t.phones[i].errors.is_empty());
    }
    t.play_out(20_000);
    assert!(t.host.is_over());
    assert!(HostSession::<AnyGame>::resume(b"{}", new_game, bot(), 0).is_err());
}

mod hostile {
    use super::*;
    use proptest::prelude::*;

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(64))]
        /// Arbitrary payloads (and valid hellos followed by arbitrary actions)
        /// never panic the host nor change the game for anyone else.
        #[test]
        fn host_handler_survives_anything(msgs in proptest::collection::vec(proptest::collection::vec(any::<u8>(), 0..40), 1..20)) {
            let mut t = Table::new(RuleSet::Manipulation, 3, 3);
            let a = t.join("A");
            t.host.fill_with_computers(BotLevel::Greedy);
            t.host.start(t.now).unwrap();
            t.pump();
            let before = serde_json::to_string(t.host.game().unwrap()).unwrap();
            let conn = ConnId(4242);
            t.host.connect(conn, t.now);
            for m in &msgs {
                t.host.receive(conn, m, t.now);
                t.host.receive(t.phones[a].conn, m, t.now);
            }
            let outs = t.host.drain();
            // Only the two connections involved are ever written to.
            for o in &outs {
                if let Output::Send { conn: c, .. } = o {
                    prop_assert!(*c == conn || *c == t.phones[a].conn);
                }
            }
            // Random bytes do not make a valid action for the phone's seat often;
            // when the game did change it went through the engine (still valid).
            let after = serde_json::to_string(t.host.game().unwrap()).unwrap();
            let _ = (before, after);
        }
    }
}

/// The fuzz target's body (`rami_session::fuzzing::host_handler`) on a few
/// made-up inputs: raw garbage, a second hello, a forged Done, a Leave.
#[test]
fn fuzz_body_host_handler_seeds() {
    use rami_session::fuzzing::host_handler;
    let act = |sel: u8, a: &Action| {
        let mut v = vec![sel | 0x80];
        v.extend(encode(a).unwrap());
        v
    };
    let join_cards = |n: u8| {
        (n..n + 3)
            .map(|i| Card::try_from(i).unwrap())
            .collect::<Vec<_>>()
    };
    let mut inputs: Vec<Vec<u8>> = vec![
        vec![],
        vec![0, 1, 2, 3, 0xFF, 1, 9, 9],
        act(0, &Action::Draw),
        act(1, &Action::Draw),
        act(2, &Action::Draw),
        act(
            0,
            &Action::Done {
                table: vec![join_cards(0)],
            },
        ),
        act(
            0,
            &Action::Done {
                table: vec![vec![]],
            },
        ),
        act(
            0,
            &Action::Knock {
                table: vec![join_cards(4); 3],
            },
        ),
    ];
    let mut two = act(0, &Action::Draw);
    two.push(0xFF);
    two.extend(
        encode(&ClientMsg::Leave)
            .map(|b| [vec![1], b].concat())
            .unwrap(),
    );
    two.push(0xFF);
    two.extend(act(1, &Action::Pass));
    inputs.push(two);
    let mut hello_again = vec![0];
    hello_again.extend(encode(&hello(CODE, Intent::Look)).unwrap());
    inputs.push(hello_again);
    let mut total = rami_session::fuzzing::HandlerStats::default();
    for i in &inputs {
        let s = host_handler(i, new_game);
        total.accepted += s.accepted;
        total.refused += s.refused;
    }
    // The inputs reach the engine: some actions pass, forged ones are refused.
    assert!(total.accepted >= 1 && total.refused >= 3, "{total:?}");
}

mod fuzz_body {
    use super::*;
    use proptest::prelude::*;

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(48))]
        /// The fuzz target's body on random inputs (what `cargo fuzz` does,
        /// briefly and on stable).
        #[test]
        fn host_handler_random(data in proptest::collection::vec(any::<u8>(), 0..600)) {
            rami_session::fuzzing::host_handler(&data, new_game);
        }
    }
}

#[test]
fn message_sizes() {
    let mut t = Table::new(RuleSet::Manipulation, 5, 4);
    for i in 0..5 {
        t.join(&format!("P{i}"));
    }
    t.host.start(t.now).unwrap();
    t.pump();
    // A whole game: tables grow, hands end (the biggest updates).
    t.play_out(20_000);
    let mut snap = Vec::new();
    let mut upd = Vec::new();
    let mut biggest: Vec<(usize, String)> = Vec::new();
    for p in &t.phones {
        for b in &p.received {
            match decode::<HostMsg>(b).unwrap() {
                HostMsg::Snapshot { .. } => snap.push(b.len()),
                HostMsg::Update { events, patch } => {
                    upd.push(b.len());
                    if b.len() > 150 {
                        // What makes an update big: the bytes each part adds.
                        let full = b.len();
                        let without = |f: &dyn Fn(&mut rami_protocol::ViewPatch)| {
                            let mut q = (*patch).clone();
                            f(&mut q);
                            let m = HostMsg::Update {
                                events: events.clone(),
                                patch: Box::new(q),
                            };
                            full - encode(&m).unwrap().len()
                        };
                        let no_events = full
                            - encode(&HostMsg::Update {
                                events: Vec::new(),
                                patch: patch.clone(),
                            })
                            .unwrap()
                            .len();
                        let what = format!(
                            "events {no_events} B ({}), table {} B, last_hand {} B, outcome {} B, players {} B, hand {} B, hint {} B",
                            events
                                .iter()
                                .map(|e| format!("{e:?}")
                                    .split([' ', '{'])
                                    .next()
                                    .unwrap_or("")
                                    .to_string())
                                .collect::<Vec<_>>()
                                .join(" "),
                            without(&|q| q.table = None),
                            without(&|q| q.last_hand = None),
                            without(&|q| q.outcome = None),
                            without(&|q| q.players = None),
                            without(&|q| q.hand = None),
                            without(&|q| q.hint = None),
                        );
                        biggest.push((b.len(), what));
                    }
                }
                _ => {}
            }
        }
    }
    biggest.sort();
    for (n, what) in biggest.iter().rev().take(3) {
        println!("update of {n} bytes: {what}");
    }
    let over = upd.iter().filter(|&&n| n > 200).count();
    println!("updates over 200 bytes: {over} of {}", upd.len());
    upd.sort();
    snap.sort();
    let p = |v: &[usize], q: f64| v[((v.len() - 1) as f64 * q) as usize];
    println!(
        "snapshot bytes: max {}; update bytes: p50 {} p90 {} max {} (n={})",
        snap.last().unwrap(),
        p(&upd, 0.5),
        p(&upd, 0.9),
        upd.last().unwrap(),
        upd.len()
    );
    assert!(*snap.last().unwrap() <= 1024);
    assert!(p(&upd, 0.5) <= 200);
    // Every update, the ends of hands and of the game included (results and
    // hints travel once, in the events: protocol version 3).
    assert_eq!(over, 0, "updates over 200 bytes");
}

/// The first Rami move timer starts when the host starts the game, not at the
/// first action: `start` gives the game its first time.
#[test]
fn the_first_move_timer_starts_with_the_game() {
    let mut s = settings(RuleSet::Rami, 2, 3);
    s.options.move_time_limit_ms = Some(30_000);
    let mut t = Table::new(RuleSet::Rami, 2, 3);
    t.host = HostSession::new(s, new_game, bot());
    t.join("A");
    t.join("B");
    t.now = 5_000;
    t.host.start(t.now).unwrap();
    t.pump();
    let g = t.host.game().unwrap();
    let first = g.current_player().unwrap();
    assert_eq!(g.next_deadline(), Some(35_000));
    assert_eq!(t.host.next_wakeup(), Some(35_000));
    for p in &t.phones {
        assert_eq!(p.session.view().unwrap().move_deadline, Some(35_000));
    }
    // Nobody moves: at the deadline the host plays for the first player.
    t.now = 35_000;
    t.host.tick(t.now);
    t.pump();
    let g = t.host.game().unwrap();
    assert_ne!(
        g.current_player(),
        Some(first),
        "the timed-out turn was played"
    );
}

/// Paced computer moves: the session plays no computer turn by itself, it says
/// which seat is to move and the driver plays it (after its delay).
#[test]
fn paced_computer_moves_wait_for_the_driver() {
    let mut s = settings(RuleSet::Manipulation, 2, 4);
    s.computer_move_delay_ms = 700;
    let mut t = Table::new(RuleSet::Manipulation, 2, 4);
    t.host = HostSession::new(s, new_game, bot());
    t.host.add_computer(0, BotLevel::Greedy).unwrap();
    t.join("A");
    t.host.start(t.now).unwrap();
    t.pump();
    // Seat 0 (the computer) deals first and has not moved.
    assert_eq!(t.host.computer_to_move(), Some(0));
    let updates = |t: &Table| t.phones[0].received.len();
    let before = updates(&t);
    let view = t.phones[0].session.view().unwrap().clone();
    assert_eq!(view.current, Some(0));
    // An input that is not the computer's move changes nothing for it.
    t.host.tick(t.now + 100);
    t.pump();
    assert_eq!(t.host.computer_to_move(), Some(0));
    assert_eq!(updates(&t), before);
    // The driver plays it, one move at a time, until it is the person's turn.
    let mut moves = 0;
    while t.host.computer_to_move().is_some() {
        assert!(t.host.play_computer(t.now));
        t.pump();
        moves += 1;
        assert!(moves < 200);
    }
    assert!(updates(&t) >= before + moves, "each move is sent at once");
    assert_eq!(t.host.game().unwrap().current_player(), Some(1));
    assert!(!t.host.play_computer(t.now), "no computer is to move");
    // Without a delay nothing is left to the driver.
    let plain = Table::new(RuleSet::Manipulation, 2, 4);
    assert_eq!(plain.host.computer_to_move(), None);
}

/// Computer seats claim a discard the person next to play has not drawn after,
/// at the computers' moment in the Claim window (1.5 s after the discard): the
/// host wakes for it. Seed 26, three seats, the phone in seat 0: it draws and
/// discards its first card (7H); computer 1 plays, computer 2 discards JC,
/// which computer 1 wants.
fn claim_table() -> (Table, u64) {
    let mut s = settings(RuleSet::Rami, 3, 26);
    s.options.claim = true;
    let mut t = Table::new(RuleSet::Rami, 3, 26);
    t.host = HostSession::new(s, new_game, bot());
    t.join("A");
    t.host.fill_with_computers(BotLevel::Greedy);
    t.host.start(t.now).unwrap();
    t.pump();
    let draw = t.phones[0].session.act(Action::Draw);
    t.send(0, &draw);
    let card = t.phones[0].session.view().unwrap().hand[0];
    assert_eq!(card.to_string(), "7H");
    let discard = t.phones[0].session.act(Action::Discard { card });
    t.send(0, &discard);
    let view = t.phones[0].session.view().unwrap();
    assert_eq!(view.current, Some(0), "the computers played at once");
    assert_eq!(
        view.discard.last().map(|c| c.to_string()),
        Some("JC".into())
    );
    let discarded_at = t.now;
    (t, discarded_at)
}

/// The claims of every update the phone of seat 0 received.
fn claims_seen(t: &Table) -> Vec<(usize, String)> {
    t.phones[0]
        .received
        .iter()
        .filter_map(|b| match decode::<HostMsg>(b) {
            Ok(HostMsg::Update { events, .. }) => Some(events),
            _ => None,
        })
        .flatten()
        .filter_map(|e| match e {
            rami_game::Event::Claimed { seat, card } => Some((seat, card.to_string())),
            _ => None,
        })
        .collect()
}

#[test]
fn a_computer_seat_claims_half_way_through_the_claim_window() {
    let (mut t, at) = claim_table();
    assert_eq!(t.host.next_wakeup(), Some(at + 1500), "woken for the claim");
    // J♣s on the table.
    let jacks_down = |t: &Table| {
        let view = t.phones[0].session.view().unwrap();
        let table = view.table.iter().flatten();
        table.filter(|c| c.to_string() == "JC").count()
    };
    let before = jacks_down(&t);
    t.host.tick(at + 1499);
    t.pump();
    assert!(claims_seen(&t).is_empty(), "not before its moment");
    t.now = at + 1500;
    t.host.tick(t.now);
    t.pump();
    assert_eq!(claims_seen(&t), vec![(1, "JC".to_string())]);
    // Computer 1 played its claim turn at once and melded the card.
    assert_eq!(jacks_down(&t), before + 1);
}

#[test]
fn a_person_who_draws_first_keeps_the_card_from_the_computers() {
    let (mut t, at) = claim_table();
    t.now = at + 1000;
    let draw = t.phones[0].session.act(Action::Draw);
    t.send(0, &draw);
    assert_eq!(t.host.next_wakeup(), None, "nothing left to wake for");
    t.now = at + 1500;
    t.host.tick(t.now);
    t.pump();
    assert!(claims_seen(&t).is_empty());
    let view = t.phones[0].session.view().unwrap();
    assert_eq!(view.current, Some(0));
    assert_eq!(view.hand.len(), 14);
}
