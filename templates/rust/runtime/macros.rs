// @generated in its copies: cargo xtask gen vendors templates/rust/runtime/macros.rs byte for byte as src/wire/macros.rs of every generated crate; edit it here, never a copy.
//! Declarative macros that turn one description of a wire type into the Rust type,
//! its checked decoder (from any serde `Deserializer`), its canonical encoder and its
//! serde impls, so they can never disagree. The source-of-truth crate wraps them to add
//! the JSON Schema; generated bindings use them as they are. They are internal: hidden
//! from the docs, and their grammar may change in any release.

/// Field storage type for a presence mode.
#[macro_export]
#[doc(hidden)]
macro_rules! __wire_ty {
    (req $t:ty) => { $t };
    (opt $t:ty) => { ::core::option::Option<$t> };
    (maybe $t:ty) => { ::core::option::Option<$t> };
    (patch $t:ty) => { $crate::wire::Patch<$t> };
}

/// Whether `null` is a value of its own for a presence mode.
#[macro_export]
#[doc(hidden)]
macro_rules! __wire_nullable {
    (req) => {
        false
    };
    (opt) => {
        true
    };
    (maybe) => {
        true
    };
    (patch) => {
        true
    };
}

/// Turns a decoded member into its storage (a failed member is absent or `Keep`).
#[macro_export]
#[doc(hidden)]
macro_rules! __wire_take {
    (req, $got:expr) => {
        match $got {
            $crate::wire::Got::Value(v) => Some(v),
            _ => None,
        }
    };
    (opt, $got:expr) => {
        match $got {
            $crate::wire::Got::Value(v) => Some(v),
            _ => None,
        }
    };
    (maybe, $got:expr) => {
        match $got {
            $crate::wire::Got::Value(v) => Some(v),
            _ => None,
        }
    };
    (patch, $got:expr) => {
        match $got {
            $crate::wire::Got::Value(v) => $crate::wire::Patch::Set(v),
            $crate::wire::Got::Null => $crate::wire::Patch::Clear,
            $crate::wire::Got::Failed => $crate::wire::Patch::Keep,
        }
    };
}

#[macro_export]
#[doc(hidden)]
macro_rules! __wire_slot {
    (req $t:ty) => { ::core::option::Option<$t> };
    (opt $t:ty) => { ::core::option::Option<$t> };
    (maybe $t:ty) => { ::core::option::Option<$t> };
    (patch $t:ty) => { $crate::wire::Patch<$t> };
}

/// A required member that was never seen, in a buffered object (a tagged struct's
/// common members): `missing_field`.
#[macro_export]
#[doc(hidden)]
macro_rules! __wire_required_tree {
    (req, $f:ident, $cx:ident, $name:expr) => {
        let $f = match $f.flatten() {
            Some(v) => v,
            None => {
                return $cx.fail_missing($name);
            }
        };
    };
    ($mode:ident, $f:ident, $cx:ident, $name:expr) => {};
}

/// Whether a member mode is `req`.
#[macro_export]
#[doc(hidden)]
macro_rules! __wire_is_req {
    (req) => {
        true
    };
    ($mode:ident) => {
        false
    };
}

/// A required member's presence check (the error is `missing_field`).
#[macro_export]
#[doc(hidden)]
macro_rules! __wire_required {
    (req, $f:ident, $cx:ident, $name:expr) => {
        let $f = match $f.flatten() {
            Some(v) => v,
            None => {
                return Ok($cx.fail_missing($name));
            }
        };
    };
    ($mode:ident, $f:ident, $cx:ident, $name:expr) => {};
}

#[macro_export]
#[doc(hidden)]
macro_rules! __wire_finish {
    (req, $f:ident) => {
        $f
    };
    (opt, $f:ident) => {
        $f.flatten()
    };
    (maybe, $f:ident) => {
        $f.flatten()
    };
    (patch, $f:ident) => {
        $f.unwrap_or_default()
    };
}

#[macro_export]
#[doc(hidden)]
macro_rules! __wire_put {
    (req, $w:ident, $name:expr, $v:expr) => {
        $crate::wire::put($w, $name, &$v)
    };
    (opt, $w:ident, $name:expr, $v:expr) => {
        $crate::wire::put_opt($w, $name, $v.as_ref())
    };
    (maybe, $w:ident, $name:expr, $v:expr) => {
        $crate::wire::put_opt($w, $name, $v.as_ref())
    };
    (patch, $w:ident, $name:expr, $v:expr) => {
        $crate::wire::put_patch($w, $name, &$v)
    };
}

#[macro_export]
#[doc(hidden)]
macro_rules! __wire_ser {
    (req, $m:ident, $name:expr, $v:expr) => {
        $crate::wire::ser_req($m, $name, &$v)
    };
    (opt, $m:ident, $name:expr, $v:expr) => {
        $crate::wire::ser_opt($m, $name, $v.as_ref())
    };
    (maybe, $m:ident, $name:expr, $v:expr) => {
        $crate::wire::ser_opt($m, $name, $v.as_ref())
    };
    (patch, $m:ident, $name:expr, $v:expr) => {
        $crate::wire::ser_patch($m, $name, &$v)
    };
}

