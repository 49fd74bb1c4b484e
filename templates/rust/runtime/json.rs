// @generated in its copies: cargo xtask gen vendors templates/rust/runtime/json.rs byte for byte as src/wire/json.rs of every generated crate; edit it here, never a copy.
//! Free-form JSON that keeps member order ([`Json`], [`Members`]) and the canonical
//! writer (compact, ECMAScript number and string forms).
//!
//! These types do not depend on serde_json's `preserve_order`: order is kept by the
//! types themselves, so depending on this crate changes nothing in your own
//! `serde_json` values.

use std::collections::HashSet;

/// Appends one RFC 6901 reference token (`~` -> `~0`, `/` -> `~1`) to `path`.
pub fn push_token(path: &mut String, token: &str) {
    path.push('/');
    if !token.bytes().any(|b| b == b'~' || b == b'/') {
        path.push_str(token);
        return;
    }
    for c in token.chars() {
        match c {
            '~' => path.push_str("~0"),
            '/' => path.push_str("~1"),
            c => path.push(c),
        }
    }
}

/// Any JSON value. Objects keep their member order; numbers are IEEE doubles, as in
/// every binding (and written as ECMAScript writes them).
#[derive(Debug, Clone, PartialEq, Default)]
pub enum Json {
    /// `null`.
    #[default]
    Null,
    /// `true` or `false`.
    Bool(bool),
    /// A finite number.
    Number(f64),
    /// A string.
    String(String),
    /// An array.
    Array(Vec<Json>),
    /// An object, members in input order.
    Object(Members),
}

impl Json {
    /// The string, when this is one.
    #[must_use]
    pub fn as_str(&self) -> Option<&str> {
        if let Self::String(s) = self { Some(s) } else { None }
    }

    /// The number, when this is one.
    #[must_use]
    pub const fn as_f64(&self) -> Option<f64> {
        if let Self::Number(n) = self { Some(*n) } else { None }
    }

    /// The boolean, when this is one.
    #[must_use]
    pub const fn as_bool(&self) -> Option<bool> {
        if let Self::Bool(b) = self { Some(*b) } else { None }
    }

    /// The members, when this is an object.
    #[must_use]
    pub const fn as_object(&self) -> Option<&Members> {
        if let Self::Object(m) = self { Some(m) } else { None }
    }

    /// The items, when this is an array.
    #[must_use]
    pub fn as_array(&self) -> Option<&[Json]> {
        if let Self::Array(a) = self { Some(a) } else { None }
    }

    /// `true` for `null`.
    #[must_use]
    pub const fn is_null(&self) -> bool {
        matches!(self, Self::Null)
    }

    /// `true` for an object.
    #[must_use]
    pub const fn is_object(&self) -> bool {
        matches!(self, Self::Object(_))
    }

    /// The value of member `name`, when this is an object that has it.
    #[must_use]
    pub fn get(&self, name: &str) -> Option<&Self> {
        self.as_object().and_then(|m| m.get(name))
    }

    /// The JSON type, for messages (`"an object"` ...).
    #[must_use]
    pub const fn describe(&self) -> &'static str {
        match self {
            Self::Null => "null",
            Self::Bool(_) => "a boolean",
            Self::Number(_) => "a number",
            Self::String(_) => "a string",
            Self::Array(_) => "an array",
            Self::Object(_) => "an object",
        }
    }
}

impl From<&str> for Json {
    fn from(s: &str) -> Self {
        Self::String(s.to_owned())
    }
}

impl From<String> for Json {
    fn from(s: String) -> Self {
        Self::String(s)
    }
}

impl From<f64> for Json {
    fn from(n: f64) -> Self {
        Self::Number(n)
    }
}

impl From<bool> for Json {
    fn from(b: bool) -> Self {
        Self::Bool(b)
    }
}

impl From<Members> for Json {
    fn from(m: Members) -> Self {
        Self::Object(m)
    }
}

impl From<Vec<Json>> for Json {
    fn from(a: Vec<Json>) -> Self {
        Self::Array(a)
    }
}

impl From<&serde_json::Value> for Json {
    /// Converts a `serde_json` value (object order is whatever that map kept).
    fn from(v: &serde_json::Value) -> Self {
        use serde_json::Value as V;
        match v {
            V::Null => Self::Null,
            V::Bool(b) => Self::Bool(*b),
            V::Number(n) => Self::Number(n.as_f64().unwrap_or(f64::NAN)),
            V::String(s) => Self::String(s.clone()),
            V::Array(a) => Self::Array(a.iter().map(Self::from).collect()),
            V::Object(o) => Self::Object(o.iter().map(|(k, v)| (k.clone(), Self::from(v))).collect()),
        }
    }
}

