#![allow(clippy::needless_range_loop)]
mod common;
#[path = "common/positions.rs"]
mod positions;
use positions::Gen;
use rami_melds::RuleSet;
use rami_solver::internal;
use std::time::Instant;

#[test]
#[ignore]
fn probe() {
    for rules in [RuleSet::Manipulation, RuleSet::Machiavelli] {
        let mut g = Gen::new(9);
        for (t, h) in [(20, 8), (40, 12), (84, 20)] {
            let (table, hand) = g.position(rules.group_rules(), 0, t, h, 0.35);
            let mut tc = [0u8; 52];
            let mut hc = [0u8; 52];
            for c in table.iter().flatten() {
                tc[c.natural_face().unwrap().index()] += 1;
            }
            for c in &hand {
                hc[c.natural_face().unwrap().index()] += 1;
            }
            let s = Instant::now();
            let (v, n) = internal::best_value_states(rules.ace_mode(), &tc, &hc);
            eprintln!(
                "{rules:?} {t}/{h}: {:?} value {v:?} states {n}",
                s.elapsed()
            );
        }
    }
}
