//! Values made from a schema's IR, seeded (the same seed gives the same values on every
//! machine): valid values of every definition (`Gen`), and near-valid ones by mutation
//! (`mutate_value`, `mutate_text`). The goldens step (`construct_vectors::run_generated`)
//! and the fuzzers (`fuzz`) both draw from here.

use acp_terminal_codegen::ir::{self, Def, Field, Presence, Ty};
use serde_json::{Map, Value, json};

/// A small deterministic generator (splitmix64): the same seed gives the same cases on
/// every machine.
pub struct Rng(u64);

impl Rng {
    pub fn new(seed: u64) -> Self {
        Self(seed ^ 0x9E37_79B9_7F4A_7C15)
    }
    pub fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }
    /// A number in `0..n` (`n > 0`).
    pub fn below(&mut self, n: usize) -> usize {
        usize::try_from(self.next() % (n.max(1) as u64)).unwrap_or(0)
    }
    /// True with probability `1 / n`.
    pub fn one_in(&mut self, n: usize) -> bool {
        self.below(n) == 0
    }
    pub fn pick<'a, T>(&mut self, items: &'a [T]) -> &'a T {
        &items[self.below(items.len())]
    }
}

const STRINGS: &[&str] = &[
    "",
    "term_001",
    "cargo test",
    "héllo wörld",
    "日本語",
    "🦀 crab",
    "line\nbreak",
    "tab\there",
    "quote \" and \\ backslash",
    "\u{1b}[31mred\u{1b}[0m",
    "\u{0}nul",
    "\u{7f}\u{80}\u{9f}",
    "\u{202e}evil\u{202c}",
    "\u{2028}\u{2029}",
    "\u{feff}bom",
    "x",
    "1",
    "null",
    "-",
    "C:\\Users",
];

const PATHS: &[&str] = &["/", "/home/user", "/tmp/x y", "C:\\work", "D:/proj", "\\\\server\\share", "/ü/日本"];
const RELATIVE: &[&str] = &["", "relative", "./x", "../up", "~/home", "C:", "c"];

/// Random bytes, biased towards short and towards the values that stress decoders.
pub fn bytes(rng: &mut Rng) -> Vec<u8> {
    let n = match rng.below(6) {
        0 => 0,
        1 => 1,
        2 => 2,
        3 => 3,
        _ => rng.below(64),
    };
    (0..n)
        .map(|_| match rng.below(4) {
            0 => 0x1b,
            1 => 0xff,
            _ => u8::try_from(rng.below(256)).unwrap_or(0),
        })
        .collect()
}

pub fn base64(data: &[u8]) -> String {
    const A: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    let mut out = String::new();
    for c in data.chunks(3) {
        let b = [c[0], *c.get(1).unwrap_or(&0), *c.get(2).unwrap_or(&0)];
        let n = (u32::from(b[0]) << 16) | (u32::from(b[1]) << 8) | u32::from(b[2]);
        for i in 0..4 {
            if i <= c.len() {
                out.push(char::from(A[((n >> (18 - 6 * i)) & 63) as usize]));
            } else {
                out.push('=');
            }
        }
    }
    out
}

fn any_json(rng: &mut Rng, depth: usize) -> Value {
    match rng.below(if depth > 2 { 5 } else { 7 }) {
        0 => Value::Null,
        1 => Value::Bool(rng.one_in(2)),
        2 => json!(rng.below(1000) as i64 - 500),
        3 => json!(*rng.pick(&[0.5, -1.25, 1e21, 1e-7, 123_456.789, 9_007_199_254_740_991.0])),
        4 => Value::String((*rng.pick(STRINGS)).to_owned()),
        5 => Value::Array((0..rng.below(4)).map(|_| any_json(rng, depth + 1)).collect()),
        _ => {
            let mut m = Map::new();
            for _ in 0..rng.below(4) {
                let k = *rng.pick(&["a", "b", "1", "0", "_meta", "z", "", "ключ"]);
                m.insert(k.to_owned(), any_json(rng, depth + 1));
            }
            Value::Object(m)
        }
    }
}

/// Generates valid values of the IR's definitions.
pub struct Gen<'a> {
    ir: &'a ir::Ir,
}

impl<'a> Gen<'a> {
    pub fn new(ir: &'a ir::Ir) -> Self {
        Self { ir }
    }

