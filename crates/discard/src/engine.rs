//! The state machine of Rummy 500 and Rami.
//!
//! Every handler validates the whole action first and mutates only once nothing
//! can fail any more, so a refused action leaves the game exactly as it was
//! without cloning it.

use crate::deal::{cards_per_player, check_explicit_deck, shuffle_stock, shuffled_deck};
use crate::groups::{group_value, judge};
use rami_cards::{Card, CardCounts, Face};
use rami_game::{
    Action, ActionError, ActionKind, Bonus, ConfigError, Deed, Event, Game, GameConfig, HandEnd,
    HandResult, NotNowReason, Outcome, PlayerPublic, PlayerView, RuleSet, Seat, Table,
};
use serde::{Deserialize, Serialize};

/// How long a discard may be claimed (Rami, Claim option), in ms.
pub const CLAIM_WINDOW_MS: u64 = 3000;
/// Points the Rami first meld needs.
pub const RAMI_OPENING: u32 = 30;
/// Most expired deadlines one `advance_time` call plays; a later call goes on
/// (bounds the work when a driver passes a `now` far in the future).
pub const MAX_DEADLINES_PER_CALL: usize = 1000;
/// Rummy 500: the stock is rebuilt at most twice per hand.
const RUMMY500_RESHUFFLES: u32 = 2;

/// Where the player whose turn it is stands in the turn.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
enum Phase {
    /// Must draw, take the discard (or dig) first.
    Draw,
    /// Has drawn: melds, lays off, exchanges, then discards.
    Play,
}

/// Rami, Claim option: the discard that may be claimed, until when.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
struct ClaimWindow {
    card: Card,
    discarder: Seat,
    closes_at: u64,
}

/// A game of Rummy 500 or Rami. Plain data: clone it, compare it, save it with
/// serde and load it to go on exactly where it was.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct DiscardGame {
    config: GameConfig,
    hand_number: u32,
    /// Who played first this hand.
    first: Seat,
    current: Seat,
    phase: Phase,
    hands: Vec<Vec<Card>>,
    /// Face down, top card last.
    stock: Vec<Card>,
    /// Face up, top card last.
    discard: Vec<Card>,
    melds: Table,
    /// Who put down each meld (same order as `melds`).
    owners: Vec<Seat>,
    /// Rummy 500: points of the cards each seat melded or laid off this hand.
    melded_points: Vec<i64>,
    /// Has melded this hand (Rami: made the 30-point first meld).
    opened: Vec<bool>,
    /// Whether the current player had opened when the turn began (rami sec).
    opened_at_turn_start: bool,
    /// Rummy 500: the card taken from the discard pile this turn (no-return rule).
    taken_from_discard: Option<Card>,
    eliminated: Vec<bool>,
    totals: Vec<i64>,
    /// Times the stock was rebuilt this hand.
    reshuffles: u32,
    claim: Option<ClaimWindow>,
    /// When the current turn began; `None` until the driver first gives a time.
    turn_started: Option<u64>,
    /// Turns begun since the game started (for `rami sim`).
    turns: u64,
    last_hand: Option<HandResult>,
    outcome: Option<Outcome>,
}

impl DiscardGame {
    /// Deals the first hand. Refuses rule sets other than Rummy 500 and Rami, bad
    /// options, and an explicit deck that is not the rule set's deck.
    pub fn new(config: GameConfig) -> Result<DiscardGame, ConfigError> {
        if !matches!(config.rules, RuleSet::Rummy500 | RuleSet::Rami) {
            return Err(ConfigError::WrongEngine(config.rules));
        }
        config.validate()?;
        let deck = match &config.deck {
            Some(given) => {
                check_explicit_deck(&config, given)?;
                given.iter().map(|c| c.in_hand()).collect()
            }
            None => shuffled_deck(&config, 1),
        };
        let n = config.players;
        let mut game = DiscardGame {
            config,
            hand_number: 0,
            first: 0,
            current: 0,
            phase: Phase::Draw,
            hands: vec![Vec::new(); n],
            stock: Vec::new(),
            discard: Vec::new(),
            melds: Vec::new(),
            owners: Vec::new(),
            melded_points: vec![0; n],
            opened: vec![false; n],
            opened_at_turn_start: false,
            taken_from_discard: None,
            eliminated: vec![false; n],
            totals: vec![0; n],
            reshuffles: 0,
            claim: None,
            turn_started: None,
            turns: 1,
            last_hand: None,
            outcome: None,
        };
        game.deal(deck, 1, 0);
        Ok(game)
    }