/// The constructor: required members as arguments, the others omitted.
#[macro_export]
#[doc(hidden)]
macro_rules! __wire_new {
    (@acc [$($p:ident : $pt:ty,)*] [$($init:tt)*] [$($extra:tt)*]) => {
        /// Builds a value from its required members; every optional member starts
        /// omitted (set the public fields to change that).
        #[must_use]
        #[allow(clippy::too_many_arguments, clippy::new_without_default)]
        pub fn new($($p: $pt),*) -> Self {
            Self { $($init)* $($extra)* }
        }
    };
    (@acc [$($p:ident : $pt:ty,)*] [$($init:tt)*] [$($extra:tt)*] req $f:ident $t:ty, $($rest:tt)*) => {
        $crate::__wire_new!(@acc [$($p: $pt,)* $f: $t,] [$($init)* $f,] [$($extra)*] $($rest)*);
    };
    (@acc [$($p:ident : $pt:ty,)*] [$($init:tt)*] [$($extra:tt)*] opt $f:ident $t:ty, $($rest:tt)*) => {
        $crate::__wire_new!(@acc [$($p: $pt,)*] [$($init)* $f: None,] [$($extra)*] $($rest)*);
    };
    (@acc [$($p:ident : $pt:ty,)*] [$($init:tt)*] [$($extra:tt)*] maybe $f:ident $t:ty, $($rest:tt)*) => {
        $crate::__wire_new!(@acc [$($p: $pt,)*] [$($init)* $f: None,] [$($extra)*] $($rest)*);
    };
    (@acc [$($p:ident : $pt:ty,)*] [$($init:tt)*] [$($extra:tt)*] patch $f:ident $t:ty, $($rest:tt)*) => {
        $crate::__wire_new!(@acc [$($p: $pt,)*] [$($init)* $f: $crate::wire::Patch::Keep,] [$($extra)*] $($rest)*);
    };
}

