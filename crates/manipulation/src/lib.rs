//! The seven manipulation rummies of `RULES.md` Part 1 (Manipulation, Machiavelli,
//! Shanghai, Guadalupe, Carousel, Vatikan, Tahiti) as one deterministic state
//! machine behind [`rami_game::Game`].
//!
//! A player rebuilds a private copy of the table and submits it whole
//! ([`Action::Done`]); [`proposal`] decides whether that table may follow the
//! current one. Turn flow, dealing and scoring live here; no clock, thread or I/O.

mod deal;

pub use deal::{cards_per_player, composition as deck_composition};
pub mod meld_check;
pub mod proposal;
pub mod scoring;

pub use meld_check::{MeldCheck, MeldCheckBudget};

use rami_cards::Card;
use rami_game::{
    Action, ActionError, ActionKind, ConfigError, Event, Game, GameConfig, HandEnd, HandResult,
    Hint, MustMeldCheck, NotNowReason, Outcome, PlayerPublic, PlayerView, RuleSet, Seat, Table,
    UnfinishedMove,
};
use serde::{Deserialize, Serialize};

/// A position to start from (see [`ManipulationGame::from_position`]).
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Position {
    pub hands: Vec<Vec<Card>>,
    pub table: Table,
    /// The stock, top card first.
    pub stock: Vec<Card>,
    pub current: Seat,
    /// Vatikan: who has made the first meld (empty: nobody).
    pub opened: Vec<bool>,
}

/// Per-turn state; reset when the turn passes.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
struct Turn {
    /// Cards drawn this turn (Carousel counts its 1-3 draws with it).
    draws: u32,
    /// Remind with hint: a hint is showing, so the next Draw/Pass goes on.
    hint: Option<Hint>,
    /// Remind with hint: the last hint shown this turn. The table does not
    /// change within a must-meld turn and the hand only grows, so it is still a
    /// legal play: a later reminder of the same turn shows it again without
    /// asking the move finder.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    shown: Option<Hint>,
    /// Take back, draw 3: the player has started changing the table.
    touched: bool,
    /// Take back, draw 3: Give up was tapped once.
    give_up_armed: bool,
}

/// Carousel after the last card is drawn: everyone has one more turn, ending with
/// the player who drew it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
struct LastRound {
    /// The player who drew the last card: the round ends after their next turn.
    ends_with: Seat,
    /// True once the drawer's own turn (the one in which the stock ran out) ended.
    started: bool,
}

/// A game of one of the seven manipulation rule sets.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ManipulationGame {
    config: GameConfig,
    /// 1-based number of the hand being played.
    hand_number: u32,
    hands: Vec<Vec<Card>>,
    table: Table,
    /// The stock; its top card is the last element.
    stock: Vec<Card>,
    totals: Vec<i64>,
    current: Seat,
    turn: Turn,
    /// Turns in a row that ended without a meld while the stock was empty.
    passes_in_row: usize,
    /// Vatikan: has made the first meld.
    opened: Vec<bool>,
    /// Carousel: hands won so far (25 each at the end).
    hands_won: Vec<u32>,
    last_round: Option<LastRound>,
    last_hand: Option<HandResult>,
    outcome: Option<Outcome>,
    /// How much the must-meld check may ask of the move finder
    /// ([`ManipulationGame::set_meld_check_budget`]).
    #[serde(default, skip_serializing_if = "is_default_budget")]
    meld_budget: MeldCheckBudget,
    /// How often the must-meld check was answered; not part of the game's state.
    #[serde(skip)]
    meld_counts: MeldCounts,
}

fn is_default_budget(b: &MeldCheckBudget) -> bool {
    *b == MeldCheckBudget::DEFAULT
}

/// Must-meld questions answered by the hint already shown this turn (`hits`)
/// and asked of the move finder (`asked`), for tests and benchmarks. Skipped
/// when saving and ignored by `==`: it never changes what the game does.
#[derive(Clone, Copy, Debug, Default)]
struct MeldCounts {
    hits: u64,
    asked: u64,
}

