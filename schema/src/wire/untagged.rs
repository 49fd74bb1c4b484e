//! The untagged `EmbeddedResourceResource` shape union (text or bytes), shared by v1
//! and v2.

/// Defines `$name` as "`$text` when the object has a `text` member, else `$blob` when
/// it has a `blob` member".
#[macro_export]
#[doc(hidden)]
macro_rules! untagged_resource {
    ($name:ident, $text:ident, $blob:ident) => {
        /// A resource's contents: text when the object has a `text` member, bytes when it
        /// has a `blob` member.
        #[derive(Debug, Clone, PartialEq)]
        pub enum $name {
            /// Text contents.
            Text($text),
            /// Binary contents.
            Blob($blob),
        }

        impl $crate::wire::Decode for $name {
            fn decode(
                v: &::serde_json::Value,
                cx: &mut $crate::wire::Cx,
            ) -> ::core::result::Result<Self, $crate::wire::Error> {
                let obj = $crate::wire::expect_object(v, cx)?;
                if obj.contains_key("text") {
                    <$text as $crate::wire::Decode>::decode(v, cx).map(Self::Text)
                } else if obj.contains_key("blob") {
                    <$blob as $crate::wire::Decode>::decode(v, cx).map(Self::Blob)
                } else {
                    Err($crate::wire::Error::new(
                        $crate::wire::ErrorKind::MissingField,
                        format!("{}/text", cx.path()),
                        "resource contents need a `text` member (text) or a `blob` member (bytes)",
                    ))
                }
            }
        }

        impl $crate::wire::Encode for $name {
            fn encode(&self, w: &mut $crate::wire::Writer) {
                match self {
                    Self::Text(t) => t.encode(w),
                    Self::Blob(b) => b.encode(w),
                }
            }
        }

        impl ::schemars::JsonSchema for $name {
            fn schema_name() -> ::std::borrow::Cow<'static, str> {
                stringify!($name).into()
            }
            fn json_schema(g: &mut ::schemars::SchemaGenerator) -> ::schemars::Schema {
                let t = g.subschema_for::<$text>().to_value();
                let b = g.subschema_for::<$blob>().to_value();
                ::schemars::json_schema!({
                    "description": "A resource's contents: text (`text` member) or bytes (`blob` member).",
                    "anyOf": [
                        { "title": stringify!($text), "allOf": [t] },
                        { "title": stringify!($blob), "allOf": [b] }
                    ]
                })
            }
        }
    };
}