    fn def(&self, name: &str) -> Option<&'a Def> {
        self.ir.defs.iter().find(|d| d.name() == name)
    }

    pub fn names(&self) -> Vec<&'a str> {
        // A method table is no wire type of its own (its results decode by method).
        self.ir.defs.iter().filter(|d| !matches!(d, Def::Results { .. })).map(Def::name).collect()
    }

    fn ty(&self, t: &Ty, format: Option<&str>, rng: &mut Rng, depth: usize) -> Value {
        match t {
            Ty::Ref { name } => self.value(name, rng, depth + 1),
            Ty::String => match format {
                Some("uri") => Value::String((*rng.pick(&["file:///a.txt", "https://x.invalid/y", "mcp://r"])).to_owned()),
                Some("date-time") => Value::String("2026-07-14T12:00:00Z".into()),
                _ => Value::String((*rng.pick(STRINGS)).to_owned()),
            },
            Ty::Bool => Value::Bool(rng.one_in(2)),
            Ty::Integer { min, max, .. } => {
                let candidates = [*min, *max, 0.0_f64.clamp(*min, *max), 1.0_f64.clamp(*min, *max), (*min + (*max - *min) / 3.0).floor()];
                json!(*rng.pick(&candidates) as i64)
            }
            Ty::Number { min, max } => {
                let v: f64 = *rng.pick(&[0.0, 0.5, 1.0, 100.0, 1e-3]);
                json!(v.clamp(min.unwrap_or(f64::MIN), max.unwrap_or(f64::MAX)))
            }
            Ty::Bytes => Value::String(base64(&bytes(rng))),
            Ty::Map { values } => {
                let mut m = Map::new();
                for k in ["b", "a", "10"].iter().take(if depth > 4 { 0 } else { 1 + usize::from(rng.one_in(2)) * 2 }) {
                    m.insert((*k).to_owned(), self.ty(values, None, rng, depth + 1));
                }
                Value::Object(m)
            }
            Ty::Object => {
                let v = any_json(rng, 2);
                if v.is_object() { v } else { json!({}) }
            }
            Ty::Json => any_json(rng, 0),
            Ty::Array { items } => Value::Array((0..rng.below(if depth > 4 { 1 } else { 3 })).map(|_| self.ty(items, None, rng, depth + 1)).collect()),
        }
    }

    fn fields(&self, fields: &[Field], out: &mut Map<String, Value>, rng: &mut Rng, depth: usize) {
        for f in fields {
            let present = match f.presence {
                Presence::Req => true,
                _ => depth < 6 && rng.one_in(2),
            };
            if !present {
                continue;
            }
            let v = match f.presence {
                Presence::Opt | Presence::Patch if rng.one_in(5) => Value::Null,
                // `null` reads as `[]` (`x-deserialize-default-on-null`).
                Presence::Req if f.null_as_empty && rng.one_in(5) => Value::Null,
                _ if f.pattern.is_some() && matches!(f.ty, Ty::String) => Value::String(f.pattern.as_ref().map(|p| pattern_string(p, rng)).unwrap_or_default()),
                _ if f.length.is_some() && matches!(f.ty, Ty::String) => Value::String(sized_string(f.length, rng)),
                _ => {
                    let mut v = self.ty(&f.ty, f.format.as_deref(), rng, depth);
                    if let (Some(min), Value::Array(a)) = (f.min_items, &mut v) {
                        while (a.len() as u64) < min {
                            a.push(self.ty(
                                match &f.ty {
                                    Ty::Array { items } => items,
                                    other => other,
                                },
                                None,
                                rng,
                                depth + 1,
                            ));
                        }
                    }
                    v
                }
            };
            out.insert(f.wire.clone(), v);
        }
        if rng.one_in(6) {
            out.insert((*rng.pick(&["extra", "zz", "_other", "1"])).to_owned(), any_json(rng, 2));
        }
    }

    /// A valid value of the definition `name`.
    pub fn value(&self, name: &str, rng: &mut Rng, depth: usize) -> Value {
        let Some(def) = self.def(name) else { return Value::Null };
        match def {
            Def::Struct { fields, .. } => {
                let mut m = Map::new();
                self.fields(fields, &mut m, rng, depth);
                Value::Object(m)
            }
            Def::StringAlias { length: l @ Some(_), .. } => Value::String(sized_string(*l, rng)),
            Def::StringAlias { absolute_path, .. } => Value::String((*rng.pick(if *absolute_path { PATHS } else { &STRINGS[1..] })).to_owned()),
            Def::StringEnum { values, other, .. } => {
                if other.is_some() && rng.one_in(5) {
                    Value::String("future_value".into())
                } else {
                    Value::String(rng.pick(values).wire.clone())
                }
            }
            Def::TaggedUnion { tag, variants, other, .. } | Def::TaggedStruct { tag, variants, other, .. } => {
                let mut m = Map::new();
                if other.is_some() && rng.one_in(6) {
                    m.insert(tag.clone(), Value::String("future_variant".into()));
                    m.insert("payload".into(), any_json(rng, 2));
                    if let Def::TaggedStruct { common, .. } = def {
                        // Its required common members are checked for an unknown tag too.
                        self.fields(common, &mut m, rng, depth);
                    }
                    return Value::Object(m);
                }
                if let Def::TaggedUnion { tagless: Some(t), .. } = def
                    && rng.one_in(4)
                {
                    return self.value(&t.payload, rng, depth + 1);
                }
                if let Def::TaggedStruct { tagless: Some(t), common, optional_tag, .. } = def
                    && rng.one_in(4)
                {
                    // An optional tag may also be `null`.
                    if optional_tag.is_some() && rng.one_in(2) {
                        m.insert(tag.clone(), Value::Null);
                    }
                    if let Value::Object(inner) = self.value(&t.payload, rng, depth + 1) {
                        m.extend(inner);
                    }
                    self.fields(common, &mut m, rng, depth);
                    return Value::Object(m);
                }
                let v = rng.pick(variants);
                m.insert(tag.clone(), Value::String(v.wire.clone()));
                if let Some(p) = &v.payload
                    && let Value::Object(inner) = self.value(p, rng, depth + 1)
                {
                    for (k, x) in inner {
                        if &k != tag {
                            m.insert(k, x);
                        }
                    }
                }
                if let Def::TaggedStruct { common, .. } = def {
                    self.fields(common, &mut m, rng, depth);
                }
                Value::Object(m)
            }
            Def::ShapeUnion { alternatives, fallback, .. } => {
                if fallback.is_some() && rng.one_in(4) {
                    return any_json(rng, 1);
                }
                let a = rng.pick(alternatives);
                self.value(&a.name, rng, depth + 1)
            }
            Def::Alias { ty, .. } => self.ty(ty, None, rng, depth + 1),
            Def::IntEnum { values, .. } => json!(rng.pick(values).value),
            Def::KindUnion { branches, .. } => {
                let b = rng.pick(branches);
                match b.kind.as_str() {
                    "null" => Value::Null,
                    "any" => any_json(rng, 1),
                    _ => {
                        let mut v = self.ty(&b.ty, None, rng, depth + 1);
                        if let (Some(min), Value::Array(a), Ty::Array { items }) = (b.min_items, &mut v, &b.ty) {
                            while (a.len() as u64) < min {
                                a.push(self.ty(items, None, rng, depth + 2));
                            }
                        }
                        v
                    }
                }
            }
            Def::Envelope { fields, methods, .. } => {
                let mut m = Map::new();
                self.fields(fields, &mut m, rng, depth);
                if rng.one_in(6) {
                    m.insert("method".into(), Value::String("_vendor/future".into()));
                    m.insert("params".into(), any_json(rng, 2));
                } else {
                    let x = rng.pick(methods);
                    m.insert("method".into(), Value::String(x.method.clone()));
                    if !rng.one_in(5) {
                        m.insert("params".into(), self.value(&x.payload, rng, depth + 1));
                    }
                }
                Value::Object(m)
            }
            // A method table is no wire type of its own.
            Def::Results { .. } => Value::Null,
        }
    }
}

