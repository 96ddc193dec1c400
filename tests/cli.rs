//! The command-line forms of CLI.md, run as a user would run them.

use std::process::Command;

fn rami(args: &[&str]) -> (String, String, i32) {
    let out = Command::new(env!("CARGO_BIN_EXE_rami"))
        .args(args)
        .output()
        .expect("run rami");
    (
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
        out.status.code().unwrap_or(-1),
    )
}

fn json(line: &str) -> serde_json::Value {
    serde_json::from_str(line).expect("one JSON object")
}

#[test]
fn check_says_valid_or_names_the_first_bad_group() {
    let (out, _, code) = rami(&[
        "check",
        "--rules",
        "manipulation",
        "--table",
        "QS KS AS | 7H 7D 7C",
    ]);
    assert_eq!(code, 0);
    assert_eq!(json(out.trim()), serde_json::json!({"valid": true}));

    let (out, _, code) = rami(&[
        "check",
        "--rules",
        "shanghai",
        "--table",
        "QS KS AS | 7H 7D 7C",
    ]);
    assert_eq!(code, 0);
    let v = json(out.trim());
    assert_eq!(v["valid"], false);
    assert!(v["error"].as_str().unwrap().contains("group 0"), "{v}");

    let (out, _, code) = rami(&["check", "--rules", "tahiti", "--table", ""]);
    assert_eq!(
        (json(out.trim())["valid"].clone(), code),
        (serde_json::json!(true), 0)
    );
}

#[test]
fn bad_notation_names_the_token_with_exit_status_2() {
    let (out, err, code) = rami(&["check", "--rules", "manipulation", "--table", "QS KX AS"]);
    assert_eq!(code, 2);
    assert!(out.is_empty());
    assert!(err.contains("`KX`"), "{err}");
    let (_, err, code) = rami(&["check", "--rules", "poker", "--table", ""]);
    assert_eq!(code, 2);
    assert!(err.contains("poker"));
}

fn without_speed(out: &str) -> Vec<serde_json::Value> {
    out.lines()
        .map(|l| {
            let mut v = json(l);
            if let Some(o) = v.as_object_mut() {
                o.remove("games_per_second");
            }
            v
        })
        .collect()
}

#[test]
fn sim_prints_a_line_per_game_and_the_same_output_twice() {
    for rules in [
        "manipulation",
        "machiavelli",
        "shanghai",
        "guadalupe",
        "carousel",
        "vatikan",
        "tahiti",
        "rummy500",
        "rami",
    ] {
        let args = [
            "sim",
            "--rules",
            rules,
            "--players",
            "2",
            "--games",
            "2",
            "--seed",
            "1",
        ];
        let (a, err, code) = rami(&args);
        assert_eq!(code, 0, "{rules}: {err}");
        let (b, _, _) = rami(&args);
        let lines = without_speed(&a);
        assert_eq!(lines, without_speed(&b), "{rules}: same seed, same output");
        assert_eq!(lines.len(), 3);
        for (i, game) in lines[..2].iter().enumerate() {
            assert_eq!(game["game"], i);
            assert_eq!(game["seed"], 1 + i);
            assert_eq!(game["scores"].as_array().unwrap().len(), 2);
            assert!(game["turns"].as_u64().unwrap() > 0);
            assert_eq!(game["finished"], true, "{rules}: {game}");
        }
        let summary = &json(a.lines().last().unwrap());
        assert_eq!(summary["games"], 2);
        assert!(summary["games_per_second"].is_number());
        assert_eq!(summary["wins"].as_array().unwrap().len(), 2);
    }
}

#[test]
fn sim_takes_the_table_options_and_counts_claims() {
    let claims = |extra: &[&str]| -> u64 {
        let mut args = vec![
            "sim",
            "--rules",
            "rami",
            "--players",
            "4",
            "--games",
            "3",
            "--seed",
            "5",
        ];
        args.extend_from_slice(extra);
        let (out, err, code) = rami(&args);
        assert_eq!(code, 0, "{err}");
        let lines = without_speed(&out);
        lines[..3]
            .iter()
            .map(|game| {
                assert_eq!(game["finished"], true, "{game}");
                game["claims"].as_u64().expect("a claims count")
            })
            .sum()
    };
    assert_eq!(claims(&[]), 0, "the Claim button is off by default");
    assert!(claims(&["--claim"]) > 0, "computers claim with --claim");
    let (_, err, code) = rami(&[
        "sim",
        "--rules",
        "rami",
        "--players",
        "3",
        "--points-limit",
        "7",
    ]);
    assert_eq!(code, 2, "{err}");
}

