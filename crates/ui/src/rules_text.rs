//! The rule book shown in the app: a readable summary of each rule set (from
//! `RULES.md`), written without suit symbols (the fonts lack them).

use rami_melds::RuleSet;

/// The shared basics of the manipulation rule sets.
pub const MANIPULATION_BASICS: &str = "\
Cards: two 52-card decks shuffled together. A set is 3 or 4 cards of one rank, each of a different suit. A run is 3 or more cards of one suit in sequence. A group is a set or a run on the table.

On your turn you may rebuild the table as you like: split groups, move cards between groups, start new groups, as long as you add at least one card from your hand and every group is valid when you finish. A card on the table never goes back into a hand.

You rebuild on a private copy of the table. Done plays it; Reset puts everything back. When the stock is empty you pass instead of drawing; if every player passes in a row, the hand is blocked.";

/// The summary of one rule set.
pub fn summary(rules: RuleSet) -> &'static str {
    match rules {
        RuleSet::Manipulation => "\
Deal 7 each. Aces are high (Q-K-A, not A-2-3).

You must meld if you can. If you cannot, draw one card at a time until you can, then meld. Your turn ends only when you meld, or when you pass with the stock empty.

Must-meld check, Remind with hint (default): tapping Draw while you have a legal move shows a card you can play instead; tap Draw again to draw anyway.

The hand ends when a player plays their last card. The others score penalty points for the cards left: Ace 15, 10 J Q K 10, any other card 5. Hands follow until someone reaches the target (200 or 300); the lowest total wins.",
        RuleSet::Machiavelli => "\
Deal 13 each. Aces may be low or high (A-2-3 or Q-K-A, never K-A-2).

On your turn you play cards, or you draw one card; drawing ends your turn.

Unfinished move: Undo, no penalty (Reset puts everything back), or Take back, draw 3 (once you have changed the table, Reset becomes Give up (+3); two taps restore the table and draw three cards).

One hand: whoever empties their hand wins. A blocked hand is won by the fewest cards.",
        RuleSet::Shanghai => "\
Deal 10 each. Aces are low (A-2-3, not Q-K-A).

You must meld if you can, drawing one card at a time until you can, as in Manipulation.

When a player plays their last card, every other player scores 1 point per card left. Hands follow one another with no fixed end; the host ends the game and the lowest total wins.",
        RuleSet::Guadalupe => "\
Deal 5 each. Aces low or high, never around the corner.

On your turn you play cards, or you draw two cards. If you played without emptying your hand, you draw one card at the end of your turn.

Unfinished move as in Machiavelli. One hand: whoever empties their hand wins.",
        RuleSet::Carousel => "\
Two players: one deck and one joker. Three to five: two decks and two jokers. Deal 10 each. Aces low or high.

A joker stands for any card you name. It keeps that name on the table until the real card is there too.

Turn: always draw one card first. Then meld, or draw a second card; after the second, meld or draw a third, which ends your turn.

Knock: when your meld leaves you 5 points or fewer in hand (joker 25, J Q K 10, Ace 1, others their value), knock to end the hand. The fewest points wins the hand and scores the differences; an undercut scores 10 more; going out scores 25 more. The game ends at 150.",
        RuleSet::Vatikan => "\
Two decks and two jokers; deal 13 each. Aces low or high.

On your turn you draw one card or you meld, never both.

Your first meld must include a run of three cards of one suit from your own hand (jokers do not count). Before it you may not touch the table.

A joker on the table cannot move to another group until the real card it stands for is on the table. One hand: whoever empties their hand wins.",
        RuleSet::Tahiti => "\
Two decks and four jokers; deal 5 each, and 4 loose cards face up on the table. Aces low or high.

Loose cards may be used in your groups. A group may hold only one joker, and a group with a joker cannot be rearranged: only cards from your hand may join it. Play the real card from your hand to free the joker.

On your turn you play cards or draw one card. Whoever empties their hand wins; the others count joker 30, Ace 11, J Q K 10, others their value.",
        RuleSet::Rummy500 => "\
Two to seven players. Every card you meld scores, so you play for melds, not only to go out.

Deal 13 each with two players (or 7 or 10), 7 each with more.

Start your turn by drawing from the stock, taking the top of the discard pile, or digging: take a deeper card with every card above it, and meld the dug card at once.

Then meld sets and runs and lay off cards on any meld. End by discarding one card. The card just taken from the discard pile may not be discarded again this turn.

Scoring: the cards you melded minus the cards left in your hand. Ace 15 (1 in A-2-3), 10 J Q K 10, others their value. First to the target (500) ends the game; the highest total wins.",
        RuleSet::Rami => "\
Two to four players; two decks and six jokers; 13 cards each.

Turn: draw from the stock or take the last discard; meld if you can and wish; then discard one card.

Your first meld must be worth at least 30 points from your own hand, in new groups. After it you may lay off cards on any group, and exchange a joker on the table for the real card it stands for.

Cards left in hand are penalty points: 2 to 10 their value, J Q K 10, Ace 15, joker 30. Going out in one turn (rami sec) doubles everyone's penalty. A player past the points limit is out; the last player left wins.",
    }
}

/// The name of a rule set for people.
pub fn display_name(rules: RuleSet) -> &'static str {
    match rules {
        RuleSet::Manipulation => "Manipulation",
        RuleSet::Machiavelli => "Machiavelli",
        RuleSet::Shanghai => "Shanghai",
        RuleSet::Guadalupe => "Guadalupe",
        RuleSet::Carousel => "Carousel",
        RuleSet::Vatikan => "Vatikan",
        RuleSet::Tahiti => "Tahiti",
        RuleSet::Rummy500 => "Rummy 500",
        RuleSet::Rami => "Rami",
    }
}
