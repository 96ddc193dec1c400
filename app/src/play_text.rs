//! `rami play` (and `rami` alone where no window can open): a game against the
//! computer in the terminal. The player edits a private copy of the table with
//! short commands and plays it with `done`, exactly as a phone would; in the
//! discard rule sets they draw, take, dig, meld, lay off, exchange a joker,
//! claim and discard. Every action the engine lists as legal has a command, and
//! the prompt names the commands, not the engine's action names.
//!
//! Time passes as at a real table: a reader thread hands typed lines over a
//! channel, so the loop can wait for a line *or* the game's next deadline
//! (Rami's move timer and Claim window) and let the engine act on it. The
//! computers claim a discard they want at their moment in the Claim window
//! ([`rami_bots::claim_time`], 1.5 s after the discard), so the person has the
//! first half of the window to claim or draw.

use clap::Args;
use rami_bots::{Level, choose_action, choose_claim, claim_order, claim_time, fallback};
use rami_cards::{Card, CardCounts, format_cards, parse_card, parse_cards, parse_table};
use rami_game::{Action, ActionKind, Event, Game, GameConfig, PlayerView, RuleSet, Seat, Table};
use rami_net::cli::TableOptionArgs;
use std::io::{BufRead, Write};
use std::process::ExitCode;
use std::sync::mpsc::{self, RecvTimeoutError};
use std::time::{Duration, Instant};

#[derive(Args, Default)]
pub struct PlayArgs {
    /// Rule set (default manipulation).
    #[arg(long)]
    rules: Option<String>,
    /// Number of players, you included (default 3).
    #[arg(long)]
    players: Option<usize>,
    /// Seed of the deal (default: from the clock).
    #[arg(long)]
    seed: Option<u64>,
    /// Level of the computer players: `greedy` (quick) or `best` (the exact
    /// move finder's best play).
    #[arg(long, default_value = "greedy")]
    bot_level: Level,
    /// The rule set's table options (the same flags as `rami host`).
    #[command(flatten)]
    table_options: TableOptionArgs,
}

/// The person at the terminal always sits in seat 0; the others are computers.
const ME: Seat = 0;

const HELP: &str = "\
Commands (cards in notation: 7H 10S QD *5H; groups numbered as shown):
 Manipulation rule sets, on your private copy of the table:
  put <cards> [on <group>]   add hand cards to a group of your copy, or as a new group
  move <card> <from> [to]    move a table card to another group (or a new one)
  table <groups>             replace your copy: \"7H 8H 9H | QS QD QC\"
  reset                      put your copy back as the table is
  done                       play your copy (the host checks it)
  knock                      Carousel: play your copy and end the hand
  draw | pass                draw from the stock; pass when it is empty
  touch | giveup             Take back, draw 3: start changing the table; give up (+3)
  endgame                    Shanghai: end the game (the lowest total wins)
 Rummy 500 and Rami:
  draw | take                draw from the stock; take the top of the discard pile
  dig <depth> [<cards>] [on <group>] [as <card>]
                             Rummy 500: take the card <depth> below the top and meld it
                             with <cards> (or lay it off on <group>); `as` names a joker
  meld <cards> [| <cards>...]   put down new groups (a Rami opening may need several)
  layoff <group> <cards>     add hand cards to a group on the table
  exchange <group> <card>    Rami: put <card> in place of the joker in <group>
  discard <card>             end your turn
  claim                      Rami with Claim: take the card just discarded
 Any time:
  show | help | quit         (an empty line lets play go on past a Claim window)";

