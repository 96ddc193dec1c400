#![no_main]
//! A peer's byte stream, cut in pieces, through the frame decoder and both
//! message decoders. The body lives in `rami_protocol::fuzzing` (stable tests
//! run it too); see `docs/FUZZING.md`.
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    rami_protocol::fuzzing::frame_decoder(data);
});
