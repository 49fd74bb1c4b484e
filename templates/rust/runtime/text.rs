// @generated in its copies: cargo xtask gen vendors templates/rust/runtime/text.rs byte for byte as src/wire/text.rs of every generated crate; edit it here, never a copy.
//! Two serde `Deserializer`s the wire decoders read from: JSON text (strict RFC 8259,
//! numbers read exactly, strings borrowed when they have no escapes) and an
//! already-read [`Json`] tree (for the objects that must be looked at whole, such as a
//! union whose tag is not the first member).

use super::json::{Json, Members};
use serde::de::{self, DeserializeSeed, Deserializer, MapAccess, SeqAccess, Visitor};
use std::fmt;

/// Why text is not JSON (or, from a tree, a message passed through).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SyntaxError(pub String);

impl fmt::Display for SyntaxError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for SyntaxError {}

impl de::Error for SyntaxError {
    fn custom<T: fmt::Display>(msg: T) -> Self {
        Self(msg.to_string())
    }
}

/// Containers nested deeper than this are rejected (as serde_json does).
const MAX_DEPTH: u32 = 127;

/// Reads one JSON text.
pub struct TextDe<'de> {
    src: &'de str,
    pos: usize,
    depth: u32,
}

impl<'de> TextDe<'de> {
    /// A reader at the start of `src`.
    #[must_use]
    pub const fn new(src: &'de str) -> Self {
        Self { src, pos: 0, depth: 0 }
    }

    fn err<T>(&self, what: &str) -> Result<T, SyntaxError> {
        let (line, col) = self.line_col();
        Err(SyntaxError(format!("{what} at line {line} column {col}")))
    }

    fn line_col(&self) -> (usize, usize) {
        let before = &self.src.as_bytes()[..self.pos.min(self.src.len())];
        let line = before.iter().filter(|&&b| b == b'\n').count() + 1;
        let col = before.iter().rev().take_while(|&&b| b != b'\n').count() + 1;
        (line, col)
    }

    fn ws(&mut self) {
        let b = self.src.as_bytes();
        while self.pos < b.len() && matches!(b[self.pos], b' ' | b'\n' | b'\r' | b'\t') {
            self.pos += 1;
        }
    }

    fn peek(&mut self) -> Option<u8> {
        self.ws();
        self.src.as_bytes().get(self.pos).copied()
    }

    /// Checks that only whitespace follows the value.
    ///
    /// # Errors
    /// When anything else follows.
    pub fn end(&mut self) -> Result<(), SyntaxError> {
        match self.peek() {
            None => Ok(()),
            Some(_) => self.err("trailing characters after the JSON value"),
        }
    }

    fn literal(&mut self, word: &str) -> Result<(), SyntaxError> {
        if self.src.as_bytes()[self.pos..].starts_with(word.as_bytes()) {
            self.pos += word.len();
            Ok(())
        } else {
            self.err("expected a JSON value")
        }
    }