/// A string of a length within `length` (in code points), made from the usual strings.
fn sized_string(length: Option<ir::Length>, rng: &mut Rng) -> String {
    let (min, max) = length.map_or((0, None), |l| (l.min, l.max));
    let mut s: Vec<char> = rng.pick(STRINGS).chars().collect();
    if let Some(max) = max {
        s.truncate(usize::try_from(max).unwrap_or(usize::MAX));
    }
    while (s.len() as u64) < min {
        s.push('x');
    }
    s.into_iter().collect()
}

/// A string the compiled `pattern` matches: each atom's set repeated its least count (or
/// one more, within its bounds).
fn pattern_string(p: &acp_terminal_codegen::pattern::Pattern, rng: &mut Rng) -> String {
    let mut out = String::new();
    for a in &p.atoms {
        let extra = u32::from(a.max.is_none_or(|m| m > a.min) && rng.one_in(2));
        for _ in 0..a.min + extra {
            let inside = |c: u32| a.ranges.iter().any(|(lo, hi)| (*lo..=*hi).contains(&c));
            let c = if a.negated {
                ['a', 'Z', '7', 'x', '~', 'é'].into_iter().find(|c| !inside(u32::from(*c)))
            } else {
                let (lo, hi) = *rng.pick(&a.ranges);
                char::from_u32(lo + u32::try_from(rng.below(usize::try_from((hi - lo).min(25)).unwrap_or(0) + 1)).unwrap_or(0))
            };
            out.extend(c);
        }
    }
    out
}