impl From<&Json> for serde_json::Value {
    /// Converts to a `serde_json` value. Member order survives only when your build
    /// enables serde_json's `preserve_order`; whole numbers within 2^53 become integers.
    fn from(v: &Json) -> Self {
        match v {
            Json::Null => Self::Null,
            Json::Bool(b) => Self::Bool(*b),
            Json::Number(n) => number_value(*n),
            Json::String(s) => Self::String(s.clone()),
            Json::Array(a) => Self::Array(a.iter().map(Self::from).collect()),
            Json::Object(o) => Self::Object(o.iter().map(|(k, v)| (k.clone(), Self::from(v))).collect()),
        }
    }
}

#[allow(clippy::cast_possible_truncation)]
fn number_value(n: f64) -> serde_json::Value {
    if n.fract() == 0.0 && n.abs() <= super::decode::MAX_SAFE_INTEGER {
        serde_json::Value::from(n as i64)
    } else {
        serde_json::Number::from_f64(n).map_or(serde_json::Value::Null, serde_json::Value::Number)
    }
}

/// Object members in their input order: `_meta`, unknown members, free-form objects.
/// Names are unique (parsing rejects repeated names).
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Members {
    entries: Vec<(String, Json)>,
}

impl Members {
    /// No members.
    #[must_use]
    pub const fn new() -> Self {
        Self { entries: Vec::new() }
    }

    /// How many members.
    #[must_use]
    pub fn len(&self) -> usize {
        self.entries.len()
    }

    /// `true` when there are none.
    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }

    /// The value of member `name`.
    #[must_use]
    pub fn get(&self, name: &str) -> Option<&Json> {
        self.entries.iter().find(|(k, _)| k == name).map(|(_, v)| v)
    }

    /// The value of member `name`, to change it.
    pub fn get_mut(&mut self, name: &str) -> Option<&mut Json> {
        self.entries.iter_mut().find(|(k, _)| k == name).map(|(_, v)| v)
    }

    /// `true` when member `name` is present.
    #[must_use]
    pub fn contains_key(&self, name: &str) -> bool {
        self.get(name).is_some()
    }

    /// Sets member `name`: replaces the value in place when present (returning the old
    /// one), appends it otherwise.
    pub fn insert(&mut self, name: impl Into<String>, value: impl Into<Json>) -> Option<Json> {
        let name = name.into();
        let value = value.into();
        if let Some(slot) = self.get_mut(&name) {
            return Some(std::mem::replace(slot, value));
        }
        self.entries.push((name, value));
        None
    }

    /// Removes member `name`, keeping the others in order.
    pub fn remove(&mut self, name: &str) -> Option<Json> {
        let i = self.entries.iter().position(|(k, _)| k == name)?;
        Some(self.entries.remove(i).1)
    }

    /// The members in order.
    pub fn iter(&self) -> impl ExactSizeIterator<Item = (&String, &Json)> {
        self.entries.iter().map(|(k, v)| (k, v))
    }

    /// The names in order.
    pub fn keys(&self) -> impl ExactSizeIterator<Item = &String> {
        self.entries.iter().map(|(k, _)| k)
    }

    /// Keeps only the members for which `keep` returns `true`, in order.
    pub fn retain(&mut self, mut keep: impl FnMut(&str, &Json) -> bool) {
        self.entries.retain(|(k, v)| keep(k, v));
    }

    /// Appends a member known not to be present (the caller checked).
    #[doc(hidden)]
    pub fn push_unchecked(&mut self, name: String, value: Json) {
        self.entries.push((name, value));
    }
}

impl<K: Into<String>, V: Into<Json>> Extend<(K, V)> for Members {
    /// Sets each member as [`Members::insert`] does.
    fn extend<I: IntoIterator<Item = (K, V)>>(&mut self, members: I) {
        for (k, v) in members {
            self.insert(k, v);
        }
    }
}

impl<'a> IntoIterator for &'a Members {
    type Item = (&'a String, &'a Json);
    type IntoIter = std::iter::Map<std::slice::Iter<'a, (String, Json)>, fn(&'a (String, Json)) -> (&'a String, &'a Json)>;
    fn into_iter(self) -> Self::IntoIter {
        self.entries.iter().map(|(k, v)| (k, v))
    }
}

impl IntoIterator for Members {
    type Item = (String, Json);
    type IntoIter = std::vec::IntoIter<(String, Json)>;
    fn into_iter(self) -> Self::IntoIter {
        self.entries.into_iter()
    }
}

impl<K: Into<String>, V: Into<Json>> FromIterator<(K, V)> for Members {
    /// Collects members; a repeated name keeps its first position and its last value.
    fn from_iter<I: IntoIterator<Item = (K, V)>>(iter: I) -> Self {
        let mut m = Self::new();
        for (k, v) in iter {
            m.insert(k, v);
        }
        m
    }
}

