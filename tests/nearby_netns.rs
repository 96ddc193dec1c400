//! Nearby play across processes and Linux network namespaces joined by a bridge:
//! phones find the host by mDNS only. Needs root and `ip` (iproute2); skips with
//! a printed reason otherwise. `RAMI_BIN` overrides the binary under test.

use std::io::{BufRead, BufReader};
use std::process::{Child, Command, Stdio};
use std::sync::mpsc;
use std::time::{Duration, Instant};

fn bin() -> String {
    std::env::var("RAMI_BIN").unwrap_or_else(|_| env!("CARGO_BIN_EXE_rami").to_string())
}

fn ip(args: &[&str]) -> bool {
    Command::new("ip")
        .args(args)
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .status()
        .is_ok_and(|s| s.success())
}

fn can_run() -> Result<(), String> {
    let uid = Command::new("id")
        .arg("-u")
        .output()
        .map_err(|e| e.to_string())?;
    if String::from_utf8_lossy(&uid.stdout).trim() != "0" {
        return Err("not root".into());
    }
    if !ip(&["-V"]) {
        return Err("`ip` (iproute2) is missing".into());
    }
    let help = Command::new(bin())
        .args(["host", "--help"])
        .output()
        .map_err(|e| e.to_string())?;
    if !help.status.success() {
        return Err("this `rami` has no `host` subcommand yet".into());
    }
    Ok(())
}

/// Namespaces `<p>sw` (a bridge) and `<p>0..<p>n` (host and phones, 10.77.0.(i+1)).
struct Net {
    prefix: String,
    nodes: usize,
    children: Vec<Child>,
}

impl Net {
    fn new(prefix: &str, nodes: usize) -> Net {
        let net = Net {
            prefix: prefix.to_string(),
            nodes,
            children: Vec::new(),
        };
        net.cleanup();
        let sw = format!("{prefix}sw");
        assert!(ip(&["netns", "add", &sw]));
        assert!(ip(&["-n", &sw, "link", "add", "br0", "type", "bridge"]));
        assert!(ip(&["-n", &sw, "link", "set", "br0", "up"]));
        for i in 0..nodes {
            let ns = net.ns(i);
            let (a, b) = (format!("{prefix}a{i}"), format!("{prefix}b{i}"));
            assert!(ip(&["netns", "add", &ns]));
            assert!(ip(&["link", "add", &a, "type", "veth", "peer", "name", &b]));
            assert!(ip(&["link", "set", &a, "netns", &ns]));
            assert!(ip(&["link", "set", &b, "netns", &sw]));
            assert!(ip(&["-n", &sw, "link", "set", &b, "master", "br0"]));
            assert!(ip(&["-n", &sw, "link", "set", &b, "up"]));
            assert!(ip(&["-n", &ns, "link", "set", "lo", "up"]));
            let addr = format!("10.77.0.{}/24", i + 1);
            assert!(ip(&["-n", &ns, "addr", "add", &addr, "dev", &a]));
            assert!(ip(&["-n", &ns, "link", "set", &a, "up", "multicast", "on"]));
            assert!(ip(&["-n", &ns, "route", "add", "224.0.0.0/4", "dev", &a]));
        }
        net
    }

    fn ns(&self, i: usize) -> String {
        format!("{}{i}", self.prefix)
    }

    fn dev(&self, i: usize) -> String {
        format!("{}a{i}", self.prefix)
    }

    fn spawn(&mut self, node: usize, args: &[&str]) -> (usize, mpsc::Receiver<String>) {
        let mut child = Command::new("ip")
            .args(["netns", "exec", &self.ns(node), &bin()])
            .args(args)
            .stdout(Stdio::piped())
            .stderr(Stdio::inherit())
            .spawn()
            .expect("spawn");
        let (tx, rx) = mpsc::channel();
        if let Some(out) = child.stdout.take() {
            std::thread::spawn(move || {
                for line in BufReader::new(out).lines().map_while(Result::ok) {
                    println!("[node {node}] {line}");
                    let _ = tx.send(line);
                }
            });
        }
        self.children.push(child);
        (self.children.len() - 1, rx)
    }

    fn wait(&mut self, child: usize, within: Duration) -> Option<i32> {
        let end = Instant::now() + within;
        while Instant::now() < end {
            if let Ok(Some(s)) = self.children[child].try_wait() {
                return Some(s.code().unwrap_or(-1));
            }
            std::thread::sleep(Duration::from_millis(100));
        }
        None
    }

    fn running(&mut self, child: usize) -> bool {
        matches!(self.children[child].try_wait(), Ok(None))
    }

    fn cleanup(&self) {
        for i in 0..self.nodes {
            ip(&["netns", "del", &self.ns(i)]);
        }
        ip(&["netns", "del", &format!("{}sw", self.prefix)]);
    }
}

impl Drop for Net {
    fn drop(&mut self) {
        for c in &mut self.children {
            let _ = c.kill();
            let _ = c.wait();
        }
        self.cleanup();
    }
}

