//! Messages between a Rami host and the phones (nearby play, issue 5).
//!
//! Every message is a serde type encoded with [postcard] and carried in a
//! length-delimited [frame]: a 4-byte little-endian length, then that many
//! bytes of postcard, at most [`MAX_FRAME`] bytes. The first frame each way is a
//! handshake ([`ClientMsg::Hello`], answered by [`HostMsg::Welcome`] or
//! [`HostMsg::Refused`]); a peer of another [`PROTOCOL_VERSION`] is refused with a
//! clear message. Both of those variants keep their index and their leading fields
//! in every future version, so an old phone and a new host still understand why
//! they cannot play together.
//!
//! The host sends each phone only that phone's [`PlayerView`]: a full
//! [`HostMsg::Snapshot`] on join and rejoin, then [`HostMsg::Update`]s holding the
//! events the phone may see and a [`ViewPatch`] of what changed in its view.
//! `docs/PROTOCOL.md` lists every message with its typical size.

pub mod frame;
pub mod fuzzing;

pub use frame::{FrameDecoder, FrameError, MAX_FRAME, encode_frame};

use rami_game::{Action, ActionError, BotLevel, Event, Options, PlayerView, RuleSet, Seat};
use serde::{Deserialize, Serialize, de::DeserializeOwned};

/// The version of this protocol. A host refuses a phone of another version (and a
/// phone refuses a host of another version) with [`Refusal::Version`].
///
/// Version 2: refusals of actions are typed ([`ActionRefusal`], carrying the
/// engine's [`ActionError`]), and a computer seat says its level.
/// Version 3: a hand's result, the game's outcome and a reminder's hint travel
/// once, in the update's events; the patch no longer repeats them ([`events_into_view`],
/// [`ViewPatch::apply_update`]).
pub const PROTOCOL_VERSION: u16 = 3;

/// The first bytes of a [`ClientMsg::Hello`] payload field: tells a Rami phone from
/// anything else that happens to connect.
pub const MAGIC: [u8; 4] = *b"RAMI";

/// mDNS service type hosts publish and phones browse.
pub const SERVICE_TYPE: &str = "_rami._udp.local.";

/// The ALPN protocol name of the QUIC connection. It does not change with
/// [`PROTOCOL_VERSION`]: a TLS-level ALPN mismatch would end the connection with
/// no reason a person can read, while the handshake refuses another version with
/// a clear message.
pub const ALPN: &[u8] = b"rami/1";

/// A seat token: proves to the host that a phone owns a seat (rejoin after a drop
/// or a host restart). 16 random bytes, chosen by the host.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct SeatToken(pub [u8; 16]);

impl std::fmt::Debug for SeatToken {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        // Never print a whole token in logs.
        write!(f, "SeatToken({:02x}{:02x}..)", self.0[0], self.0[1])
    }
}

/// What a phone wants when it says hello.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Intent {
    /// Ask the host for a seat, under this name.
    Join { name: String },
    /// Take back the seat this token was given for.
    Rejoin { token: SeatToken },
    /// Only look at the lobby (table name, seats, rules); no seat.
    Look,
}

/// Phone -> host.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum ClientMsg {
    /// Always the first message (index 0 in every version; `magic` and `version`
    /// always its first fields).
    Hello {
        magic: [u8; 4],
        version: u16,
        /// The join code shown on the host's screen.
        code: String,
        intent: Intent,
    },
    /// Play `action` for the phone's seat. `seq` grows by one with every action a
    /// phone sends; the host refuses one it has already seen (a replay).
    Act { seq: u64, action: Action },
    /// Ask for a full snapshot again (the phone thinks its view is out of date).
    Resync,
    /// The phone leaves the table for good (its seat goes to a computer player).
    Leave,
}

/// Why the host (or a phone) refuses a connection. The connection closes after it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Refusal {
    /// Index 0 in every version.
    Version {
        ours: u16,
        theirs: u16,
    },
    WrongCode,
    UnknownToken,
    TableFull,
    GameStarted,
    Declined,
    /// The first message was not a Hello, or could not be read.
    BadHello,
    /// The host is closing the table.
    Closing,
    /// The seat was taken over by another connection with the same token.
    Replaced,
    /// The host gave the seat to someone else before the game started.
    Removed,
}

