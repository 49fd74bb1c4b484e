//! ACP v1, unchanged: tool-call content (including the Client-owned terminal reference)
//! and the Client terminal methods. v1 unions and `Role` are closed, and v1 media
//! payloads are plain strings, exactly as upstream v1 declares them. The tool-call
//! and permission definitions (`ToolCall`, `ToolCallUpdate`, `SessionNotification`,
//! `RequestPermissionRequest` ...) are what the version adapters convert.

use crate::wire::{Json, Members, NoPayload};
use crate::{string_enum, string_newtype, tagged_union, wire_struct};

string_newtype! {
    /// Identifies one session between a Client and an Agent.
    pub struct SessionId;
}

string_newtype! {
    /// Identifies a terminal the Client created with `terminal/create`.
    pub struct TerminalId;
}

string_enum! {
    /// Who a piece of content is meant for.
    pub enum Role: closed {
        /// The model.
        Assistant = "assistant",
        /// The person.
        User = "user",
    }
}

wire_struct! {
    /// Hints for the Client about how content is meant to be used or shown.
    pub struct Annotations {
        /// Who the content is meant for.
        pub audience: opt Vec<Role> = "audience" [Lenient, SkipItems],
        /// When the underlying resource last changed.
        pub last_modified: opt String = "lastModified" [Lenient],
        /// How important the content is.
        pub priority: opt f64 = "priority" [Lenient],
        /// Extension data; omitted and `null` mean none.
        pub meta: opt Members = "_meta" [Lenient],
    }
}

wire_struct! {
    /// Plain or Markdown text.
    pub struct TextContent {
        /// Display hints.
        pub annotations: opt Annotations = "annotations" [Lenient],
        /// The text.
        pub text: req String = "text" [],
        /// Extension data; omitted and `null` mean none.
        pub meta: opt Members = "_meta" [Lenient],
    }
}

wire_struct! {
    /// An image.
    pub struct ImageContent {
        /// Display hints.
        pub annotations: opt Annotations = "annotations" [Lenient],
        /// The image, base64 text (not checked in v1).
        pub data: req String = "data" [],
        /// The image's MIME type.
        pub mime_type: req String = "mimeType" [],
        /// Where the image came from.
        pub uri: opt String = "uri" [Lenient],
        /// Extension data; omitted and `null` mean none.
        pub meta: opt Members = "_meta" [Lenient],
    }
}

wire_struct! {
    /// A sound clip.
    pub struct AudioContent {
        /// Display hints.
        pub annotations: opt Annotations = "annotations" [Lenient],
        /// The audio, base64 text (not checked in v1).
        pub data: req String = "data" [],
        /// The audio's MIME type.
        pub mime_type: req String = "mimeType" [],
        /// Extension data; omitted and `null` mean none.
        pub meta: opt Members = "_meta" [Lenient],
    }
}

wire_struct! {
    /// A pointer to a resource, without its contents.
    pub struct ResourceLink {
        /// Display hints.
        pub annotations: opt Annotations = "annotations" [Lenient],
        /// Longer text about the resource.
        pub description: opt String = "description" [Lenient],
        /// The resource's MIME type.
        pub mime_type: opt String = "mimeType" [Lenient],
        /// A short name.
        pub name: req String = "name" [],
        /// The size in bytes.
        pub size: opt i64 = "size" [Lenient],
        /// A title to show instead of the name.
        pub title: opt String = "title" [Lenient],
        /// Where the resource is.
        pub uri: req String = "uri" [],
        /// Extension data; omitted and `null` mean none.
        pub meta: opt Members = "_meta" [Lenient],
    }
}

wire_struct! {
    /// A resource's contents as text.
    pub struct TextResourceContents {
        /// The MIME type.
        pub mime_type: opt String = "mimeType" [Lenient],
        /// The text.
        pub text: req String = "text" [],
        /// Where the resource is.
        pub uri: req String = "uri" [],
        /// Extension data; omitted and `null` mean none.
        pub meta: opt Members = "_meta" [Lenient],
    }
}

wire_struct! {
    /// A resource's contents as base64 text (not checked in v1).
    pub struct BlobResourceContents {
        /// The base64 text.
        pub blob: req String = "blob" [],
        /// The MIME type.
        pub mime_type: opt String = "mimeType" [Lenient],
        /// Where the resource is.
        pub uri: req String = "uri" [],
        /// Extension data; omitted and `null` mean none.
        pub meta: opt Members = "_meta" [Lenient],
    }
}

crate::shape_union! {
    /// A resource's contents: text (with a `text` member) or bytes (with a `blob` member).
    pub enum EmbeddedResourceResource {
        /// Text contents.
        Text(TextResourceContents) = "text",
        /// Binary contents.
        Blob(BlobResourceContents) = "blob",
    }
}

