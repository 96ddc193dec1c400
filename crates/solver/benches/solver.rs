//! Benchmarks of the move finder: criterion timings on fixed positions, and a
//! percentile table (p50/p99 over seeded positions, with the integer-programming
//! reference timed on the same positions) printed first, then the sweep alone in
//! the ace modes no rule set plays with jokers.
//!
//! `cargo bench -p rami-solver --bench solver`
#[path = "../tests/common/cputime.rs"]
mod cputime;
#[path = "../tests/common/ip.rs"]
mod ip;
#[path = "../tests/common/positions.rs"]
mod positions;

use criterion::Criterion;
use positions::Gen;
use rami_cards::Card;
use rami_melds::{AceMode, GroupRules, JokerLimit, RuleSet};
use rami_solver::{Goal, solve};
use std::hint::black_box;
use std::time::{Duration, Instant};

struct Config {
    name: &'static str,
    rules: RuleSet,
    jokers: u8,
    table: usize,
    hand: usize,
}

/// Rule sets stand for ace modes: Manipulation high, Shanghai low, Machiavelli
/// either; jokers: Carousel (2, either), Vatikan (2, either, its anchored
/// jokers) and Tahiti (4, either).
const CONFIGS: &[Config] = &[
    Config {
        name: "high mid-game",
        rules: RuleSet::Manipulation,
        jokers: 0,
        table: 30,
        hand: 10,
    },
    Config {
        name: "low mid-game",
        rules: RuleSet::Shanghai,
        jokers: 0,
        table: 30,
        hand: 10,
    },
    Config {
        name: "either mid-game",
        rules: RuleSet::Machiavelli,
        jokers: 0,
        table: 30,
        hand: 10,
    },
    Config {
        name: "either mid-game 2 jokers",
        rules: RuleSet::Carousel,
        jokers: 2,
        table: 30,
        hand: 10,
    },
    Config {
        name: "either mid-game 2 jokers (Vatikan)",
        rules: RuleSet::Vatikan,
        jokers: 2,
        table: 30,
        hand: 10,
    },
    Config {
        name: "either mid-game 4 jokers",
        rules: RuleSet::Tahiti,
        jokers: 4,
        table: 30,
        hand: 10,
    },
    Config {
        name: "high full",
        rules: RuleSet::Manipulation,
        jokers: 0,
        table: 84,
        hand: 20,
    },
    Config {
        name: "low full",
        rules: RuleSet::Shanghai,
        jokers: 0,
        table: 84,
        hand: 20,
    },
    Config {
        name: "either full",
        rules: RuleSet::Machiavelli,
        jokers: 0,
        table: 84,
        hand: 20,
    },
    Config {
        name: "either full 2 jokers",
        rules: RuleSet::Carousel,
        jokers: 2,
        table: 84,
        hand: 20,
    },
    Config {
        name: "either full 2 jokers (Vatikan)",
        rules: RuleSet::Vatikan,
        jokers: 2,
        table: 84,
        hand: 20,
    },
    Config {
        name: "either full 4 jokers",
        rules: RuleSet::Tahiti,
        jokers: 4,
        table: 84,
        hand: 20,
    },
];

fn positions(c: &Config, n: usize, seed: u64) -> Vec<(Vec<Vec<Card>>, Vec<Card>)> {
    let mut g = Gen::new(seed);
    std::iter::repeat_with(|| g.position(c.rules.group_rules(), c.jokers, c.table, c.hand, 0.3))
        .filter(|(table, _)| can_happen(c.rules, table))
        .take(n)
        .collect()
}

/// A table a game can reach: in Carousel, Vatikan and Tahiti no joker stands
/// for a card whose every copy is on the table (the engine refuses any table
/// holding one: a Carousel joker is freed when its card comes down, a Tahiti
/// one is stuck). Random tables holding one would only skew the figures:
/// Tahiti's answer "no play" at once, Carousel's send every play through the
/// strict copies search (session 7: 30 of 30 full tables did).
fn can_happen(rules: RuleSet, table: &[Vec<Card>]) -> bool {
    !matches!(
        rules,
        RuleSet::Carousel | RuleSet::Vatikan | RuleSet::Tahiti
    ) || rami_melds::table_rules::check_copies(table, rules.max_copies()).is_ok()
}

fn pct(mut v: Vec<Duration>, p: f64) -> Duration {
    v.sort();
    let i = ((v.len() as f64 - 1.0) * p).round() as usize;
    v[i.min(v.len() - 1)]
}

