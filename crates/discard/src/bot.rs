//! A simple, legal computer player for Rummy 500 and Rami.
//!
//! It decides from a [`PlayerView`] alone (so it runs on a phone that only ever
//! sees its own view) and is greedy: take the discard when it makes a meld, meld
//! what it can, lay off, free jokers, then discard the highest card that is not
//! close to a meld. Every action it returns is legal in the view's position, and
//! every turn ends with a discard or with the hand emptied, so games always move.
//!
//! Out of turn, with the Claim option, [`claim_action`] decides whether it claims
//! the card just discarded, and [`claim_time`] says when a driver with people at
//! the table should ask it (never at once: people get their chance first).

use crate::engine::{CLAIM_WINDOW_MS, RAMI_OPENING};
use crate::groups::group_value;
use rami_cards::{Card, Face, Rank, Suit};
use rami_game::{Action, ActionKind, PlayerView, RuleSet, Seat, Table};
use rami_melds::{joker_namings, validate_group};

/// Deepest card the bot looks at when digging (Rummy 500): deeper digs pick up
/// many cards that count against it at the end of the hand.
const DIG_DEPTH: usize = 3;

/// How long after a discard a computer player claims it, in ms, where people
/// play too (the app, `rami play`, the nearby host): half of the 3-second
/// window, so a person always has the first 1.5 seconds to claim or to draw.
/// Whole games between computer players (`rami sim`) claim at once.
pub const COMPUTER_CLAIM_DELAY_MS: u64 = 1500;
// People first, but the computer still inside the window.
const _: () = assert!(COMPUTER_CLAIM_DELAY_MS > 0 && COMPUTER_CLAIM_DELAY_MS < CLAIM_WINDOW_MS);

/// Cards a claim must let the bot put down beyond what it could put down
/// without the card: as many as the claim brings in (the card itself and the
/// two penalty cards), so that claiming never leaves it with more cards.
const CLAIM_MIN_GAIN: usize = 3;

/// The bot's action for the seat of `view`, or `None` when it has nothing to do
/// (not its turn, or the game is over). Claims out of turn are
/// [`claim_action`]'s.
pub fn bot_action(view: &PlayerView) -> Option<Action> {
    if view.outcome.is_some() || view.current != Some(view.seat) {
        return None;
    }
    let legal = |k| view.legal.contains(&k);
    if legal(ActionKind::Draw) || legal(ActionKind::TakeDiscard) || legal(ActionKind::Dig) {
        return Some(draw_step(view));
    }
    if legal(ActionKind::Discard) {
        return Some(play_step(view));
    }
    None
}

/// `Some(Action::Claim)` when the bot of `view.seat`, out of turn, claims the
/// card just discarded (Rami with the Claim option), else `None`.
///
/// The rule: it claims only a card that completes a group it puts down at once
/// in the turn the claim gives it (before its first meld, only when that meld
/// then reaches the 30 points), and only when the card lets it put down at
/// least three more cards than it could without it, which makes up for the
/// card and the two penalty cards. A card it could only lay off, or could not
/// use at all, it lets pass. It decides from the view alone; the engine's
/// refusal covers a window that closed since the view was taken.
///
/// The turn a claim gives is [`bot_action`]'s, as any turn: it melds the
/// groups its whole hand makes, the claimed card among them unless a penalty
/// card happens to make another group of the same cards (one claim in twenty
/// or so in whole games).
pub fn claim_action(view: &PlayerView) -> Option<Action> {
    if view.outcome.is_some()
        || view.config.rules != RuleSet::Rami
        || view.current == Some(view.seat)
        || view.claim_deadline.is_none()
        || !view.legal.contains(&ActionKind::Claim)
    {
        return None;
    }
    let top = *view.discard.last()?;
    let rules = view.config.rules;
    let opened = view.players.get(view.seat).is_some_and(|p| p.opened);
    // Cards the hand puts down at once: its groups, when they may go down.
    let down = |hand: &[Card]| -> (usize, Table) {
        let groups = find_groups(hand, rules);
        let points: u32 = groups.iter().map(|g| group_value(rules, g)).sum();
        if opened || points >= RAMI_OPENING {
            (groups.iter().map(Vec::len).sum(), groups)
        } else {
            (0, Vec::new())
        }
    };
    let mut with = view.hand.clone();
    with.push(top);
    let (with_top, groups) = down(&with);
    let uses_top = groups
        .iter()
        .flatten()
        .any(|c| c.in_hand() == top.in_hand());
    let (without, _) = down(&view.hand);
    (uses_top && with_top >= without + CLAIM_MIN_GAIN).then_some(Action::Claim)
}

