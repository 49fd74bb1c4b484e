//! The wire runtime shared by every type: strict bytes, absolute paths, the patch
//! type, checked decoding with warnings, canonical encoding, and schema helpers.

mod bytes;
mod display;
mod decode;
mod error;
mod json;
mod macros;
mod patch;
mod path;
mod path_type;
mod serde_impl;
mod text;
mod untagged;
/// The safe transcript renderer of docs/TRANSCRIPT.md.
pub mod transcript;

pub use bytes::{Bytes, decode_base64, encode_base64};
pub use display::safe_display;
#[doc(hidden)]
pub use bytes::decode_base64_scalar;
pub use decode::{Check, Cx, Decode, Encode, MAX_SAFE_INTEGER, describe, put, put_opt, put_patch};
#[doc(hidden)]
pub use decode::{
    Field, First, Got, Key, Slot, buffered, collect_members, field_from_tree, first_member, ignore_value, payload_from_tree,
    read_tag, skip_value,
};
pub use error::{Error, ErrorKind, Warning};
#[doc(hidden)]
pub use json::NameSet;
pub use json::{Json, Members, Writer, push_token};
pub use patch::Patch;
pub use path::{is_absolute_path, why_not_absolute};
pub use path_type::AbsolutePath;
#[doc(hidden)]
pub use serde_impl::{Ser, ser_members, ser_number, ser_opt, ser_patch, ser_req};
pub use serde_impl::{SerializeWire, deserialize};
pub use text::SyntaxError;
pub use transcript::Transcript;

/// An object type that can also be the payload of a tagged union variant: it decodes
/// from the members of an object (skipping the tag) and writes its known members.
pub trait Payload: Sized {
    /// Decodes from the members `map` still has, in input order, ignoring the members
    /// named in `skip`; `consumed` names a member already read (a repeat of it is a
    /// `duplicate_key`). `Ok(None)`: a problem was recorded in `cx`.
    ///
    /// # Errors
    /// Only when the input is not JSON.
    fn decode_fields<'de, A: serde::de::MapAccess<'de>>(
        map: &mut A,
        cx: &mut Cx,
        skip: &[&str],
        consumed: Option<&str>,
    ) -> Result<Option<Self>, A::Error>;
    /// Writes the known members in schema order.
    fn encode_known(&self, w: &mut Writer);
    /// Serializes the known members in schema order.
    ///
    /// # Errors
    /// The serializer's.
    fn serialize_known<M: serde::ser::SerializeMap>(&self, m: &mut M) -> Result<(), M::Error>;
    /// The unknown members, in input order.
    fn extra(&self) -> &Members;
}

/// Object-safe access to a [`Payload`]'s writing side.
pub trait PayloadRef {
    /// Writes the known members in schema order.
    fn encode_known_dyn(&self, w: &mut Writer);
    /// The unknown members, in input order.
    fn extra_dyn(&self) -> &Members;
}

impl<P: Payload> PayloadRef for P {
    fn encode_known_dyn(&self, w: &mut Writer) {
        self.encode_known(w);
    }
    fn extra_dyn(&self) -> &Members {
        self.extra()
    }
}

/// A variant this version does not know: its tag and every other member, in input order.
#[derive(Debug, Clone, PartialEq)]
pub struct UnknownVariant {
    /// The tag value.
    pub tag: String,
    /// Every member except the tag, in input order.
    pub members: Members,
}

impl UnknownVariant {
    /// Keeps every member of `obj` except the tag member `tag_name`.
    #[must_use]
    pub fn from_members(tag: &str, obj: &Members, tag_name: &str) -> Self {
        let members = obj.iter().filter(|(k, _)| k.as_str() != tag_name).map(|(k, v)| (k.clone(), v.clone())).collect();
        Self { tag: tag.to_owned(), members }
    }

    /// Serializes the tag first, then the other members in their order.
    ///
    /// # Errors
    /// The serializer's.
    pub fn ser_with_tag<S: serde::Serializer>(&self, tag_name: &str, s: S) -> Result<S::Ok, S::Error> {
        use serde::ser::SerializeMap as _;
        let mut m = s.serialize_map(None)?;
        m.serialize_entry(tag_name, &self.tag)?;
        ser_members(&mut m, &self.members)?;
        m.end()
    }