impl PartialEq for MeldCounts {
    fn eq(&self, _: &MeldCounts) -> bool {
        true
    }
}

impl Eq for MeldCounts {}

fn not_now(kind: ActionKind, why: NotNowReason) -> ActionError {
    ActionError::NotNow { kind, why }
}

impl ManipulationGame {
    /// Starts a game: validates the configuration and deals the first hand.
    pub fn new(config: GameConfig) -> Result<ManipulationGame, ConfigError> {
        if !config.rules.is_manipulation() {
            return Err(ConfigError::WrongEngine(config.rules));
        }
        config.validate()?;
        let n = config.players;
        let mut game = ManipulationGame {
            hand_number: 0,
            hands: vec![Vec::new(); n],
            table: Vec::new(),
            stock: Vec::new(),
            totals: vec![0; n],
            current: 0,
            turn: Turn::default(),
            passes_in_row: 0,
            opened: vec![false; n],
            hands_won: vec![0; n],
            last_round: None,
            last_hand: None,
            outcome: None,
            meld_budget: MeldCheckBudget::DEFAULT,
            meld_counts: MeldCounts::default(),
            config,
        };
        let deck = match game.config.deck.clone() {
            Some(deck) => {
                deal::check_explicit_deck(&game.config, &deck)?;
                deck
            }
            None => deal::shuffled_deck(&game.config, 1),
        };
        game.start_hand(deck);
        Ok(game)
    }

    /// Starts the first hand from a given position instead of a deal (tests and
    /// lessons). The cards of hands, table and stock together must be exactly the
    /// rule set's deck; table jokers must be named.
    pub fn from_position(
        config: GameConfig,
        position: Position,
    ) -> Result<ManipulationGame, ConfigError> {
        let mut game = ManipulationGame::new(config)?;
        let n = game.n();
        let mut all: Vec<Card> = position.hands.iter().flatten().copied().collect();
        all.extend(position.table.iter().flatten().map(|c| c.in_hand()));
        all.extend(position.stock.iter().copied());
        deal::check_explicit_deck(&game.config, &all)?;
        if position.hands.len() != n
            || position.current >= n
            || position.table.iter().flatten().any(|c| *c == Card::JOKER)
        {
            return Err(ConfigError::DeckCards {
                rules: game.config.rules,
            });
        }
        game.hands = position
            .hands
            .iter()
            .map(|h| h.iter().map(|c| c.in_hand()).collect())
            .collect();
        game.table = position.table;
        game.stock = position.stock.into_iter().rev().collect();
        game.current = position.current;
        game.opened = if position.opened.len() == n {
            position.opened
        } else {
            vec![false; n]
        };
        Ok(game)
    }

    pub fn config(&self) -> &GameConfig {
        &self.config
    }

    pub fn table(&self) -> &Table {
        &self.table
    }

    pub fn hand(&self, seat: Seat) -> Option<&[Card]> {
        self.hands.get(seat).map(Vec::as_slice)
    }

    /// How much the must-meld check of Remind-with-hint may ask of the move
    /// finder (default [`MeldCheckBudget::DEFAULT`]; saved with the game).
    pub fn set_meld_check_budget(&mut self, budget: MeldCheckBudget) {
        self.meld_budget = budget;
    }

    pub fn meld_check_budget(&self) -> MeldCheckBudget {
        self.meld_budget
    }

    /// Must-meld questions answered from the cache and asked of the finder so
    /// far by this value (not saved; for tests and benchmarks).
    pub fn meld_check_counts(&self) -> (u64, u64) {
        (self.meld_counts.hits, self.meld_counts.asked)
    }

    pub fn stock_len(&self) -> usize {
        self.stock.len()
    }

    /// Every card in the game: hands, table and stock (for conservation checks).
    pub fn all_cards(&self) -> Vec<Card> {
        let mut all: Vec<Card> = self.hands.iter().flatten().copied().collect();
        all.extend(self.table.iter().flatten().map(|c| c.in_hand()));
        all.extend(self.stock.iter().copied());
        all
    }