fn counts(rules: RuleSet, table: &[Vec<Card>], hand: &[Card]) -> ip::Counts {
    let ace: AceMode = rules.ace_mode();
    let mut c = ip::Counts {
        ace,
        one_joker: rules == RuleSet::Tahiti,
        table: [0; 52],
        table_jokers: 0,
        fixed: [0; 52],
        hand: [0; 52],
        hand_jokers: 0,
        weight: [1; 52],
        joker_weight: 1,
        // The value-only entry timed here is the unrestricted optimum.
        copies: None,
    };
    for card in table.iter().flatten() {
        match card.natural_face() {
            Some(f) => c.table[f.index()] += 1,
            None => c.table_jokers += 1,
        }
    }
    for card in hand {
        match card.natural_face() {
            Some(f) => c.hand[f.index()] += 1,
            None => c.hand_jokers += 1,
        }
    }
    c
}

/// p50 / p99 / max of best play and hint (wall clock, and the thread's CPU
/// time, which leaves out the time other processes held the core), and the
/// reference's median.
fn percentile_table(n: usize) {
    println!(
        "| positions | n | best p50 | best p99 | best max | best p99 CPU | hint p50 | hint p99 | hint p99 CPU | IP p50 | IP/best (p50) | optimum p50 | optimum p99 CPU | IP/optimum (p50) |"
    );
    println!("|---|---|---|---|---|---|---|---|---|---|---|---|---|---|");
    // The first solve of a process builds the run automata (`dfa::build`,
    // once each, about 0.4 ms for the plain one): built here, so that no
    // row's first position pays it (a full row's p99 of 30 positions is its
    // slowest, and the first row's first solve held the build).
    let hand = rami_cards::parse_cards("3S 4S 5S").unwrap_or_default();
    for rules in [RuleSet::Manipulation, RuleSet::Tahiti] {
        black_box(solve(rules, &[], &hand, Goal::MostCards).ok());
    }
    let skip_full = std::env::var_os("RAMI_BENCH_SKIP_FULL").is_some();
    let only_full = std::env::var_os("RAMI_BENCH_ONLY_FULL").is_some();
    // Rows whose name holds this text (e.g. "Tahiti"), to re-measure a few.
    let only_rows = std::env::var("RAMI_BENCH_ROWS").ok();
    for c in CONFIGS {
        if (skip_full && c.table > 40) || (only_full && c.table <= 40) {
            continue;
        }
        if only_rows
            .as_ref()
            .is_some_and(|r| !c.name.contains(r.as_str()))
        {
            continue;
        }
        let ps = positions(c, n, 7);
        let mut best = Vec::new();
        let mut best_cpu = Vec::new();
        let mut hint = Vec::new();
        let mut hint_cpu = Vec::new();
        let mut refs = Vec::new();
        // The finder's optimum alone (value, no layout): what the reference
        // computes, so the ratio is like for like.
        let mut opt = Vec::new();
        let mut opt_cpu = Vec::new();
        for (t, h) in &ps {
            let (s, cpu) = (Instant::now(), cputime::now());
            black_box(solve(c.rules, t, h, Goal::MostCards).ok());
            best.push(s.elapsed());
            best_cpu.push(cputime::now() - cpu);
            let (s, cpu) = (Instant::now(), cputime::now());
            black_box(solve(c.rules, t, h, Goal::Hint).ok());
            hint.push(s.elapsed());
            hint_cpu.push(cputime::now() - cpu);
            let (s, cpu) = (Instant::now(), cputime::now());
            black_box(rami_solver::internal::optimum(c.rules, t, h, Goal::MostCards).ok());
            opt.push(s.elapsed());
            opt_cpu.push(cputime::now() - cpu);
            // The reference has no Tahiti frozen groups: time it on the counts.
            let s = Instant::now();
            black_box(ip::optimum(&counts(c.rules, t, h)));
            refs.push(s.elapsed());
        }
        let b50 = pct(best.clone(), 0.5);
        let r50 = pct(refs, 0.5);
        let o50 = pct(opt.clone(), 0.5);
        println!(
            "| {} | {n} | {:?} | {:?} | {:?} | {:?} | {:?} | {:?} | {:?} | {:?} | {:.1}x | {:?} | {:?} | {:.1}x |",
            c.name,
            b50,
            pct(best.clone(), 0.99),
            pct(best, 1.0),
            pct(best_cpu, 0.99),
            pct(hint.clone(), 0.5),
            pct(hint, 0.99),
            pct(hint_cpu, 0.99),
            r50,
            r50.as_secs_f64() / b50.as_secs_f64().max(1e-9),
            o50,
            pct(opt_cpu, 0.99),
            r50.as_secs_f64() / o50.as_secs_f64().max(1e-9),
        );
    }
}

