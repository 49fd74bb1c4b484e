// @generated in its copies: cargo xtask gen vendors templates/rust/runtime/decode.rs byte for byte as src/wire/decode.rs of every generated crate; edit it here, never a copy.
//! Checked decoding, straight from any serde `Deserializer` (no intermediate tree), and
//! canonical encoding.
//!
//! Decoding never stops half-way through a value: a problem is recorded in [`Cx`] (the
//! first one, in input order) and the rest of the input is still read, so a lenient
//! member can drop what it could not use and carry on, repeated member names are found
//! anywhere, and text that is not JSON further on still wins.

use super::bytes::{Bytes, decode_base64, encode_base64};
use super::error::{Error, ErrorKind, Warning};
use super::json::{Json, Members, NameSet, Writer, push_token};
use super::limits::DEFAULT_MAX_WARNINGS;
use super::patch::Patch;
use super::text::{SyntaxError, TreeMap};
use serde::de::{self, DeserializeSeed, Deserializer, IgnoredAny, MapAccess, SeqAccess, Visitor};
use std::borrow::Cow;
use std::fmt;
use std::marker::PhantomData;

/// Where decoding is, the first problem found, and what lenient members absorbed.
///
/// At most `max_warnings` warnings are kept; past that, a problem that a lenient member
/// or a skipped item absorbs is only counted: no pointer, message or error is built for
/// it, so a message of millions of bad items costs no memory beyond its own text.
#[derive(Debug)]
pub struct Cx {
    path: String,
    warnings: Vec<Warning>,
    pending: Option<Error>,
    duplicate: Option<String>,
    skip_items_next: bool,
    last_seq_len: usize,
    /// The `Range` of the member being read, so that an integer outside it is
    /// `out_of_range` before its fraction is looked at (bounds are checked first).
    range_next: Option<(f64, f64)>,
    max_warnings: usize,
    /// Absorbed problems not kept (past `max_warnings`).
    dropped: u64,
    /// A problem recorded now will be absorbed (a lenient member or a skipped item is
    /// being read, with no problem pending).
    absorbing: bool,
    /// Problems built (pointer and message) since the start: what the tests count.
    built: u64,
}

impl Default for Cx {
    fn default() -> Self {
        Self::with_max_warnings(DEFAULT_MAX_WARNINGS)
    }
}

