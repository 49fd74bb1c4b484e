//! Shape unions: `anyOf` alternatives told apart by a member that only one of them
//! requires (`EmbeddedResourceResource`: `text` or `blob`).

/// Defines `$name` as the first alternative whose selecting member is present.
/// With none present, the error is `missing_field` for the first alternative's member.
#[macro_export]
macro_rules! acp_shape_union {
    (
        $(#[doc = $doc:literal])*
        pub enum $name:ident {
            $( $(#[doc = $vdoc:literal])* $variant:ident($alt:ty) = $key:literal ),+ $(,)?
        }
    ) => {
        $(#[doc = $doc])*
        #[derive(Debug, Clone, PartialEq)]
        pub enum $name {
            $( $(#[doc = $vdoc])* $variant($alt), )+
        }

        impl $crate::wire::Decode for $name {
            fn decode(
                v: &::serde_json::Value,
                cx: &mut $crate::wire::Cx,
            ) -> ::core::result::Result<Self, $crate::wire::Error> {
                let obj = $crate::wire::expect_object(v, cx)?;
                $(
                    if obj.contains_key($key) {
                        return <$alt as $crate::wire::Decode>::decode(v, cx).map(Self::$variant);
                    }
                )+
                const KEYS: &[&str] = &[$($key),+];
                Err(cx.missing_one_of(KEYS))
            }
        }

        impl $crate::wire::Encode for $name {
            fn encode(&self, w: &mut $crate::wire::Writer) {
                match self {
                    $( Self::$variant(x) => $crate::wire::Encode::encode(x, w), )+
                }
            }
        }
    };
}