    pub fn config(&self) -> &GameConfig {
        &self.config
    }

    /// Turns begun since the start of the game.
    pub fn turns(&self) -> u64 {
        self.turns
    }

    /// 1-based number of the hand being played.
    pub fn hand_number(&self) -> u32 {
        self.hand_number
    }

    /// The melds on the table.
    pub fn table(&self) -> &Table {
        &self.melds
    }

    /// Every card of the game, wherever it is (stock, discard pile, hands,
    /// melds), jokers unnamed: for checks that cards are conserved.
    pub fn all_cards(&self) -> CardCounts {
        let mut counts = CardCounts::new();
        let all = self
            .stock
            .iter()
            .chain(&self.discard)
            .chain(self.hands.iter().flatten())
            .chain(self.melds.iter().flatten());
        for c in all {
            counts.add(c.in_hand());
        }
        counts
    }

    /// The move timer's deadline for the current player, if any.
    fn move_deadline(&self) -> Option<u64> {
        if self.outcome.is_some() || self.config.rules != RuleSet::Rami {
            return None;
        }
        let limit = self.config.options.move_time_limit_ms?;
        Some(self.turn_started?.saturating_add(limit))
    }

    /// When the open claim window closes: at its 3 seconds, or earlier if the
    /// next player's move timer runs out first (the host then draws for them).
    fn claim_closes_at(&self) -> Option<u64> {
        let w = self.claim.as_ref().filter(|_| self.phase == Phase::Draw)?;
        Some(match self.move_deadline() {
            Some(d) => d.min(w.closes_at),
            None => w.closes_at,
        })
    }

    fn claims_on(&self) -> bool {
        self.config.rules == RuleSet::Rami && self.config.options.claim
    }

    fn next_active(&self, seat: Seat) -> Seat {
        let n = self.config.players;
        (1..=n)
            .map(|i| (seat + i) % n)
            .find(|&s| !self.eliminated[s])
            .unwrap_or(seat)
    }

    /// Deals `deck` (top first) one card at a time from `first`, turns one card
    /// up to start the discard pile, and makes the rest the stock.
    fn deal(&mut self, deck: Vec<Card>, hand: u32, first: Seat) {
        let n = self.config.players;
        let per = cards_per_player(&self.config);
        let order: Vec<Seat> = (0..n)
            .map(|i| (first + i) % n)
            .filter(|&s| !self.eliminated[s])
            .collect();
        let mut cards = deck.into_iter();
        self.hands = vec![Vec::with_capacity(per + 3); n];
        for _ in 0..per {
            for &s in &order {
                if let Some(c) = cards.next() {
                    self.hands[s].push(c);
                }
            }
        }
        self.discard = cards.next().into_iter().collect();
        self.stock = cards.collect();
        self.stock.reverse();
        self.melds.clear();
        self.owners.clear();
        self.melded_points = vec![0; n];
        self.opened = vec![false; n];
        self.reshuffles = 0;
        self.claim = None;
        self.hand_number = hand;
        self.first = first;
        self.current = first;
        self.phase = Phase::Draw;
        self.taken_from_discard = None;
        self.opened_at_turn_start = false;
    }

    /// Turns the discard pile, except its top card, into a new shuffled stock.
    fn renew_stock(&mut self, events: &mut Vec<Event>) {
        let Some(top) = self.discard.pop() else {
            return;
        };
        let mut rest = std::mem::take(&mut self.discard);
        self.reshuffles += 1;
        shuffle_stock(
            &mut rest,
            self.config.seed,
            self.hand_number,
            self.reshuffles,
        );
        self.stock = rest;
        self.discard.push(top);
        events.push(Event::StockReshuffled {
            size: self.stock.len(),
        });
    }