wire_struct! {
    /// A resource whose contents travel inside the message.
    pub struct EmbeddedResource {
        /// Display hints.
        pub annotations: opt Annotations = "annotations" [Lenient],
        /// The contents.
        pub resource: req EmbeddedResourceResource = "resource" [],
        /// Extension data; omitted and `null` mean none.
        pub meta: opt Members = "_meta" [Lenient],
    }
}

tagged_union! {
    /// Something to show: text, an image, audio, or a resource. Closed in v1.
    pub enum ContentBlock: tag "type", closed {
        /// Text.
        Text(TextContent) = "text",
        /// An image.
        Image(ImageContent) = "image",
        /// Audio.
        Audio(AudioContent) = "audio",
        /// A link to a resource.
        ResourceLink(ResourceLink) = "resource_link",
        /// A resource with its contents.
        Resource(EmbeddedResource) = "resource",
    }
}

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
    /// A text diff of one file (v1 form).
    pub struct Diff {
        /// The file's path.
        pub path: req String = "path" [],
        /// The text before the change; omitted or `null` for a new file.
        pub old_text: opt String = "oldText" [Lenient],
        /// The text after the change.
        pub new_text: req String = "newText" [],
        /// Extension data; omitted and `null` mean none.
        pub meta: opt Members = "_meta" [Lenient],
    }
}

wire_struct! {
    /// Tool-call content that embeds a terminal the Client created and controls.
    pub struct Terminal {
        /// The Client-created terminal.
        pub terminal_id: req TerminalId = "terminalId" [],
        /// Extension data; omitted and `null` mean none.
        pub meta: opt Members = "_meta" [Lenient],
    }
}

wire_struct! {
    /// Tool-call content that points at another session (a subagent), sent only to a
    /// Client that advertised the `subagents` capability. A display reference only.
    pub struct SessionReference {
        /// The session referred to.
        pub session_id: req SessionId = "sessionId" [],
        /// Extension data; omitted and `null` mean none.
        pub meta: opt Members = "_meta" [Lenient],
    }
}

tagged_union! {
    /// One item of a tool call's output. Closed in v1.
    pub enum ToolCallContent: tag "type", closed {
        /// A content block.
        Content(Content) = "content",
        /// A text diff.
        Diff(Diff) = "diff",
        /// A Client-owned terminal.
        Terminal(Terminal) = "terminal",
        /// A reference to another session (a subagent).
        Session(SessionReference) = "session",
    }
}

wire_struct! {
    /// An environment variable for a command.
    pub struct EnvVariable {
        /// Its name.
        pub name: req String = "name" [],
        /// Its value.
        pub value: req String = "value" [],
        /// Extension data; omitted and `null` mean none.
        pub meta: opt Members = "_meta" [Lenient],
    }
}

wire_struct! {
    /// `terminal/create`: the Agent asks the Client to start a command in a new terminal.
    pub struct CreateTerminalRequest {
        /// The session.
        pub session_id: req SessionId = "sessionId" [],
        /// The program to run.
        pub command: req String = "command" [],
        /// Its arguments.
        pub args: opt Vec<String> = "args" [NullAsEmpty],
        /// Extra environment variables.
        pub env: opt Vec<EnvVariable> = "env" [NullAsEmpty],
        /// The working directory.
        pub cwd: opt String = "cwd" [],
        /// How many output bytes the Client keeps at most.
        pub output_byte_limit: opt u64 = "outputByteLimit" [],
        /// Extension data; omitted and `null` mean none.
        pub meta: opt Members = "_meta" [Lenient],
    }
    extend { "x-side": "client", "x-method": "terminal/create" }
}

wire_struct! {
    /// The Client's answer to `terminal/create`.
    pub struct CreateTerminalResponse {
        /// The new terminal.
        pub terminal_id: req TerminalId = "terminalId" [],
        /// Extension data; omitted and `null` mean none.
        pub meta: opt Members = "_meta" [Lenient],
    }
    extend { "x-side": "client", "x-method": "terminal/create" }
}

wire_struct! {
    /// How a Client-owned terminal's command ended.
    pub struct TerminalExitStatus {
        /// The exit code.
        pub exit_code: opt u32 = "exitCode" [Lenient],
        /// The signal that ended it.
        pub signal: opt String = "signal" [Lenient],
        /// Extension data; omitted and `null` mean none.
        pub meta: opt Members = "_meta" [Lenient],
    }
}

