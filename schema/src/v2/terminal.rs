//! The display-only terminal: references, upserts, snapshots, chunks, exit status.

use super::ids::{SessionId, TerminalId};
use crate::wire::{AbsolutePath, Bytes, Members};
use crate::wire_struct;

wire_struct! {
    /// Tool-call content that points at an Agent-owned terminal by its ID. It is only
    /// a display anchor: it gives the Client no control over the process.
    pub struct Terminal {
        /// The terminal to show here.
        pub terminal_id: req TerminalId = "terminalId" [],
        /// Extension data for this reference; omitted and `null` mean none.
        pub meta: opt Members = "_meta" [Lenient],
    }
}

wire_struct! {
    /// A replacement snapshot: the complete bytes the Client should keep for the
    /// terminal from now on. Later chunks append to it.
    pub struct TerminalOutput {
        /// Every retained output byte, as base64 on the wire.
        pub data: req Bytes = "data" [],
        /// Extension data for this snapshot; omitted and `null` mean none.
        pub meta: opt Members = "_meta" [Lenient],
    }
}

wire_struct! {
    /// How the terminal's process ended. Its presence alone means the process exited;
    /// each detail is optional.
    pub struct TerminalExitStatus {
        /// The exit code as the platform reports it, when the process returned one. Signed
        /// 64-bit: negative codes (a Windows crash code such as -1073741819) are kept. Every
        /// binding reads whole numbers from -(2^53 - 1) to 2^53 - 1 exactly; one beyond
        /// that is `out_of_range` (dropped with a warning), the same in each language.
        pub exit_code: opt i64 = "exitCode" [Lenient],
        /// The name of the signal that ended the process (for example `SIGTERM`).
        pub signal: opt String = "signal" [Lenient],
        /// Extension data for this exit information; omitted and `null` mean none.
        pub meta: opt Members = "_meta" [Lenient],
    }
}

wire_struct! {
    /// The size of a terminal in character cells, as the program sees it.
    pub struct TerminalSize {
        /// The number of columns (1 to 65535).
        pub cols: req u16 = "cols" [Range(1.0, 65535.0)],
        /// The number of rows (1 to 65535).
        pub rows: req u16 = "rows" [Range(1.0, 65535.0)],
        /// Extension data for this size; omitted and `null` mean none.
        pub meta: opt Members = "_meta" [Lenient],
    }
}

wire_struct! {
    /// That the Client may ask to cancel a terminal (`terminal/cancel`). An object, even
    /// `{}`, offers it; omitted or `null` does not.
    pub struct TerminalCancelCapabilities {
        /// Extension data; omitted and `null` mean none.
        pub meta: opt Members = "_meta" [Lenient],
    }
}

wire_struct! {
    /// What a Client may ask the Agent to do with a terminal right now. Display-only: a
    /// Client offers these to its user and sends nothing unless the user asks.
    pub struct TerminalCapabilities {
        /// Cancelling the command (`terminal/cancel`); omitted and `null` mean not offered.
        pub cancel: opt TerminalCancelCapabilities = "cancel" [Lenient],
        /// Extension data; omitted and `null` mean none.
        pub meta: opt Members = "_meta" [Lenient],
    }
}

wire_struct! {
    /// Creates or patches a terminal's stored state, keyed by `terminalId`. Every other
    /// member is a patch: omitted leaves the stored value, `null` clears it, a value
    /// replaces it.
    pub struct TerminalUpdate {
        /// The terminal being created or patched.
        pub terminal_id: req TerminalId = "terminalId" [],
        /// The human-readable command line. Descriptive only: nothing is run by the Client.
        pub command: patch String = "command" [Lenient],
        /// The command's absolute working directory.
        pub cwd: patch AbsolutePath = "cwd" [Lenient],
        /// A snapshot that replaces every stored output byte.
        pub output: patch TerminalOutput = "output" [Lenient],
        /// The exit status; a value marks the terminal exited, `null` clears that.
        pub exit_status: patch TerminalExitStatus = "exitStatus" [Lenient],
        /// The terminal size, in character cells, the command runs with: a Client can
        /// render the output at this width. Display-only; the Client controls nothing.
        pub size: patch TerminalSize = "size" [Lenient],
        /// What the Client may ask for this terminal (cancel); a value replaces the whole
        /// stored set, `null` clears it. A Client only offers these to its user.
        pub capabilities: patch TerminalCapabilities = "capabilities" [Lenient],
        /// Terminal-scoped extension data, patched like the other members: a value
        /// replaces the whole stored object (the RFD's rule; docs/WIRE.md).
        pub meta: patch Members = "_meta" [Lenient],
    }
}

wire_struct! {
    /// Live output: bytes to append, in received order, to the terminal's stored output.
    /// Each chunk is encoded on its own; chunk boundaries carry no meaning.
    pub struct TerminalOutputChunk {
        /// The terminal the bytes belong to.
        pub terminal_id: req TerminalId = "terminalId" [],
        /// The bytes to append, as base64 on the wire.
        pub data: req Bytes = "data" [],
        /// Extension data for this chunk; omitted and `null` mean none.
        pub meta: opt Members = "_meta" [Lenient],
    }
}

wire_struct! {
    /// The Client asks the Agent to cancel a terminal's command (`terminal/cancel`), only
    /// when the terminal offers `capabilities.cancel` and the user asked for it. The Agent
    /// confirms with a `terminal_update` that sets `exitStatus`.
    pub struct CancelTerminalRequest {
        /// The session that owns the terminal.
        pub session_id: req SessionId = "sessionId" [],
        /// The terminal to cancel.
        pub terminal_id: req TerminalId = "terminalId" [],
        /// Extension data; omitted and `null` mean none.
        pub meta: opt Members = "_meta" [Lenient],
    }
    extend { "x-side": "agent", "x-method": "terminal/cancel" }
}

wire_struct! {
    /// The Agent accepted a `terminal/cancel` (the command may still be stopping).
    pub struct CancelTerminalResponse {
        /// Extension data; omitted and `null` mean none.
        pub meta: opt Members = "_meta" [Lenient],
    }
    extend { "x-side": "agent", "x-method": "terminal/cancel" }
}
