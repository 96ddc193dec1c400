//! Nearby play over the network (issue 5): the tokio driver around the sans-IO
//! sessions of `rami-session`.
//!
//! - [`link`]: the transport interface (a link that sends and receives framed
//!   messages, knows its maximum payload and reports drops), with the QUIC link
//!   and an in-memory link; Bluetooth LE will be another implementation.
//! - [`tls`]: per-host self-signed certificates (rcgen), certificate pinning by
//!   SHA-256 fingerprint, join codes; rustls on the ring provider only.
//! - [`discovery`]: mDNS (`_rami._udp.local.`) publishing and browsing.
//! - [`host`], [`phone`]: the drivers that run a table and a phone.
//! - [`cli`]: `rami host` and `rami join`.

pub mod cli;
pub mod discovery;
pub mod host;
pub mod link;
pub mod phone;
pub mod tls;

/// Milliseconds since the Unix epoch: the `now` given to sessions (saved
/// deadlines stay meaningful across a host restart).
pub fn now_ms() -> u64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map(|d| d.as_millis() as u64)
        .unwrap_or(0)
}
