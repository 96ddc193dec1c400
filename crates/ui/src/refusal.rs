//! Why an action was refused, in the player's language.

use crate::cards::{card_name, face_name};
use crate::i18n::Lang;
use rami_cards::{Card, Face};
use rami_game::{ActionError, ActionKind, Deed, NotNowReason};
use rami_melds::{AceMisplaced, GroupError};

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

/// The name of an action, for "... is not possible now".
fn kind_name(lang: Lang, kind: ActionKind) -> &'static str {
    lang.t(match kind {
        ActionKind::Draw => "kind.draw",
        ActionKind::Pass => "kind.pass",
        ActionKind::Done => "kind.done",
        ActionKind::Knock => "kind.knock",
        ActionKind::TouchTable => "kind.touch_table",
        ActionKind::GiveUp => "kind.give_up",
        ActionKind::EndGame => "kind.end_game",
        ActionKind::TakeDiscard => "kind.take_discard",
        ActionKind::Dig => "kind.dig",
        ActionKind::Meld => "kind.meld",
        ActionKind::LayOff => "kind.lay_off",
        ActionKind::ExchangeJoker => "kind.exchange_joker",
        ActionKind::Discard => "kind.discard",
        ActionKind::Claim => "kind.claim",
    })
}

/// The engines' reasons for "not now" (English, French, Italian). A reason
/// missing here shows in English.
const NOT_NOW: &[(&str, &str, &str)] = &[
    (
        "draw your first card before you meld",
        "piochez votre première carte avant de poser",
        "pesca la prima carta prima di calare",
    ),
    (
        "in Rummy 500 a joker on the table is never taken back",
        "au Rummy 500, un joker posé ne se reprend jamais",
        "nel Rummy 500 un jolly sul tavolo non si riprende mai",
    ),
    (
        "knock only after your first or second draw",
        "on ne toque qu'après la première ou la deuxième pioche",
        "si bussa solo dopo la prima o la seconda pescata",
    ),
    (
        "no drawing in the last turns after the stock ran out",
        "on ne pioche plus dans les derniers tours, la pioche est vide",
        "niente pescate negli ultimi giri, il mazzo è finito",
    ),
    (
        "no knocking in the last turns after the stock ran out",
        "on ne toque plus dans les derniers tours, la pioche est vide",
        "non si bussa negli ultimi giri, il mazzo è finito",
    ),
    (
        "only Rummy 500 lets you dig in the discard pile",
        "seul le Rummy 500 permet de fouiller la défausse",
        "solo il Rummy 500 permette di scavare negli scarti",
    ),
    (
        "only in Carousel",
        "seulement au Carrousel",
        "solo nel Carosello",
    ),
    (
        "only the host ends a Shanghai game",
        "seul l'hôte termine une partie de Shanghai",
        "solo chi ospita chiude una partita di Shanghai",
    ),
    (
        "only with the option Take back, draw 3",
        "seulement avec l'option Reprendre, piocher 3",
        "solo con l'opzione Riprendi, pesca 3",
    ),
    (
        "the Claim button is off at this table",
        "le bouton Frapper n'est pas activé à cette table",
        "il pulsante Reclama è disattivato a questo tavolo",
    ),
    (
        "the claim window has closed",
        "le moment de frapper est passé",
        "il tempo per reclamare è scaduto",
    ),
    (
        "the discard pile is empty",
        "la défausse est vide",
        "il mucchio degli scarti è vuoto",
    ),
    (
        "the discard-pile rule sets have no such action",
        "les jeux à défausse n'ont pas cette action",
        "i giochi con gli scarti non hanno questa azione",
    ),
    (
        "the player whose turn is next may not claim: take the discard instead",
        "le joueur suivant ne peut pas frapper : prenez la défausse",
        "chi gioca dopo non può reclamare: prendi lo scarto",
    ),
    (
        "the stock is empty: pass instead",
        "la pioche est vide : passez",
        "il mazzo è vuoto: passa",
    ),
    (
        "the stock is empty: take the discard",
        "la pioche est vide : prenez la défausse",
        "il mazzo è vuoto: prendi lo scarto",
    ),
    (
        "the stock is not empty: draw instead",
        "la pioche n'est pas vide : piochez",
        "il mazzo non è vuoto: pesca",
    ),
    (
        "there is no discard to claim now",
        "il n'y a pas de carte à frapper maintenant",
        "non c'è uno scarto da reclamare ora",
    ),
    (
        "this rule set has no such action",
        "ce jeu n'a pas cette action",
        "questo gioco non ha questa azione",
    ),
    (
        "three draws already",
        "déjà trois pioches",
        "già tre pescate",
    ),
    (
        "you cannot claim your own discard",
        "vous ne pouvez pas frapper votre propre carte",
        "non puoi reclamare il tuo scarto",
    ),
    (
        "you changed the table: play it with Done or Give up (+3)",
        "vous avez changé la table : jouez-la avec Valider ou Abandonner (+3)",
        "hai cambiato il tavolo: giocalo con Fatto o Rinuncia (+3)",
    ),
    (
        "you have not changed the table: just draw",
        "vous n'avez pas changé la table : piochez simplement",
        "non hai cambiato il tavolo: pesca e basta",
    ),
    (
        "you have already drawn this turn",
        "vous avez déjà pioché ce tour-ci",
        "hai già pescato in questo turno",
    ),
    (
        "draw first: from the stock or the discard pile",
        "piochez d'abord : dans la pioche ou la défausse",
        "prima pesca: dal mazzo o dagli scarti",
    ),
];