impl std::fmt::Display for Refusal {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Refusal::Version { ours, theirs } => write!(
                f,
                "protocol version mismatch: this side speaks version {ours}, the other {theirs}; update the app on both devices"
            ),
            Refusal::WrongCode => {
                f.write_str("wrong join code: check the code on the host's screen")
            }
            Refusal::UnknownToken => f.write_str(
                "this seat token is not known at this table (wrong table or seat token)",
            ),
            Refusal::TableFull => f.write_str("the table is full"),
            Refusal::GameStarted => f.write_str("the game has already started"),
            Refusal::Declined => f.write_str("the host declined the request to join"),
            Refusal::BadHello => f.write_str("the first message was not a valid Rami hello"),
            Refusal::Closing => f.write_str("the host closed the table"),
            Refusal::Replaced => f.write_str("this seat was taken over by another connection"),
            Refusal::Removed => f.write_str("the host gave your seat to someone else"),
        }
    }
}

/// Why the host refused an action (or ignored a message after the handshake).
/// Typed, so a phone can show the reason in its own language and highlight the
/// group or card at fault ([`ActionError::group`], [`ActionError::card`]);
/// `Display` gives the English text.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, thiserror::Error)]
pub enum ActionRefusal {
    /// The engine refused the action: the rules say why.
    #[error("{0}")]
    Game(ActionError),
    /// `seq` was not above the last one seen from this seat.
    #[error(
        "action {seq} was already received (last was {last}): a replayed or old action is ignored"
    )]
    Replayed { seq: u64, last: u64 },
    #[error("the game has not started")]
    NotStarted,
    #[error("you have no seat at this table")]
    NoSeat,
    #[error("already greeted: a second Hello is ignored")]
    AlreadyGreeted,
    /// The frame held no message of this protocol version.
    #[error("an unreadable message was ignored")]
    Unreadable,
}

impl ActionRefusal {
    /// The engine's reason, when the rules refused the action.
    pub fn game_error(&self) -> Option<&ActionError> {
        match self {
            ActionRefusal::Game(e) => Some(e),
            _ => None,
        }
    }
}

/// Who sits at a seat, as everyone may see it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum SeatInfo {
    Empty,
    /// A computer player of this level.
    Computer {
        level: BotLevel,
    },
    /// A person on a phone (or the host's own device).
    Human {
        name: String,
        connected: bool,
        /// A computer player is playing for the person while they are away.
        covered: bool,
    },
}

/// The lobby as every phone sees it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Lobby {
    pub table: String,
    pub rules: RuleSet,
    pub options: Options,
    pub seats: Vec<SeatInfo>,
    /// Names waiting for the host to accept them.
    pub waiting: Vec<String>,
    pub started: bool,
}

/// Host -> phone.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum HostMsg {
    /// Answer to a good Hello (index 0 in every version). `proof` is
    /// SHA-256("rami-join" | code | certificate fingerprint), so the phone knows
    /// the host it pinned also knows the code.
    Welcome { version: u16, proof: [u8; 32] },
    /// The connection is refused (index 1 in every version); it closes after this.
    Refused { reason: Refusal, message: String },
    /// The lobby changed (seats, names, waiting list, started).
    Lobby(Lobby),
    /// The join request is waiting for the host.
    Waiting,
    /// You have this seat; keep the token to rejoin.
    Seated { seat: Seat, token: SeatToken },
    /// Your whole view: on join, rejoin and resync.
    Snapshot { view: Box<PlayerView> },
    /// What happened since the last message, and how your view changed: apply
    /// it with [`ViewPatch::apply_update`] (the events first, then the patch).
    Update {
        events: Vec<Event>,
        patch: Box<ViewPatch>,
    },
    /// The action with this `seq` was refused; nothing changed. `seq` is 0 for a
    /// message that was not an action.
    ActionRefused { seq: u64, reason: ActionRefusal },
    /// Who is at the table and who is connected.
    Presence { seats: Vec<SeatInfo> },
    /// The game ended; the host will close the connection soon.
    GameOver,
}

