//! Shared by the loopback QUIC tests: a table of real phones over loopback, and
//! the leak check that decodes every byte each phone received and compares it
//! with the host's truth at the moment the host sent it.

#![allow(dead_code)]

use rami_engine::{AnyGame, new_game};
use rami_game::{Card, Event, Game, PlayerView, RuleSet, Seat};
use rami_net::host::{HostOptions, SendTap, start_host};
use rami_net::phone::{PhoneOptions, PhoneReport, run_phone};
use rami_net::tls::HostIdentity;
use rami_protocol::{FrameDecoder, HostMsg, decode};
use rami_session::{BotFn, ConnId, HostBotFn, HostSettings};
use std::collections::{BTreeMap, BTreeSet};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

pub fn host_bots() -> HostBotFn {
    Arc::new(rami_bots::choose_action_or_claim)
}

pub fn bot() -> BotFn {
    Arc::new(|v| rami_bots::choose_action(v, rami_bots::Level::Greedy))
}

pub fn host_opts(rules: RuleSet, seats: usize, computers: usize, seed: u64) -> HostOptions {
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
        tap: None,
    }
}

pub fn phone(
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

/// The host's truth after one batch of outputs: every seat's view (so every
/// hand) and the stock order.
pub struct Truth {
    pub views: Vec<PlayerView>,
    pub stock: Vec<u8>,
}

impl Truth {
    fn of(g: &AnyGame) -> Truth {
        let views = (0..g.num_players()).map(|s| g.view(s)).collect();
        let json = serde_json::to_value(g).unwrap();
        let stock = find_key(&json, "stock")
            .and_then(|v| v.as_array())
            .map(|a| {
                a.iter()
                    .filter_map(|c| c.as_u64().map(|n| n as u8))
                    .collect()
            })
            .unwrap_or_default();
        Truth { views, stock }
    }
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

/// The host's truth for one batch (`None` before the game starts).
type BatchTruth = Option<Arc<Truth>>;

/// One message as the host handed it to a connection.
#[derive(Clone)]
pub struct Record {
    pub conn: ConnId,
    pub batch: u64,
    pub payload: Vec<u8>,
    pub truth: Option<Arc<Truth>>,
}

/// Everything the host sent, in order, with its truth (one per batch).
#[derive(Clone, Default)]
pub struct Recorder(pub Arc<Mutex<Vec<Record>>>);

impl Recorder {
    pub fn tap(&self) -> SendTap {
        let records = self.0.clone();
        // The truth of the current batch (computed once per batch).
        let last: Mutex<Option<(u64, BatchTruth)>> = Mutex::new(None);
        Arc::new(move |sent| {
            let mut last = last.lock().unwrap();
            let truth = match &*last {
                Some((b, t)) if *b == sent.batch => t.clone(),
                _ => {
                    let t = sent
                        .game
                        .map(|g| Arc::new(Truth::of(g.downcast_ref::<AnyGame>().unwrap())));
                    *last = Some((sent.batch, t.clone()));
                    t
                }
            };
            records.lock().unwrap().push(Record {
                conn: sent.conn,
                batch: sent.batch,
                payload: sent.payload.to_vec(),
                truth,
            });
        })
    }
}

/// What the leak check looked at.
#[derive(Debug, Default, Clone, Copy)]
pub struct LeakStats {
    pub frames: usize,
    pub cards_checked: usize,
    pub batches_compared: usize,
}

fn contains(hay: &[u8], needle: &[u8]) -> bool {
    needle.len() <= hay.len() && hay.windows(needle.len()).any(|w| w == needle)
}

/// Cards of events the rules make public (a discard, a meld, a lay-off, a card
/// taken from the discard pile); `out` gets them.
fn public_event_cards(e: &Event, out: &mut Vec<Card>) {
    match e {
        Event::TablePlayed { played, .. } => out.extend(played),
        Event::Melded { groups, .. } => out.extend(groups.iter().flatten()),
        Event::LaidOff { cards, .. } => out.extend(cards),
        Event::TookDiscard { card, .. }
        | Event::Dug { card, .. }
        | Event::JokerExchanged { card, .. }
        | Event::Discarded { card, .. }
        | Event::Claimed { card, .. } => out.push(*card),
        _ => {}
    }
}

/// Every card an event names (hand-end results excluded: hands are public then).
fn event_cards(e: &Event, out: &mut Vec<Card>) {
    match e {
        Event::Reminded { hint, .. } => out.extend(&hint.cards),
        _ => public_event_cards(e, out),
    }
}

fn view_cards(v: &PlayerView, out: &mut Vec<Card>) {
    out.extend(&v.hand);
    out.extend(v.table.iter().flatten());
    out.extend(&v.discard);
    if let Some(h) = &v.hint {
        out.extend(&h.cards);
    }
}

/// The frames in `capture`; no byte may be left over.
pub fn frames_of(capture: &[u8], who: &str) -> Vec<Vec<u8>> {
    let mut d = FrameDecoder::new();
    d.push(capture);
    let mut frames = Vec::new();
    while let Some(f) = d.next_frame().unwrap() {
        frames.push(f);
    }
    assert_eq!(d.buffered(), 0, "{who}: bytes left after the last frame");
    frames
}

/// What the host sent to the connection whose frames `frames` are (a prefix).
pub fn sent_to<'a>(records: &'a [Record], frames: &[Vec<u8>], who: &str) -> Vec<&'a Record> {
    let mut by_conn: BTreeMap<ConnId, Vec<&Record>> = BTreeMap::new();
    for r in records {
        by_conn.entry(r.conn).or_default().push(r);
    }
    by_conn
        .into_values()
        .find(|rs| rs.len() >= frames.len() && rs.iter().zip(frames).all(|(r, f)| &r.payload == f))
        .unwrap_or_else(|| panic!("{who}: received frames the host never sent to one connection"))
}

