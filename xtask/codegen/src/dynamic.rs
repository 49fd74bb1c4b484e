//! What the TypeScript and Python views decide alike, decided once: the names of the
//! decoders and encoders a type needs, the array and map helpers a module defines, and
//! the options of a member's decoder (leniency, bounds, pattern, length ...), collected
//! into one shared constant per distinct set. Each language only spells them
//! ([`Dialect`]): `decodeString` / `decode_string`, `{ lenient: true }` /
//! `MemberOptions(lenient=True)`.

use crate::ir::{Field, Length, Ty};
use crate::pattern::Pattern;
use heck::ToUpperCamelCase;
use std::collections::{BTreeMap, BTreeSet};
use std::marker::PhantomData;

/// How one language spells what [`Helpers`] decides.
pub trait Dialect {
    /// The language's type of `t` (`string[]`, `list[str]`).
    fn type_of(t: &Ty) -> String;
    /// A codec's name: `kind` is `decode` or `encode`; `base` is a lower-case runtime
    /// word (`string`, `uint32`) or a type's suffix (`TerminalId`, `ArrayOfString`).
    fn codec(kind: &str, base: &str) -> String;
    /// One option of a member's decoder: `name` (snake case) set to `value`
    /// (`skipItems: true`, `skip_items=True`).
    fn option(name: &str, value: &str) -> String;
    /// The literal `true`.
    const TRUE: &'static str;
    /// A number literal, and the infinities (for unbounded sides).
    fn number(v: f64) -> String;
    const INFINITY: &'static str;
    const NEG_INFINITY: &'static str;
    /// A pair of bounds (`[lo, hi]`, `(lo, hi)`).
    fn pair(lo: &str, hi: &str) -> String;
    /// A compiled `pattern` as an option value (`patterns`: the module's named pattern
    /// constants, for a language that names them).
    fn pattern(p: &Pattern, patterns: &mut BTreeMap<String, String>) -> String;
    /// The option set's literal from its options, and the prefix of its constant's name.
    fn options(parts: &[String]) -> (String, &'static str);
}

/// What one module needs, collected while its definitions are viewed.
pub struct Helpers<D> {
    /// Array helpers by suffix: (item type, item decoder, item encoder).
    pub arrays: BTreeMap<String, (String, String, String)>,
    /// Map helpers by suffix: (value type, value decoder, value encoder).
    pub maps: BTreeMap<String, (String, String, String)>,
    /// Option set literals, with their constant's name.
    pub options: BTreeMap<String, String>,
    /// Named pattern constants, by name (for a dialect that names them).
    pub patterns: BTreeMap<String, String>,
    /// The runtime's codecs the module calls (lower-case bases), for its imports.
    pub used: BTreeSet<String>,
    dialect: PhantomData<D>,
}

impl<D> Default for Helpers<D> {
    fn default() -> Self {
        Self { arrays: BTreeMap::new(), maps: BTreeMap::new(), options: BTreeMap::new(), patterns: BTreeMap::new(), used: BTreeSet::new(), dialect: PhantomData }
    }
}

/// A type's name in helper names (`ArrayOfString`, `MapOfTerminalId`, `Uint32`).
#[must_use]
pub fn suffix(t: &Ty) -> String {
    match t {
        Ty::Ref { name } => name.clone(),
        Ty::String => "String".into(),
        Ty::Bool => "Boolean".into(),
        Ty::Integer { format, .. } => format.to_upper_camel_case(),
        Ty::Number { .. } => "Number".into(),
        Ty::Bytes => "Bytes".into(),
        Ty::Object => "Object".into(),
        Ty::Json => "Json".into(),
        Ty::Array { items } => format!("ArrayOf{}", suffix(items)),
        Ty::Map { values } => format!("MapOf{}", suffix(values)),
    }
}

/// A string length's bounds as the language's literals (no maximum: its infinity).
#[must_use]
pub fn length_bounds<D: Dialect>(l: &Length) -> (String, String) {
    (l.min.to_string(), l.max.map_or_else(|| D::INFINITY.to_owned(), |m| m.to_string()))
}

impl<D: Dialect> Helpers<D> {
    /// The language's type of `t`.
    pub fn type_of(&self, t: &Ty) -> String {
        D::type_of(t)
    }

