//! The body of the `frame_decoder` fuzz target (`fuzz/`), kept here so stable
//! tests run it too (`src/tests.rs`): CI has no nightly, and this way the fuzz
//! target cannot stop compiling unnoticed.

use crate::frame::HEADER;
use crate::{ClientMsg, FrameDecoder, HostMsg, MAX_FRAME, decode, encode};

/// A byte stream from a peer, arriving in pieces, through the frame decoder and
/// both message decoders. The first byte sets the piece size (1-64 bytes); the
/// rest is the stream.
///
/// Panics (the fuzzer's finding) when anything panics, or when:
/// - a frame is empty or larger than [`MAX_FRAME`];
/// - the decoder buffers more than one frame and one piece;
/// - a decoder that failed once returns anything but the error again;
/// - a decoded message does not survive encoding and decoding unchanged.
pub fn frame_decoder(data: &[u8]) {
    let Some((&first, stream)) = data.split_first() else {
        return;
    };
    let piece = usize::from(first % 64) + 1;
    let mut d = FrameDecoder::new();
    let mut failed = None;
    for chunk in stream.chunks(piece) {
        d.push(chunk);
        loop {
            match d.next_frame() {
                Ok(Some(f)) => {
                    assert!(failed.is_none(), "a frame after an error");
                    assert!(
                        !f.is_empty() && f.len() <= MAX_FRAME,
                        "frame of {}",
                        f.len()
                    );
                    if let Ok(m) = decode::<ClientMsg>(&f) {
                        roundtrip(&m);
                    }
                    if let Ok(m) = decode::<HostMsg>(&f) {
                        roundtrip(&m);
                    }
                }
                Ok(None) => break,
                Err(e) => {
                    if let Some(old) = &failed {
                        assert_eq!(old, &e, "the error changed");
                    }
                    failed = Some(e);
                    break;
                }
            }
        }
        assert!(
            d.buffered() <= MAX_FRAME + HEADER + piece,
            "buffered {}",
            d.buffered()
        );
    }
}

fn roundtrip<T>(m: &T)
where
    T: serde::Serialize + serde::de::DeserializeOwned + PartialEq + std::fmt::Debug,
{
    // A message read from at most MAX_FRAME bytes re-encodes canonically, never
    // larger, so encoding cannot fail.
    let bytes = encode(m).expect("a decoded message encodes");
    let back: T = decode(&bytes).expect("an encoded message decodes");
    assert_eq!(&back, m, "message changed in a round trip");
}
