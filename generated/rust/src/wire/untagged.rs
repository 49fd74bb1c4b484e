// @generated in its copies: cargo xtask gen vendors templates/rust/runtime/untagged.rs byte for byte as src/wire/untagged.rs of every generated crate; edit it here, never a copy.
//! Shape unions: `anyOf` alternatives told apart by a member that only one of them
//! requires (`EmbeddedResourceResource`: `text` or `blob`).

/// Defines `$name` as the first alternative whose selecting member is present.
/// With none present, the error is `missing_field` for the first alternative's member.
#[macro_export]
#[doc(hidden)]
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

        impl $name {
            fn from_tree(m: &$crate::wire::Members, cx: &mut $crate::wire::Cx) -> ::core::option::Option<Self> {
                $(
                    if m.contains_key($key) {
                        return $crate::wire::payload_from_tree::<$alt>(m, cx, &[]).map(Self::$variant);
                    }
                )+
                const KEYS: &[&str] = &[$($key),+];
                if cx.silent() {
                    return cx.fail_with($crate::wire::ErrorKind::MissingField, String::new);
                }
                let e = cx.missing_one_of(KEYS);
                cx.fail(e)
            }
        }

        impl $crate::wire::Decode for $name {
            const EXPECTED: &'static str = "an object";
            fn from_map<'de, A: ::serde::de::MapAccess<'de>>(
                map: A,
                cx: &mut $crate::wire::Cx,
            ) -> ::core::result::Result<::core::option::Option<Self>, A::Error> {
                $crate::wire::buffered(map, cx, None, Self::from_tree)
            }
        }

        impl $crate::wire::Encode for $name {
            fn encode(&self, w: &mut $crate::wire::Writer) {
                match self {
                    $( Self::$variant(x) => $crate::wire::Encode::encode(x, w), )+
                }
            }
        }

        impl $crate::wire::SerializeWire for $name {
            fn ser<S: ::serde::Serializer>(&self, s: S) -> ::core::result::Result<S::Ok, S::Error> {
                match self {
                    $( Self::$variant(x) => $crate::wire::SerializeWire::ser(x, s), )+
                }
            }
        }

        /// As the payload of a tagged object's variant (upstream `CreateElicitationRequest`'s
        /// `form`): the alternative is picked among the members of the same object.
        impl $crate::wire::Payload for $name {
            fn decode_fields<'de, A: ::serde::de::MapAccess<'de>>(
                map: &mut A,
                cx: &mut $crate::wire::Cx,
                skip: &[&str],
                consumed: ::core::option::Option<&str>,
            ) -> ::core::result::Result<::core::option::Option<Self>, A::Error> {
                let mut all = $crate::wire::Members::new();
                $crate::wire::collect_members(map, cx, &mut all, consumed)?;
                if cx.failed() {
                    return Ok(None);
                }
                let m: $crate::wire::Members = all.iter().filter(|(k, _)| !skip.contains(&k.as_str())).map(|(k, v)| (k.clone(), v.clone())).collect();
                Ok(Self::from_tree(&m, cx))
            }

            fn encode_known(&self, w: &mut $crate::wire::Writer) {
                match self {
                    $( Self::$variant(x) => <$alt as $crate::wire::Payload>::encode_known(x, w), )+
                }
            }

            fn serialize_known<M: ::serde::ser::SerializeMap>(&self, m: &mut M) -> ::core::result::Result<(), M::Error> {
                match self {
                    $( Self::$variant(x) => <$alt as $crate::wire::Payload>::serialize_known(x, m), )+
                }
            }

            fn extra(&self) -> &$crate::wire::Members {
                match self {
                    $( Self::$variant(x) => $crate::wire::Payload::extra(x), )+
                }
            }
        }

        $crate::__wire_serde!($name);
    };
}
