//! The phone side: handshake, seat token, the view kept up to date from
//! snapshots and patches, and the private copy of the table the player edits.

use rami_game::{Action, Event, PlayerView, Seat, Table};
use rami_protocol::{
    ActionRefusal, ClientMsg, HostMsg, Intent, Lobby, PROTOCOL_VERSION, Refusal, SeatInfo,
    SeatToken, hello,
};
use std::collections::VecDeque;

/// What the phone's UI (or computer player) should notice.
#[derive(Clone, Debug, PartialEq)]
pub enum ClientEvent {
    Welcomed,
    Waiting,
    Seated {
        seat: Seat,
        token: SeatToken,
    },
    Lobby,
    /// The view changed (after a snapshot or an update); events are what happened.
    View {
        events: Vec<Event>,
    },
    /// An action (or message) was refused; nothing changed at the table.
    Refused {
        seq: u64,
        reason: ActionRefusal,
    },
    Presence,
    GameOver,
}

/// The connection cannot go on.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ClientError {
    #[error("refused by the host: {message}")]
    Refused { reason: Refusal, message: String },
    #[error("the host could not prove it knows the join code: wrong host or wrong code")]
    BadProof,
    #[error(
        "protocol version mismatch: this phone speaks version {PROTOCOL_VERSION}, the host {0}"
    )]
    Version(u16),
    #[error("the host sent an update for a view this phone does not have")]
    OutOfSync,
    #[error("the host sent {0} before the handshake")]
    Unexpected(&'static str),
}

/// The phone's session with one host.
#[derive(Debug)]
pub struct ClientSession {
    code: String,
    name: String,
    expected_proof: Option<[u8; 32]>,
    welcomed: bool,
    seat: Option<Seat>,
    token: Option<SeatToken>,
    view: Option<PlayerView>,
    lobby: Option<Lobby>,
    presence: Vec<SeatInfo>,
    next_seq: u64,
    private_table: Option<Table>,
    over: bool,
    events: VecDeque<ClientEvent>,
}

impl ClientSession {
    /// `expected_proof`: what the host's Welcome must prove (computed by the driver
    /// from the code and the pinned fingerprint); `None` skips the check.
    pub fn new(name: &str, code: &str, expected_proof: Option<[u8; 32]>) -> Self {
        ClientSession {
            code: code.to_string(),
            name: name.to_string(),
            expected_proof,
            welcomed: false,
            seat: None,
            token: None,
            view: None,
            lobby: None,
            presence: Vec::new(),
            next_seq: 1,
            private_table: None,
            over: false,
            events: VecDeque::new(),
        }
    }

    /// The first message on a new connection: join, or rejoin once a seat token is
    /// known. Call again after every reconnection.
    pub fn hello(&mut self) -> ClientMsg {
        self.welcomed = false;
        let intent = match self.token {
            Some(token) => Intent::Rejoin { token },
            None => Intent::Join {
                name: self.name.clone(),
            },
        };
        hello(&self.code, intent)
    }

    /// Rejoin a seat with a token kept from an earlier connection (an app restart).
    pub fn set_token(&mut self, seat: Seat, token: SeatToken) {
        self.seat = Some(seat);
        self.token = Some(token);
    }

    pub fn seat(&self) -> Option<Seat> {
        self.seat
    }
    pub fn token(&self) -> Option<SeatToken> {
        self.token
    }
    pub fn view(&self) -> Option<&PlayerView> {
        self.view.as_ref()
    }
    pub fn lobby(&self) -> Option<&Lobby> {
        self.lobby.as_ref()
    }
    pub fn presence(&self) -> &[SeatInfo] {
        &self.presence
    }
    pub fn is_over(&self) -> bool {
        self.over || self.view.as_ref().is_some_and(|v| v.outcome.is_some())
    }

    pub fn poll_event(&mut self) -> Option<ClientEvent> {
        self.events.pop_front()
    }

    /// A message from the host.
    pub fn receive(&mut self, msg: HostMsg) -> Result<(), ClientError> {
        match msg {
            HostMsg::Welcome { version, proof } => {
                if version != PROTOCOL_VERSION {
                    return Err(ClientError::Version(version));
                }
                if self.expected_proof.is_some_and(|p| p != proof) {
                    return Err(ClientError::BadProof);
                }
                self.welcomed = true;
                self.events.push_back(ClientEvent::Welcomed);
            }
            HostMsg::Refused { reason, message } => {
                if reason == Refusal::UnknownToken {
                    // The table no longer knows us: forget the seat.
                    self.token = None;
                    self.seat = None;
                }
                return Err(ClientError::Refused { reason, message });
            }
            _ if !self.welcomed => return Err(ClientError::Unexpected("a message")),
            HostMsg::Lobby(l) => {
                self.lobby = Some(l);
                self.events.push_back(ClientEvent::Lobby);
            }
            HostMsg::Waiting => self.events.push_back(ClientEvent::Waiting),
            HostMsg::Seated { seat, token } => {
                self.seat = Some(seat);
                self.token = Some(token);
                self.events.push_back(ClientEvent::Seated { seat, token });
            }
            HostMsg::Snapshot { view } => {
                self.view = Some(*view);
                self.private_table = None;
                self.events
                    .push_back(ClientEvent::View { events: Vec::new() });
            }
            HostMsg::Update { events, patch } => {
                let view = self.view.as_mut().ok_or(ClientError::OutOfSync)?;
                patch
                    .apply_update(&events, view)
                    .map_err(|_| ClientError::OutOfSync)?;
                if patch.table.is_some() || patch.hand.is_some() {
                    self.private_table = None;
                }
                self.events.push_back(ClientEvent::View { events });
            }
            HostMsg::ActionRefused { seq, reason } => {
                self.events.push_back(ClientEvent::Refused { seq, reason })
            }
            HostMsg::Presence { seats } => {
                self.presence = seats;
                self.events.push_back(ClientEvent::Presence);
            }
            HostMsg::GameOver => {
                self.over = true;
                self.events.push_back(ClientEvent::GameOver);
            }
        }
        Ok(())
    }

    /// An action for this phone's seat (numbered; the host refuses replays).
    pub fn act(&mut self, action: Action) -> ClientMsg {
        let seq = self.next_seq;
        self.next_seq += 1;
        ClientMsg::Act { seq, action }
    }

    /// The sequence number the next action will carry.
    pub fn next_seq(&self) -> u64 {
        self.next_seq
    }

    /// Go on numbering from `seq` (after an app restart, so old numbers are not
    /// taken for replays).
    pub fn set_next_seq(&mut self, seq: u64) {
        self.next_seq = seq.max(self.next_seq);
    }

    /// The private copy of the table the player edits (starts as the real table).
    pub fn private_table(&mut self) -> Option<&mut Table> {
        if self.private_table.is_none() {
            self.private_table = self.view.as_ref().map(|v| v.table.clone());
        }
        self.private_table.as_mut()
    }

    /// Reset: the private copy goes back to the real table (local only).
    pub fn reset(&mut self) {
        self.private_table = None;
    }

    /// Done: propose the private copy as the new table.
    pub fn done(&mut self) -> Option<ClientMsg> {
        let table = self.private_table()?.clone();
        Some(self.act(Action::Done { table }))
    }
}
