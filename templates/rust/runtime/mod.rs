//! The wire runtime shared by every type: strict bytes, absolute paths, the patch
//! type, checked decoding with warnings, canonical encoding, and schema helpers.

mod bytes;
mod display;
mod decode;
mod error;
mod json;
mod macros;
mod patch;
mod untagged;
mod path;
mod path_type;
/// The safe transcript renderer of docs/TRANSCRIPT.md.
pub mod transcript;

pub use bytes::{Bytes, decode_base64, encode_base64};
pub use display::safe_display;
pub use decode::{
    Check, Cx, Decode, Encode, MAX_SAFE_INTEGER, Members, describe, expect_object, put, put_opt, put_patch,
    read_tag,
};
pub use error::{Error, ErrorKind, Warning};
pub use json::{Writer, parse_value, push_token};
pub use patch::Patch;
pub use path::{is_absolute_path, why_not_absolute};
pub use path_type::AbsolutePath;
pub use transcript::Transcript;

use serde_json::Value;

/// An object type that can also be the payload of a tagged union variant: it decodes
/// from the members of an object (skipping the tag) and writes its known members.
pub trait Payload: Sized {
    /// Decodes from `obj`'s members in input order, skipping the members named in `skip`.
    ///
    /// # Errors
    /// The first problem, in input order; then missing required members in schema order.
    fn decode_members(obj: &Members, cx: &mut Cx, skip: &[&str]) -> Result<Self, Error>;
    /// Writes the known members in schema order.
    fn encode_known(&self, w: &mut Writer);
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
    fn decode_members(obj: &Members, _: &mut Cx, skip: &[&str]) -> Result<Self, Error> {
        let extra = obj.iter().filter(|(k, _)| !skip.contains(&k.as_str())).map(|(k, v)| (k.clone(), v.clone())).collect();
        Ok(Self { extra })
    }
    fn encode_known(&self, _: &mut Writer) {}
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

/// Parses JSON text as `T`.
///
/// # Errors
/// One error with kind, JSON pointer and message.
pub fn from_str<T: Decode>(text: &str) -> Result<Parsed<T>, Error> {
    from_value(&parse_value(text)?)
}

/// Checks an already parsed JSON value as `T` (repeated member names can no longer be
/// seen here: use [`from_str`] on untrusted text).
///
/// # Errors
/// One error with kind, JSON pointer and message.
pub fn from_value<T: Decode>(v: &Value) -> Result<Parsed<T>, Error> {
    let mut cx = Cx::new();
    let value = T::decode(v, &mut cx)?;
    Ok(Parsed { value, warnings: cx.into_warnings() })
}

/// Writes the canonical JSON text of `v`.
#[must_use]
pub fn to_string<T: Encode + ?Sized>(v: &T) -> String {
    let mut w = Writer::new();
    v.encode(&mut w);
    w.finish()
}
