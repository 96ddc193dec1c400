//! The reference: the same problem as an integer programme (after den Hertog &
//! Hulshof 2006), written independently of the sweep. One integer per group
//! template (every set, every run of 3-5: longer runs are runs of 3-5 side by
//! side) counting its copies, one per (template, place) counting copies where a
//! joker fills that place, one per face for the hand copies put down.

use good_lp::{Expression, ProblemVariables, Solution, SolverModel, Variable, microlp, variable};
use rami_melds::AceMode;

/// A position as counts. `fixed[f]`: named table jokers that keep the name `f`
/// unless freed by playing the real card from the hand (only when `hand[f] > 0`).
#[derive(Clone, Debug)]
pub struct Counts {
    pub ace: AceMode,
    pub one_joker: bool,
    pub table: [u8; 52],
    pub table_jokers: u8,
    pub fixed: [u8; 52],
    pub hand: [u8; 52],
    pub hand_jokers: u8,
    pub weight: [i32; 52],
    pub joker_weight: i32,
    /// The copies rule of named jokers (Carousel, Vatikan, Tahiti) with this
    /// many copies of each card in the deck: no joker may stand for a card
    /// whose every copy is on the table. Naturals never exceed the deck, so
    /// the rule is that each face's copies on the table (naturals, kept
    /// named jokers and jokers standing for it) stay within it. `None`: no
    /// such rule.
    pub copies: Option<u8>,
}

fn face(pos: u8, suit: usize) -> usize {
    let rank = if pos == 14 { 1 } else { pos };
    suit * 13 + usize::from(rank) - 1
}

/// Every set and run of 3-5 as a list of faces.
fn templates(ace: AceMode) -> Vec<Vec<usize>> {
    let (lo, hi) = match ace {
        AceMode::High => (2u8, 14u8),
        AceMode::Low => (1, 13),
        AceMode::Either => (1, 14),
    };
    let mut out = Vec::new();
    for s in 0..4 {
        for a in lo..=hi {
            for len in 3u8..=5 {
                if a + len - 1 > hi {
                    break;
                }
                out.push((a..a + len).map(|p| face(p, s)).collect());
            }
        }
    }
    for r in 1..=13u8 {
        for mask in 0u32..16 {
            if mask.count_ones() >= 3 {
                out.push(
                    (0..4)
                        .filter(|s| mask & (1 << s) != 0)
                        .map(|s| face(r, s))
                        .collect(),
                );
            }
        }
    }
    out
}

/// The optimum (0 = no play), or `None` if even the table cannot be laid out.
#[allow(clippy::needless_range_loop)] // one row per face, indexed alike
pub fn optimum(c: &Counts) -> Option<i32> {
    let jokers = c.table_jokers + c.hand_jokers + c.fixed.iter().sum::<u8>();
    let mut vars = ProblemVariables::new();
    let mut placed: Vec<Expression> = vec![Expression::from(0.0); 52];
    let mut joker_use = Expression::from(0.0);
    // Per face, every copy of it on the new table: one per copy of each
    // template holding it.
    let mut down: Vec<Expression> = vec![Expression::from(0.0); 52];
    let mut constraints = Vec::new();
    for t in templates(c.ace) {
        // A template is only worth a variable if each place can be filled.
        let avail = |f: usize| c.table[f] + c.hand[f] + c.fixed[f];
        let missing = t.iter().filter(|&&f| avail(f) == 0).count() as u8;
        if missing > jokers || (c.one_joker && missing > 1) {
            continue;
        }
        let y: Variable = vars.add(variable().integer().min(0).max(4));
        let mut zsum = Expression::from(0.0);
        for &f in &t {
            down[f] += y;
            if jokers == 0 {
                placed[f] += y;
                continue;
            }
            let z = vars.add(variable().integer().min(0).max(4));
            constraints.push((Expression::from(z) - y).leq(0.0));
            placed[f] += Expression::from(y) - z;
            zsum += z;
            joker_use += z;
        }
        if jokers > 0 {
            let limit = if c.one_joker {
                1.0
            } else {
                t.len() as f64 - 1.0
            };
            constraints.push((zsum - limit * Expression::from(y)).leq(0.0));
        }
    }
    let mut objective = Expression::from(0.0);
    let mut freed_total = Expression::from(0.0);
    for f in 0..52 {
        let x = vars.add(variable().integer().min(0).max(c.hand[f]));
        objective += c.weight[f] * x;
        let mut must = Expression::from(f64::from(c.table[f] + c.fixed[f]));
        if c.fixed[f] > 0 && c.hand[f] > 0 {
            // Freed (b = 1): the real card goes down and every joker named for it
            // turns wild.
            let b = vars.add(variable().binary());
            let k = f64::from(c.fixed[f]);
            must -= k * Expression::from(b);
            freed_total += k * Expression::from(b);
            constraints.push((Expression::from(b) - x).leq(0.0));
        }
        constraints.push((placed[f].clone() - must - x).eq(0.0));
    }
    if let Some(copies) = c.copies {
        for d in down {
            constraints.push(d.leq(f64::from(copies)));
        }
    }
    let xj = vars.add(variable().integer().min(0).max(c.hand_jokers));
    objective += c.joker_weight * xj;
    constraints.push((joker_use - xj - freed_total - f64::from(c.table_jokers)).eq(0.0));
    let mut model = vars.maximise(objective.clone()).using(microlp);
    for k in constraints {
        model = model.with(k);
    }
    let sol = model.solve().ok()?;
    Some(sol.eval(&objective).round() as i32)
}