/// When a computer player of `view`'s table claims the card of the open Claim
/// window in a game with people: [`COMPUTER_CLAIM_DELAY_MS`] after the discard,
/// on the driver's clock (the `now` of the game). `None` when no window is
/// open, or it closes before then (a move timer shorter than the window).
pub fn claim_time(view: &PlayerView) -> Option<u64> {
    let closes = view.claim_deadline?;
    // The window opened with the next player's turn: their move timer started
    // then; without one the window is the full 3 seconds.
    let opened = match (view.move_deadline, view.config.options.move_time_limit_ms) {
        (Some(deadline), Some(limit)) => deadline.saturating_sub(limit),
        _ => closes.saturating_sub(CLAIM_WINDOW_MS),
    };
    let at = opened.saturating_add(COMPUTER_CLAIM_DELAY_MS);
    (at < closes).then_some(at)
}

/// The order in which a driver asks the other seats whether they claim, when
/// `next` is the player whose turn it is: the seats after `next`, round the
/// table (the order of the seats after the discarder, as neither the
/// discarder nor `next` may claim). The engine gives the card to the first claim it applies, so this
/// order decides between computer players who want the same card.
pub fn claim_order(players: usize, next: Seat) -> impl Iterator<Item = Seat> {
    (1..players).map(move |i| (next + i) % players)
}

fn draw_step(view: &PlayerView) -> Action {
    let rules = view.config.rules;
    let hand = &view.hand;
    let legal = |k| view.legal.contains(&k);
    let opened = view.players.get(view.seat).is_some_and(|p| p.opened);
    if rules == RuleSet::Rummy500 && legal(ActionKind::Dig) {
        // Digging at depth 0 takes the top card and melds it at once, so the
        // no-return rule never bites the bot.
        for depth in 0..view.discard.len().min(DIG_DEPTH + 1) {
            let card = view.discard[view.discard.len() - 1 - depth];
            if card.is_joker() {
                continue;
            }
            if let Some(with) = group_with(card, hand, rules) {
                return Action::Dig {
                    depth,
                    with,
                    onto: None,
                    name: None,
                };
            }
            if let Some(m) = view.table.iter().position(|m| fits(m, card, rules)) {
                return Action::Dig {
                    depth,
                    with: Vec::new(),
                    onto: Some(m),
                    name: None,
                };
            }
        }
    }
    if rules == RuleSet::Rami
        && legal(ActionKind::TakeDiscard)
        && let Some(&top) = view.discard.last()
    {
        // Before the first meld, a card that only makes a group is worth
        // taking when that group lets the bot open now: otherwise it would
        // be held back from a meld it cannot make and discarded again, and
        // two such bots passed the same AD to each other forever (a
        // two-player game of `random_bot_games_keep_every_invariant`).
        let opens_now = || {
            let mut with = hand.clone();
            with.push(top);
            let points: u32 = find_groups(&with, rules)
                .iter()
                .map(|g| group_value(rules, g))
                .sum();
            points >= RAMI_OPENING
        };
        let useful = top.is_joker()
            || (opened
                && (group_with(top, hand, rules).is_some()
                    || view.table.iter().any(|m| fits(m, top, rules))))
            || (!opened && group_with(top, hand, rules).is_some() && opens_now());
        if useful {
            return Action::TakeDiscard;
        }
    }
    // The stock is empty only in Rami (Rummy 500 rebuilds it or ends the hand at
    // the start of the turn), where the discard may go straight back.
    if legal(ActionKind::Draw) {
        Action::Draw
    } else {
        Action::TakeDiscard
    }
}

