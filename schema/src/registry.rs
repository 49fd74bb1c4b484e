//! Decoding by definition name, for conformance runners and tools that read the type
//! from data.

use crate::emit::Version;
use crate::wire::{self, Error, Warning};

/// The canonical text of a parsed value and the warnings collected while parsing.
pub type Decoded = (String, Vec<Warning>);

fn run<T: wire::Decode + wire::Encode>(text: &str) -> Result<Decoded, Error> {
    let p = wire::from_str::<T>(text)?;
    Ok((wire::to_string(&p.value), p.warnings))
}

macro_rules! table {
    ($version:ident, $name:ident, $text:ident, $($t:ident),* $(,)?) => {
        match $name {
            $( stringify!($t) => Some(run::<crate::$version::$t>($text)), )*
            _ => None,
        }
    };
}

/// Every v2 definition name.
pub const V2_NAMES: &[&str] = &[
    "AbsolutePath", "Annotations", "AudioContent", "BlobResourceContents", "CommandPermissionSubject", "Content",
    "ContentBlock", "Diff", "DiffChange", "DiffFileType", "DiffPatch", "DiffPatchFormat", "DiffPathChange",
    "DiffPathPairChange", "EmbeddedResource", "EmbeddedResourceResource", "Icon", "IconTheme", "ImageContent",
    "MediaType", "PermissionOption", "PermissionOptionId", "PermissionOptionKind", "RequestPermissionOutcome",
    "RequestPermissionRequest", "RequestPermissionResponse", "RequestPermissionSubject", "ResourceLink", "Role",
    "SelectedPermissionOutcome", "SessionId", "SessionUpdate", "Terminal", "TerminalExitStatus", "TerminalId",
    "TerminalOutput", "TerminalOutputChunk", "TerminalSize", "TerminalUpdate", "TextContent", "TextResourceContents",
    "ToolCallContent", "ToolCallContentChunk", "ToolCallId", "ToolCallLocation", "ToolCallPermissionSubject",
    "ToolCallStatus", "ToolCallUpdate", "ToolKind", "UpdateSessionNotification",
];

/// Every v1 definition name.
pub const V1_NAMES: &[&str] = &[
    "Annotations", "AudioContent", "BlobResourceContents", "Content", "ContentBlock", "CreateTerminalRequest",
    "CreateTerminalResponse", "Diff", "EmbeddedResource", "EmbeddedResourceResource", "EnvVariable", "ImageContent",
    "KillTerminalRequest", "KillTerminalResponse", "PermissionOption", "PermissionOptionId", "PermissionOptionKind",
    "ReleaseTerminalRequest", "ReleaseTerminalResponse", "RequestPermissionOutcome", "RequestPermissionRequest",
    "RequestPermissionResponse", "ResourceLink", "Role", "SelectedPermissionOutcome", "SessionId",
    "SessionNotification", "SessionUpdate", "Terminal", "TerminalExitStatus", "TerminalId", "TerminalOutputRequest",
    "TerminalOutputResponse", "TextContent", "TextResourceContents", "ToolCall", "ToolCallContent", "ToolCallId",
    "ToolCallLocation", "ToolCallStatus", "ToolCallUpdate", "ToolKind", "WaitForTerminalExitRequest",
    "WaitForTerminalExitResponse",
];

/// Parses `text` as the definition `name` of `version` and writes it back canonically.
/// `None` when the name is not a definition of that version.
#[must_use]
pub fn decode(version: Version, name: &str, text: &str) -> Option<Result<Decoded, Error>> {
    match version {
        Version::V2 => table!(
            v2, name, text,
            AbsolutePath, Annotations, AudioContent, BlobResourceContents, CommandPermissionSubject, Content,
            ContentBlock, Diff, DiffChange, DiffFileType, DiffPatch, DiffPatchFormat, DiffPathChange,
            DiffPathPairChange, EmbeddedResource, EmbeddedResourceResource, Icon, IconTheme, ImageContent,
            MediaType, PermissionOption, PermissionOptionId, PermissionOptionKind, RequestPermissionOutcome,
            RequestPermissionRequest, RequestPermissionResponse, RequestPermissionSubject, ResourceLink, Role,
            SelectedPermissionOutcome, SessionId, SessionUpdate, Terminal, TerminalExitStatus, TerminalId,
            TerminalOutput, TerminalOutputChunk, TerminalSize, TerminalUpdate, TextContent, TextResourceContents,
            ToolCallContent, ToolCallContentChunk, ToolCallId, ToolCallLocation, ToolCallPermissionSubject,
            ToolCallStatus, ToolCallUpdate, ToolKind, UpdateSessionNotification,
        ),
        Version::V1 => table!(
            v1, name, text,
            Annotations, AudioContent, BlobResourceContents, Content, ContentBlock, CreateTerminalRequest,
            CreateTerminalResponse, Diff, EmbeddedResource, EmbeddedResourceResource, EnvVariable, ImageContent,
            KillTerminalRequest, KillTerminalResponse, ReleaseTerminalRequest, ReleaseTerminalResponse,
            PermissionOption, PermissionOptionId, PermissionOptionKind, RequestPermissionOutcome,
            RequestPermissionRequest, RequestPermissionResponse, ResourceLink, Role, SelectedPermissionOutcome,
            SessionId, SessionNotification, SessionUpdate, Terminal, TerminalExitStatus, TerminalId,
            TerminalOutputRequest, TerminalOutputResponse, TextContent, TextResourceContents, ToolCall,
            ToolCallContent, ToolCallId, ToolCallLocation, ToolCallStatus, ToolCallUpdate, ToolKind,
            WaitForTerminalExitRequest, WaitForTerminalExitResponse,
        ),
    }
}
