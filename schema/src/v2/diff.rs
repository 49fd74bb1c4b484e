//! File changes shown as a diff.

use super::ids::MediaType;
use crate::wire::{
    self, AbsolutePath, Cx, Decode, Encode, Error, Members, Payload, UnknownVariant, Writer,
};
use crate::json_schema as schema;
use crate::{string_enum, wire_struct};
use serde_json::{Value, json};

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

/// What happened to the file, with the paths involved.
#[derive(Debug, Clone, PartialEq)]
pub enum DiffOperation {
    /// The file was created.
    Add(DiffPathChange),
    /// The file was removed.
    Delete(DiffPathChange),
    /// The file was changed where it is.
    Modify(DiffPathChange),
    /// The file was moved or renamed.
    Move(DiffPathPairChange),
    /// The file was copied.
    Copy(DiffPathPairChange),
    /// An operation this version does not know: the whole object is kept, so
    /// `fileType`, `mimeType` and `_meta` stay among its members, uninterpreted.
    Unknown(UnknownVariant),
}

const OPERATIONS: [(&str, &str); 5] = [
    ("add", "The file was created."),
    ("delete", "The file was removed."),
    ("modify", "The file was changed where it is."),
    ("move", "The file was moved or renamed."),
    ("copy", "The file was copied."),
];

/// One file-level change of a [`Diff`], tagged by `operation`.
#[derive(Debug, Clone, PartialEq)]
pub struct DiffChange {
    /// The operation and its paths.
    pub operation: DiffOperation,
    /// The kind of file, when known.
    pub file_type: Option<DiffFileType>,
    /// The file's MIME type, when known.
    pub mime_type: Option<MediaType>,
    /// Extension data; omitted and `null` mean none.
    pub meta: Option<Members>,
}

const TAG: &str = "operation";
const COMMON: [&str; 4] = [TAG, "fileType", "mimeType", "_meta"];

impl Decode for DiffChange {
    fn decode(v: &Value, cx: &mut Cx) -> Result<Self, Error> {
        let obj = wire::expect_object(v, cx)?;
        let tag = wire::read_tag(obj, TAG, cx)?;
        let operation = match tag {
            "add" => DiffOperation::Add(DiffPathChange::decode_members(obj, cx, &COMMON)?),
            "delete" => DiffOperation::Delete(DiffPathChange::decode_members(obj, cx, &COMMON)?),
            "modify" => DiffOperation::Modify(DiffPathChange::decode_members(obj, cx, &COMMON)?),
            "move" => DiffOperation::Move(DiffPathPairChange::decode_members(obj, cx, &COMMON)?),
            "copy" => DiffOperation::Copy(DiffPathPairChange::decode_members(obj, cx, &COMMON)?),
            other => {
                return Ok(Self {
                    operation: DiffOperation::Unknown(UnknownVariant::from_members(other, obj, TAG)),
                    file_type: None,
                    mime_type: None,
                    meta: None,
                });
            }
        };
        let lenient = [wire::Check::Lenient];
        let mut change = Self { operation, file_type: None, mime_type: None, meta: None };
        for (k, v) in obj {
            match k.as_str() {
                "fileType" => change.file_type = cx.optional("fileType", v, &lenient)?,
                "mimeType" => change.mime_type = cx.optional("mimeType", v, &lenient)?,
                "_meta" => change.meta = cx.optional("_meta", v, &lenient)?,
                _ => {}
            }
        }
        Ok(change)
    }
}

impl Encode for DiffChange {
    fn encode(&self, w: &mut Writer) {
        let (tag, known, extra): (&str, &dyn Fn(&mut Writer), &Members) = match &self.operation {
            DiffOperation::Add(p) => ("add", &|w| p.encode_known(w), &p.extra),
            DiffOperation::Delete(p) => ("delete", &|w| p.encode_known(w), &p.extra),
            DiffOperation::Modify(p) => ("modify", &|w| p.encode_known(w), &p.extra),
            DiffOperation::Move(p) => ("move", &|w| p.encode_known(w), &p.extra),
            DiffOperation::Copy(p) => ("copy", &|w| p.encode_known(w), &p.extra),
            DiffOperation::Unknown(u) => return u.encode_with_tag(TAG, w),
        };
        w.begin_object();
        w.key(TAG);
        w.string(tag);
        known(w);
        wire::put_opt(w, "fileType", self.file_type.as_ref());
        wire::put_opt(w, "mimeType", self.mime_type.as_ref());
        wire::put_opt(w, "_meta", self.meta.as_ref());
        w.members(extra);
        w.end_object();
    }
}

impl schemars::JsonSchema for DiffChange {
    fn schema_name() -> std::borrow::Cow<'static, str> {
        "DiffChange".into()
    }
    fn json_schema(g: &mut schemars::SchemaGenerator) -> schemars::Schema {
        let lenient = [wire::Check::Lenient];
        let props = vec![
            schema::Property {
                name: "fileType",
                schema: schema::member(g.subschema_for::<Option<DiffFileType>>(), "The kind of file; omitted or `null` when unknown.", &lenient),
                required: false,
            },
            schema::Property {
                name: "mimeType",
                schema: schema::member(g.subschema_for::<Option<MediaType>>(), "The file's MIME type; omitted or `null` when unknown.", &lenient),
                required: false,
            },
            schema::Property {
                name: "_meta",
                schema: schema::member(g.subschema_for::<Option<Members>>(), "Extension data; omitted and `null` mean none.", &lenient),
                required: false,
            },
        ];
        let single = schema::payload_ref::<DiffPathChange>(g);
        let pair = schema::payload_ref::<DiffPathPairChange>(g);
        let variants = OPERATIONS
            .iter()
            .map(|(tag, description)| schema::Variant {
                tag,
                description: (*description).to_owned(),
                payload: if matches!(*tag, "move" | "copy") { pair.clone() } else { single.clone() },
            })
            .collect();
        let mut s = schema::object(
            "One file-level change of a diff, tagged by `operation`, so a Client can list the affected files without parsing patch text.",
            props,
            json!({}),
        );
        for (k, v) in schema::union_branches(
            TAG,
            variants,
            Some("An operation this version does not know, kept whole so it can be stored or forwarded unchanged."),
        ) {
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
