//! Nearby play through the UI: a host app and a phone app on one machine, over
//! loopback QUIC (no mDNS: the phone is given the table the host opened, as
//! discovery would).

use egui_kittest::Harness;
use egui_kittest::kittest::Queryable as _;
use rami_game::{ActionKind, RuleSet};
use rami_net::discovery::FoundTable;
use rami_ui::{RamiApp, Screen, Settings, Speed, egui};
use std::net::SocketAddr;
use std::time::{Duration, Instant};

fn app() -> RamiApp {
    let mut app = RamiApp::new(Settings {
        speed: Speed::Instant,
        ..Settings::default()
    });
    app.host_bind = SocketAddr::from(([127, 0, 0, 1], 0));
    app.mdns = false;
    app
}

fn harness(app: RamiApp) -> Harness<'static, RamiApp> {
    Harness::builder()
        .with_size(egui::vec2(1280.0, 800.0))
        // Notes from the network thread ask for repaints while they arrive.
        .with_max_steps(200)
        .build_ui_state(|ui, app: &mut RamiApp| app.show(ui), app)
}

/// Steps both apps until `done` holds (the network answers on other threads).
/// Panics after a generous bound: a hang, not a timing measurement.
fn until(
    a: &mut Harness<'static, RamiApp>,
    b: &mut Harness<'static, RamiApp>,
    what: &str,
    done: impl Fn(&RamiApp, &RamiApp) -> bool,
) {
    let start = Instant::now();
    loop {
        a.run();
        b.run();
        if done(a.state(), b.state()) {
            return;
        }
        assert!(
            start.elapsed() < Duration::from_secs(30),
            "gave up waiting for: {what}"
        );
        std::thread::sleep(Duration::from_millis(20));
    }
}

/// Steps both apps until `a` shows a label containing `text`.
fn until_shown(a: &mut Harness<'static, RamiApp>, b: &mut Harness<'static, RamiApp>, text: &str) {
    let start = Instant::now();
    while a.query_by_label_contains(text).is_none() {
        assert!(
            start.elapsed() < Duration::from_secs(30),
            "gave up waiting for {text:?}"
        );
        a.run();
        b.run();
        std::thread::sleep(Duration::from_millis(20));
    }
}