    /// The runtime's own codec `kind` for a lower-case `base`, recorded as used.
    fn runtime(&mut self, kind: &str, base: &str) -> String {
        let name = D::codec(kind, base);
        self.used.insert(name.clone());
        name
    }

    /// The decoder of `t`; an array or map helper is recorded for the module to define.
    pub fn decoder(&mut self, t: &Ty) -> String {
        match t {
            Ty::Ref { name } => D::codec("decode", name),
            Ty::String => self.runtime("decode", "string"),
            Ty::Bool => self.runtime("decode", "boolean"),
            // Bounds narrower than the format's are a member option (a range), checked
            // like a number's.
            Ty::Integer { format, .. } => {
                let base = match format.as_str() {
                    "uint32" => "uint32",
                    "int32" => "int32",
                    "uint16" => "uint16",
                    "uint8" => "uint8",
                    "uint64" | "uint" => "uint64",
                    _ => "int64",
                };
                self.runtime("decode", base)
            }
            Ty::Number { .. } => self.runtime("decode", "number"),
            Ty::Bytes => self.runtime("decode", "bytes"),
            Ty::Object => self.runtime("decode", "object"),
            Ty::Json => self.runtime("decode", "json"),
            Ty::Array { items } => {
                let name = suffix(t);
                let entry = (D::type_of(items), self.decoder(items), self.encoder(items));
                self.arrays.insert(name.clone(), entry);
                D::codec("decode", &name)
            }
            Ty::Map { values } => {
                let name = suffix(t);
                let entry = (D::type_of(values), self.decoder(values), self.encoder(values));
                self.maps.insert(name.clone(), entry);
                D::codec("decode", &name)
            }
        }
    }

    /// The encoder of `t` (its array or map helper is recorded, as by [`Self::decoder`]).
    pub fn encoder(&mut self, t: &Ty) -> String {
        match t {
            Ty::Ref { name } => D::codec("encode", name),
            Ty::String => self.runtime("encode", "string"),
            Ty::Bool => self.runtime("encode", "boolean"),
            Ty::Integer { .. } | Ty::Number { .. } => self.runtime("encode", "number"),
            Ty::Bytes => self.runtime("encode", "bytes"),
            Ty::Object => self.runtime("encode", "object"),
            Ty::Json => self.runtime("encode", "json"),
            Ty::Array { .. } | Ty::Map { .. } => {
                self.decoder(t);
                D::codec("encode", &suffix(t))
            }
        }
    }

    /// The name of the constant holding `f`'s decoder options (one per distinct set in
    /// the module), or `None` when it has none.
    pub fn options(&mut self, f: &Field) -> Option<String> {
        let mut parts = Vec::new();
        if f.lenient {
            parts.push(D::option("lenient", D::TRUE));
        }
        if f.skip_invalid_items {
            parts.push(D::option("skip_items", D::TRUE));
        }
        if let Ty::Number { min, max } = &f.ty
            && (min.is_some() || max.is_some())
        {
            let n = |x: Option<f64>, inf: &str| x.map_or_else(|| inf.to_owned(), D::number);
            parts.push(D::option("range", &D::pair(&n(*min, D::NEG_INFINITY), &n(*max, D::INFINITY))));
        }
        if let Some((lo, hi)) = f.ty.integer_bounds() {
            parts.push(D::option("range", &D::pair(&D::number(lo), &D::number(hi))));
        }
        if let Some(n) = f.min_items {
            parts.push(D::option("min_items", &n.to_string()));
        }
        if let Some(p) = &f.pattern {
            let value = D::pattern(p, &mut self.patterns);
            parts.push(D::option("pattern", &value));
        }
        if let Some(l) = &f.length {
            let (min, max) = length_bounds::<D>(l);
            parts.push(D::option("length", &D::pair(&min, &max)));
        }
        if f.null_as_empty {
            parts.push(D::option("null_as_empty", D::TRUE));
        }
        if parts.is_empty() {
            return None;
        }
        let (literal, prefix) = D::options(&parts);
        let next = format!("{prefix}{}", self.options.len());
        Some(self.options.entry(literal).or_insert(next).clone())
    }
}