    /// Begins `seat`'s turn at `now`. The stock is checked here (Rummy 500: "at
    /// the start of a turn"): rebuilt from the discard pile, or, in Rummy 500 the
    /// third time it runs out, the hand ends.
    fn start_turn(&mut self, seat: Seat, now: u64, events: &mut Vec<Event>) {
        if self.stock.is_empty() {
            let can_renew = self.discard.len() >= 2;
            match self.config.rules {
                RuleSet::Rummy500 if can_renew && self.reshuffles < RUMMY500_RESHUFFLES => {
                    self.renew_stock(events)
                }
                RuleSet::Rummy500 => return self.end_hand(HandEnd::StockOut, now, events),
                _ if can_renew => self.renew_stock(events),
                // Rami with nothing to rebuild: the player takes the discard.
                _ => {}
            }
        }
        self.current = seat;
        self.phase = Phase::Draw;
        self.taken_from_discard = None;
        self.opened_at_turn_start = self.opened[seat];
        self.turn_started = Some(now);
        self.turns += 1;
        events.push(Event::TurnStarted { seat });
    }

    fn check_seat(&self, seat: Seat) -> Result<(), ActionError> {
        if seat >= self.config.players {
            return Err(ActionError::NoSuchSeat(seat));
        }
        if self.outcome.is_some() {
            return Err(ActionError::GameOver);
        }
        if self.eliminated[seat] {
            return Err(ActionError::SeatEliminated(seat));
        }
        Ok(())
    }

    fn need_phase(&self, kind: ActionKind, phase: Phase) -> Result<(), ActionError> {
        if self.phase == phase {
            return Ok(());
        }
        Err(ActionError::NotNow {
            kind,
            why: match phase {
                Phase::Draw => NotNowReason::AlreadyDrawn,
                Phase::Play => NotNowReason::DrawFirst,
            },
        })
    }

    /// The cards are all in the hand (jokers match whatever name they are given).
    fn check_in_hand(&self, seat: Seat, cards: &[Card], extra: &[Card]) -> Result<(), ActionError> {
        let mut have = CardCounts::from_cards(&self.hands[seat]);
        for &c in extra {
            have.add(c);
        }
        for &c in cards {
            if !have.remove(c) {
                return Err(ActionError::CardNotInHand { card: c });
            }
        }
        Ok(())
    }

    fn remove_from_hand(&mut self, seat: Seat, cards: &[Card]) {
        let hand = &mut self.hands[seat];
        for c in cards {
            let c = c.in_hand();
            if let Some(i) = hand.iter().rposition(|h| *h == c) {
                hand.remove(i);
            }
        }
    }

    /// The one entry point of every action; `timed: false` when the host itself
    /// plays for a player whose time ran out (the deadline is then the `now`).
    fn act(
        &mut self,
        seat: Seat,
        action: Action,
        now: u64,
        timed: bool,
    ) -> Result<Vec<Event>, ActionError> {
        self.check_seat(seat)?;
        if action == Action::Claim {
            return self.claim(seat, now);
        }
        if seat != self.current {
            return Err(ActionError::NotYourTurn {
                current: self.current,
            });
        }
        if let Some(deadline) = self.move_deadline().filter(|&d| timed && now >= d) {
            return Err(ActionError::TimeUp { deadline });
        }
        let mut events = Vec::new();
        match action {
            Action::Draw => self.draw(seat, &mut events)?,
            Action::TakeDiscard => self.take_discard(seat, &mut events)?,
            Action::Dig {
                depth,
                with,
                onto,
                name,
            } => self.dig(seat, depth, &with, onto, name, now, &mut events)?,
            Action::Meld { groups } => self.meld(seat, &groups, now, &mut events)?,
            Action::LayOff { meld, cards } => self.lay_off(seat, meld, &cards, now, &mut events)?,
            Action::ExchangeJoker { meld, card } => self.exchange(seat, meld, card, &mut events)?,
            Action::Discard { card } => self.discard(seat, card, now, &mut events)?,
            other => {
                return Err(ActionError::NotNow {
                    kind: other.kind(),
                    why: NotNowReason::NotInDiscardGames,
                });
            }
        }
        if self.turn_started.is_none() {
            self.turn_started = Some(now);
        }
        Ok(events)
    }