/// The fields of a [`PlayerView`] that changed; `None` = unchanged. Applying a
/// patch to the view it was made from gives exactly the new view.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct ViewPatch {
    pub hand: Option<Vec<rami_game::Card>>,
    pub table: Option<TablePatch>,
    pub table_owners: Option<Vec<Seat>>,
    pub discard: Option<Vec<rami_game::Card>>,
    pub stock_count: Option<u32>,
    pub players: Option<Vec<rami_game::PlayerPublic>>,
    pub current: Option<Option<Seat>>,
    pub legal: Option<Vec<rami_game::ActionKind>>,
    pub hand_number: Option<u32>,
    pub draws_this_turn: Option<u32>,
    pub hint: Option<Option<rami_game::Hint>>,
    pub claim_deadline: Option<Option<u64>>,
    pub move_deadline: Option<Option<u64>>,
    pub last_hand: Option<Option<rami_game::HandResult>>,
    pub outcome: Option<Option<rami_game::Outcome>>,
}

/// A change of the table: its new number of groups and the groups that differ
/// (index, new cards). Groups not listed are as they were.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct TablePatch {
    pub len: u32,
    pub groups: Vec<(u32, Vec<rami_game::Card>)>,
}

fn changed<T: Clone + PartialEq>(old: &T, new: &T) -> Option<T> {
    (old != new).then(|| new.clone())
}

/// What an update's events say about the view by themselves: `HandEnded`
/// sets `last_hand` to its result, `GameEnded` sets `outcome`, and a
/// `Reminded` of the view's own seat sets `hint`. The host leaves these out of
/// the patch when they say it (since protocol version 3), so that a hand's
/// result or a hint (each up to ~100 B) does not travel twice.
pub fn events_into_view(events: &[Event], view: &mut PlayerView) {
    for e in events {
        match e {
            Event::Reminded { seat, hint } if *seat == view.seat => view.hint = Some(hint.clone()),
            Event::HandEnded { result } => view.last_hand = Some(result.clone()),
            Event::GameEnded { outcome } => view.outcome = Some(outcome.clone()),
            _ => {}
        }
    }
}

fn says_something(events: &[Event]) -> bool {
    events.iter().any(|e| {
        matches!(
            e,
            Event::HandEnded { .. } | Event::GameEnded { .. } | Event::Reminded { .. }
        )
    })
}

impl ViewPatch {
    /// The patch of an update that carries `events`: what changed from `old` to
    /// `new` that the events do not already say ([`events_into_view`]).
    pub fn diff_after(old: &PlayerView, events: &[Event], new: &PlayerView) -> ViewPatch {
        if says_something(events) {
            let mut base = old.clone();
            events_into_view(events, &mut base);
            ViewPatch::diff(&base, new)
        } else {
            ViewPatch::diff(old, new)
        }
    }

    /// Applies an update: its events ([`events_into_view`]), then the patch
    /// made by [`ViewPatch::diff_after`]. Fails (leaving `view` unchanged) when
    /// the patch does not fit.
    pub fn apply_update(&self, events: &[Event], view: &mut PlayerView) -> Result<(), PatchError> {
        if says_something(events) {
            let mut next = view.clone();
            events_into_view(events, &mut next);
            self.apply(&mut next)?;
            *view = next;
            Ok(())
        } else {
            self.apply(view)
        }
    }

    /// What changed from `old` to `new` (two views of the same seat).
    pub fn diff(old: &PlayerView, new: &PlayerView) -> ViewPatch {
        let table = (old.table != new.table).then(|| TablePatch {
            len: new.table.len() as u32,
            groups: new
                .table
                .iter()
                .enumerate()
                .filter(|(i, g)| old.table.get(*i) != Some(*g))
                .map(|(i, g)| (i as u32, g.clone()))
                .collect(),
        });
        ViewPatch {
            hand: changed(&old.hand, &new.hand),
            table,
            table_owners: changed(&old.table_owners, &new.table_owners),
            discard: changed(&old.discard, &new.discard),
            stock_count: (old.stock_count != new.stock_count).then_some(new.stock_count as u32),
            players: changed(&old.players, &new.players),
            current: changed(&old.current, &new.current),
            legal: changed(&old.legal, &new.legal),
            hand_number: changed(&old.hand_number, &new.hand_number),
            draws_this_turn: changed(&old.draws_this_turn, &new.draws_this_turn),
            hint: changed(&old.hint, &new.hint),
            claim_deadline: changed(&old.claim_deadline, &new.claim_deadline),
            move_deadline: changed(&old.move_deadline, &new.move_deadline),
            last_hand: changed(&old.last_hand, &new.last_hand),
            outcome: changed(&old.outcome, &new.outcome),
        }
    }