    fn rules(&self) -> RuleSet {
        self.config.rules
    }

    fn n(&self) -> usize {
        self.config.players
    }

    /// Deals a new hand from `deck` (top card first) and starts its first turn.
    fn start_hand(&mut self, deck: Vec<Card>) {
        self.hand_number += 1;
        let first = (self.hand_number as usize - 1) % self.n();
        let dealt = deal::deal(&self.config, deck, first);
        self.hands = dealt.hands;
        self.table = dealt.table;
        self.stock = dealt.stock;
        self.current = first;
        self.turn = Turn::default();
        self.passes_in_row = 0;
        self.opened = vec![false; self.n()];
        self.last_round = None;
    }

    fn has_must_meld(&self) -> bool {
        matches!(self.rules(), RuleSet::Manipulation | RuleSet::Shanghai)
    }

    fn has_take_back(&self) -> bool {
        matches!(
            self.rules(),
            RuleSet::Machiavelli | RuleSet::Guadalupe | RuleSet::Tahiti
        ) && self.config.options.unfinished_move == UnfinishedMove::TakeBackDrawThree
    }

    fn remind(&self) -> bool {
        self.has_must_meld() && self.config.options.must_meld_check == MustMeldCheck::RemindWithHint
    }

    fn in_last_round(&self) -> bool {
        self.last_round.is_some_and(|r| r.started)
    }

    /// What `seat` may do now.
    fn legal(&self, seat: Seat) -> Vec<ActionKind> {
        use ActionKind as K;
        let mut out = Vec::new();
        if self.outcome.is_some() || seat >= self.n() {
            return out;
        }
        if self.rules() == RuleSet::Shanghai && seat == 0 {
            out.push(K::EndGame);
        }
        if seat != self.current {
            return out;
        }
        let stock_empty = self.stock.is_empty();
        let t = &self.turn;
        match self.rules() {
            RuleSet::Carousel => {
                if self.in_last_round() {
                    out.extend([K::Done, K::Pass]);
                } else if t.draws == 0 {
                    out.push(if stock_empty { K::Pass } else { K::Draw });
                } else {
                    out.push(K::Done);
                    if t.draws <= 2 {
                        out.push(K::Knock);
                    }
                    out.push(if stock_empty { K::Pass } else { K::Draw });
                }
            }
            _ => {
                out.push(K::Done);
                if t.touched {
                    out.push(K::GiveUp);
                } else {
                    out.push(if stock_empty { K::Pass } else { K::Draw });
                    if self.has_take_back() {
                        out.push(K::TouchTable);
                    }
                }
            }
        }
        out
    }

    fn check_turn(&self, seat: Seat, kind: ActionKind) -> Result<(), ActionError> {
        if seat >= self.n() {
            return Err(ActionError::NoSuchSeat(seat));
        }
        if self.outcome.is_some() {
            return Err(ActionError::GameOver);
        }
        if seat != self.current && kind != ActionKind::EndGame {
            return Err(ActionError::NotYourTurn {
                current: self.current,
            });
        }
        Ok(())
    }

    /// The hint for the current player, if the Remind check applies and a play
    /// was found within the budget ([`meld_check`]).
    ///
    /// What the answer depends on is the table and the player's hand. Within a
    /// must-meld turn the table cannot change (a Done ends the turn) and the
    /// hand only grows, and a play stays legal when the hand grows: so the hint
    /// found once in a turn answers every later question of that turn
    /// (`Turn::shown`, reset with the turn, saved with the game so that a
    /// resumed game answers alike). A "no play" answer is not reused: a drawn
    /// card can make a play (the finder keeps its own memo of such hands).
    fn pending_hint(&mut self) -> Option<Hint> {
        if !self.remind() || self.turn.hint.is_some() {
            return None;
        }
        if let Some(shown) = &self.turn.shown {
            self.meld_counts.hits += 1;
            return Some(shown.clone());
        }
        self.meld_counts.asked += 1;
        let answer = meld_check::check(
            self.config.rules,
            self.rules().copies(self.n()),
            &self.table,
            &self.hands[self.current],
            self.meld_budget,
        );
        let hint = answer.hint().cloned();
        self.turn.shown.clone_from(&hint);
        hint
    }

