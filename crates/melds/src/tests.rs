use super::*;
use rami_cards::parse_cards;

fn check(text: &str, rules: RuleSet) -> Result<GroupKind, GroupError> {
    validate_group(&parse_cards(text).unwrap(), rules.group_rules())
}

#[test]
fn sets_need_three_or_four_distinct_suits() {
    use RuleSet::Manipulation as M;
    assert_eq!(check("7H 7D 7C", M), Ok(GroupKind::Set));
    assert_eq!(check("7H 7D 7C 7S", M), Ok(GroupKind::Set));
    assert_eq!(check("7H 7D", M), Err(GroupError::TooFewCards));
    assert_eq!(check("7H 7H 7C", M), Err(GroupError::RepeatedSuitInSet));
    assert_eq!(check("7H 7D 7C 7S 7S", M), Err(GroupError::SetTooLong));
    assert_eq!(check("7H 8D 7C", M), Err(GroupError::NeitherSetNorRun));
}

#[test]
fn ace_high_mode() {
    use RuleSet::Manipulation as M;
    assert_eq!(check("QS KS AS", M), Ok(GroupKind::Run));
    assert_eq!(
        check("AS 2S 3S", M),
        Err(GroupError::AceMisplaced(AceMisplaced::HighOnly))
    );
    assert!(check("KS AS 2S", M).is_err());
}

#[test]
fn ace_low_mode() {
    use RuleSet::Shanghai as S;
    assert_eq!(check("AS 2S 3S", S), Ok(GroupKind::Run));
    assert_eq!(
        check("QS KS AS", S),
        Err(GroupError::AceMisplaced(AceMisplaced::LowOnly))
    );
}

#[test]
fn ace_either_mode_never_around_the_corner() {
    use RuleSet::Machiavelli as X;
    assert_eq!(check("AS 2S 3S", X), Ok(GroupKind::Run));
    assert_eq!(check("QS KS AS", X), Ok(GroupKind::Run));
    assert_eq!(
        check("KS AS 2S", X),
        Err(GroupError::AceMisplaced(AceMisplaced::NeverAroundTheCorner))
    );
    // A run never holds two aces.
    let full = "AS 2S 3S 4S 5S 6S 7S 8S 9S 10S JS QS KS";
    assert_eq!(check(full, X), Ok(GroupKind::Run));
    assert!(check(&format!("{full} AS"), X).is_err());
}

#[test]
fn runs_in_any_order_but_in_sequence() {
    use RuleSet::Manipulation as M;
    assert_eq!(check("9H 7H 8H", M), Ok(GroupKind::Run));
    assert_eq!(check("7H 8H 10H", M), Err(GroupError::NotInSequence));
    assert_eq!(check("7H 8H 8H 9H", M), Err(GroupError::RepeatedCardInRun));
}

#[test]
fn joker_limits_per_rule_set() {
    assert_eq!(
        check("*5H 6H 7H", RuleSet::Manipulation),
        Err(GroupError::NoJokersHere)
    );
    assert_eq!(check("*5H 6H 7H", RuleSet::Carousel), Ok(GroupKind::Run));
    assert_eq!(
        check("*5H *6H 7H", RuleSet::Tahiti),
        Err(GroupError::TooManyJokers)
    );
    assert_eq!(
        check("*5H *6H 7H", RuleSet::Rami),
        Err(GroupError::JokersOutnumberNaturals)
    );
    assert_eq!(check("*5H *6H 7H 8H", RuleSet::Rami), Ok(GroupKind::Run));
    assert_eq!(
        check("*5H *6H *7H", RuleSet::Carousel),
        Err(GroupError::OnlyJokers)
    );
    assert_eq!(
        check("* 6H 7H", RuleSet::Carousel),
        Err(GroupError::UnnamedJoker)
    );
}