/// A constraint on one member, checked by the field helpers.
#[derive(Debug, Clone, Copy)]
pub enum Check {
    /// A problem inside the member drops the member and adds a warning.
    Lenient,
    /// A problem inside an array item drops the item and adds a warning.
    SkipItems,
    /// A number member must lie in `[min, max]`.
    Range(f64, f64),
    /// An array member needs at least this many items.
    MinItems(usize),
    /// A string member must match a schema `pattern` (else `pattern_mismatch`).
    Pattern(&'static super::Pattern),
    /// A string member's length in code points must lie in `[min, max]` (`minLength`,
    /// `maxLength`; else `out_of_range`).
    Length(usize, usize),
    /// A required array member reads `null` as an empty array
    /// (`x-deserialize-default-on-null`).
    NullAsEmpty,
    /// A `format` annotation for the schema only (`uri`, `date-time`): not checked,
    /// as upstream does not check it either.
    Format(&'static str),
}

impl Cx {
    /// A context at the document root that keeps [`DEFAULT_MAX_WARNINGS`] warnings.
    #[must_use]
    pub fn new() -> Self {
        Self::default()
    }

    /// A context at the document root that keeps at most `max` warnings
    /// (`usize::MAX`: all of them).
    #[must_use]
    pub const fn with_max_warnings(max: usize) -> Self {
        Self {
            path: String::new(),
            warnings: Vec::new(),
            pending: None,
            duplicate: None,
            skip_items_next: false,
            last_seq_len: 0,
            range_next: None,
            max_warnings: max,
            dropped: 0,
            absorbing: false,
            built: 0,
        }
    }

    /// How many problems had their pointer and message built so far (through
    /// [`Cx::fail`], [`Cx::fail_with`] or [`Cx::warn`]): the work counter the tests read
    /// to check that a problem past the warning limit costs nothing.
    #[doc(hidden)]
    #[must_use]
    pub const fn problems_built(&self) -> u64 {
        self.built
    }

    /// `true` when a problem recorded now would not be kept: one is pending already, or
    /// it will be absorbed past the warning limit. Then nothing is built for it.
    #[must_use]
    pub fn silent(&self) -> bool {
        self.pending.is_some() || (self.absorbing && self.warnings.len() >= self.max_warnings)
    }

    /// Records a problem of `kind` at the current pointer, building its message only
    /// when it will be kept (see [`Cx::silent`]); always returns `None`.
    pub fn fail_with<T>(&mut self, kind: ErrorKind, message: impl FnOnce() -> String) -> Option<T> {
        if self.silent() {
            if self.pending.is_none() {
                // Absorbed and only counted: no pointer, no message.
                self.pending = Some(Error::new(kind, String::new(), String::new()));
            }
            return None;
        }
        let e = Error::new(kind, self.path.clone(), message());
        self.fail(e)
    }

    /// Records `missing_field` for member `name` of the object at the current pointer.
    pub fn fail_missing<T>(&mut self, name: &str) -> Option<T> {
        if self.silent() {
            return self.fail_with(ErrorKind::MissingField, String::new);
        }
        let e = self.missing(name);
        self.fail(e)
    }

    /// The current JSON pointer.
    #[must_use]
    pub fn path(&self) -> &str {
        &self.path
    }

    /// `true` once a problem has been recorded.
    #[must_use]
    pub const fn failed(&self) -> bool {
        self.pending.is_some()
    }

    /// The outcome of a whole decode: the repeated member name first, then the first
    /// problem, else the value and its warnings.
    ///
    /// # Errors
    /// `duplicate_key`, or the first recorded problem.
    pub fn finish<T>(self, value: Option<T>) -> Result<super::Parsed<T>, Error> {
        if let Some(path) = self.duplicate {
            let name = path.rsplit('/').next().unwrap_or_default().replace("~1", "/").replace("~0", "~");
            return Err(Error::new(ErrorKind::DuplicateKey, path, format!("member `{name}` appears twice in one object; send it once")));
        }
        if let Some(e) = self.pending {
            return Err(e);
        }
        match value {
            Some(value) => Ok(super::Parsed { value, warnings: self.warnings, warnings_dropped: self.dropped }),
            None => Err(Error::new(ErrorKind::WrongType, "", "the value could not be decoded")),
        }
    }

    /// An error at the current pointer.
    #[must_use]
    pub fn error(&self, kind: ErrorKind, message: impl Into<String>) -> Error {
        Error::new(kind, self.path.clone(), message)
    }

    /// Records `e` when it is the first problem; always returns `None`. Prefer
    /// [`Cx::fail_with`], which builds nothing for a problem that will not be kept.
    pub fn fail<T>(&mut self, e: Error) -> Option<T> {
        self.built += 1;
        if self.pending.is_none() {
            self.pending = Some(e);
        }
        None
    }

    /// Records a `wrong_type` problem at the current pointer.
    pub fn wrong_type<T>(&mut self, expected: &str, got: &str) -> Option<T> {
        self.fail_with(ErrorKind::WrongType, || format!("expected {expected}, got {got}"))
    }

    /// A `missing_field` error for member `name` of the object at the current pointer.
    #[must_use]
    pub fn missing(&self, name: &str) -> Error {
        let mut path = self.path.clone();
        push_token(&mut path, name);
        Error::new(ErrorKind::MissingField, path, format!("required member `{name}` is missing; add it"))
    }

    /// A `missing_field` error for an object that has none of the members that select
    /// a shape union's alternatives; the pointer names the first of them.
    #[must_use]
    pub fn missing_one_of(&self, names: &[&str]) -> Error {
        let first = names.first().copied().unwrap_or_default();
        let mut path = self.path.clone();
        push_token(&mut path, first);
        let list: Vec<String> = names.iter().map(|n| format!("`{n}`")).collect();
        Error::new(ErrorKind::MissingField, path, format!("the object needs one of the members {}; add the one that fits", list.join(" or ")))
    }

    /// Records a repeated member `name` of the object at the current pointer.
    pub fn duplicate(&mut self, name: &str) {
        if self.duplicate.is_none() {
            let mut path = self.path.clone();
            push_token(&mut path, name);
            self.duplicate = Some(path);
        }
    }

    /// Runs `f` one member deeper.
    pub fn at<T>(&mut self, token: &str, f: impl FnOnce(&mut Self) -> T) -> T {
        let len = self.path.len();
        push_token(&mut self.path, token);
        let r = f(self);
        self.path.truncate(len);
        r
    }

    /// Records an absorbed problem (not while a problem is pending: nothing after the
    /// first problem of a value is looked at); past the warning limit it is only counted.
    pub fn warn(&mut self, e: Error) {
        self.built += 1;
        if self.pending.is_none() {
            self.keep(e);
        }
    }

    fn keep(&mut self, e: Error) {
        if self.warnings.len() < self.max_warnings {
            self.warnings.push(e.into());
        } else {
            self.dropped += 1;
        }
    }

    /// Runs `f` on its own, for a union that falls back to raw JSON when a branch
    /// rejects the value: `Some` (with the warnings `f` recorded) when `f` records no
    /// problem, else `None` with nothing recorded.
    pub fn attempt<T>(&mut self, f: impl FnOnce(&mut Self) -> Option<T>) -> Option<T> {
        let pending = self.pending.take();
        let warnings = self.warnings.len();
        let got = f(self);
        let failed = self.pending.is_some();
        self.pending = pending;
        if failed {
            self.warnings.truncate(warnings);
            None
        } else {
            got
        }
    }

    fn absorb(&mut self, was_ok: bool) {
        if was_ok {
            if let Some(e) = self.pending.take() {
                self.keep(e);
            }
        }
    }

    /// Starts reading a value whose problem will be absorbed (when none is pending);
    /// returns what to pass to [`Cx::end_absorbing`].
    fn begin_absorbing(&mut self) -> bool {
        let before = self.absorbing;
        self.absorbing = self.pending.is_none();
        before
    }

    fn end_absorbing(&mut self, before: bool) {
        self.absorbing = before;
    }
}

/// One decoded value: `null` where the caller allows it, the value, or a recorded problem.
#[derive(Debug)]
pub enum Got<T> {
    /// `null` (only where the caller asked for it).
    Null,
    /// The value.
    Value(T),
    /// A problem was recorded in the [`Cx`]; the input of the value was still read.
    Failed,
}

impl<T> From<Option<T>> for Got<T> {
    fn from(o: Option<T>) -> Self {
        o.map_or(Self::Failed, Self::Value)
    }
}

/// A type decoded from JSON with the wire rules. Each method handles one JSON form;
/// the defaults record `wrong_type` (after reading the whole value).
pub trait Decode: Sized {
    /// What the type expects, for messages (`"a string"`).
    const EXPECTED: &'static str;

    /// From `null`.
    fn from_null(cx: &mut Cx) -> Option<Self> {
        cx.wrong_type(Self::EXPECTED, "null")
    }
    /// From `true` / `false`.
    fn from_bool(_: bool, cx: &mut Cx) -> Option<Self> {
        cx.wrong_type(Self::EXPECTED, "a boolean")
    }
    /// From a number.
    fn from_number(_: f64, cx: &mut Cx) -> Option<Self> {
        cx.wrong_type(Self::EXPECTED, "a number")
    }
    /// From a string.
    fn from_str(_: &str, cx: &mut Cx) -> Option<Self> {
        cx.wrong_type(Self::EXPECTED, "a string")
    }
    /// From an owned string (saves a copy where the type keeps it).
    fn from_string(s: String, cx: &mut Cx) -> Option<Self> {
        Self::from_str(&s, cx)
    }
    /// From an object, read member by member.
    ///
    /// # Errors
    /// Only when the input is not JSON.
    fn from_map<'de, A: MapAccess<'de>>(mut map: A, cx: &mut Cx) -> Result<Option<Self>, A::Error> {
        let mut sink = Members::new();
        collect_members(&mut map, cx, &mut sink, None)?;
        Ok(cx.wrong_type(Self::EXPECTED, "an object"))
    }
    /// From an array, read item by item.
    ///
    /// # Errors
    /// Only when the input is not JSON.
    fn from_seq<'de, A: SeqAccess<'de>>(seq: A, cx: &mut Cx) -> Result<Option<Self>, A::Error> {
        let _ = <Vec<Json> as Decode>::from_seq(seq, cx)?;
        Ok(cx.wrong_type(Self::EXPECTED, "an array"))
    }
    /// The value as a number, for range checks.
    fn number(&self) -> Option<f64> {
        None
    }
    /// The value as a string, for pattern checks.
    fn text(&self) -> Option<&str> {
        None
    }

    /// Decodes one value from `d`: `None` when a problem was recorded in `cx`.
    ///
    /// # Errors
    /// Only when the input is not JSON.
    fn decode<'de, D: Deserializer<'de>>(d: D, cx: &mut Cx) -> Result<Option<Self>, D::Error> {
        match d.deserialize_any(Slot::<Self> { cx, nullable: false, t: PhantomData })? {
            Got::Value(v) => Ok(Some(v)),
            Got::Null | Got::Failed => Ok(None),
        }
    }
}

/// The visitor behind every decode: hands each JSON form to the type's [`Decode`] method.
pub struct Slot<'c, T> {
    cx: &'c mut Cx,
    nullable: bool,
    t: PhantomData<T>,
}

impl<'c, T> Slot<'c, T> {
    /// A slot that reports `null` as [`Got::Null`] when `nullable`.
    pub fn new(cx: &'c mut Cx, nullable: bool) -> Self {
        Self { cx, nullable, t: PhantomData }
    }
}

impl<'de, T: Decode> DeserializeSeed<'de> for Slot<'_, T> {
    type Value = Got<T>;
    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<Got<T>, D::Error> {
        d.deserialize_any(self)
    }
}