    /// Reads a string starting at the opening quote: borrowed when it has no escapes.
    fn string(&mut self) -> Result<Str<'de>, SyntaxError> {
        let b = self.src.as_bytes();
        self.pos += 1;
        let start = self.pos;
        // Fast scan to the first quote, backslash or control character: eight bytes
        // at a time, then byte by byte from the block that holds one.
        let mut i = start;
        while i + 8 <= b.len() {
            let mut w = [0u8; 8];
            w.copy_from_slice(&b[i..i + 8]);
            if special(u64::from_le_bytes(w)) {
                break;
            }
            i += 8;
        }
        while i < b.len() {
            let c = b[i];
            if c == b'"' {
                self.pos = i + 1;
                return Ok(Str::Borrowed(&self.src[start..i]));
            }
            if c == b'\\' || c < 0x20 {
                break;
            }
            i += 1;
        }
        let mut out = String::with_capacity(i - start + 16);
        out.push_str(&self.src[start..i]);
        self.pos = i;
        loop {
            let Some(&c) = b.get(self.pos) else { return self.err("unterminated string") };
            match c {
                b'"' => {
                    self.pos += 1;
                    return Ok(Str::Owned(out));
                }
                b'\\' => {
                    self.pos += 1;
                    let Some(&e) = b.get(self.pos) else { return self.err("unterminated string") };
                    self.pos += 1;
                    match e {
                        b'"' => out.push('"'),
                        b'\\' => out.push('\\'),
                        b'/' => out.push('/'),
                        b'b' => out.push('\u{8}'),
                        b'f' => out.push('\u{c}'),
                        b'n' => out.push('\n'),
                        b'r' => out.push('\r'),
                        b't' => out.push('\t'),
                        b'u' => {
                            let hi = self.hex4()?;
                            let c = if (0xd800..0xdc00).contains(&hi) {
                                if b.get(self.pos) != Some(&b'\\') || b.get(self.pos + 1) != Some(&b'u') {
                                    return self.err("lone leading surrogate in a \\u escape");
                                }
                                self.pos += 2;
                                let lo = self.hex4()?;
                                if !(0xdc00..0xe000).contains(&lo) {
                                    return self.err("lone leading surrogate in a \\u escape");
                                }
                                0x10000 + ((hi - 0xd800) << 10) + (lo - 0xdc00)
                            } else if (0xdc00..0xe000).contains(&hi) {
                                return self.err("lone trailing surrogate in a \\u escape");
                            } else {
                                hi
                            };
                            match char::from_u32(c) {
                                Some(ch) => out.push(ch),
                                None => return self.err("invalid \\u escape"),
                            }
                        }
                        _ => return self.err("invalid escape"),
                    }
                }
                0..=0x1f => return self.err("control character in a string"),
                _ => {
                    let run_start = self.pos;
                    let mut j = self.pos;
                    while j < b.len() && b[j] != b'"' && b[j] != b'\\' && b[j] >= 0x20 {
                        j += 1;
                    }
                    out.push_str(&self.src[run_start..j]);
                    self.pos = j;
                }
            }
        }
    }

    fn hex4(&mut self) -> Result<u32, SyntaxError> {
        let b = self.src.as_bytes();
        let Some(digits) = b.get(self.pos..self.pos + 4) else { return self.err("truncated \\u escape") };
        let mut v = 0u32;
        for &d in digits {
            let x = match d {
                b'0'..=b'9' => d - b'0',
                b'a'..=b'f' => d - b'a' + 10,
                b'A'..=b'F' => d - b'A' + 10,
                _ => return self.err("invalid \\u escape"),
            };
            v = v * 16 + u32::from(x);
        }
        self.pos += 4;
        Ok(v)
    }

    /// Reads a number: the JSON grammar, then the exact double (correctly rounded).
    fn number(&mut self) -> Result<f64, SyntaxError> {
        let b = self.src.as_bytes();
        let start = self.pos;
        let digits = |p: &mut usize| {
            let s = *p;
            while *p < b.len() && b[*p].is_ascii_digit() {
                *p += 1;
            }
            *p - s
        };
        let mut p = self.pos;
        if b.get(p) == Some(&b'-') {
            p += 1;
        }
        let int_start = p;
        let n = digits(&mut p);
        if n == 0 || (n > 1 && b[int_start] == b'0') {
            self.pos = p;
            return self.err("invalid number");
        }
        let mut simple = n <= 15;
        if b.get(p) == Some(&b'.') {
            p += 1;
            simple = false;
            if digits(&mut p) == 0 {
                self.pos = p;
                return self.err("invalid number");
            }
        }
        if matches!(b.get(p), Some(b'e' | b'E')) {
            p += 1;
            simple = false;
            if matches!(b.get(p), Some(b'+' | b'-')) {
                p += 1;
            }
            if digits(&mut p) == 0 {
                self.pos = p;
                return self.err("invalid number");
            }
        }
        self.pos = p;
        let text = &self.src[start..p];
        if simple {
            let mut v: u64 = 0;
            for &d in &b[int_start..p] {
                v = v * 10 + u64::from(d - b'0');
            }
            #[allow(clippy::cast_precision_loss)]
            let f = v as f64;
            return Ok(if start == int_start { f } else { -f });
        }
        match text.parse::<f64>() {
            Ok(f) if f.is_finite() => Ok(f),
            _ => self.err("number out of range of a double"),
        }
    }

    fn enter(&mut self) -> Result<(), SyntaxError> {
        if self.depth >= MAX_DEPTH {
            return self.err("recursion limit exceeded");
        }
        self.depth += 1;
        self.pos += 1;
        Ok(())
    }
}