    /// True when nothing changed.
    pub fn is_empty(&self) -> bool {
        *self == ViewPatch::default()
    }

    /// Applies the patch. Fails (leaving `view` unchanged) when the patch does not
    /// fit the view (a group index past the new table's end).
    pub fn apply(&self, view: &mut PlayerView) -> Result<(), PatchError> {
        let mut table = view.table.clone();
        if let Some(t) = &self.table {
            let len = t.len as usize;
            if len > 4096 {
                return Err(PatchError);
            }
            table.resize(len, Vec::new());
            for (i, g) in &t.groups {
                let slot = table.get_mut(*i as usize).ok_or(PatchError)?;
                *slot = g.clone();
            }
        }
        view.table = table;
        macro_rules! set {
            ($($f:ident),*) => {$(
                if let Some(v) = &self.$f { view.$f = v.clone(); }
            )*};
        }
        set!(
            hand,
            table_owners,
            discard,
            players,
            current,
            legal,
            hand_number,
            draws_this_turn,
            hint,
            claim_deadline,
            move_deadline,
            last_hand,
            outcome
        );
        if let Some(s) = self.stock_count {
            view.stock_count = s as usize;
        }
        Ok(())
    }
}

/// A patch that does not fit the view it is applied to.
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
#[error("the update does not fit the current view")]
pub struct PatchError;

/// A message that could not be encoded or decoded.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum CodecError {
    #[error("message could not be read: {0}")]
    Decode(String),
    #[error("message could not be written: {0}")]
    Encode(String),
    #[error(transparent)]
    Frame(#[from] FrameError),
}

/// Encodes a message as postcard (no frame header).
pub fn encode<T: Serialize>(msg: &T) -> Result<Vec<u8>, CodecError> {
    let bytes = postcard::to_stdvec(msg).map_err(|e| CodecError::Encode(e.to_string()))?;
    if bytes.len() > MAX_FRAME {
        return Err(FrameError::TooLarge {
            len: bytes.len(),
            max: MAX_FRAME,
        }
        .into());
    }
    Ok(bytes)
}

/// Decodes one message payload (no frame header). Trailing bytes are an error.
pub fn decode<T: DeserializeOwned>(bytes: &[u8]) -> Result<T, CodecError> {
    let (msg, rest) =
        postcard::take_from_bytes(bytes).map_err(|e| CodecError::Decode(e.to_string()))?;
    if !rest.is_empty() {
        return Err(CodecError::Decode(format!(
            "{} unexpected bytes after the message",
            rest.len()
        )));
    }
    Ok(msg)
}

/// Encodes a message and puts it in a frame, ready to write to a stream.
pub fn encode_framed<T: Serialize>(msg: &T) -> Result<Vec<u8>, CodecError> {
    Ok(encode_frame(&encode(msg)?)?)
}

/// The Hello a phone of this version sends.
pub fn hello(code: &str, intent: Intent) -> ClientMsg {
    ClientMsg::Hello {
        magic: MAGIC,
        version: PROTOCOL_VERSION,
        code: code.to_string(),
        intent,
    }
}

/// What the host proves with [`HostMsg::Welcome`]: the inputs of its hash.
pub fn proof_input(code: &str, fingerprint: &[u8; 32]) -> Vec<u8> {
    let mut v = b"rami-join".to_vec();
    v.extend_from_slice(normalize_code(code).as_bytes());
    v.extend_from_slice(fingerprint);
    v
}

/// A join code as typed: upper case, without spaces or dashes.
pub fn normalize_code(code: &str) -> String {
    code.chars()
        .filter(|c| c.is_ascii_alphanumeric())
        .map(|c| c.to_ascii_uppercase())
        .collect()
}

#[cfg(test)]
mod tests;
