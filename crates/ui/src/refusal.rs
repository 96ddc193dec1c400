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
            Why::Error(e) => e.group(),
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

/// The catalogue key of each engine reason for "not now". Exhaustive: a new
/// reason in the engine does not compile until it has its key (and the
/// catalogue test checks the key has its three languages).
pub fn not_now_key(why: NotNowReason) -> &'static str {
    match why {
        NotNowReason::TableChanged => "notnow.table_changed",
        NotNowReason::StockEmptyPass => "notnow.stock_empty_pass",
        NotNowReason::NoDrawInLastTurns => "notnow.no_draw_last_turns",
        NotNowReason::ThreeDraws => "notnow.three_draws",
        NotNowReason::StockNotEmpty => "notnow.stock_not_empty",
        NotNowReason::TakeBackOptionOnly => "notnow.take_back_only",
        NotNowReason::TableUnchanged => "notnow.table_unchanged",
        NotNowReason::DrawBeforeMeld => "notnow.draw_before_meld",
        NotNowReason::CarouselOnly => "notnow.carousel_only",
        NotNowReason::NoKnockInLastTurns => "notnow.no_knock_last_turns",
        NotNowReason::KnockAfterDraw => "notnow.knock_after_draw",
        NotNowReason::ShanghaiOnly => "notnow.shanghai_only",
        NotNowReason::HostOnly => "notnow.host_only",
        NotNowReason::HostEndsShanghai => "notnow.host_ends_shanghai",
        NotNowReason::NoSuchAction => "notnow.no_such_action",
        NotNowReason::AlreadyDrawn => "notnow.already_drawn",
        NotNowReason::DrawFirst => "notnow.draw_first",
        NotNowReason::NotInDiscardGames => "notnow.not_in_discard_games",
        NotNowReason::StockEmptyTakeDiscard => "notnow.stock_empty_take_discard",
        NotNowReason::DiscardEmpty => "notnow.discard_empty",
        NotNowReason::DigRummy500Only => "notnow.dig_rummy500_only",
        NotNowReason::JokerStaysRummy500 => "notnow.joker_stays_rummy500",
        NotNowReason::ClaimOff => "notnow.claim_off",
        NotNowReason::ClaimClosed => "notnow.claim_closed",
        NotNowReason::NothingToClaim => "notnow.nothing_to_claim",
        NotNowReason::OwnDiscard => "notnow.own_discard",
        NotNowReason::NextPlayerTakes => "notnow.next_player_takes",
    }
}

fn not_now_reason(lang: Lang, why: &NotNowReason) -> &'static str {
    lang.t(not_now_key(*why))
}