    fn draw_cards(&mut self, seat: Seat, count: usize) -> usize {
        let take = count.min(self.stock.len());
        let at = self.stock.len() - take;
        let drawn: Vec<Card> = self.stock.drain(at..).rev().collect();
        self.hands[seat].extend(drawn);
        take
    }

    fn apply_draw(&mut self, seat: Seat) -> Result<Vec<Event>, ActionError> {
        let kind = ActionKind::Draw;
        if self.turn.touched {
            return Err(not_now(kind, NotNowReason::TableChanged));
        }
        if self.stock.is_empty() {
            return Err(not_now(kind, NotNowReason::StockEmptyPass));
        }
        if self.rules() == RuleSet::Carousel {
            if self.in_last_round() {
                return Err(not_now(kind, NotNowReason::NoDrawInLastTurns));
            }
            if self.turn.draws >= 3 {
                return Err(not_now(kind, NotNowReason::ThreeDraws));
            }
        }
        if let Some(hint) = self.pending_hint() {
            self.turn.hint = Some(hint.clone());
            return Ok(vec![Event::Reminded { seat, hint }]);
        }
        let mut events = Vec::new();
        let count = match self.rules() {
            RuleSet::Guadalupe => 2,
            _ => 1,
        };
        let drawn = self.draw_cards(seat, count);
        self.turn.draws += drawn as u32;
        self.turn.hint = None;
        self.passes_in_row = 0;
        events.push(Event::Drew { seat, count: drawn });
        match self.rules() {
            // Must meld: keep drawing until you can.
            RuleSet::Manipulation | RuleSet::Shanghai => {}
            RuleSet::Carousel => {
                if self.stock.is_empty() {
                    self.last_round = Some(LastRound {
                        ends_with: seat,
                        started: false,
                    });
                }
                if self.turn.draws >= 3 {
                    self.end_turn(&mut events);
                }
            }
            _ => self.end_turn(&mut events),
        }
        Ok(events)
    }

    fn apply_pass(&mut self, seat: Seat) -> Result<Vec<Event>, ActionError> {
        let kind = ActionKind::Pass;
        if self.turn.touched {
            return Err(not_now(kind, NotNowReason::TableChanged));
        }
        let carousel_may_pass = self.rules() == RuleSet::Carousel
            && (self.in_last_round() || self.last_round.is_some());
        if !self.stock.is_empty() && !carousel_may_pass {
            return Err(not_now(kind, NotNowReason::StockNotEmpty));
        }
        if let Some(hint) = self.pending_hint() {
            self.turn.hint = Some(hint.clone());
            return Ok(vec![Event::Reminded { seat, hint }]);
        }
        let mut events = vec![Event::Passed { seat }];
        self.passes_in_row += 1;
        if self.rules() != RuleSet::Carousel && self.passes_in_row >= self.n() {
            self.end_hand(HandEnd::Blocked, &mut events);
        } else {
            self.end_turn(&mut events);
        }
        Ok(events)
    }

    fn apply_touch(&mut self) -> Result<Vec<Event>, ActionError> {
        if !self.has_take_back() {
            return Err(not_now(
                ActionKind::TouchTable,
                NotNowReason::TakeBackOptionOnly,
            ));
        }
        self.turn.touched = true;
        Ok(Vec::new())
    }

    fn apply_give_up(&mut self, seat: Seat) -> Result<Vec<Event>, ActionError> {
        let kind = ActionKind::GiveUp;
        if !self.has_take_back() {
            return Err(not_now(kind, NotNowReason::TakeBackOptionOnly));
        }
        if !self.turn.touched {
            return Err(not_now(kind, NotNowReason::TableUnchanged));
        }
        if !self.turn.give_up_armed {
            self.turn.give_up_armed = true;
            return Ok(vec![Event::GiveUpArmed { seat }]);
        }
        let count = self.draw_cards(seat, 3);
        let mut events = vec![Event::PenaltyDrawn { seat, count }];
        if self.stock.is_empty() && count == 0 {
            self.passes_in_row += 1;
        } else {
            self.passes_in_row = 0;
        }
        if self.passes_in_row >= self.n() {
            self.end_hand(HandEnd::Blocked, &mut events);
        } else {
            self.end_turn(&mut events);
        }
        Ok(events)
    }

