// @generated in its copies: cargo xtask gen vendors templates/rust/runtime/mod.rs byte for byte as src/wire/mod.rs of every generated crate; edit it here, never a copy.
//! The wire runtime shared by every type: strict bytes, absolute paths, the patch
//! type, checked decoding with warnings, canonical encoding, and schema helpers.

mod bytes;
mod decode;
mod display;
mod envelope;
mod error;
mod error_kind;
mod json;
mod limits;
mod macros;
mod map;
mod patch;
mod path;
mod path_type;
mod pattern;
mod serde_impl;
mod state;
mod text;
mod untagged;

#[doc(hidden)]
pub use bytes::decode_base64_scalar;
pub use bytes::{Bytes, decode_base64, encode_base64};
pub use decode::{Check, Cx, Decode, Encode, MAX_SAFE_INTEGER, describe, put, put_opt, put_patch};
#[doc(hidden)]
pub use decode::{Field, First, Got, Key, Slot, buffered, collect_members, field_from_tree, first_member, ignore_value, length_message, payload_from_tree, read_tag, skip_value, value_from_tree};
pub use display::safe_display;
pub use error::{Error, ErrorKind, Warning};
#[doc(hidden)]
pub use json::NameSet;
pub use json::{Json, Members, Writer, push_token};
pub use limits::{DEFAULT_MAX_STATE_BYTES, DEFAULT_MAX_STATE_ITEMS, DEFAULT_MAX_STATE_MEMBERS, DEFAULT_MAX_STATE_TARGETS, DEFAULT_MAX_STATE_TEXT, DEFAULT_MAX_WARNINGS};
pub use map::Map;
pub use patch::Patch;
pub use path::{is_absolute_path, why_not_absolute};
pub use path_type::AbsolutePath;
pub use pattern::{Atom, Pattern};
#[doc(hidden)]
pub use serde_impl::{Ser, ser_members, ser_number, ser_opt, ser_patch, ser_req};
pub use serde_impl::{SerializeWire, deserialize};
pub use state::{SessionState, StateCounters, StateDecoder, StateLimits};
pub use text::SyntaxError;

/// An object type that can also be the payload of a tagged union variant: it decodes
/// from the members of an object (skipping the tag) and writes its known members.
pub trait Payload: Sized {
    /// Decodes from the members `map` still has, in input order, ignoring the members
    /// named in `skip`; `consumed` names a member already read (a repeat of it is a
    /// `duplicate_key`). `Ok(None)`: a problem was recorded in `cx`.
    ///
    /// # Errors
    /// Only when the input is not JSON.
    fn decode_fields<'de, A: serde::de::MapAccess<'de>>(map: &mut A, cx: &mut Cx, skip: &[&str], consumed: Option<&str>) -> Result<Option<Self>, A::Error>;
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
    fn decode_fields<'de, A: serde::de::MapAccess<'de>>(map: &mut A, cx: &mut Cx, skip: &[&str], consumed: Option<&str>) -> Result<Option<Self>, A::Error> {
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
    /// What was dropped, in document order: at most [`ParseOptions::max_warnings`].
    pub warnings: Vec<Warning>,
    /// How many more problems lenient members absorbed past
    /// [`ParseOptions::max_warnings`]: counted, never built.
    pub warnings_dropped: u64,
}

/// How a parse reports what lenient members absorb.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub struct ParseOptions {
    /// At most this many warnings are kept ([`DEFAULT_MAX_WARNINGS`], the store's
    /// default); every further absorbed problem is only counted, in
    /// [`Parsed::warnings_dropped`], and costs no memory. `usize::MAX` keeps them all.
    pub max_warnings: usize,
}

impl ParseOptions {
    /// [`DEFAULT_MAX_WARNINGS`] warnings.
    pub const DEFAULT: Self = Self { max_warnings: DEFAULT_MAX_WARNINGS };
    /// Every warning, for a tool that wants them all (a message of millions of bad
    /// items then holds millions of warnings).
    pub const ALL_WARNINGS: Self = Self { max_warnings: usize::MAX };

    /// These options with at most `max` warnings kept.
    #[must_use]
    pub const fn max_warnings(self, max: usize) -> Self {
        Self { max_warnings: max }
    }
}

impl Default for ParseOptions {
    fn default() -> Self {
        Self::DEFAULT
    }
}

/// Parses JSON text as `T`: the value and the warnings for what lenient members
/// dropped (at most [`DEFAULT_MAX_WARNINGS`], the rest counted), or the first problem.
///
/// Reads straight from the text (no intermediate tree): strings without escapes are
/// borrowed, base64 is decoded from the text in place, numbers are read exactly.
///
/// # Errors
/// One error with kind, JSON pointer and message: `invalid_json` first, then
/// `duplicate_key`, then the first problem in input order.
pub fn from_str<T: Decode>(text: &str) -> Result<Parsed<T>, Error> {
    from_str_with(text, ParseOptions::DEFAULT)
}

/// [`from_str`] with `options` (how many warnings to keep).
///
/// # Errors
/// As [`from_str`].
pub fn from_str_with<T: Decode>(text: &str, options: ParseOptions) -> Result<Parsed<T>, Error> {
    from_str_counted(text, options).0
}

/// [`from_str_with`], and how many problems had their pointer and message built
/// ([`Cx::problems_built`]): for the tests that check a problem past the warning limit
/// costs nothing.
#[doc(hidden)]
pub fn from_str_counted<T: Decode>(text: &str, options: ParseOptions) -> (Result<Parsed<T>, Error>, u64) {
    let mut cx = Cx::with_max_warnings(options.max_warnings);
    let mut de = text::TextDe::new(text);
    match T::decode(&mut de, &mut cx).and_then(|v| de.end().map(|()| v)) {
        Err(e) => (Err(Error::new(ErrorKind::InvalidJson, "", format!("the text is not valid JSON: {e}"))), cx.problems_built()),
        Ok(v) => {
            let built = cx.problems_built();
            (cx.finish(v), built)
        }
    }
}

/// Checks an already parsed `serde_json` value as `T` (repeated member names can no
/// longer be seen here, and object order is the map's: use [`from_str`] on untrusted
/// text).
///
/// # Errors
/// One error with kind, JSON pointer and message.
pub fn from_value<T: Decode>(v: &serde_json::Value) -> Result<Parsed<T>, Error> {
    from_value_with(v, ParseOptions::DEFAULT)
}

/// [`from_value`] with `options` (how many warnings to keep).
///
/// # Errors
/// As [`from_value`].
pub fn from_value_with<T: Decode>(v: &serde_json::Value, options: ParseOptions) -> Result<Parsed<T>, Error> {
    let mut cx = Cx::with_max_warnings(options.max_warnings);
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
    from_json_with(v, ParseOptions::DEFAULT)
}

/// [`from_json`] with `options` (how many warnings to keep).
///
/// # Errors
/// As [`from_json`].
pub fn from_json_with<T: Decode>(v: &Json, options: ParseOptions) -> Result<Parsed<T>, Error> {
    let mut cx = Cx::with_max_warnings(options.max_warnings);
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
