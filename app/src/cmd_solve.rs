//! `rami solve`: the move finder on the command line, in the JSON of `CLI.md`
//! (single position, or `--batch` JSON lines).

use rami_cards::{Card, parse_cards, parse_table};
use rami_melds::RuleSet;
use rami_solver::{Goal, Play, solve, solve_with_copies};
use serde_json::Value;

fn error_json(message: &str) -> String {
    serde_json::json!({ "error": message }).to_string()
}

fn card_strings(cards: &[Card]) -> Value {
    Value::Array(cards.iter().map(|c| Value::String(c.to_string())).collect())
}

fn table_json(table: &[Vec<Card>]) -> Value {
    Value::Array(table.iter().map(|g| card_strings(g)).collect())
}

/// The result object, fields in the order `CLI.md` shows them.
fn play_json(play: Option<&Play>, input_table: &[Vec<Card>]) -> String {
    let (playable, count, points, played, table, changed, rearranged) = match play {
        Some(p) => (
            true,
            p.count,
            p.points,
            card_strings(&p.played),
            table_json(&p.table),
            serde_json::json!(p.changed),
            p.rearranged,
        ),
        None => (
            false,
            0,
            0,
            Value::Array(Vec::new()),
            table_json(input_table),
            Value::Array(Vec::new()),
            false,
        ),
    };
    format!(
        "{{\"playable\": {playable}, \"count\": {count}, \"points\": {points}, \"played\": {played}, \"table\": {table}, \"changed\": {changed}, \"rearranged\": {rearranged}}}"
    )
}

fn parse_goal(goal: &str) -> Result<Goal, String> {
    match goal.trim().to_ascii_lowercase().as_str() {
        "" | "most-cards" => Ok(Goal::MostCards),
        "most-points" => Ok(Goal::MostPoints),
        "hint" => Ok(Goal::Hint),
        other => Err(format!(
            "unknown goal `{other}`: expected hint, most-cards or most-points"
        )),
    }
}

/// One position: the rule set, table, hand and goal as `CLI.md` writes them,
/// and optionally the number of players, which picks the deck (two-player
/// Carousel plays with one deck, so a joker may not stand for a card whose
/// single copy is down). Without it the deck is the rule set's largest.
fn solve_inner(
    rules: &str,
    table: &str,
    hand: &str,
    goal: &str,
    players: Option<u64>,
) -> Result<String, String> {
    let rules: RuleSet = rules.parse().map_err(|e| format!("{e}"))?;
    let table = parse_table(table).map_err(|e| format!("table: {e}"))?;
    let hand = parse_cards(hand).map_err(|e| format!("hand: {e}"))?;
    let goal = parse_goal(goal)?;
    let copies = match players {
        None => None,
        Some(n @ 2..=7) => Some(rules.copies(n as usize)),
        Some(n) => return Err(format!("players: {n} is not 2 to 7")),
    };
    if !rules.is_manipulation() {
        return opening_json(rules, &table, &hand);
    }
    let play = match copies {
        Some(copies) => solve_with_copies(rules, copies, &table, &hand, goal),
        None => solve(rules, &table, &hand, goal),
    }
    .map_err(|e| e.to_string())?;
    Ok(play_json(play.as_ref(), &table))
}

/// Rummy 500 and Rami: the table is not rebuilt, so the answer is the best opening
/// from the hand alone (new melds; Rami's first meld needs 30 points), added after
/// the table's melds.
fn opening_json(rules: RuleSet, table: &[Vec<Card>], hand: &[Card]) -> Result<String, String> {
    rami_melds::check_table(rules, table)?;
    let opening = rami_solver::best_opening(rules, hand).map_err(|e| e.to_string())?;
    let play = opening.map(|mut p| {
        let mut whole = table.to_vec();
        whole.append(&mut p.table);
        p.table = whole;
        p.changed.clear();
        p
    });
    Ok(play_json(play.as_ref(), table))
}

/// Returns (stdout JSON line, exit code). Single form of `CLI.md`: exit 0 with
/// the result, or `{"error": …}` and exit 2 for an invalid table, bad notation
/// (naming the bad token), impossible cards, an unknown rule set or goal.
pub fn solve_json(
    rules: &str,
    table: &str,
    hand: &str,
    goal: &str,
    players: Option<u64>,
) -> (String, i32) {
    match solve_inner(rules, table, hand, goal, players) {
        Ok(line) => (line, 0),
        Err(message) => (error_json(&message), 2),
    }
}

/// A field of a batch line: a string, or for the table also an array of groups of
/// card strings; absent is empty.
fn field_text(line: &Value, name: &str) -> Result<String, String> {
    match line.get(name) {
        None | Some(Value::Null) => Ok(String::new()),
        Some(Value::String(s)) => Ok(s.clone()),
        Some(Value::Array(groups)) => {
            let mut parts = Vec::new();
            for g in groups {
                match g {
                    Value::Array(cards) => {
                        let names: Option<Vec<&str>> = cards.iter().map(Value::as_str).collect();
                        let names =
                            names.ok_or_else(|| format!("`{name}`: cards must be strings"))?;
                        parts.push(names.join(" "));
                    }
                    Value::String(s) => parts.push(s.clone()),
                    _ => return Err(format!("`{name}`: expected groups of card strings")),
                }
            }
            Ok(if name == "table" {
                parts.join(" | ")
            } else {
                parts.join(" ")
            })
        }
        Some(_) => Err(format!("`{name}` must be a string")),
    }
}