/// The ace modes and joker counts that no rule set plays (jokers with ace high
/// or low, four jokers with at least one natural card a group) exist only in
/// the sweep, so only its value is timed there (`internal::best_value`, the
/// counts the differential test holds against the reference), beside the
/// reference on the same counts. The rows a rule set plays are the table above.
fn sweep_alone_table(n: usize) {
    println!();
    println!("| sweep alone | n | optimum p50 | optimum p99 CPU | IP p50 | IP/optimum (p50) |");
    println!("|---|---|---|---|---|---|");
    let only_rows = std::env::var("RAMI_BENCH_ROWS").ok();
    let skip_full = std::env::var_os("RAMI_BENCH_SKIP_FULL").is_some();
    let only_full = std::env::var_os("RAMI_BENCH_ONLY_FULL").is_some();
    for (ace, ace_name) in [
        (AceMode::High, "high"),
        (AceMode::Low, "low"),
        (AceMode::Either, "either"),
    ] {
        for jokers in [2u8, 4] {
            // Ace either with two jokers is Carousel's row above.
            if ace == AceMode::Either && jokers == 2 {
                continue;
            }
            for (size, table, hand) in [("mid-game", 30, 10), ("full", 84, 20)] {
                let name = format!("{ace_name} {size} {jokers} jokers (sweep)");
                if (skip_full && table > 40) || (only_full && table <= 40) {
                    continue;
                }
                if only_rows
                    .as_ref()
                    .is_some_and(|r| !name.contains(r.as_str()))
                {
                    continue;
                }
                let rules = GroupRules {
                    ace,
                    jokers: JokerLimit::AtLeastOneNatural,
                };
                let mut g = Gen::new(7);
                let (mut opt, mut opt_cpu, mut refs) = (Vec::new(), Vec::new(), Vec::new());
                for _ in 0..n {
                    let (t, h) = g.position(rules, jokers, table, hand, 0.3);
                    let c = sweep_counts(ace, &t, &h);
                    let (s, cpu) = (Instant::now(), cputime::now());
                    black_box(rami_solver::internal::best_value(
                        ace,
                        false,
                        &c.table,
                        c.table_jokers,
                        &c.hand,
                        c.hand_jokers,
                        &c.weight,
                        c.joker_weight,
                    ));
                    opt.push(s.elapsed());
                    opt_cpu.push(cputime::now() - cpu);
                    let s = Instant::now();
                    black_box(ip::optimum(&c));
                    refs.push(s.elapsed());
                }
                let o50 = pct(opt, 0.5);
                let r50 = pct(refs, 0.5);
                println!(
                    "| {name} | {n} | {o50:?} | {:?} | {r50:?} | {:.1}x |",
                    pct(opt_cpu, 0.99),
                    r50.as_secs_f64() / o50.as_secs_f64().max(1e-9),
                );
            }
        }
    }
}

/// The counts of a position for the sweep alone: wild jokers, most cards.
fn sweep_counts(ace: AceMode, table: &[Vec<Card>], hand: &[Card]) -> ip::Counts {
    let mut c = counts(RuleSet::Manipulation, table, hand);
    c.ace = ace;
    c
}

fn bench(c: &mut Criterion) {
    let mut group = c.benchmark_group("solve");
    group.sample_size(10);
    group.measurement_time(Duration::from_secs(2));
    for cfg in CONFIGS {
        let ps = positions(cfg, 8, 11);
        group.bench_function(format!("best {}", cfg.name), |b| {
            b.iter(|| {
                for (t, h) in &ps {
                    black_box(solve(cfg.rules, t, h, Goal::MostCards).ok());
                }
            })
        });
        group.bench_function(format!("hint {}", cfg.name), |b| {
            b.iter(|| {
                for (t, h) in &ps {
                    black_box(solve(cfg.rules, t, h, Goal::Hint).ok());
                }
            })
        });
    }
    group.finish();
}

fn main() {
    let n = std::env::var("RAMI_BENCH_POSITIONS")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(100);
    percentile_table(n);
    sweep_alone_table(n);
    if std::env::var_os("RAMI_BENCH_TABLE_ONLY").is_none() {
        let mut c = Criterion::default().configure_from_args();
        bench(&mut c);
        c.final_summary();
    }
}
