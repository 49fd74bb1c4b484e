// @generated in its copies: cargo xtask gen vendors templates/rust/runtime/envelope.rs byte for byte as src/wire/envelope.rs of every generated crate; edit it here, never a copy.
//! JSON-RPC envelopes: requests and notifications, whose `params` type the `method`
//! selects, and the method tables that decode a response's `result` once the method of
//! the request it answers is known.

/// A request or notification: the struct (its other members, `method`, `params`,
/// unknown members), the enum of its params by method, and their `Decode`, `Encode`
/// and serde impls.
///
/// A known method decodes `params` as that method's type (its problems are under
/// `/params`); any other method keeps `params` as raw JSON in the fallback variant.
/// `params` absent and `null` are the same (`None`), and `None` is written omitted.
/// Always read through a buffered object: `method` may come after `params`.
#[macro_export]
#[doc(hidden)]
macro_rules! acp_envelope {
    (
        $(#[doc = $doc:literal])*
        pub struct $name:ident : params $params:ident, fallback $fb:ident ($fbdoc:literal) {
            method { $(#[doc = $mdoc:literal])* }
            params { $(#[doc = $pdoc:literal])* }
            methods {
                $( $(#[doc = $vdoc:literal])* $variant:ident($payload:ty) = $wire:literal ),* $(,)?
            }
            fields {
                $(
                    $(#[doc = $fdoc:literal])*
                    pub $f:ident : $mode:ident $ft:ty = $fwire:literal [$($check:ident $(($($arg:expr),*))?),*]
                ),* $(,)?
            }
        }
    ) => {
        #[doc = concat!("The `params` of a [`", stringify!($name), "`], by its method.")]
        #[derive(Debug, Clone, PartialEq)]
        #[allow(clippy::large_enum_variant)]
        pub enum $params {
            $( $(#[doc = $vdoc])* $variant($payload), )*
            #[doc = $fbdoc]
            $fb($crate::wire::Json),
        }

        impl $params {
            /// The method these params belong to; `None` for raw params of another method.
            #[must_use]
            pub fn method(&self) -> ::core::option::Option<&'static str> {
                match self {
                    $( Self::$variant(_) => Some($wire), )*
                    Self::$fb(_) => None,
                }
            }
        }

        impl $crate::wire::Encode for $params {
            fn encode(&self, w: &mut $crate::wire::Writer) {
                match self {
                    $( Self::$variant(p) => $crate::wire::Encode::encode(p, w), )*
                    Self::$fb(p) => $crate::wire::Encode::encode(p, w),
                }
            }
        }

        impl $crate::wire::SerializeWire for $params {
            fn ser<S: ::serde::Serializer>(&self, s: S) -> ::core::result::Result<S::Ok, S::Error> {
                match self {
                    $( Self::$variant(p) => $crate::wire::SerializeWire::ser(p, s), )*
                    Self::$fb(p) => $crate::wire::SerializeWire::ser(p, s),
                }
            }
        }

        $(#[doc = $doc])*
        #[derive(Debug, Clone, PartialEq)]
        #[non_exhaustive]
        pub struct $name {
            $(
                $(#[doc = $fdoc])*
                pub $f: $crate::__wire_ty!($mode $ft),
            )*
            $(#[doc = $mdoc])*
            pub method: String,
            $(#[doc = $pdoc])*
            pub params: ::core::option::Option<$params>,
            /// Members this version does not know, kept in input order and written
            /// back after the known ones.
            pub extra: $crate::wire::Members,
        }

        impl $name {
            /// Every method whose params this version knows, in schema order.
            pub const METHODS: &'static [&'static str] = &[$($wire),*];

            $crate::__wire_new!(@acc [] [] [params: None, extra: $crate::wire::Members::new()] $($mode $f $ft,)* req method String,);

            #[allow(unused_mut)]
            fn from_tree(m: &$crate::wire::Members, cx: &mut $crate::wire::Cx) -> ::core::option::Option<Self> {
                let method: String = match m.get("method") {
                    None => {
                        return cx.fail_missing("method");
                    }
                    Some(v) => match $crate::wire::field_from_tree::<String>(v, cx, "method", false, &[]) {
                        $crate::wire::Got::Value(s) => s,
                        _ => return None,
                    },
                };
                $( let mut $f: ::core::option::Option<$crate::__wire_slot!($mode $ft)> = None; )*
                let mut params: ::core::option::Option<$params> = None;
                let mut extra = $crate::wire::Members::new();
                for (k, v) in m {
                    match k.as_str() {
                        "method" => {}
                        "params" => {
                            params = match method.as_str() {
                                $(
                                    $wire => match $crate::wire::field_from_tree::<$payload>(v, cx, "params", true, &[]) {
                                        $crate::wire::Got::Value(p) => Some($params::$variant(p)),
                                        _ => None,
                                    },
                                )*
                                _ => match $crate::wire::field_from_tree::<$crate::wire::Json>(v, cx, "params", true, &[]) {
                                    $crate::wire::Got::Value(p) => Some($params::$fb(p)),
                                    _ => None,
                                },
                            };
                        }
                        $(
                            $fwire => {
                                let got = $crate::wire::field_from_tree::<$ft>(
                                    v, cx, $fwire, $crate::__wire_nullable!($mode),
                                    &[$($crate::wire::Check::$check $(($($arg),*))?),*],
                                );
                                $f = Some($crate::__wire_take!($mode, got));
                            }
                        )*
                        _ => extra.push_unchecked(k.clone(), v.clone()),
                    }
                }
                if cx.failed() {
                    return None;
                }
                $( $crate::__wire_required_tree!($mode, $f, cx, $fwire); )*
                Some(Self { $( $f: $crate::__wire_finish!($mode, $f), )* method, params, extra })
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
                w.begin_object();
                $( $crate::__wire_put!($mode, w, $fwire, self.$f); )*
                $crate::wire::put(w, "method", &self.method);
                $crate::wire::put_opt(w, "params", self.params.as_ref());
                w.members(&self.extra);
                w.end_object();
            }
        }

        impl $crate::wire::SerializeWire for $name {
            fn ser<S: ::serde::Serializer>(&self, s: S) -> ::core::result::Result<S::Ok, S::Error> {
                use ::serde::ser::SerializeMap as _;
                let mut map = s.serialize_map(None)?;
                let m = &mut map;
                $( $crate::__wire_ser!($mode, m, $fwire, self.$f)?; )*
                $crate::wire::ser_req(m, "method", &self.method)?;
                $crate::wire::ser_opt(m, "params", self.params.as_ref())?;
                $crate::wire::ser_members(m, &self.extra)?;
                map.end()
            }
        }

        $crate::__wire_serde!($name);
    };
}

/// The method table of a response (`AgentResponse`, whose `result` is raw JSON): the
/// enum of its result types and `decode_result`, which decodes a `result` as the type
/// of the method of the request it answers (another method: raw JSON, the fallback).
#[macro_export]
#[doc(hidden)]
macro_rules! acp_results {
    (
        $(#[doc = $doc:literal])*
        pub enum $name:ident for $response:ident, fallback $fb:ident ($fbdoc:literal) {
            $( $(#[doc = $vdoc:literal])* $variant:ident($payload:ty) = $wire:literal ),* $(,)?
        }
    ) => {
        $(#[doc = $doc])*
        #[derive(Debug, Clone, PartialEq)]
        #[allow(clippy::large_enum_variant)]
        pub enum $name {
            $( $(#[doc = $vdoc])* $variant($payload), )*
            #[doc = $fbdoc]
            $fb($crate::wire::Json),
        }

        impl $name {
            /// Every method whose result this version knows, in schema order.
            pub const METHODS: &'static [&'static str] = &[$($wire),*];

            /// The method this result answers; `None` for a raw result of another method.
            #[must_use]
            pub fn method(&self) -> ::core::option::Option<&'static str> {
                match self {
                    $( Self::$variant(_) => Some($wire), )*
                    Self::$fb(_) => None,
                }
            }
        }

        impl $response {
            #[doc = concat!("Decodes the `result` of a [`", stringify!($response), "`] as the result type of `method`, the method of the request it answers (any other method: raw JSON, [`", stringify!($name), "::", stringify!($fb), "`]). Pointers in problems are relative to `result`.")]
            ///
            /// # Errors
            /// The first problem of `result` as that type.
            pub fn decode_result(method: &str, result: &$crate::wire::Json) -> ::core::result::Result<$crate::wire::Parsed<$name>, $crate::wire::Error> {
                match method {
                    $(
                        $wire => $crate::wire::from_json::<$payload>(result)
                            .map(|p| $crate::wire::Parsed { value: $name::$variant(p.value), warnings: p.warnings, warnings_dropped: p.warnings_dropped }),
                    )*
                    _ => $crate::wire::from_json::<$crate::wire::Json>(result)
                        .map(|p| $crate::wire::Parsed { value: $name::$fb(p.value), warnings: p.warnings, warnings_dropped: p.warnings_dropped }),
                }
            }
        }

        impl $crate::wire::Encode for $name {
            fn encode(&self, w: &mut $crate::wire::Writer) {
                match self {
                    $( Self::$variant(p) => $crate::wire::Encode::encode(p, w), )*
                    Self::$fb(p) => $crate::wire::Encode::encode(p, w),
                }
            }
        }

        impl $crate::wire::SerializeWire for $name {
            fn ser<S: ::serde::Serializer>(&self, s: S) -> ::core::result::Result<S::Ok, S::Error> {
                match self {
                    $( Self::$variant(p) => $crate::wire::SerializeWire::ser(p, s), )*
                    Self::$fb(p) => $crate::wire::SerializeWire::ser(p, s),
                }
            }
        }

        impl ::serde::Serialize for $name {
            fn serialize<S: ::serde::Serializer>(&self, s: S) -> ::core::result::Result<S::Ok, S::Error> {
                $crate::wire::SerializeWire::ser(self, s)
            }
        }
    };
}
