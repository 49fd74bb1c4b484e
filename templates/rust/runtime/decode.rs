//! Checked decoding from a parsed JSON value, and canonical encoding.

use super::bytes::{Bytes, decode_base64, encode_base64};
use super::error::{Error, ErrorKind, Warning};
use super::json::{Writer, push_token};
use super::patch::Patch;
use serde_json::{Map, Value};

/// Free-form object members kept in input order (`_meta`, unknown members).
pub type Members = Map<String, Value>;

/// Where decoding is, and what lenient members absorbed so far.
#[derive(Debug, Default)]
pub struct Cx {
    path: String,
    warnings: Vec<Warning>,
    skip_items_next: bool,
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
    /// A `format` annotation for the schema only (`uri`, `date-time`): not checked,
    /// as upstream does not check it either.
    Format(&'static str),
}

impl Cx {
    /// A context at the document root.
    #[must_use]
    pub fn new() -> Self {
        Self::default()
    }

    /// The current JSON pointer.
    #[must_use]
    pub fn path(&self) -> &str {
        &self.path
    }

    /// The warnings collected so far, in document order.
    #[must_use]
    pub fn into_warnings(self) -> Vec<Warning> {
        self.warnings
    }

    /// An error at the current pointer.
    #[must_use]
    pub fn error(&self, kind: ErrorKind, message: impl Into<String>) -> Error {
        Error::new(kind, self.path.clone(), message)
    }

    /// A `wrong_type` error at the current pointer.
    #[must_use]
    pub fn wrong_type(&self, expected: &str, got: &Value) -> Error {
        self.error(ErrorKind::WrongType, format!("expected {expected}, got {}", describe(got)))
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

    /// Runs `f` one member (or array index) deeper.
    ///
    /// # Errors
    /// Whatever `f` returns.
    pub fn at<T>(&mut self, token: &str, f: impl FnOnce(&mut Self) -> Result<T, Error>) -> Result<T, Error> {
        let len = self.path.len();
        push_token(&mut self.path, token);
        let r = f(self);
        self.path.truncate(len);
        r
    }

    fn at_index<T>(&mut self, i: usize, f: impl FnOnce(&mut Self) -> Result<T, Error>) -> Result<T, Error> {
        let len = self.path.len();
        self.path.push('/');
        self.path.push_str(&i.to_string());
        let r = f(self);
        self.path.truncate(len);
        r
    }

    /// Records an absorbed problem.
    pub fn warn(&mut self, e: Error) {
        self.warnings.push(e.into());
    }

    fn checked<T: Decode>(&mut self, v: &Value, checks: &[Check]) -> Result<T, Error> {
        for c in checks {
            match *c {
                Check::Range(min, max) => {
                    if let Some(n) = v.as_f64() {
                        if n < min || n > max {
                            return Err(self.error(
                                ErrorKind::OutOfRange,
                                format!("{n} is outside the allowed range {min} to {max}"),
                            ));
                        }
                    }
                }
                Check::MinItems(min) => {
                    if let Some(a) = v.as_array() {
                        if a.len() < min {
                            return Err(self.error(
                                ErrorKind::OutOfRange,
                                format!("the array has {} items; at least {min} required", a.len()),
                            ));
                        }
                    }
                }
                Check::SkipItems => self.skip_items_next = true,
                Check::Lenient | Check::Format(_) => {}
            }
        }
        let r = T::decode(v, self);
        self.skip_items_next = false;
        r
    }

    fn absorb<T>(&mut self, r: Result<T, Error>, checks: &[Check]) -> Result<Option<T>, Error> {
        match r {
            Ok(v) => Ok(Some(v)),
            Err(e) if checks.iter().any(|c| matches!(c, Check::Lenient)) => {
                self.warn(e);
                Ok(None)
            }
            Err(e) => Err(e),
        }
    }

    /// Decodes a required member's value.
    ///
    /// # Errors
    /// The member's decoding error.
    pub fn required<T: Decode>(&mut self, name: &str, v: &Value, checks: &[Check]) -> Result<T, Error> {
        self.at(name, |cx| cx.checked(v, checks))
    }

    /// Decodes an optional member's value (`null` is the same as omitted).
    ///
    /// # Errors
    /// The member's decoding error, unless the member is lenient.
    pub fn optional<T: Decode>(&mut self, name: &str, v: &Value, checks: &[Check]) -> Result<Option<T>, Error> {
        if v.is_null() {
            return Ok(None);
        }
        self.at(name, |cx| {
            let r = cx.checked(v, checks);
            cx.absorb(r, checks)
        })
    }

    /// Decodes an optional member that upstream declares non-nullable but not required.
    /// `null` is still the same as omitted, as for every optional member.
    ///
    /// # Errors
    /// The member's decoding error, unless the member is lenient.
    pub fn maybe<T: Decode>(&mut self, name: &str, v: &Value, checks: &[Check]) -> Result<Option<T>, Error> {
        if v.is_null() {
            return Ok(None);
        }
        self.at(name, |cx| {
            let r = cx.checked(v, checks);
            cx.absorb(r, checks)
        })
    }

    /// Decodes a patch member's value (`null` clears).
    ///
    /// # Errors
    /// The member's decoding error, unless the member is lenient.
    pub fn patch<T: Decode>(&mut self, name: &str, v: &Value, checks: &[Check]) -> Result<Patch<T>, Error> {
        if v.is_null() {
            return Ok(Patch::Clear);
        }
        self.at(name, |cx| {
            let r = cx.checked(v, checks);
            Ok(cx.absorb(r, checks)?.map_or(Patch::Keep, Patch::Set))
        })
    }
}

/// Describes a JSON value's type for messages.
#[must_use]
pub fn describe(v: &Value) -> &'static str {
    match v {
        Value::Null => "null",
        Value::Bool(_) => "a boolean",
        Value::Number(_) => "a number",
        Value::String(_) => "a string",
        Value::Array(_) => "an array",
        Value::Object(_) => "an object",
    }
}

/// A type that can be checked and built from a parsed JSON value.
pub trait Decode: Sized {
    /// Decodes `v`, reporting problems at `cx`'s pointer.
    ///
    /// # Errors
    /// The first problem, in input order.
    fn decode(v: &Value, cx: &mut Cx) -> Result<Self, Error>;
}

/// A type that writes its canonical JSON form.
pub trait Encode {
    /// Writes the canonical form.
    fn encode(&self, w: &mut Writer);
}

/// Expects an object.
///
/// # Errors
/// `wrong_type` when `v` is not an object.
pub fn expect_object<'v>(v: &'v Value, cx: &Cx) -> Result<&'v Members, Error> {
    v.as_object().ok_or_else(|| cx.wrong_type("an object", v))
}