macro_rules! terminal_request {
    ($name:ident, $method:literal, $what:literal) => {
        wire_struct! {
            #[doc = $what]
            pub struct $name {
                /// The session.
                pub session_id: req SessionId = "sessionId" [],
                /// The terminal.
                pub terminal_id: req TerminalId = "terminalId" [],
                /// Extension data; omitted and `null` mean none.
                pub meta: opt Members = "_meta" [Lenient],
            }
            extend { "x-side": "client", "x-method": $method }
        }
    };
}

macro_rules! empty_response {
    ($name:ident, $method:literal, $what:literal) => {
        wire_struct! {
            #[doc = $what]
            pub struct $name {
                /// Extension data; omitted and `null` mean none.
                pub meta: opt Members = "_meta" [Lenient],
            }
            extend { "x-side": "client", "x-method": $method }
        }
    };
}

terminal_request!(TerminalOutputRequest, "terminal/output", "`terminal/output`: the Agent asks for a terminal's output so far.");
terminal_request!(ReleaseTerminalRequest, "terminal/release", "`terminal/release`: the Agent lets the Client free a terminal.");
terminal_request!(WaitForTerminalExitRequest, "terminal/wait_for_exit", "`terminal/wait_for_exit`: the Agent waits for a terminal's command to end.");
terminal_request!(KillTerminalRequest, "terminal/kill", "`terminal/kill`: the Agent asks the Client to stop a terminal's command.");
empty_response!(ReleaseTerminalResponse, "terminal/release", "The Client's answer to `terminal/release`.");
empty_response!(KillTerminalResponse, "terminal/kill", "The Client's answer to `terminal/kill`.");

wire_struct! {
    /// The Client's answer to `terminal/output`.
    pub struct TerminalOutputResponse {
        /// The output so far, as text.
        pub output: req String = "output" [],
        /// Whether older output was dropped to respect the byte limit.
        pub truncated: req bool = "truncated" [],
        /// How the command ended, once it has.
        pub exit_status: opt TerminalExitStatus = "exitStatus" [Lenient],
        /// Extension data; omitted and `null` mean none.
        pub meta: opt Members = "_meta" [Lenient],
    }
    extend { "x-side": "client", "x-method": "terminal/output" }
}

wire_struct! {
    /// The Client's answer to `terminal/wait_for_exit`.
    pub struct WaitForTerminalExitResponse {
        /// The exit code.
        pub exit_code: opt u32 = "exitCode" [Lenient],
        /// The signal that ended the command.
        pub signal: opt String = "signal" [Lenient],
        /// Extension data; omitted and `null` mean none.
        pub meta: opt Members = "_meta" [Lenient],
    }
    extend { "x-side": "client", "x-method": "terminal/wait_for_exit" }
}

string_newtype! {
    /// Names one tool call inside a session.
    pub struct ToolCallId;
}

string_newtype! {
    /// Names one choice of a permission request.
    pub struct PermissionOptionId;
}

