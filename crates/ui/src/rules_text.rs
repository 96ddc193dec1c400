//! The rule book shown in the app: a readable summary of each rule set (from
//! `RULES.md`, in English, French and Italian), written without suit symbols
//! (the fonts lack them).

use crate::i18n::Lang;
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

Cards left in hand are penalty points: 2 to 10 their value, J Q K 10, Ace 15, joker 30. Going out in one turn (rami sec) doubles everyone's penalty. A player past the points limit is out; the last player left wins.

Claim (when the table has it): right after a discard, before the next player draws, any other player may claim that card, with two penalty cards, and play at once.",
    }
}

/// The shared basics of the manipulation rule sets, in `lang`.
pub fn manipulation_basics(lang: Lang) -> &'static str {
    match lang {
        Lang::En => MANIPULATION_BASICS,
        Lang::Fr => "\
Cartes : deux jeux de 52 cartes mélangés ensemble. Un brelan, c'est 3 ou 4 cartes d'un même rang, chacune d'une couleur différente. Une suite, c'est 3 cartes ou plus d'une même couleur qui se suivent. Un groupe est un brelan ou une suite sur la table.

À votre tour, vous pouvez refaire la table comme vous voulez : séparer des groupes, déplacer des cartes d'un groupe à l'autre, commencer de nouveaux groupes, tant que vous ajoutez au moins une carte de votre main et que chaque groupe est valide à la fin. Une carte posée sur la table ne revient jamais dans une main.

Vous travaillez sur une copie privée de la table. Valider la joue ; Réinitialiser remet tout comme avant. Quand la pioche est vide, vous passez au lieu de piocher ; si tous les joueurs passent à la suite, la manche est bloquée.",
        Lang::It => "\
Carte: due mazzi da 52 carte mescolati insieme. Un tris è fatto di 3 o 4 carte dello stesso valore, ciascuna di un seme diverso. Una scala è fatta di 3 o più carte dello stesso seme in sequenza. Un gruppo è un tris o una scala sul tavolo.

Nel tuo turno puoi ricostruire il tavolo come vuoi: dividere gruppi, spostare carte da un gruppo all'altro, iniziare nuovi gruppi, purché tu aggiunga almeno una carta dalla mano e alla fine ogni gruppo sia valido. Una carta sul tavolo non torna mai in mano.

Ricostruisci su una copia privata del tavolo. Fatto la gioca; Ripristina rimette tutto com'era. Con il mazzo vuoto passi invece di pescare; se tutti i giocatori passano di fila, il giro è bloccato.",
    }
}

/// The summary of one rule set, in `lang`.
pub fn summary_in(lang: Lang, rules: RuleSet) -> &'static str {
    match lang {
        Lang::En => summary(rules),
        Lang::Fr => summary_fr(rules),
        Lang::It => summary_it(rules),
    }
}