impl<'de, T: Decode> Visitor<'de> for Slot<'_, T> {
    type Value = Got<T>;
    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(T::EXPECTED)
    }
    fn visit_unit<E>(self) -> Result<Got<T>, E> {
        Ok(if self.nullable { Got::Null } else { T::from_null(self.cx).into() })
    }
    fn visit_none<E>(self) -> Result<Got<T>, E> {
        Ok(if self.nullable { Got::Null } else { T::from_null(self.cx).into() })
    }
    fn visit_some<D: Deserializer<'de>>(self, d: D) -> Result<Got<T>, D::Error> {
        d.deserialize_any(self)
    }
    fn visit_bool<E>(self, v: bool) -> Result<Got<T>, E> {
        Ok(T::from_bool(v, self.cx).into())
    }
    #[allow(clippy::cast_precision_loss)]
    fn visit_i64<E>(self, v: i64) -> Result<Got<T>, E> {
        Ok(T::from_number(v as f64, self.cx).into())
    }
    #[allow(clippy::cast_precision_loss)]
    fn visit_u64<E>(self, v: u64) -> Result<Got<T>, E> {
        Ok(T::from_number(v as f64, self.cx).into())
    }
    fn visit_f64<E: de::Error>(self, v: f64) -> Result<Got<T>, E> {
        if !v.is_finite() {
            return Err(E::custom("number is not finite"));
        }
        Ok(T::from_number(v, self.cx).into())
    }
    fn visit_str<E>(self, v: &str) -> Result<Got<T>, E> {
        Ok(T::from_str(v, self.cx).into())
    }
    fn visit_string<E>(self, v: String) -> Result<Got<T>, E> {
        Ok(T::from_string(v, self.cx).into())
    }
    fn visit_map<A: MapAccess<'de>>(self, map: A) -> Result<Got<T>, A::Error> {
        Ok(T::from_map(map, self.cx)?.into())
    }
    fn visit_seq<A: SeqAccess<'de>>(self, seq: A) -> Result<Got<T>, A::Error> {
        Ok(T::from_seq(seq, self.cx)?.into())
    }
}

