//! The card notation of `CLI.md`: `10S`, `TS`, `A♠`, `*`, `*5H`; cards separated by
//! spaces or commas; a table is groups separated by `|`.

use crate::{Card, Face, Rank, Suit};

/// A token that is not a card, with the reason.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum NotationError {
    #[error("`{token}` is not a card: {reason}")]
    BadCard { token: String, reason: &'static str },
    #[error("group {group} of the table is empty")]
    EmptyGroup { group: usize },
}

fn bad(token: &str, reason: &'static str) -> NotationError {
    NotationError::BadCard {
        token: token.to_string(),
        reason,
    }
}

fn parse_face(token: &str, text: &str) -> Result<Face, NotationError> {
    let mut chars: Vec<char> = text.chars().collect();
    let suit_char = chars
        .pop()
        .ok_or_else(|| bad(token, "a card is a rank then a suit"))?;
    let suit = match suit_char.to_ascii_uppercase() {
        'S' | '♠' | '♤' => Suit::Spades,
        'H' | '♥' | '♡' => Suit::Hearts,
        'D' | '♦' | '♢' => Suit::Diamonds,
        'C' | '♣' | '♧' => Suit::Clubs,
        _ => return Err(bad(token, "the suit must be one of S H D C")),
    };
    let rank_text: String = chars.iter().collect::<String>().to_ascii_uppercase();
    let value = match rank_text.as_str() {
        "A" => 1,
        "J" => 11,
        "Q" => 12,
        "K" => 13,
        "T" => 10,
        "" => return Err(bad(token, "a card is a rank then a suit")),
        digits => match digits.parse::<u8>() {
            Ok(v) if (2..=10).contains(&v) => v,
            _ => return Err(bad(token, "the rank must be one of A 2-10 J Q K")),
        },
    };
    let rank =
        Rank::new(value).ok_or_else(|| bad(token, "the rank must be one of A 2-10 J Q K"))?;
    Ok(Face::new(rank, suit))
}

/// One card: `QS`, `10h`, `T♥`, `*` or `*5H`.
pub fn parse_card(token: &str) -> Result<Card, NotationError> {
    let token = token.trim();
    match token.strip_prefix('*') {
        Some("") => Ok(Card::JOKER),
        Some(rest) => Ok(Card::named_joker(parse_face(token, rest)?)),
        None => Ok(Card::from_face(parse_face(token, token)?)),
    }
}

/// Cards separated by spaces or commas; an empty string is no cards.
pub fn parse_cards(text: &str) -> Result<Vec<Card>, NotationError> {
    text.split(|c: char| c.is_whitespace() || c == ',')
        .filter(|t| !t.is_empty())
        .map(parse_card)
        .collect()
}

/// Groups separated by `|`; `""` is the empty table. An empty group between two
/// bars is an error.
pub fn parse_table(text: &str) -> Result<Vec<Vec<Card>>, NotationError> {
    if text.trim().is_empty() {
        return Ok(Vec::new());
    }
    text.split('|')
        .enumerate()
        .map(|(group, part)| {
            let cards = parse_cards(part)?;
            if cards.is_empty() {
                Err(NotationError::EmptyGroup { group })
            } else {
                Ok(cards)
            }
        })
        .collect()
}

/// `"QS KS AS"`.
pub fn format_cards(cards: &[Card]) -> String {
    cards
        .iter()
        .map(Card::to_string)
        .collect::<Vec<_>>()
        .join(" ")
}

/// `"QS KS AS | 7H 7D 7C"`.
pub fn format_table<G: AsRef<[Card]>>(groups: &[G]) -> String {
    groups
        .iter()
        .map(|g| format_cards(g.as_ref()))
        .collect::<Vec<_>>()
        .join(" | ")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_every_form_and_writes_capitals() {
        let cards = parse_cards("as, 10h Td 2♣ ♠ * *5h q♥").unwrap_err();
        assert!(cards.to_string().contains("`♠`"), "{cards}");
        let cards = parse_cards("as, 10h Td 2♣ * *5h q♥").unwrap();
        assert_eq!(format_cards(&cards), "AS 10H 10D 2C * *5H QH");
    }

    #[test]
    fn every_card_round_trips() {
        for face in Face::all() {
            for card in [Card::from_face(face), Card::named_joker(face)] {
                assert_eq!(parse_card(&card.to_string()).unwrap(), card);
            }
        }
        assert_eq!(parse_card("*").unwrap(), Card::JOKER);
    }

    #[test]
    fn errors_name_the_bad_token() {
        for (text, token) in [
            ("5H 1S", "1S"),
            ("5H 11S", "11S"),
            ("KX", "KX"),
            ("**5H", "**5H"),
            ("S", "S"),
            ("*ZZ", "*ZZ"),
        ] {
            let err = parse_cards(text).unwrap_err().to_string();
            assert!(err.contains(&format!("`{token}`")), "{text}: {err}");
        }
    }

    #[test]
    fn tables() {
        assert!(parse_table("").unwrap().is_empty());
        let t = parse_table("QS KS AS | 7H 7D 7C").unwrap();
        assert_eq!(format_table(&t), "QS KS AS | 7H 7D 7C");
        assert_eq!(
            parse_table("QS || 7H"),
            Err(NotationError::EmptyGroup { group: 1 })
        );
    }
}