/// A copy of a played game where the first message to `phone` for which `f`
/// returns a replacement is replaced, both in what the host sent and in what
/// the phone received (to show the leak check catches what it should).
pub fn doctored(
    p: &Played,
    phone: usize,
    mut f: impl FnMut(&HostMsg, &Truth, Seat) -> Option<HostMsg>,
) -> (Vec<Record>, Vec<u8>) {
    let mut frames = frames_of(&p.captures[phone], "doctored");
    let conn = sent_to(&p.records, &frames, "doctored")[0].conn;
    let mut records = p.records.clone();
    let mut seat = None;
    let mut k = 0;
    for r in records.iter_mut().filter(|r| r.conn == conn) {
        let msg: HostMsg = decode(&r.payload).unwrap();
        if let HostMsg::Seated { seat: s, .. } = msg {
            seat = Some(s);
        }
        if let (Some(t), Some(s)) = (&r.truth, seat)
            && let Some(new) = f(&msg, t, s)
        {
            r.payload = rami_protocol::encode(&new).unwrap();
            frames[k] = r.payload.clone();
            break;
        }
        k += 1;
    }
    assert!(k < frames.len(), "nothing to doctor");
    let capture = frames
        .iter()
        .flat_map(|f| rami_protocol::encode_frame(f).unwrap())
        .collect();
    (records, capture)
}

/// Decodes every byte `capture` holds (what one phone received) and checks it
/// against what the host sent (`records`):
/// - the bytes are exactly the frames the host handed to one connection, in
///   order (a prefix: the phone stops reading at GameOver), nothing left over;
/// - every message decodes; snapshots are of the phone's own seat;
/// - after each batch, the view rebuilt from snapshots and patches equals the
///   host's view of that seat at that moment;
/// - no card in a view, a patch or an event (outside hand-end results) is a
///   card that, at that moment, only another seat holds: each card a message
///   names is in the phone's own hand, on the table, in the discard pile, or was
///   made public by an event of this hand (a discard, a meld, a lay-off, a take);
/// - no frame holds the next or the bottom six stock cards in order.
pub fn check_phone(records: &[Record], capture: &[u8], who: &str) -> LeakStats {
    let frames = frames_of(capture, who);
    assert!(frames.len() > 10, "{who}: only {} frames", frames.len());
    let sent = sent_to(records, &frames, who);

    let mut stats = LeakStats {
        frames: frames.len(),
        ..LeakStats::default()
    };
    let mut seat: Option<Seat> = None;
    let mut view: Option<PlayerView> = None;
    // Cards made public this hand (hand number, cards).
    let mut hist: (u32, BTreeSet<Card>) = (0, BTreeSet::new());
    let mut checked: Vec<Card> = Vec::new();
    let mut public: Vec<Card> = Vec::new();
    for (i, (rec, frame)) in sent.iter().zip(&frames).enumerate() {
        let msg: HostMsg =
            decode(frame).unwrap_or_else(|e| panic!("{who}: frame {i} unreadable: {e}"));
        match &msg {
            HostMsg::Seated { seat: s, .. } => seat = Some(*s),
            HostMsg::Snapshot { view: v } => {
                assert_eq!(Some(v.seat), seat, "{who}: snapshot of another seat");
                view_cards(v, &mut checked);
                view = Some((**v).clone());
            }
            HostMsg::Update { events, patch } => {
                let v = view
                    .as_mut()
                    .unwrap_or_else(|| panic!("{who}: update before a snapshot"));
                patch.apply_update(events, v).unwrap();
                checked.extend(patch.hand.iter().flatten());
                if let Some(t) = &patch.table {
                    checked.extend(t.groups.iter().flat_map(|(_, g)| g));
                }
                checked.extend(patch.discard.iter().flatten());
                if let Some(Some(h)) = &patch.hint {
                    checked.extend(&h.cards);
                }
                // Events before the last hand end belong to a hand now over.
                let from = events
                    .iter()
                    .rposition(|e| matches!(e, Event::HandEnded { .. }))
                    .map_or(0, |p| p + 1);
                for e in &events[from..] {
                    event_cards(e, &mut checked);
                    public_event_cards(e, &mut public);
                }
            }
            _ => {}
        }
        let last_of_batch = sent
            .get(i + 1)
            .is_none_or(|n| n.batch != rec.batch || i + 1 == frames.len());
        if !last_of_batch {
            continue;
        }
        let (Some(truth), Some(me)) = (&rec.truth, seat) else {
            checked.clear();
            public.clear();
            continue;
        };
        // No stock order in any frame of the batch.
        if truth.stock.len() >= 6 {
            let top: Vec<u8> = truth.stock.iter().rev().take(6).copied().collect();
            let bottom: Vec<u8> = truth.stock.iter().take(6).copied().collect();
            let mut rtop = top.clone();
            rtop.reverse();
            for r in sent[..=i].iter().rev().take_while(|r| r.batch == rec.batch) {
                for s in [&top, &bottom, &rtop] {
                    assert!(!contains(&r.payload, s), "{who}: stock order leaked");
                }
            }
        }
        let mine = &truth.views[me];
        if let Some(v) = &view {
            assert_eq!(
                v, mine,
                "{who}: view after batch {} differs from the host's",
                rec.batch
            );
            stats.batches_compared += 1;
        }
        if hist.0 != mine.hand_number {
            hist = (mine.hand_number, BTreeSet::new());
        }
        hist.1.extend(mine.hand.iter().copied());
        hist.1.extend(mine.table.iter().flatten().copied());
        hist.1.extend(mine.discard.iter().copied());
        hist.1.extend(public.drain(..));
        let others: BTreeSet<Card> = truth
            .views
            .iter()
            .filter(|v| v.seat != me)
            .flat_map(|v| v.hand.iter().copied())
            .collect();
        for c in checked.drain(..) {
            assert!(
                !others.contains(&c) || hist.1.contains(&c),
                "{who} (seat {me}): batch {} names {c:?}, a card only another seat holds",
                rec.batch
            );
            stats.cards_checked += 1;
        }
    }
    stats
}

