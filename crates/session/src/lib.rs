//! Sans-IO sessions for nearby play (issue 5): the authoritative host
//! ([`HostSession`]) and the phone side ([`ClientSession`]).
//!
//! No sockets, clocks or threads here: the driver (`rami-net`, or a test) feeds in
//! connections, decoded bytes and the time (`now`, milliseconds), and takes out
//! [`Output`]s: messages to send, connections to close, save files to write. The
//! same inputs always give the same outputs, so whole tables are tested without a
//! network, and the fuzz targets drive the host's message handler directly.

mod client;
pub mod fuzzing;
mod host;

pub use client::{ClientError, ClientEvent, ClientSession};
pub use host::{
    BotFn, ConnId, DEFAULT_COMPUTER_MOVE_DELAY_MS, HostBotFn, HostSession, HostSettings,
    JoinRequest, LobbyError, LobbySnapshot, NewGameFn, Output, ResumeError, SaveFile, StartError,
};
