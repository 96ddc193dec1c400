use super::*;
use proptest::prelude::*;

#[test]
fn hello_keeps_its_prefix() {
    let bytes = encode(&hello("ABC123", Intent::Look)).unwrap();
    // Variant 0, then the magic, then the version (varint).
    assert_eq!(bytes[0], 0);
    assert_eq!(&bytes[1..5], b"RAMI");
    assert_eq!(bytes[5], PROTOCOL_VERSION as u8);
}

#[test]
fn refusal_is_variant_one() {
    let bytes = encode(&HostMsg::Refused {
        reason: Refusal::WrongCode,
        message: "x".into(),
    })
    .unwrap();
    assert_eq!(bytes[0], 1);
}

#[test]
fn frames_roundtrip_in_pieces() {
    let msgs: Vec<Vec<u8>> = (1..50u8).map(|n| vec![n; n as usize * 7]).collect();
    let stream: Vec<u8> = msgs.iter().flat_map(|m| encode_frame(m).unwrap()).collect();
    let mut d = FrameDecoder::new();
    let mut out = Vec::new();
    for chunk in stream.chunks(3) {
        d.push(chunk);
        while let Some(f) = d.next_frame().unwrap() {
            out.push(f);
        }
    }
    assert_eq!(out, msgs);
}

#[test]
fn oversized_frame_is_refused_from_its_header() {
    let mut d = FrameDecoder::new();
    d.push(&((MAX_FRAME as u32 + 1).to_le_bytes()));
    assert!(matches!(d.next_frame(), Err(FrameError::TooLarge { .. })));
    d.push(&[0; 10]);
    assert!(d.next_frame().is_err());
    assert_eq!(d.buffered(), 0);
}

#[test]
fn trailing_bytes_are_an_error() {
    let mut bytes = encode(&ClientMsg::Resync).unwrap();
    bytes.push(0);
    assert!(decode::<ClientMsg>(&bytes).is_err());
}

proptest! {
    #[test]
    fn decoder_never_panics_and_bounds_memory(chunks in proptest::collection::vec(proptest::collection::vec(any::<u8>(), 0..64), 0..64)) {
        let mut d = FrameDecoder::new();
        for c in &chunks {
            d.push(c);
            while let Ok(Some(f)) = d.next_frame() {
                prop_assert!(!f.is_empty() && f.len() <= MAX_FRAME);
                let _ = decode::<ClientMsg>(&f);
                let _ = decode::<HostMsg>(&f);
            }
            prop_assert!(d.buffered() <= MAX_FRAME + frame::HEADER + 64);
        }
    }

    /// The fuzz target's body (`fuzzing::frame_decoder`) on random streams, and
    /// on streams of real frames cut at random places.
    #[test]
    fn fuzz_body_frame_decoder(bytes in proptest::collection::vec(any::<u8>(), 0..2048), piece in 0u8..64) {
        fuzzing::frame_decoder(&bytes);
        let mut real = vec![piece];
        for m in [ClientMsg::Resync, hello("ABC-DEF", Intent::Join { name: "Ann".into() }), ClientMsg::Leave] {
            real.extend(encode_framed(&m).unwrap());
        }
        real.extend(&bytes);
        fuzzing::frame_decoder(&real);
    }

    #[test]
    fn random_payloads_never_panic(bytes in proptest::collection::vec(any::<u8>(), 0..512)) {
        let _ = decode::<ClientMsg>(&bytes);
        let _ = decode::<HostMsg>(&bytes);
    }
}

