//! mDNS discovery: the host publishes `_rami._udp.local.` with TXT records
//! (protocol version, table name, rule set, free seats, fingerprint) under an
//! app-specific host name; phones browse and list the tables nearby.
//!
//! TXT records are not authenticated: the fingerprint found here is only a hint
//! until the join code confirms it (see [`crate::tls::code_matches`]).

use mdns_sd::{ServiceDaemon, ServiceEvent, ServiceInfo};
use rami_protocol::{PROTOCOL_VERSION, SERVICE_TYPE};
use std::net::{IpAddr, SocketAddr};
use std::time::{Duration, Instant};

/// A table found nearby.
#[derive(Clone, Debug, PartialEq)]
pub struct FoundTable {
    pub name: String,
    pub rules: String,
    pub free_seats: usize,
    pub version: u16,
    pub fingerprint: Option<[u8; 32]>,
    pub addrs: Vec<SocketAddr>,
}

/// A published table; dropping it withdraws the announcement.
pub struct Publisher {
    daemon: ServiceDaemon,
    fullname: String,
    instance: String,
    host_name: String,
    port: u16,
    base: Vec<(String, String)>,
}

impl Publisher {
    /// Publishes a table. `instance` is unique per host (a hex id).
    pub fn start(
        instance: &str,
        table: &str,
        rules: &str,
        fingerprint: &[u8; 32],
        port: u16,
        free_seats: usize,
    ) -> Result<Publisher, String> {
        let daemon = ServiceDaemon::new().map_err(|e| e.to_string())?;
        let base = vec![
            ("v".to_string(), PROTOCOL_VERSION.to_string()),
            ("name".to_string(), table.chars().take(60).collect()),
            ("rules".to_string(), rules.to_string()),
            ("fp".to_string(), crate::tls::hex(fingerprint)),
        ];
        let mut p = Publisher {
            daemon,
            fullname: String::new(),
            instance: format!("rami-{instance}"),
            host_name: format!("rami-{instance}.local."),
            port,
            base,
        };
        p.update(free_seats)?;
        Ok(p)
    }

    /// Announces a new number of free seats.
    pub fn update(&mut self, free_seats: usize) -> Result<(), String> {
        let mut props = self.base.clone();
        props.push(("free".to_string(), free_seats.to_string()));
        let info = ServiceInfo::new(
            SERVICE_TYPE,
            &self.instance,
            &self.host_name,
            "",
            self.port,
            &props[..],
        )
        .map_err(|e| e.to_string())?
        .enable_addr_auto();
        self.fullname = info.get_fullname().to_string();
        self.daemon.register(info).map_err(|e| e.to_string())
    }
}

impl Drop for Publisher {
    fn drop(&mut self) {
        if let Ok(rx) = self.daemon.unregister(&self.fullname) {
            let _ = rx.recv_timeout(Duration::from_millis(300));
        }
        let _ = self.daemon.shutdown();
    }
}

/// Browses for `within`, returning the tables found (stops early once `enough`
/// says so).
pub fn browse(
    within: Duration,
    enough: impl Fn(&FoundTable) -> bool,
) -> Result<Vec<FoundTable>, String> {
    let daemon = ServiceDaemon::new().map_err(|e| e.to_string())?;
    let rx = daemon.browse(SERVICE_TYPE).map_err(|e| e.to_string())?;
    let deadline = Instant::now() + within;
    let mut found: Vec<FoundTable> = Vec::new();
    while let Some(left) = deadline.checked_duration_since(Instant::now()) {
        let Ok(ev) = rx.recv_timeout(left) else { break };
        if let ServiceEvent::ServiceResolved(info) = ev {
            let prop = |k: &str| info.get_property_val_str(k).map(str::to_string);
            let mut addrs: Vec<SocketAddr> = info
                .get_addresses_v4()
                .into_iter()
                .map(|ip| SocketAddr::new(IpAddr::V4(ip), info.get_port()))
                .collect();
            addrs.sort();
            let t = FoundTable {
                name: prop("name").unwrap_or_default(),
                rules: prop("rules").unwrap_or_default(),
                free_seats: prop("free").and_then(|f| f.parse().ok()).unwrap_or(0),
                version: prop("v").and_then(|f| f.parse().ok()).unwrap_or(0),
                fingerprint: prop("fp").and_then(|f| crate::tls::parse_hex32(&f)),
                addrs,
            };
            let stop = enough(&t);
            found.retain(|f| f.fingerprint != t.fingerprint);
            found.push(t);
            if stop {
                break;
            }
        }
    }
    let _ = daemon.shutdown();
    Ok(found)
}