pub fn run(args: PlayArgs) -> ExitCode {
    let rules: RuleSet = match args.rules.as_deref().unwrap_or("manipulation").parse() {
        Ok(r) => r,
        Err(e) => {
            eprintln!("rami play: {e}");
            return ExitCode::from(2);
        }
    };
    let options = match args.table_options.options() {
        Ok(o) => o,
        Err(e) => {
            eprintln!("rami play: {e}");
            return ExitCode::from(2);
        }
    };
    let seed = args.seed.unwrap_or_else(|| {
        std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(0, |d| d.as_secs())
    });
    let config = GameConfig {
        options,
        ..GameConfig::new(rules, args.players.unwrap_or(3), seed)
    };
    if let Err(e) = config.validate() {
        eprintln!("rami play: {e}");
        return ExitCode::from(2);
    }
    let mut game = match rami_engine::new_game(config) {
        Ok(g) => g,
        Err(e) => {
            eprintln!("rami play: {e}");
            return ExitCode::from(2);
        }
    };
    println!("Rami: {rules} against the computer. You are seat 0. Type `help` for commands.");
    // Lines arrive over a channel so that the loop can also wait for a deadline.
    let (lines_tx, lines) = mpsc::channel::<String>();
    std::thread::spawn(move || {
        for line in std::io::stdin().lock().lines() {
            let Ok(line) = line else { break };
            if lines_tx.send(line).is_err() {
                break;
            }
        }
    });
    let started = Instant::now();
    let now = || u64::try_from(started.elapsed().as_millis()).unwrap_or(u64::MAX);
    let mut copy: Table = game.view(ME).table;
    // An empty line during a Claim window: the computers go on without waiting.
    let mut let_claim_pass = false;
    // What was last shown: a deadline that passes without changing anything
    // the person sees (another player's Claim window) shows nothing again.
    let mut shown: Option<(PlayerView, Table)> = None;
    // The prompt is waiting on its line: what a deadline brings starts a new one.
    let mut at_prompt = false;
    // The computers' claim moment already passed, so not to ask twice.
    let mut claims_asked: Option<u64> = None;
    loop {
        // Deadlines that have passed (and Rami's first move timer, which starts
        // with the game).
        let hand = game.view(ME).hand;
        let events = game.advance_time(now());
        if !events.is_empty() {
            leave_prompt(&mut at_prompt);
            tell(&events, &hand, &game.view(ME).hand);
            copy = game.view(ME).table;
        }
        // The computers' claims, once their moment in the window has come.
        if let Some(at) = computers_claim_at(&game).filter(|&at| at <= now())
            && claims_asked != Some(at)
        {
            claims_asked = Some(at);
            let hand = game.view(ME).hand;
            if let Some(events) = computer_claims(&mut game, now()) {
                leave_prompt(&mut at_prompt);
                tell(&events, &hand, &game.view(ME).hand);
                copy = game.view(ME).table;
            }
        }
        // Computer players move until it is the person's turn, or until the
        // person may claim the card just discarded.
        while let Some(seat) = game.current_player().filter(|&s| s != ME) {
            if !let_claim_pass && game.legal_actions(ME).contains(&ActionKind::Claim) {
                break;
            }
            let_claim_pass = false;
            let view = game.view(seat);
            let Some(action) = choose_action(&view, args.bot_level).or_else(|| fallback(&view))
            else {
                break;
            };
            let hand = game.view(ME).hand;
            let events = match game.apply(seat, action, now()) {
                Ok(e) => e,
                Err(_) => match fallback(&view).map(|a| game.apply(seat, a, now())) {
                    Some(Ok(e)) => e,
                    _ => break,
                },
            };
            leave_prompt(&mut at_prompt);
            tell(&events, &hand, &game.view(ME).hand);
            copy = game.view(ME).table;
        }
        if let Some(outcome) = game.outcome() {
            let winners: Vec<String> = outcome.winners.iter().map(|&s| who(s)).collect();
            println!(
                "Game over. Totals {:?}; {} {}{}",
                outcome.totals,
                if winners.len() > 1 {
                    "winners"
                } else {
                    "winner"
                },
                winners.join(", "),
                if outcome.draw { " (a draw)" } else { "" }
            );
            return ExitCode::SUCCESS;
        }
        let view = game.view(ME);
        if shown.as_ref().is_none_or(|(v, c)| *v != view || *c != copy) {
            leave_prompt(&mut at_prompt);
            show(&view, &copy, now());
            print!("> ");
            let _ = std::io::stdout().flush();
            shown = Some((view.clone(), copy.clone()));
            at_prompt = true;
        }
        // The computers' claim moment, once, is a deadline of the loop's own.
        let claim_at = computers_claim_at(&game).filter(|&at| claims_asked != Some(at));
        let wake = match (game.next_deadline(), claim_at) {
            (Some(a), Some(b)) => Some(a.min(b)),
            (a, b) => a.or(b),
        };
        let line = match wake {
            Some(deadline) => {
                let wait = Duration::from_millis(deadline.saturating_sub(now()));
                match lines.recv_timeout(wait) {
                    Ok(line) => line,
                    // The engine acts on the deadline at the top of the loop.
                    Err(RecvTimeoutError::Timeout) => continue,
                    Err(RecvTimeoutError::Disconnected) => return ExitCode::SUCCESS,
                }
            }
            None => match lines.recv() {
                Ok(line) => line,
                Err(_) => return ExitCode::SUCCESS,
            },
        };
        // Whatever the line did, the table is shown again after it.
        shown = None;
        at_prompt = false;
        let action = match command(&line, &view, &mut copy) {
            Ok(Typed::Act(action)) => action,
            Ok(Typed::Nothing) => {
                let_claim_pass = view.legal.contains(&ActionKind::Claim);
                continue;
            }
            Ok(Typed::Show) => continue,
            Ok(Typed::Help) => {
                println!("{HELP}");
                continue;
            }
            Ok(Typed::Quit) => return ExitCode::SUCCESS,
            Err(e) => {
                println!("{e}");
                continue;
            }
        };
        if matches!(action, Action::Done { .. } | Action::Knock { .. }) && copy == view.table {
            println!("Your copy is the table as it is: add a card first (`put`, `move`, `table`).");
            continue;
        }
        match game.apply(ME, action, now()) {
            Ok(events) => {
                tell(&events, &view.hand, &game.view(ME).hand);
                copy = game.view(ME).table;
            }
            Err(e) => println!("Refused: {e}"),
        }
    }
}