/// Reads one member's value with its checks, one level deeper in the pointer.
/// `nullable`: `null` comes back as [`Got::Null`]. A lenient member's problem becomes
/// a warning and [`Got::Failed`].
pub struct Field<'c, T> {
    cx: &'c mut Cx,
    name: &'c str,
    nullable: bool,
    checks: &'c [Check],
    t: PhantomData<T>,
}

impl<'c, T> Field<'c, T> {
    /// A member reader.
    pub fn new(cx: &'c mut Cx, name: &'c str, nullable: bool, checks: &'c [Check]) -> Self {
        Self { cx, name, nullable, checks, t: PhantomData }
    }
}

impl<'de, T: Decode> DeserializeSeed<'de> for Field<'_, T> {
    type Value = Got<T>;
    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<Got<T>, D::Error> {
        let cx = self.cx;
        let len = cx.path.len();
        push_token(&mut cx.path, self.name);
        let was_ok = cx.pending.is_none();
        let (warnings, dropped) = (cx.warnings.len(), cx.dropped);
        let mut lenient = false;
        for c in self.checks {
            match c {
                Check::Lenient => lenient = true,
                Check::SkipItems => cx.skip_items_next = true,
                _ => {}
            }
        }
        cx.range_next = self.checks.iter().find_map(|c| if let Check::Range(min, max) = *c { Some((min, max)) } else { None });
        let absorbing = if lenient { cx.begin_absorbing() } else { cx.absorbing };
        let null_as_empty = self.checks.iter().any(|c| matches!(c, Check::NullAsEmpty));
        let got = d.deserialize_any(Slot::<T> { cx: &mut *cx, nullable: self.nullable || null_as_empty, t: PhantomData });
        // `null` for a member that reads it as an empty array: decode `[]`.
        let got = match got {
            Ok(Got::Null) if null_as_empty && !self.nullable => {
                let empty = serde::de::value::SeqDeserializer::<_, serde::de::value::Error>::new(std::iter::empty::<u8>());
                Ok(T::from_seq(empty, cx).ok().flatten().into())
            }
            other => other,
        };
        cx.skip_items_next = false;
        cx.range_next = None;
        let got = got.inspect_err(|_| cx.end_absorbing(absorbing));
        let mut got = got?;
        if let Got::Value(v) = &got {
            for c in self.checks {
                match *c {
                    Check::Range(min, max) => {
                        if let Some(n) = v.number() {
                            if n < min || n > max {
                                got = cx.fail_with(ErrorKind::OutOfRange, || format!("{n} is outside the allowed range {min} to {max}")).into();
                                break;
                            }
                        }
                    }
                    Check::Pattern(p) => {
                        if let Some(s) = v.text()
                            && !p.matches(s)
                        {
                            got = cx.fail_with(ErrorKind::PatternMismatch, || format!("the string does not match the pattern `{}`", p.source)).into();
                            break;
                        }
                    }
                    Check::Length(min, max) => {
                        if let Some(s) = v.text() {
                            let n = s.chars().count();
                            if !(min..=max).contains(&n) {
                                let e = cx.error(ErrorKind::OutOfRange, length_message(n, min, max));
                                got = cx.fail(e).into();
                                break;
                            }
                        }
                    }
                    Check::MinItems(min) => {
                        let n = cx.last_seq_len;
                        if n < min {
                            // Checked before the items: their warnings do not count.
                            cx.warnings.truncate(warnings);
                            cx.dropped = dropped;
                            got = cx.fail_with(ErrorKind::OutOfRange, || format!("the array has {n} items; at least {min} required")).into();
                            break;
                        }
                    }
                    _ => {}
                }
            }
        }
        cx.end_absorbing(absorbing);
        if lenient {
            cx.absorb(was_ok);
        }
        cx.path.truncate(len);
        Ok(got)
    }
}