fn batch_line(text: &str) -> Result<String, String> {
    let line: Value = serde_json::from_str(text).map_err(|e| format!("not a JSON object: {e}"))?;
    if !line.is_object() {
        return Err("not a JSON object".to_string());
    }
    let rules = field_text(&line, "rules")?;
    let table = field_text(&line, "table")?;
    let hand = field_text(&line, "hand")?;
    let goal = field_text(&line, "goal")?;
    let players = match line.get("players") {
        None | Some(Value::Null) => None,
        Some(n) => Some(n.as_u64().ok_or("`players` must be a number from 2 to 7")?),
    };
    solve_inner(&rules, &table, &hand, &goal, players)
}

/// `--batch`: reads JSON lines `{"rules","table","hand","goal"}` (and optionally
/// `"players"`, as `--players`) and writes one
/// result object per line, in order (`{"error": …}` for a bad line). Blank lines
/// are skipped. Exit code 0 if every line was solved, 2 if any line was refused.
pub fn solve_batch(input: &mut dyn std::io::BufRead, output: &mut dyn std::io::Write) -> i32 {
    let mut status = 0;
    let mut text = String::new();
    loop {
        text.clear();
        match input.read_line(&mut text) {
            Ok(0) => break,
            Ok(_) => {}
            Err(e) => {
                let _ = writeln!(output, "{}", error_json(&format!("reading input: {e}")));
                return 2;
            }
        }
        if text.trim().is_empty() {
            continue;
        }
        let line = batch_line(text.trim()).unwrap_or_else(|message| {
            status = 2;
            error_json(&message)
        });
        if writeln!(output, "{line}").is_err() {
            return 2;
        }
    }
    let _ = output.flush();
    status
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn single_form() {
        let (out, code) = solve_json("manipulation", "5S 6S 7S", "8S KD", "most-cards", None);
        assert_eq!(code, 0);
        let v: Value = serde_json::from_str(&out).unwrap();
        assert_eq!(v["playable"], true);
        assert_eq!(v["count"], 1);
        assert_eq!(v["played"], serde_json::json!(["8S"]));
        assert_eq!(v["table"], serde_json::json!([["5S", "6S", "7S", "8S"]]));
        assert_eq!(v["changed"], serde_json::json!([0]));
    }

    #[test]
    fn no_play_and_errors() {
        let (out, code) = solve_json("manipulation", "5S 6S 7S", "KD", "hint", None);
        assert_eq!(code, 0);
        let v: Value = serde_json::from_str(&out).unwrap();
        assert_eq!(v["playable"], false);
        assert_eq!(v["table"], serde_json::json!([["5S", "6S", "7S"]]));
        let (out, code) = solve_json("manipulation", "5S 6S 8S", "KD", "hint", None);
        assert_eq!(code, 2);
        assert!(out.contains("group 0"), "{out}");
        let (out, code) = solve_json("manipulation", "5S 6S 7S", "KX", "", None);
        assert_eq!(code, 2);
        assert!(out.contains("`KX`"), "{out}");
        let (_, code) = solve_json("manipulation", "5S 6S 7S", "5S 5S", "", None);
        assert_eq!(code, 2);
    }

    #[test]
    fn players_pick_the_deck() {
        // Two-player Carousel plays with one deck: a second 5H cannot be.
        let (_, code) = solve_json("carousel", "5S 6S 7S", "5H 5H", "", None);
        assert_eq!(code, 0);
        let (out, code) = solve_json("carousel", "5S 6S 7S", "5H 5H", "", Some(2));
        assert_eq!(code, 2);
        assert!(out.contains("holds 1 of 5H"), "{out}");
        let (_, code) = solve_json("carousel", "5S 6S 7S", "5H 5H", "", Some(3));
        assert_eq!(code, 0);
        let (out, code) = solve_json("carousel", "5S 6S 7S", "8S", "", Some(8));
        assert_eq!(code, 2);
        assert!(out.contains("players"), "{out}");
        let input = "{\"rules\":\"carousel\",\"hand\":\"5H 5H\",\"players\":2}\n{\"rules\":\"carousel\",\"hand\":\"5H\",\"players\":\"two\"}\n";
        let mut out = Vec::new();
        assert_eq!(solve_batch(&mut input.as_bytes(), &mut out), 2);
        let text = String::from_utf8(out).unwrap();
        let lines: Vec<&str> = text.lines().collect();
        assert!(lines[0].contains("holds 1 of 5H"), "{text}");
        assert!(lines[1].contains("players"), "{text}");
    }

    #[test]
    fn batch() {
        let input = "{\"rules\":\"shanghai\",\"table\":\"\",\"hand\":\"AS 2S 3S\",\"goal\":\"most-points\"}\n\n{\"rules\":\"nope\"}\n";
        let mut out = Vec::new();
        let code = solve_batch(&mut input.as_bytes(), &mut out);
        let text = String::from_utf8(out).unwrap();
        let lines: Vec<&str> = text.lines().collect();
        assert_eq!(lines.len(), 2);
        assert!(lines[0].contains("\"count\": 3"));
        assert!(lines[1].contains("error"));
        assert_eq!(code, 2);
    }
}