/// When the computers may claim the discard of the open Claim window (Rami
/// with the Claim option), on the game's clock.
fn computers_claim_at<G: Game>(game: &G) -> Option<u64> {
    claim_time(&game.view(game.current_player()?))
}

/// The claim of the first computer, in [`claim_order`], that wants the card
/// of the open Claim window, once their moment has come at `now`: the
/// events of the claim, or `None` when none claims.
fn computer_claims<G: Game>(game: &mut G, now: u64) -> Option<Vec<Event>> {
    let next = game.current_player()?;
    if computers_claim_at(game).is_none_or(|at| now < at) {
        return None;
    }
    claim_order(game.num_players(), next)
        .filter(|&s| s != ME)
        .find_map(|s| {
            let claim = choose_claim(&game.view(s))?;
            game.apply(s, claim, now).ok()
        })
}

/// Ends the prompt's line, if it is waiting, so that what comes next starts
/// its own.
fn leave_prompt(at_prompt: &mut bool) {
    if std::mem::take(at_prompt) {
        println!();
    }
}

/// What one typed line asks for.
#[derive(Debug, PartialEq)]
enum Typed {
    /// An action for the engine.
    Act(Action),
    /// Nothing for the engine (the private copy changed, or `show`): show
    /// the table again.
    Show,
    Help,
    Quit,
    /// An empty line: during a Claim window, let play go on.
    Nothing,
}

/// The command a person types for each kind of action (what the prompt's
/// "You may" lists). Exhaustive, so a new kind of action cannot be forgotten.
fn command_word(kind: ActionKind) -> &'static str {
    match kind {
        ActionKind::Draw => "draw",
        ActionKind::Pass => "pass",
        ActionKind::Done => "done",
        ActionKind::Knock => "knock",
        ActionKind::TouchTable => "touch",
        ActionKind::GiveUp => "giveup",
        ActionKind::EndGame => "endgame",
        ActionKind::TakeDiscard => "take",
        ActionKind::Dig => "dig",
        ActionKind::Meld => "meld",
        ActionKind::LayOff => "layoff",
        ActionKind::ExchangeJoker => "exchange",
        ActionKind::Discard => "discard",
        ActionKind::Claim => "claim",
    }
}