fn not_now_reason(lang: Lang, why: &NotNowReason) -> String {
    let en = why.to_string();
    NOT_NOW
        .iter()
        .find(|(e, _, _)| *e == en)
        .map_or(en.clone(), |(en, fr, it)| {
            match lang {
                Lang::En => en,
                Lang::Fr => fr,
                Lang::It => it,
            }
            .to_string()
        })
}

/// Why a group is not valid, in `lang`.
pub fn group_error(lang: Lang, e: &GroupError) -> String {
    let key = match e {
        GroupError::TooFewCards => "group_err.too_few",
        GroupError::SetTooLong => "group_err.set_too_long",
        GroupError::RepeatedSuitInSet => "group_err.repeated_suit",
        GroupError::NeitherSetNorRun => "group_err.neither",
        GroupError::RepeatedCardInRun => "group_err.repeated_card",
        GroupError::NotInSequence => "group_err.not_in_sequence",
        GroupError::AceMisplaced(a) => {
            let why = lang.t(match a {
                AceMisplaced::HighOnly => "ace.high_only",
                AceMisplaced::LowOnly => "ace.low_only",
                AceMisplaced::NeverAroundTheCorner => "ace.no_corner",
            });
            return lang.fmt("group_err.ace", &[("why", why)]);
        }
        GroupError::NoJokersHere => "group_err.no_jokers",
        GroupError::OnlyJokers => "group_err.only_jokers",
        GroupError::TooManyJokers => "group_err.too_many_jokers",
        GroupError::JokersOutnumberNaturals => "group_err.jokers_outnumber",
        GroupError::UnnamedJoker => "group_err.unnamed_joker",
    };
    lang.t(key).to_string()
}