    fn close_claim(&mut self, events: &mut Vec<Event>) {
        if self.claim.take().is_some() {
            events.push(Event::ClaimWindowClosed);
        }
    }

    fn draw(&mut self, seat: Seat, events: &mut Vec<Event>) -> Result<(), ActionError> {
        self.need_phase(ActionKind::Draw, Phase::Draw)?;
        let Some(card) = self.stock.pop() else {
            return Err(ActionError::NotNow {
                kind: ActionKind::Draw,
                why: NotNowReason::StockEmptyTakeDiscard,
            });
        };
        self.hands[seat].push(card);
        self.phase = Phase::Play;
        self.close_claim(events);
        events.push(Event::Drew { seat, count: 1 });
        Ok(())
    }

    fn take_discard(&mut self, seat: Seat, events: &mut Vec<Event>) -> Result<(), ActionError> {
        self.need_phase(ActionKind::TakeDiscard, Phase::Draw)?;
        let Some(card) = self.discard.pop() else {
            return Err(ActionError::NotNow {
                kind: ActionKind::TakeDiscard,
                why: NotNowReason::DiscardEmpty,
            });
        };
        self.hands[seat].push(card);
        self.phase = Phase::Play;
        self.taken_from_discard = Some(card);
        self.close_claim(events);
        events.push(Event::TookDiscard { seat, card });
        Ok(())
    }

    #[allow(clippy::too_many_arguments)]
    fn dig(
        &mut self,
        seat: Seat,
        depth: usize,
        with: &[Card],
        onto: Option<usize>,
        name: Option<Face>,
        now: u64,
        events: &mut Vec<Event>,
    ) -> Result<(), ActionError> {
        if self.config.rules != RuleSet::Rummy500 {
            return Err(ActionError::NotNow {
                kind: ActionKind::Dig,
                why: NotNowReason::DigRummy500Only,
            });
        }
        self.need_phase(ActionKind::Dig, Phase::Draw)?;
        let len = self.discard.len();
        if depth >= len {
            return Err(ActionError::NoSuchDiscard { depth });
        }
        let at = len - 1 - depth;
        let dug = self.discard[at];
        let above = &self.discard[at + 1..];
        let dug_as_played = match (dug.is_joker(), name) {
            (true, Some(face)) => Card::named_joker(face),
            _ => dug,
        };
        // The dug card is melded at once with hand cards and/or the cards picked
        // up above it (decision of Part 2).
        self.check_in_hand(seat, with, above)?;
        let mut group = Vec::with_capacity(with.len() + 4);
        let (index, before) = match onto {
            Some(m) => {
                let meld = self.melds.get(m).ok_or(ActionError::NoSuchMeld(m))?;
                group.extend_from_slice(meld);
                (m, group_value(RuleSet::Rummy500, meld))
            }
            None => (0, 0),
        };
        group.push(dug_as_played);
        group.extend_from_slice(with);
        let (group, _) = judge(&group, RuleSet::Rummy500, index)?;
        // Nothing can fail from here on.
        let picked: Vec<Card> = self.discard.drain(at..).collect();
        self.hands[seat].extend_from_slice(&picked[1..]);
        self.remove_from_hand(seat, with);
        let gained = i64::from(group_value(RuleSet::Rummy500, &group)) - i64::from(before);
        self.melded_points[seat] += gained;
        self.opened[seat] = true;
        self.phase = Phase::Play;
        events.push(Event::Dug {
            seat,
            depth,
            card: dug,
        });
        match onto {
            Some(m) => {
                self.melds[m] = group;
                let mut cards = vec![dug_as_played];
                cards.extend_from_slice(with);
                events.push(Event::LaidOff {
                    seat,
                    meld: m,
                    cards,
                });
            }
            None => {
                self.melds.push(group.clone());
                self.owners.push(seat);
                events.push(Event::Melded {
                    seat,
                    groups: vec![group],
                });
            }
        }
        self.after_putting_down(seat, now, events);
        Ok(())
    }