/// Finds repeated names while an object is read: a scan for small objects, a hash set
/// once the object grows (so hostile input stays linear).
#[derive(Default)]
#[doc(hidden)]
pub struct NameSet {
    set: Option<HashSet<String>>,
}

impl NameSet {
    /// `true` when `name` is already among `members` (which holds every name seen).
    pub fn seen(&mut self, members: &Members, name: &str) -> bool {
        if members.len() < 16 {
            return members.contains_key(name);
        }
        let set = self.set.get_or_insert_with(|| members.keys().cloned().collect());
        set.contains(name)
    }

    /// Records `name` (call after appending it).
    pub fn add(&mut self, name: &str) {
        if let Some(set) = &mut self.set {
            set.insert(name.to_owned());
        }
    }
}

/// The canonical writer: compact JSON with ECMAScript number and string forms.
#[derive(Debug, Default)]
pub struct Writer {
    buf: String,
    first: bool,
}

impl Writer {
    /// A writer with an empty buffer.
    #[must_use]
    pub fn new() -> Self {
        Self::default()
    }

    /// The text written so far.
    #[must_use]
    pub fn finish(self) -> String {
        self.buf
    }

    /// Starts an object.
    pub fn begin_object(&mut self) {
        self.buf.push('{');
        self.first = true;
    }

    /// Ends an object.
    pub fn end_object(&mut self) {
        self.buf.push('}');
        self.first = false;
    }

    /// Starts an array.
    pub fn begin_array(&mut self) {
        self.buf.push('[');
        self.first = true;
    }

    /// Ends an array.
    pub fn end_array(&mut self) {
        self.buf.push(']');
        self.first = false;
    }

    /// Writes the comma before an array item when needed.
    pub fn item(&mut self) {
        if !self.first {
            self.buf.push(',');
        }
        self.first = true;
    }

    /// Writes a member name (and the comma before it when needed).
    pub fn key(&mut self, name: &str) {
        if !self.first {
            self.buf.push(',');
        }
        self.string(name);
        self.buf.push(':');
        self.first = true;
    }

    /// Writes a string with `JSON.stringify`'s escapes.
    pub fn string(&mut self, s: &str) {
        let buf = &mut self.buf;
        buf.reserve(s.len() + 2);
        buf.push('"');
        let bytes = s.as_bytes();
        let mut start = 0;
        for (i, &b) in bytes.iter().enumerate() {
            let esc: &str = match b {
                b'"' => "\\\"",
                b'\\' => "\\\\",
                b'\n' => "\\n",
                b'\r' => "\\r",
                b'\t' => "\\t",
                0x08 => "\\b",
                0x0c => "\\f",
                0..=0x1f => "",
                _ => continue,
            };
            buf.push_str(&s[start..i]);
            if esc.is_empty() {
                const HEX: &[u8; 16] = b"0123456789abcdef";
                buf.push_str("\\u00");
                buf.push(HEX[usize::from(b >> 4)] as char);
                buf.push(HEX[usize::from(b & 0xf)] as char);
            } else {
                buf.push_str(esc);
            }
            start = i + 1;
        }
        buf.push_str(&s[start..]);
        buf.push('"');
        self.first = false;
    }

    /// Writes a number as ECMAScript's Number-to-String does.
    pub fn number(&mut self, n: f64) {
        let mut b = ryu_js::Buffer::new();
        self.buf.push_str(b.format(n));
        self.first = false;
    }

    /// Writes `true` or `false`.
    pub fn bool(&mut self, v: bool) {
        self.buf.push_str(if v { "true" } else { "false" });
        self.first = false;
    }

    /// Writes `null`.
    pub fn null(&mut self) {
        self.buf.push_str("null");
        self.first = false;
    }

    /// Writes raw text that is already a canonical JSON value.
    pub fn raw(&mut self, text: &str) {
        self.buf.push_str(text);
        self.first = false;
    }

    /// Writes any JSON value, keeping object member order.
    pub fn value(&mut self, v: &Json) {
        match v {
            Json::Null => self.null(),
            Json::Bool(b) => self.bool(*b),
            Json::Number(n) => self.number(*n),
            Json::String(s) => self.string(s),
            Json::Array(a) => {
                self.begin_array();
                for x in a {
                    self.item();
                    self.value(x);
                }
                self.end_array();
            }
            Json::Object(o) => {
                self.begin_object();
                self.members(o);
                self.end_object();
            }
        }
    }

    /// Writes every member of `o`, in its order, into the object being written.
    pub fn members(&mut self, o: &Members) {
        for (k, v) in o {
            self.key(k);
            self.value(v);
        }
    }
}