    /// Writes the tag first, then the other members in their order.
    pub fn encode_with_tag(&self, tag_name: &str, w: &mut Writer) {
        w.begin_object();
        w.key(tag_name);
        w.string(&self.tag);
        w.members(&self.members);
        w.end_object();
    }
}

/// A member-less payload (a variant that carries only its tag), still keeping
/// unknown members.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct NoPayload {
    /// Members this version does not know.
    pub extra: Members,
}

impl Payload for NoPayload {
    fn decode_fields<'de, A: serde::de::MapAccess<'de>>(
        map: &mut A,
        cx: &mut Cx,
        skip: &[&str],
        consumed: Option<&str>,
    ) -> Result<Option<Self>, A::Error> {
        let mut extra = Members::new();
        let mut names = NameSet::default();
        while let Some(k) = map.next_key_seed(Key)? {
            if skip.contains(&&*k) {
                ignore_value(map)?;
                continue;
            }
            if consumed == Some(&*k) || names.seen(&extra, &k) {
                cx.duplicate(&k);
                skip_value(map, cx)?;
                continue;
            }
            let v = cx.at(&k, |cx| map.next_value_seed(Slot::<Json>::new(cx, false)))?;
            if let Got::Value(v) = v {
                names.add(&k);
                extra.push_unchecked(k.into_owned(), v);
            }
        }
        Ok(if cx.failed() { None } else { Some(Self { extra }) })
    }
    fn encode_known(&self, _: &mut Writer) {}
    fn serialize_known<M: serde::ser::SerializeMap>(&self, _: &mut M) -> Result<(), M::Error> {
        Ok(())
    }
    fn extra(&self) -> &Members {
        &self.extra
    }
}

/// A parsed value and the warnings for what lenient members absorbed.
#[derive(Debug, Clone, PartialEq)]
pub struct Parsed<T> {
    /// The value.
    pub value: T,
    /// What was dropped, in document order.
    pub warnings: Vec<Warning>,
}

/// Parses JSON text as `T`: the value and the warnings for what lenient members
/// dropped, or the first problem.
///
/// Reads straight from the text (no intermediate tree): strings without escapes are
/// borrowed, base64 is decoded from the text in place, numbers are read exactly.
///
/// # Errors
/// One error with kind, JSON pointer and message: `invalid_json` first, then
/// `duplicate_key`, then the first problem in input order.
pub fn from_str<T: Decode>(text: &str) -> Result<Parsed<T>, Error> {
    let mut cx = Cx::new();
    let mut de = text::TextDe::new(text);
    match T::decode(&mut de, &mut cx).and_then(|v| de.end().map(|()| v)) {
        Err(e) => Err(Error::new(ErrorKind::InvalidJson, "", format!("the text is not valid JSON: {e}"))),
        Ok(v) => cx.finish(v),
    }
}

/// Checks an already parsed `serde_json` value as `T` (repeated member names can no
/// longer be seen here, and object order is the map's: use [`from_str`] on untrusted
/// text).
///
/// # Errors
/// One error with kind, JSON pointer and message.
pub fn from_value<T: Decode>(v: &serde_json::Value) -> Result<Parsed<T>, Error> {
    let mut cx = Cx::new();
    match T::decode(v, &mut cx) {
        Err(e) => Err(Error::new(ErrorKind::InvalidJson, "", format!("the value is not valid JSON: {e}"))),
        Ok(v) => cx.finish(v),
    }
}

/// Checks an already parsed [`Json`] value as `T`.
///
/// # Errors
/// One error with kind, JSON pointer and message.
pub fn from_json<T: Decode>(v: &Json) -> Result<Parsed<T>, Error> {
    let mut cx = Cx::new();
    match T::decode(v, &mut cx) {
        Err(e) => Err(Error::new(ErrorKind::InvalidJson, "", format!("the value is not valid JSON: {e}"))),
        Ok(v) => cx.finish(v),
    }
}

/// Parses JSON text as free-form [`Json`], keeping member order and rejecting repeated
/// member names.
///
/// # Errors
/// `invalid_json` at `""` when the text is not JSON; `duplicate_key` at the repeated
/// member when an object repeats a name.
pub fn parse_value(text: &str) -> Result<Json, Error> {
    from_str::<Json>(text).map(|p| p.value)
}

/// Writes the canonical JSON text of `v`.
#[must_use]
pub fn to_string<T: Encode + ?Sized>(v: &T) -> String {
    let mut w = Writer::new();
    v.encode(&mut w);
    w.finish()
}
