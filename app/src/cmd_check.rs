//! `rami check --rules R --table T`.

use serde_json::json;
use std::process::ExitCode;

/// Prints `{"valid": true}` or `{"valid": false, "error": …}` (exit 0 either way);
/// bad notation or an unknown rule set goes to standard error with exit status 2.
pub fn run(rules: &str, table: &str) -> ExitCode {
    let rules: rami_melds::RuleSet = match rules.parse() {
        Ok(r) => r,
        Err(e) => {
            eprintln!("rami check: {e}");
            return ExitCode::from(2);
        }
    };
    let table = match rami_cards::parse_table(table) {
        Ok(t) => t,
        Err(e) => {
            eprintln!("rami check: {e}");
            return ExitCode::from(2);
        }
    };
    let out = match rami_melds::check_table(rules, &table) {
        Ok(()) => json!({ "valid": true }),
        Err(error) => json!({ "valid": false, "error": error }),
    };
    println!("{out}");
    ExitCode::SUCCESS
}
