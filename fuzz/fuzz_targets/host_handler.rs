#![no_main]
//! Hostile phones against a host with a game running. The body lives in
//! `rami_session::fuzzing` (stable tests run it too); see `docs/FUZZING.md`.
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    rami_session::fuzzing::host_handler(data, rami_engine::new_game);
});
