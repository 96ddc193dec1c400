//! Certificates, pinning and join codes. rustls runs on the ring provider only.

use quinn::crypto::rustls::{QuicClientConfig, QuicServerConfig};
use rustls::client::danger::{HandshakeSignatureValid, ServerCertVerified, ServerCertVerifier};
use rustls::crypto::CryptoProvider;
use rustls::pki_types::{CertificateDer, PrivateKeyDer, PrivatePkcs8KeyDer, ServerName, UnixTime};
use rustls::{DigitallySignedStruct, SignatureScheme};
use serde::{Deserialize, Serialize};
use std::sync::Arc;
use std::time::Duration;

/// Keep-alive: short drops go unnoticed.
pub const KEEP_ALIVE: Duration = Duration::from_secs(2);
/// A connection silent this long is dropped (the phone then rejoins with its token).
pub const IDLE_TIMEOUT: Duration = Duration::from_secs(10);

/// Anything that can go wrong setting up TLS.
#[derive(Debug, thiserror::Error)]
pub enum TlsError {
    #[error("certificate: {0}")]
    Cert(String),
    #[error("tls: {0}")]
    Rustls(#[from] rustls::Error),
}

fn provider() -> Arc<CryptoProvider> {
    Arc::new(rustls::crypto::ring::default_provider())
}

/// SHA-256 of a DER certificate.
pub fn fingerprint(cert_der: &[u8]) -> [u8; 32] {
    let d = ring::digest::digest(&ring::digest::SHA256, cert_der);
    let mut out = [0u8; 32];
    out.copy_from_slice(d.as_ref());
    out
}

pub fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

pub fn parse_hex32(s: &str) -> Option<[u8; 32]> {
    let s = s.trim();
    if s.len() != 64 || !s.is_ascii() {
        return None;
    }
    let mut out = [0u8; 32];
    for (i, o) in out.iter_mut().enumerate() {
        *o = u8::from_str_radix(s.get(2 * i..2 * i + 2)?, 16).ok()?;
    }
    Some(out)
}

const ALPHABET: &[u8; 32] = b"ABCDEFGHJKLMNPQRSTUVWXYZ23456789";

/// The first half of a join code: three characters from the fingerprint, so a
/// phone can check the fingerprint it discovered before it connects.
pub fn code_check(fp: &[u8; 32]) -> String {
    let d = ring::digest::digest(&ring::digest::SHA256, fp);
    d.as_ref()[..3]
        .iter()
        .map(|b| ALPHABET[(*b as usize) % 32] as char)
        .collect()
}

/// Whether `code` (as typed) belongs to the certificate `fp`.
pub fn code_matches(code: &str, fp: &[u8; 32]) -> bool {
    let c = rami_protocol::normalize_code(code);
    c.len() == 6 && c[..3] == code_check(fp)
}

/// What the host proves in its Welcome.
pub fn proof(code: &str, fp: &[u8; 32]) -> [u8; 32] {
    fingerprint(&rami_protocol::proof_input(code, fp))
}

/// A host's certificate, key and join code. Kept beside the autosave so a
/// resumed host has the same fingerprint and code, and phones rejoin.
#[derive(Clone, Serialize, Deserialize)]
pub struct HostIdentity {
    pub cert_der: Vec<u8>,
    pub key_der: Vec<u8>,
    pub code: String,
}

impl HostIdentity {
    /// A new self-signed certificate and a new join code: three characters that
    /// check the fingerprint, three random ones only the host's screen shows.
    pub fn generate() -> Result<Self, TlsError> {
        let ck = rcgen::generate_simple_self_signed(vec!["rami.local".to_string()])
            .map_err(|e| TlsError::Cert(e.to_string()))?;
        let cert_der = ck.cert.der().to_vec();
        let key_der = ck.signing_key.serialize_der();
        let fp = fingerprint(&cert_der);
        let mut secret = [0u8; 3];
        ring::rand::SecureRandom::fill(&ring::rand::SystemRandom::new(), &mut secret)
            .map_err(|_| TlsError::Cert("no random numbers".into()))?;
        let tail: String = secret
            .iter()
            .map(|b| ALPHABET[(*b as usize) % 32] as char)
            .collect();
        let code = format!("{}-{}", code_check(&fp), tail);
        Ok(HostIdentity {
            cert_der,
            key_der,
            code,
        })
    }

