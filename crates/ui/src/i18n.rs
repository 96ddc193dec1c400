//! The catalogue: every string the app shows, in English, French and Italian.
//! One line per key; `{n}`-style placeholders are filled by [`Lang::fmt`].

use serde::{Deserialize, Serialize};
use std::collections::HashMap;
use std::sync::OnceLock;

/// A language of the app.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Lang {
    #[default]
    En,
    Fr,
    It,
}

impl Lang {
    pub const ALL: [Lang; 3] = [Lang::En, Lang::Fr, Lang::It];

    /// The language's own name (shown the same in every language).
    pub fn native_name(self) -> &'static str {
        match self {
            Lang::En => "English",
            Lang::Fr => "Français",
            Lang::It => "Italiano",
        }
    }

    /// The language of a locale tag (`fr-FR`, `it_IT.UTF-8`, `en`), if the app
    /// has it.
    pub fn from_locale(tag: &str) -> Option<Lang> {
        let primary: String = tag
            .chars()
            .take_while(|c| c.is_ascii_alphabetic())
            .collect::<String>()
            .to_ascii_lowercase();
        match primary.as_str() {
            "en" => Some(Lang::En),
            "fr" => Some(Lang::Fr),
            "it" => Some(Lang::It),
            _ => None,
        }
    }

    /// The first of the system's preferred languages that the app has
    /// (English if none): the language of a first run.
    pub fn system() -> Lang {
        Lang::first_of(sys_locale::get_locales())
    }

    /// The first language of `locales` that the app has (English if none).
    pub fn first_of(locales: impl IntoIterator<Item = String>) -> Lang {
        locales
            .into_iter()
            .find_map(|l| Lang::from_locale(&l))
            .unwrap_or_default()
    }

    /// The text of `key` in this language (the key itself if the catalogue lacks it).
    pub fn t(self, key: &'static str) -> &'static str {
        catalogue()
            .get(key)
            .map_or(key, |texts| texts[self as usize])
    }

    /// The text of `key` with each `{name}` replaced by its value.
    pub fn fmt(self, key: &'static str, args: &[(&str, &str)]) -> String {
        let mut out = self.t(key).to_string();
        for (name, value) in args {
            out = out.replace(&format!("{{{name}}}"), value);
        }
        out
    }
}

fn catalogue() -> &'static HashMap<&'static str, [&'static str; 3]> {
    static MAP: OnceLock<HashMap<&'static str, [&'static str; 3]>> = OnceLock::new();
    MAP.get_or_init(|| {
        ENTRIES
            .iter()
            .map(|(k, en, fr, it)| (*k, [*en, *fr, *it]))
            .collect()
    })
}

