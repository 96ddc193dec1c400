//! placeholder
use clap::Args;
use std::process::ExitCode;
#[derive(Args, Default)]
pub struct PlayArgs {}
pub fn run(_a: PlayArgs) -> ExitCode {
    ExitCode::SUCCESS
}
