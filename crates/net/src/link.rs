//! The transport interface and its implementations.

use rami_protocol::{FrameDecoder, MAX_FRAME, encode_frame};
use std::future::Future;

/// Why a link stopped.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum LinkError {
    #[error("link dropped: {0}")]
    Dropped(String),
    #[error("the peer broke the framing: {0}")]
    Framing(String),
    #[error("message of {len} bytes is larger than this link's {max}")]
    TooLarge { len: usize, max: usize },
}

/// The sending half of a link.
pub trait LinkTx: Send + 'static {
    /// The largest message payload this link carries.
    fn max_payload(&self) -> usize;
    /// Sends one message payload (the link frames it).
    fn send(&mut self, payload: Vec<u8>) -> impl Future<Output = Result<(), LinkError>> + Send;
    /// Sends what is queued, then closes the link.
    fn close(&mut self) -> impl Future<Output = ()> + Send;
}

/// The receiving half of a link.
pub trait LinkRx: Send + 'static {
    /// The next message payload; an error when the link dropped (for good).
    fn recv(&mut self) -> impl Future<Output = Result<Vec<u8>, LinkError>> + Send;
}

/// A link between a host and one phone.
pub trait Link {
    type Tx: LinkTx;
    type Rx: LinkRx;
    fn split(self) -> (Self::Tx, Self::Rx);
}

/// One bidirectional QUIC stream of a connection, carrying length-delimited frames.
pub struct QuicLink {
    pub conn: quinn::Connection,
    pub send: quinn::SendStream,
    pub recv: quinn::RecvStream,
}

pub struct QuicTx {
    conn: quinn::Connection,
    send: quinn::SendStream,
}

pub struct QuicRx {
    recv: quinn::RecvStream,
    decoder: FrameDecoder,
    buf: Vec<u8>,
    /// Every byte received, when capturing (leak tests).
    pub capture: Option<std::sync::Arc<std::sync::Mutex<Vec<u8>>>>,
}

impl Link for QuicLink {
    type Tx = QuicTx;
    type Rx = QuicRx;
    fn split(self) -> (QuicTx, QuicRx) {
        (
            QuicTx {
                conn: self.conn,
                send: self.send,
            },
            QuicRx {
                recv: self.recv,
                decoder: FrameDecoder::new(),
                buf: vec![0; 4096],
                capture: None,
            },
        )
    }
}

impl LinkTx for QuicTx {
    fn max_payload(&self) -> usize {
        MAX_FRAME
    }
    async fn send(&mut self, payload: Vec<u8>) -> Result<(), LinkError> {
        let frame = encode_frame(&payload).map_err(|e| LinkError::TooLarge {
            len: payload.len(),
            max: match e {
                rami_protocol::FrameError::TooLarge { max, .. } => max,
                _ => MAX_FRAME,
            },
        })?;
        self.send
            .write_all(&frame)
            .await
            .map_err(|e| LinkError::Dropped(e.to_string()))
    }
    async fn close(&mut self) {
        let _ = self.send.finish();
        // Give the peer a moment to read what is queued, then close.
        let _ =
            tokio::time::timeout(std::time::Duration::from_millis(500), self.send.stopped()).await;
        self.conn.close(0u32.into(), b"bye");
    }
}

impl LinkRx for QuicRx {
    async fn recv(&mut self) -> Result<Vec<u8>, LinkError> {
        loop {
            match self.decoder.next_frame() {
                Ok(Some(f)) => return Ok(f),
                Ok(None) => {}
                Err(e) => return Err(LinkError::Framing(e.to_string())),
            }
            match self.recv.read(&mut self.buf).await {
                Ok(Some(n)) => {
                    if let Some(c) = &self.capture
                        && let Ok(mut c) = c.lock()
                    {
                        c.extend_from_slice(&self.buf[..n]);
                    }
                    self.decoder.push(&self.buf[..n]);
                }
                Ok(None) => return Err(LinkError::Dropped("stream finished".into())),
                Err(e) => return Err(LinkError::Dropped(e.to_string())),
            }
        }
    }
}

impl QuicRx {
    /// Records every byte received into `into`.
    pub fn capture_into(&mut self, into: std::sync::Arc<std::sync::Mutex<Vec<u8>>>) {
        self.capture = Some(into);
    }
}

/// An in-memory link with a chosen maximum payload (tests, and the model of a
/// Bluetooth LE link's limits).
pub struct MemLink {
    tx: tokio::sync::mpsc::Sender<Vec<u8>>,
    rx: tokio::sync::mpsc::Receiver<Vec<u8>>,
    max: usize,
}

pub struct MemTx {
    tx: Option<tokio::sync::mpsc::Sender<Vec<u8>>>,
    max: usize,
}
pub struct MemRx(tokio::sync::mpsc::Receiver<Vec<u8>>);

impl MemLink {
    /// Two connected ends.
    pub fn pair(max: usize, queue: usize) -> (MemLink, MemLink) {
        let (a_tx, b_rx) = tokio::sync::mpsc::channel(queue);
        let (b_tx, a_rx) = tokio::sync::mpsc::channel(queue);
        (
            MemLink {
                tx: a_tx,
                rx: a_rx,
                max,
            },
            MemLink {
                tx: b_tx,
                rx: b_rx,
                max,
            },
        )
    }
}

impl Link for MemLink {
    type Tx = MemTx;
    type Rx = MemRx;
    fn split(self) -> (MemTx, MemRx) {
        (
            MemTx {
                tx: Some(self.tx),
                max: self.max,
            },
            MemRx(self.rx),
        )
    }
}

impl LinkTx for MemTx {
    fn max_payload(&self) -> usize {
        self.max
    }
    async fn send(&mut self, payload: Vec<u8>) -> Result<(), LinkError> {
        if payload.len() > self.max {
            return Err(LinkError::TooLarge {
                len: payload.len(),
                max: self.max,
            });
        }
        match &self.tx {
            Some(tx) => tx
                .send(payload)
                .await
                .map_err(|_| LinkError::Dropped("peer gone".into())),
            None => Err(LinkError::Dropped("closed".into())),
        }
    }
    async fn close(&mut self) {
        self.tx = None;
    }
}

impl LinkRx for MemRx {
    async fn recv(&mut self) -> Result<Vec<u8>, LinkError> {
        self.0
            .recv()
            .await
            .ok_or_else(|| LinkError::Dropped("peer gone".into()))
    }
}