    fn meld(
        &mut self,
        seat: Seat,
        groups: &Table,
        now: u64,
        events: &mut Vec<Event>,
    ) -> Result<(), ActionError> {
        self.need_phase(ActionKind::Meld, Phase::Play)?;
        if groups.is_empty() {
            return Err(ActionError::NothingPlayed);
        }
        let all: Vec<Card> = groups.iter().flatten().copied().collect();
        self.check_in_hand(seat, &all, &[])?;
        let mut judged = Vec::with_capacity(groups.len());
        for (i, g) in groups.iter().enumerate() {
            judged.push(judge(g, self.config.rules, i)?.0);
        }
        let points: u32 = judged
            .iter()
            .map(|g| group_value(self.config.rules, g))
            .sum();
        if self.config.rules == RuleSet::Rami && !self.opened[seat] && points < RAMI_OPENING {
            return Err(ActionError::OpeningTooLow {
                points,
                needed: RAMI_OPENING,
            });
        }
        self.remove_from_hand(seat, &all);
        self.melded_points[seat] += i64::from(points);
        self.opened[seat] = true;
        for g in &judged {
            self.melds.push(g.clone());
            self.owners.push(seat);
        }
        events.push(Event::Melded {
            seat,
            groups: judged,
        });
        self.after_putting_down(seat, now, events);
        Ok(())
    }

    fn lay_off(
        &mut self,
        seat: Seat,
        meld: usize,
        cards: &[Card],
        now: u64,
        events: &mut Vec<Event>,
    ) -> Result<(), ActionError> {
        self.need_phase(ActionKind::LayOff, Phase::Play)?;
        if self.config.rules == RuleSet::Rami && !self.opened[seat] {
            return Err(ActionError::NotOpened {
                needed: RAMI_OPENING,
                what: Deed::LayOff,
            });
        }
        let target = self.melds.get(meld).ok_or(ActionError::NoSuchMeld(meld))?;
        if cards.is_empty() {
            return Err(ActionError::NothingPlayed);
        }
        self.check_in_hand(seat, cards, &[])?;
        let before = group_value(self.config.rules, target);
        let mut group = target.clone();
        group.extend_from_slice(cards);
        let (group, _) = judge(&group, self.config.rules, meld)?;
        let gained = i64::from(group_value(self.config.rules, &group)) - i64::from(before);
        self.remove_from_hand(seat, cards);
        self.melds[meld] = group;
        self.melded_points[seat] += gained;
        events.push(Event::LaidOff {
            seat,
            meld,
            cards: cards.to_vec(),
        });
        self.after_putting_down(seat, now, events);
        Ok(())
    }

    fn exchange(
        &mut self,
        seat: Seat,
        meld: usize,
        card: Card,
        events: &mut Vec<Event>,
    ) -> Result<(), ActionError> {
        if self.config.rules != RuleSet::Rami {
            return Err(ActionError::NotNow {
                kind: ActionKind::ExchangeJoker,
                why: NotNowReason::JokerStaysRummy500,
            });
        }
        self.need_phase(ActionKind::ExchangeJoker, Phase::Play)?;
        if !self.opened[seat] {
            return Err(ActionError::NotOpened {
                needed: RAMI_OPENING,
                what: Deed::ExchangeJoker,
            });
        }
        let target = self.melds.get(meld).ok_or(ActionError::NoSuchMeld(meld))?;
        let Some(face) = card.natural_face() else {
            return Err(ActionError::ExchangeNeedsRealCard { card });
        };
        self.check_in_hand(seat, &[card], &[])?;
        let Some(pos) = target.iter().position(|c| c.declared() == Some(face)) else {
            return Err(ActionError::NoJokerFor { meld, face });
        };
        // The real card takes the joker's place, so the group stays as valid as it was.
        self.melds[meld][pos] = card;
        self.remove_from_hand(seat, &[card]);
        self.hands[seat].push(Card::JOKER);
        events.push(Event::JokerExchanged { seat, meld, card });
        Ok(())
    }

