//! Why an action was refused, in the player's language.

use crate::i18n::Lang;
use rami_game::ActionError;

/// Why an action was refused: the engine's error when it is known on this
/// device (translated when shown), or the host's text.
#[derive(Clone, Debug, PartialEq)]
pub enum Why {
    Error(ActionError),
    Text(String),
}

impl Why {
    /// The group at fault (counted from 0), if any.
    pub fn group(&self) -> Option<usize> {
        match self {
            Why::Error(
                ActionError::InvalidGroup { group, .. }
                | ActionError::FrozenGroupChanged { group }
                | ActionError::TableCardJoinsJokerGroup { group }
                | ActionError::JokerNeedsName { group, .. },
            ) => Some(*group),
            Why::Error(_) => None,
            Why::Text(text) => group_in_text(text),
        }
    }

    /// The reason as the player reads it (groups counted from 1).
    pub fn text(&self, lang: Lang) -> String {
        match self {
            Why::Error(e) => action_error(lang, e),
            Why::Text(text) => one_based(text),
        }
    }
}

/// The number after "group " in an English refusal from the host.
fn group_in_text(text: &str) -> Option<usize> {
    let at = text.find("group ")? + "group ".len();
    let digits: String = text[at..]
        .chars()
        .take_while(|c| c.is_ascii_digit())
        .collect();
    digits.parse().ok()
}

/// The engine counts groups from 0; the table shows them from 1.
fn one_based(text: &str) -> String {
    match group_in_text(text) {
        Some(g) => text.replacen(&format!("group {g}"), &format!("group {}", g + 1), 1),
        None => text.to_string(),
    }
}

/// An engine error in `lang`.
pub fn action_error(_lang: Lang, e: &ActionError) -> String {
    one_based(&e.to_string())
}
