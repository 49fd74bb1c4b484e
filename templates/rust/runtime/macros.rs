//! Declarative macros that turn one description of a wire type into the Rust type,
//! its checked decoder and its canonical encoder, so they can never disagree. The
//! source-of-truth crate wraps them to add the JSON Schema; generated bindings use them
//! as they are.

/// Field storage type for a presence mode.
#[macro_export]
#[doc(hidden)]
macro_rules! __wire_ty {
    (req $t:ty) => { $t };
    (opt $t:ty) => { ::core::option::Option<$t> };
    (maybe $t:ty) => { ::core::option::Option<$t> };
    (patch $t:ty) => { $crate::wire::Patch<$t> };
}

#[macro_export]
#[doc(hidden)]
macro_rules! __wire_decode {
    (req $t:ty, $cx:ident, $name:expr, $v:ident, $checks:expr) => { $cx.required::<$t>($name, $v, $checks)? };
    (opt $t:ty, $cx:ident, $name:expr, $v:ident, $checks:expr) => { $cx.optional::<$t>($name, $v, $checks)? };
    (maybe $t:ty, $cx:ident, $name:expr, $v:ident, $checks:expr) => { $cx.maybe::<$t>($name, $v, $checks)? };
    (patch $t:ty, $cx:ident, $name:expr, $v:ident, $checks:expr) => { $cx.patch::<$t>($name, $v, $checks)? };
}

#[macro_export]
#[doc(hidden)]
macro_rules! __wire_finish {
    (req, $f:ident, $cx:ident, $name:expr) => {
        match $f { Some(v) => v, None => return Err($cx.missing($name)) }
    };
    (opt, $f:ident, $cx:ident, $name:expr) => { $f.unwrap_or(None) };
    (maybe, $f:ident, $cx:ident, $name:expr) => { $f.unwrap_or(None) };
    (patch, $f:ident, $cx:ident, $name:expr) => { $f.unwrap_or_default() };
}

#[macro_export]
#[doc(hidden)]
macro_rules! __wire_put {
    (req, $w:ident, $name:expr, $v:expr) => { $crate::wire::put($w, $name, &$v) };
    (opt, $w:ident, $name:expr, $v:expr) => { $crate::wire::put_opt($w, $name, $v.as_ref()) };
    (maybe, $w:ident, $name:expr, $v:expr) => { $crate::wire::put_opt($w, $name, $v.as_ref()) };
    (patch, $w:ident, $name:expr, $v:expr) => { $crate::wire::put_patch($w, $name, &$v) };
}