    fn apply_table(
        &mut self,
        seat: Seat,
        table: Table,
        knock: bool,
    ) -> Result<Vec<Event>, ActionError> {
        let kind = if knock {
            ActionKind::Knock
        } else {
            ActionKind::Done
        };
        if self.rules() == RuleSet::Carousel && !self.in_last_round() && self.turn.draws == 0 {
            return Err(not_now(kind, NotNowReason::DrawBeforeMeld));
        }
        if knock {
            if self.rules() != RuleSet::Carousel {
                return Err(not_now(kind, NotNowReason::CarouselOnly));
            }
            if self.in_last_round() {
                return Err(not_now(kind, NotNowReason::NoKnockInLastTurns));
            }
            if self.turn.draws > 2 {
                return Err(not_now(kind, NotNowReason::KnockAfterDraw));
            }
        }
        let accepted = proposal::check(
            self.rules(),
            &self.table,
            &self.hands[seat],
            table,
            !self.opened[seat],
            self.rules().copies(self.n()),
        )?;
        let new_hand = accepted.hand_after(&self.hands[seat]);
        if knock {
            let points: u32 = new_hand.iter().map(|&c| self.rules().hand_points(c)).sum();
            if points > 5 {
                return Err(ActionError::KnockTooHigh { points });
            }
        }
        // Accepted: from here on the state changes.
        self.hands[seat] = new_hand;
        self.table = accepted.table;
        self.opened[seat] = true;
        self.passes_in_row = 0;
        let mut events = vec![Event::TablePlayed {
            seat,
            played: accepted.played,
        }];
        if self.hands[seat].is_empty() {
            self.end_hand(HandEnd::WentOut { seat }, &mut events);
            return Ok(events);
        }
        if knock {
            events.push(Event::Knocked { seat });
            self.end_hand(HandEnd::Knocked { seat }, &mut events);
            return Ok(events);
        }
        if self.rules() == RuleSet::Guadalupe && !self.stock.is_empty() {
            let count = self.draw_cards(seat, 1);
            events.push(Event::Drew { seat, count });
        }
        self.end_turn(&mut events);
        Ok(events)
    }

    fn apply_end_game(&mut self, seat: Seat) -> Result<Vec<Event>, ActionError> {
        if self.rules() != RuleSet::Shanghai {
            return Err(not_now(ActionKind::EndGame, NotNowReason::ShanghaiOnly));
        }
        if seat != 0 {
            return Err(not_now(ActionKind::EndGame, NotNowReason::HostOnly));
        }
        let outcome = scoring::lowest_total_wins(&self.totals, Vec::new());
        self.outcome = Some(outcome.clone());
        Ok(vec![Event::GameEnded { outcome }])
    }

    /// Passes the turn to the next player (or ends Carousel's last round).
    fn end_turn(&mut self, events: &mut Vec<Event>) {
        if let Some(round) = self.last_round {
            if round.started && self.current == round.ends_with {
                self.end_hand(HandEnd::StockOut, events);
                return;
            }
            if !round.started && self.current == round.ends_with {
                self.last_round = Some(LastRound {
                    started: true,
                    ..round
                });
            }
        }
        self.current = (self.current + 1) % self.n();
        self.turn = Turn::default();
        events.push(Event::TurnStarted { seat: self.current });
    }