fn summary_fr(rules: RuleSet) -> &'static str {
    match rules {
        RuleSet::Manipulation => "\
Sept cartes chacun. L'as est haut (D-R-A, pas A-2-3).

Vous devez poser si vous le pouvez. Sinon, piochez une carte à la fois jusqu'à pouvoir poser, puis posez. Votre tour ne finit que quand vous posez, ou quand vous passez avec la pioche vide.

Pose obligatoire, Rappel avec indice (par défaut) : toucher Piocher alors que vous avez un coup possible montre une carte que vous pouvez jouer ; touchez encore Piocher pour piocher quand même.

La manche finit quand un joueur pose sa dernière carte. Les autres marquent des points de pénalité pour les cartes qui leur restent : as 15, 10 V D R 10, toute autre carte 5. Les manches se suivent jusqu'à ce que quelqu'un atteigne l'objectif (200 ou 300) ; le plus petit total gagne.",
        RuleSet::Machiavelli => "\
Treize cartes chacun. L'as est bas ou haut (A-2-3 ou D-R-A, jamais R-A-2).

À votre tour, vous jouez des cartes, ou vous piochez une carte ; piocher finit votre tour.

Coup inachevé : Annuler sans pénalité (Réinitialiser remet tout comme avant), ou Reprendre, piocher 3 (dès que vous avez changé la table, Réinitialiser devient Abandonner (+3) ; deux touches remettent la table et font piocher trois cartes).

Une seule manche : celui qui vide sa main gagne. Une manche bloquée est gagnée par celui qui a le moins de cartes.",
        RuleSet::Shanghai => "\
Dix cartes chacun. L'as est bas (A-2-3, pas D-R-A).

Vous devez poser si vous le pouvez, en piochant une carte à la fois jusqu'à pouvoir poser, comme en Manipulation.

Quand un joueur pose sa dernière carte, chacun des autres marque 1 point par carte qui lui reste. Les manches se suivent sans fin fixée ; l'hôte termine la partie et le plus petit total gagne.",
        RuleSet::Guadalupe => "\
Cinq cartes chacun. L'as est bas ou haut, jamais au milieu.

À votre tour, vous jouez des cartes, ou vous piochez deux cartes. Si vous avez joué sans vider votre main, vous piochez une carte à la fin de votre tour.

Coup inachevé comme au Machiavel. Une seule manche : celui qui vide sa main gagne.",
        RuleSet::Carousel => "\
Deux joueurs : un jeu et un joker. De trois à cinq : deux jeux et deux jokers. Dix cartes chacun. L'as est bas ou haut.

Un joker remplace la carte que vous nommez. Il garde ce nom sur la table jusqu'à ce que la vraie carte y soit aussi.

Le tour : piochez toujours une carte d'abord. Ensuite posez, ou piochez une deuxième carte ; après la deuxième, posez ou piochez une troisième, qui finit votre tour.

Toquer : quand votre pose vous laisse 5 points ou moins en main (joker 25, V D R 10, as 1, les autres leur valeur), toquez pour finir la manche. Le moins de points gagne la manche et marque les différences ; un contre rapporte 10 de plus, poser toutes ses cartes 25 de plus. La partie finit à 150.",
        RuleSet::Vatikan => "\
Deux jeux et deux jokers ; treize cartes chacun. L'as est bas ou haut.

À votre tour, vous piochez une carte ou vous posez, jamais les deux.

Votre première pose doit contenir une suite de trois cartes d'une couleur venant de votre main (les jokers ne comptent pas). Avant elle, vous ne touchez pas à la table.

Un joker sur la table ne peut pas changer de groupe tant que la vraie carte qu'il remplace n'est pas sur la table. Une seule manche : celui qui vide sa main gagne.",
        RuleSet::Tahiti => "\
Deux jeux et quatre jokers ; cinq cartes chacun, et 4 cartes isolées face visible sur la table. L'as est bas ou haut.

Les cartes isolées peuvent entrer dans vos groupes. Un groupe n'a qu'un joker au plus, et un groupe avec un joker ne se réorganise pas : seules des cartes de votre main peuvent s'y ajouter. Jouez la vraie carte de votre main pour libérer le joker.

À votre tour, vous jouez des cartes ou vous piochez une carte. Celui qui vide sa main gagne ; les autres comptent joker 30, as 11, V D R 10, les autres leur valeur.",
        RuleSet::Rummy500 => "\
De deux à sept joueurs. Chaque carte posée rapporte des points : on joue pour poser, pas seulement pour finir.

Treize cartes chacun à deux joueurs (ou 7 ou 10), sept chacun au-delà.

Commencez votre tour en piochant, en prenant la carte du dessus de la défausse, ou en fouillant : prenez une carte plus profonde avec toutes celles au-dessus, et posez aussitôt la carte prise.

Ensuite posez des brelans et des suites, et complétez n'importe quelle combinaison. Finissez en défaussant une carte. La carte que vous venez de prendre dans la défausse ne peut pas y retourner ce tour-ci.

Points : les cartes posées moins les cartes restées en main. As 15 (1 dans A-2-3), 10 V D R 10, les autres leur valeur. Le premier à l'objectif (500) finit la partie ; le plus grand total gagne.",
        RuleSet::Rami => "\
De deux à quatre joueurs ; deux jeux et six jokers ; treize cartes chacun.

Le tour : piochez ou prenez la dernière carte défaussée ; posez si vous le pouvez et le voulez ; puis défaussez une carte.

Votre première pose doit valoir au moins 30 points venant de votre main, en nouveaux groupes. Ensuite vous pouvez compléter n'importe quel groupe, et échanger un joker de la table contre la vraie carte qu'il remplace.

Les cartes restées en main sont des points de pénalité : de 2 à 10 leur valeur, V D R 10, as 15, joker 30. Tout poser en un seul tour (rami sec) double la pénalité de chacun. Un joueur qui dépasse la limite de points est éliminé ; le dernier joueur en lice gagne.

Frapper (si la table l'a) : juste après une défausse, avant que le joueur suivant pioche, un autre joueur peut frapper pour prendre la carte, plus deux cartes de pénalité, et jouer aussitôt.",
    }
}

