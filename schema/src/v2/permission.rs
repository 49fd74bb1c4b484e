//! Asking the user for permission before the Agent runs something.

use super::ids::{PermissionOptionId, SessionId, TerminalId, ToolCallId};
use super::tool_call::ToolCallUpdate;
use crate::wire::{AbsolutePath, Members};
use crate::{string_enum, tagged_union, wire_struct};

string_enum! {
    /// What choosing an option means, so a Client can style it.
    pub enum PermissionOptionKind: open ("other", "An option kind this version does not know, kept as sent.") {
        /// Allow this once.
        AllowOnce = "allow_once",
        /// Allow this and remember the choice.
        AllowAlways = "allow_always",
        /// Refuse this once.
        RejectOnce = "reject_once",
        /// Refuse this and remember the choice.
        RejectAlways = "reject_always",
    }
}

wire_struct! {
    /// One choice offered to the user.
    pub struct PermissionOption {
        /// The choice's ID, sent back when it is selected.
        pub option_id: req PermissionOptionId = "optionId" [],
        /// The label to show.
        pub name: req String = "name" [],
        /// What the choice means.
        pub kind: req PermissionOptionKind = "kind" [],
        /// Extension data; omitted and `null` mean none.
        pub meta: opt Members = "_meta" [Lenient],
    }
}

wire_struct! {
    /// Permission for a tool call, described by its current state.
    pub struct ToolCallPermissionSubject {
        /// The tool call asking for permission.
        pub tool_call: req ToolCallUpdate = "toolCall" [],
        /// Extension data; omitted and `null` mean none.
        pub meta: opt Members = "_meta" [Lenient],
    }
}

wire_struct! {
    /// Permission to run a command, described before it runs. A self-contained
    /// description, not a terminal patch: selecting an allow option lets the Agent run
    /// it; the Client never runs it.
    pub struct CommandPermissionSubject {
        /// The command line that would run.
        pub command: req String = "command" [],
        /// Its absolute working directory.
        pub cwd: req AbsolutePath = "cwd" [],
        /// The tool call it belongs to, when known; omitted and `null` mean unknown.
        pub tool_call_id: opt ToolCallId = "toolCallId" [Lenient],
        /// The terminal that will show it, when already known; omitted and `null` mean unknown.
        pub terminal_id: opt TerminalId = "terminalId" [Lenient],
        /// Extension data for this subject; omitted and `null` mean none.
        pub meta: opt Members = "_meta" [Lenient],
    }
}

tagged_union! {
    /// What the permission is for.
    pub enum RequestPermissionSubject: tag "type", open ("A subject this version does not know, kept whole; show it generically.") {
        /// A tool call.
        ToolCall(ToolCallPermissionSubject) = "tool_call",
        /// A command, before it runs.
        Command(CommandPermissionSubject) = "command",
    }
}

wire_struct! {
    /// The user picked one of the offered options.
    pub struct SelectedPermissionOutcome {
        /// The picked option.
        pub option_id: req PermissionOptionId = "optionId" [],
        /// Extension data; omitted and `null` mean none.
        pub meta: opt Members = "_meta" [Lenient],
    }
}

wire_struct! {
    /// No option was selected: the request was cancelled, dismissed or declined. Never an
    /// approval.
    pub struct CancelledPermissionOutcome {
        /// Extension data; omitted and `null` mean none.
        pub meta: opt Members = "_meta" [Lenient],
    }
}

tagged_union! {
    /// How a permission request ended.
    pub enum RequestPermissionOutcome: tag "outcome", open ("An outcome this version does not know. It is never an approval.") {
        /// The turn was cancelled before the user chose.
        Cancelled(CancelledPermissionOutcome) = "cancelled",
        /// The user chose an option.
        Selected(SelectedPermissionOutcome) = "selected",
    }
}

impl RequestPermissionOutcome {
    /// The option the user picked, if any. `None` for a cancellation and for any
    /// outcome this version does not know: an unknown outcome is never an approval.
    #[must_use]
    pub fn selected_option(&self) -> Option<&PermissionOptionId> {
        match self {
            Self::Selected(s) => Some(&s.option_id),
            Self::Cancelled(_) | Self::Unknown(_) => None,
        }
    }
}

wire_struct! {
    /// The Agent asks the Client to ask the user for permission.
    pub struct RequestPermissionRequest {
        /// The session.
        pub session_id: req SessionId = "sessionId" [],
        /// The question to show.
        pub title: req String = "title" [],
        /// Why the permission is needed, shown with the question; omitted and `null` mean
        /// none. It does not change the subject's displayed state.
        pub description: opt String = "description" [Lenient],
        /// What the permission is for; omitted and `null` mean not given.
        pub subject: opt RequestPermissionSubject = "subject" [],
        /// The choices; at least one.
        pub options: req Vec<PermissionOption> = "options" [MinItems(1)],
        /// Extension data; omitted and `null` mean none.
        pub meta: opt Members = "_meta" [Lenient],
    }
    extend {
        "x-side": "client",
        "x-method": "session/request_permission",
        "x-scope": { "session": ["sessionId"], "toolCall": ["subject.toolCall.toolCallId", "subject.toolCallId"] },
        "x-state": { "session": [{ "action": "upsert", "target": "toolCall", "id": "subject.toolCall.toolCallId", "value": "subject.toolCall" }] }
    }
}

wire_struct! {
    /// The Client's answer to a permission request.
    pub struct RequestPermissionResponse {
        /// How the request ended.
        pub outcome: req RequestPermissionOutcome = "outcome" [],
        /// Extension data; omitted and `null` mean none.
        pub meta: opt Members = "_meta" [Lenient],
    }
    extend { "x-side": "client", "x-method": "session/request_permission" }
}