#[test]
fn help_describes_every_subcommand() {
    let (out, _, code) = rami(&["--help"]);
    assert_eq!(code, 0);
    for sub in ["play", "check", "sim"] {
        assert!(out.contains(sub), "{sub} missing from --help");
    }
}

#[test]
fn solve_answers_in_the_json_of_cli_md() {
    let (out, _, code) = rami(&[
        "solve",
        "--rules",
        "manipulation",
        "--table",
        "7H 7D 7S",
        "--hand",
        "7C 8H 9H 10H 2S",
    ]);
    assert_eq!(code, 0);
    let v = json(out.trim());
    assert_eq!(v["playable"], true);
    assert_eq!(v["count"], 4);
    assert_eq!(v["changed"], serde_json::json!([0]));
    let (out, _, code) = rami(&[
        "solve",
        "--rules",
        "manipulation",
        "--table",
        "7H 7D",
        "--hand",
        "7C",
    ]);
    assert_eq!(code, 2);
    assert!(
        json(out.trim())["error"]
            .as_str()
            .unwrap()
            .contains("group 0")
    );
}

#[test]
fn solve_gives_openings_for_the_discard_rule_sets() {
    // Rami: 7-8-9 of hearts (24) is under 30; with K K K (30) the opening is 54.
    let (out, _, code) = rami(&[
        "solve",
        "--rules",
        "rami",
        "--table",
        "",
        "--hand",
        "7H 8H 9H KS KD KC 2C",
    ]);
    assert_eq!(code, 0, "{out}");
    let v = json(out.trim());
    assert_eq!(v["playable"], true, "{v}");
    assert_eq!(v["count"], 6);
    let (out, _, _) = rami(&[
        "solve",
        "--rules",
        "rami",
        "--table",
        "",
        "--hand",
        "7H 8H 9H 2C",
    ]);
    assert_eq!(json(out.trim())["playable"], false, "24 points do not open");
    let (out, _, code) = rami(&[
        "solve",
        "--rules",
        "rummy500",
        "--table",
        "5S 6S 7S",
        "--hand",
        "7H 8H 9H 2C",
    ]);
    assert_eq!(code, 0);
    let v = json(out.trim());
    assert_eq!(v["table"].as_array().unwrap().len(), 2, "{v}");
}

#[test]
fn play_melds_several_groups_at_once_for_a_rami_opening() {
    // Seed 1 deals seat 0 7H 7D 7C and KH KD KC: 21 alone is too low to open,
    // 21 + 30 in one meld opens.
    let (text, _, code) = play(
        &["--rules", "rami", "--players", "2", "--seed", "1"],
        "draw\nmeld 7H 7D 7C\nmeld 7H 7D 7C | KH KD KC\nquit\n",
    );
    assert_eq!(code, 0);
    assert!(text.contains("these groups make 21"), "{text}");
    assert!(text.contains("You melded 7H 7D 7C | KH KD KC"), "{text}");
}

/// `rami play` with its input typed in one go, closed at the end.
fn play(args: &[&str], input: &str) -> (String, String, i32) {
    use std::io::Write;
    use std::process::Stdio;
    let mut child = Command::new(env!("CARGO_BIN_EXE_rami"))
        .arg("play")
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("run rami play");
    child
        .stdin
        .take()
        .expect("stdin")
        .write_all(input.as_bytes())
        .expect("write");
    let out = child.wait_with_output().expect("wait");
    (
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
        out.status.code().unwrap_or(-1),
    )
}

#[test]
fn play_lists_the_commands_it_knows_and_the_host_ends_shanghai() {
    let (out, _, code) = play(
        &["--rules", "shanghai", "--players", "2", "--seed", "1"],
        "endgame\n",
    );
    assert_eq!(code, 0);
    // The prompt names commands (`endgame`), not the engine's action names.
    assert!(out.contains("You may: endgame, done, draw"), "{out}");
    assert!(out.contains("Game over."), "{out}");
}

#[test]
fn play_refusals_name_the_action_in_words() {
    let (out, _, code) = play(
        &["--rules", "rummy500", "--players", "2", "--seed", "1"],
        "take\ntake\nquit\n",
    );
    assert_eq!(code, 0);
    assert!(out.contains("You may: draw, take, dig"), "{out}");
    assert!(out.contains("You took KS from the discard pile"), "{out}");
    assert!(
        out.contains("Refused: Taking the discard is not possible now: you have already drawn"),
        "{out}"
    );
}