    pub fn fingerprint(&self) -> [u8; 32] {
        fingerprint(&self.cert_der)
    }

    pub fn server_config(&self) -> Result<quinn::ServerConfig, TlsError> {
        let mut tls = rustls::ServerConfig::builder_with_provider(provider())
            .with_protocol_versions(&[&rustls::version::TLS13])?
            .with_no_client_auth()
            .with_single_cert(
                vec![CertificateDer::from(self.cert_der.clone())],
                PrivateKeyDer::Pkcs8(PrivatePkcs8KeyDer::from(self.key_der.clone())),
            )?;
        tls.alpn_protocols = vec![rami_protocol::ALPN.to_vec()];
        let crypto = QuicServerConfig::try_from(tls).map_err(|e| TlsError::Cert(e.to_string()))?;
        let mut cfg = quinn::ServerConfig::with_crypto(Arc::new(crypto));
        cfg.transport_config(transport());
        Ok(cfg)
    }
}

fn transport() -> Arc<quinn::TransportConfig> {
    let mut t = quinn::TransportConfig::default();
    t.keep_alive_interval(Some(KEEP_ALIVE));
    t.max_idle_timeout(quinn::IdleTimeout::try_from(IDLE_TIMEOUT).ok());
    Arc::new(t)
}

/// Accepts exactly the certificate whose SHA-256 is pinned, and still checks the
/// TLS 1.3 handshake signature (which proves the host holds the key).
#[derive(Debug)]
struct Pinned {
    fp: [u8; 32],
    provider: Arc<CryptoProvider>,
}

impl ServerCertVerifier for Pinned {
    fn verify_server_cert(
        &self,
        end_entity: &CertificateDer<'_>,
        _intermediates: &[CertificateDer<'_>],
        _server_name: &ServerName<'_>,
        _ocsp: &[u8],
        _now: UnixTime,
    ) -> Result<ServerCertVerified, rustls::Error> {
        if fingerprint(end_entity) == self.fp {
            Ok(ServerCertVerified::assertion())
        } else {
            Err(rustls::Error::General(
                "the host's certificate does not match the pinned fingerprint".into(),
            ))
        }
    }
    fn verify_tls12_signature(
        &self,
        _message: &[u8],
        _cert: &CertificateDer<'_>,
        _dss: &DigitallySignedStruct,
    ) -> Result<HandshakeSignatureValid, rustls::Error> {
        Err(rustls::Error::General("TLS 1.2 is not used".into()))
    }
    fn verify_tls13_signature(
        &self,
        message: &[u8],
        cert: &CertificateDer<'_>,
        dss: &DigitallySignedStruct,
    ) -> Result<HandshakeSignatureValid, rustls::Error> {
        rustls::crypto::verify_tls13_signature(
            message,
            cert,
            dss,
            &self.provider.signature_verification_algorithms,
        )
    }
    fn supported_verify_schemes(&self) -> Vec<SignatureScheme> {
        self.provider
            .signature_verification_algorithms
            .supported_schemes()
    }
}

/// A client configuration that trusts only the certificate with fingerprint `fp`.
pub fn client_config(fp: [u8; 32]) -> Result<quinn::ClientConfig, TlsError> {
    let provider = provider();
    let mut tls = rustls::ClientConfig::builder_with_provider(provider.clone())
        .with_protocol_versions(&[&rustls::version::TLS13])?
        .dangerous()
        .with_custom_certificate_verifier(Arc::new(Pinned { fp, provider }))
        .with_no_client_auth();
    tls.alpn_protocols = vec![rami_protocol::ALPN.to_vec()];
    let crypto = QuicClientConfig::try_from(tls).map_err(|e| TlsError::Cert(e.to_string()))?;
    let mut cfg = quinn::ClientConfig::new(Arc::new(crypto));
    cfg.transport_config(transport());
    Ok(cfg)
}
