#![no_main]
//! A hostile phone: arbitrary payloads (the first byte picks the connection)
//! into a host with a game running. Nothing may panic.
use libfuzzer_sys::fuzz_target;
use rami_game::RuleSet;
use rami_session::{ConnId, HostSession, HostSettings};
use std::sync::Arc;

fuzz_target!(|data: &[u8]| {
    let mut s = HostSettings::new("fuzz", RuleSet::Manipulation, 3);
    s.code = "ABC-DEF".into();
    let mut host = HostSession::new(s, rami_engine::new_game, Arc::new(|_| None));
    host.fill_with_computers();
    let _ = host.start(0);
    for (i, msg) in data.split(|b| *b == 0xFF).enumerate() {
        let conn = ConnId(u64::from(msg.first().copied().unwrap_or(0) % 3));
        host.connect(conn, i as u64);
        host.receive(conn, msg, i as u64);
        host.drain();
    }
});
