//! Length-delimited frames: a 4-byte little-endian payload length, then the
//! payload. A frame longer than [`MAX_FRAME`] is an error, found from its header
//! alone, before any of its payload is buffered.

/// The largest payload a frame may carry. A full view is under 1 KiB; this leaves
/// room for the largest tables and lobbies while bounding what a peer can make us
/// buffer.
pub const MAX_FRAME: usize = 16 * 1024;

/// Bytes of the frame header.
pub const HEADER: usize = 4;

/// A stream that does not hold valid frames. The connection should close.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum FrameError {
    #[error("frame of {len} bytes is larger than the maximum of {max}")]
    TooLarge { len: usize, max: usize },
    #[error("empty frame")]
    Empty,
}

/// Puts `payload` in a frame.
pub fn encode_frame(payload: &[u8]) -> Result<Vec<u8>, FrameError> {
    if payload.is_empty() {
        return Err(FrameError::Empty);
    }
    if payload.len() > MAX_FRAME {
        return Err(FrameError::TooLarge {
            len: payload.len(),
            max: MAX_FRAME,
        });
    }
    let mut out = Vec::with_capacity(HEADER + payload.len());
    out.extend_from_slice(&(payload.len() as u32).to_le_bytes());
    out.extend_from_slice(payload);
    Ok(out)
}

/// Cuts a byte stream into frames. Feed it bytes as they come with
/// [`FrameDecoder::push`], then take whole frames with [`FrameDecoder::next_frame`].
/// After an error the stream is unusable: every later call returns the error.
#[derive(Debug, Default)]
pub struct FrameDecoder {
    buf: Vec<u8>,
    failed: Option<FrameError>,
}

impl FrameDecoder {
    pub fn new() -> Self {
        Self::default()
    }

    /// Adds bytes read from the stream.
    pub fn push(&mut self, bytes: &[u8]) {
        if self.failed.is_none() {
            self.buf.extend_from_slice(bytes);
        }
    }

    /// The next whole frame's payload, `Ok(None)` when more bytes are needed.
    pub fn next_frame(&mut self) -> Result<Option<Vec<u8>>, FrameError> {
        if let Some(e) = &self.failed {
            return Err(e.clone());
        }
        let Some(header) = self.buf.get(..HEADER) else {
            return Ok(None);
        };
        let mut len_bytes = [0u8; HEADER];
        len_bytes.copy_from_slice(header);
        let len = u32::from_le_bytes(len_bytes) as usize;
        let err = if len == 0 {
            Some(FrameError::Empty)
        } else if len > MAX_FRAME {
            Some(FrameError::TooLarge {
                len,
                max: MAX_FRAME,
            })
        } else {
            None
        };
        if let Some(e) = err {
            self.buf.clear();
            self.failed = Some(e.clone());
            return Err(e);
        }
        if self.buf.len() < HEADER + len {
            return Ok(None);
        }
        let payload = self.buf[HEADER..HEADER + len].to_vec();
        self.buf.drain(..HEADER + len);
        Ok(Some(payload))
    }

    /// Bytes buffered but not yet returned as a frame.
    pub fn buffered(&self) -> usize {
        self.buf.len()
    }
}