/// On `host`: Play together nearby > Host a table, then `setup` (names, rules,
/// seats), then Open the table; runs both apps until the table is open.
fn open_table(
    host: &mut Harness<'static, RamiApp>,
    other: &mut Harness<'static, RamiApp>,
    setup: impl FnOnce(&mut Harness<'static, RamiApp>),
) {
    host.run();
    host.get_by_label("Play together nearby").click();
    host.run();
    host.get_by_label("Host a table").click();
    host.run();
    setup(host);
    host.get_by_label("Open the table").click();
    host.run();
    until(host, other, "the table to open", |h, _| {
        h.hosting().is_some()
    });
}

/// Focuses the field `label` and types `text` at its end.
fn type_into(h: &mut Harness<'static, RamiApp>, label: &str, text: &str) {
    h.get_by_label(label).focus();
    h.run();
    h.get_by_label(label).type_text(text);
    h.run();
}

/// Picks Machiavelli with `players` seats on the host screen.
fn machiavelli_for(h: &mut Harness<'static, RamiApp>, players: &str) {
    h.get_by_label("Machiavelli").click();
    h.get_by_label(players).click();
    h.run();
}

/// Opens a Machiavelli table for two on the host app and seats the phone app.
fn open_and_join() -> (Harness<'static, RamiApp>, Harness<'static, RamiApp>) {
    let mut host = harness(app());
    let mut phone = harness(app());
    phone.run();
    open_table(&mut host, &mut phone, |h| {
        type_into(h, "Table name", " du soir");
        type_into(h, "Your name", "Ada");
        machiavelli_for(h, "2");
    });
    let (code, addr, fingerprint) = host.state().hosting().expect("hosting");
    assert!(
        host.query_by_label(&code).is_some(),
        "the join code is on the host's screen"
    );
    assert!(host.query_by_label_contains("Seat 1: Ada").is_some());

    phone.state_mut().add_found_table(FoundTable {
        name: "Rami du soir".into(),
        rules: "machiavelli".into(),
        free_seats: 1,
        version: rami_protocol::PROTOCOL_VERSION,
        fingerprint: Some(fingerprint),
        addrs: vec![addr],
    });
    phone.get_by_label("Play together nearby").click();
    phone.run();
    phone.get_by_label("Join a table").click();
    phone.run();
    phone.get_by_label("Your name").focus();
    phone.run();
    phone.get_by_label("Your name").type_text("Bea");
    phone.get_by_label_contains("Rami du soir").click();
    phone.run();
    phone.get_by_label("Join code").focus();
    phone.run();
    phone.get_by_label("Join code").type_text(&code);
    phone.run();
    phone.get_by_label("Join").click();
    phone.run();
    // The host sees the request and lets Bea in.
    until_shown(&mut host, &mut phone, "Bea asks to join.");
    until_shown(&mut phone, &mut host, "Waiting for the host to let you in");
    assert_eq!(phone.state().nearby_seat(), None);
    host.get_by_label("Accept Bea").click();
    host.run();
    until(&mut host, &mut phone, "the phone to be seated", |h, p| {
        p.nearby_seat() == Some(1) && h.nearby_seat() == Some(0)
    });
    until_shown(&mut host, &mut phone, "Seat 2: Bea, connected");
    (host, phone)
}

#[test]
fn a_host_app_and_a_phone_app_play_over_loopback_quic() {
    let (mut host, mut phone) = open_and_join();
    assert!(
        host.query_by_label_contains("Seat 2: Bea, connected")
            .is_some()
    );
    assert!(phone.query_by_label_contains("You have a seat").is_some());
    host.get_by_label("Start the game").click();
    host.run();
    until(&mut host, &mut phone, "both tables to open", |h, p| {
        h.screen == Screen::Table && p.screen == Screen::Table
    });
    let hv = host.state().table_view().expect("host view").clone();
    let pv = phone.state().table_view().expect("phone view").clone();
    assert_eq!(hv.config.rules, RuleSet::Machiavelli);
    assert_eq!((hv.seat, pv.seat), (0, 1));
    let dealt = hv.hand.len();
    assert!(dealt > 0);
    assert_eq!(pv.hand.len(), dealt);
    // The names come from the table.
    assert!(phone.query_by_label_contains("Ada:").is_some());
    assert!(host.query_by_label_contains("Bea:").is_some());

    // Whoever's turn it is draws; the other sees it.
    let (first, second) = if hv.current == Some(0) {
        (&mut host, &mut phone)
    } else {
        (&mut phone, &mut host)
    };
    let seat = first.state().table_view().expect("view").seat;
    // Machiavelli: drawing one card ends the turn.
    first.get_by_label("Draw").click();
    first.run();
    until(first, second, "the draw to reach the other app", |a, b| {
        let (av, bv) = (a.table_view().expect("view"), b.table_view().expect("view"));
        av.current != Some(seat) && bv.current != Some(seat) && av.hand.len() == dealt + 1
    });
    let other = second.state().table_view().expect("view");
    assert_eq!(other.players[seat].cards_in_hand, dealt + 1);
    assert!(other.legal.contains(&ActionKind::Draw));

    // The second player proposes a lone card as a new group: the host refuses,
    // and the reason shows on the group.
    let card = other.hand[0];
    let name = rami_ui::cards::card_name(rami_ui::Lang::En, card);
    second
        .get_all_by_label(&name)
        .next()
        .expect("hand card")
        .click();
    second.get_by_label("New group").click();
    second.run();
    let groups = second.state().table_view().expect("view").table.len();
    second.get_by_label("Done").click();
    second.run();
    // The host's answer comes back over the network: step until it shows.
    let refused = format!("Refused: group {} is not valid", groups + 1);
    until_shown(second, first, &refused);
    // Nothing was played.
    assert_eq!(second.state().table_view().expect("view").hand.len(), dealt);
}

#[test]
fn a_phone_that_drops_is_covered_by_the_computer_and_the_host_says_so() {
    // A UI host; the phone is `rami_net`'s own phone driver on a runtime of its
    // own, dropped after it is seated (its link goes away without a Leave).
    let mut app = app();
    app.nearby_grace = Duration::ZERO;
    let mut host = harness(app);
    let mut other = harness(self::app());
    open_table(&mut host, &mut other, |h| machiavelli_for(h, "2"));
    let (code, addr, fingerprint) = host.state().hosting().expect("hosting");
    let rt = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(1)
        .enable_all()
        .build()
        .expect("a runtime");
    rt.spawn(rami_net::phone::run_phone(rami_net::phone::PhoneOptions {
        name: "Cleo".into(),
        code,
        fingerprint,
        addr,
        bot: None,
        rejoin_for: Duration::ZERO,
        delay: Duration::ZERO,
        capture: None,
        verbose: false,
    }));
    until_shown(&mut host, &mut other, "Cleo asks to join.");
    host.get_by_label("Accept Cleo").click();
    host.run();
    until_shown(&mut host, &mut other, "Seat 2: Cleo, connected");
    host.get_by_label("Start the game").click();
    host.run();
    until(&mut host, &mut other, "the table", |h, _| {
        h.screen == Screen::Table
    });
    // The phone's device goes away.
    rt.shutdown_background();
    until_shown(
        &mut host,
        &mut other,
        "Cleo is away: the computer plays their seat.",
    );
    // The computer does play for Cleo: whenever it is Cleo's turn, it moves on.
    let view = host.state().table_view().expect("view").clone();
    if view.current == Some(0) {
        host.get_by_label("Draw").click();
        host.run();
    }
    until(&mut host, &mut other, "our turn again", |h, _| {
        h.table_view()
            .is_some_and(|v| v.current == Some(0) && v.players[1].cards_in_hand != 13)
    });
}

#[test]
fn a_ui_phone_shows_the_rejoining_banner_when_the_link_drops() {
    // A headless `rami_net` host with one computer player; the UI phone joins
    // (the table starts when the seats are full), then the host's device goes
    // away without a word: the phone's link times out and it tries to rejoin.
    let rt = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(1)
        .enable_all()
        .build()
        .expect("a runtime");
    let identity = rami_net::tls::HostIdentity::generate().expect("an identity");
    let mut settings = rami_session::HostSettings::new("Headless", RuleSet::Machiavelli, 2);
    settings.auto_accept = true;
    settings.auto_start = true;
    settings.seed = 5;
    let opts = rami_net::host::HostOptions {
        settings,
        identity,
        bind: SocketAddr::from(([127, 0, 0, 1], 0)),
        computers: 1,
        autosave: None,
        resume: None,
        publish: false,
        exit_when_over: false,
        verbose: false,
        tap: None,
    };
    let bot = rami_net::cli::host_bots();
    let host = rt
        .block_on(rami_net::host::start_host::<rami_engine::AnyGame>(
            opts,
            rami_engine::new_game,
            bot,
        ))
        .expect("a host");

    let mut phone = harness(app());
    let mut idle = harness(app());
    phone.state_mut().add_found_table(FoundTable {
        name: "Headless".into(),
        rules: "machiavelli".into(),
        free_seats: 1,
        version: rami_protocol::PROTOCOL_VERSION,
        fingerprint: Some(host.fingerprint),
        addrs: vec![host.addr],
    });
    phone.run();
    phone.get_by_label("Play together nearby").click();
    phone.run();
    phone.get_by_label("Join a table").click();
    phone.run();
    phone.get_by_label("Join code").focus();
    phone.run();
    phone.get_by_label("Join code").type_text(&host.code);
    phone.run();
    phone.get_by_label("Join").click();
    phone.run();
    until(&mut phone, &mut idle, "the table", |p, _| {
        p.screen == Screen::Table
    });
    assert!(phone.query_by_label_contains("Connection lost").is_none());
    rt.shutdown_background();
    until_shown(
        &mut phone,
        &mut idle,
        "Connection lost: rejoining the table",
    );
}

#[test]
fn a_wrong_join_code_is_refused_with_a_clear_reason() {
    let mut host = harness(app());
    let mut phone = harness(app());
    phone.run();
    open_table(&mut host, &mut phone, |_| {});
    let (code, addr, fingerprint) = host.state().hosting().expect("hosting");
    phone.state_mut().add_found_table(FoundTable {
        name: "Rami".into(),
        rules: "manipulation".into(),
        free_seats: 1,
        version: rami_protocol::PROTOCOL_VERSION,
        fingerprint: Some(fingerprint),
        addrs: vec![addr],
    });
    phone.get_by_label("Play together nearby").click();
    phone.run();
    phone.get_by_label("Join a table").click();
    phone.run();
    // A code for another table: refused before connecting.
    phone.get_by_label_contains("Rami (Manipulation)").click();
    phone.get_by_label("Join code").focus();
    phone.run();
    phone.get_by_label("Join code").type_text("AAA-AAA");
    phone.run();
    phone.get_by_label("Join").click();
    phone.run();
    assert!(
        phone
            .query_by_label_contains("This code does not belong to that table")
            .is_some()
    );
    // The right table, a wrong secret half: the host refuses it.
    let wrong = format!(
        "{}-{}",
        &code[..3],
        if &code[4..] == "ZZZ" { "YYY" } else { "ZZZ" }
    );
    phone.get_by_label("Join code").focus();
    phone.run();
    for _ in 0..8 {
        phone.key_press(egui::Key::Backspace);
        phone.run();
    }
    phone.get_by_label("Join code").type_text(&wrong);
    phone.run();
    phone.get_by_label("Join").click();
    phone.run();
    until_shown(&mut phone, &mut host, "Wrong join code");
    assert_eq!(phone.state().nearby_seat(), None);
    assert!(host.query_by_label_contains("Seat 2: free").is_some());
}

/// Opens the Join screen of `phone`, picks the table the host opened (as mDNS
/// would have found it) and asks to join as `name`.
fn ask_to_join(phone: &mut Harness<'static, RamiApp>, name: &str, host: &RamiApp) {
    let (code, addr, fingerprint) = host.hosting().expect("hosting");
    phone.state_mut().add_found_table(FoundTable {
        name: "Rami".into(),
        rules: "machiavelli".into(),
        free_seats: 2,
        version: rami_protocol::PROTOCOL_VERSION,
        fingerprint: Some(fingerprint),
        addrs: vec![addr],
    });
    phone.run();
    phone.get_by_label("Play together nearby").click();
    phone.run();
    phone.get_by_label("Join a table").click();
    phone.run();
    phone.get_by_label("Your name").focus();
    phone.run();
    phone.get_by_label("Your name").type_text(name);
    phone.run();
    phone.get_by_label("Join code").focus();
    phone.run();
    phone.get_by_label("Join code").type_text(&code);
    phone.run();
    phone.get_by_label("Join").click();
    phone.run();
}

#[test]
fn the_host_seats_a_phone_where_it_chooses_declines_another_and_seats_the_computer() {
    let mut host = harness(app());
    let mut bea = harness(app());
    let mut cleo = harness(app());
    open_table(&mut host, &mut bea, |h| {
        type_into(h, "Your name", "Ada");
        machiavelli_for(h, "4");
    });
    until_shown(&mut host, &mut bea, "Seat 1: Ada (You), connected");

    // Bea asks; the host puts her in seat 3 rather than the first free one.
    ask_to_join(&mut bea, "Bea", host.state());
    until_shown(&mut host, &mut bea, "Bea asks to join.");
    host.get_by_label("Seat 3").click();
    host.run();
    host.get_by_label("Accept Bea").click();
    host.run();
    until(&mut host, &mut bea, "Bea to be seated", |_, b| {
        b.nearby_seat() == Some(2)
    });
    until_shown(&mut host, &mut bea, "Seat 3: Bea, connected");
    until_shown(&mut bea, &mut host, "You have a seat");

    // Cleo asks; the host declines, and Cleo is told so.
    ask_to_join(&mut cleo, "Cleo", host.state());
    until_shown(&mut host, &mut cleo, "Cleo asks to join.");
    host.get_by_label("Decline Cleo").click();
    host.run();
    until_shown(&mut cleo, &mut host, "The host declined your request.");
    assert_eq!(cleo.state().nearby_seat(), None);
    until(&mut host, &mut cleo, "the request to go", |h, _| {
        h.nearby_seat() == Some(0)
    });
    assert!(host.query_by_label_contains("Cleo asks").is_none());
    assert!(host.query_by_label_contains("Seat 2: free").is_some());

    // The computer takes seat 2, is sent away, and comes back at Start.
    host.get_by_label("Computer in seat 2").click();
    host.run();
    until_shown(&mut host, &mut bea, "Seat 2: the computer (quick)");
    host.get_by_label("Clear seat 2").click();
    host.run();
    until_shown(&mut host, &mut bea, "Seat 2: free");
    host.get_by_label("Start the game").click();
    host.run();
    until(&mut host, &mut bea, "both tables to open", |h, b| {
        h.screen == Screen::Table && b.screen == Screen::Table
    });
    let hv = host.state().table_view().expect("host view");
    assert_eq!(hv.players.len(), 4);
    assert_eq!(hv.seat, 0);
    assert_eq!(bea.state().table_view().expect("Bea's view").seat, 2);
}

/// Types `text` into the field labelled `label`, replacing what was there.
fn retype(h: &mut Harness<'static, RamiApp>, label: &str, text: &str) {
    h.get_by_label_contains(label).focus();
    h.run();
    for _ in 0..48 {
        h.key_press(egui::Key::Backspace);
    }
    h.run();
    h.get_by_label_contains(label).type_text(text);
    h.run();
}

#[test]
fn a_phone_joins_by_typed_address_and_a_bad_address_is_refused_clearly() {
    let mut host = harness(app());
    let mut phone = harness(app());
    open_table(&mut host, &mut phone, |h| machiavelli_for(h, "2"));
    let (code, addr, _) = host.state().hosting().expect("hosting");
    // The host's screen shows the address to type.
    assert!(host.query_by_label_contains(&addr.to_string()).is_some());

    // Nothing found nearby (no mDNS in tests): the phone types the address.
    phone.get_by_label("Play together nearby").click();
    phone.run();
    phone.get_by_label("Join a table").click();
    phone.run();
    retype(&mut phone, "Your name", "Dan");
    const ADDR: &str = "Or the table's address";
    for bad in [
        "192.168.1.20",
        "table.local:47000",
        "[::1]",
        "300.1.1.1:5000",
    ] {
        retype(&mut phone, ADDR, bad);
        retype(&mut phone, "Join code", &code);
        phone.get_by_label("Join").click();
        phone.run();
        assert!(
            phone
                .query_by_label_contains("This is not an address: type it as IP:port")
                .is_some(),
            "{bad} refused"
        );
    }
    // A right address without the code.
    retype(&mut phone, ADDR, &addr.to_string());
    retype(&mut phone, "Join code", "");
    phone.get_by_label("Join").click();
    phone.run();
    assert!(
        phone
            .query_by_label_contains("Type the join code too")
            .is_some()
    );
    // The address with another table's code: the certificate does not match.
    retype(&mut phone, "Join code", "AAA-AAA");
    phone.get_by_label("Join").click();
    phone.run();
    until_shown(&mut phone, &mut host, "is not the one of this code");
    phone.get_by_label("Try again").click();
    phone.run();

    // The right code: the host is asked, accepts, and Dan is seated.
    retype(&mut phone, "Join code", &code);
    phone.get_by_label("Join").click();
    phone.run();
    until_shown(&mut host, &mut phone, "Dan asks to join.");
    host.get_by_label("Accept Dan").click();
    host.run();
    until(&mut host, &mut phone, "Dan to be seated", |_, p| {
        p.nearby_seat() == Some(1)
    });
    until_shown(&mut host, &mut phone, "Seat 2: Dan, connected");
}

#[test]
fn typed_addresses_are_ip_and_port() {
    use rami_ui::parse_table_addr;
    assert_eq!(
        parse_table_addr(" 192.168.1.20:47000 "),
        Some(SocketAddr::from(([192, 168, 1, 20], 47000)))
    );
    assert_eq!(
        parse_table_addr("[fe80::1]:47000"),
        Some("[fe80::1]:47000".parse().expect("v6"))
    );
    assert_eq!(
        parse_table_addr("[::1]:5000"),
        Some("[::1]:5000".parse().expect("v6"))
    );
    for bad in [
        "",
        "192.168.1.20",
        "192.168.1.20:0",
        "0.0.0.0:5000",
        "::1:5000",
        "host:5000",
    ] {
        assert_eq!(parse_table_addr(bad), None, "{bad}");
    }
}
