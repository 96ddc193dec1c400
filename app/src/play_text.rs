//! `rami play` (and `rami` alone, until the windowed app lands): a game against
//! the computer in the terminal. The player edits a private copy of the table
//! with short commands and plays it with `done`, exactly as a phone would.

use clap::Args;
use rami_bots::{Level, choose_action, fallback};
use rami_cards::{Card, format_cards, parse_card, parse_cards, parse_table};
use rami_game::{Action, Event, Game, GameConfig, PlayerView, RuleSet, Table};
use std::io::{BufRead, Write};
use std::process::ExitCode;

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
}

const HELP: &str = "\
Commands (cards in notation: 7H 10S QD *5H; groups numbered as shown):
  put <cards> [on <group>]   add hand cards to a group of your copy, or as a new group
  move <card> <from> [to]    move a table card to another group (or a new one)
  table <groups>             replace your copy: \"7H 8H 9H | QS QD QC\"
  reset                      put your copy back as the table is
  done                       play your copy (the host checks it)
  draw | pass | knock | giveup | touch
  take | dig <depth> <cards> | meld <cards> [| <cards>...] | layoff <group> <cards> | discard <card>
  show | help | quit";

pub fn run(args: PlayArgs) -> ExitCode {
    let rules: RuleSet = match args.rules.as_deref().unwrap_or("manipulation").parse() {
        Ok(r) => r,
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
    let config = GameConfig::new(rules, args.players.unwrap_or(3), seed);
    let mut game = match rami_engine::new_game(config) {
        Ok(g) => g,
        Err(e) => {
            eprintln!("rami play: {e}");
            return ExitCode::from(2);
        }
    };
    println!("Rami: {rules} against the computer. You are seat 0. Type `help` for commands.");
    let stdin = std::io::stdin();
    let mut lines = stdin.lock().lines();
    let mut copy: Table = game.view(0).table;
    let started = std::time::Instant::now();
    let now = || started.elapsed().as_millis() as u64;
    loop {
        // Computer players move until it is the human's turn.
        while let Some(seat) = game.current_player().filter(|&s| s != 0) {
            let view = game.view(seat);
            let action = choose_action(&view, Level::Greedy).or_else(|| fallback(&view));
            let Some(action) = action else { break };
            let events = match game.apply(seat, action, now()) {
                Ok(e) => e,
                Err(_) => match fallback(&view).map(|a| game.apply(seat, a, now())) {
                    Some(Ok(e)) => e,
                    _ => break,
                },
            };
            tell(&events, 0);
            copy = game.view(0).table;
        }
        if let Some(outcome) = game.outcome() {
            println!(
                "Game over. Totals {:?}; winners {:?}{}",
                outcome.totals,
                outcome.winners,
                if outcome.draw { " (a draw)" } else { "" }
            );
            return ExitCode::SUCCESS;
        }
        show(&game.view(0), &copy);
        print!("> ");
        let _ = std::io::stdout().flush();
        let Some(Ok(line)) = lines.next() else {
            return ExitCode::SUCCESS;
        };
        match command(&line, &game.view(0), &mut copy) {
            Ok(Some(Action::Done { .. })) if copy == game.view(0).table => {
                println!("Your copy is the table as it is: add a card first.");
            }
            Ok(Some(action)) => match game.apply(0, action, now()) {
                Ok(events) => {
                    tell(&events, 0);
                    copy = game.view(0).table;
                }
                Err(e) => println!("Refused: {e}"),
            },
            Ok(None) => {}
            Err(Quit) => return ExitCode::SUCCESS,
        }
    }
}

struct Quit;

fn cards_arg(words: &[&str]) -> Result<Vec<Card>, String> {
    parse_cards(&words.join(" ")).map_err(|e| e.to_string())
}

/// Turns one typed line into an action (or edits the private copy).
fn command(line: &str, view: &PlayerView, copy: &mut Table) -> Result<Option<Action>, Quit> {
    let words: Vec<&str> = line.split_whitespace().collect();
    let Some((&verb, rest)) = words.split_first() else {
        return Ok(None);
    };
    let index = |w: Option<&&str>| w.and_then(|w| w.parse::<usize>().ok());
    let result: Result<Option<Action>, String> = match verb {
        "quit" | "exit" => return Err(Quit),
        "help" | "?" => {
            println!("{HELP}");
            Ok(None)
        }
        "show" => Ok(None),
        "draw" => Ok(Some(Action::Draw)),
        "pass" => Ok(Some(Action::Pass)),
        "giveup" => Ok(Some(Action::GiveUp)),
        "touch" => Ok(Some(Action::TouchTable)),
        "take" => Ok(Some(Action::TakeDiscard)),
        "done" => Ok(Some(Action::Done {
            table: copy.clone(),
        })),
        "knock" => Ok(Some(Action::Knock {
            table: copy.clone(),
        })),
        "reset" => {
            *copy = view.table.clone();
            Ok(None)
        }
        "table" => parse_table(&rest.join(" "))
            .map(|t| {
                *copy = t;
                None
            })
            .map_err(|e| e.to_string()),
        "put" => {
            let on = rest.iter().position(|w| *w == "on");
            let (cards_words, target) = match on {
                Some(i) => (&rest[..i], index(rest.get(i + 1))),
                None => (rest, None),
            };
            cards_arg(cards_words).and_then(|cards| {
                if !cards.iter().all(|c| view.hand.contains(&c.in_hand())) {
                    return Err("those cards are not all in your hand".into());
                }
                match target {
                    Some(g) if g < copy.len() => copy[g].extend(cards),
                    Some(g) => return Err(format!("there is no group {g}")),
                    None => copy.push(cards),
                }
                Ok(None)
            })
        }
        "move" => match (rest.first().map(|w| parse_card(w)), index(rest.get(1))) {
            (Some(Ok(card)), Some(from)) if from < copy.len() => {
                match copy[from]
                    .iter()
                    .position(|c| *c == card || c.in_hand() == card)
                {
                    Some(i) => {
                        let moved = copy[from].remove(i);
                        match index(rest.get(2)) {
                            Some(to) if to < copy.len() => copy[to].push(moved),
                            _ => copy.push(vec![moved]),
                        }
                        copy.retain(|g| !g.is_empty());
                        Ok(None)
                    }
                    None => Err(format!("{card} is not in group {from}")),
                }
            }
            _ => Err("usage: move <card> <from> [to]".into()),
        },
        // Several groups in one meld (a Rami opening may need them): `|` between.
        "meld" => parse_table(&rest.join(" "))
            .map(|groups| Some(Action::Meld { groups }))
            .map_err(|e| e.to_string()),
        "layoff" => match index(rest.first()) {
            Some(meld) => cards_arg(&rest[1..]).map(|cards| Some(Action::LayOff { meld, cards })),
            None => Err("usage: layoff <group> <cards>".into()),
        },
        "discard" => cards_arg(rest).and_then(|c| match c.as_slice() {
            [card] => Ok(Some(Action::Discard { card: *card })),
            _ => Err("discard one card".into()),
        }),
        "dig" => match index(rest.first()) {
            Some(depth) => cards_arg(&rest[1..]).map(|with| {
                Some(Action::Dig {
                    depth,
                    with,
                    onto: None,
                    name: None,
                })
            }),
            None => Err("usage: dig <depth> <cards>".into()),
        },
        other => Err(format!("unknown command `{other}` (type help)")),
    };
    match result {
        Ok(a) => Ok(a),
        Err(e) => {
            println!("{e}");
            Ok(None)
        }
    }
}

fn show(view: &PlayerView, copy: &Table) {
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
    let legal: Vec<String> = view
        .legal
        .iter()
        .map(|k| format!("{k:?}").to_lowercase())
        .collect();
    println!("You may: {}", legal.join(", "));
}

fn tell(events: &[Event], me: usize) {
    for e in events {
        match e {
            Event::TablePlayed { seat, played } if *seat != me => {
                println!("Computer {seat} played {}", format_cards(played))
            }
            Event::Drew { seat, count } if *seat != me => println!("Computer {seat} drew {count}"),
            Event::Drew { count, .. } => println!("You drew {count}"),
            Event::Passed { seat } => println!("Seat {seat} passed"),
            Event::Knocked { seat } => println!("Seat {seat} knocked"),
            Event::Discarded { seat, card } => println!("Seat {seat} discarded {card}"),
            Event::Melded { seat, groups } => {
                println!("Seat {seat} melded {}", rami_cards::format_table(groups))
            }
            Event::HandEnded { result } => println!(
                "Hand {} over ({:?}). Points left {:?}; totals {:?}",
                result.hand, result.end, result.hand_points, result.totals
            ),
            Event::Reminded { hint, .. } => println!(
                "You can still play {}: draw again to go on anyway.",
                format_cards(&hint.cards)
            ),
            Event::GiveUpArmed { .. } => {
                println!("Tap giveup again to restore the table and draw 3.")
            }
            _ => {}
        }
    }
}