string_enum! {
    /// The sort of work a tool does (closed in v1), so a Client can pick an icon.
    pub enum ToolKind: closed {
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

string_enum! {
    /// Where a tool call is in its life (closed in v1: there is no `cancelled`).
    pub enum ToolCallStatus: closed {
        /// Not started yet.
        Pending = "pending",
        /// Running.
        InProgress = "in_progress",
        /// Finished successfully.
        Completed = "completed",
        /// Finished with an error.
        Failed = "failed",
    }
}

wire_struct! {
    /// A file (and maybe a line) a tool call touches; the path is a plain string in v1.
    pub struct ToolCallLocation {
        /// The file's path.
        pub path: req String = "path" [],
        /// The line, when known.
        pub line: opt u32 = "line" [Lenient],
        /// Extension data; omitted and `null` mean none.
        pub meta: opt Members = "_meta" [Lenient],
    }
}

wire_struct! {
    /// A new tool call (v1 `tool_call`): its title is required, the rest optional.
    pub struct ToolCall {
        /// The tool call's ID.
        pub tool_call_id: req ToolCallId = "toolCallId" [],
        /// What the tool is doing, for people.
        pub title: req String = "title" [],
        /// The tool's programmatic name, when known.
        pub name: opt String = "name" [Lenient],
        /// The sort of tool.
        pub kind: maybe ToolKind = "kind" [Lenient],
        /// Where the call is in its life.
        pub status: maybe ToolCallStatus = "status" [Lenient],
        /// The output items.
        pub content: maybe Vec<ToolCallContent> = "content" [Lenient, SkipItems],
        /// The files involved.
        pub locations: maybe Vec<ToolCallLocation> = "locations" [Lenient, SkipItems],
        /// The tool's raw input, any JSON.
        pub raw_input: maybe Json = "rawInput" [Lenient],
        /// The tool's raw output, any JSON.
        pub raw_output: maybe Json = "rawOutput" [Lenient],
        /// Extension data; omitted and `null` mean none.
        pub meta: opt Members = "_meta" [Lenient],
    }
}

wire_struct! {
    /// Changes to a tool call the Client already has (v1 `tool_call_update`): an omitted
    /// or `null` member is unchanged; v1 has no way to clear a member.
    pub struct ToolCallUpdate {
        /// The tool call being changed.
        pub tool_call_id: req ToolCallId = "toolCallId" [],
        /// The new sort of tool.
        pub kind: opt ToolKind = "kind" [Lenient],
        /// The new status.
        pub status: opt ToolCallStatus = "status" [Lenient],
        /// The new title.
        pub title: opt String = "title" [Lenient],
        /// The tool's programmatic name; omitted and `null` leave it unchanged.
        pub name: opt String = "name" [Lenient],
        /// The new output items (the whole collection).
        pub content: opt Vec<ToolCallContent> = "content" [Lenient, SkipItems],
        /// The new locations (the whole collection).
        pub locations: opt Vec<ToolCallLocation> = "locations" [Lenient, SkipItems],
        /// The new raw input.
        pub raw_input: maybe Json = "rawInput" [Lenient],
        /// The new raw output.
        pub raw_output: maybe Json = "rawOutput" [Lenient],
        /// Extension data; omitted and `null` mean none.
        pub meta: opt Members = "_meta" [Lenient],
    }
}

tagged_union! {
    /// One change to a v1 session. This toolkit knows the two tool-call updates; the
    /// other v1 updates (message chunks, plans ...) are kept whole as unknown variants.
    pub enum SessionUpdate: tag "sessionUpdate", open ("A v1 update outside the tool-call surface, kept whole so it can be forwarded unchanged.") {
        /// Creates a tool call.
        ToolCall(ToolCall) = "tool_call",
        /// Changes a tool call.
        ToolCallUpdate(ToolCallUpdate) = "tool_call_update",
    }
}

wire_struct! {
    /// The v1 `session/update` notification from Agent to Client.
    pub struct SessionNotification {
        /// The session.
        pub session_id: req SessionId = "sessionId" [],
        /// The change.
        pub update: req SessionUpdate = "update" [],
        /// Extension data; omitted and `null` mean none.
        pub meta: opt Members = "_meta" [Lenient],
    }
    extend { "x-side": "client", "x-method": "session/update" }
}

string_enum! {
    /// What choosing a permission option means (closed in v1).
    pub enum PermissionOptionKind: closed {
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
    /// One choice a v1 permission request offers.
    pub struct PermissionOption {
        /// The choice's ID, sent back when picked.
        pub option_id: req PermissionOptionId = "optionId" [],
        /// The label.
        pub name: req String = "name" [],
        /// What the choice means.
        pub kind: req PermissionOptionKind = "kind" [],
        /// Extension data; omitted and `null` mean none.
        pub meta: opt Members = "_meta" [Lenient],
    }
}

wire_struct! {
    /// The v1 permission request: always about one tool call.
    pub struct RequestPermissionRequest {
        /// The session.
        pub session_id: req SessionId = "sessionId" [],
        /// The tool call that needs permission, as a set of changes.
        pub tool_call: req ToolCallUpdate = "toolCall" [],
        /// The choices.
        pub options: req Vec<PermissionOption> = "options" [],
        /// Extension data; omitted and `null` mean none.
        pub meta: opt Members = "_meta" [Lenient],
    }
    extend { "x-side": "client", "x-method": "session/request_permission" }
}

wire_struct! {
    /// The option the user picked in v1.
    pub struct SelectedPermissionOutcome {
        /// The picked option.
        pub option_id: req PermissionOptionId = "optionId" [],
        /// Extension data; omitted and `null` mean none.
        pub meta: opt Members = "_meta" [Lenient],
    }
}

tagged_union! {
    /// How a v1 permission request ended (closed in v1).
    pub enum RequestPermissionOutcome: tag "outcome", closed {
        /// The turn was cancelled first.
        Cancelled(NoPayload) = "cancelled",
        /// The user picked an option.
        Selected(SelectedPermissionOutcome) = "selected",
    }
}

wire_struct! {
    /// The Client's v1 answer to a permission request.
    pub struct RequestPermissionResponse {
        /// How it ended.
        pub outcome: req RequestPermissionOutcome = "outcome" [],
        /// Extension data; omitted and `null` mean none.
        pub meta: opt Members = "_meta" [Lenient],
    }
    extend { "x-side": "client", "x-method": "session/request_permission" }
}
