//! `app/src/cmd_solve.rs` compiled here too (the app wires it into `rami solve`),
//! so its tests run with the solver's.
#[path = "../../../app/src/cmd_solve.rs"]
#[allow(dead_code)]
mod cmd_solve;