    fn discard(
        &mut self,
        seat: Seat,
        card: Card,
        now: u64,
        events: &mut Vec<Event>,
    ) -> Result<(), ActionError> {
        self.need_phase(ActionKind::Discard, Phase::Play)?;
        let card = card.in_hand();
        self.check_in_hand(seat, &[card], &[])?;
        let hand = &self.hands[seat];
        // No-return rule (Rummy 500): copies cannot be told apart, so another copy
        // of the taken card in hand may still go.
        if self.config.rules == RuleSet::Rummy500
            && self.taken_from_discard == Some(card)
            && hand.len() > 1
            && hand.iter().filter(|&&c| c == card).count() < 2
        {
            return Err(ActionError::DiscardTakenBack { card });
        }
        self.remove_from_hand(seat, &[card]);
        self.discard.push(card);
        events.push(Event::Discarded { seat, card });
        if self.hands[seat].is_empty() {
            self.end_hand(HandEnd::WentOut { seat }, now, events);
            return Ok(());
        }
        if self.claims_on() {
            self.claim = Some(ClaimWindow {
                card,
                discarder: seat,
                closes_at: now.saturating_add(CLAIM_WINDOW_MS),
            });
        }
        let next = self.next_active(seat);
        self.start_turn(next, now, events);
        Ok(())
    }

    /// After a meld, lay-off or dig: an empty hand goes out.
    fn after_putting_down(&mut self, seat: Seat, now: u64, events: &mut Vec<Event>) {
        if self.hands[seat].is_empty() {
            self.end_hand(HandEnd::WentOut { seat }, now, events);
        }
    }

    fn claim(&mut self, seat: Seat, now: u64) -> Result<Vec<Event>, ActionError> {
        let not_now = |why| {
            Err(ActionError::NotNow {
                kind: ActionKind::Claim,
                why,
            })
        };
        if !self.claims_on() {
            return not_now(NotNowReason::ClaimOff);
        }
        // The next player's timeout would draw for them, closing the window too.
        let closes_at = self.claim_closes_at().unwrap_or(0);
        let window = match &self.claim {
            Some(w) if self.phase == Phase::Draw && now < closes_at => w,
            Some(_) => return not_now(NotNowReason::ClaimClosed),
            None => return not_now(NotNowReason::NothingToClaim),
        };
        if seat == window.discarder {
            return not_now(NotNowReason::OwnDiscard);
        }
        if seat == self.current {
            return not_now(NotNowReason::NextPlayerTakes);
        }
        let mut events = Vec::new();
        self.claim = None;
        let Some(card) = self.discard.pop() else {
            return not_now(NotNowReason::NothingToClaim);
        };
        self.hands[seat].push(card);
        events.push(Event::Claimed { seat, card });
        // Two penalty cards from the stock (fewer if even a rebuilt stock has fewer).
        let mut count = 0;
        for _ in 0..2 {
            if self.stock.is_empty() && self.discard.len() >= 2 {
                self.renew_stock(&mut events);
            }
            if let Some(c) = self.stock.pop() {
                self.hands[seat].push(c);
                count += 1;
            }
        }
        events.push(Event::PenaltyDrawn { seat, count });
        // The claimer plays at once, draw step done; play goes on from them.
        self.current = seat;
        self.phase = Phase::Play;
        self.taken_from_discard = None;
        self.opened_at_turn_start = self.opened[seat];
        self.turn_started = Some(now);
        self.turns += 1;
        events.push(Event::TurnStarted { seat });
        Ok(events)
    }