/// The `out_of_range` message of a string `n` code points long, outside `[min, max]`.
#[must_use]
pub fn length_message(n: usize, min: usize, max: usize) -> String {
    if max == usize::MAX { format!("the string has {n} characters; at least {min} required") } else { format!("the string has {n} characters; {min} to {max} allowed") }
}

/// A member name, borrowed from the input when possible.
pub struct Key;

impl<'de> DeserializeSeed<'de> for Key {
    type Value = Cow<'de, str>;
    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<Cow<'de, str>, D::Error> {
        d.deserialize_str(self)
    }
}

impl<'de> Visitor<'de> for Key {
    type Value = Cow<'de, str>;
    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a member name")
    }
    fn visit_borrowed_str<E>(self, v: &'de str) -> Result<Cow<'de, str>, E> {
        Ok(Cow::Borrowed(v))
    }
    fn visit_str<E>(self, v: &str) -> Result<Cow<'de, str>, E> {
        Ok(Cow::Owned(v.to_owned()))
    }
    fn visit_string<E>(self, v: String) -> Result<Cow<'de, str>, E> {
        Ok(Cow::Owned(v))
    }
}

/// Reads the rest of an object into `into` (free-form members, in order), recording
/// repeated names. `consumed`: a member already read (a union's tag), so seeing it
/// again is a repeat.
///
/// # Errors
/// Only when the input is not JSON.
pub fn collect_members<'de, A: MapAccess<'de>>(map: &mut A, cx: &mut Cx, into: &mut Members, consumed: Option<&str>) -> Result<(), A::Error> {
    let mut names = NameSet::default();
    while let Some(k) = map.next_key_seed(Key)? {
        // The name is checked before its value is read: a repeated name is reported
        // before anything repeated inside its value (the first in document order).
        if consumed == Some(&*k) || names.seen(into, &k) {
            cx.duplicate(&k);
            skip_value(map, cx)?;
            continue;
        }
        let len = cx.path.len();
        push_token(&mut cx.path, &k);
        let v = map.next_value_seed(Slot::<Json>::new(cx, false))?;
        cx.path.truncate(len);
        // A value that failed (a repeat inside it, already recorded) still takes its
        // name, so that a later repeat of the name is found too.
        let v = if let Got::Value(v) = v { v } else { Json::Null };
        names.add(&k);
        into.push_unchecked(k.into_owned(), v);
    }
    Ok(())
}