/// `true` when one of the eight bytes in `v` is `"`, `\\` or below 0x20.
const fn special(v: u64) -> bool {
    const ONES: u64 = 0x0101_0101_0101_0101;
    const HIGH: u64 = 0x8080_8080_8080_8080;
    const fn has_zero(x: u64) -> u64 {
        x.wrapping_sub(ONES) & !x & HIGH
    }
    let quote = has_zero(v ^ (ONES * b'"' as u64));
    let backslash = has_zero(v ^ (ONES * b'\\' as u64));
    let control = v.wrapping_sub(ONES * 0x20) & !v & HIGH;
    (quote | backslash | control) != 0
}

enum Str<'de> {
    Borrowed(&'de str),
    Owned(String),
}

impl<'de> Deserializer<'de> for &mut TextDe<'de> {
    type Error = SyntaxError;

    fn deserialize_any<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, SyntaxError> {
        match self.peek() {
            None => self.err("EOF while parsing a value"),
            Some(b'n') => {
                self.literal("null")?;
                visitor.visit_unit()
            }
            Some(b't') => {
                self.literal("true")?;
                visitor.visit_bool(true)
            }
            Some(b'f') => {
                self.literal("false")?;
                visitor.visit_bool(false)
            }
            Some(b'"') => match self.string()? {
                Str::Borrowed(s) => visitor.visit_borrowed_str(s),
                Str::Owned(s) => visitor.visit_string(s),
            },
            Some(b'-' | b'0'..=b'9') => {
                let n = self.number()?;
                visitor.visit_f64(n)
            }
            Some(b'[') => {
                self.enter()?;
                let v = visitor.visit_seq(Seq { de: self, first: true })?;
                self.depth -= 1;
                match self.peek() {
                    Some(b']') => {
                        self.pos += 1;
                        Ok(v)
                    }
                    _ => self.err("expected `,` or `]`"),
                }
            }
            Some(b'{') => {
                self.enter()?;
                let v = visitor.visit_map(Map { de: self, first: true })?;
                self.depth -= 1;
                match self.peek() {
                    Some(b'}') => {
                        self.pos += 1;
                        Ok(v)
                    }
                    _ => self.err("expected `,` or `}`"),
                }
            }
            Some(_) => self.err("expected a JSON value"),
        }
    }

    serde::forward_to_deserialize_any! {
        bool i8 i16 i32 i64 i128 u8 u16 u32 u64 u128 f32 f64 char str string
        bytes byte_buf option unit unit_struct newtype_struct seq tuple
        tuple_struct map struct enum identifier ignored_any
    }
}

struct Seq<'a, 'de> {
    de: &'a mut TextDe<'de>,
    first: bool,
}

impl<'de> SeqAccess<'de> for Seq<'_, 'de> {
    type Error = SyntaxError;
    fn next_element_seed<T: DeserializeSeed<'de>>(&mut self, seed: T) -> Result<Option<T::Value>, SyntaxError> {
        match self.de.peek() {
            Some(b']') => return Ok(None),
            Some(b',') if !self.first => {
                self.de.pos += 1;
                if self.de.peek() == Some(b']') {
                    return self.de.err("trailing comma");
                }
            }
            _ if self.first => {}
            None => return self.de.err("EOF while parsing an array"),
            Some(_) => return self.de.err("expected `,` or `]`"),
        }
        self.first = false;
        seed.deserialize(&mut *self.de).map(Some)
    }
}