/// Reads the string tag of a tagged union.
///
/// # Errors
/// `missing_field` when absent, `wrong_type` when not a string.
pub fn read_tag<'v>(obj: &'v Members, tag: &str, cx: &mut Cx) -> Result<&'v str, Error> {
    match obj.get(tag) {
        None => Err(cx.missing(tag)),
        Some(Value::String(s)) => Ok(s),
        Some(other) => Err(cx.at(tag, |cx| Err(cx.wrong_type("a string tag", other)))?),
    }
}

impl Decode for String {
    fn decode(v: &Value, cx: &mut Cx) -> Result<Self, Error> {
        v.as_str().map(str::to_owned).ok_or_else(|| cx.wrong_type("a string", v))
    }
}

impl Encode for String {
    fn encode(&self, w: &mut Writer) {
        w.string(self);
    }
}

impl Decode for bool {
    fn decode(v: &Value, cx: &mut Cx) -> Result<Self, Error> {
        v.as_bool().ok_or_else(|| cx.wrong_type("a boolean", v))
    }
}

impl Encode for bool {
    fn encode(&self, w: &mut Writer) {
        w.bool(*self);
    }
}

impl Decode for f64 {
    fn decode(v: &Value, cx: &mut Cx) -> Result<Self, Error> {
        v.as_f64().ok_or_else(|| cx.wrong_type("a number", v))
    }
}

impl Encode for f64 {
    fn encode(&self, w: &mut Writer) {
        w.number(*self);
    }
}

/// The largest integer every binding reads exactly (2^53 - 1).
pub const MAX_SAFE_INTEGER: f64 = 9_007_199_254_740_991.0;

fn whole(v: &Value, cx: &Cx, min: f64, max: f64, what: &str) -> Result<f64, Error> {
    let n = v.as_f64().ok_or_else(|| cx.wrong_type(what, v))?;
    if n.fract() != 0.0 {
        return Err(cx.error(ErrorKind::WrongType, format!("expected {what}, got {n}, which has a fraction")));
    }
    if n < min || n > max {
        return Err(cx.error(ErrorKind::OutOfRange, format!("{n} is outside the range of {what} ({min} to {max})")));
    }
    Ok(n)
}

macro_rules! integer {
    ($t:ty, $min:expr, $max:expr, $what:literal) => {
        impl Decode for $t {
            #[allow(clippy::cast_possible_truncation, clippy::cast_sign_loss)]
            fn decode(v: &Value, cx: &mut Cx) -> Result<Self, Error> {
                whole(v, cx, $min, $max, $what).map(|n| n as $t)
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

impl Decode for Value {
    fn decode(v: &Value, _: &mut Cx) -> Result<Self, Error> {
        Ok(v.clone())
    }
}

impl Encode for Value {
    fn encode(&self, w: &mut Writer) {
        w.value(self);
    }
}

impl Decode for Members {
    fn decode(v: &Value, cx: &mut Cx) -> Result<Self, Error> {
        expect_object(v, cx).cloned()
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
    fn decode(v: &Value, cx: &mut Cx) -> Result<Self, Error> {
        let s = v.as_str().ok_or_else(|| cx.wrong_type("a base64 string", v))?;
        decode_base64(s).map(Bytes).map_err(|m| cx.error(ErrorKind::InvalidBase64, format!("not strict base64: {m}")))
    }
}

impl Encode for Bytes {
    fn encode(&self, w: &mut Writer) {
        w.string(&encode_base64(&self.0));
    }
}

impl<T: Decode> Decode for Vec<T> {
    fn decode(v: &Value, cx: &mut Cx) -> Result<Self, Error> {
        let skip = std::mem::take(&mut cx.skip_items_next);
        let items = v.as_array().ok_or_else(|| cx.wrong_type("an array", v))?;
        let mut out = Vec::with_capacity(items.len());
        for (i, item) in items.iter().enumerate() {
            match cx.at_index(i, |cx| T::decode(item, cx)) {
                Ok(x) => out.push(x),
                Err(e) if skip => cx.warn(e),
                Err(e) => return Err(e),
            }
        }
        Ok(out)
    }
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
