//! The computer player's Claim (RULES.md Part 3, "frapper"): which discards it
//! claims out of turn, when a driver with people at the table asks it, the
//! order in which seats are asked, and that the turn a claim gives it plays
//! the card.

mod common;

use common::*;
use rami_discard::{
    CLAIM_WINDOW_MS, COMPUTER_CLAIM_DELAY_MS, DiscardGame, bot_action, claim_action, claim_order,
    claim_time, play_bot_game,
};
use rami_game::{Action, Event, Game, GameConfig, Options, PlayerView, RuleSet, Seat};

const R: RuleSet = RuleSet::Rami;

/// When seat 0 discards in the tests below.
const DISCARDED_AT: u64 = 1000;

/// Thirteen cards that make no group (no three of a rank, no three in a row),
/// two of them kings.
const NOTHING: &str = "KH KD 2C 8C QC 4S 7S 10S 6D 9D 3H JH 5C";
/// Thirteen other cards that make no group, one king.
const ONE_KING: &str = "KC 2H 8H QH 4D 7D 10D 6S 9S 3C JC 5H AS";

fn options(move_time_limit_ms: Option<u64>) -> Options {
    Options {
        claim: true,
        move_time_limit_ms,
        ..Options::default()
    }
}

/// Four players, Claim on: seat 0 holds `discarded`, draws 2D and discards
/// it at [`DISCARDED_AT`]; seat 2 holds `two`, seat 3 [`ONE_KING`]. Seat 1
/// is next (it may not claim); seats 2 and 3 may. The two penalty cards are
/// 3D and 10C.
fn after_discard(discarded: &str, two: &str, timer: Option<u64>) -> DiscardGame {
    let mut g = game(
        R,
        4,
        options(timer),
        &[discarded, "", two, ONE_KING],
        "",
        "2D 3D 10C",
    );
    // The move timer starts with the first action, at DISCARDED_AT.
    ok(&mut g, 0, Action::Draw, DISCARDED_AT);
    ok(&mut g, 0, discard(discarded), DISCARDED_AT);
    g
}

/// A view of seat 2 holding `hand` in the Claim window of `top`, the table
/// holding `table`, seat 2 opened or not.
fn view_of_two(hand: &str, top: &str, table: &str, opened: bool) -> PlayerView {
    let g = after_discard(top, NOTHING, None);
    let mut v = g.view(2);
    v.hand = cards(hand);
    v.table = if table.is_empty() {
        Vec::new()
    } else {
        rami_cards::parse_table(table).expect("test table")
    };
    v.players[2].opened = opened;
    v
}

#[test]
fn claims_a_card_that_makes_its_30_point_opening() {
    // K♥ K♦ and the discarded K♠: 30 points, the opening.
    let g = after_discard("KS", NOTHING, None);
    assert_eq!(claim_action(&g.view(2)), Some(Action::Claim));
    // Seat 3 holds one king: a pair is no group.
    assert_eq!(claim_action(&g.view(3)), None);
}

#[test]
fn declines_a_card_it_cannot_use() {
    let g = after_discard("2S", NOTHING, None);
    assert_eq!(claim_action(&g.view(2)), None);
    // The same hand without a Claim window (the Claim button off) claims
    // nothing either, whatever the card.
    let mut off = game(
        R,
        4,
        Options::default(),
        &["KS", "", NOTHING, ONE_KING],
        "",
        "2D",
    );
    ok(&mut off, 0, Action::Draw, DISCARDED_AT);
    ok(&mut off, 0, discard("KS"), DISCARDED_AT);
    assert_eq!(claim_action(&off.view(2)), None);
}

#[test]
fn declines_a_group_worth_less_than_the_opening() {
    // 7♥ 7♦ and the discarded 7♠ make 21: not enough to put them down.
    let hand = "7H 7D 2C 8C QC 4S 10S 6D 9D 3H JH 5C KD";
    let g = after_discard("7S", hand, None);
    assert_eq!(claim_action(&g.view(2)), None);
    // With 30 points elsewhere in the hand (10♣ J♣ Q♣), the sevens go down
    // with the opening: three more cards.
    let v = view_of_two("7H 7D QC JC 10C 2S 4S 6D 9D 3H KD", "7S", "", false);
    assert_eq!(claim_action(&v), Some(Action::Claim));
}

#[test]
fn the_next_player_takes_the_discard_and_never_claims_it() {
    // Seat 1 is next: the kings would open for it too, but it takes the card.
    let mut g = game(
        R,
        4,
        options(None),
        &["KS", NOTHING, "", ONE_KING],
        "",
        "2D",
    );
    ok(&mut g, 0, Action::Draw, DISCARDED_AT);
    ok(&mut g, 0, discard("KS"), DISCARDED_AT);
    assert_eq!(claim_action(&g.view(1)), None);
    assert_eq!(bot_action(&g.view(1)), Some(Action::TakeDiscard));
    // Nor does the discarder claim its own card back.
    assert_eq!(claim_action(&g.view(0)), None);
}

#[test]
fn once_opened_it_claims_a_card_for_a_new_group_not_for_a_lay_off() {
    let table = "QS QD QC";
    // 5♥ 6♥ and the discarded 7♥: a new run of three.
    let v = view_of_two("5H 6H 2C 9D", "7H", table, true);
    assert_eq!(claim_action(&v), Some(Action::Claim));
    // Q♥ fits the queens on the table, but laying off one card does not make
    // up for the two penalty cards.
    let v = view_of_two("5H 2C 9D", "QH", table, true);
    assert_eq!(claim_action(&v), None);
    // A card that only lengthens a run the hand already holds: one more card.
    let v = view_of_two("4H 5H 6H 2C 9D", "7H", table, true);
    assert_eq!(claim_action(&v), None);
}