/// A wire object: the struct, [`Decode`](crate::wire::Decode),
/// [`Encode`](crate::wire::Encode) and [`Payload`](crate::wire::Payload).
///
/// Each field is `name: MODE Type = "wireName" [Checks]` where MODE is `req`
/// (required), `opt` (optional; `null` equals omitted), `maybe` (optional, but `null`
/// is not allowed) or `patch` (three-state).
#[macro_export]
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
    ) => {
        $(#[doc = $doc])*
        #[derive(Debug, Clone, PartialEq)]
        pub struct $name {
            $(
                $(#[doc = $fdoc])*
                pub $f: $crate::__wire_ty!($mode $t),
            )*
            /// Members this version does not know, kept in input order and written
            /// back after the known ones.
            pub extra: $crate::wire::Members,
        }

        impl $crate::wire::Payload for $name {
            #[allow(unused_variables, unused_mut)]
            fn decode_members(
                obj: &$crate::wire::Members,
                cx: &mut $crate::wire::Cx,
                skip: &[&str],
            ) -> ::core::result::Result<Self, $crate::wire::Error> {
                $( let mut $f = None; )*
                let mut extra = $crate::wire::Members::new();
                for (k, v) in obj {
                    if skip.contains(&k.as_str()) {
                        continue;
                    }
                    match k.as_str() {
                        $(
                            $wire => {
                                $f = Some($crate::__wire_decode!(
                                    $mode $t, cx, $wire, v,
                                    &[$($crate::wire::Check::$check $(($($arg),*))?),*]
                                ));
                            }
                        )*
                        _ => {
                            extra.insert(k.clone(), v.clone());
                        }
                    }
                }
                Ok(Self { $( $f: $crate::__wire_finish!($mode, $f, cx, $wire), )* extra })
            }

            #[allow(unused_variables)]
            fn encode_known(&self, w: &mut $crate::wire::Writer) {
                $( $crate::__wire_put!($mode, w, $wire, self.$f); )*
            }

            fn extra(&self) -> &$crate::wire::Members {
                &self.extra
            }
        }

        impl $crate::wire::Decode for $name {
            fn decode(
                v: &::serde_json::Value,
                cx: &mut $crate::wire::Cx,
            ) -> ::core::result::Result<Self, $crate::wire::Error> {
                let obj = $crate::wire::expect_object(v, cx)?;
                <Self as $crate::wire::Payload>::decode_members(obj, cx, &[])
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

    };
}

/// A named string (IDs, media types): a distinct type on the wire as a string.
#[macro_export]
macro_rules! acp_string_newtype {
    ($(#[doc = $doc:literal])* pub struct $name:ident;) => {
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
            fn decode(
                v: &::serde_json::Value,
                cx: &mut $crate::wire::Cx,
            ) -> ::core::result::Result<Self, $crate::wire::Error> {
                <String as $crate::wire::Decode>::decode(v, cx).map(Self)
            }
        }

        impl $crate::wire::Encode for $name {
            fn encode(&self, w: &mut $crate::wire::Writer) {
                w.string(&self.0);
            }
        }

    };
}

/// A string enum. `open "title" "doc"` adds `Unknown(String)`, which keeps any other
/// value; `closed` rejects other values with `unknown_variant`.
#[macro_export]
macro_rules! acp_string_enum {
    (@unknown open $name:ident, $s:ident, $cx:ident) => { Ok(Self::Unknown($s.to_owned())) };
    (@unknown closed $name:ident, $s:ident, $cx:ident) => {
        Err($cx.error(
            $crate::wire::ErrorKind::UnknownVariant,
            format!("`{}` is not a known {} value; use one of: {}", $s, stringify!($name), Self::KNOWN.join(", ")),
        ))
    };
    (
        $(#[doc = $doc:literal])*
        pub enum $name:ident : $openness:ident $(($title:literal, $odoc:literal))? {
            $( $(#[doc = $vdoc:literal])* $variant:ident = $wire:literal ),* $(,)?
        }
    ) => {
        $(#[doc = $doc])*
        #[derive(Debug, Clone, PartialEq, Eq, Hash)]
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
            fn decode(
                v: &::serde_json::Value,
                cx: &mut $crate::wire::Cx,
            ) -> ::core::result::Result<Self, $crate::wire::Error> {
                let s = v.as_str().ok_or_else(|| cx.wrong_type("a string", v))?;
                match s {
                    $( $wire => Ok(Self::$variant), )*
                    _ => $crate::acp_string_enum!(@unknown $openness $name, s, cx),
                }
            }
        }

        impl $crate::wire::Encode for $name {
            fn encode(&self, w: &mut $crate::wire::Writer) {
                w.string(self.as_str());
            }
        }

    };
}

/// A union tagged by one member. `open "doc"` adds `Unknown`, which keeps an unknown
/// tag with every other member; `closed` rejects it with `unknown_variant`.
#[macro_export]
macro_rules! acp_tagged_union {
    (@unknown open, $obj:ident, $tag:ident, $cx:ident, $name:ident, $t:expr) => {
        Ok(Self::Unknown($crate::wire::UnknownVariant::from_members($tag, $obj, $t)))
    };
    (@unknown closed, $obj:ident, $tag:ident, $cx:ident, $name:ident, $t:expr) => {
        Err($cx.at($t, |cx| Err(cx.error(
            $crate::wire::ErrorKind::UnknownVariant,
            format!("`{}` is not a known {} variant; use one of: {}", $tag, stringify!($name), Self::KNOWN.join(", ")),
        )))?)
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
        }

        impl $crate::wire::Decode for $name {
            fn decode(
                v: &::serde_json::Value,
                cx: &mut $crate::wire::Cx,
            ) -> ::core::result::Result<Self, $crate::wire::Error> {
                let obj = $crate::wire::expect_object(v, cx)?;
                let tag = $crate::wire::read_tag(obj, $t, cx)?;
                match tag {
                    $( $wire => Ok(Self::$variant(<$payload as $crate::wire::Payload>::decode_members(obj, cx, &[$t])?)), )*
                    _ => $crate::acp_tagged_union!(@unknown $openness, obj, tag, cx, $name, $t),
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

    };
}

/// An object tagged by one member whose other members are shared by every variant
/// (`DiffChange`: `operation` selects the payload; `fileType`, `mimeType`, `_meta` are
/// common). An unknown tag keeps the whole object, common members included,
/// uninterpreted.
#[macro_export]
macro_rules! acp_tagged_struct {
    (
        $(#[doc = $doc:literal])*
        pub struct $name:ident : tag $t:literal => $opf:ident : $openum:ident, open ($odoc:literal) {
            variants {
                $( $(#[doc = $vdoc:literal])* $variant:ident($payload:ty) = $wire:literal ),* $(,)?
            }
            common {
                $(
                    $(#[doc = $fdoc:literal])*
                    pub $f:ident : $mode:ident $ft:ty = $fwire:literal [$($check:ident $(($($arg:expr),*))?),*]
                ),* $(,)?
            }
        }
    ) => {
        #[doc = concat!("The tag-selected part of [`", stringify!($name), "`].")]
        #[derive(Debug, Clone, PartialEq)]
        #[allow(clippy::large_enum_variant)]
        pub enum $openum {
            $( $(#[doc = $vdoc])* $variant($payload), )*
            #[doc = $odoc]
            Unknown($crate::wire::UnknownVariant),
        }

        $(#[doc = $doc])*
        #[derive(Debug, Clone, PartialEq)]
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
        }

        impl $crate::wire::Decode for $name {
            #[allow(unused_mut)]
            fn decode(
                v: &::serde_json::Value,
                cx: &mut $crate::wire::Cx,
            ) -> ::core::result::Result<Self, $crate::wire::Error> {
                let obj = $crate::wire::expect_object(v, cx)?;
                let tag = $crate::wire::read_tag(obj, $t, cx)?;
                let $opf = match tag {
                    $( $wire => $openum::$variant(<$payload as $crate::wire::Payload>::decode_members(obj, cx, Self::RESERVED)?), )*
                    other => {
                        // Unknown: keep everything; the common members stay inside, uninterpreted.
                        let unknown = $crate::wire::UnknownVariant::from_members(other, obj, $t);
                        $( let $f: Option<$crate::__wire_ty!($mode $ft)> = None; )*
                        return Ok(Self {
                            $opf: $openum::Unknown(unknown),
                            $( $f: $crate::__wire_absent!($mode, $f), )*
                        });
                    }
                };
                $( let mut $f = None; )*
                for (k, v) in obj {
                    match k.as_str() {
                        $(
                            $fwire => {
                                $f = Some($crate::__wire_decode!(
                                    $mode $ft, cx, $fwire, v,
                                    &[$($crate::wire::Check::$check $(($($arg),*))?),*]
                                ));
                            }
                        )*
                        _ => {}
                    }
                }
                Ok(Self { $opf, $( $f: $crate::__wire_finish!($mode, $f, cx, $fwire), )* })
            }
        }

        impl $crate::wire::Encode for $name {
            fn encode(&self, w: &mut $crate::wire::Writer) {
                let (tag, payload): (&str, &dyn $crate::wire::PayloadRef) = match &self.$opf {
                    $( $openum::$variant(p) => ($wire, p), )*
                    $openum::Unknown(u) => return u.encode_with_tag($t, w),
                };
                w.begin_object();
                w.key($t);
                w.string(tag);
                payload.encode_known_dyn(w);
                $( $crate::__wire_put!($mode, w, $fwire, self.$f); )*
                w.members(payload.extra_dyn());
                w.end_object();
            }
        }
    };
}

#[macro_export]
#[doc(hidden)]
macro_rules! __wire_absent {
    (req, $f:ident) => { compile_error!("a tagged struct's common members must be optional") };
    (opt, $f:ident) => { $f.unwrap_or(None) };
    (maybe, $f:ident) => { $f.unwrap_or(None) };
    (patch, $f:ident) => { $f.unwrap_or_default() };
}