    fn end_hand(&mut self, end: HandEnd, now: u64, events: &mut Vec<Event>) {
        let n = self.config.players;
        let rules = self.config.rules;
        let hand_points: Vec<i64> = self
            .hands
            .iter()
            .map(|h| h.iter().map(|&c| i64::from(rules.hand_points(c))).sum())
            .collect();
        let mut bonuses = Vec::new();
        let deltas: Vec<i64> = match rules {
            // Each scores what they melded minus what they hold.
            RuleSet::Rummy500 => (0..n)
                .map(|s| self.melded_points[s] - hand_points[s])
                .collect(),
            _ => {
                let sec = match end {
                    HandEnd::WentOut { seat } if !self.opened_at_turn_start => Some(seat),
                    _ => None,
                };
                (0..n)
                    .map(|s| {
                        if self.eliminated[s] {
                            return 0;
                        }
                        let p = hand_points[s];
                        if sec.is_some_and(|w| w != s) && p > 0 {
                            bonuses.push((s, Bonus::RamiSec, p));
                            return 2 * p;
                        }
                        p
                    })
                    .collect()
            }
        };
        for (t, d) in self.totals.iter_mut().zip(&deltas) {
            *t += d;
        }
        let active: Vec<Seat> = (0..n).filter(|&s| !self.eliminated[s]).collect();
        let winners = match (rules, end) {
            (RuleSet::Rami, HandEnd::WentOut { seat }) => vec![seat],
            (RuleSet::Rami, _) => best(&active, |s| -deltas[s]),
            _ => best(&active, |s| deltas[s]),
        };
        let result = HandResult {
            hand: self.hand_number,
            end,
            winners,
            hands_left: self.hands.clone(),
            hand_points,
            deltas,
            bonuses: bonuses.clone(),
            totals: self.totals.clone(),
        };
        events.push(Event::HandEnded {
            result: result.clone(),
        });
        self.last_hand = Some(result);
        self.claim = None;
        let game_winners = match rules {
            RuleSet::Rummy500 => {
                let target = i64::from(self.config.options.target);
                self.totals
                    .iter()
                    .any(|&t| t >= target)
                    .then(|| best(&active, |s| self.totals[s]))
            }
            _ if self.config.options.points_limit <= 1 => Some(best(&active, |s| -self.totals[s])),
            _ => {
                let limit = i64::from(self.config.options.points_limit);
                for &s in &active {
                    if self.totals[s] > limit {
                        self.eliminated[s] = true;
                        events.push(Event::Eliminated { seat: s });
                    }
                }
                let left: Vec<Seat> = (0..n).filter(|&s| !self.eliminated[s]).collect();
                (left.len() <= 1).then_some(left)
            }
        };
        if let Some(winners) = game_winners {
            let outcome = Outcome {
                winners,
                draw: false,
                totals: self.totals.clone(),
                bonuses,
            };
            events.push(Event::GameEnded {
                outcome: outcome.clone(),
            });
            self.outcome = Some(outcome);
            return;
        }
        let hand = self.hand_number + 1;
        let first = self.next_active(self.first);
        self.deal(shuffled_deck(&self.config, hand), hand, first);
        events.push(Event::HandStarted { hand, first });
        self.start_turn(first, now, events);
    }

    /// The host plays for the current player whose time ran out at `at`: draws
    /// from the stock (the discard if the stock is empty) if they had not drawn,
    /// then discards their highest-penalty card. Melds already made stay.
    fn play_for_timed_out(&mut self, at: u64, events: &mut Vec<Event>) {
        let seat = self.current;
        events.push(Event::TimedOut { seat });
        if self.phase == Phase::Draw {
            let drew = match self.act(seat, Action::Draw, at, false) {
                Ok(e) => Ok(e),
                Err(_) => self.act(seat, Action::TakeDiscard, at, false),
            };
            match drew {
                Ok(e) => events.extend(e),
                // Nothing to draw at all: the hand cannot go on.
                Err(_) => return self.end_hand(HandEnd::Blocked, at, events),
            }
        }
        if let Some(card) = self.timeout_discard(seat)
            && let Ok(e) = self.act(seat, Action::Discard { card }, at, false)
        {
            events.extend(e);
        }
    }

    /// The card the host discards for a timed-out player: the highest penalty
    /// (ties: the highest card), never the card the no-return rule keeps.
    fn timeout_discard(&self, seat: Seat) -> Option<Card> {
        let hand = &self.hands[seat];
        let rules = self.config.rules;
        let allowed = |c: &Card| {
            rules != RuleSet::Rummy500
                || self.taken_from_discard != Some(*c)
                || hand.len() == 1
                || hand.iter().filter(|&h| h == c).count() >= 2
        };
        hand.iter()
            .copied()
            .filter(allowed)
            .max_by_key(|&c| (rules.hand_points(c), c))
    }
}

/// The seats of `among` with the highest `key`.
fn best(among: &[Seat], key: impl Fn(Seat) -> i64) -> Vec<Seat> {
    let Some(top) = among.iter().map(|&s| key(s)).max() else {
        return Vec::new();
    };
    among.iter().copied().filter(|&s| key(s) == top).collect()
}

impl Game for DiscardGame {
    fn rules(&self) -> RuleSet {
        self.config.rules
    }

