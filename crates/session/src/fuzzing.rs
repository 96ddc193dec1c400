//! The body of the `host_handler` fuzz target (`fuzz/`), kept here so stable
//! tests run it too (`tests/table.rs`): CI has no nightly, and this way the
//! fuzz target cannot stop compiling unnoticed.

use crate::host::{ConnId, HostBotFn, HostSession, HostSettings, NewGameFn, Output};
use rami_game::{Action, BotLevel, Game, RuleSet};
use rami_protocol::{ClientMsg, HostMsg, encode, hello};
use serde::{Serialize, de::DeserializeOwned};
use std::sync::Arc;

/// The join code of the fuzzed table.
pub const CODE: &str = "ABC-DEF";

/// What one run of [`host_handler`] reached (tests check the body gets past
/// the handshake into the engine).
#[derive(Debug, Default, Clone, Copy, PartialEq, Eq)]
pub struct HandlerStats {
    /// Inputs after which the game changed (and phones were updated).
    pub accepted: usize,
    /// `ActionRefused` answers.
    pub refused: usize,
}

/// Hostile and careless phones against a host with a game running.
///
/// Two phones (connections 1 and 2) are seated and a computer player has the
/// third seat; connection 3 is a stranger that never said hello. `data` is cut
/// into messages at `0xFF` bytes; each message's first byte picks the
/// connection (low 7 bits `% 3`) and, when its top bit is set, makes the rest an `Action`
/// (postcard, as a phone would send it, with the next `seq`) so that made-up
/// Done tables reach the engine; otherwise the rest is sent as raw bytes.
///
/// Panics (the fuzzer's finding) when the host panics, or when:
/// - a message goes to a connection that does not exist;
/// - a snapshot goes to a phone with another seat's view;
/// - the game changes although nobody was sent an update (a refused or
///   ignored message must change nothing);
/// - the number of cards (hands, table, discard pile, stock) changes.
pub fn host_handler<G>(data: &[u8], new_game: NewGameFn<G>) -> HandlerStats
where
    G: Game + Clone + Serialize + DeserializeOwned,
{
    let mut s = HostSettings::new("fuzz", RuleSet::Manipulation, 3);
    s.code = CODE.into();
    // Remind-with-hint runs the exact move finder on every draw; hands that
    // only draw grow past 40 cards here, where one search takes seconds and
    // the fuzzer stalls (docs/FUZZING.md). The handler is what is fuzzed here.
    s.options.must_meld_check = rami_game::MustMeldCheck::TrustThePlayer;
    // Computer players that never choose: the host falls back to drawing or
    // passing for them, which keeps each input cheap.
    let bots: HostBotFn = Arc::new(|_, _| None);
    let mut host = HostSession::new(s, new_game, bots);
    let seats = [(ConnId(1), 0), (ConnId(2), 1)];
    for (conn, _) in seats {
        host.connect(conn, 0);
        let Ok(bytes) = encode(&hello(
            CODE,
            rami_protocol::Intent::Join { name: "p".into() },
        )) else {
            return HandlerStats::default();
        };
        host.receive(conn, &bytes, 0);
    }
    host.fill_with_computers(BotLevel::Greedy);
    if host.start(0).is_err() {
        return HandlerStats::default();
    }
    host.connect(ConnId(3), 0);
    host.drain();
    let cards = |host: &HostSession<G>| -> usize {
        host.game().map_or(0, |g| {
            let v = g.view(0);
            v.players.iter().map(|p| p.cards_in_hand).sum::<usize>()
                + v.table.iter().map(Vec::len).sum::<usize>()
                + v.discard.len()
                + v.stock_count
        })
    };
    let total = cards(&host);
    let mut seq = [0u64; 4];
    let mut stats = HandlerStats::default();
    for (i, msg) in data.split(|b| *b == 0xFF).enumerate() {
        let now = i as u64 * 10;
        let Some((&sel, rest)) = msg.split_first() else {
            continue;
        };
        let c = usize::from((sel & 0x7F) % 3) + 1;
        let conn = ConnId(c as u64);
        let payload = if sel & 0x80 != 0 {
            match rami_protocol::decode::<Action>(rest) {
                Ok(action) => {
                    seq[c] += 1;
                    match encode(&ClientMsg::Act {
                        seq: seq[c],
                        action,
                    }) {
                        Ok(p) => p,
                        Err(_) => continue,
                    }
                }
                Err(_) => rest.to_vec(),
            }
        } else {
            rest.to_vec()
        };
        let before = host.game().and_then(|g| serde_json::to_vec(g).ok());
        host.receive(conn, &payload, now);
        let outs = host.drain();
        let mut told = false;
        for o in &outs {
            match o {
                Output::Send { conn: to, msg } => {
                    assert!((1..=3).contains(&to.0), "message to unknown {to:?}");
                    match msg {
                        HostMsg::Snapshot { view } => {
                            let seat = seats.iter().find(|(c, _)| c == to).map(|(_, s)| *s);
                            assert_eq!(Some(view.seat), seat, "snapshot of another seat");
                            told = true;
                        }
                        HostMsg::Update { .. } => told = true,
                        HostMsg::ActionRefused { .. } => stats.refused += 1,
                        _ => {}
                    }
                }
                Output::Save(_) => told = true,
                _ => {}
            }
        }
        let after = host.game().and_then(|g| serde_json::to_vec(g).ok());
        if !told {
            assert!(before == after, "the game changed without an update");
        } else if before != after {
            stats.accepted += 1;
        }
        assert_eq!(cards(&host), total, "cards appeared or vanished");
    }
    stats
}
