//! File changes shown as a diff.

use super::ids::MediaType;
use crate::json_schema as schema;
use crate::wire::{self, AbsolutePath, Members};
use crate::{string_enum, wire_struct};
use serde_json::json;

string_enum! {
    /// What kind of file a change touches.
    pub enum DiffFileType: open ("other", "A file kind this version does not know, kept as sent.") {
        /// A text file.
        Text = "text",
        /// A binary file.
        Binary = "binary",
        /// A directory.
        Directory = "directory",
        /// A symbolic link.
        Symlink = "symlink",
    }
}

string_enum! {
    /// The notation of a patch's text.
    pub enum DiffPatchFormat: open ("other", "A patch notation this version does not know, kept as sent.") {
        /// The output of `git diff`.
        GitPatch = "git_patch",
    }
}

wire_struct! {
    /// Patch text a Client can render for some or all of a diff's changes.
    pub struct DiffPatch {
        /// The notation of `text`.
        pub format: req DiffPatchFormat = "format" [],
        /// The patch itself.
        pub text: req String = "text" [],
    }
}

wire_struct! {
    /// A change to one file at one path.
    pub struct DiffPathChange {
        /// The file's absolute path.
        pub path: req AbsolutePath = "path" [],
    }
}

wire_struct! {
    /// A change that takes a file from one path to another.
    pub struct DiffPathPairChange {
        /// The absolute path before the change.
        pub old_path: req AbsolutePath = "oldPath" [],
        /// The absolute path after the change.
        pub path: req AbsolutePath = "path" [],
    }
}

crate::acp_tagged_struct! {
    /// One file-level change of a [`Diff`], tagged by `operation`.
    pub struct DiffChange : tag "operation" => operation: DiffOperation, open ("An operation this version does not know: the whole object is kept, so `fileType`, `mimeType` and `_meta` stay among its members, uninterpreted.") {
        variants {
            /// The file was created.
            Add(DiffPathChange) = "add",
            /// The file was removed.
            Delete(DiffPathChange) = "delete",
            /// The file was changed where it is.
            Modify(DiffPathChange) = "modify",
            /// The file was moved or renamed.
            Move(DiffPathPairChange) = "move",
            /// The file was copied.
            Copy(DiffPathPairChange) = "copy",
        }
        common {
            /// The kind of file; omitted or `null` when unknown.
            pub file_type: opt DiffFileType = "fileType" [Lenient],
            /// The file's MIME type; omitted or `null` when unknown.
            pub mime_type: opt MediaType = "mimeType" [Lenient],
            /// Extension data; omitted and `null` mean none.
            pub meta: opt Members = "_meta" [Lenient],
        }
    }
}

const OPERATIONS: [(&str, &str); 5] = [
    ("add", "The file was created."),
    ("delete", "The file was removed."),
    ("modify", "The file was changed where it is."),
    ("move", "The file was moved or renamed."),
    ("copy", "The file was copied."),
];

const TAG: &str = "operation";

// Its schema is written by hand below, so it registers itself.
crate::register_definition!(DiffChange);

impl schemars::JsonSchema for DiffChange {
    fn schema_name() -> std::borrow::Cow<'static, str> {
        "DiffChange".into()
    }
    fn json_schema(g: &mut schemars::SchemaGenerator) -> schemars::Schema {
        let lenient = [wire::Check::Lenient];
        let props = vec![
            schema::Property { name: "fileType", schema: schema::member(g.subschema_for::<Option<DiffFileType>>(), "The kind of file; omitted or `null` when unknown.", &lenient), required: false },
            schema::Property { name: "mimeType", schema: schema::member(g.subschema_for::<Option<MediaType>>(), "The file's MIME type; omitted or `null` when unknown.", &lenient), required: false },
            schema::Property { name: "_meta", schema: schema::member(g.subschema_for::<Option<Members>>(), "Extension data; omitted and `null` mean none.", &lenient), required: false },
        ];
        let single = schema::payload_ref::<DiffPathChange>(g);
        let pair = schema::payload_ref::<DiffPathPairChange>(g);
        let variants = OPERATIONS
            .iter()
            .map(|(tag, description)| schema::Variant { tag, description: (*description).to_owned(), payload: if matches!(*tag, "move" | "copy") { pair.clone() } else { single.clone() } })
            .collect();
        let mut s = schema::object("One file-level change of a diff, tagged by `operation`, so a Client can list the affected files without parsing patch text.", props, json!({}));
        for (k, v) in schema::union_branches(TAG, variants, Some("An operation this version does not know, kept whole so it can be stored or forwarded unchanged.")) {
            s.insert(k, v);
        }
        s
    }
}

wire_struct! {
    /// File changes made by a tool call. `changes` is authoritative; `patch` is optional
    /// text to render and must agree with it.
    pub struct Diff {
        /// The files changed and how.
        pub changes: req Vec<DiffChange> = "changes" [SkipItems],
        /// Renderable patch text; omitted or `null` when there is none.
        pub patch: opt DiffPatch = "patch" [Lenient],
        /// Extension data; omitted and `null` mean none.
        pub meta: opt Members = "_meta" [Lenient],
    }
}
