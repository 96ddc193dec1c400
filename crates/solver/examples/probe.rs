#[path = "../tests/common/positions.rs"]
mod positions;
use positions::Gen;
use rami_melds::RuleSet;
use rami_solver::{Goal, solve};
use std::time::Instant;
fn main() {
    let args: Vec<String> = std::env::args().collect();
    if let (Ok(t), Ok(h)) = (std::env::var("TABLE"), std::env::var("HAND")) {
        let rules: RuleSet = args[1].parse().unwrap();
        let table = rami_cards::parse_table(&t).unwrap();
        let hand = rami_cards::parse_cards(&h).unwrap();
        let goal = if args.get(2).is_some() {
            Goal::MostCards
        } else {
            Goal::Hint
        };
        for _ in 0..std::env::var("REPS")
            .ok()
            .and_then(|v| v.parse().ok())
            .unwrap_or(3)
        {
            let s = Instant::now();
            let p = solve(rules, &table, &hand, goal).unwrap();
            println!(
                "{:?} {:?}",
                s.elapsed(),
                p.map(|p| (p.count, p.changed, p.rearranged))
            );
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
    let t: usize = args[3].parse().unwrap();
    let h: usize = args[4].parse().unwrap();
    let n: usize = args[5].parse().unwrap();
    let hint = args.get(6).is_some();
    let mut g = Gen::new(7);
    let mut times = Vec::new();
    let only: Option<usize> = std::env::var("ONLY").ok().and_then(|v| v.parse().ok());
    for i in 0..n {
        let (table, hand) = g.position(rules.group_rules(), jokers, t, h, 0.3);
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
        let s = Instant::now();
        let p = solve(
            rules,
            &table,
            &hand,
            if hint { Goal::Hint } else { Goal::MostCards },
        )
        .unwrap();
        let e = s.elapsed();
        times.push(e);
        println!("{:?} count {:?}", e, p.map(|p| p.count));
    }
    times.sort();
    println!(
        "p50 {:?} max {:?}",
        times[times.len() / 2],
        times[times.len() - 1]
    );
}