/// A wire object: the struct, its constructor, [`Decode`](crate::wire::Decode),
/// [`Encode`](crate::wire::Encode), [`Payload`](crate::wire::Payload) and serde.
///
/// Each field is `name: MODE Type = "wireName" [Checks]` where MODE is `req`
/// (required), `opt` (optional; `null` equals omitted), `maybe` (optional, but `null`
/// is not allowed) or `patch` (three-state). `forbid ["name", ...]` lists member names
/// the object must not have (`forbidden_member`).
#[macro_export]
#[doc(hidden)]
macro_rules! acp_struct {
    (
        $(#[doc = $doc:literal])*
        pub struct $name:ident {
            $(
                $(#[doc = $fdoc:literal])*
                pub $f:ident : $mode:ident $t:ty = $wire:literal [$($check:ident $(($($arg:expr),*))?),*]
            ),* $(,)?
        }
        $(extend $ext:tt)?
        $(forbid [$($forbidden:literal),* $(,)?])?
    ) => {
        $(#[doc = $doc])*
        #[derive(Debug, Clone, PartialEq)]
        #[non_exhaustive]
        pub struct $name {
            $(
                $(#[doc = $fdoc])*
                pub $f: $crate::__wire_ty!($mode $t),
            )*
            /// Members this version does not know, kept in input order and written
            /// back after the known ones.
            pub extra: $crate::wire::Members,
        }

        impl $name {
            $crate::__wire_new!(@acc [] [] [extra: $crate::wire::Members::new()] $($mode $f $t,)*);
        }

        impl $crate::wire::Payload for $name {
            #[allow(unused_variables, unused_mut)]
            fn decode_fields<'de, A: ::serde::de::MapAccess<'de>>(
                map: &mut A,
                cx: &mut $crate::wire::Cx,
                skip: &[&str],
                consumed: ::core::option::Option<&str>,
            ) -> ::core::result::Result<::core::option::Option<Self>, A::Error> {
                $( let mut $f: ::core::option::Option<$crate::__wire_slot!($mode $t)> = None; )*
                let mut extra = $crate::wire::Members::new();
                let mut names = $crate::wire::NameSet::default();
                while let Some(k) = map.next_key_seed($crate::wire::Key)? {
                    if skip.contains(&&*k) {
                        $crate::wire::ignore_value(map)?;
                        continue;
                    }
                    match &*k {
                        $(
                            $wire => {
                                if $f.is_some() {
                                    cx.duplicate($wire);
                                    $crate::wire::skip_value(map, cx)?;
                                    continue;
                                }
                                let got = map.next_value_seed($crate::wire::Field::<$t>::new(
                                    cx, $wire, $crate::__wire_nullable!($mode),
                                    &[$($crate::wire::Check::$check $(($($arg),*))?),*],
                                ))?;
                                $f = Some($crate::__wire_take!($mode, got));
                            }
                        )*
                        other => {
                            $($(
                                if other == $forbidden {
                                    let e = cx.at(other, |cx| cx.error(
                                        $crate::wire::ErrorKind::ForbiddenMember,
                                        format!("member `{other}` is not allowed in {}; remove it", stringify!($name)),
                                    ));
                                    let _: ::core::option::Option<()> = cx.fail(e);
                                    $crate::wire::skip_value(map, cx)?;
                                    continue;
                                }
                            )*)?
                            if consumed == Some(other) || names.seen(&extra, other) {
                                cx.duplicate(other);
                                $crate::wire::skip_value(map, cx)?;
                                continue;
                            }
                            let v = cx.at(other, |cx| map.next_value_seed($crate::wire::Slot::<$crate::wire::Json>::new(cx, false)))?;
                            if let $crate::wire::Got::Value(v) = v {
                                names.add(other);
                                extra.push_unchecked(k.into_owned(), v);
                            }
                        }
                    }
                }
                if cx.failed() {
                    return Ok(None);
                }
                $( $crate::__wire_required!($mode, $f, cx, $wire); )*
                Ok(Some(Self { $( $f: $crate::__wire_finish!($mode, $f), )* extra }))
            }

            #[allow(unused_variables)]
            fn encode_known(&self, w: &mut $crate::wire::Writer) {
                $( $crate::__wire_put!($mode, w, $wire, self.$f); )*
            }

            #[allow(unused_variables)]
            fn serialize_known<M: ::serde::ser::SerializeMap>(&self, m: &mut M) -> ::core::result::Result<(), M::Error> {
                $( $crate::__wire_ser!($mode, m, $wire, self.$f)?; )*
                Ok(())
            }

            fn extra(&self) -> &$crate::wire::Members {
                &self.extra
            }
        }

        impl $crate::wire::Decode for $name {
            const EXPECTED: &'static str = "an object";
            fn from_map<'de, A: ::serde::de::MapAccess<'de>>(
                mut map: A,
                cx: &mut $crate::wire::Cx,
            ) -> ::core::result::Result<::core::option::Option<Self>, A::Error> {
                <Self as $crate::wire::Payload>::decode_fields(&mut map, cx, &[], None)
            }
        }

        impl $crate::wire::Encode for $name {
            fn encode(&self, w: &mut $crate::wire::Writer) {
                w.begin_object();
                <Self as $crate::wire::Payload>::encode_known(self, w);
                w.members(&self.extra);
                w.end_object();
            }
        }

        impl $crate::wire::SerializeWire for $name {
            fn ser<S: ::serde::Serializer>(&self, s: S) -> ::core::result::Result<S::Ok, S::Error> {
                use ::serde::ser::SerializeMap as _;
                let mut m = s.serialize_map(None)?;
                <Self as $crate::wire::Payload>::serialize_known(self, &mut m)?;
                $crate::wire::ser_members(&mut m, &self.extra)?;
                m.end()
            }
        }

        $crate::__wire_serde!($name);
    };
}

/// A named string (IDs, media types): a distinct type on the wire as a string.
#[macro_export]
#[doc(hidden)]
macro_rules! acp_string_newtype {
    ($(#[doc = $doc:literal])* pub struct $name:ident; $(length($min:expr, $max:expr);)?) => {
        $(#[doc = $doc])*
        #[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord, Default)]
        pub struct $name(pub String);

        impl $name {
            /// The string itself.
            #[must_use]
            pub fn as_str(&self) -> &str {
                &self.0
            }
        }

        impl From<&str> for $name {
            fn from(s: &str) -> Self {
                Self(s.to_owned())
            }
        }

        impl ::core::borrow::Borrow<str> for $name {
            fn borrow(&self) -> &str {
                &self.0
            }
        }

        impl From<String> for $name {
            fn from(s: String) -> Self {
                Self(s)
            }
        }

        impl ::core::fmt::Display for $name {
            fn fmt(&self, f: &mut ::core::fmt::Formatter<'_>) -> ::core::fmt::Result {
                f.write_str(&self.0)
            }
        }

        impl $crate::wire::Decode for $name {
            const EXPECTED: &'static str = "a string";
            fn from_str(s: &str, cx: &mut $crate::wire::Cx) -> ::core::option::Option<Self> {
                Self::from_string(s.to_owned(), cx)
            }
            #[allow(unused_variables)]
            fn from_string(s: String, cx: &mut $crate::wire::Cx) -> ::core::option::Option<Self> {
                $(
                    // `minLength`/`maxLength`, in code points.
                    let n = s.chars().count();
                    if !($min..=$max).contains(&n) {
                        let e = cx.error($crate::wire::ErrorKind::OutOfRange, $crate::wire::length_message(n, $min, $max));
                        return cx.fail(e);
                    }
                )?
                Some(Self(s))
            }
            fn text(&self) -> ::core::option::Option<&str> {
                Some(&self.0)
            }
        }

        impl $crate::wire::Encode for $name {
            fn encode(&self, w: &mut $crate::wire::Writer) {
                w.string(&self.0);
            }
        }

        impl $crate::wire::SerializeWire for $name {
            fn ser<S: ::serde::Serializer>(&self, s: S) -> ::core::result::Result<S::Ok, S::Error> {
                s.serialize_str(&self.0)
            }
        }

        $crate::__wire_serde!($name);
    };
}

/// A string enum. `open "title" "doc"` adds `Unknown(String)`, which keeps any other
/// value; `closed` rejects other values with `unknown_variant`.
#[macro_export]
#[doc(hidden)]
macro_rules! acp_string_enum {
    (@unknown open $name:ident, $s:ident, $cx:ident) => { Some(Self::Unknown($s.to_owned())) };
    (@unknown closed $name:ident, $s:ident, $cx:ident) => {{
        $cx.fail_with($crate::wire::ErrorKind::UnknownVariant, || {
            format!("`{}` is not a known {} value; use one of: {}", $s, stringify!($name), Self::KNOWN.join(", "))
        })
    }};
    (
        $(#[doc = $doc:literal])*
        pub enum $name:ident : $openness:ident $(($title:literal, $odoc:literal))? {
            $( $(#[doc = $vdoc:literal])* $variant:ident = $wire:literal ),* $(,)?
        }
    ) => {
        $(#[doc = $doc])*
        #[derive(Debug, Clone, PartialEq, Eq, Hash)]
        $( #[cfg_attr(any(), doc = $odoc)] #[non_exhaustive] )?
        pub enum $name {
            $( $(#[doc = $vdoc])* $variant, )*
            $(
                #[doc = $odoc]
                Unknown(String),
            )?
        }

        impl $name {
            /// Every value this version knows, in schema order.
            pub const KNOWN: &'static [&'static str] = &[$($wire),*];

            /// The wire string.
            #[must_use]
            pub fn as_str(&self) -> &str {
                match self {
                    $( Self::$variant => $wire, )*
                    $( Self::Unknown(s) => { let _ = $odoc; s } )?
                }
            }
        }

        impl $crate::wire::Decode for $name {
            const EXPECTED: &'static str = "a string";
            #[allow(unused_variables)]
            fn from_str(s: &str, cx: &mut $crate::wire::Cx) -> ::core::option::Option<Self> {
                match s {
                    $( $wire => Some(Self::$variant), )*
                    _ => $crate::acp_string_enum!(@unknown $openness $name, s, cx),
                }
            }
        }

        impl $crate::wire::Encode for $name {
            fn encode(&self, w: &mut $crate::wire::Writer) {
                w.string(self.as_str());
            }
        }

        impl $crate::wire::SerializeWire for $name {
            fn ser<S: ::serde::Serializer>(&self, s: S) -> ::core::result::Result<S::Ok, S::Error> {
                s.serialize_str(self.as_str())
            }
        }

        $crate::__wire_serde!($name);
    };
}

/// A union tagged by one member. `open "doc"` adds `Unknown`, which keeps an unknown
/// tag with every other member; `closed` rejects it with `unknown_variant`.
#[macro_export]
#[doc(hidden)]
macro_rules! acp_tagged_union {
    (@unknown_stream open, $map:ident, $tag:ident, $cx:ident, $name:ident, $t:expr) => {{
        let mut members = $crate::wire::Members::new();
        $crate::wire::collect_members($map, $cx, &mut members, Some($t))?;
        Ok(Some(Self::Unknown($crate::wire::UnknownVariant { tag: $tag.to_owned(), members })))
    }};
    (@unknown_stream closed, $map:ident, $tag:ident, $cx:ident, $name:ident, $t:expr) => {{
        $crate::acp_tagged_union!(@closed $tag, $cx, $name, $t);
        $crate::wire::collect_members($map, $cx, &mut $crate::wire::Members::new(), Some($t))?;
        Ok(None)
    }};
    (@unknown_tree open, $m:ident, $tag:ident, $cx:ident, $name:ident, $t:expr) => {
        Some(Self::Unknown($crate::wire::UnknownVariant::from_members($tag, $m, $t)))
    };
    (@unknown_tree closed, $m:ident, $tag:ident, $cx:ident, $name:ident, $t:expr) => {{
        $crate::acp_tagged_union!(@closed $tag, $cx, $name, $t);
        None
    }};
    (@closed $tag:ident, $cx:ident, $name:ident, $t:expr) => {
        $cx.at($t, |cx| cx.fail_with::<()>($crate::wire::ErrorKind::UnknownVariant, || {
            format!("`{}` is not a known {} variant; use one of: {}", $tag, stringify!($name), Self::KNOWN.join(", "))
        }));
    };
    (
        $(#[doc = $doc:literal])*
        pub enum $name:ident : tag $t:literal, $openness:ident $(($odoc:literal))? {
            $( $(#[doc = $vdoc:literal])* $variant:ident($payload:ty) = $wire:literal ),* $(,)?
        }
    ) => {
        $(#[doc = $doc])*
        #[derive(Debug, Clone, PartialEq)]
        #[allow(clippy::large_enum_variant)]
        $( #[cfg_attr(any(), doc = $odoc)] #[non_exhaustive] )?
        pub enum $name {
            $( $(#[doc = $vdoc])* $variant($payload), )*
            $(
                #[doc = $odoc]
                Unknown($crate::wire::UnknownVariant),
            )?
        }

        impl $name {
            /// The tag member's name.
            pub const TAG: &'static str = $t;
            /// Every tag this version knows, in schema order.
            pub const KNOWN: &'static [&'static str] = &[$($wire),*];

            /// The tag value.
            #[must_use]
            pub fn tag(&self) -> &str {
                match self {
                    $( Self::$variant(_) => $wire, )*
                    $( Self::Unknown(u) => { let _ = $odoc; &u.tag } )?
                }
            }

            fn from_stream<'de, A: ::serde::de::MapAccess<'de>>(
                tag: &str,
                map: &mut A,
                cx: &mut $crate::wire::Cx,
            ) -> ::core::result::Result<::core::option::Option<Self>, A::Error> {
                match tag {
                    $( $wire => Ok(<$payload as $crate::wire::Payload>::decode_fields(map, cx, &[], Some($t))?.map(Self::$variant)), )*
                    _ => $crate::acp_tagged_union!(@unknown_stream $openness, map, tag, cx, $name, $t),
                }
            }

            fn from_tree(m: &$crate::wire::Members, cx: &mut $crate::wire::Cx) -> ::core::option::Option<Self> {
                let tag = $crate::wire::read_tag(m, $t, cx)?;
                match tag {
                    $( $wire => $crate::wire::payload_from_tree::<$payload>(m, cx, &[$t]).map(Self::$variant), )*
                    _ => $crate::acp_tagged_union!(@unknown_tree $openness, m, tag, cx, $name, $t),
                }
            }
        }

        impl $crate::wire::Decode for $name {
            const EXPECTED: &'static str = "an object";
            fn from_map<'de, A: ::serde::de::MapAccess<'de>>(
                mut map: A,
                cx: &mut $crate::wire::Cx,
            ) -> ::core::result::Result<::core::option::Option<Self>, A::Error> {
                match $crate::wire::first_member(&mut map, cx, $t)? {
                    $crate::wire::First::Tag(tag) => Self::from_stream(&tag, &mut map, cx),
                    $crate::wire::First::BadTag => {
                        $crate::wire::collect_members(&mut map, cx, &mut $crate::wire::Members::new(), Some($t))?;
                        Ok(None)
                    }
                    $crate::wire::First::Empty => {
                        Ok(cx.fail_missing($t))
                    }
                    $crate::wire::First::Other(k, v) => $crate::wire::buffered(map, cx, Some((k, v)), Self::from_tree),
                }
            }
        }

        impl $crate::wire::Encode for $name {
            fn encode(&self, w: &mut $crate::wire::Writer) {
                match self {
                    $(
                        Self::$variant(p) => {
                            w.begin_object();
                            w.key($t);
                            w.string($wire);
                            <$payload as $crate::wire::Payload>::encode_known(p, w);
                            w.members($crate::wire::Payload::extra(p));
                            w.end_object();
                        }
                    )*
                    $( Self::Unknown(u) => { let _ = $odoc; u.encode_with_tag($t, w) } )?
                }
            }
        }

        impl $crate::wire::SerializeWire for $name {
            fn ser<S: ::serde::Serializer>(&self, s: S) -> ::core::result::Result<S::Ok, S::Error> {
                use ::serde::ser::SerializeMap as _;
                match self {
                    $(
                        Self::$variant(p) => {
                            let mut m = s.serialize_map(None)?;
                            m.serialize_entry($t, $wire)?;
                            <$payload as $crate::wire::Payload>::serialize_known(p, &mut m)?;
                            $crate::wire::ser_members(&mut m, $crate::wire::Payload::extra(p))?;
                            m.end()
                        }
                    )*
                    $( Self::Unknown(u) => { let _ = $odoc; u.ser_with_tag($t, s) } )?
                }
            }
        }

        /// As the payload of another union's variant (upstream v2 `SessionUpdate`'s
        /// `state_update`): this union's tag and members are read from the same object.
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
                w.key($t);
                match self {
                    $( Self::$variant(p) => {
                        w.string($wire);
                        <$payload as $crate::wire::Payload>::encode_known(p, w);
                    } )*
                    $( Self::Unknown(u) => { let _ = $odoc; w.string(&u.tag) } )?
                }
            }

            fn serialize_known<M: ::serde::ser::SerializeMap>(&self, m: &mut M) -> ::core::result::Result<(), M::Error> {
                match self {
                    $( Self::$variant(p) => {
                        m.serialize_entry($t, $wire)?;
                        <$payload as $crate::wire::Payload>::serialize_known(p, m)
                    } )*
                    $( Self::Unknown(u) => { let _ = $odoc; m.serialize_entry($t, &u.tag) } )?
                }
            }

            fn extra(&self) -> &$crate::wire::Members {
                match self {
                    $( Self::$variant(p) => $crate::wire::Payload::extra(p), )*
                    $( Self::Unknown(u) => { let _ = $odoc; &u.members } )?
                }
            }
        }

        $crate::__wire_serde!($name);
    };
}

/// A union tagged by one member with one variant that has no tag (upstream v1
/// `AuthMethod`'s `agent`): an object without the tag member is that variant, and it is
/// written without one. An unknown tag goes to `Unknown` when the union is open, and
/// to the tagless variant otherwise (the tag member kept among its unknown members, as
/// the schema's `anyOf` accepts it there). Always read through a buffered object, as
/// the tag may come anywhere or not at all.
#[macro_export]
#[doc(hidden)]
macro_rules! acp_tagless_union {
    (@unknown open, $m:ident, $tag:ident, $cx:ident, $t:expr, $dv:ident, $dp:ty) => {
        Some(Self::Unknown($crate::wire::UnknownVariant::from_members($tag, $m, $t)))
    };
    (@unknown closed, $m:ident, $tag:ident, $cx:ident, $t:expr, $dv:ident, $dp:ty) => {
        $crate::wire::payload_from_tree::<$dp>($m, $cx, &[]).map(Self::$dv)
    };
    (
        $(#[doc = $doc:literal])*
        pub enum $name:ident : tag $t:literal, $openness:ident $(($odoc:literal))? {
            $( $(#[doc = $vdoc:literal])* $variant:ident($payload:ty) = $wire:literal ),* $(,)?
        }
        tagless {
            $(#[doc = $ddoc:literal])* $dv:ident($dp:ty) = $dtitle:literal
        }
    ) => {
        $(#[doc = $doc])*
        #[derive(Debug, Clone, PartialEq)]
        #[allow(clippy::large_enum_variant)]
        $( #[cfg_attr(any(), doc = $odoc)] #[non_exhaustive] )?
        pub enum $name {
            $( $(#[doc = $vdoc])* $variant($payload), )*
            $(#[doc = $ddoc])*
            $dv($dp),
            $(
                #[doc = $odoc]
                Unknown($crate::wire::UnknownVariant),
            )?
        }

        impl $name {
            /// The tag member's name.
            pub const TAG: &'static str = $t;
            /// Every tag this version knows, in schema order.
            pub const KNOWN: &'static [&'static str] = &[$($wire),*];

            /// The tag value; `None` for the variant without a tag.
            #[must_use]
            pub fn tag(&self) -> ::core::option::Option<&str> {
                match self {
                    $( Self::$variant(_) => Some($wire), )*
                    Self::$dv(_) => None,
                    $( Self::Unknown(u) => { let _ = $odoc; Some(&u.tag) } )?
                }
            }

            fn from_tree(m: &$crate::wire::Members, cx: &mut $crate::wire::Cx) -> ::core::option::Option<Self> {
                if !m.contains_key($t) {
                    return $crate::wire::payload_from_tree::<$dp>(m, cx, &[]).map(Self::$dv);
                }
                let tag = $crate::wire::read_tag(m, $t, cx)?;
                match tag {
                    $( $wire => $crate::wire::payload_from_tree::<$payload>(m, cx, &[$t]).map(Self::$variant), )*
                    _ => $crate::acp_tagless_union!(@unknown $openness, m, tag, cx, $t, $dv, $dp),
                }
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
                    $(
                        Self::$variant(p) => {
                            w.begin_object();
                            w.key($t);
                            w.string($wire);
                            <$payload as $crate::wire::Payload>::encode_known(p, w);
                            w.members($crate::wire::Payload::extra(p));
                            w.end_object();
                        }
                    )*
                    Self::$dv(p) => {
                        w.begin_object();
                        <$dp as $crate::wire::Payload>::encode_known(p, w);
                        w.members($crate::wire::Payload::extra(p));
                        w.end_object();
                    }
                    $( Self::Unknown(u) => { let _ = $odoc; u.encode_with_tag($t, w) } )?
                }
            }
        }

        impl $crate::wire::SerializeWire for $name {
            fn ser<S: ::serde::Serializer>(&self, s: S) -> ::core::result::Result<S::Ok, S::Error> {
                use ::serde::ser::SerializeMap as _;
                match self {
                    $(
                        Self::$variant(p) => {
                            let mut m = s.serialize_map(None)?;
                            m.serialize_entry($t, $wire)?;
                            <$payload as $crate::wire::Payload>::serialize_known(p, &mut m)?;
                            $crate::wire::ser_members(&mut m, $crate::wire::Payload::extra(p))?;
                            m.end()
                        }
                    )*
                    Self::$dv(p) => {
                        let mut m = s.serialize_map(None)?;
                        <$dp as $crate::wire::Payload>::serialize_known(p, &mut m)?;
                        $crate::wire::ser_members(&mut m, $crate::wire::Payload::extra(p))?;
                        m.end()
                    }
                    $( Self::Unknown(u) => { let _ = $odoc; u.ser_with_tag($t, s) } )?
                }
            }
        }

        $crate::__wire_serde!($name);
    };
}

/// An object tagged by one member whose other members are shared by every variant
/// (`DiffChange`: `operation` selects the payload; `fileType`, `mimeType`, `_meta` are
/// common). An unknown tag keeps the whole object, common members included,
/// uninterpreted. With a `tagless` variant (upstream v1 `SetSessionConfigOptionRequest`'s
/// `value_id`), an object without the tag is that variant; `tagless unknown` also sends
/// an unknown tag there (the schema has no catch-all), the tag kept among its unknown
/// members, while `tagless own` keeps unknown tags whole as above. `closed` (no
/// catch-all and no variant without a tag) rejects an unknown tag with `unknown_variant`;
/// its `Unknown` variant is never read from JSON.
#[macro_export]
#[doc(hidden)]
macro_rules! acp_tagged_struct {
    (@unknown open [] $name:ident $openum:ident, $tag:ident, $m:ident, $cx:ident, $t:expr, $common:expr) => {
        $openum::Unknown($crate::wire::UnknownVariant::from_members($tag, $m, $t))
    };
    // Neither a catch-all nor a variant without a tag: the schema lists every tag.
    (@unknown closed [] $name:ident $openum:ident, $tag:ident, $m:ident, $cx:ident, $t:expr, $common:expr) => {{
        // The same error as a closed tagged union's.
        $crate::acp_tagged_union!(@closed $tag, $cx, $name, $t);
        return None;
    }};
    (@unknown $o:ident [own $dv:ident $dp:ty] $name:ident $openum:ident, $tag:ident, $m:ident, $cx:ident, $t:expr, $common:expr) => {
        $openum::Unknown($crate::wire::UnknownVariant::from_members($tag, $m, $t))
    };
    (@unknown $o:ident [unknown $dv:ident $dp:ty] $name:ident $openum:ident, $tag:ident, $m:ident, $cx:ident, $t:expr, $common:expr) => {{
        // The tag stays in the object: the payload keeps it among its unknown members.
        let _ = $tag;
        $openum::$dv($crate::wire::payload_from_tree::<$dp>($m, $cx, $common)?)
    }};
    // No tag member: the variant without a tag, or (when there is none) the missing tag.
    (@absent [] $openum:ident, $m:ident, $cx:ident, $t:expr, $reserved:expr) => {{
        $crate::wire::read_tag($m, $t, $cx)?;
        return None;
    }};
    (@absent [$tmode:ident $dv:ident $dp:ty] $openum:ident, $m:ident, $cx:ident, $t:expr, $reserved:expr) => {
        $openum::$dv($crate::wire::payload_from_tree::<$dp>($m, $cx, $reserved)?)
    };
    // How the tag is read: `tag "t"` (a string when present), or `tag "t" optional
    // strict|lenient` (`null` is the same as absent; `lenient`: a tag that is not a
    // string is dropped with a warning).
    (@tag [] $m:ident, $cx:ident, $t:expr) => {
        if $m.contains_key($t) { Some($crate::wire::read_tag($m, $t, $cx)?) } else { None }
    };
    (@tag [optional $how:ident] $m:ident, $cx:ident, $t:expr) => {
        match $m.get($t) {
            None | Some($crate::wire::Json::Null) => None,
            Some($crate::wire::Json::String(s)) => Some(s.as_str()),
            Some(other) => {
                let lenient = stringify!($how) == "lenient";
                let e = $cx.at($t, |cx| cx.error($crate::wire::ErrorKind::WrongType, format!("expected a string tag, got {}", other.describe())));
                if lenient {
                    $cx.warn(e);
                    None
                } else {
                    return $cx.fail(e);
                }
            }
        }
    };
    (
        $(#[doc = $doc:literal])*
        pub struct $name:ident : tag $t:literal $(optional $how:ident)? => $opf:ident : $openum:ident, $openness:ident ($odoc:literal) {
            variants {
                $( $(#[doc = $vdoc:literal])* $variant:ident($payload:ty) = $wire:literal ),* $(,)?
            }
            common {
                $(
                    $(#[doc = $fdoc:literal])*
                    pub $f:ident : $mode:ident $ft:ty = $fwire:literal [$($check:ident $(($($arg:expr),*))?),*]
                ),* $(,)?
            }
            $(
                tagless $tmode:ident {
                    $(#[doc = $ddoc:literal])* $dv:ident($dp:ty) = $dtitle:literal
                }
            )?
        }
    ) => {
        #[doc = concat!("The tag-selected part of [`", stringify!($name), "`].")]
        #[derive(Debug, Clone, PartialEq)]
        #[allow(clippy::large_enum_variant)]
        #[non_exhaustive]
        pub enum $openum {
            $( $(#[doc = $vdoc])* $variant($payload), )*
            $( $(#[doc = $ddoc])* $dv($dp), )?
            #[doc = $odoc]
            Unknown($crate::wire::UnknownVariant),
        }

        $(#[doc = $doc])*
        #[derive(Debug, Clone, PartialEq)]
        #[non_exhaustive]
        pub struct $name {
            /// The tag and its payload.
            pub $opf: $openum,
            $(
                $(#[doc = $fdoc])*
                pub $f: $crate::__wire_ty!($mode $ft),
            )*
        }

        impl $name {
            /// The tag member's name.
            pub const TAG: &'static str = $t;
            /// Every tag this version knows, in schema order.
            pub const KNOWN: &'static [&'static str] = &[$($wire),*];
            const RESERVED: &'static [&'static str] = &[$t, $($fwire),*];
            #[allow(dead_code)]
            const COMMON: &'static [&'static str] = &[$($fwire),*];

            $crate::__wire_new!(@acc [$opf: $openum,] [$opf,] [] $($mode $f $ft,)*);

            #[allow(unused_mut)]
            fn from_tree(m: &$crate::wire::Members, cx: &mut $crate::wire::Cx) -> ::core::option::Option<Self> {
                let tag: ::core::option::Option<&str> = $crate::acp_tagged_struct!(@tag [$(optional $how)?] m, cx, $t);
                let $opf = match tag {
                    $( Some($wire) => $openum::$variant($crate::wire::payload_from_tree::<$payload>(m, cx, Self::RESERVED)?), )*
                    // Unknown: every member is kept as it came (and written back so); the
                    // required common members are still checked and read below.
                    Some(other) => $crate::acp_tagged_struct!(@unknown $openness [$($tmode $dv $dp)?] $name $openum, other, m, cx, $t, Self::COMMON),
                    None => $crate::acp_tagged_struct!(@absent [$($tmode $dv $dp)?] $openum, m, cx, $t, Self::RESERVED),
                };
                let known = !matches!($opf, $openum::Unknown(_));
                $( let mut $f: ::core::option::Option<$crate::__wire_slot!($mode $ft)> = None; )*
                for (k, v) in m {
                    match k.as_str() {
                        $(
                            $fwire if known || $crate::__wire_is_req!($mode) => {
                                let got = $crate::wire::field_from_tree::<$ft>(
                                    v, cx, $fwire, $crate::__wire_nullable!($mode),
                                    &[$($crate::wire::Check::$check $(($($arg),*))?),*],
                                );
                                $f = Some($crate::__wire_take!($mode, got));
                            }
                        )*
                        _ => {}
                    }
                }
                if cx.failed() {
                    return None;
                }
                $( $crate::__wire_required_tree!($mode, $f, cx, $fwire); )*
                Some(Self { $opf, $( $f: $crate::__wire_finish!($mode, $f), )* })
            }

            fn ser_common<M: ::serde::ser::SerializeMap>(&self, m: &mut M) -> ::core::result::Result<(), M::Error> {
                $( $crate::__wire_ser!($mode, m, $fwire, self.$f)?; )*
                Ok(())
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
                let (tag, payload): (::core::option::Option<&str>, &dyn $crate::wire::PayloadRef) = match &self.$opf {
                    $( $openum::$variant(p) => (Some($wire), p), )*
                    $( $openum::$dv(p) => { let _ = $dtitle; (None, p) } )?
                    $openum::Unknown(u) => return u.encode_with_tag($t, w),
                };
                w.begin_object();
                if let Some(tag) = tag {
                    w.key($t);
                    w.string(tag);
                }
                payload.encode_known_dyn(w);
                $( $crate::__wire_put!($mode, w, $fwire, self.$f); )*
                w.members(payload.extra_dyn());
                w.end_object();
            }
        }

        impl $crate::wire::SerializeWire for $name {
            fn ser<S: ::serde::Serializer>(&self, s: S) -> ::core::result::Result<S::Ok, S::Error> {
                use ::serde::ser::SerializeMap as _;
                match &self.$opf {
                    $(
                        $openum::$variant(p) => {
                            let mut m = s.serialize_map(None)?;
                            m.serialize_entry($t, $wire)?;
                            <$payload as $crate::wire::Payload>::serialize_known(p, &mut m)?;
                            self.ser_common(&mut m)?;
                            $crate::wire::ser_members(&mut m, $crate::wire::Payload::extra(p))?;
                            m.end()
                        }
                    )*
                    $(
                        $openum::$dv(p) => {
                            let _ = $dtitle;
                            let mut m = s.serialize_map(None)?;
                            <$dp as $crate::wire::Payload>::serialize_known(p, &mut m)?;
                            self.ser_common(&mut m)?;
                            $crate::wire::ser_members(&mut m, $crate::wire::Payload::extra(p))?;
                            m.end()
                        }
                    )?
                    $openum::Unknown(u) => u.ser_with_tag($t, s),
                }
            }
        }

        /// As the payload of a union's variant (upstream v2 `StateUpdate`'s `idle`, an
        /// `IdleStateUpdate`): this object's tag, variant and common members are read from
        /// the same object as the union's tag.
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
                match &self.$opf {
                    $( $openum::$variant(p) => {
                        w.key($t);
                        w.string($wire);
                        <$payload as $crate::wire::Payload>::encode_known(p, w);
                    } )*
                    $( $openum::$dv(p) => {
                        let _ = $dtitle;
                        <$dp as $crate::wire::Payload>::encode_known(p, w);
                    } )?
                    // Every other member is among the unknown variant's, written as extra.
                    $openum::Unknown(u) => {
                        w.key($t);
                        w.string(&u.tag);
                        return;
                    }
                }
                $( $crate::__wire_put!($mode, w, $fwire, self.$f); )*
            }

            fn serialize_known<M: ::serde::ser::SerializeMap>(&self, m: &mut M) -> ::core::result::Result<(), M::Error> {
                match &self.$opf {
                    $( $openum::$variant(p) => {
                        m.serialize_entry($t, $wire)?;
                        <$payload as $crate::wire::Payload>::serialize_known(p, m)?;
                    } )*
                    $( $openum::$dv(p) => {
                        let _ = $dtitle;
                        <$dp as $crate::wire::Payload>::serialize_known(p, m)?;
                    } )?
                    $openum::Unknown(u) => return m.serialize_entry($t, &u.tag),
                }
                self.ser_common(m)
            }

            fn extra(&self) -> &$crate::wire::Members {
                match &self.$opf {
                    $( $openum::$variant(p) => $crate::wire::Payload::extra(p), )*
                    $( $openum::$dv(p) => { let _ = $dtitle; $crate::wire::Payload::extra(p) } )?
                    $openum::Unknown(u) => &u.members,
                }
            }
        }

        $crate::__wire_serde!($name);
    };
}