/// An engine error in `lang` (groups and melds counted from 1).
pub fn action_error(lang: Lang, e: &ActionError) -> String {
    let card = |c: &Card| card_name(lang, *c);
    let face = |f: &Face| face_name(lang, *f);
    let n = |g: &usize| (g + 1).to_string();
    match e {
        ActionError::NoSuchSeat(s) => lang.fmt("err.no_such_seat", &[("n", &n(s))]),
        ActionError::GameOver => lang.t("err.game_over").into(),
        ActionError::NotYourTurn { .. } => lang.t("err.not_your_turn").into(),
        ActionError::NotNow { kind, why } => lang.fmt(
            "err.not_now",
            &[
                ("action", kind_name(lang, *kind)),
                ("why", &not_now_reason(lang, why)),
            ],
        ),
        ActionError::InvalidGroup { group, reason } => lang.fmt(
            "err.invalid_group",
            &[("n", &n(group)), ("why", &group_error(lang, reason))],
        ),
        ActionError::CardNotInHand { card: c } => {
            lang.fmt("err.card_not_in_hand", &[("card", &card(c))])
        }
        ActionError::TableCardTakenBack { card: c } => {
            lang.fmt("err.table_card_taken_back", &[("card", &card(c))])
        }
        ActionError::CardFromNowhere { card: c } => {
            lang.fmt("err.card_from_nowhere", &[("card", &card(c))])
        }
        ActionError::NothingPlayed => lang.t("err.nothing_played").into(),
        ActionError::JokerNeedsName { group, options } => {
            let or = format!(" {} ", lang.t("err.or"));
            let names: Vec<String> = options.iter().map(face).collect();
            lang.fmt(
                "err.joker_needs_name",
                &[("n", &n(group)), ("options", &names.join(&or))],
            )
        }
        ActionError::JokerRenamed { was } => lang.fmt("err.joker_renamed", &[("face", &face(was))]),
        ActionError::JokerMoved { face: f } => lang.fmt("err.joker_moved", &[("face", &face(f))]),
        ActionError::FreedJokerNotRenamed { face: f } => {
            lang.fmt("err.freed_joker", &[("face", &face(f))])
        }
        ActionError::TooManyCopies { group, face: f, .. } => lang.fmt(
            "err.too_many_copies",
            &[("n", &n(group)), ("face", &face(f))],
        ),
        ActionError::FirstMeldNeedsRun => lang.t("err.first_meld_run").into(),
        ActionError::FrozenGroupChanged { group } => {
            lang.fmt("err.frozen_group", &[("n", &n(group))])
        }
        ActionError::TableCardJoinsJokerGroup { group } => {
            lang.fmt("err.table_card_joker_group", &[("n", &n(group))])
        }
        ActionError::LoneCard { card: c } => lang.fmt("err.lone_card", &[("card", &card(c))]),
        ActionError::KnockTooHigh { points } => {
            lang.fmt("err.knock_too_high", &[("points", &points.to_string())])
        }
        ActionError::NoSuchDiscard { depth } => {
            lang.fmt("err.no_such_discard", &[("n", &depth.to_string())])
        }
        ActionError::NoSuchMeld(m) => lang.fmt("err.no_such_meld", &[("n", &n(m))]),
        ActionError::SeatEliminated(_) => lang.t("err.eliminated").into(),
        ActionError::OpeningTooLow { points, needed } => lang.fmt(
            "err.opening_too_low",
            &[
                ("points", &points.to_string()),
                ("needed", &needed.to_string()),
            ],
        ),
        ActionError::NotOpened { needed, what } => {
            let what = match what {
                Deed::ExchangeJoker => lang.t("err.what_exchange"),
                Deed::LayOff => lang.t("err.what_lay_off"),
            };
            lang.fmt(
                "err.not_opened",
                &[("needed", &needed.to_string()), ("what", what)],
            )
        }
        ActionError::DiscardTakenBack { card: c } => {
            lang.fmt("err.discard_taken_back", &[("card", &card(c))])
        }
        ActionError::NoJokerFor { meld, face: f } => {
            lang.fmt("err.no_joker_for", &[("n", &n(meld)), ("face", &face(f))])
        }
        ActionError::ExchangeNeedsRealCard { card: c } => {
            lang.fmt("err.exchange_real_card", &[("card", &card(c))])
        }
        ActionError::TimeUp { .. } => lang.t("err.time_up").into(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rami_cards::{Rank, Suit};

    #[test]
    fn refusals_are_translated() {
        let e = ActionError::InvalidGroup {
            group: 1,
            reason: GroupError::TooFewCards,
        };
        assert_eq!(
            action_error(Lang::En, &e),
            "group 2 is not valid: a group needs at least 3 cards"
        );
        assert_eq!(
            action_error(Lang::Fr, &e),
            "le groupe 2 n'est pas valable : un groupe a au moins 3 cartes"
        );
        assert_eq!(
            action_error(Lang::It, &e),
            "il gruppo 2 non è valido: un gruppo ha almeno 3 carte"
        );
        let e = ActionError::NotNow {
            kind: ActionKind::Claim,
            why: NotNowReason::ClaimClosed,
        };
        assert_eq!(
            action_error(Lang::Fr, &e),
            "Frapper n'est pas possible maintenant : le moment de frapper est passé"
        );
        let e = ActionError::CardNotInHand {
            card: Card::natural(Rank::ACE, Suit::Spades),
        };
        assert!(action_error(Lang::It, &e).contains("Asso di picche"));
    }

    #[test]
    fn every_reason_of_the_engines_has_its_three_languages() {
        for (en, fr, it) in NOT_NOW {
            assert!(!en.is_empty() && !fr.is_empty() && !it.is_empty());
        }
    }

    #[test]
    fn host_texts_count_groups_from_one() {
        let why = Why::Text("group 0 is not valid: a group needs at least 3 cards".into());
        assert_eq!(why.group(), Some(0));
        assert!(why.text(Lang::En).starts_with("group 1 is not valid"));
    }
}