fn read_until(rx: &mpsc::Receiver<String>, prefix: &str, within: Duration) -> Option<String> {
    let end = Instant::now() + within;
    while let Some(left) = end.checked_duration_since(Instant::now()) {
        match rx.recv_timeout(left) {
            Ok(l) if l.starts_with(prefix) => return Some(l[prefix.len()..].trim().to_string()),
            Ok(_) => {}
            Err(_) => return None,
        }
    }
    None
}

/// The `reconnects N` figure of a phone's closing `game over:` line.
fn reconnects(rx: &mpsc::Receiver<String>) -> Option<u32> {
    let line = read_until(rx, "game over:", Duration::from_secs(5))?;
    line.rsplit("reconnects ").next()?.trim().parse().ok()
}

/// Phones play at 40 ms a move: games last ~30 s, long enough for the drop and
/// the kill to land mid-game (both tests assert that), short enough for CI.
fn join_args<'a>(code: &'a str, name: &'a str) -> Vec<&'a str> {
    vec![
        "join",
        "--bot",
        "greedy",
        "--code",
        code,
        "--name",
        name,
        "--delay-ms",
        "40",
        "--discover",
        "30",
    ]
}

#[test]
fn netns_game_with_link_drop() {
    if let Err(why) = can_run() {
        println!("skipped: {why}");
        return;
    }
    let mut net = Net::new("rnA", 3);
    let (host, hrx) = net.spawn(
        0,
        &[
            "host",
            "--rules",
            "manipulation",
            "--players",
            "3",
            "--bots",
            "1",
            "--headless",
            "--name",
            "Netns",
            "--seed",
            "5",
        ],
    );
    let code = read_until(&hrx, "join code:", Duration::from_secs(20)).expect("no join code");
    let mut phones = Vec::new();
    for i in 1..=2 {
        let name = format!("P{i}");
        phones.push(net.spawn(i, &join_args(&code, &name)));
    }
    // Mid-game, phone 1 loses its link for longer than the idle timeout.
    std::thread::sleep(Duration::from_secs(4));
    assert!(net.running(host), "the game ended before the link drop");
    let (ns, dev) = (net.ns(1), net.dev(1));
    assert!(ip(&["-n", &ns, "link", "set", &dev, "down"]));
    std::thread::sleep(Duration::from_secs(12));
    assert!(ip(&["-n", &ns, "link", "set", &dev, "up"]));
    ip(&["-n", &ns, "route", "replace", "224.0.0.0/4", "dev", &dev]);
    for (p, _) in &phones {
        assert_eq!(
            net.wait(*p, Duration::from_secs(300)),
            Some(0),
            "a phone did not finish the game"
        );
    }
    // The phone whose link went down finished the game by rejoining its seat.
    assert!(reconnects(&phones[0].1).is_some_and(|n| n >= 1));
    assert_eq!(
        net.wait(host, Duration::from_secs(30)),
        Some(0),
        "host did not end"
    );
}

#[test]
fn netns_host_killed_and_resumed() {
    if let Err(why) = can_run() {
        println!("skipped: {why}");
        return;
    }
    let dir = std::env::temp_dir().join(format!("rami-resume-{}", std::process::id()));
    let _ = std::fs::create_dir_all(&dir);
    let save = dir.join("table.save");
    let save_s = save.to_string_lossy().to_string();
    let mut net = Net::new("rnB", 3);
    let (host, hrx) = net.spawn(
        0,
        &[
            "host",
            "--rules",
            "carousel",
            "--players",
            "3",
            "--bots",
            "1",
            "--headless",
            "--port",
            "7711",
            "--autosave",
            &save_s,
            "--seed",
            "9",
        ],
    );
    let code = read_until(&hrx, "join code:", Duration::from_secs(20)).expect("no join code");
    let mut phones = Vec::new();
    for i in 1..=2 {
        let name = format!("P{i}");
        phones.push(net.spawn(i, &join_args(&code, &name)));
    }
    std::thread::sleep(Duration::from_secs(6));
    assert!(
        net.running(host),
        "the game ended before the host was killed"
    );
    let _ = net.children[host].kill();
    let _ = net.children[host].wait();
    assert!(save.exists(), "no autosave written");
    std::thread::sleep(Duration::from_secs(1));
    let (host2, _h2) = net.spawn(
        0,
        &[
            "host",
            "--rules",
            "carousel",
            "--players",
            "3",
            "--headless",
            "--resume",
            &save_s,
        ],
    );
    for (p, rx) in &phones {
        assert_eq!(
            net.wait(*p, Duration::from_secs(300)),
            Some(0),
            "a phone did not finish after the host restart"
        );
        // Both phones finished at the restarted host, so both rejoined.
        assert!(reconnects(rx).is_some_and(|n| n >= 1));
    }
    assert_eq!(net.wait(host2, Duration::from_secs(30)), Some(0));
    let _ = std::fs::remove_dir_all(&dir);
}