#[test]
fn action_refusals_travel_typed() {
    use rami_game::{ActionError, ActionKind, Card, Face, NotNowReason};
    let reasons = [
        ActionRefusal::Game(ActionError::NotNow {
            kind: ActionKind::Draw,
            why: NotNowReason::TableChanged,
        }),
        ActionRefusal::Game(ActionError::FrozenGroupChanged { group: 3 }),
        ActionRefusal::Game(ActionError::CardNotInHand {
            card: Card::from_face(Face::from_index(0).unwrap()),
        }),
        ActionRefusal::Replayed { seq: 4, last: 9 },
        ActionRefusal::Unreadable,
    ];
    for reason in reasons {
        let msg = HostMsg::ActionRefused {
            seq: 7,
            reason: reason.clone(),
        };
        let bytes = encode(&msg).unwrap();
        assert_eq!(decode::<HostMsg>(&bytes).unwrap(), msg);
        // The code travels, not the English text: a refusal stays small.
        assert!(bytes.len() <= 8, "{reason:?}: {} bytes", bytes.len());
    }
    let r = ActionRefusal::Game(ActionError::FrozenGroupChanged { group: 3 });
    assert_eq!(r.game_error().and_then(|e| e.group()), Some(3));
    // The display text is the engine's.
    assert_eq!(
        ActionRefusal::Game(ActionError::NotNow {
            kind: ActionKind::Draw,
            why: NotNowReason::TableChanged,
        })
        .to_string(),
        "Draw is not possible now: you changed the table: play it with Done or Give up (+3)"
    );
}

#[test]
fn an_old_hello_is_still_read_as_a_hello() {
    // A version-1 phone's Hello: same variant, magic and version prefix, so the
    // host reads it and refuses it with Refusal::Version (tested in rami-session).
    let mut bytes = vec![0u8];
    bytes.extend_from_slice(b"RAMI");
    bytes.push(1);
    bytes.push(0); // empty code
    bytes.push(2); // Intent::Look
    match decode::<ClientMsg>(&bytes).unwrap() {
        ClientMsg::Hello { version, .. } => assert_eq!(version, 1),
        other => panic!("{other:?}"),
    }
}

/// The biggest full view a manipulation table can make: all 104 cards of two
/// decks on the table in groups of three, a hint whose table holds them all
/// again, a 40-card hand and the last hand's result with five 20-card hands.
/// Real games stay far below (docs/BENCHMARKS.md); this bounds the worst case.
#[test]
fn the_biggest_full_view_fits_1_kib() {
    use rami_game::{
        ActionKind, Card, HandEnd, HandResult, Hint, Options, PlayerPublic, PlayerView, RuleSet,
        ViewConfig,
    };
    let deck: Vec<Card> = (0..104u8)
        .map(|i| Card::try_from(i % 52).unwrap())
        .collect();
    let table: Vec<Vec<Card>> = deck.chunks(3).map(|g| g.to_vec()).collect();
    let players = 5;
    let view = PlayerView {
        config: ViewConfig {
            rules: RuleSet::Manipulation,
            players,
            options: Options::default(),
        },
        seat: 4,
        hand: deck[..40].to_vec(),
        table: table.clone(),
        table_owners: Vec::new(),
        discard: Vec::new(),
        stock_count: 0,
        players: vec![
            PlayerPublic {
                cards_in_hand: 40,
                score: -150,
                opened: true,
                eliminated: false,
            };
            players
        ],
        current: Some(4),
        legal: vec![ActionKind::Draw, ActionKind::Done, ActionKind::GiveUp],
        hand_number: 12,
        draws_this_turn: 3,
        hint: Some(Hint {
            cards: deck[..10].to_vec(),
            groups: (0..35).collect(),
            rearrange: true,
            table,
        }),
        claim_deadline: None,
        move_deadline: None,
        last_hand: Some(HandResult {
            hand: 11,
            end: HandEnd::WentOut { seat: 1 },
            winners: vec![1],
            hands_left: vec![deck[..20].to_vec(); players],
            hand_points: vec![150; players],
            deltas: vec![-150; players],
            bonuses: Vec::new(),
            totals: vec![-300; players],
        }),
        outcome: None,
    };
    let bytes = encode(&HostMsg::Snapshot {
        view: Box::new(view),
    })
    .unwrap();
    println!("biggest full view: {} bytes", bytes.len());
    assert!(bytes.len() <= 1024, "{} bytes", bytes.len());
}