#[test]
fn joker_namings_list_every_fit() {
    let rules = RuleSet::Carousel.group_rules();
    let names = |t: &str| -> Vec<String> {
        joker_namings(&parse_cards(t).unwrap(), rules)
            .into_iter()
            .map(|w| {
                w.iter()
                    .map(|f| f.to_string())
                    .collect::<Vec<_>>()
                    .join(" ")
            })
            .collect()
    };
    assert_eq!(names("5H * 7H"), vec!["6H"]);
    assert_eq!(names("5H 6H *"), vec!["4H", "7H"]);
    assert_eq!(names("7H 7D *"), vec!["7S", "7C"]);
    assert_eq!(names("QS KS *"), vec!["AS", "JS"]);
    assert_eq!(names("KS AS *"), vec!["QS"]);
    assert!(names("5H 9H *").is_empty());
    // Two unnamed jokers: swaps are not listed twice.
    assert_eq!(names("7H 7D * *"), vec!["7S 7C"]);
    let high = RuleSet::Manipulation.group_rules();
    assert!(joker_namings(&parse_cards("5H * 7H").unwrap(), high).is_empty());
}

#[test]
fn reading_order_puts_runs_in_sequence() {
    let order =
        |t: &str, ace| rami_cards::format_cards(&reading_order(&parse_cards(t).unwrap(), ace));
    assert_eq!(order("AS KS QS", AceMode::Either), "QS KS AS");
    assert_eq!(order("3S AS 2S", AceMode::Either), "AS 2S 3S");
    assert_eq!(order("7C 7H 7S", AceMode::High), "7S 7H 7C");
    assert_eq!(order("*6H 7H 5H", AceMode::Either), "5H *6H 7H");
}

#[test]
fn rule_set_names_round_trip() {
    for r in RuleSet::ALL {
        assert_eq!(r.name().parse::<RuleSet>(), Ok(r));
    }
    assert!("poker".parse::<RuleSet>().is_err());
}

#[test]
fn card_values() {
    let v = |r: RuleSet, t: &str| r.hand_points(parse_cards(t).unwrap()[0]);
    assert_eq!(v(RuleSet::Manipulation, "AS"), 15);
    assert_eq!(v(RuleSet::Manipulation, "10S"), 10);
    assert_eq!(v(RuleSet::Manipulation, "9S"), 5);
    assert_eq!(v(RuleSet::Carousel, "*"), 25);
    assert_eq!(v(RuleSet::Carousel, "AS"), 1);
    assert_eq!(v(RuleSet::Carousel, "7S"), 7);
    assert_eq!(v(RuleSet::Tahiti, "*"), 30);
    assert_eq!(v(RuleSet::Tahiti, "AS"), 11);
    assert_eq!(v(RuleSet::Shanghai, "KS"), 1);
    assert_eq!(v(RuleSet::Rami, "*"), 30);
    assert_eq!(v(RuleSet::Rummy500, "*"), 15);
}

#[test]
fn whole_tables_name_the_first_bad_group() {
    let t =
        |rules: RuleSet, text: &str| check_table(rules, &rami_cards::parse_table(text).unwrap());
    assert_eq!(t(RuleSet::Manipulation, "QS KS AS | 7H 7D 7C"), Ok(()));
    let err = t(RuleSet::Manipulation, "QS KS AS | 7H 7H 7C").unwrap_err();
    assert!(err.starts_with("group 1 (7H 7H 7C)"), "{err}");
    assert!(t(RuleSet::Tahiti, "5H | 7H 7D 7C").is_ok());
    assert!(t(RuleSet::Manipulation, "5H | 7H 7D 7C").is_err());
    let err = t(RuleSet::Manipulation, "7H 7D 7C | 7H 7S 7C | 7H 8H 9H").unwrap_err();
    assert!(err.contains("7H 3 times"), "{err}");
    assert!(t(RuleSet::Carousel, "5H * 7H").is_ok());
    assert!(
        t(RuleSet::Carousel, "5H 6H *")
            .unwrap_err()
            .contains("several")
    );
}