/// Every node of `v` by JSON pointer, for mutation.
fn pointers(v: &Value, at: &str, out: &mut Vec<String>) {
    out.push(at.to_owned());
    match v {
        Value::Object(m) => {
            for (k, x) in m {
                pointers(x, &format!("{at}/{}", k.replace('~', "~0").replace('/', "~1")), out);
            }
        }
        Value::Array(a) => {
            for (i, x) in a.iter().enumerate() {
                pointers(x, &format!("{at}/{i}"), out);
            }
        }
        _ => {}
    }
}

/// A near-valid variation of a valid value: one structural change.
pub fn mutate_value(v: &mut Value, rng: &mut Rng) {
    let mut ps = Vec::new();
    pointers(v, "", &mut ps);
    // A third of the time, a near miss on a string (base64, path, enum value).
    let strings: Vec<String> = ps.iter().filter(|p| v.pointer(p).is_some_and(Value::is_string)).cloned().collect();
    let near_miss = !strings.is_empty() && rng.one_in(3);
    let p = if near_miss { rng.pick(&strings).clone() } else { rng.pick(&ps).clone() };
    let Some(node) = v.pointer_mut(&p) else { return };
    match if near_miss { 6 } else { rng.below(9) } {
        0 => *node = Value::Null,
        1 => *node = json!(rng.below(3)),
        2 => *node = Value::String("x".into()),
        3 => *node = json!([]),
        4 => *node = json!({}),
        5 => {
            if let Value::Object(m) = node
                && !m.is_empty()
            {
                let k = m.keys().nth(rng.below(m.len())).cloned().unwrap_or_default();
                m.remove(&k);
            }
        }
        6 => {
            if let Value::String(s) = node {
                // A base64 or path near miss.
                let variants = [format!("{s}="), format!(" {s}"), s.replace('=', ""), s.replacen('A', "-", 1), (*rng.pick(RELATIVE)).to_owned(), format!("{s}A")];
                *s = rng.pick(&variants).clone();
            }
        }
        7 => *node = json!(*rng.pick(&[1.0, 2.5, -1.0, 1e300, 4_294_967_296.0, 9_007_199_254_740_992.0])),
        _ => {
            let mut deep = Value::Null;
            // Within the depth limit with room for the vector file around it, or past it.
            for _ in 0..*rng.pick(&[3, 100, 128, 140]) {
                deep = Value::Array(vec![deep]);
            }
            *node = deep;
        }
    }
}

/// A near-valid variation of the text itself: what a value cannot carry.
pub fn mutate_text(text: &str, rng: &mut Rng) -> String {
    match rng.below(7) {
        0 if text.starts_with('{') && text.len() > 2 => {
            // Repeat the first member (a duplicate key).
            let body = &text[1..];
            let first_end = body.find(",\"").map_or(body.len() - 1, |i| i);
            format!("{{{},{}", &body[..first_end], body)
        }
        1 => text.replacen("\"", "\"\\ud800", 1),
        2 => text.replacen(':', ": ", 1) + " \n",
        3 => {
            let mut cut = text.len() / 2;
            while !text.is_char_boundary(cut) {
                cut -= 1;
            }
            text[..cut].to_owned()
        }
        4 => text.replacen("1", "1e400", 1),
        5 => text.replacen("\"", "\"\\u0000\\u001b", 1),
        _ => text.replacen(',', ",,", 1),
    }
}
