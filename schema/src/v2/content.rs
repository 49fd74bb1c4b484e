//! Content blocks and the resources they carry.

use super::ids::MediaType;
use crate::wire::{Bytes, Members};
use crate::{string_enum, tagged_union, wire_struct};

string_enum! {
    /// Who a piece of content is meant for.
    pub enum Role: open ("other", "A role this version does not know, kept as sent.") {
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
        /// When the underlying resource last changed, as an RFC 3339 timestamp.
        pub last_modified: opt String = "lastModified" [Lenient],
        /// How important the content is, from 0 (least) to 1 (most).
        pub priority: opt f64 = "priority" [Lenient, Range(0.0, 1.0)],
        /// Extension data; omitted and `null` mean none.
        pub meta: opt Members = "_meta" [Lenient],
    }
}

wire_struct! {
    /// Plain or Markdown text.
    pub struct TextContent {
        /// The text.
        pub text: req String = "text" [],
        /// Display hints.
        pub annotations: opt Annotations = "annotations" [Lenient],
        /// Extension data; omitted and `null` mean none.
        pub meta: opt Members = "_meta" [Lenient],
    }
}

wire_struct! {
    /// An image.
    pub struct ImageContent {
        /// The image bytes, as base64 on the wire.
        pub data: req Bytes = "data" [],
        /// The image's MIME type.
        pub mime_type: req MediaType = "mimeType" [],
        /// Where the image came from, when known.
        pub uri: opt String = "uri" [Lenient, Format("uri")],
        /// Display hints.
        pub annotations: opt Annotations = "annotations" [Lenient],
        /// Extension data; omitted and `null` mean none.
        pub meta: opt Members = "_meta" [Lenient],
    }
}

wire_struct! {
    /// A sound clip.
    pub struct AudioContent {
        /// The audio bytes, as base64 on the wire.
        pub data: req Bytes = "data" [],
        /// The audio's MIME type.
        pub mime_type: req MediaType = "mimeType" [],
        /// Display hints.
        pub annotations: opt Annotations = "annotations" [Lenient],
        /// Extension data; omitted and `null` mean none.
        pub meta: opt Members = "_meta" [Lenient],
    }
}

string_enum! {
    /// Which colour scheme an icon is drawn for.
    pub enum IconTheme: open ("other", "A theme this version does not know, kept as sent.") {
        /// For light backgrounds.
        Light = "light",
        /// For dark backgrounds.
        Dark = "dark",
    }
}

wire_struct! {
    /// An icon a Client may show next to a resource.
    pub struct Icon {
        /// Where to load the icon from.
        pub src: req String = "src" [Format("uri")],
        /// The icon's MIME type.
        pub mime_type: opt MediaType = "mimeType" [Lenient],
        /// The sizes the icon is available in (such as `48x48`).
        pub sizes: opt Vec<String> = "sizes" [Lenient, SkipItems],
        /// The colour scheme the icon suits.
        pub theme: opt IconTheme = "theme" [Lenient],
        /// Extension data; omitted and `null` mean none.
        pub meta: opt Members = "_meta" [Lenient],
    }
}

wire_struct! {
    /// A pointer to a resource the Agent can read, without its contents.
    pub struct ResourceLink {
        /// A short name for the resource.
        pub name: req String = "name" [],
        /// Where the resource is.
        pub uri: req String = "uri" [Format("uri")],
        /// A title to show instead of the name.
        pub title: opt String = "title" [Lenient],
        /// Longer text about the resource.
        pub description: opt String = "description" [Lenient],
        /// Icons for the resource.
        pub icons: opt Vec<Icon> = "icons" [Lenient, SkipItems],
        /// The resource's MIME type.
        pub mime_type: opt MediaType = "mimeType" [Lenient],
        /// The resource's size in bytes (0 or more).
        pub size: opt u64 = "size" [Lenient],
        /// Display hints.
        pub annotations: opt Annotations = "annotations" [Lenient],
        /// Extension data; omitted and `null` mean none.
        pub meta: opt Members = "_meta" [Lenient],
    }
}

wire_struct! {
    /// A resource's contents as text.
    pub struct TextResourceContents {
        /// The text.
        pub text: req String = "text" [],
        /// Where the resource is.
        pub uri: req String = "uri" [Format("uri")],
        /// The resource's MIME type.
        pub mime_type: opt MediaType = "mimeType" [Lenient],
        /// Extension data; omitted and `null` mean none.
        pub meta: opt Members = "_meta" [Lenient],
    }
}

wire_struct! {
    /// A resource's contents as bytes.
    pub struct BlobResourceContents {
        /// The bytes, as base64 on the wire.
        pub blob: req Bytes = "blob" [],
        /// Where the resource is.
        pub uri: req String = "uri" [Format("uri")],
        /// The resource's MIME type.
        pub mime_type: opt MediaType = "mimeType" [Lenient],
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
        /// The contents.
        pub resource: req EmbeddedResourceResource = "resource" [],
        /// Display hints.
        pub annotations: opt Annotations = "annotations" [Lenient],
        /// Extension data; omitted and `null` mean none.
        pub meta: opt Members = "_meta" [Lenient],
    }
}

tagged_union! {
    /// Something to show: text, an image, audio, or a resource.
    pub enum ContentBlock: tag "type", open ("A content block this version does not know, kept whole so it can be stored or forwarded unchanged.") {
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
