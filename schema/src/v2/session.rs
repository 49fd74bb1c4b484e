//! Session updates that carry the terminal surface.

use super::ids::SessionId;
use super::terminal::{TerminalOutputChunk, TerminalUpdate};
use super::tool_call::{ToolCallContentChunk, ToolCallUpdate};
use crate::wire::Members;
use crate::{tagged_union, wire_struct};

tagged_union! {
    /// One change to a session's displayed state. This toolkit knows the four updates of
    /// the terminal surface; every other update (messages, plans ...) is kept whole as
    /// an unknown variant.
    pub enum SessionUpdate: tag "sessionUpdate", open ("An update this version does not know, kept whole so it can be stored, replayed or forwarded unchanged.") {
        /// Appends one item to a tool call's output.
        ToolCallContentChunk(ToolCallContentChunk) = "tool_call_content_chunk"
            extend { "x-state": { "session": [{ "action": "append", "target": "toolCall", "id": "toolCallId", "field": "content", "value": "content" }] } },
        /// Creates or patches a tool call.
        ToolCallUpdate(ToolCallUpdate) = "tool_call_update"
            extend { "x-state": { "session": [{ "action": "upsert", "target": "toolCall", "id": "toolCallId" }] } },
        /// Creates or patches a display terminal.
        TerminalUpdate(TerminalUpdate) = "terminal_update"
            extend { "x-state": { "session": [{ "action": "upsert", "target": "terminal", "id": "terminalId" }] } },
        /// Appends live output bytes to a display terminal.
        TerminalOutputChunk(TerminalOutputChunk) = "terminal_output_chunk"
            extend { "x-state": { "session": [{ "action": "append", "target": "terminal", "id": "terminalId", "field": "output.data", "value": "data" }] } },
    }
}

wire_struct! {
    /// The `session/update` notification from Agent to Client.
    pub struct UpdateSessionNotification {
        /// The session.
        pub session_id: req SessionId = "sessionId" [],
        /// The change.
        pub update: req SessionUpdate = "update" [],
        /// Extension data; omitted and `null` mean none.
        pub meta: opt Members = "_meta" [Lenient],
    }
    extend { "x-side": "client", "x-method": "session/update", "x-scope": { "session": ["sessionId"] } }
}