/// Reads an object member by member into a tree (for the objects that must be looked
/// at whole), then decodes it with `f`.
///
/// # Errors
/// Only when the input is not JSON.
pub fn buffered<'de, A: MapAccess<'de>, T>(mut map: A, cx: &mut Cx, first: Option<(Cow<'de, str>, Json)>, f: impl FnOnce(&Members, &mut Cx) -> Option<T>) -> Result<Option<T>, A::Error> {
    let mut m = Members::new();
    if let Some((k, v)) = first {
        m.push_unchecked(k.into_owned(), v);
    }
    collect_members(&mut map, cx, &mut m, None)?;
    Ok(f(&m, cx))
}

/// Reads the first member of an object: `Ok(None)` for `{}`.
///
/// # Errors
/// Only when the input is not JSON.
pub fn first_member<'de, A: MapAccess<'de>>(map: &mut A, cx: &mut Cx, tag: &str) -> Result<First<'de>, A::Error> {
    let Some(k) = map.next_key_seed(Key)? else { return Ok(First::Empty) };
    if k == tag {
        let len = cx.path.len();
        push_token(&mut cx.path, tag);
        let v = map.next_value_seed(Slot::<Json>::new(cx, false))?;
        let r = match v {
            Got::Value(Json::String(s)) => First::Tag(s),
            Got::Value(other) => {
                cx.wrong_type::<()>("a string tag", other.describe());
                First::BadTag
            }
            Got::Null | Got::Failed => First::BadTag,
        };
        cx.path.truncate(len);
        return Ok(r);
    }
    let len = cx.path.len();
    push_token(&mut cx.path, &k);
    let v = map.next_value_seed(Slot::<Json>::new(cx, false))?;
    cx.path.truncate(len);
    Ok(match v {
        Got::Value(v) => First::Other(k, v),
        _ => First::Other(k, Json::Null),
    })
}

/// The first member of a tagged object.
pub enum First<'de> {
    /// `{}`.
    Empty,
    /// The tag, first (the common, fast case).
    Tag(String),
    /// The tag, first, but not a string (recorded).
    BadTag,
    /// Another member: the object is read whole before the tag is known.
    Other(Cow<'de, str>, Json),
}

/// Decodes a payload from an already-read object, skipping the members in `skip`.
pub fn payload_from_tree<P: super::Payload>(m: &Members, cx: &mut Cx, skip: &[&str]) -> Option<P> {
    let mut map = TreeMap::new(m);
    P::decode_fields(&mut map, cx, skip, None).unwrap_or_else(|e: SyntaxError| cx.fail(Error::new(ErrorKind::InvalidJson, "", e.0)))
}

/// Decodes a whole value from an already-read tree (a union that looks inside a value
/// before it picks its branch).
pub fn value_from_tree<T: Decode>(v: &Json, cx: &mut Cx) -> Option<T> {
    match Slot::<T>::new(cx, false).deserialize(v) {
        Ok(Got::Value(t)) => Some(t),
        Ok(_) => None,
        Err(e) => cx.fail(Error::new(ErrorKind::InvalidJson, "", e.0)),
    }
}

/// Decodes member `name` of an already-read object through [`Field`].
pub fn field_from_tree<T: Decode>(v: &Json, cx: &mut Cx, name: &str, nullable: bool, checks: &[Check]) -> Got<T> {
    Field::<T>::new(cx, name, nullable, checks).deserialize(v).unwrap_or(Got::Failed)
}

/// Reads the tag of an already-read object.
pub fn read_tag<'m>(m: &'m Members, tag: &str, cx: &mut Cx) -> Option<&'m str> {
    match m.get(tag) {
        None => cx.fail_missing(tag),
        Some(Json::String(s)) => Some(s),
        Some(other) => cx.at(tag, |cx| cx.wrong_type("a string tag", other.describe())),
    }
}

/// Skips one value (its problems do not matter: the caller already failed).
///
/// # Errors
/// Only when the input is not JSON.
pub fn skip_value<'de, A: MapAccess<'de>>(map: &mut A, cx: &mut Cx) -> Result<(), A::Error> {
    map.next_value_seed(Slot::<Json>::new(cx, false)).map(|_| ())
}

