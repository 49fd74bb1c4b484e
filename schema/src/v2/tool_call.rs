//! Tool calls: their content, locations and upserts.

use super::content::ContentBlock;
use super::diff::Diff;
use super::ids::{SessionId, ToolCallId};
use super::terminal::Terminal;
use crate::wire::{AbsolutePath, Json, Members};
use crate::{string_enum, tagged_union, wire_struct};

wire_struct! {
    /// A content block shown as tool-call output.
    pub struct Content {
        /// The block.
        pub content: req ContentBlock = "content" [],
        /// Extension data; omitted and `null` mean none.
        pub meta: opt Members = "_meta" [Lenient],
    }
}

wire_struct! {
    /// Tool-call content that points at another session (a subagent the tool call works
    /// with). Only a display reference: it gives the Client no control over that session.
    pub struct SessionReference {
        /// The session referred to.
        pub session_id: req SessionId = "sessionId" [],
        /// Extension data; omitted and `null` mean none.
        pub meta: opt Members = "_meta" [Lenient],
    }
}

tagged_union! {
    /// One item of a tool call's output: a content block, a diff, a terminal reference or
    /// a session reference.
    pub enum ToolCallContent: tag "type", open ("Tool-call content this version does not know, kept whole so it can be stored or forwarded unchanged.") {
        /// A content block.
        Content(Content) = "content",
        /// File changes.
        Diff(Diff) = "diff",
        /// A reference to an Agent-owned display terminal.
        Terminal(Terminal) = "terminal",
        /// A reference to another session (a subagent).
        Session(SessionReference) = "session",
    }
}

string_enum! {
    /// Where a tool call is in its life.
    pub enum ToolCallStatus: open ("other", "A status this version does not know, kept as sent.") {
        /// Not started: input is still arriving or permission is awaited.
        Pending = "pending",
        /// Running.
        InProgress = "in_progress",
        /// Waiting, for example for the user; it may resume.
        Paused = "paused",
        /// Finished successfully.
        Completed = "completed",
        /// Finished with an error.
        Failed = "failed",
        /// Stopped before it finished.
        Cancelled = "cancelled",
    }
}

string_enum! {
    /// What sort of work a tool does, so a Client can pick an icon.
    pub enum ToolKind: open ("unknown", "A tool kind this version does not know, kept as sent.") {
        /// Reads files or data.
        Read = "read",
        /// Changes files or content.
        Edit = "edit",
        /// Removes files or data.
        Delete = "delete",
        /// Moves or renames files.
        Move = "move",
        /// Searches.
        Search = "search",
        /// Runs commands or code.
        Execute = "execute",
        /// Reasons or plans.
        Think = "think",
        /// Retrieves outside data.
        Fetch = "fetch",
        /// Switches the session's mode.
        SwitchMode = "switch_mode",
        /// Anything else.
        Other = "other",
    }
}

wire_struct! {
    /// A file (and optionally a line) a tool call reads or changes.
    pub struct ToolCallLocation {
        /// The file's absolute path.
        pub path: req AbsolutePath = "path" [],
        /// The line, when known: 1 is the first line (0 is out of range, dropped).
        pub line: opt u32 = "line" [Lenient, Range(1.0, 4294967295.0)],
        /// Extension data; omitted and `null` mean none.
        pub meta: opt Members = "_meta" [Lenient],
    }
}

wire_struct! {
    /// That the Client may ask to cancel a tool call (`tool_call/cancel`). An object,
    /// even `{}`, offers it; omitted or `null` does not.
    pub struct ToolCallCancelCapabilities {
        /// Extension data; omitted and `null` mean none.
        pub meta: opt Members = "_meta" [Lenient],
    }
}

wire_struct! {
    /// What a Client may ask the Agent to do with a tool call right now.
    pub struct ToolCallCapabilities {
        /// Cancelling it (`tool_call/cancel`); omitted and `null` mean not offered.
        pub cancel: opt ToolCallCancelCapabilities = "cancel" [Lenient],
        /// Extension data; omitted and `null` mean none.
        pub meta: opt Members = "_meta" [Lenient],
    }
}

wire_struct! {
    /// Creates or patches a tool call, keyed by `toolCallId`. Every other member is a
    /// patch: omitted leaves the stored value, `null` clears it, a value replaces it.
    /// An array replaces the whole collection.
    pub struct ToolCallUpdate {
        /// The tool call being created or patched.
        pub tool_call_id: req ToolCallId = "toolCallId" [],
        /// The tool's programmatic name.
        pub name: patch String = "name" [Lenient],
        /// A title saying what the tool is doing.
        pub title: patch String = "title" [Lenient],
        /// The sort of tool.
        pub kind: patch ToolKind = "kind" [Lenient],
        /// Where the call is in its life.
        pub status: patch ToolCallStatus = "status" [Lenient],
        /// The whole output collection (replaces, never appends).
        pub content: patch Vec<ToolCallContent> = "content" [Lenient, SkipItems],
        /// The files involved.
        pub locations: patch Vec<ToolCallLocation> = "locations" [Lenient, SkipItems],
        /// The tool's raw input, any JSON.
        pub raw_input: patch Json = "rawInput" [Lenient],
        /// The tool's raw output, any JSON.
        pub raw_output: patch Json = "rawOutput" [Lenient],
        /// What the Client may ask for this tool call (cancel); a value replaces the whole
        /// stored set. A Client only offers these to its user.
        pub capabilities: patch ToolCallCapabilities = "capabilities" [Lenient],
        /// Extension data, patched like the other members.
        pub meta: patch Members = "_meta" [Lenient],
    }
}

wire_struct! {
    /// Appends one item to a tool call's output collection.
    pub struct ToolCallContentChunk {
        /// The tool call the item belongs to.
        pub tool_call_id: req ToolCallId = "toolCallId" [],
        /// The item to append.
        pub content: req ToolCallContent = "content" [],
        /// Extension data for this chunk; omitted and `null` mean none.
        pub meta: opt Members = "_meta" [Lenient],
    }
}