fn play_step(view: &PlayerView) -> Action {
    let rules = view.config.rules;
    let hand = &view.hand;
    let opened =
        rules == RuleSet::Rummy500 || view.players.get(view.seat).is_some_and(|p| p.opened);
    let groups = find_groups(hand, rules);
    if !groups.is_empty() {
        let points: u32 = groups.iter().map(|g| group_value(rules, g)).sum();
        if opened || points >= RAMI_OPENING {
            return Action::Meld { groups };
        }
    }
    if opened {
        // Natural cards first: jokers are kept for melds while a card fits.
        let mut cards: Vec<Card> = hand.clone();
        cards.sort_by_key(|c| c.is_joker());
        for &card in &cards {
            for (i, m) in view.table.iter().enumerate() {
                if card.is_joker() {
                    let mut g = m.clone();
                    g.push(Card::JOKER);
                    if let Some(way) = joker_namings(&g, rules.group_rules()).first()
                        && let Some(&face) = way.first()
                    {
                        return Action::LayOff {
                            meld: i,
                            cards: vec![Card::named_joker(face)],
                        };
                    }
                } else if fits(m, card, rules) {
                    return Action::LayOff {
                        meld: i,
                        cards: vec![card],
                    };
                }
            }
        }
        if rules == RuleSet::Rami {
            for (i, m) in view.table.iter().enumerate() {
                for j in m.iter().filter_map(|c| c.declared()) {
                    let real = Card::from_face(j);
                    if hand.contains(&real) {
                        return Action::ExchangeJoker {
                            meld: i,
                            card: real,
                        };
                    }
                }
            }
        }
    }
    Action::Discard {
        card: pick_discard(hand, rules),
    }
}

/// `card` laid off on meld `m` leaves a valid group.
fn fits(m: &[Card], card: Card, rules: RuleSet) -> bool {
    let mut g = m.to_vec();
    g.push(card);
    validate_group(&g, rules.group_rules()).is_ok()
}

/// Two or more natural hand cards that make a group with `card`.
fn group_with(card: Card, hand: &[Card], rules: RuleSet) -> Option<Vec<Card>> {
    let face = card.natural_face()?;
    let gr = rules.group_rules();
    // A set: other suits of the same rank.
    let mut set: Vec<Card> = Vec::new();
    for &c in hand {
        if let Some(f) = c.natural_face()
            && f.rank() == face.rank()
            && f.suit() != face.suit()
            && !set.iter().any(|s| s.suit() == Some(f.suit()))
        {
            set.push(c);
        }
    }
    if set.len() >= 2 {
        set.truncate(3);
        return Some(set);
    }
    // A run of three holding the card, at any of its three places.
    let pos = |p: i32| -> Option<Card> {
        let rank = match p {
            1 | 14 => 1,
            2..=13 => p as u8,
            _ => return None,
        };
        Some(Card::from_face(Face::new(Rank::new(rank)?, face.suit())))
    };
    let here: Vec<i32> = match face.rank().value() {
        1 => vec![1, 14],
        v => vec![i32::from(v)],
    };
    for p in here {
        for start in [p - 2, p - 1, p] {
            let others: Option<Vec<Card>> = (start..start + 3)
                .filter(|&q| q != p)
                .map(|q| pos(q).filter(|c| hand.contains(c)))
                .collect();
            if let Some(others) = others {
                let mut g = others.clone();
                g.push(card);
                if validate_group(&g, gr).is_ok() {
                    return Some(others);
                }
            }
        }
    }
    None
}