fn summary_it(rules: RuleSet) -> &'static str {
    match rules {
        RuleSet::Manipulation => "\
Sette carte a testa. L'asso vale alto (D-R-A, non A-2-3).

Devi calare se puoi. Se non puoi, pesca una carta alla volta finché puoi calare, poi cala. Il tuo turno finisce solo quando cali, o quando passi con il mazzo vuoto.

Obbligo di calare, Ricordare con suggerimento (predefinito): se tocchi Pesca quando hai una mossa, il tavolo ti mostra una carta che puoi giocare; tocca di nuovo Pesca per pescare comunque.

Il giro finisce quando un giocatore cala l'ultima carta. Gli altri segnano punti di penalità per le carte rimaste: asso 15, 10 F D R 10, ogni altra carta 5. I giri continuano finché qualcuno raggiunge l'obiettivo (200 o 300); vince il totale più basso.",
        RuleSet::Machiavelli => "\
Tredici carte a testa. L'asso vale basso o alto (A-2-3 o D-R-A, mai R-A-2).

Nel tuo turno giochi carte, oppure peschi una carta; pescare chiude il turno.

Mossa incompleta: Annulla senza penalità (Ripristina rimette tutto com'era), oppure Riprendi, pesca 3 (appena hai cambiato il tavolo, Ripristina diventa Rinuncia (+3); due tocchi rimettono il tavolo e fanno pescare tre carte).

Un solo giro: vince chi svuota la mano. Un giro bloccato lo vince chi ha meno carte.",
        RuleSet::Shanghai => "\
Dieci carte a testa. L'asso vale basso (A-2-3, non D-R-A).

Devi calare se puoi, pescando una carta alla volta finché puoi, come nel Manipulation.

Quando un giocatore cala l'ultima carta, ogni altro giocatore segna 1 punto per carta rimasta. I giri si susseguono senza una fine fissata; chi ospita chiude la partita e vince il totale più basso.",
        RuleSet::Guadalupe => "\
Cinque carte a testa. L'asso vale basso o alto, mai in mezzo.

Nel tuo turno giochi carte, oppure peschi due carte. Se hai giocato senza svuotare la mano, peschi una carta alla fine del turno.

Mossa incompleta come nel Machiavelli. Un solo giro: vince chi svuota la mano.",
        RuleSet::Carousel => "\
Due giocatori: un mazzo e un jolly. Da tre a cinque: due mazzi e due jolly. Dieci carte a testa. L'asso vale basso o alto.

Un jolly sostituisce la carta che dichiari. Mantiene quel nome sul tavolo finché non c'è anche la carta vera.

Il turno: pesca sempre prima una carta. Poi cala, oppure pesca una seconda carta; dopo la seconda, cala o pesca una terza, che chiude il turno.

Bussare: quando la tua calata ti lascia 5 punti o meno in mano (jolly 25, F D R 10, asso 1, le altre il loro valore), bussa per chiudere il giro. Chi ha meno punti vince il giro e segna le differenze; un sottotaglio vale 10 in più, la chiusura 25 in più. La partita finisce a 150.",
        RuleSet::Vatikan => "\
Due mazzi e due jolly; tredici carte a testa. L'asso vale basso o alto.

Nel tuo turno peschi una carta oppure cali, mai entrambe.

La tua prima calata deve contenere una scala di tre carte dello stesso seme dalla tua mano (i jolly non contano). Prima di allora non tocchi il tavolo.

Un jolly sul tavolo non può passare a un altro gruppo finché la carta vera che sostituisce non è sul tavolo. Un solo giro: vince chi svuota la mano.",
        RuleSet::Tahiti => "\
Due mazzi e quattro jolly; cinque carte a testa, e 4 carte sciolte scoperte sul tavolo. L'asso vale basso o alto.

Le carte sciolte possono entrare nei tuoi gruppi. Un gruppo ha al massimo un jolly, e un gruppo con un jolly non si riorganizza: solo carte dalla tua mano possono aggiungersi. Gioca la carta vera dalla mano per liberare il jolly.

Nel tuo turno giochi carte o peschi una carta. Vince chi svuota la mano; gli altri contano jolly 30, asso 11, F D R 10, le altre il loro valore.",
        RuleSet::Rummy500 => "\
Da due a sette giocatori. Ogni carta calata vale punti: si gioca per calare, non solo per chiudere.

Tredici carte a testa in due (o 7 o 10), sette a testa in più giocatori.

Inizia il turno pescando dal mazzo, prendendo la carta in cima agli scarti, o scavando: prendi una carta più in basso con tutte quelle sopra, e cala subito la carta presa.

Poi cala tris e scale e attacca carte a qualsiasi combinazione. Chiudi scartando una carta. La carta appena presa dagli scarti non può tornarci in questo turno.

Punti: le carte calate meno quelle rimaste in mano. Asso 15 (1 in A-2-3), 10 F D R 10, le altre il loro valore. Il primo a raggiungere l'obiettivo (500) chiude la partita; vince il totale più alto.",
        RuleSet::Rami => "\
Da due a quattro giocatori; due mazzi e sei jolly; tredici carte a testa.

Il turno: pesca dal mazzo o prendi l'ultimo scarto; cala se puoi e vuoi; poi scarta una carta.

La tua prima calata deve valere almeno 30 punti dalla tua mano, in gruppi nuovi. Dopo puoi attaccare carte a qualsiasi gruppo e scambiare un jolly sul tavolo con la carta vera che sostituisce.

Le carte rimaste in mano sono punti di penalità: da 2 a 10 il loro valore, F D R 10, asso 15, jolly 30. Calare tutto in un solo turno (rami secco) raddoppia la penalità di tutti. Chi supera il limite di punti è eliminato; vince l'ultimo giocatore rimasto.

Reclama (se il tavolo lo prevede): subito dopo uno scarto, prima che il giocatore seguente peschi, un altro giocatore può reclamare la carta, più due carte di penalità, e giocare subito.",
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_rule_set_has_its_rules_in_every_language_without_suit_symbols() {
        for lang in Lang::ALL {
            let basics = manipulation_basics(lang);
            assert!(!basics.is_empty());
            for rules in RuleSet::ALL {
                let text = summary_in(lang, rules);
                assert!(text.len() > 100, "{lang:?} {rules:?}");
                for t in [text, basics] {
                    assert!(!t.contains(['\u{2660}', '\u{2665}', '\u{2666}', '\u{2663}']));
                }
            }
        }
        assert_ne!(summary_in(Lang::Fr, RuleSet::Rami), summary(RuleSet::Rami));
        assert_ne!(
            summary_in(Lang::It, RuleSet::Rami),
            summary_in(Lang::Fr, RuleSet::Rami)
        );
    }
}
