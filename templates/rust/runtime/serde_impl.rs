// @generated in its copies: cargo xtask gen vendors templates/rust/runtime/serde_impl.rs byte for byte as src/wire/serde_impl.rs of every generated crate; edit it here, never a copy.
//! serde support: every wire type is `Serialize` and `Deserialize`.
//!
//! `Deserialize` applies every wire rule (strict base64, absolute paths, open unions,
//! unknown members kept, repeated names rejected); a failure is a serde error whose
//! message starts with the kind and the JSON pointer (`invalid_base64 at /data: ...`).
//! Lenient members drop what they cannot use; the warnings are only returned by
//! [`from_str`](super::from_str) / [`from_value`](super::from_value).
//!
//! `Serialize` writes the canonical form: with `serde_json::to_string` the bytes equal
//! [`to_string`](super::to_string)'s. Numbers that serde_json would spell differently
//! from ECMAScript (`1e21` for `1e+21`) are handed over as raw JSON text.

use super::bytes::{Bytes, encode_base64};
use super::decode::{Cx, Decode, MAX_SAFE_INTEGER};
use super::json::{Json, Members};
use super::patch::Patch;
use serde::ser::{Error as _, SerializeMap, SerializeSeq, Serializer};
use serde::{Deserializer, Serialize};

/// How a wire type hands itself to a serde `Serializer` in canonical form.
pub trait SerializeWire {
    /// Serializes `self` canonically.
    ///
    /// # Errors
    /// The serializer's.
    fn ser<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error>;
}

/// Adapts a [`SerializeWire`] type to `serde::Serialize`.
pub struct Ser<'a, T: ?Sized>(pub &'a T);

impl<T: SerializeWire + ?Sized> Serialize for Ser<'_, T> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        self.0.ser(s)
    }
}

/// Decodes a wire type from any serde `Deserializer`, applying every wire rule.
///
/// # Errors
/// The deserializer's own errors, or one naming the kind and JSON pointer.
pub fn deserialize<'de, D: Deserializer<'de>, T: Decode>(d: D) -> Result<T, D::Error> {
    let mut cx = Cx::new();
    let v = T::decode(d, &mut cx)?;
    cx.finish(v).map(|p| p.value).map_err(serde::de::Error::custom)
}

/// Writes a number as ECMAScript does.
///
/// # Errors
/// The serializer's.
#[allow(clippy::cast_possible_truncation)]
pub fn ser_number<S: Serializer>(n: f64, s: S) -> Result<S::Ok, S::Error> {
    if n.fract() == 0.0 && n.abs() <= MAX_SAFE_INTEGER {
        return s.serialize_i64(n as i64);
    }
    let mut b = ryu_js::Buffer::new();
    let js = b.format(n);
    let theirs = serde_json::to_string(&n).map_err(S::Error::custom)?;
    if theirs == js {
        return s.serialize_f64(n);
    }
    let raw = serde_json::value::RawValue::from_string(js.to_owned()).map_err(S::Error::custom)?;
    raw.serialize(s)
}

/// Writes a required member.
///
/// # Errors
/// The serializer's.
pub fn ser_req<M: SerializeMap, T: SerializeWire>(m: &mut M, name: &str, v: &T) -> Result<(), M::Error> {
    m.serialize_entry(name, &Ser(v))
}

/// Writes an optional member when present.
///
/// # Errors
/// The serializer's.
pub fn ser_opt<M: SerializeMap, T: SerializeWire>(m: &mut M, name: &str, v: Option<&T>) -> Result<(), M::Error> {
    match v {
        Some(v) => m.serialize_entry(name, &Ser(v)),
        None => Ok(()),
    }
}

/// Writes a patch member exactly as set: omitted, `null` or a value.
///
/// # Errors
/// The serializer's.
pub fn ser_patch<M: SerializeMap, T: SerializeWire>(m: &mut M, name: &str, v: &Patch<T>) -> Result<(), M::Error> {
    match v {
        Patch::Keep => Ok(()),
        Patch::Clear => m.serialize_entry(name, &()),
        Patch::Set(v) => m.serialize_entry(name, &Ser(v)),
    }
}

/// Writes free-form members into the object being written.
///
/// # Errors
/// The serializer's.
pub fn ser_members<M: SerializeMap>(m: &mut M, members: &Members) -> Result<(), M::Error> {
    for (k, v) in members {
        m.serialize_entry(k, &Ser(v))?;
    }
    Ok(())
}

macro_rules! native {
    ($($t:ty => $f:ident),* $(,)?) => {
        $(
            impl SerializeWire for $t {
                fn ser<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
                    s.$f(*self)
                }
            }
        )*
    };
}
native!(bool => serialize_bool, u8 => serialize_u8, u16 => serialize_u16, u32 => serialize_u32, i32 => serialize_i32, u64 => serialize_u64, i64 => serialize_i64);

impl SerializeWire for f64 {
    fn ser<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        ser_number(*self, s)
    }
}

impl SerializeWire for String {
    fn ser<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(self)
    }
}

impl<T: SerializeWire> SerializeWire for Vec<T> {
    fn ser<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let mut seq = s.serialize_seq(Some(self.len()))?;
        for x in self {
            seq.serialize_element(&Ser(x))?;
        }
        seq.end()
    }
}

impl SerializeWire for Bytes {
    fn ser<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(&encode_base64(&self.0))
    }
}

impl SerializeWire for Json {
    fn ser<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        match self {
            Self::Null => s.serialize_unit(),
            Self::Bool(b) => s.serialize_bool(*b),
            Self::Number(n) => ser_number(*n, s),
            Self::String(v) => s.serialize_str(v),
            Self::Array(a) => {
                let mut seq = s.serialize_seq(Some(a.len()))?;
                for x in a {
                    seq.serialize_element(&Ser(x))?;
                }
                seq.end()
            }
            Self::Object(m) => m.ser(s),
        }
    }
}

impl SerializeWire for Members {
    fn ser<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let mut m = s.serialize_map(Some(self.len()))?;
        ser_members(&mut m, self)?;
        m.end()
    }
}

/// `Serialize` and `Deserialize` for a type with [`SerializeWire`] and [`Decode`].
#[macro_export]
#[doc(hidden)]
macro_rules! __wire_serde {
    ($name:ty) => {
        impl ::serde::Serialize for $name {
            fn serialize<S: ::serde::Serializer>(&self, s: S) -> ::core::result::Result<S::Ok, S::Error> {
                $crate::wire::SerializeWire::ser(self, s)
            }
        }
        impl<'de> ::serde::Deserialize<'de> for $name {
            fn deserialize<D: ::serde::Deserializer<'de>>(d: D) -> ::core::result::Result<Self, D::Error> {
                $crate::wire::deserialize::<D, Self>(d)
            }
        }
    };
}

crate::__wire_serde!(Bytes);
crate::__wire_serde!(Json);
crate::__wire_serde!(Members);