/// The catalogue key of what must be opened first.
pub fn deed_key(deed: Deed) -> &'static str {
    match deed {
        Deed::ExchangeJoker => "err.what_exchange",
        Deed::LayOff => "err.what_lay_off",
    }
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
                ("why", not_now_reason(lang, why)),
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
            let what = lang.t(deed_key(*what));
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
    use rami_cards::{Face, Rank, Suit};

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

    /// One of each engine reason; `not_now_ordinal` is exhaustive, so a new
    /// reason does not compile until it is numbered, and the test below fails
    /// until it is listed here.
    const ALL_NOT_NOW: [NotNowReason; NOT_NOW_COUNT] = {
        use NotNowReason::*;
        [
            TableChanged,
            StockEmptyPass,
            NoDrawInLastTurns,
            ThreeDraws,
            StockNotEmpty,
            TakeBackOptionOnly,
            TableUnchanged,
            DrawBeforeMeld,
            CarouselOnly,
            NoKnockInLastTurns,
            KnockAfterDraw,
            ShanghaiOnly,
            HostOnly,
            HostEndsShanghai,
            NoSuchAction,
            AlreadyDrawn,
            DrawFirst,
            NotInDiscardGames,
            StockEmptyTakeDiscard,
            DiscardEmpty,
            DigRummy500Only,
            JokerStaysRummy500,
            ClaimOff,
            ClaimClosed,
            NothingToClaim,
            OwnDiscard,
            NextPlayerTakes,
        ]
    };
    const NOT_NOW_COUNT: usize = 27;

    fn not_now_ordinal(w: NotNowReason) -> usize {
        use NotNowReason::*;
        match w {
            TableChanged => 0,
            StockEmptyPass => 1,
            NoDrawInLastTurns => 2,
            ThreeDraws => 3,
            StockNotEmpty => 4,
            TakeBackOptionOnly => 5,
            TableUnchanged => 6,
            DrawBeforeMeld => 7,
            CarouselOnly => 8,
            NoKnockInLastTurns => 9,
            KnockAfterDraw => 10,
            ShanghaiOnly => 11,
            HostOnly => 12,
            HostEndsShanghai => 13,
            NoSuchAction => 14,
            AlreadyDrawn => 15,
            DrawFirst => 16,
            NotInDiscardGames => 17,
            StockEmptyTakeDiscard => 18,
            DiscardEmpty => 19,
            DigRummy500Only => 20,
            JokerStaysRummy500 => 21,
            ClaimOff => 22,
            ClaimClosed => 23,
            NothingToClaim => 24,
            OwnDiscard => 25,
            NextPlayerTakes => 26,
        }
    }

    /// One of each engine error; `error_ordinal` is exhaustive (same scheme).
    fn all_errors() -> Vec<ActionError> {
        let card = Card::natural(Rank::ACE, Suit::Spades);
        let face = Face::new(Rank::KING, Suit::Hearts);
        let mut v = vec![
            ActionError::NoSuchSeat(3),
            ActionError::GameOver,
            ActionError::NotYourTurn { current: 1 },
            ActionError::InvalidGroup {
                group: 0,
                reason: GroupError::TooFewCards,
            },
            ActionError::CardNotInHand { card },
            ActionError::TableCardTakenBack { card },
            ActionError::CardFromNowhere { card },
            ActionError::NothingPlayed,
            ActionError::JokerNeedsName {
                group: 2,
                options: vec![face, Face::new(Rank::QUEEN, Suit::Hearts)],
            },
            ActionError::JokerRenamed { was: face },
            ActionError::JokerMoved { face },
            ActionError::FreedJokerNotRenamed { face },
            ActionError::FirstMeldNeedsRun,
            ActionError::FrozenGroupChanged { group: 1 },
            ActionError::TableCardJoinsJokerGroup { group: 1 },
            ActionError::LoneCard { card },
            ActionError::KnockTooHigh { points: 12 },
            ActionError::NoSuchDiscard { depth: 4 },
            ActionError::NoSuchMeld(5),
            ActionError::SeatEliminated(2),
            ActionError::OpeningTooLow {
                points: 20,
                needed: 30,
            },
            ActionError::DiscardTakenBack { card },
            ActionError::NoJokerFor { meld: 0, face },
            ActionError::ExchangeNeedsRealCard { card },
            ActionError::TimeUp { deadline: 0 },
            ActionError::TooManyCopies {
                group: 0,
                face,
                copies: 1,
            },
        ];
        for what in [Deed::LayOff, Deed::ExchangeJoker] {
            v.push(ActionError::NotOpened { needed: 30, what });
        }
        for why in ALL_NOT_NOW {
            v.push(ActionError::NotNow {
                kind: ActionKind::Draw,
                why,
            });
        }
        v
    }
    const ERROR_COUNT: usize = 28;

    fn error_ordinal(e: &ActionError) -> usize {
        use ActionError::*;
        match e {
            NoSuchSeat(_) => 0,
            GameOver => 1,
            NotYourTurn { .. } => 2,
            NotNow { .. } => 3,
            InvalidGroup { .. } => 4,
            CardNotInHand { .. } => 5,
            TableCardTakenBack { .. } => 6,
            CardFromNowhere { .. } => 7,
            NothingPlayed => 8,
            JokerNeedsName { .. } => 9,
            JokerRenamed { .. } => 10,
            JokerMoved { .. } => 11,
            FreedJokerNotRenamed { .. } => 12,
            FirstMeldNeedsRun => 13,
            FrozenGroupChanged { .. } => 14,
            TableCardJoinsJokerGroup { .. } => 15,
            LoneCard { .. } => 16,
            KnockTooHigh { .. } => 17,
            NoSuchDiscard { .. } => 18,
            NoSuchMeld(_) => 19,
            SeatEliminated(_) => 20,
            OpeningTooLow { .. } => 21,
            NotOpened { .. } => 22,
            DiscardTakenBack { .. } => 23,
            NoJokerFor { .. } => 24,
            ExchangeNeedsRealCard { .. } => 25,
            TimeUp { .. } => 26,
            TooManyCopies { .. } => 27,
        }
    }

    /// A text from the catalogue: there (not its key echoed back), not empty,
    /// every placeholder filled.
    fn assert_translated(lang: Lang, text: &str, what: &str) {
        assert!(!text.trim().is_empty(), "{what} in {lang:?}: empty");
        assert!(
            !text.contains('{') && !text.contains('}'),
            "{what} in {lang:?}: unfilled placeholder in {text:?}"
        );
        for prefix in ["notnow.", "err.", "kind.", "group_err.", "ace."] {
            assert!(
                !text.contains(prefix),
                "{what} in {lang:?}: missing catalogue key in {text:?}"
            );
        }
    }

    #[test]
    fn every_not_now_reason_and_deed_has_its_three_languages() {
        let mut seen = [false; NOT_NOW_COUNT];
        for why in ALL_NOT_NOW {
            seen[not_now_ordinal(why)] = true;
            let key = not_now_key(why);
            let texts: Vec<&str> = Lang::ALL.iter().map(|l| l.t(key)).collect();
            for (lang, text) in Lang::ALL.iter().zip(&texts) {
                assert_ne!(*text, key, "{why:?} has no {lang:?} text");
                assert_translated(*lang, text, &format!("{why:?}"));
            }
            // The English text is the engine's own.
            assert_eq!(texts[0], why.to_string().replace(" (seat 0)", ""));
            assert!(
                texts[1] != texts[0] && texts[2] != texts[0],
                "{why:?} untranslated"
            );
        }
        assert!(
            seen.iter().all(|s| *s),
            "a reason is missing from ALL_NOT_NOW"
        );
        for deed in [Deed::LayOff, Deed::ExchangeJoker] {
            for lang in Lang::ALL {
                assert_ne!(lang.t(deed_key(deed)), deed_key(deed));
            }
        }
    }

    #[test]
    fn every_engine_error_has_its_three_languages() {
        let all = all_errors();
        let mut seen = [false; ERROR_COUNT];
        for e in &all {
            seen[error_ordinal(e)] = true;
            let texts: Vec<String> = Lang::ALL.iter().map(|l| action_error(*l, e)).collect();
            for (lang, text) in Lang::ALL.iter().zip(&texts) {
                assert_translated(*lang, text, &format!("{e:?}"));
            }
            assert!(
                texts[1] != texts[0] && texts[2] != texts[0],
                "{e:?} untranslated"
            );
        }
        assert!(
            seen.iter().all(|s| *s),
            "an error is missing from all_errors"
        );
    }

    #[test]
    fn host_texts_count_groups_from_one() {
        let why = Why::Text("group 0 is not valid: a group needs at least 3 cards".into());
        assert_eq!(why.group(), Some(0));
        assert!(why.text(Lang::En).starts_with("group 1 is not valid"));
    }
}