/// Disjoint valid groups found greedily in `hand`: runs, then sets, then pairs
/// and near-runs completed with a joker.
pub(crate) fn find_groups(hand: &[Card], rules: RuleSet) -> Table {
    let gr = rules.group_rules();
    let mut pool: Vec<Card> = hand.to_vec();
    let mut groups: Table = Vec::new();
    let take = |pool: &mut Vec<Card>, cards: &[Card]| {
        for c in cards {
            if let Some(i) = pool.iter().position(|p| p == c) {
                pool.swap_remove(i);
            }
        }
    };
    for suit in Suit::ALL {
        while let Some(run) = longest_run(&pool, suit) {
            take(&mut pool, &run);
            groups.push(run);
        }
    }
    for rank in Rank::all() {
        let mut set: Vec<Card> = Vec::new();
        for suit in Suit::ALL {
            let c = Card::natural(rank, suit);
            if pool.contains(&c) {
                set.push(c);
            }
        }
        if set.len() >= 3 {
            take(&mut pool, &set);
            groups.push(set);
        }
    }
    while pool.contains(&Card::JOKER) {
        let Some(pair) = joker_partner(&pool) else {
            break;
        };
        let mut g = pair.to_vec();
        g.push(Card::JOKER);
        let Some(face) = joker_namings(&g, gr)
            .first()
            .and_then(|w| w.first().copied())
        else {
            break;
        };
        take(&mut pool, &g);
        g[2] = Card::named_joker(face);
        groups.push(g);
    }
    groups.retain(|g| validate_group(g, gr).is_ok());
    groups
}

/// The longest run of one suit in `pool` (3 cards or more), ace low or high.
fn longest_run(pool: &[Card], suit: Suit) -> Option<Vec<Card>> {
    let has = |p: u8| {
        let rank = if p == 14 { 1 } else { p };
        Rank::new(rank).is_some_and(|r| pool.contains(&Card::natural(r, suit)))
    };
    let mut best: Option<(u8, u8)> = None;
    let mut start = 1u8;
    while start <= 14 {
        if !has(start) {
            start += 1;
            continue;
        }
        let mut end = start;
        // Never both aces' places in one run (A-…-K-A is not a run).
        while end < 14 && has(end + 1) && !(start == 1 && end + 1 == 14) {
            end += 1;
        }
        let len = end - start + 1;
        if len >= 3 && best.is_none_or(|(s, e)| e - s + 1 < len) {
            best = Some((start, end));
        }
        start = end + 1;
    }
    let (s, e) = best?;
    (s..=e)
        .map(|p| Rank::new(if p == 14 { 1 } else { p }).map(|r| Card::natural(r, suit)))
        .collect()
}

/// Two natural cards that a joker would turn into a group.
fn joker_partner(pool: &[Card]) -> Option<[Card; 2]> {
    let naturals: Vec<Face> = pool.iter().filter_map(|c| c.natural_face()).collect();
    for (i, a) in naturals.iter().enumerate() {
        for b in &naturals[i + 1..] {
            let same_rank = a.rank() == b.rank() && a.suit() != b.suit();
            let gap = i32::from(a.rank().value()).abs_diff(i32::from(b.rank().value()));
            let near_run = a.suit() == b.suit() && (1..=2).contains(&gap);
            if same_rank || near_run {
                return Some([Card::from_face(*a), Card::from_face(*b)]);
            }
        }
    }
    None
}

/// A card close to a meld: a joker, or a natural with a partner for a set or run.
fn useful(card: Card, index: usize, hand: &[Card]) -> bool {
    let Some(f) = card.natural_face() else {
        return true;
    };
    hand.iter().enumerate().any(|(j, other)| {
        let Some(g) = other.natural_face() else {
            return false;
        };
        if j == index || g == f {
            return false;
        }
        let (a, b) = (f.rank().value(), g.rank().value());
        let near = |x: u8, y: u8| x.abs_diff(y) <= 2;
        let high = |x: u8| if x == 1 { 14 } else { x };
        (a == b) || (f.suit() == g.suit() && (near(a, b) || near(high(a), high(b))))
    })
}

/// The highest card that is not useful (else the highest natural, else any).
fn pick_discard(hand: &[Card], rules: RuleSet) -> Card {
    let key = |c: &Card| (rules.hand_points(*c), *c);
    let useless = hand
        .iter()
        .enumerate()
        .filter(|(i, c)| !useful(**c, *i, hand))
        .map(|(_, c)| *c)
        .max_by_key(key);
    useless
        .or_else(|| {
            hand.iter()
                .copied()
                .filter(|c| !c.is_joker())
                .max_by_key(key)
        })
        .or_else(|| hand.first().copied())
        .unwrap_or(Card::JOKER)
}