#[test]
fn play_refuses_table_options_outside_the_rule_book() {
    for args in [
        &["--rules", "rami", "--points-limit", "7"][..],
        &["--rules", "machiavelli", "--unfinished-move", "later"][..],
        &["--rules", "manipulation", "--players", "9"][..],
    ] {
        let (out, err, code) = play(args, "quit\n");
        assert_eq!(code, 2, "{args:?}: {out}{err}");
        assert!(err.starts_with("rami play: "), "{args:?}: {err}");
    }
}

/// A Rami table with the Claim button and a move timer, played in real time:
/// the person's time runs out (the computer plays for them), then they claim
/// the card the next computer discards. Seed 3: computer 1 discards while
/// computer 2 is next, so seat 0 may claim.
#[test]
fn play_runs_the_move_timer_and_the_claim_window() {
    use std::io::{BufRead, BufReader, Write};
    use std::process::Stdio;
    use std::time::{Duration, Instant};
    let mut child = Command::new(env!("CARGO_BIN_EXE_rami"))
        .args(["play", "--rules", "rami", "--players", "3", "--seed", "3"])
        .args(["--claim", "--move-time-limit", "1"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .expect("run rami play");
    let mut stdin = child.stdin.take().expect("stdin");
    let (tx, lines) = std::sync::mpsc::channel();
    let stdout = child.stdout.take().expect("stdout");
    std::thread::spawn(move || {
        for line in BufReader::new(stdout).lines().map_while(Result::ok) {
            if tx.send(line).is_err() {
                break;
            }
        }
    });
    // Everything printed until a line holding `what` (a generous bound:
    // the timer itself is one second).
    let mut seen = String::new();
    let mut wait_for = |what: &str| {
        let until = Instant::now() + Duration::from_secs(60);
        loop {
            let left = until.saturating_duration_since(Instant::now());
            match lines.recv_timeout(left) {
                Ok(line) => {
                    seen.push_str(&line);
                    seen.push('\n');
                    if line.contains(what) {
                        return seen.clone();
                    }
                }
                Err(_) => panic!("no `{what}` in:\n{seen}"),
            }
        }
    };
    wait_for("Your time ran out: the computer played for you.");
    let out = wait_for("`claim` takes 10H");
    assert!(out.contains("Computer 1 discarded 10H"), "{out}");
    stdin.write_all(b"claim\n").expect("write");
    // The claim's two penalty cards, named.
    let out = wait_for("(penalty)");
    assert!(out.contains("You claimed 10H"), "{out}");
    stdin.write_all(b"quit\n").expect("write");
    assert!(child.wait().expect("wait").success());
}

/// `rami play` with the Claim button, the computers claiming in real time:
/// seed 26, three players. The person draws and discards 7H, lets computer
/// 1's discard go (an empty line), and computer 2 discards JC, which
/// computer 1 wants. The person, next, does not draw: half way through the
/// window computer 1 claims it.
#[test]
fn play_lets_a_computer_claim_the_discard_the_person_does_not_draw_after() {
    use std::io::{BufRead, BufReader, Write};
    use std::process::Stdio;
    use std::time::{Duration, Instant};
    let mut child = Command::new(env!("CARGO_BIN_EXE_rami"))
        .args(["play", "--rules", "rami", "--players", "3", "--seed", "26"])
        .arg("--claim")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .expect("run rami play");
    let mut stdin = child.stdin.take().expect("stdin");
    let stdout = child.stdout.take().expect("stdout");
    let (tx, lines) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        for line in BufReader::new(stdout).lines().map_while(Result::ok) {
            if tx.send(line).is_err() {
                break;
            }
        }
    });
    stdin.write_all(b"draw\ndiscard 7H\n\n").expect("write");
    // A generous bound: the claim itself comes 1.5 s after the discard.
    let until = Instant::now() + Duration::from_secs(60);
    let mut seen = String::new();
    loop {
        match lines.recv_timeout(until.saturating_duration_since(Instant::now())) {
            Ok(line) => {
                seen.push_str(&line);
                seen.push('\n');
                if line.contains("Computer 1 claimed") {
                    break;
                }
            }
            Err(_) => panic!("no claim by computer 1 in:\n{seen}"),
        }
    }
    assert!(seen.contains("Computer 2 discarded JC"), "{seen}");
    assert!(
        seen.contains("Computer 1 claimed JC from the discard pile"),
        "{seen}"
    );
    stdin.write_all(b"quit\n").expect("write");
    assert!(child.wait().expect("wait").success());
}