fn cards_arg(words: &[&str]) -> Result<Vec<Card>, String> {
    parse_cards(&words.join(" ")).map_err(|e| e.to_string())
}

/// A group number as shown in brackets.
fn group_arg(word: Option<&&str>, usage: &str) -> Result<usize, String> {
    word.and_then(|w| w.parse::<usize>().ok())
        .ok_or_else(|| format!("usage: {usage}"))
}

/// Turns one typed line into an action, or edits the private copy of the table.
/// An error is a message for the person; nothing has changed then.
fn command(line: &str, view: &PlayerView, copy: &mut Table) -> Result<Typed, String> {
    let words: Vec<&str> = line.split_whitespace().collect();
    let Some((&verb, rest)) = words.split_first() else {
        return Ok(Typed::Nothing);
    };
    let act = |a: Action| Ok(Typed::Act(a));
    match verb.to_ascii_lowercase().as_str() {
        "quit" | "exit" => Ok(Typed::Quit),
        "help" | "?" => Ok(Typed::Help),
        "show" => Ok(Typed::Show),
        "draw" => act(Action::Draw),
        "pass" => act(Action::Pass),
        "giveup" => act(Action::GiveUp),
        "touch" => act(Action::TouchTable),
        "endgame" => act(Action::EndGame),
        "take" => act(Action::TakeDiscard),
        "claim" => act(Action::Claim),
        "done" => act(Action::Done {
            table: copy.clone(),
        }),
        "knock" => act(Action::Knock {
            table: copy.clone(),
        }),
        "reset" => {
            *copy = view.table.clone();
            Ok(Typed::Show)
        }
        "table" => {
            *copy = parse_table(&rest.join(" ")).map_err(|e| e.to_string())?;
            Ok(Typed::Show)
        }
        "put" => {
            let (cards_words, target) = match rest.iter().position(|w| *w == "on") {
                Some(i) => (
                    &rest[..i],
                    Some(group_arg(rest.get(i + 1), "put <cards> on <group>")?),
                ),
                None => (rest, None),
            };
            let cards = cards_arg(cards_words)?;
            if cards.is_empty() {
                return Err("usage: put <cards> [on <group>]".into());
            }
            if !in_hand(&view.hand, &cards) {
                return Err("those cards are not all in your hand".into());
            }
            match target {
                Some(g) if g < copy.len() => copy[g].extend(cards),
                Some(g) => return Err(format!("there is no group {g}")),
                None => copy.push(cards),
            }
            Ok(Typed::Show)
        }
        "move" => {
            const USAGE: &str = "move <card> <from> [to]";
            let card = parse_card(rest.first().ok_or(format!("usage: {USAGE}"))?)
                .map_err(|e| e.to_string())?;
            let from = group_arg(rest.get(1), USAGE)?;
            let group = copy
                .get_mut(from)
                .ok_or_else(|| format!("there is no group {from}"))?;
            let i = group
                .iter()
                .position(|c| *c == card || c.in_hand() == card)
                .ok_or_else(|| format!("{card} is not in group {from}"))?;
            let moved = group.remove(i);
            match rest.get(2).and_then(|w| w.parse::<usize>().ok()) {
                Some(to) if to < copy.len() => copy[to].push(moved),
                _ => copy.push(vec![moved]),
            }
            copy.retain(|g| !g.is_empty());
            Ok(Typed::Show)
        }
        // Several groups in one meld (a Rami opening may need them): `|` between.
        "meld" => act(Action::Meld {
            groups: parse_table(&rest.join(" ")).map_err(|e| e.to_string())?,
        }),
        "layoff" => {
            let meld = group_arg(rest.first(), "layoff <group> <cards>")?;
            act(Action::LayOff {
                meld,
                cards: cards_arg(&rest[1..])?,
            })
        }
        "exchange" => {
            const USAGE: &str = "exchange <group> <card>";
            let meld = group_arg(rest.first(), USAGE)?;
            match cards_arg(&rest[1..])?.as_slice() {
                [card] => act(Action::ExchangeJoker { meld, card: *card }),
                _ => Err(format!("usage: {USAGE}")),
            }
        }
        "discard" => match cards_arg(rest)?.as_slice() {
            [card] => act(Action::Discard { card: *card }),
            _ => Err("discard one card: discard <card>".into()),
        },
        "dig" => {
            const USAGE: &str = "dig <depth> [<cards>] [on <group>] [as <card>]";
            let depth = group_arg(rest.first(), USAGE)?;
            let mut with_words = Vec::new();
            let (mut onto, mut name) = (None, None);
            let mut words = rest[1..].iter();
            while let Some(&w) = words.next() {
                match w {
                    "on" => onto = Some(group_arg(words.next(), USAGE)?),
                    "as" => {
                        let named = parse_card(words.next().ok_or(format!("usage: {USAGE}"))?)
                            .map_err(|e| e.to_string())?;
                        name = Some(named.natural_face().ok_or(format!(
                            "`as` names the card a joker stands for, not a joker: {USAGE}"
                        ))?);
                    }
                    _ => with_words.push(w),
                }
            }
            act(Action::Dig {
                depth,
                with: cards_arg(&with_words)?,
                onto,
                name,
            })
        }
        other => Err(format!("unknown command `{other}` (type help)")),
    }
}