/// Ignores one value without looking at it (a member already known to be a repeat
/// inside a tree).
///
/// # Errors
/// Only when the input is not JSON.
pub fn ignore_value<'de, A: MapAccess<'de>>(map: &mut A) -> Result<(), A::Error> {
    map.next_value::<IgnoredAny>().map(|_| ())
}

/// A type that writes its canonical JSON form.
pub trait Encode {
    /// Writes the canonical form.
    fn encode(&self, w: &mut Writer);
}

/// Describes a JSON value's type for messages.
#[must_use]
pub const fn describe(v: &Json) -> &'static str {
    v.describe()
}

impl Decode for String {
    const EXPECTED: &'static str = "a string";
    fn from_str(s: &str, _: &mut Cx) -> Option<Self> {
        Some(s.to_owned())
    }
    fn from_string(s: String, _: &mut Cx) -> Option<Self> {
        Some(s)
    }
    fn text(&self) -> Option<&str> {
        Some(self)
    }
}

impl Encode for String {
    fn encode(&self, w: &mut Writer) {
        w.string(self);
    }
}

impl Decode for bool {
    const EXPECTED: &'static str = "a boolean";
    fn from_bool(b: bool, _: &mut Cx) -> Option<Self> {
        Some(b)
    }
}

impl Encode for bool {
    fn encode(&self, w: &mut Writer) {
        w.bool(*self);
    }
}

impl Decode for f64 {
    const EXPECTED: &'static str = "a number";
    fn from_number(n: f64, _: &mut Cx) -> Option<Self> {
        Some(n)
    }
    fn number(&self) -> Option<f64> {
        Some(*self)
    }
}

impl Encode for f64 {
    fn encode(&self, w: &mut Writer) {
        w.number(*self);
    }
}

/// The largest integer every binding reads exactly (2^53 - 1).
pub const MAX_SAFE_INTEGER: f64 = 9_007_199_254_740_991.0;

fn whole(n: f64, cx: &mut Cx, min: f64, max: f64, what: &str) -> Option<f64> {
    if let Some((lo, hi)) = cx.range_next.take()
        && (n < lo || n > hi)
    {
        return cx.fail_with(ErrorKind::OutOfRange, || format!("{n} is outside the allowed range {lo} to {hi}"));
    }
    if n.fract() != 0.0 {
        return cx.fail_with(ErrorKind::WrongType, || format!("expected {what}, got {n}, which has a fraction"));
    }
    if n < min || n > max {
        return cx.fail_with(ErrorKind::OutOfRange, || format!("{n} is outside the range of {what} ({min} to {max})"));
    }
    Some(n)
}

macro_rules! integer {
    ($t:ty, $min:expr, $max:expr, $what:literal) => {
        impl Decode for $t {
            const EXPECTED: &'static str = $what;
            #[allow(clippy::cast_possible_truncation, clippy::cast_sign_loss)]
            fn from_number(n: f64, cx: &mut Cx) -> Option<Self> {
                whole(n, cx, $min, $max, $what).map(|n| n as $t)
            }
            #[allow(clippy::cast_precision_loss, clippy::cast_lossless)]
            fn number(&self) -> Option<f64> {
                Some(*self as f64)
            }
        }
        impl Encode for $t {
            #[allow(clippy::cast_precision_loss, clippy::cast_lossless)]
            fn encode(&self, w: &mut Writer) {
                w.number(*self as f64);
            }
        }
    };
}
integer!(u32, 0.0, 4_294_967_295.0, "a whole number from 0 to 4294967295");
integer!(u8, 0.0, 255.0, "a whole number from 0 to 255");
integer!(u16, 0.0, 65_535.0, "a whole number from 0 to 65535");
integer!(i32, -2_147_483_648.0, 2_147_483_647.0, "a whole number from -2147483648 to 2147483647");
integer!(u64, 0.0, MAX_SAFE_INTEGER, "a whole number from 0 to 9007199254740991");
integer!(i64, -MAX_SAFE_INTEGER, MAX_SAFE_INTEGER, "a whole number from -9007199254740991 to 9007199254740991");