/// (key, English, French, Italian).
pub(crate) const ENTRIES: &[(&str, &str, &str, &str)] = &[
    // Home
    ("app.title", "Rami", "Rami", "Rami"),
    (
        "home.play_computer",
        "Play against the computer",
        "Jouer contre l'ordinateur",
        "Gioca contro il computer",
    ),
    (
        "home.play_nearby",
        "Play together nearby",
        "Jouer ensemble à proximité",
        "Gioca insieme nelle vicinanze",
    ),
    ("home.rules", "Rules", "Règles", "Regole"),
    ("home.settings", "Settings", "Réglages", "Impostazioni"),
    (
        "home.resume",
        "Resume the game",
        "Reprendre la partie",
        "Riprendi la partita",
    ),
    (
        "home.lesson_soon",
        "A guided lesson will come here.",
        "Une leçon guidée viendra ici.",
        "Qui arriverà una lezione guidata.",
    ),
    ("nav.back", "Back", "Retour", "Indietro"),
    ("nav.home", "Home", "Accueil", "Home"),
    // Nearby
    (
        "nearby.title",
        "Play together nearby",
        "Jouer ensemble à proximité",
        "Gioca insieme nelle vicinanze",
    ),
    (
        "nearby.body",
        "Everyone on the same Wi-Fi network: one device hosts the table and shows a join code; the others find the table and type the code.",
        "Tout le monde sur le même réseau Wi-Fi : un appareil ouvre la table et affiche un code ; les autres trouvent la table et tapent le code.",
        "Tutti sulla stessa rete Wi-Fi: un dispositivo apre il tavolo e mostra un codice; gli altri trovano il tavolo e digitano il codice.",
    ),
    (
        "nearby.host",
        "Host a table",
        "Ouvrir une table",
        "Apri un tavolo",
    ),
    (
        "nearby.join",
        "Join a table",
        "Rejoindre une table",
        "Unisciti a un tavolo",
    ),
    (
        "nearby.back_to_hosted",
        "Back to my table",
        "Retour à ma table",
        "Torna al mio tavolo",
    ),
    (
        "nearby.back_to_joined",
        "Back to the table",
        "Retour à la table",
        "Torna al tavolo",
    ),
    (
        "nearby.unreachable",
        "The table cannot be reached: {why}",
        "La table est injoignable : {why}",
        "Il tavolo non è raggiungibile: {why}",
    ),
    ("nearby.seats", "Seats", "Places", "Posti"),
    (
        "nearby.seat_empty",
        "Seat {n}: free (the computer plays here if nobody comes)",
        "Place {n} : libre (l'ordinateur y joue si personne ne vient)",
        "Posto {n}: libero (gioca il computer se non arriva nessuno)",
    ),
    (
        "nearby.seat_computer",
        "Seat {n}: the computer",
        "Place {n} : l'ordinateur",
        "Posto {n}: il computer",
    ),
    (
        "nearby.seat_person",
        "Seat {n}: {name}, {state}",
        "Place {n} : {name}, {state}",
        "Posto {n}: {name}, {state}",
    ),
    ("nearby.connected", "connected", "connecté", "connesso"),
    (
        "nearby.away",
        "connection lost",
        "connexion perdue",
        "connessione persa",
    ),
    (
        "nearby.covered",
        "away, the computer plays for them",
        "absent, l'ordinateur joue à sa place",
        "assente, il computer gioca al suo posto",
    ),
    ("nearby.your_name", "Your name", "Votre nom", "Il tuo nome"),
    ("nearby.default_host", "Host", "Hôte", "Ospite"),
    ("nearby.default_phone", "Player", "Joueur", "Giocatore"),
    (
        "host.title",
        "Host a table",
        "Ouvrir une table",
        "Apri un tavolo",
    ),
    (
        "host.table_name",
        "Table name",
        "Nom de la table",
        "Nome del tavolo",
    ),
    (
        "host.open",
        "Open the table",
        "Ouvrir la table",
        "Apri il tavolo",
    ),
    (
        "host.opening",
        "Opening the table...",
        "Ouverture de la table...",
        "Apertura del tavolo...",
    ),
    (
        "host.code_is",
        "Join code (the others type it):",
        "Code pour rejoindre (les autres le tapent) :",
        "Codice per unirsi (gli altri lo digitano):",
    ),
    (
        "host.listening",
        "Listening on {addr}",
        "À l'écoute sur {addr}",
        "In ascolto su {addr}",
    ),
    (
        "host.empty_seats",
        "Free seats are played by the computer.",
        "L'ordinateur joue aux places libres.",
        "Ai posti liberi gioca il computer.",
    ),
    (
        "host.start",
        "Start the game",
        "Commencer la partie",
        "Inizia la partita",
    ),
    (
        "host.close",
        "Close the table",
        "Fermer la table",
        "Chiudi il tavolo",
    ),
    (
        "join.title",
        "Join a table",
        "Rejoindre une table",
        "Unisciti a un tavolo",
    ),
    (
        "join.found",
        "Tables nearby",
        "Tables à proximité",
        "Tavoli vicini",
    ),
    (
        "join.looking",
        "Looking for tables nearby...",
        "Recherche de tables à proximité...",
        "Ricerca di tavoli vicini...",
    ),
    (
        "join.no_mdns",
        "Cannot look for tables on this network: {why}",
        "Impossible de chercher des tables sur ce réseau : {why}",
        "Impossibile cercare tavoli su questa rete: {why}",
    ),
    (
        "join.table",
        "{name} ({rules}), free seats: {n}",
        "{name} ({rules}), places libres : {n}",
        "{name} ({rules}), posti liberi: {n}",
    ),
    (
        "join.code",
        "Join code",
        "Code pour rejoindre",
        "Codice per unirsi",
    ),
    ("join.join", "Join", "Rejoindre", "Unisciti"),
    (
        "join.pick",
        "Pick a table, or type its code.",
        "Choisissez une table, ou tapez son code.",
        "Scegli un tavolo o digita il suo codice.",
    ),
    (
        "join.unusable",
        "This table gave no address to connect to.",
        "Cette table n'a donné aucune adresse où se connecter.",
        "Questo tavolo non ha dato un indirizzo a cui collegarsi.",
    ),
    (
        "join.wrong_code",
        "This code does not belong to that table: check the code on the host's screen.",
        "Ce code n'est pas celui de cette table : vérifiez le code sur l'écran de l'hôte.",
        "Questo codice non è di quel tavolo: controlla il codice sullo schermo di chi ospita.",
    ),
    (
        "join.connecting",
        "Connecting...",
        "Connexion...",
        "Connessione...",
    ),
    (
        "join.waiting",
        "Waiting for the host to let you in...",
        "En attente de l'accord de l'hôte...",
        "In attesa che chi ospita ti faccia entrare...",
    ),
    (
        "join.seated",
        "You have a seat. Waiting for the host to start the game...",
        "Vous avez une place. En attente du début de la partie...",
        "Hai un posto. In attesa che inizi la partita...",
    ),
    (
        "join.leave",
        "Leave the table",
        "Quitter la table",
        "Lascia il tavolo",
    ),
    ("join.again", "Try again", "Réessayer", "Riprova"),
    (
        "refusal.version",
        "This app and the host's app are different versions: update both.",
        "Cette application et celle de l'hôte ne sont pas de la même version : mettez-les à jour.",
        "Questa app e quella di chi ospita sono di versioni diverse: aggiornale entrambe.",
    ),
    (
        "refusal.wrong_code",
        "Wrong join code: check the code on the host's screen.",
        "Mauvais code : vérifiez le code sur l'écran de l'hôte.",
        "Codice sbagliato: controlla il codice sullo schermo di chi ospita.",
    ),
    (
        "refusal.unknown_token",
        "This table does not know your seat any more.",
        "Cette table ne connaît plus votre place.",
        "Questo tavolo non conosce più il tuo posto.",
    ),
    (
        "refusal.table_full",
        "The table is full.",
        "La table est complète.",
        "Il tavolo è pieno.",
    ),
    (
        "refusal.game_started",
        "The game has already started.",
        "La partie a déjà commencé.",
        "La partita è già iniziata.",
    ),
    (
        "refusal.declined",
        "The host declined your request.",
        "L'hôte a refusé votre demande.",
        "Chi ospita ha rifiutato la tua richiesta.",
    ),
    (
        "refusal.bad_hello",
        "The host did not understand this app.",
        "L'hôte n'a pas compris cette application.",
        "Chi ospita non ha capito questa app.",
    ),
    (
        "refusal.closing",
        "The host closed the table.",
        "L'hôte a fermé la table.",
        "Chi ospita ha chiuso il tavolo.",
    ),
    (
        "refusal.replaced",
        "Your seat was taken up on another device.",
        "Votre place a été reprise sur un autre appareil.",
        "Il tuo posto è stato ripreso su un altro dispositivo.",
    ),
    (
        "banner.rejoining",
        "Connection lost: rejoining the table...",
        "Connexion perdue : retour à la table...",
        "Connessione persa: rientro al tavolo...",
    ),
    (
        "banner.closed",
        "The table was closed.",
        "La table a été fermée.",
        "Il tavolo è stato chiuso.",
    ),
    (
        "banner.taken_over",
        "{name} is away: the computer plays their seat.",
        "{name} est absent : l'ordinateur joue à sa place.",
        "{name} è assente: il computer gioca al suo posto.",
    ),
    (
        "banner.away",
        "{name} lost the connection: waiting for them to come back.",
        "{name} a perdu la connexion : on l'attend.",
        "{name} ha perso la connessione: lo aspettiamo.",
    ),
    // Rules
    ("rules.title", "Rules", "Règles", "Regole"),
    (
        "rules.english_only",
        "The rule book is in English for now.",
        "Le livre de règles est en anglais pour l'instant.",
        "Il regolamento per ora è in inglese.",
    ),
    // Settings
    ("settings.title", "Settings", "Réglages", "Impostazioni"),
    ("settings.language", "Language", "Langue", "Lingua"),
    (
        "settings.four_colours",
        "Four-colour suits",
        "Couleurs en quatre teintes",
        "Semi in quattro colori",
    ),
    (
        "settings.large_cards",
        "Large cards",
        "Grandes cartes",
        "Carte grandi",
    ),
    (
        "settings.speed",
        "Computer speed",
        "Vitesse de l'ordinateur",
        "Velocità del computer",
    ),
    ("speed.slow", "Slow", "Lente", "Lenta"),
    ("speed.normal", "Normal", "Normale", "Normale"),
    ("speed.fast", "Fast", "Rapide", "Veloce"),
    ("speed.instant", "Instant", "Instantanée", "Istantanea"),
    // New game
    ("new.title", "New game", "Nouvelle partie", "Nuova partita"),
    ("new.rules", "Rule set", "Règle du jeu", "Regolamento"),
    (
        "new.players",
        "Players (you and the computer)",
        "Joueurs (vous et l'ordinateur)",
        "Giocatori (tu e il computer)",
    ),
    ("new.options", "Options", "Options", "Opzioni"),
    (
        "new.no_options",
        "This rule set has no options.",
        "Cette règle n'a pas d'options.",
        "Questo regolamento non ha opzioni.",
    ),
    ("new.start", "Start", "Commencer", "Inizia"),
    (
        "opt.must_meld_check",
        "Must-meld check",
        "Pose obligatoire",
        "Calata obbligatoria",
    ),
    (
        "opt.remind",
        "Remind with hint",
        "Rappel avec indice",
        "Promemoria con suggerimento",
    ),
    (
        "opt.trust",
        "Trust the player",
        "Confiance au joueur",
        "Fiducia nel giocatore",
    ),
    ("opt.play_to", "Play to", "Partie en", "Si gioca a"),
    (
        "opt.unfinished_move",
        "Unfinished move",
        "Coup inachevé",
        "Mossa incompiuta",
    ),
    (
        "opt.undo",
        "Undo, no penalty",
        "Annuler sans pénalité",
        "Annulla senza penalità",
    ),
    (
        "opt.take_back",
        "Take back, draw 3",
        "Reprendre, piocher 3",
        "Riprendi, pesca 3",
    ),
    (
        "opt.two_player_hand",
        "Cards each with two players",
        "Cartes chacun à deux joueurs",
        "Carte a testa in due giocatori",
    ),
    ("opt.target", "Target", "Objectif", "Obiettivo"),
    ("opt.jokers", "Two jokers", "Deux jokers", "Due jolly"),
    (
        "opt.claim",
        "Claim button",
        "Bouton Frapper",
        "Pulsante Reclama",
    ),
    (
        "opt.points_limit",
        "Points limit",
        "Limite de points",
        "Limite di punti",
    ),
    ("opt.single_hand", "One hand", "Une manche", "Una mano"),
    (
        "opt.move_time",
        "Time per move",
        "Temps par coup",
        "Tempo per mossa",
    ),
    ("opt.no_limit", "No limit", "Sans limite", "Nessun limite"),
    ("opt.seconds", "{n} s", "{n} s", "{n} s"),
    ("points", "{n} points", "{n} points", "{n} punti"),
    ("cards_n", "{n} cards", "{n} cartes", "{n} carte"),
    // Table
    ("table.hand_no", "Hand {n}", "Manche {n}", "Mano {n}"),
    ("table.stock", "Stock: {n}", "Pioche : {n}", "Mazzo: {n}"),
    ("table.you", "You", "Vous", "Tu"),
    (
        "table.computer",
        "Computer {n}",
        "Ordinateur {n}",
        "Computer {n}",
    ),
    (
        "table.your_turn",
        "Your turn",
        "À vous de jouer",
        "Tocca a te",
    ),
    (
        "table.playing",
        "{name} is playing...",
        "{name} joue...",
        "{name} sta giocando...",
    ),
    ("table.group", "Group {n}", "Groupe {n}", "Gruppo {n}"),
    ("table.not_valid", "not valid", "non valide", "non valido"),
    (
        "table.group_fault",
        "Group {n}: {why}",
        "Groupe {n} : {why}",
        "Gruppo {n}: {why}",
    ),
    (
        "table.new_group",
        "New group",
        "Nouveau groupe",
        "Nuovo gruppo",
    ),
    (
        "table.back_to_hand",
        "Back to hand",
        "Remettre en main",
        "Rimetti in mano",
    ),
    ("table.your_hand", "Your hand", "Votre main", "La tua mano"),
    (
        "table.empty",
        "The table is empty.",
        "La table est vide.",
        "Il tavolo è vuoto.",
    ),
    (
        "table.how_to",
        "Tap cards to select them, then tap a group or New group to place them; or drag a card.",
        "Touchez des cartes pour les choisir, puis un groupe ou Nouveau groupe pour les poser ; ou faites glisser une carte.",
        "Tocca le carte per sceglierle, poi un gruppo o Nuovo gruppo per posarle; oppure trascina una carta.",
    ),
    (
        "btn.sort_suit",
        "Sort by suit",
        "Trier par couleur",
        "Ordina per seme",
    ),
    (
        "btn.sort_rank",
        "Sort by rank",
        "Trier par valeur",
        "Ordina per valore",
    ),
    ("btn.reset", "Reset", "Réinitialiser", "Ripristina"),
    ("btn.done", "Done", "Valider", "Fatto"),
    ("btn.draw", "Draw", "Piocher", "Pesca"),
    ("btn.pass", "Pass", "Passer", "Passa"),
    ("btn.knock", "Knock", "Toquer", "Bussa"),
    (
        "btn.give_up",
        "Give up (+3)",
        "Abandonner (+3)",
        "Rinuncia (+3)",
    ),
    (
        "btn.end_game",
        "End the game",
        "Terminer la partie",
        "Termina la partita",
    ),
    (
        "btn.take",
        "Take the discard",
        "Prendre la défausse",
        "Prendi lo scarto",
    ),
    (
        "btn.dig",
        "Dig and meld",
        "Creuser et poser",
        "Scava e cala",
    ),
    (
        "btn.meld",
        "Meld selected",
        "Poser la sélection",
        "Cala la selezione",
    ),
    (
        "btn.discard",
        "Discard selected",
        "Défausser la sélection",
        "Scarta la selezione",
    ),
    ("btn.claim", "Claim", "Frapper", "Reclama"),
    (
        "claim.window",
        "{card} can be claimed for {n} s",
        "{card} peut être frappé pendant {n} s",
        "{card} può essere reclamato per {n} s",
    ),
    (
        "timer.yours",
        "Your move: {n} s left",
        "À vous : encore {n} s",
        "Tocca a te: ancora {n} s",
    ),
    (
        "timer.theirs",
        "{name} is playing: {n} s left",
        "{name} joue : encore {n} s",
        "{name} sta giocando: ancora {n} s",
    ),
    (
        "msg.refused",
        "Refused: {why}",
        "Refusé : {why}",
        "Rifiutato: {why}",
    ),
    (
        "msg.add_a_card",
        "Add at least one card from your hand first.",
        "Ajoutez d'abord au moins une carte de votre main.",
        "Aggiungi prima almeno una carta dalla tua mano.",
    ),
    (
        "msg.hint",
        "You can still play: {cards}. Tap again to go on anyway.",
        "Vous pouvez encore jouer : {cards}. Touchez encore pour continuer quand même.",
        "Puoi ancora giocare: {cards}. Tocca di nuovo per proseguire comunque.",
    ),
    (
        "msg.rearrange",
        "The table must be rearranged for it.",
        "Il faut pour cela réarranger la table.",
        "Per farlo bisogna riorganizzare il tavolo.",
    ),
    (
        "msg.give_up_armed",
        "Tap Give up again to take back your move and draw 3.",
        "Touchez encore Abandonner pour reprendre votre coup et piocher 3.",
        "Tocca di nuovo Rinuncia per riprendere la mossa e pescare 3.",
    ),
    (
        "msg.joker_name",
        "Which card does the joker in group {n} stand for?",
        "Quelle carte le joker du groupe {n} remplace-t-il ?",
        "Quale carta rappresenta il jolly del gruppo {n}?",
    ),
    (
        "msg.select_one",
        "Select exactly one card of your hand.",
        "Choisissez exactement une carte de votre main.",
        "Scegli esattamente una carta della tua mano.",
    ),
    (
        "msg.dig_target",
        "Dig for {card}: select hand cards to meld with it, then Dig and meld (or tap a group to lay it off).",
        "Creuser jusqu'à {card} : choisissez des cartes de votre main pour la poser, puis Creuser et poser (ou touchez un groupe pour l'y ajouter).",
        "Scava fino a {card}: scegli carte della tua mano da calare con essa, poi Scava e cala (o tocca un gruppo per attaccarla).",
    ),
    ("discard.pile", "Discard pile", "Défausse", "Scarti"),
    (
        "discard.empty",
        "The discard pile is empty.",
        "La défausse est vide.",
        "Gli scarti sono vuoti.",
    ),
    // Cards
    (
        "card.of",
        "{rank} of {suit}",
        "{rank} de {suit}",
        "{rank} di {suit}",
    ),
    ("card.joker", "Joker", "Joker", "Jolly"),
    (
        "card.joker_as",
        "Joker as {card}",
        "Joker pour {card}",
        "Jolly come {card}",
    ),
    (
        "card.in_group",
        "{card}, group {n}",
        "{card}, groupe {n}",
        "{card}, gruppo {n}",
    ),
    (
        "card.in_discard",
        "{card}, discard pile",
        "{card}, défausse",
        "{card}, scarti",
    ),
    ("rank.ace", "Ace", "As", "Asso"),
    ("rank.jack", "Jack", "Valet", "Fante"),
    ("rank.queen", "Queen", "Dame", "Donna"),
    ("rank.king", "King", "Roi", "Re"),
    ("suit.spades", "spades", "pique", "picche"),
    ("suit.hearts", "hearts", "cœur", "cuori"),
    ("suit.diamonds", "diamonds", "carreau", "quadri"),
    ("suit.clubs", "clubs", "trèfle", "fiori"),
    // End of hand / game
    (
        "end.hand_over",
        "Hand {n} is over",
        "La manche {n} est terminée",
        "La mano {n} è finita",
    ),
    (
        "end.went_out",
        "{name} went out.",
        "{name} a posé toutes ses cartes.",
        "{name} ha finito le carte.",
    ),
    (
        "end.blocked",
        "Blocked: every player passed.",
        "Bloquée : tout le monde a passé.",
        "Bloccata: tutti hanno passato.",
    ),
    (
        "end.knocked",
        "{name} knocked.",
        "{name} a toqué.",
        "{name} ha bussato.",
    ),
    (
        "end.stock_out",
        "The stock ran out.",
        "La pioche est épuisée.",
        "Il mazzo è finito.",
    ),
    (
        "end.by_host",
        "The host ended the game.",
        "L'hôte a terminé la partie.",
        "L'host ha terminato la partita.",
    ),
    ("end.player", "Player", "Joueur", "Giocatore"),
    (
        "end.cards_left",
        "Cards left",
        "Cartes restantes",
        "Carte rimaste",
    ),
    (
        "end.hand_points",
        "Points in hand",
        "Points en main",
        "Punti in mano",
    ),
    ("end.this_hand", "This hand", "Cette manche", "Questa mano"),
    ("end.total", "Total", "Total", "Totale"),
    ("end.bonuses", "Bonuses", "Bonus", "Bonus"),
    (
        "end.next_hand",
        "Next hand",
        "Manche suivante",
        "Mano successiva",
    ),
    (
        "end.game_over",
        "Game over",
        "Partie terminée",
        "Partita finita",
    ),
    (
        "end.winner",
        "Winner: {names}",
        "Gagnant : {names}",
        "Vincitore: {names}",
    ),
    ("end.draw", "A draw.", "Match nul.", "Pareggio."),
    ("end.play_again", "Play again", "Rejouer", "Gioca ancora"),
    ("bonus.undercut", "undercut", "contre", "sottotaglio"),
    ("bonus.going_out", "going out", "sortie", "chiusura"),
    (
        "bonus.reached_150",
        "reached 150",
        "atteint 150",
        "raggiunto 150",
    ),
    (
        "bonus.hands_won",
        "hands won",
        "manches gagnées",
        "mani vinte",
    ),
    ("bonus.rami_sec", "rami sec", "rami sec", "rami secco"),
    // Log
    (
        "log.played",
        "{name} played {cards}.",
        "{name} a joué {cards}.",
        "{name} ha giocato {cards}.",
    ),
    (
        "log.drew",
        "{name} drew {n}.",
        "{name} a pioché {n}.",
        "{name} ha pescato {n}.",
    ),
    (
        "log.passed",
        "{name} passed.",
        "{name} a passé.",
        "{name} ha passato.",
    ),
    (
        "log.took",
        "{name} took {card}.",
        "{name} a pris {card}.",
        "{name} ha preso {card}.",
    ),
    (
        "log.discarded",
        "{name} discarded {card}.",
        "{name} a défaussé {card}.",
        "{name} ha scartato {card}.",
    ),
    (
        "log.melded",
        "{name} melded {n} groups.",
        "{name} a posé {n} groupes.",
        "{name} ha calato {n} gruppi.",
    ),
];

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::HashSet;

    #[test]
    fn every_key_once_and_every_language_filled() {
        let mut seen = HashSet::new();
        for (k, en, fr, it) in ENTRIES {
            assert!(seen.insert(*k), "duplicate key {k}");
            for text in [en, fr, it] {
                assert!(!text.trim().is_empty(), "empty text for {k}");
                // No suit symbols: egui's default fonts cannot draw them.
                assert!(
                    !text.contains(['♠', '♥', '♦', '♣', '★']),
                    "suit symbol in {k}"
                );
            }
        }
    }

    #[test]
    fn locales_map_to_languages() {
        assert_eq!(Lang::from_locale("fr-FR"), Some(Lang::Fr));
        assert_eq!(Lang::from_locale("it_IT.UTF-8"), Some(Lang::It));
        assert_eq!(Lang::from_locale("en"), Some(Lang::En));
        assert_eq!(Lang::from_locale("de-DE"), None);
        assert_eq!(Lang::from_locale("C"), None);
        let prefs = ["de-CH", "it-CH", "fr-CH"].map(String::from);
        assert_eq!(Lang::first_of(prefs), Lang::It);
        assert_eq!(Lang::first_of(["C".to_string()]), Lang::En);
    }

    #[test]
    fn placeholders_are_filled() {
        assert_eq!(Lang::Fr.fmt("table.group", &[("n", "2")]), "Groupe 2");
        assert_eq!(Lang::It.t("btn.done"), "Fatto");
        assert_eq!(Lang::En.t("no.such.key"), "no.such.key");
    }
}
