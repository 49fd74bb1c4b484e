//! The untagged `EmbeddedResourceResource` shape union (text or bytes), shared by v1
//! and v2.

/// Defines `$name` as "`$text` when the object has a `text` member, else `$blob` when
/// it has a `blob` member".
#[macro_export]
#[doc(hidden)]
macro_rules! acp_untagged_resource {
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
                    Self::Text(t) => $crate::wire::Encode::encode(t, w),
                    Self::Blob(b) => $crate::wire::Encode::encode(b, w),
                }
            }
        }

    };
}
