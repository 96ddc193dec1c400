#![no_main]
//! Arbitrary bytes, cut at arbitrary points, through the frame decoder and the
//! message decoders: nothing may panic, buffering stays bounded.
use libfuzzer_sys::fuzz_target;
use rami_protocol::{ClientMsg, FrameDecoder, HostMsg, MAX_FRAME, decode};

fuzz_target!(|data: &[u8]| {
    let mut d = FrameDecoder::new();
    for chunk in data.chunks(7) {
        d.push(chunk);
        while let Ok(Some(f)) = d.next_frame() {
            assert!(f.len() <= MAX_FRAME);
            let _ = decode::<ClientMsg>(&f);
            let _ = decode::<HostMsg>(&f);
        }
    }
});