    fn end_hand(&mut self, end: HandEnd, events: &mut Vec<Event>) {
        let scored = scoring::score_hand(
            self.rules(),
            self.hand_number,
            end,
            &self.hands,
            &self.totals,
        );
        for &w in &scored.result.winners {
            self.hands_won[w] += 1;
        }
        self.totals = scored.result.totals.clone();
        events.push(Event::HandEnded {
            result: scored.result.clone(),
        });
        self.last_hand = Some(scored.result);
        let outcome = scoring::game_outcome(
            self.rules(),
            &self.config.options,
            &self.totals,
            &self.hands_won,
            end,
            self.last_hand.as_ref(),
        );
        match outcome {
            Some(outcome) => {
                self.totals = outcome.totals.clone();
                self.outcome = Some(outcome.clone());
                events.push(Event::GameEnded { outcome });
            }
            None => {
                let deck = deal::shuffled_deck(&self.config, self.hand_number + 1);
                self.start_hand(deck);
                events.push(Event::HandStarted {
                    hand: self.hand_number,
                    first: self.current,
                });
                events.push(Event::TurnStarted { seat: self.current });
            }
        }
    }
}

impl Game for ManipulationGame {
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
        self.legal(seat)
    }

    fn apply(&mut self, seat: Seat, action: Action, _now: u64) -> Result<Vec<Event>, ActionError> {
        let kind = action.kind();
        self.check_turn(seat, kind)?;
        if !self.legal(seat).contains(&kind) {
            return Err(match kind {
                ActionKind::GiveUp | ActionKind::TouchTable if !self.has_take_back() => {
                    not_now(kind, NotNowReason::TakeBackOptionOnly)
                }
                ActionKind::Draw if self.turn.touched => not_now(kind, NotNowReason::TableChanged),
                ActionKind::Draw if self.stock.is_empty() => {
                    not_now(kind, NotNowReason::StockEmptyPass)
                }
                ActionKind::Pass if !self.stock.is_empty() => {
                    not_now(kind, NotNowReason::StockNotEmpty)
                }
                ActionKind::Done | ActionKind::Knock
                    if self.rules() == RuleSet::Carousel && self.turn.draws == 0 =>
                {
                    not_now(kind, NotNowReason::DrawBeforeMeld)
                }
                ActionKind::Knock if self.rules() != RuleSet::Carousel => {
                    not_now(kind, NotNowReason::CarouselOnly)
                }
                ActionKind::Knock => not_now(kind, NotNowReason::KnockAfterDraw),
                ActionKind::EndGame => not_now(kind, NotNowReason::HostEndsShanghai),
                _ => not_now(kind, NotNowReason::NoSuchAction),
            });
        }
        match action {
            Action::Draw => self.apply_draw(seat),
            Action::Pass => self.apply_pass(seat),
            Action::Done { table } => self.apply_table(seat, table, false),
            Action::Knock { table } => self.apply_table(seat, table, true),
            Action::TouchTable => self.apply_touch(),
            Action::GiveUp => self.apply_give_up(seat),
            Action::EndGame => self.apply_end_game(seat),
            _ => Err(not_now(kind, NotNowReason::NoSuchAction)),
        }
    }

    fn outcome(&self) -> Option<&Outcome> {
        self.outcome.as_ref()
    }

    fn scores(&self) -> Vec<i64> {
        self.totals.clone()
    }

    fn view(&self, seat: Seat) -> PlayerView {
        let players = (0..self.n())
            .map(|s| PlayerPublic {
                cards_in_hand: self.hands[s].len(),
                score: self.totals[s],
                opened: self.opened[s],
                eliminated: false,
            })
            .collect();
        PlayerView {
            config: (&self.config).into(),
            seat,
            hand: self.hands.get(seat).cloned().unwrap_or_default(),
            table: self.table.clone(),
            table_owners: Vec::new(),
            discard: Vec::new(),
            stock_count: self.stock.len(),
            players,
            current: self.current_player(),
            legal: self.legal(seat),
            hand_number: self.hand_number,
            draws_this_turn: if seat == self.current {
                self.turn.draws
            } else {
                0
            },
            hint: if seat == self.current {
                self.turn.hint.clone()
            } else {
                None
            },
            claim_deadline: None,
            move_deadline: None,
            last_hand: self.last_hand.clone(),
            outcome: self.outcome.clone(),
        }
    }
}
