//! ACP v2: the display-only terminal surface and the definitions it reaches
//! (`UpdateSessionNotification`, `RequestPermissionRequest`, `RequestPermissionResponse`).

mod content;
mod diff;
mod ids;
mod permission;
mod session;
mod terminal;
mod tool_call;

pub use crate::wire::AbsolutePath;
pub use content::{
    Annotations, AudioContent, BlobResourceContents, ContentBlock, EmbeddedResource, EmbeddedResourceResource, Icon,
    IconTheme, ImageContent, ResourceLink, Role, TextContent, TextResourceContents,
};
pub use diff::{Diff, DiffChange, DiffFileType, DiffOperation, DiffPatch, DiffPatchFormat, DiffPathChange, DiffPathPairChange};
pub use ids::{MediaType, PermissionOptionId, SessionId, TerminalId, ToolCallId};
pub use permission::{
    CommandPermissionSubject, PermissionOption, PermissionOptionKind, RequestPermissionOutcome,
    RequestPermissionRequest, RequestPermissionResponse, RequestPermissionSubject, SelectedPermissionOutcome,
    ToolCallPermissionSubject,
};
pub use session::{SessionUpdate, UpdateSessionNotification};
pub use terminal::{Terminal, TerminalExitStatus, TerminalOutput, TerminalOutputChunk, TerminalSize, TerminalUpdate};
pub use tool_call::{Content, ToolCallContent, ToolCallContentChunk, ToolCallLocation, ToolCallStatus, ToolCallUpdate, ToolKind};
