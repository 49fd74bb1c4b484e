//! Named strings: identifiers and media types.

use crate::string_newtype;

string_newtype! {
    /// Identifies one session between a Client and an Agent.
    pub struct SessionId;
}

string_newtype! {
    /// Identifies a tool call within a session. A separate domain from terminal IDs,
    /// even when an Agent happens to use the same string for both.
    pub struct ToolCallId;
}

string_newtype! {
    /// Identifies an Agent-owned display terminal within a session. The Agent picks it,
    /// keeps it for the terminal's lifetime and never reuses it for another terminal.
    pub struct TerminalId;
}

string_newtype! {
    /// Identifies one of the choices offered in a permission request.
    pub struct PermissionOptionId;
}

string_newtype! {
    /// A MIME type such as `text/plain` or `image/png`.
    pub struct MediaType;
}