    fn num_players(&self) -> usize {
        self.config.players
    }

    fn current_player(&self) -> Option<Seat> {
        self.outcome.is_none().then_some(self.current)
    }

    fn legal_actions(&self, seat: Seat) -> Vec<ActionKind> {
        if self.check_seat(seat).is_err() {
            return Vec::new();
        }
        let rami = self.config.rules == RuleSet::Rami;
        let mut out = Vec::new();
        if seat != self.current {
            if let Some(w) = &self.claim
                && self.claims_on()
                && self.phase == Phase::Draw
                && seat != w.discarder
            {
                out.push(ActionKind::Claim);
            }
            return out;
        }
        match self.phase {
            Phase::Draw => {
                if !self.stock.is_empty() {
                    out.push(ActionKind::Draw);
                }
                if !self.discard.is_empty() {
                    out.push(ActionKind::TakeDiscard);
                    if !rami {
                        out.push(ActionKind::Dig);
                    }
                }
            }
            Phase::Play => {
                out.push(ActionKind::Meld);
                if !self.melds.is_empty() && (!rami || self.opened[seat]) {
                    out.push(ActionKind::LayOff);
                }
                if rami && self.opened[seat] && self.melds.iter().flatten().any(|c| c.is_joker()) {
                    out.push(ActionKind::ExchangeJoker);
                }
                out.push(ActionKind::Discard);
            }
        }
        out
    }

    fn apply(&mut self, seat: Seat, action: Action, now: u64) -> Result<Vec<Event>, ActionError> {
        self.act(seat, action, now, true)
    }

    fn next_deadline(&self) -> Option<u64> {
        if self.outcome.is_some() {
            return None;
        }
        let claim = self.claim.as_ref().map(|w| w.closes_at);
        match (claim, self.move_deadline()) {
            (Some(a), Some(b)) => Some(a.min(b)),
            (a, b) => a.or(b),
        }
    }

    /// Also starts the move timer of the very first turn when the driver has not
    /// given a time yet (a game is created without one).
    fn advance_time(&mut self, now: u64) -> Vec<Event> {
        let mut events = Vec::new();
        if self.outcome.is_some() {
            return events;
        }
        if self.turn_started.is_none() && self.config.options.move_time_limit_ms.is_some() {
            self.turn_started = Some(now);
        }
        for _ in 0..MAX_DEADLINES_PER_CALL {
            let claim = self.claim.as_ref().map(|w| w.closes_at);
            let timer = self.move_deadline();
            match (claim, timer) {
                // The claim window goes first when both are due at once: the
                // discard it covers was made before the timer of the next turn.
                (Some(c), t) if c <= now && t.is_none_or(|t| c <= t) => {
                    self.close_claim(&mut events)
                }
                (_, Some(t)) if t <= now => self.play_for_timed_out(t, &mut events),
                _ => break,
            }
            if self.outcome.is_some() {
                break;
            }
        }
        events
    }

    fn outcome(&self) -> Option<&Outcome> {
        self.outcome.as_ref()
    }

    fn scores(&self) -> Vec<i64> {
        self.totals.clone()
    }

    fn view(&self, seat: Seat) -> PlayerView {
        let players = (0..self.config.players)
            .map(|s| PlayerPublic {
                cards_in_hand: self.hands[s].len(),
                score: self.totals[s],
                opened: self.opened[s],
                eliminated: self.eliminated[s],
            })
            .collect();
        PlayerView {
            config: (&self.config).into(),
            seat,
            hand: self.hands.get(seat).cloned().unwrap_or_default(),
            table: self.melds.clone(),
            table_owners: if self.config.rules == RuleSet::Rummy500 {
                self.owners.clone()
            } else {
                Vec::new()
            },
            discard: self.discard.clone(),
            stock_count: self.stock.len(),
            players,
            current: self.current_player(),
            legal: self.legal_actions(seat),
            hand_number: self.hand_number,
            draws_this_turn: u32::from(self.phase == Phase::Play && self.outcome.is_none()),
            hint: None,
            claim_deadline: self.claim_closes_at(),
            move_deadline: self.move_deadline(),
            last_hand: self.last_hand.clone(),
            outcome: self.outcome.clone(),
        }
    }
}