impl Decode for Json {
    const EXPECTED: &'static str = "any JSON value";
    fn from_null(_: &mut Cx) -> Option<Self> {
        Some(Self::Null)
    }
    fn from_bool(b: bool, _: &mut Cx) -> Option<Self> {
        Some(Self::Bool(b))
    }
    fn from_number(n: f64, _: &mut Cx) -> Option<Self> {
        Some(Self::Number(n))
    }
    fn from_str(s: &str, _: &mut Cx) -> Option<Self> {
        Some(Self::String(s.to_owned()))
    }
    fn from_string(s: String, _: &mut Cx) -> Option<Self> {
        Some(Self::String(s))
    }
    fn from_map<'de, A: MapAccess<'de>>(mut map: A, cx: &mut Cx) -> Result<Option<Self>, A::Error> {
        let mut m = Members::new();
        collect_members(&mut map, cx, &mut m, None)?;
        Ok(Some(Self::Object(m)))
    }
    fn from_seq<'de, A: SeqAccess<'de>>(seq: A, cx: &mut Cx) -> Result<Option<Self>, A::Error> {
        Ok(<Vec<Self> as Decode>::from_seq(seq, cx)?.map(Self::Array))
    }
}

impl Encode for Json {
    fn encode(&self, w: &mut Writer) {
        w.value(self);
    }
}

impl Decode for Members {
    const EXPECTED: &'static str = "an object";
    fn from_map<'de, A: MapAccess<'de>>(mut map: A, cx: &mut Cx) -> Result<Option<Self>, A::Error> {
        let mut m = Self::new();
        collect_members(&mut map, cx, &mut m, None)?;
        Ok(Some(m))
    }
}

impl Encode for Members {
    fn encode(&self, w: &mut Writer) {
        w.begin_object();
        w.members(self);
        w.end_object();
    }
}

impl Decode for Bytes {
    const EXPECTED: &'static str = "a base64 string";
    fn from_str(s: &str, cx: &mut Cx) -> Option<Self> {
        match decode_base64(s) {
            Ok(b) => Some(Self(b)),
            Err(m) => cx.fail_with(ErrorKind::InvalidBase64, || format!("not strict base64: {m}")),
        }
    }
}

impl Encode for Bytes {
    fn encode(&self, w: &mut Writer) {
        w.string(&encode_base64(&self.0));
    }
}

impl<T: Decode> Decode for Vec<T> {
    const EXPECTED: &'static str = "an array";
    fn from_seq<'de, A: SeqAccess<'de>>(mut seq: A, cx: &mut Cx) -> Result<Option<Self>, A::Error> {
        let skip = std::mem::take(&mut cx.skip_items_next);
        let mut out = Vec::with_capacity(seq.size_hint().unwrap_or(0).min(1024));
        let mut failed = false;
        let mut i = 0usize;
        loop {
            let len = cx.path.len();
            cx.path.push('/');
            cx.path.push_str(itoa(i, &mut [0u8; 20]));
            let was_ok = cx.pending.is_none();
            let absorbing = if skip { cx.begin_absorbing() } else { cx.absorbing };
            let item = seq.next_element_seed(Slot::<T>::new(cx, false));
            cx.end_absorbing(absorbing);
            cx.path.truncate(len);
            match item? {
                None => break,
                Some(Got::Value(x)) => out.push(x),
                Some(_) if skip => cx.absorb(was_ok),
                Some(_) => failed = true,
            }
            i += 1;
        }
        // What `minItems` counts: the items kept (with `SkipItems`, the ones not skipped),
        // so a written array always reads back.
        cx.last_seq_len = out.len();
        Ok(if failed { None } else { Some(out) })
    }
}

fn itoa(mut n: usize, buf: &mut [u8; 20]) -> &str {
    let mut i = buf.len();
    loop {
        i -= 1;
        #[allow(clippy::cast_possible_truncation)]
        {
            buf[i] = b'0' + (n % 10) as u8;
        }
        n /= 10;
        if n == 0 {
            break;
        }
    }
    std::str::from_utf8(&buf[i..]).unwrap_or("0")
}

impl<T: Encode> Encode for Vec<T> {
    fn encode(&self, w: &mut Writer) {
        w.begin_array();
        for x in self {
            w.item();
            x.encode(w);
        }
        w.end_array();
    }
}

/// Writes a required member.
pub fn put<T: Encode>(w: &mut Writer, name: &str, v: &T) {
    w.key(name);
    v.encode(w);
}

/// Writes an optional member when present.
pub fn put_opt<T: Encode>(w: &mut Writer, name: &str, v: Option<&T>) {
    if let Some(v) = v {
        put(w, name, v);
    }
}

/// Writes a patch member exactly as set: omitted, `null` or a value.
pub fn put_patch<T: Encode>(w: &mut Writer, name: &str, v: &Patch<T>) {
    match v {
        Patch::Keep => {}
        Patch::Clear => {
            w.key(name);
            w.null();
        }
        Patch::Set(v) => put(w, name, v),
    }
}