/// Whether `hand` holds every card of `cards` (each copy once; a named joker
/// is the hand's unnamed one).
fn in_hand(hand: &[Card], cards: &[Card]) -> bool {
    let mut left = CardCounts::from_cards(hand);
    cards.iter().all(|c| left.remove(c.in_hand()))
}

/// "You" for the person, "Computer N" for the others.
fn who(seat: Seat) -> String {
    if seat == ME {
        "You".into()
    } else {
        format!("Computer {seat}")
    }
}

fn show(view: &PlayerView, copy: &Table, now: u64) {
    println!();
    if *copy != view.table {
        println!("Your copy of the table (not played yet; `done` plays it, `reset` undoes):");
    } else {
        println!("Table:");
    }
    for (i, g) in copy.iter().enumerate() {
        println!("  [{i}] {}", format_cards(g));
    }
    if !view.discard.is_empty() {
        println!("Discard pile (top last): {}", format_cards(&view.discard));
    }
    let mut hand = view.hand.clone();
    hand.sort_by_key(|c| (c.suit(), c.rank()));
    println!("Your hand: {}", format_cards(&hand));
    let others: Vec<String> = view
        .players
        .iter()
        .enumerate()
        .skip(1)
        .map(|(s, p)| format!("computer {s}: {} cards", p.cards_in_hand))
        .collect();
    let scores: Vec<i64> = view.players.iter().map(|p| p.score).collect();
    println!(
        "Stock {} | {} | totals {:?}",
        view.stock_count,
        others.join(", "),
        scores
    );
    if let Some(hint) = &view.hint {
        println!(
            "Hint: you can play {} (groups {:?}{}); draw again to go on anyway.",
            format_cards(&hint.cards),
            hint.groups,
            if hint.rearrange {
                ", the table must be rearranged"
            } else {
                ""
            }
        );
    }
    let seconds_left = |deadline: u64| deadline.saturating_sub(now).div_ceil(1000);
    if view.legal.contains(&ActionKind::Claim)
        && let (Some(card), Some(deadline)) = (view.discard.last(), view.claim_deadline)
    {
        println!(
            "`claim` takes {card} (and two penalty cards) within {} s; an empty line lets play go on.",
            seconds_left(deadline)
        );
    }
    if view.current == Some(ME)
        && let Some(deadline) = view.move_deadline
    {
        println!("Time left for your move: {} s", seconds_left(deadline));
    }
    let legal: Vec<&str> = view.legal.iter().map(|&k| command_word(k)).collect();
    println!("You may: {}", legal.join(", "));
}

