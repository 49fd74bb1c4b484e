//! JSON text in and out: parsing that rejects repeated member names, and the
//! canonical writer (compact, ECMAScript number and string forms).

use super::error::{Error, ErrorKind};
use serde::de::{self, DeserializeSeed, MapAccess, SeqAccess, Visitor};
use serde_json::{Map, Number, Value};
use std::cell::RefCell;
use std::fmt;

/// Appends one RFC 6901 reference token (`~` -> `~0`, `/` -> `~1`) to `path`.
pub fn push_token(path: &mut String, token: &str) {
    path.push('/');
    for c in token.chars() {
        match c {
            '~' => path.push_str("~0"),
            '/' => path.push_str("~1"),
            c => path.push(c),
        }
    }
}

struct State {
    path: String,
    duplicate: Option<String>,
}

struct ValueSeed<'a>(&'a RefCell<State>);

impl<'de> DeserializeSeed<'de> for ValueSeed<'_> {
    type Value = Value;
    fn deserialize<D: de::Deserializer<'de>>(self, d: D) -> Result<Value, D::Error> {
        d.deserialize_any(self)
    }
}

impl<'de> Visitor<'de> for ValueSeed<'_> {
    type Value = Value;
    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("any JSON value")
    }
    fn visit_bool<E>(self, v: bool) -> Result<Value, E> {
        Ok(Value::Bool(v))
    }
    fn visit_i64<E>(self, v: i64) -> Result<Value, E> {
        Ok(Value::Number(v.into()))
    }
    fn visit_u64<E>(self, v: u64) -> Result<Value, E> {
        Ok(Value::Number(v.into()))
    }
    fn visit_f64<E: de::Error>(self, v: f64) -> Result<Value, E> {
        Number::from_f64(v).map(Value::Number).ok_or_else(|| E::custom("number is not finite"))
    }
    fn visit_str<E>(self, v: &str) -> Result<Value, E> {
        Ok(Value::String(v.to_owned()))
    }
    fn visit_string<E>(self, v: String) -> Result<Value, E> {
        Ok(Value::String(v))
    }
    fn visit_unit<E>(self) -> Result<Value, E> {
        Ok(Value::Null)
    }
    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Value, A::Error> {
        let mut out = Vec::new();
        loop {
            let len = self.0.borrow().path.len();
            self.0.borrow_mut().path.push_str(&format!("/{}", out.len()));
            let item = seq.next_element_seed(ValueSeed(self.0))?;
            self.0.borrow_mut().path.truncate(len);
            match item {
                Some(v) => out.push(v),
                None => return Ok(Value::Array(out)),
            }
        }
    }
    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Value, A::Error> {
        let mut out = Map::new();
        while let Some(key) = map.next_key::<String>()? {
            let len = self.0.borrow().path.len();
            push_token(&mut self.0.borrow_mut().path, &key);
            let repeated = out.contains_key(&key);
            if repeated {
                // Keep reading: text that is not JSON further on wins over a repeat.
                let mut st = self.0.borrow_mut();
                if st.duplicate.is_none() {
                    st.duplicate = Some(st.path.clone());
                }
            }
            let v = map.next_value_seed(ValueSeed(self.0))?;
            self.0.borrow_mut().path.truncate(len);
            if !repeated {
                out.insert(key, v);
            }
        }
        Ok(Value::Object(out))
    }
}

/// Parses JSON text into a value whose objects keep their member order.
///
/// # Errors
/// `invalid_json` at `""` when the text is not JSON; `duplicate_key` at the repeated
/// member when an object repeats a name.
pub fn parse_value(text: &str) -> Result<Value, Error> {
    let state = RefCell::new(State { path: String::new(), duplicate: None });
    let mut de = serde_json::Deserializer::from_str(text);
    let result = ValueSeed(&state).deserialize(&mut de).and_then(|v| de.end().map(|()| v));
    match result {
        Err(e) => Err(Error::new(ErrorKind::InvalidJson, "", format!("the text is not valid JSON: {e}"))),
        Ok(v) => match state.into_inner().duplicate {
            None => Ok(v),
            Some(path) => {
                let name = path.rsplit('/').next().unwrap_or_default().replace("~1", "/").replace("~0", "~");
                Err(Error::new(
                    ErrorKind::DuplicateKey,
                    path,
                    format!("member `{name}` appears twice in one object; send it once"),
                ))
            }
        },
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
    pub fn value(&mut self, v: &Value) {
        match v {
            Value::Null => self.null(),
            Value::Bool(b) => self.bool(*b),
            Value::Number(n) => self.number(n.as_f64().unwrap_or(f64::NAN)),
            Value::String(s) => self.string(s),
            Value::Array(a) => {
                self.begin_array();
                for x in a {
                    self.item();
                    self.value(x);
                }
                self.end_array();
            }
            Value::Object(o) => {
                self.begin_object();
                self.members(o);
                self.end_object();
            }
        }
    }

    /// Writes every member of `o`, in its order, into the object being written.
    pub fn members(&mut self, o: &Map<String, Value>) {
        for (k, v) in o {
            self.key(k);
            self.value(v);
        }
    }
}