struct Map<'a, 'de> {
    de: &'a mut TextDe<'de>,
    first: bool,
}

impl<'de> MapAccess<'de> for Map<'_, 'de> {
    type Error = SyntaxError;
    fn next_key_seed<K: DeserializeSeed<'de>>(&mut self, seed: K) -> Result<Option<K::Value>, SyntaxError> {
        match self.de.peek() {
            Some(b'}') => return Ok(None),
            Some(b',') if !self.first => {
                self.de.pos += 1;
                if self.de.peek() == Some(b'}') {
                    return self.de.err("trailing comma");
                }
            }
            _ if self.first => {}
            None => return self.de.err("EOF while parsing an object"),
            Some(_) => return self.de.err("expected `,` or `}`"),
        }
        self.first = false;
        if self.de.peek() != Some(b'"') {
            return self.de.err("expected a member name in double quotes");
        }
        let key = self.de.string()?;
        if self.de.peek() != Some(b':') {
            return self.de.err("expected `:`");
        }
        self.de.pos += 1;
        match key {
            Str::Borrowed(s) => seed.deserialize(de::value::BorrowedStrDeserializer::new(s)).map(Some),
            Str::Owned(s) => seed.deserialize(de::value::StringDeserializer::new(s)).map(Some),
        }
    }

    fn next_value_seed<V: DeserializeSeed<'de>>(&mut self, seed: V) -> Result<V::Value, SyntaxError> {
        seed.deserialize(&mut *self.de)
    }
}

/// Reads an already-read [`Json`] tree.
impl<'de> Deserializer<'de> for &'de Json {
    type Error = SyntaxError;

    fn deserialize_any<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, SyntaxError> {
        match self {
            Json::Null => visitor.visit_unit(),
            Json::Bool(b) => visitor.visit_bool(*b),
            Json::Number(n) => visitor.visit_f64(*n),
            Json::String(s) => visitor.visit_borrowed_str(s),
            Json::Array(a) => visitor.visit_seq(TreeSeq(a.iter())),
            Json::Object(m) => visitor.visit_map(TreeMap::new(m)),
        }
    }

    serde::forward_to_deserialize_any! {
        bool i8 i16 i32 i64 i128 u8 u16 u32 u64 u128 f32 f64 char str string
        bytes byte_buf option unit unit_struct newtype_struct seq tuple
        tuple_struct map struct enum identifier ignored_any
    }
}

struct TreeSeq<'de>(std::slice::Iter<'de, Json>);

impl<'de> SeqAccess<'de> for TreeSeq<'de> {
    type Error = SyntaxError;
    fn next_element_seed<T: DeserializeSeed<'de>>(&mut self, seed: T) -> Result<Option<T::Value>, SyntaxError> {
        self.0.next().map(|v| seed.deserialize(v)).transpose()
    }
}

/// The members of an already-read object, as a serde `MapAccess`.
pub struct TreeMap<'de> {
    iter: Box<dyn Iterator<Item = (&'de String, &'de Json)> + 'de>,
    value: Option<&'de Json>,
}

impl<'de> TreeMap<'de> {
    /// Reads `m`'s members in order.
    #[must_use]
    pub fn new(m: &'de Members) -> Self {
        Self { iter: Box::new(m.iter()), value: None }
    }
}

impl<'de> MapAccess<'de> for TreeMap<'de> {
    type Error = SyntaxError;
    fn next_key_seed<K: DeserializeSeed<'de>>(&mut self, seed: K) -> Result<Option<K::Value>, SyntaxError> {
        match self.iter.next() {
            None => Ok(None),
            Some((k, v)) => {
                self.value = Some(v);
                seed.deserialize(de::value::BorrowedStrDeserializer::new(k)).map(Some)
            }
        }
    }
    fn next_value_seed<V: DeserializeSeed<'de>>(&mut self, seed: V) -> Result<V::Value, SyntaxError> {
        match self.value.take() {
            Some(v) => seed.deserialize(v),
            None => Err(SyntaxError("a value was read before its member name".into())),
        }
    }
}
