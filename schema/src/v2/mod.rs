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
// Declared in the wire runtime (shared with the generated binding); a v2 definition.
crate::register_definition!(AbsolutePath);
pub use content::{
    Annotations, AudioContent, BlobResourceContents, ContentBlock, EmbeddedResource, EmbeddedResourceResource, Icon, IconTheme, ImageContent, ResourceLink, Role, TextContent, TextResourceContents,
};
pub use diff::{Diff, DiffChange, DiffFileType, DiffOperation, DiffPatch, DiffPatchFormat, DiffPathChange, DiffPathPairChange};
pub use ids::{MediaType, PermissionOptionId, SessionId, TerminalId, ToolCallId};
pub use permission::{
    CommandPermissionSubject, PermissionOption, PermissionOptionKind, RequestPermissionOutcome, RequestPermissionRequest, RequestPermissionResponse, RequestPermissionSubject,
    SelectedPermissionOutcome, ToolCallPermissionSubject,
};
pub use session::{SessionUpdate, UpdateSessionNotification};
pub use terminal::{Terminal, TerminalExitStatus, TerminalOutput, TerminalOutputChunk, TerminalSize, TerminalUpdate};
pub use tool_call::{Content, ToolCallContent, ToolCallContentChunk, ToolCallLocation, ToolCallStatus, ToolCallUpdate, ToolKind};

/// Adding a definition is a change to the one file that declares it: this test-only
/// definition is listed nowhere else, yet the registry decodes it and the emitted v2
/// schema has it.
#[cfg(test)]
mod registry_probe {
    use crate::emit::{Version, schema};
    use crate::registry;
    use crate::wire_struct;

    wire_struct! {
        /// A definition that exists only in this test module.
        pub struct RegistryProbe {
            /// A label.
            pub label: req String = "label" [],
        }
    }

    #[test]
    fn a_definition_declared_in_one_file_is_registered_decoded_and_emitted() {
        assert!(registry::names(Version::V2).contains(&"RegistryProbe"), "{:?}", registry::names(Version::V2));
        assert!(!registry::names(Version::V1).contains(&"RegistryProbe"), "a v2 module declares it, not v1");
        assert!(registry::decode(Version::V1, "RegistryProbe", "{}").is_none());

        let (text, warnings) = registry::decode(Version::V2, "RegistryProbe", r#"{ "label" : "x", "extra": 1 }"#).expect("registered").expect("valid");
        assert_eq!(text, r#"{"label":"x","extra":1}"#);
        assert!(warnings.is_empty(), "{warnings:?}");
        let e = registry::decode(Version::V2, "RegistryProbe", "{}").expect("registered").unwrap_err();
        assert!(e.to_string().contains("label"), "{e}");

        let emitted = schema(Version::V2);
        let probe = &emitted["$defs"]["RegistryProbe"];
        assert_eq!(probe["description"], "A definition that exists only in this test module.");
        assert_eq!(probe["required"], serde_json::json!(["label"]));

        let built = crate::wire::to_string(&RegistryProbe::new("y".to_owned()));
        assert_eq!(registry::decode(Version::V2, "RegistryProbe", &built).expect("registered").expect("valid").0, built);
    }
}
