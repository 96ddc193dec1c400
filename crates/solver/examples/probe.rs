#[path = "../tests/common/cputime.rs"]
mod cputime;
#[path = "../tests/common/positions.rs"]
mod positions;
use positions::Gen;
use rami_melds::RuleSet;
use rami_solver::Goal;
use std::time::Instant;
fn main() {
    let args: Vec<String> = std::env::args().collect();
    // STRICT_STATES=n: the strict copies search's state budget.
    if let Some(n) = std::env::var("STRICT_STATES")
        .ok()
        .and_then(|v| v.parse().ok())
    {
        rami_solver::internal::strict_states(n);
    }
    if let Ok(file) = std::env::var("FILE") {
        // FILE=path (the rule set as the first argument, as `tahiti`): one
        // position a line, `table<TAB>hand` (the ignored test
        // `tahiti_positions_to_files` writes such files), solved in this one
        // process; prints a line per position: its number, then for the
        // most cards and the most points the value, the sweep states and
        // the restricted bites. `UNCAPPED=1`: the reference, caps off. Two
        // builds' outputs compare position by position.
        let rules: RuleSet = args[1].parse().unwrap();
        rami_solver::internal::restricted_caps(std::env::var_os("UNCAPPED").is_none());
        let text = std::fs::read_to_string(file).unwrap();
        for (i, line) in text.lines().enumerate() {
            let (t, h) = line.split_once('\t').unwrap();
            let table = rami_cards::parse_table(t).unwrap();
            let hand = rami_cards::parse_cards(h).unwrap();
            let mut row = format!("{i}");
            for goal in [Goal::MostCards, Goal::MostPoints] {
                rami_solver::internal::take_stats();
                let p =
                    rami_solver::solve_with_copies(rules, rules.max_copies(), &table, &hand, goal)
                        .unwrap();
                let st = rami_solver::internal::take_stats();
                let bites =
                    rami_solver::internal::restricted_caps(std::env::var_os("UNCAPPED").is_none());
                let v = p.map_or(0, |p| {
                    if goal == Goal::MostCards {
                        p.count as u32
                    } else {
                        p.points
                    }
                });
                row.push_str(&format!(" {v} {} {bites}", st.states));
            }
            println!("{row}");
        }
        return;
    }
    if let (Ok(t), Ok(h)) = (std::env::var("TABLE"), std::env::var("HAND")) {
        let rules: RuleSet = args[1].parse().unwrap();
        let table = rami_cards::parse_table(&t).unwrap();
        let hand = rami_cards::parse_cards(&h).unwrap();
        // `best`: most cards; `points`: most points; nothing: the hint.
        let goal = match args.get(2).map(|s| s.as_str()) {
            Some("points") => Goal::MostPoints,
            Some(_) => Goal::MostCards,
            None => Goal::Hint,
        };
        // UNCAPPED=1: the restricted searches without their caps.
        rami_solver::internal::restricted_caps(std::env::var_os("UNCAPPED").is_none());
        for _ in 0..std::env::var("REPS")
            .ok()
            .and_then(|v| v.parse().ok())
            .unwrap_or(3)
        {
            let s = Instant::now();
            rami_solver::internal::take_stats();
            // COPIES=n: the deck holds n of each card (1: two-player Carousel).
            let copies: u8 = std::env::var("COPIES")
                .ok()
                .and_then(|v| v.parse().ok())
                .unwrap_or(rules.max_copies());
            let p = measured(rules, copies, &table, &hand, goal);
            let st = rami_solver::internal::take_stats();
            if std::env::var_os("VERBOSE").is_some()
                && let Some(p) = &p
            {
                println!("{}", rami_cards::format_table(&p.table));
            }
            println!(
                "{:?} {:?} states {} strict cut {}",
                s.elapsed(),
                p.map(|p| (p.count, p.points, p.changed, p.rearranged)),
                st.states,
                st.strict_cut
            );
            if std::env::var_os("VERBOSE").is_some() {
                println!("{st:?}");
            }
        }
        return;
    }
    let rules = match args[1].as_str() {
        "high" => RuleSet::Manipulation,
        "low" => RuleSet::Shanghai,
        "either" => RuleSet::Machiavelli,
        "car" => RuleSet::Carousel,
        "tah" => RuleSet::Tahiti,
        "vat" => RuleSet::Vatikan,
        _ => panic!(),
    };
    let jokers: u8 = args[2].parse().unwrap();
    // (The rule sets of the ace modes without jokers deal none: the solver
    // would refuse every position as impossible cards.)
    if jokers > rules.max_jokers() {
        eprintln!(
            "{} deals {} jokers at most: for jokers use car, vat or tah",
            args[1],
            rules.max_jokers()
        );
        std::process::exit(2);
    }
    let t: usize = args[3].parse().unwrap();
    let h: usize = args[4].parse().unwrap();
    let n: usize = args[5].parse().unwrap();
    // A sixth argument: `points` for the most points, anything else the hint
    // (nothing: the most cards).
    let goal = match args.get(6).map(|s| s.as_str()) {
        None => Goal::MostCards,
        Some("points") => Goal::MostPoints,
        Some(_) => Goal::Hint,
    };
    // The first solve of a process builds the run automata (`dfa::build`):
    // built here for these rules (a whole probe's instructions still hold
    // the build once), so that no one position's time or instructions hold it.
    let warm = rami_cards::parse_cards("3S 4S 5S *").unwrap_or_default();
    let _ = rami_solver::solve_with_copies(rules, rules.max_copies(), &[], &warm, Goal::MostCards);
    let mut g = Gen::new(7);
    let mut times = Vec::new();
    // States generated: all, by narrow sweeps, by limited sweeps; sweeps.
    let mut totals = (0u64, 0u64, 0u64, 0u64);
    let (mut changed, mut plays) = (0usize, 0usize);
    let mut bites = 0u64;
    let mut hint_bites = 0u64;
    // Carousel's strict copies searches: runs, their states, runs cut short.
    let mut strict = (0u64, 0u64, 0u64);
    // COPIES=n: the deck holds n of each card (1: two-player Carousel).
    let copies: u8 = std::env::var("COPIES")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(rules.max_copies());
    rami_solver::internal::restricted_caps(std::env::var_os("UNCAPPED").is_none());
    let only: Option<usize> = std::env::var("ONLY").ok().and_then(|v| v.parse().ok());
    // REACHABLE=1: only tables a game can reach (no joker named for a card
    // whose every copy is down, as the bench draws them); positions are still
    // numbered as drawn, so ONLY=i names the same one either way.
    let reachable = std::env::var_os("REACHABLE").is_some();
    for i in 0..n {
        // (Dealt from the game's deck: `COPIES=1`, one deck.)
        let (table, hand) = g.position_from_deck(rules.group_rules(), jokers, t, h, 0.3, copies);
        if reachable && rami_melds::table_rules::check_copies(&table, copies).is_err() {
            continue;
        }
        if only.is_some_and(|o| o != i) {
            continue;
        }
        if only.is_some() {
            eprintln!(
                "{}\n{}",
                rami_cards::format_table(&table),
                rami_cards::format_cards(&hand)
            );
        }
        rami_solver::internal::take_stats();
        let c0 = cputime::now();
        let s = Instant::now();
        // OPT=1: the optimum alone (no layout, no fewest-changes step).
        if std::env::var_os("OPT").is_some() {
            let v = rami_solver::internal::optimum(rules, &table, &hand, goal).unwrap();
            let e = cputime::now() - c0;
            times.push((e, i));
            let st = rami_solver::internal::take_stats();
            if std::env::var_os("VERBOSE").is_some() {
                println!(
                    "{i}: {e:?} value {v:?} beam {} exact {} states {} (narrow {})",
                    st.beam_sweeps, st.exact_sweeps, st.states, st.beam_states
                );
            }
            totals.0 += st.states;
            totals.1 += st.beam_states;
            totals.3 += st.beam_sweeps + st.exact_sweeps;
            plays += usize::from(v.is_some());
            continue;
        }
        let p = measured(rules, copies, &table, &hand, goal);
        let wall = s.elapsed();
        let e = cputime::now() - c0;
        let _ = wall;
        times.push((e, i));
        let st = rami_solver::internal::take_stats();
        if std::env::var_os("VERBOSE").is_some() {
            println!(
                "{i}: {:?} count {:?} points {:?} beam {} exact {} limited {} states {} (narrow {} limited {}) widest {} strict {}/{}/{}",
                e,
                p.as_ref().map(|p| p.count),
                p.as_ref().map(|p| p.points),
                st.beam_sweeps,
                st.exact_sweeps,
                st.limited,
                st.states,
                st.beam_states,
                st.limited_states,
                st.max_layer,
                st.strict_runs,
                st.strict_states,
                st.strict_cut
            );
        }
        // ANSWERS=1: the whole answer of each position (to compare two builds
        // position by position: timing-free lines only).
        if std::env::var_os("ANSWERS").is_some() {
            match &p {
                Some(p) => println!(
                    "{i}: count {} points {} changed {:?} rearranged {} played {} | {}",
                    p.count,
                    p.points,
                    p.changed,
                    p.rearranged,
                    rami_cards::format_cards(&p.played),
                    rami_cards::format_table(&p.table)
                ),
                None => println!("{i}: none"),
            }
        }
        // Groups the plays change (the fewest-changes step's result).
        changed += p.as_ref().map_or(0, |p| p.changed.len());
        plays += usize::from(p.is_some());
        totals.0 += st.states;
        totals.1 += st.beam_states;
        totals.2 += st.limited_states;
        totals.3 += st.beam_sweeps + st.exact_sweeps;
        strict.0 += st.strict_runs;
        strict.1 += st.strict_states;
        strict.2 += st.strict_cut;
        // Times a restricted search's cap or safety net cut it short.
        bites += rami_solver::internal::restricted_caps(std::env::var_os("UNCAPPED").is_none());
        hint_bites += rami_solver::internal::hint_bites();
    }
    times.sort();
    let at = |q: f64| times[((times.len() as f64 - 1.0) * q).round() as usize].0;
    let slow: Vec<String> = times
        .iter()
        .rev()
        .take(5)
        .map(|(e, i)| format!("#{i} {e:?}"))
        .collect();
    println!(
        "states {} (narrow {}, limited {}) in {} sweeps; {plays} plays changing {changed} groups; {bites} bites; {hint_bites} hint bites",
        totals.0, totals.1, totals.2, totals.3
    );
    println!(
        "strict copies searches {} ({} states, {} cut short)",
        strict.0, strict.1, strict.2
    );
    println!(
        "p50 {:?} p90 {:?} p99 {:?} max {:?}; slowest {}",
        at(0.5),
        at(0.9),
        at(0.99),
        at(1.0),
        slow.join(", ")
    );
}

/// One position's solve, apart (`valgrind --tool=callgrind
/// --toggle-collect=probe::measured` counts the positions' solves alone).
#[inline(never)]
fn measured(
    rules: RuleSet,
    copies: u8,
    table: &[Vec<rami_cards::Card>],
    hand: &[rami_cards::Card],
    goal: Goal,
) -> Option<rami_solver::Play> {
    rami_solver::solve_with_copies(rules, copies, table, hand, goal).unwrap()
}