/// A whole game over loopback QUIC, as played: what the host sent (with its
/// truth) and every byte each phone received.
pub struct Played {
    pub records: Vec<Record>,
    pub captures: Vec<Vec<u8>>,
    pub took: Duration,
}

/// Plays a whole game over loopback QUIC: `phones` phones (computer players on
/// the phones) and `computers` computer seats on the host. Checks that every
/// phone sees the same end and that the seats are distinct.
pub async fn play(rules: RuleSet, phones: usize, computers: usize, seed: u64) -> Played {
    let started = Instant::now();
    let rec = Recorder::default();
    let mut opts = host_opts(rules, phones + computers, computers, seed);
    opts.tap = Some(rec.tap());
    let host = start_host::<AnyGame>(opts, new_game, host_bots())
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
    let mut reports: Vec<PhoneReport> = Vec::new();
    for t in tasks {
        let r = tokio::time::timeout(Duration::from_secs(240), t)
            .await
            .unwrap()
            .unwrap()
            .unwrap();
        let v = r.view.as_ref().unwrap();
        assert!(
            v.outcome.is_some(),
            "{rules}: game not over for seat {:?}",
            r.seat
        );
        seats.push(r.seat.unwrap());
        reports.push(r);
    }
    seats.sort();
    seats.dedup();
    assert_eq!(seats.len(), phones);
    // Everyone saw the same end.
    let outcome = reports[0].view.as_ref().unwrap().outcome.clone();
    for r in &reports {
        assert_eq!(r.view.as_ref().unwrap().outcome, outcome);
    }
    tokio::time::timeout(Duration::from_secs(10), host.wait())
        .await
        .unwrap()
        .unwrap();
    let records = std::mem::take(&mut *rec.0.lock().unwrap());
    Played {
        records,
        captures: captures.iter().map(|c| c.lock().unwrap().clone()).collect(),
        took: started.elapsed(),
    }
}

/// [`play`], then [`check_phone`] on every byte each phone received.
pub async fn table(rules: RuleSet, phones: usize, computers: usize, seed: u64) -> Duration {
    let p = play(rules, phones, computers, seed).await;
    let mut total = LeakStats::default();
    for (i, bytes) in p.captures.iter().enumerate() {
        let s = check_phone(&p.records, bytes, &format!("{rules} phone {i}"));
        total.frames += s.frames;
        total.cards_checked += s.cards_checked;
        total.batches_compared += s.batches_compared;
    }
    assert!(total.cards_checked > 100, "{rules}: {total:?}");
    println!(
        "{rules}: {phones} phones + {computers} computers, {total:?}, {:?}",
        p.took
    );
    p.took
}
