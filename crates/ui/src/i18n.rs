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
        "Seat {n}: the computer ({level})",
        "Place {n} : l'ordinateur ({level})",
        "Posto {n}: il computer ({level})",
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
        "Address (to join by typing it): {addr}",
        "Adresse (pour rejoindre en la tapant) : {addr}",
        "Indirizzo (per unirsi digitandolo): {addr}",
    ),
    (
        "host.seats",
        "Seats at the table",
        "Places à la table",
        "Posti al tavolo",
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
    // Why an action is not possible now (one key per NotNowReason; refusal.rs).
    (
        "notnow.table_changed",
        "you changed the table: play it with Done or Give up (+3)",
        "vous avez changé la table : jouez-la avec Valider ou Abandonner (+3)",
        "hai cambiato il tavolo: giocalo con Fatto o Rinuncia (+3)",
    ),
    (
        "notnow.stock_empty_pass",
        "the stock is empty: pass instead",
        "la pioche est vide : passez",
        "il mazzo è vuoto: passa",
    ),
    (
        "notnow.no_draw_last_turns",
        "no drawing in the last turns after the stock ran out",
        "on ne pioche plus dans les derniers tours, la pioche est vide",
        "niente pescate negli ultimi giri, il mazzo è finito",
    ),
    (
        "notnow.three_draws",
        "three draws already",
        "déjà trois pioches",
        "già tre pescate",
    ),
    (
        "notnow.stock_not_empty",
        "the stock is not empty: draw instead",
        "la pioche n'est pas vide : piochez",
        "il mazzo non è vuoto: pesca",
    ),
    (
        "notnow.take_back_only",
        "only with the option Take back, draw 3",
        "seulement avec l'option Reprendre, piocher 3",
        "solo con l'opzione Riprendi, pesca 3",
    ),
    (
        "notnow.table_unchanged",
        "you have not changed the table: just draw",
        "vous n'avez pas changé la table : piochez simplement",
        "non hai cambiato il tavolo: pesca e basta",
    ),
    (
        "notnow.draw_before_meld",
        "draw your first card before you meld",
        "piochez votre première carte avant de poser",
        "pesca la prima carta prima di calare",
    ),
    (
        "notnow.carousel_only",
        "only in Carousel",
        "seulement au Carrousel",
        "solo nel Carosello",
    ),
    (
        "notnow.no_knock_last_turns",
        "no knocking in the last turns after the stock ran out",
        "on ne toque plus dans les derniers tours, la pioche est vide",
        "non si bussa negli ultimi giri, il mazzo è finito",
    ),
    (
        "notnow.knock_after_draw",
        "knock only after your first or second draw",
        "on ne toque qu'après la première ou la deuxième pioche",
        "si bussa solo dopo la prima o la seconda pescata",
    ),
    (
        "notnow.shanghai_only",
        "only Shanghai is ended by the host",
        "seule une partie de Shanghai est terminée par l'hôte",
        "solo una partita di Shanghai viene chiusa da chi ospita",
    ),
    (
        "notnow.host_only",
        "only the host ends the game",
        "seul l'hôte termine la partie",
        "solo chi ospita chiude la partita",
    ),
    (
        "notnow.host_ends_shanghai",
        "only the host ends a Shanghai game",
        "seul l'hôte termine une partie de Shanghai",
        "solo chi ospita chiude una partita di Shanghai",
    ),
    (
        "notnow.no_such_action",
        "this rule set has no such action",
        "ce jeu n'a pas cette action",
        "questo gioco non ha questa azione",
    ),
    (
        "notnow.already_drawn",
        "you have already drawn this turn",
        "vous avez déjà pioché ce tour-ci",
        "hai già pescato in questo turno",
    ),
    (
        "notnow.draw_first",
        "draw first: from the stock or the discard pile",
        "piochez d'abord : dans la pioche ou la défausse",
        "prima pesca: dal mazzo o dagli scarti",
    ),
    (
        "notnow.not_in_discard_games",
        "the discard-pile rule sets have no such action",
        "les jeux à défausse n'ont pas cette action",
        "i giochi con gli scarti non hanno questa azione",
    ),
    (
        "notnow.stock_empty_take_discard",
        "the stock is empty: take the discard",
        "la pioche est vide : prenez la défausse",
        "il mazzo è vuoto: prendi lo scarto",
    ),
    (
        "notnow.discard_empty",
        "the discard pile is empty",
        "la défausse est vide",
        "il mucchio degli scarti è vuoto",
    ),
    (
        "notnow.dig_rummy500_only",
        "only Rummy 500 lets you dig in the discard pile",
        "seul le Rummy 500 permet de fouiller la défausse",
        "solo il Rummy 500 permette di scavare negli scarti",
    ),
    (
        "notnow.joker_stays_rummy500",
        "in Rummy 500 a joker on the table is never taken back",
        "au Rummy 500, un joker posé ne se reprend jamais",
        "nel Rummy 500 un jolly sul tavolo non si riprende mai",
    ),
    (
        "notnow.claim_off",
        "the Claim button is off at this table",
        "le bouton Frapper n'est pas activé à cette table",
        "il pulsante Reclama è disattivato a questo tavolo",
    ),
    (
        "notnow.claim_closed",
        "the claim window has closed",
        "le moment de frapper est passé",
        "il tempo per reclamare è scaduto",
    ),
    (
        "notnow.nothing_to_claim",
        "there is no discard to claim now",
        "il n'y a pas de carte à frapper maintenant",
        "non c'è uno scarto da reclamare ora",
    ),
    (
        "notnow.own_discard",
        "you cannot claim your own discard",
        "vous ne pouvez pas frapper votre propre carte",
        "non puoi reclamare il tuo scarto",
    ),
    (
        "notnow.next_player_takes",
        "the player whose turn is next may not claim: take the discard instead",
        "le joueur suivant ne peut pas frapper : prenez la défausse",
        "chi gioca dopo non può reclamare: prendi lo scarto",
    ),
    (
        "host.requests",
        "Asking to join",
        "Demandent à rejoindre",
        "Chiedono di unirsi",
    ),
    (
        "host.asks",
        "{name} asks to join.",
        "{name} demande à rejoindre.",
        "{name} chiede di unirsi.",
    ),
    ("host.into_seat", "Seat {n}", "Place {n}", "Posto {n}"),
    (
        "host.accept",
        "Accept {name}",
        "Accepter {name}",
        "Accetta {name}",
    ),
    (
        "host.decline",
        "Decline {name}",
        "Refuser {name}",
        "Rifiuta {name}",
    ),
    (
        "host.full",
        "Every seat is taken: clear one to let someone in.",
        "Toutes les places sont prises : libérez-en une pour faire entrer quelqu'un.",
        "Tutti i posti sono occupati: liberane uno per far entrare qualcuno.",
    ),
    (
        "host.add_computer",
        "Computer in seat {n}",
        "Ordinateur à la place {n}",
        "Computer al posto {n}",
    ),
    (
        "host.clear",
        "Clear seat {n}",
        "Libérer la place {n}",
        "Libera il posto {n}",
    ),
    (
        "host.level",
        "Computer players:",
        "Joueurs ordinateur :",
        "Giocatori computer:",
    ),
    (
        "host.failed",
        "Could not do that: {why}",
        "Impossible : {why}",
        "Impossibile: {why}",
    ),
    ("level.greedy", "quick", "rapide", "veloce"),
    (
        "level.best",
        "best (rearranges the table)",
        "le meilleur (réarrange la table)",
        "il migliore (riorganizza il tavolo)",
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
        "Pick a table, or type its code, or its address and code.",
        "Choisissez une table, ou tapez son code, ou son adresse et son code.",
        "Scegli un tavolo, o digita il suo codice, o il suo indirizzo e codice.",
    ),
    (
        "join.addr",
        "Or the table's address (IP:port, on the host's screen)",
        "Ou l'adresse de la table (IP:port, sur l'écran de l'hôte)",
        "O l'indirizzo del tavolo (IP:porta, sullo schermo di chi ospita)",
    ),
    (
        "join.bad_addr",
        "This is not an address: type it as IP:port, for example 192.168.1.20:47000 or [fe80::1]:47000.",
        "Ce n'est pas une adresse : tapez-la sous la forme IP:port, par exemple 192.168.1.20:47000 ou [fe80::1]:47000.",
        "Questo non è un indirizzo: scrivilo come IP:porta, per esempio 192.168.1.20:47000 o [fe80::1]:47000.",
    ),
    (
        "join.code_needed",
        "Type the join code too (six letters and digits, on the host's screen).",
        "Tapez aussi le code pour rejoindre (six lettres et chiffres, sur l'écran de l'hôte).",
        "Digita anche il codice per unirsi (sei lettere e cifre, sullo schermo di chi ospita).",
    ),
    (
        "join.not_that_table",
        "The table at that address is not the one of this code: check the address and the code on the host's screen.",
        "La table à cette adresse n'est pas celle de ce code : vérifiez l'adresse et le code sur l'écran de l'hôte.",
        "Il tavolo a quell'indirizzo non è quello di questo codice: controlla indirizzo e codice sullo schermo di chi ospita.",
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
        "refusal.removed",
        "The host gave your seat to someone else.",
        "L'hôte a donné votre place à quelqu'un d'autre.",
        "Chi ospita ha dato il tuo posto a qualcun altro.",
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
        "end.went_out.you",
        "You went out.",
        "Vous avez posé toutes vos cartes.",
        "Hai finito le carte.",
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
        "end.knocked.you",
        "You knocked.",
        "Vous avez toqué.",
        "Hai bussato.",
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
        "log.played.you",
        "You played {cards}.",
        "Vous avez joué {cards}.",
        "Hai giocato {cards}.",
    ),
    (
        "log.drew",
        "{name} drew {n}.",
        "{name} a pioché {n}.",
        "{name} ha pescato {n}.",
    ),
    (
        "log.drew.you",
        "You drew {n}.",
        "Vous avez pioché {n}.",
        "Hai pescato {n}.",
    ),
    (
        "log.passed",
        "{name} passed.",
        "{name} a passé.",
        "{name} ha passato.",
    ),
    (
        "log.passed.you",
        "You passed.",
        "Vous avez passé.",
        "Hai passato.",
    ),
    (
        "log.took",
        "{name} took {card}.",
        "{name} a pris {card}.",
        "{name} ha preso {card}.",
    ),
    (
        "log.took.you",
        "You took {card}.",
        "Vous avez pris {card}.",
        "Hai preso {card}.",
    ),
    (
        "log.claimed",
        "{name} claimed {card} from the discard pile.",
        "{name} a frappé et pris {card} dans la défausse.",
        "{name} ha reclamato {card} dagli scarti.",
    ),
    (
        "log.claimed.you",
        "You claimed {card} from the discard pile.",
        "Vous avez frappé et pris {card} dans la défausse.",
        "Hai reclamato {card} dagli scarti.",
    ),
    (
        "log.discarded",
        "{name} discarded {card}.",
        "{name} a défaussé {card}.",
        "{name} ha scartato {card}.",
    ),
    (
        "log.discarded.you",
        "You discarded {card}.",
        "Vous avez défaussé {card}.",
        "Hai scartato {card}.",
    ),
    (
        "log.melded",
        "{name} melded {n} groups.",
        "{name} a posé {n} groupes.",
        "{name} ha calato {n} gruppi.",
    ),
    (
        "log.melded.you",
        "You melded {n} groups.",
        "Vous avez posé {n} groupes.",
        "Hai calato {n} gruppi.",
    ),
    // Refusals (the engine's errors)
    ("kind.draw", "Draw", "Piocher", "Pesca"),
    ("kind.pass", "Pass", "Passer", "Passa"),
    ("kind.done", "Done", "Valider", "Fatto"),
    ("kind.knock", "Knock", "Toquer", "Bussa"),
    (
        "kind.touch_table",
        "Changing the table",
        "Changer la table",
        "Cambiare il tavolo",
    ),
    ("kind.give_up", "Give up", "Abandonner", "Rinuncia"),
    (
        "kind.end_game",
        "Ending the game",
        "Terminer la partie",
        "Chiudere la partita",
    ),
    (
        "kind.take_discard",
        "Taking the discard",
        "Prendre la défausse",
        "Prendere lo scarto",
    ),
    (
        "kind.dig",
        "Digging",
        "Fouiller la défausse",
        "Scavare negli scarti",
    ),
    ("kind.meld", "Melding", "Poser", "Calare"),
    (
        "kind.lay_off",
        "Laying off",
        "Compléter une combinaison",
        "Attaccare",
    ),
    (
        "kind.exchange_joker",
        "Exchanging a joker",
        "Échanger un joker",
        "Scambiare un jolly",
    ),
    ("kind.discard", "Discarding", "Défausser", "Scartare"),
    ("kind.claim", "Claim", "Frapper", "Reclama"),
    (
        "group_err.too_few",
        "a group needs at least 3 cards",
        "un groupe a au moins 3 cartes",
        "un gruppo ha almeno 3 carte",
    ),
    (
        "group_err.set_too_long",
        "a set has at most 4 cards",
        "une série a au plus 4 cartes",
        "un tris ha al massimo 4 carte",
    ),
    (
        "group_err.repeated_suit",
        "a set may not hold two cards of the same suit",
        "une série ne peut pas avoir deux cartes de la même couleur",
        "un tris non può avere due carte dello stesso seme",
    ),
    (
        "group_err.neither",
        "the cards are neither one rank (a set) nor one suit (a run)",
        "les cartes ne sont ni de même valeur (une série) ni de même couleur (une suite)",
        "le carte non sono né dello stesso valore (un tris) né dello stesso seme (una scala)",
    ),
    (
        "group_err.repeated_card",
        "a run may not hold the same card twice",
        "une suite ne peut pas avoir deux fois la même carte",
        "una scala non può avere due volte la stessa carta",
    ),
    (
        "group_err.not_in_sequence",
        "the run is not in sequence",
        "la suite ne se suit pas",
        "la scala non è in sequenza",
    ),
    (
        "group_err.ace",
        "the ace does not fit this run ({why})",
        "l'as ne va pas dans cette suite ({why})",
        "l'asso non va in questa scala ({why})",
    ),
    (
        "ace.high_only",
        "aces are high here: Q-K-A, not A-2-3",
        "ici l'as est haut : D-R-A, pas A-2-3",
        "qui l'asso è alto: D-R-A, non A-2-3",
    ),
    (
        "ace.low_only",
        "aces are low here: A-2-3, not Q-K-A",
        "ici l'as est bas : A-2-3, pas D-R-A",
        "qui l'asso è basso: A-2-3, non D-R-A",
    ),
    (
        "ace.no_corner",
        "a run never goes around the corner (K-A-2)",
        "une suite ne tourne jamais (R-A-2)",
        "una scala non gira mai (R-A-2)",
    ),
    (
        "group_err.no_jokers",
        "this rule set plays without jokers",
        "ce jeu se joue sans joker",
        "questo gioco si gioca senza jolly",
    ),
    (
        "group_err.only_jokers",
        "a group needs at least one card that is not a joker",
        "un groupe a au moins une carte qui n'est pas un joker",
        "un gruppo ha almeno una carta che non è un jolly",
    ),
    (
        "group_err.too_many_jokers",
        "a group may hold only one joker here",
        "ici un groupe n'a qu'un joker au plus",
        "qui un gruppo ha al massimo un jolly",
    ),
    (
        "group_err.jokers_outnumber",
        "jokers may not outnumber the other cards of a group",
        "les jokers ne peuvent pas être plus nombreux que les autres cartes du groupe",
        "i jolly non possono essere più delle altre carte del gruppo",
    ),
    (
        "group_err.unnamed_joker",
        "a joker in this group has not been given the card it stands for",
        "un joker de ce groupe n'a pas reçu la carte qu'il remplace",
        "a un jolly di questo gruppo non è stata data la carta che sostituisce",
    ),
    (
        "err.no_such_seat",
        "there is no seat {n} at this table",
        "il n'y a pas de place {n} à cette table",
        "non c'è il posto {n} a questo tavolo",
    ),
    (
        "err.game_over",
        "the game is over",
        "la partie est finie",
        "la partita è finita",
    ),
    (
        "err.not_your_turn",
        "it is not your turn",
        "ce n'est pas votre tour",
        "non è il tuo turno",
    ),
    (
        "err.not_now",
        "{action} is not possible now: {why}",
        "{action} n'est pas possible maintenant : {why}",
        "{action} non è possibile ora: {why}",
    ),
    (
        "err.invalid_group",
        "group {n} is not valid: {why}",
        "le groupe {n} n'est pas valable : {why}",
        "il gruppo {n} non è valido: {why}",
    ),
    (
        "err.card_not_in_hand",
        "{card} is not in your hand",
        "{card} n'est pas dans votre main",
        "{card} non è nella tua mano",
    ),
    (
        "err.table_card_taken_back",
        "{card} was on the table and cannot go back to a hand",
        "{card} était sur la table et ne peut pas revenir dans une main",
        "{card} era sul tavolo e non può tornare in mano",
    ),
    (
        "err.card_from_nowhere",
        "the table must stay as it was except for cards you add; {card} appeared from nowhere",
        "la table doit rester telle quelle sauf les cartes que vous ajoutez ; {card} est apparu de nulle part",
        "il tavolo deve restare com'era salvo le carte che aggiungi; {card} è comparso dal nulla",
    ),
    (
        "err.nothing_played",
        "you must add at least one card from your hand",
        "vous devez ajouter au moins une carte de votre main",
        "devi aggiungere almeno una carta dalla tua mano",
    ),
    ("err.or", "or", "ou", "o"),
    (
        "err.joker_needs_name",
        "the joker in group {n} could stand for {options}: say which",
        "le joker du groupe {n} peut remplacer {options} : dites laquelle",
        "il jolly del gruppo {n} può sostituire {options}: di' quale",
    ),
    (
        "err.joker_renamed",
        "the joker standing for {face} cannot take a new name until the real {face} is on the table",
        "le joker qui remplace {face} ne peut changer de nom qu'une fois le vrai {face} sur la table",
        "il jolly che sostituisce {face} non può cambiare nome finché il vero {face} non è sul tavolo",
    ),
    (
        "err.joker_moved",
        "the joker standing for {face} must stay in its group until the real {face} is on the table",
        "le joker qui remplace {face} reste dans son groupe tant que le vrai {face} n'est pas sur la table",
        "il jolly che sostituisce {face} resta nel suo gruppo finché il vero {face} non è sul tavolo",
    ),
    (
        "err.freed_joker",
        "the freed joker that stood for {face} must take a new name",
        "le joker libéré qui remplaçait {face} doit prendre un nouveau nom",
        "il jolly liberato che sostituiva {face} deve prendere un nuovo nome",
    ),
    (
        "err.too_many_copies",
        "group {n}: a joker cannot be {face}: every {face} of the deck is on the table",
        "groupe {n} : un joker ne peut pas être {face} : tous les {face} du jeu sont sur la table",
        "gruppo {n}: un jolly non può essere {face}: ogni {face} del mazzo è sul tavolo",
    ),
    (
        "err.first_meld_run",
        "your first meld must include a run of three cards of one suit from your hand (jokers not counted)",
        "votre première pose doit contenir une suite de trois cartes d'une couleur venant de votre main (sans joker)",
        "la tua prima calata deve contenere una scala di tre carte di un seme dalla tua mano (senza jolly)",
    ),
    (
        "err.frozen_group",
        "group {n} holds a joker: its cards cannot move and only cards from your hand may join it",
        "le groupe {n} contient un joker : ses cartes ne bougent pas et seules des cartes de votre main peuvent s'y ajouter",
        "il gruppo {n} ha un jolly: le sue carte non si spostano e solo carte dalla tua mano possono aggiungersi",
    ),
    (
        "err.table_card_joker_group",
        "a card from the table cannot join group {n}, which holds a joker",
        "une carte de la table ne peut pas rejoindre le groupe {n}, qui contient un joker",
        "una carta del tavolo non può unirsi al gruppo {n}, che ha un jolly",
    ),
    (
        "err.lone_card",
        "{card} would be left alone on the table: only the loose cards dealt face up may stay alone",
        "{card} resterait seul sur la table : seules les cartes isolées distribuées face visible peuvent rester seules",
        "{card} resterebbe da solo sul tavolo: solo le carte sciolte distribuite scoperte possono restare sole",
    ),
    (
        "err.knock_too_high",
        "you may knock only with 5 points or fewer left in hand (you would keep {points})",
        "on ne toque qu'avec 5 points ou moins en main (il vous en resterait {points})",
        "si bussa solo con 5 punti o meno in mano (te ne resterebbero {points})",
    ),
    (
        "err.no_such_discard",
        "the discard pile has no card {n} places down",
        "la défausse n'a pas de carte {n} places plus bas",
        "gli scarti non hanno una carta {n} posti più sotto",
    ),
    (
        "err.no_such_meld",
        "there is no meld {n} on the table",
        "il n'y a pas de combinaison {n} sur la table",
        "non c'è la combinazione {n} sul tavolo",
    ),
    (
        "err.eliminated",
        "this player has been eliminated and no longer plays",
        "ce joueur est éliminé et ne joue plus",
        "questo giocatore è eliminato e non gioca più",
    ),
    (
        "err.opening_too_low",
        "your first meld must be worth at least {needed} points from your hand; these groups make {points}",
        "votre première pose doit valoir au moins {needed} points de votre main ; ces groupes font {points}",
        "la tua prima calata deve valere almeno {needed} punti dalla tua mano; questi gruppi fanno {points}",
    ),
    (
        "err.not_opened",
        "you must make your first meld ({needed} points) before you {what}",
        "vous devez faire votre première pose ({needed} points) avant de {what}",
        "devi fare la tua prima calata ({needed} punti) prima di {what}",
    ),
    (
        "err.what_exchange",
        "exchange a joker",
        "échanger un joker",
        "scambiare un jolly",
    ),
    (
        "err.what_lay_off",
        "lay off cards",
        "compléter une combinaison",
        "attaccare carte",
    ),
    (
        "err.discard_taken_back",
        "{card} was just taken from the discard pile: it cannot go back this turn unless it is your last card",
        "{card} vient d'être pris dans la défausse : il n'y retourne pas ce tour-ci, sauf si c'est votre dernière carte",
        "{card} è appena stato preso dagli scarti: non può tornarci in questo turno, salvo sia la tua ultima carta",
    ),
    (
        "err.no_joker_for",
        "meld {n} holds no joker standing for {face}",
        "la combinaison {n} n'a pas de joker qui remplace {face}",
        "la combinazione {n} non ha un jolly che sostituisce {face}",
    ),
    (
        "err.exchange_real_card",
        "only a real card can free a joker; {card} is not one",
        "seule une vraie carte libère un joker ; {card} n'en est pas une",
        "solo una carta vera libera un jolly; {card} non lo è",
    ),
    (
        "err.time_up",
        "your time for this move ran out: the host plays for you",
        "le temps de ce coup est écoulé : l'hôte joue pour vous",
        "il tempo per questa mossa è scaduto: gioca chi ospita per te",
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

    /// The player's own lines have their own keys: French and Italian
    /// conjugate the verb for "you" ("Vous a pioché" is wrong).
    #[test]
    fn the_players_own_lines_are_conjugated_for_you() {
        for (k, ..) in ENTRIES {
            if let Some(base) = k.strip_suffix(".you")
                && (base.starts_with("log.") || base.starts_with("end."))
            {
                assert!(catalogue().contains_key(base), "{k} without {base}");
            }
        }
        assert_eq!(
            Lang::Fr.fmt("log.drew.you", &[("n", "1")]),
            "Vous avez pioché 1."
        );
        assert_eq!(
            Lang::It.fmt("log.took.you", &[("card", "7")]),
            "Hai preso 7."
        );
    }

    #[test]
    fn placeholders_are_filled() {
        assert_eq!(Lang::Fr.fmt("table.group", &[("n", "2")]), "Groupe 2");
        assert_eq!(Lang::It.t("btn.done"), "Fatto");
        assert_eq!(Lang::En.t("no.such.key"), "no.such.key");
    }
}