#[test]
fn the_claim_turn_melds_the_card_then_discards() {
    let mut g = after_discard("KS", NOTHING, None);
    let at = DISCARDED_AT + COMPUTER_CLAIM_DELAY_MS;
    let claim = claim_action(&g.view(2)).expect("seat 2 claims");
    let events = ok(&mut g, 2, claim, at);
    assert!(events.contains(&Event::Claimed {
        seat: 2,
        card: card("KS")
    }));
    // The claimer's turn, as any other, is the bot's: it melds the kings.
    let mut melded = Vec::new();
    for _ in 0..20 {
        if g.current_player() != Some(2) {
            break;
        }
        let action = bot_action(&g.view(2)).expect("the claimer plays");
        for e in ok(&mut g, 2, action, at) {
            if let Event::Melded { groups, .. } = e {
                melded.extend(groups);
            }
        }
    }
    assert_eq!(g.current_player(), Some(3), "play goes on from the claimer");
    assert!(
        melded.iter().any(|grp| grp.contains(&card("KS"))),
        "{melded:?}"
    );
    assert!(g.view(3).players[2].opened);
}

#[test]
fn a_computer_claims_half_way_through_the_window() {
    let g = after_discard("KS", NOTHING, None);
    assert_eq!(
        g.view(2).claim_deadline,
        Some(DISCARDED_AT + CLAIM_WINDOW_MS)
    );
    assert_eq!(
        claim_time(&g.view(2)),
        Some(DISCARDED_AT + COMPUTER_CLAIM_DELAY_MS)
    );
    // A move timer longer than the window changes nothing; one that cuts the
    // window before the computer's moment leaves the card to people alone.
    let g = after_discard("KS", NOTHING, Some(60_000));
    assert_eq!(
        claim_time(&g.view(2)),
        Some(DISCARDED_AT + COMPUTER_CLAIM_DELAY_MS)
    );
    let g = after_discard("KS", NOTHING, Some(2000));
    assert_eq!(g.view(2).claim_deadline, Some(DISCARDED_AT + 2000));
    assert_eq!(
        claim_time(&g.view(2)),
        Some(DISCARDED_AT + COMPUTER_CLAIM_DELAY_MS)
    );
    let g = after_discard("KS", NOTHING, Some(1000));
    assert_eq!(claim_time(&g.view(2)), None);
    // No window, no time.
    let mut g = after_discard("KS", NOTHING, None);
    ok(&mut g, 1, Action::Draw, DISCARDED_AT + 100);
    assert_eq!(claim_time(&g.view(2)), None);
}

#[test]
fn seats_are_asked_from_the_one_after_the_next_player() {
    let order: Vec<Seat> = claim_order(4, 1).collect();
    assert_eq!(order, vec![2, 3, 0]);
    let order: Vec<Seat> = claim_order(3, 0).collect();
    assert_eq!(order, vec![1, 2]);
}

#[test]
fn whole_games_with_claim_on_have_claims_and_end() {
    let mut claims = 0;
    for seed in 0..10 {
        let config = GameConfig {
            options: options(None),
            ..GameConfig::new(R, 4, seed)
        };
        let sim = play_bot_game(config, 200_000).expect("the game ends");
        assert!(sim.game.outcome().is_some());
        claims += sim.claims;
    }
    assert!(claims > 0, "no computer claimed in ten whole games");
}

/// Whole games played as `play_bot_game` plays them, watching each claim's
/// turn: the claimed card is almost always in what the claimer melds. Not
/// always: the claimer's turn melds whatever groups its whole hand makes, and
/// now and then a penalty card makes another group of the same cards (a run
/// 2♣ 3♣ 4♣ where the 4♣ was to go with the claimed 4♠). Returns (claims,
/// claimed cards melded in the claim turn).
fn claims_melded(players: usize, seeds: std::ops::Range<u64>) -> (u32, u32) {
    let (mut claims, mut melded) = (0, 0);
    for seed in seeds {
        let config = GameConfig {
            options: options(None),
            ..GameConfig::new(R, players, seed)
        };
        let mut g = DiscardGame::new(config).expect("a game");
        let mut now = 0;
        // The claim whose turn is being played: who, and the card.
        let mut watching: Option<(Seat, rami_game::Card)> = None;
        for _ in 0..200_000 {
            now += 10;
            g.advance_time(now);
            let Some(next) = g.current_player() else {
                break;
            };
            let claim =
                claim_order(players, next).find_map(|s| claim_action(&g.view(s)).map(|a| (s, a)));
            let (seat, action) = match claim {
                Some(c) => c,
                None => (next, bot_action(&g.view(next)).expect("a move")),
            };
            for e in ok(&mut g, seat, action, now) {
                match e {
                    Event::Claimed { seat, card } => {
                        claims += 1;
                        watching = Some((seat, card));
                    }
                    Event::Melded { seat, groups } => {
                        if let Some((w, card)) = watching
                            && w == seat
                            && groups.iter().flatten().any(|c| c.in_hand() == card)
                        {
                            melded += 1;
                            watching = None;
                        }
                    }
                    Event::TurnStarted { seat } if watching.is_some_and(|(w, _)| w != seat) => {
                        watching = None
                    }
                    _ => {}
                }
            }
        }
        assert!(g.outcome().is_some(), "seed {seed}: the game ends");
    }
    (claims, melded)
}

#[test]
fn the_claim_turn_melds_the_claimed_card_nearly_always() {
    for players in [3, 4] {
        let (claims, melded) = claims_melded(players, 0..40);
        assert!(claims >= 100, "{players} players: only {claims} claims");
        // 94% (three players) and 97% (four) when this was written.
        assert!(
            melded * 100 >= claims * 90,
            "{players} players: {melded} of {claims} claimed cards melded at once"
        );
    }
}