/// Prints what happened. `before` and `after` are the person's hand around
/// the events, so that their own draws name the cards drawn.
fn tell(events: &[Event], before: &[Card], after: &[Card]) {
    let mut kept = CardCounts::from_cards(before);
    let mut drawn: Vec<Card> = after.iter().copied().filter(|&c| !kept.remove(c)).collect();
    for e in events {
        if let Some(line) = describe(e, &mut drawn) {
            println!("{line}");
        }
    }
}

/// One event in words; `drawn` holds the person's new cards, named (and
/// emptied) at their first draw.
fn describe(e: &Event, drawn: &mut Vec<Card>) -> Option<String> {
    let cards = |n: usize| if n == 1 { "card" } else { "cards" };
    let own_draw = |count: usize, drawn: &mut Vec<Card>, penalty: bool| {
        let what = if penalty { "penalty " } else { "" };
        if drawn.is_empty() {
            format!("You drew {count} {what}{}", cards(count))
        } else {
            let named = format_cards(&std::mem::take(drawn));
            format!(
                "You drew {named}{}",
                if penalty { " (penalty)" } else { "" }
            )
        }
    };
    // A card taken from the discard pile is named by its own event, not as drawn.
    if let Event::TookDiscard { seat: ME, card }
    | Event::Claimed { seat: ME, card }
    | Event::Dug { seat: ME, card, .. } = e
        && let Some(i) = drawn.iter().position(|c| c == card)
    {
        drawn.remove(i);
    }
    Some(match e {
        Event::HandStarted { hand, first } => format!(
            "Hand {hand}: {} first.",
            if *first == ME {
                "you play".into()
            } else {
                format!("computer {first} plays")
            }
        ),
        Event::Drew { seat, count } if *seat == ME => own_draw(*count, drawn, false),
        Event::Drew { seat, count } => format!("{} drew {count} {}", who(*seat), cards(*count)),
        Event::PenaltyDrawn { seat, count } if *seat == ME => own_draw(*count, drawn, true),
        Event::PenaltyDrawn { seat, count } => {
            format!("{} drew {count} penalty {}", who(*seat), cards(*count))
        }
        Event::Passed { seat } => format!("{} passed", who(*seat)),
        Event::Reminded { hint, .. } => format!(
            "You can still play {}: draw again to go on anyway.",
            format_cards(&hint.cards)
        ),
        Event::GiveUpArmed { .. } => "Type giveup again to restore the table and draw 3.".into(),
        Event::TablePlayed { seat, played } => {
            format!("{} played {}", who(*seat), format_cards(played))
        }
        Event::Knocked { seat } => format!("{} knocked", who(*seat)),
        Event::TookDiscard { seat, card } => {
            format!("{} took {card} from the discard pile", who(*seat))
        }
        Event::Dug { seat, depth, card } => {
            format!("{} dug {card} from {depth} below the top", who(*seat))
        }
        Event::Melded { seat, groups } => {
            format!("{} melded {}", who(*seat), rami_cards::format_table(groups))
        }
        Event::LaidOff { seat, meld, cards } => {
            format!(
                "{} laid off {} on [{meld}]",
                who(*seat),
                format_cards(cards)
            )
        }
        Event::JokerExchanged { seat, meld, card } => format!(
            "{} put {card} in place of the joker in [{meld}] and took the joker",
            who(*seat)
        ),
        Event::Discarded { seat, card } => format!("{} discarded {card}", who(*seat)),
        Event::Claimed { seat, card } => {
            format!("{} claimed {card} from the discard pile", who(*seat))
        }
        Event::StockReshuffled { size } => {
            format!("The discard pile is the new stock ({size} cards)")
        }
        Event::HandEnded { result } => format!(
            "Hand {} over ({:?}). Points left {:?}; totals {:?}",
            result.hand, result.end, result.hand_points, result.totals
        ),
        Event::Eliminated { seat } if *seat == ME => "You are out: past the points limit.".into(),
        Event::Eliminated { seat } => format!("{} is out: past the points limit", who(*seat)),
        Event::TimedOut { seat } if *seat == ME => {
            "Your time ran out: the computer played for you.".into()
        }
        Event::TimedOut { seat } => format!("{}'s time ran out", who(*seat)),
        Event::TurnStarted { .. } | Event::GameEnded { .. } | Event::ClaimWindowClosed => {
            return None;
        }
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    const KINDS: [ActionKind; 14] = [
        ActionKind::Draw,
        ActionKind::Pass,
        ActionKind::Done,
        ActionKind::Knock,
        ActionKind::TouchTable,
        ActionKind::GiveUp,
        ActionKind::EndGame,
        ActionKind::TakeDiscard,
        ActionKind::Dig,
        ActionKind::Meld,
        ActionKind::LayOff,
        ActionKind::ExchangeJoker,
        ActionKind::Discard,
        ActionKind::Claim,
    ];

    fn view(hand: &str, table: &str) -> PlayerView {
        let config = GameConfig::new(RuleSet::Rami, 2, 1);
        let game = rami_engine::new_game(config).expect("a Rami game");
        let mut view = game.view(ME);
        view.hand = parse_cards(hand).expect("hand");
        view.table = parse_table(table).expect("table");
        view
    }

    fn typed(line: &str) -> Result<Typed, String> {
        let view = view("7H 8H 9H *", "QS QD QC | 4C *5C 6C");
        let mut copy = view.table.clone();
        command(line, &view, &mut copy)
    }

    #[test]
    fn every_word_the_prompt_lists_is_a_command() {
        for kind in KINDS {
            let word = command_word(kind);
            // Each with the arguments its usage asks for.
            let line = match kind {
                ActionKind::Dig => "dig 1".to_string(),
                ActionKind::Meld => "meld 7H 8H 9H".into(),
                ActionKind::LayOff => "layoff 0 7H".into(),
                ActionKind::ExchangeJoker => "exchange 1 5C".into(),
                ActionKind::Discard => "discard 7H".into(),
                _ => word.to_string(),
            };
            match typed(&line) {
                Ok(Typed::Act(action)) => assert_eq!(action.kind(), kind, "{line}"),
                other => panic!("`{line}` gave {other:?}"),
            }
        }
    }

    #[test]
    fn dig_reads_its_cards_the_group_and_the_jokers_name() {
        let Ok(Typed::Act(action)) = typed("dig 2 7H 8H on 1 as 9H") else {
            panic!("dig refused");
        };
        let nine = parse_card("9H").ok().and_then(|c| c.natural_face());
        assert_eq!(
            action,
            Action::Dig {
                depth: 2,
                with: parse_cards("7H 8H").expect("cards"),
                onto: Some(1),
                name: nine,
            }
        );
        assert!(typed("dig").is_err());
        assert!(typed("dig 1 as *").is_err());
        assert!(typed("dig 1 on").is_err());
    }

    #[test]
    fn exchange_names_a_group_and_one_card() {
        assert_eq!(
            typed("exchange 1 5C"),
            Ok(Typed::Act(Action::ExchangeJoker {
                meld: 1,
                card: parse_card("5C").expect("card"),
            }))
        );
        assert!(typed("exchange 1").is_err());
        assert!(typed("exchange 5C").is_err());
        assert!(typed("exchange 1 5C 6C").is_err());
    }

    #[test]
    fn bad_lines_change_nothing_and_say_why() {
        let view = view("7H 8H 9H", "QS QD QC");
        let mut copy = view.table.clone();
        for line in [
            "put 2S",
            "put 7H on 9",
            "put 7H 7H",
            "move QS",
            "move 2S 0",
            "move QS 7",
            "table 7H | ZZ",
            "frobnicate",
            "layoff x 7H",
            "discard 7H 8H",
        ] {
            assert!(command(line, &view, &mut copy).is_err(), "{line}");
            assert_eq!(copy, view.table, "{line} changed the copy");
        }
        assert_eq!(command("put 7H 8H 9H", &view, &mut copy), Ok(Typed::Show));
        assert_eq!(copy.len(), 2);
        assert_eq!(command("reset", &view, &mut copy), Ok(Typed::Show));
        assert_eq!(copy, view.table);
        assert_eq!(command("", &view, &mut copy), Ok(Typed::Nothing));
    }

    /// Four players, Claim on: `hands` (seat 0 first) padded from the rest of
    /// the deck, one card turned up, then `stock` (top first).
    fn rami_dealt(hands: [&str; 4], stock: &str) -> rami_engine::AnyGame {
        let mut config = GameConfig::new(RuleSet::Rami, 4, 1);
        config.options.claim = true;
        let parse = |text: &str| parse_cards(text).expect("test cards");
        let hands: Vec<Vec<Card>> = hands.iter().map(|h| parse(h)).collect();
        config.deck =
            Some(rami_discard::scripted_deck(&config, &hands, &parse(stock)).expect("a deal"));
        rami_engine::new_game(config).expect("a Rami game")
    }

    #[test]
    fn a_computer_claims_the_discard_at_its_moment_and_the_person_hears_of_it() {
        let card = |text: &str| parse_card(text).expect("card");
        // Computer 1 holds K♥ K♦ (and nothing else that goes together);
        // computer 3 discards K♠ at t = 1000, the person in seat 0 is next.
        let mut game = rami_dealt(
            ["2S", "KH KD 2C 8C QC 4S 7S 10S 6D 9D 3H JH 3S", "4D", "KS"],
            "5H AD 5D 5C",
        );
        for (seat, discarded) in [(0, "2S"), (1, "3S"), (2, "4D"), (3, "KS")] {
            game.apply(seat, Action::Draw, 1000).expect("draw");
            let card = card(discarded);
            game.apply(seat, Action::Discard { card }, 1000)
                .expect("discard");
        }
        assert_eq!(game.current_player(), Some(ME));
        // The loop wakes at the computers' moment, half way through the window.
        assert_eq!(computers_claim_at(&game), Some(2500));
        assert_eq!(game.next_deadline(), Some(4000));
        assert!(computer_claims(&mut game, 2499).is_none(), "not yet");
        assert_eq!(game.current_player(), Some(ME));
        let events = computer_claims(&mut game, 2500).expect("computer 1 claims");
        let claimed = Event::Claimed {
            seat: 1,
            card: card("KS"),
        };
        assert!(events.contains(&claimed), "{events:?}");
        assert_eq!(game.current_player(), Some(1), "computer 1 plays now");
        assert_eq!(
            describe(&claimed, &mut Vec::new()),
            Some("Computer 1 claimed KS from the discard pile".into())
        );
        // The window is closed: nothing more to wait for or to claim.
        assert_eq!(computers_claim_at(&game), None);
        assert!(computer_claims(&mut game, 2600).is_none());
    }

    #[test]
    fn the_person_is_you_and_their_draws_name_the_cards() {
        let mut drawn = parse_cards("7D").expect("card");
        assert_eq!(
            describe(&Event::Drew { seat: ME, count: 1 }, &mut drawn),
            Some("You drew 7D".into())
        );
        // Named once: a second draw event in the same batch only counts.
        assert_eq!(
            describe(&Event::Drew { seat: ME, count: 1 }, &mut drawn),
            Some("You drew 1 card".into())
        );
        // A claimed card is the claim's, the penalty cards the draw's.
        let mut drawn = parse_cards("10H 2C 3H").expect("cards");
        let card = parse_card("10H").expect("card");
        assert_eq!(
            describe(&Event::Claimed { seat: ME, card }, &mut drawn),
            Some("You claimed 10H from the discard pile".into())
        );
        assert_eq!(
            describe(&Event::PenaltyDrawn { seat: ME, count: 2 }, &mut drawn),
            Some("You drew 2C 3H (penalty)".into())
        );
        assert_eq!(
            describe(&Event::Drew { seat: 2, count: 3 }, &mut drawn),
            Some("Computer 2 drew 3 cards".into())
        );
        assert_eq!(
            describe(
                &Event::Discarded {
                    seat: ME,
                    card: parse_card("AS").expect("card"),
                },
                &mut drawn
            ),
            Some("You discarded AS".into())
        );
    }
}
