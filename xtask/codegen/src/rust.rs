//! The Rust binding: turns the IR into the view the Rust templates render (every
//! naming and typing decision is made here, not in the templates).

use crate::ir::{Def, Field, Ir, Other, Presence, Ty, UnknownTag};
use heck::{ToShoutySnakeCase, ToSnakeCase, ToUpperCamelCase};
use serde::Serialize;
use std::collections::BTreeSet;

const KEYWORDS: &[&str] = &[
    "as", "async", "await", "break", "const", "continue", "crate", "dyn", "else", "enum", "extern", "false", "fn", "for", "gen", "if", "impl", "in", "let", "loop", "match", "mod", "move", "mut",
    "pub", "ref", "return", "self", "Self", "static", "struct", "super", "trait", "true", "type", "unsafe", "use", "where", "while", "abstract", "become", "box", "do", "final", "macro", "override",
    "priv", "try", "typeof", "unsized", "virtual", "yield",
];

/// Names the runtime or the generated module already uses.
const RESERVED_TYPES: &[&str] = &["Bytes", "Members", "Json", "Value", "NoPayload", "Patch", "Option", "Vec", "String", "Result", "Box"];

fn ident(wire: &str) -> String {
    let s = wire.to_snake_case();
    let s = if s.is_empty() || s.starts_with(|c: char| c.is_ascii_digit()) { format!("f_{s}") } else { s };
    if KEYWORDS.contains(&s.as_str()) { format!("{s}_") } else { s }
}

/// Variant names that would shadow the prelude in patterns.
const RESERVED_VARIANTS: &[&str] = &["None", "Some", "Ok", "Err", "Self"];

fn variant_ident(wire: &str) -> String {
    let s = wire.to_upper_camel_case();
    let s = if s.is_empty() || s.starts_with(|c: char| c.is_ascii_digit()) { format!("V{s}") } else { s };
    if RESERVED_VARIANTS.contains(&s.as_str()) { format!("{s}Variant") } else { s }
}

fn lit(s: &str) -> String {
    format!("{s:?}")
}

fn doc_lines_or(doc: &str, fallback: &str) -> Vec<String> {
    if doc.trim().is_empty() { doc_lines(fallback) } else { doc_lines(doc) }
}

fn doc_lines(doc: &str) -> Vec<String> {
    if doc.trim().is_empty() {
        return vec!["///".into()];
    }
    doc.trim().lines().map(|l| if l.trim().is_empty() { "///".to_owned() } else { format!("/// {}", l.trim_end()) }).collect()
}

fn number(n: f64) -> String {
    if n.is_infinite() {
        if n > 0.0 { "f64::INFINITY".into() } else { "f64::NEG_INFINITY".into() }
    } else if n.fract() == 0.0 {
        format!("{n:.1}")
    } else {
        format!("{n}")
    }
}

fn rust_type(t: &Ty) -> String {
    match t {
        Ty::Ref { name } => name.clone(),
        Ty::String => "String".into(),
        Ty::Bool => "bool".into(),
        Ty::Integer { format, .. } => match format.as_str() {
            "uint32" => "u32",
            "int32" => "i32",
            "uint64" | "uint" => "u64",
            "uint16" => "u16",
            "uint8" => "u8",
            _ => "i64",
        }
        .into(),
        Ty::Number { .. } => "f64".into(),
        Ty::Bytes => "Bytes".into(),
        Ty::Object => "Members".into(),
        Ty::Json => "Json".into(),
        Ty::Array { items } => format!("Vec<{}>", rust_type(items)),
        Ty::Map { values } => format!("crate::wire::Map<{}>", rust_type(values)),
    }
}

/// A member with a schema `default`: its field, type and the default's JSON text.
#[derive(Serialize)]
pub struct RDefault {
    ident: String,
    ty: String,
    text: String,
    wire: String,
}

#[derive(Serialize)]
pub struct RField {
    doc: Vec<String>,
    ident: String,
    mode: &'static str,
    ty: String,
    wire: String,
    checks: String,
}

/// A compiled pattern as a promoted constant (`&crate::wire::Pattern { .. }`).
fn pattern_literal(p: &crate::pattern::Pattern) -> String {
    let atoms: Vec<String> = p
        .atoms
        .iter()
        .map(|a| {
            let ranges: Vec<String> = a.ranges.iter().map(|(lo, hi)| format!("({lo}, {hi})")).collect();
            let max = a.max.map_or_else(|| "u32::MAX".to_owned(), |m| m.to_string());
            format!("crate::wire::Atom {{ negated: {}, ranges: &[{}], min: {}, max: {max} }}", a.negated, ranges.join(", "), a.min)
        })
        .collect();
    format!("&crate::wire::Pattern {{ source: {}, atoms: &[{}] }}", lit(&p.source), atoms.join(", "))
}

fn rfield(owner: &str, f: &Field, seen: &mut BTreeSet<String>) -> Result<RField, String> {
    let id = ident(&f.wire);
    if !seen.insert(id.clone()) {
        return Err(format!("$defs/{owner}: members map to the same Rust field `{id}` (one of them is `{}`)", f.wire));
    }
    let mut checks = Vec::new();
    // A required member cannot be dropped: its problem stays an error (as in TypeScript
    // and Python), even when upstream marks it default-on-error.
    if f.lenient && f.presence != Presence::Req {
        checks.push("Lenient".to_owned());
    }
    if f.skip_invalid_items {
        checks.push("SkipItems".to_owned());
    }
    if let Ty::Number { min, max } = &f.ty
        && (min.is_some() || max.is_some())
    {
        checks.push(format!("Range({}, {})", number(min.unwrap_or(f64::NEG_INFINITY)), number(max.unwrap_or(f64::INFINITY))));
    }
    if let Some((lo, hi)) = f.ty.integer_bounds() {
        checks.push(format!("Range({}, {})", number(lo), number(hi)));
    }
    if let Some(n) = f.min_items {
        checks.push(format!("MinItems({n})"));
    }
    if let Some(p) = &f.pattern {
        checks.push(format!("Pattern({})", pattern_literal(p)));
    }
    if let Some(l) = &f.length {
        let (min, max) = length_bounds(l);
        checks.push(format!("Length({min}, {max})"));
    }
    if f.null_as_empty {
        checks.push("NullAsEmpty".to_owned());
    }
    if let Some(fmt) = &f.format {
        checks.push(format!("Format({})", lit(fmt)));
    }
    Ok(RField {
        doc: doc_lines_or(&f.doc, &format!("The `{}` member (no description in the schema).", f.wire)),
        ident: id,
        mode: match f.presence {
            Presence::Req => "req",
            Presence::Opt => "opt",
            Presence::Maybe => "maybe",
            Presence::Patch => "patch",
        },
        ty: rust_type(&f.ty),
        wire: lit(&f.wire),
        checks: checks.join(", "),
    })
}

/// A string length's bounds as `usize` literals (no maximum: `usize::MAX`).
fn length_bounds(l: &crate::ir::Length) -> (String, String) {
    (l.min.to_string(), l.max.map_or_else(|| "usize::MAX".to_owned(), |m| m.to_string()))
}

#[derive(Serialize)]
pub struct RVariant {
    doc: Vec<String>,
    ident: String,
    payload: String,
    wire: String,
}

#[derive(Serialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum RDef {
    Struct {
        name: String,
        doc: Vec<String>,
        fields: Vec<RField>,
        defaults: Vec<RDefault>,
        forbidden: Vec<String>,
    },
    StringAlias {
        name: String,
        doc: Vec<String>,
        absolute_path: bool,
        length: Option<(String, String)>,
    },
    StringEnum {
        name: String,
        doc: Vec<String>,
        openness: String,
        values: Vec<RVariant>,
    },
    TaggedUnion {
        name: String,
        doc: Vec<String>,
        tag: String,
        openness: String,
        variants: Vec<RVariant>,
        tagless: Option<RVariant>,
    },
    TaggedStruct {
        name: String,
        doc: Vec<String>,
        tag: String,
        /// How the tag reads: empty (a string when present), or `optional strict` /
        /// `optional lenient` (`null` is absent; lenient: a non-string tag is dropped).
        tag_mode: String,
        tag_field: String,
        tag_enum: String,
        other_doc: String,
        /// `open`, or `closed` when the schema has neither a catch-all nor a variant
        /// without a tag: an unknown tag is then `unknown_variant`.
        openness: String,
        variants: Vec<RVariant>,
        common: Vec<RField>,
        /// The variant without a tag, and whether unknown tags go to it (`unknown`: the
        /// schema has no catch-all) or stay whole (`own`).
        tagless: Option<RVariant>,
        tagless_mode: String,
    },
    ShapeUnion {
        name: String,
        doc: Vec<String>,
        alternatives: Vec<RVariant>,
        fallback: Option<RVariant>,
    },
    Alias {
        name: String,
        doc: Vec<String>,
        ty: String,
    },
    IntEnum {
        name: String,
        doc: Vec<String>,
        ty: String,
        consts: Vec<RConst>,
        open: bool,
    },
    KindUnion {
        name: String,
        doc: Vec<String>,
        expected: String,
        branches: Vec<RKind>,
        integer_range: Option<(String, String)>,
        int: Option<RKindRef>,
        num: Option<RKindRef>,
        /// The unconstrained branch: any other value, or one a typed branch rejects.
        any: Option<RKindRef>,
    },
    /// A request or notification: its params enum, fallback variant, methods and other members.
    Envelope {
        name: String,
        doc: Vec<String>,
        params: String,
        fallback: String,
        fallback_doc: String,
        method_doc: Vec<String>,
        params_doc: Vec<String>,
        methods: Vec<RVariant>,
        fields: Vec<RField>,
    },
    /// A response's method table: the result enum, the response it decodes for, its fallback.
    Results {
        name: String,
        doc: Vec<String>,
        response: String,
        fallback: String,
        fallback_doc: String,
        methods: Vec<RVariant>,
    },
}

/// The variants of an envelope's params (or a response's results) by method, and the
/// fallback's variant name and doc.
fn method_variants(owner: &str, methods: &[crate::ir::Method], fallback: Option<&Other>, what: &str) -> Result<(Vec<RVariant>, String, String), String> {
    let fb = fallback.map_or_else(|| "Unknown".to_owned(), |o| variant_ident(&o.title));
    let fb_doc = fallback.map_or("", |o| o.doc.as_str());
    let fb_doc = one_line(fb_doc, &format!("The {what} of a method this version does not know, kept as raw JSON."));
    let mut seen = BTreeSet::from([fb.clone()]);
    let mut out = Vec::new();
    for m in methods {
        let id = variant_ident(&m.title);
        if !seen.insert(id.clone()) {
            return Err(format!("$defs/{owner}: the method `{}` maps to the Rust variant `{id}`, which is already taken", m.method));
        }
        out.push(RVariant { doc: doc_lines_or(&m.doc, &format!("The {what} of `{}`.", m.method)), ident: id, payload: m.payload.clone(), wire: lit(&m.method) });
    }
    Ok((out, fb, fb_doc))
}

/// A named constant of an integer enum.
#[derive(Serialize)]
pub struct RConst {
    doc: Vec<String>,
    ident: String,
    value: i64,
}

/// The variant and type of the integer or number branch.
#[derive(Serialize)]
pub struct RKindRef {
    ident: String,
    ty: String,
}

/// A branch of a union decided by JSON kind: its variant, kind and Rust type.
#[derive(Serialize)]
pub struct RKind {
    doc: Vec<String>,
    ident: String,
    kind: String,
    ty: String,
    /// One of several array branches: the member its items require (a literal).
    item_key: Option<String>,
    /// An array branch's `minItems`.
    min_items: Option<u64>,
}

fn variants<'a>(owner: &str, items: impl Iterator<Item = (&'a str, &'a str, String)>, open: bool) -> Result<Vec<RVariant>, String> {
    let mut seen = BTreeSet::new();
    if open {
        seen.insert("Unknown".to_owned());
    }
    items
        .map(|(wire, doc, payload)| {
            let mut id = variant_ident(wire);
            // `Unknown` is the catch-all's: a known value or tag `unknown` (upstream's
            // `AuthState`, `StateUpdate`) is named after its payload type, or `UnknownValue`.
            if open && id == "Unknown" {
                id = if payload.is_empty() || payload == "NoPayload" { "UnknownValue".to_owned() } else { payload.clone() };
            }
            if !seen.insert(id.clone()) {
                return Err(format!("$defs/{owner}: `{wire}` maps to the Rust variant `{id}`, which is already taken"));
            }
            Ok(RVariant { doc: doc_lines_or(doc, &format!("The `{wire}` variant (no description in the schema).")), ident: id, payload, wire: lit(wire) })
        })
        .collect()
}

fn one_line(doc: &str, fallback: &str) -> String {
    let d = doc.trim().replace('\n', " ");
    lit(if d.is_empty() { fallback } else { &d })
}

fn union_openness(other: Option<&Other>, what: &str) -> String {
    other.map_or_else(|| "closed".to_owned(), |o| format!("open ({})", one_line(&o.doc, &format!("A {what} this version does not know, kept whole."))))
}

/// The Rust view of one schema document.
pub fn view(ir: &Ir) -> Result<Vec<RDef>, String> {
    let mut out = Vec::new();
    // Every definition is looked at, so one run reports every name that collides.
    let mut errors = Vec::new();
    for d in &ir.defs {
        if RESERVED_TYPES.contains(&d.name()) {
            errors.push(format!("$defs/{}: the name collides with a runtime type", d.name()));
            continue;
        }
        let one = (|| -> Result<RDef, String> {
            Ok(match d {
                Def::Struct { name, doc, fields, forbidden } => {
                    let mut seen = BTreeSet::from(["extra".to_owned()]);
                    let defaults =
                        fields.iter().filter_map(|f| f.default.as_ref().map(|v| RDefault { ident: ident(&f.wire), ty: rust_type(&f.ty), text: lit(&v.to_string()), wire: f.wire.clone() })).collect();
                    RDef::Struct {
                        name: name.clone(),
                        doc: doc_lines(doc),
                        fields: fields.iter().map(|f| rfield(name, f, &mut seen)).collect::<Result<_, _>>()?,
                        defaults,
                        forbidden: forbidden.iter().map(|f| lit(f)).collect(),
                    }
                }
                Def::StringAlias { name, doc, absolute_path, length } => {
                    RDef::StringAlias { name: name.clone(), doc: doc_lines(doc), absolute_path: *absolute_path, length: length.as_ref().map(length_bounds) }
                }
                Def::IntEnum { name, doc, ty, values, open } => {
                    let mut seen = BTreeSet::from(["KNOWN".to_owned()]);
                    let mut consts = Vec::new();
                    for v in values {
                        let mut id = v.title.to_shouty_snake_case();
                        if !id.starts_with(|c: char| c.is_ascii_uppercase()) {
                            id = format!("VALUE_{}", id.trim_start_matches('_'));
                        }
                        if !seen.insert(id.clone()) {
                            return Err(format!("$defs/{name}: the constant `{}` maps to the Rust name `{id}`, which is already taken", v.title));
                        }
                        consts.push(RConst { doc: doc_lines_or(&v.doc, &format!("{} (`{}`).", v.title, v.value)), ident: id, value: v.value });
                    }
                    RDef::IntEnum { name: name.clone(), doc: doc_lines(doc), ty: rust_type(ty), consts, open: *open }
                }
                Def::KindUnion { name, doc, branches, expected, integer_range } => {
                    let mut seen = BTreeSet::new();
                    let mut out = Vec::new();
                    for b in branches {
                        let ident = variant_ident(&b.title);
                        if !seen.insert(ident.clone()) {
                            return Err(format!("$defs/{name}: the branch `{}` maps to the Rust variant `{ident}`, which is already taken", b.title));
                        }
                        let fallback = if b.kind == "any" { "Any other JSON value, or one the other branches reject, kept as it came." } else { "" };
                        let what = if b.kind == "any" { fallback.to_owned() } else { format!("The `{}` branch (no description in the schema).", b.kind) };
                        out.push(RKind { doc: doc_lines_or(&b.doc, &what), ident, kind: b.kind.clone(), ty: rust_type(&b.ty), item_key: b.item_key.as_deref().map(lit), min_items: b.min_items });
                    }
                    let find = |k: &str| out.iter().find(|b| b.kind == k).map(|b| RKindRef { ident: b.ident.clone(), ty: b.ty.clone() });
                    let (int, num, any) = (find("integer"), find("number"), find("any"));
                    RDef::KindUnion {
                        name: name.clone(),
                        doc: doc_lines(doc),
                        expected: expected.clone(),
                        branches: out,
                        integer_range: integer_range.map(|(lo, hi)| (number(lo), number(hi))),
                        int,
                        num,
                        any,
                    }
                }
                Def::Alias { name, doc, ty } => RDef::Alias { name: name.clone(), doc: doc_lines_or(doc, &format!("`{name}` (no description in the schema).")), ty: rust_type(ty) },
                Def::StringEnum { name, doc, values, other } => RDef::StringEnum {
                    name: name.clone(),
                    doc: doc_lines(doc),
                    openness: other.as_ref().map_or_else(|| "closed".to_owned(), |o| format!("open ({}, {})", lit(&o.title), one_line(&o.doc, "A value this version does not know, kept as sent."))),
                    values: variants(name, values.iter().map(|v| (v.wire.as_str(), v.doc.as_str(), String::new())), other.is_some())?,
                },
                Def::TaggedUnion { name, doc, tag, variants: vs, other, tagless } => {
                    let items = vs.iter().map(|v| (v.wire.as_str(), v.doc.as_str(), v.payload.clone().unwrap_or_else(|| "NoPayload".into())));
                    let tagless_item = tagless.as_ref().map(|t| (t.title.as_str(), t.doc.as_str(), t.payload.clone()));
                    let mut all = variants(name, items.chain(tagless_item), other.is_some())?;
                    let tagless = tagless.as_ref().and_then(|_| all.pop()).map(|mut v| {
                        if v.doc.len() == 1 && v.doc[0].contains("(no description in the schema)") {
                            v.doc = vec![format!("/// The `{}` variant: an object without `{tag}`.", v.wire.trim_matches('"'))];
                        }
                        v
                    });
                    RDef::TaggedUnion { name: name.clone(), doc: doc_lines(doc), tag: lit(tag), openness: union_openness(other.as_ref(), "variant"), variants: all, tagless }
                }
                Def::TaggedStruct { name, doc, tag, optional_tag, variants: vs, other, common, tagless } => {
                    let unknown = UnknownTag::of(other.as_ref(), tagless.as_ref());
                    let mut seen = BTreeSet::from([ident(tag)]);
                    let items = vs.iter().map(|v| (v.wire.as_str(), v.doc.as_str(), v.payload.clone().unwrap_or_else(|| "NoPayload".into())));
                    let tagless_item = tagless.as_ref().map(|t| (t.title.as_str(), t.doc.as_str(), t.payload.clone()));
                    let mut all = variants(name, items.chain(tagless_item), true)?;
                    let tagless = tagless.as_ref().and_then(|_| all.pop()).map(|mut v| {
                        if v.doc.len() == 1 && v.doc[0].contains("(no description in the schema)") {
                            v.doc = vec![format!("/// The `{}` variant: an object without `{tag}`.", v.wire.trim_matches('"'))];
                        }
                        v
                    });
                    let closed = unknown == UnknownTag::Reject;
                    RDef::TaggedStruct {
                        tagless,
                        tagless_mode: if unknown == UnknownTag::Keep { "own".into() } else { "unknown".into() },
                        name: name.clone(),
                        doc: doc_lines(doc),
                        tag: lit(tag),
                        tag_mode: optional_tag.map_or_else(String::new, |o| if o.lenient { "optional lenient".into() } else { "optional strict".into() }),
                        tag_field: ident(tag),
                        tag_enum: format!("{name}{}", variant_ident(tag)),
                        other_doc: if closed {
                            lit("Never read from JSON: the schema lists every tag, so an unknown one is `unknown_variant`.")
                        } else {
                            one_line(other.as_ref().map_or("", |o| o.doc.as_str()), "A variant this version does not know, kept whole.")
                        },
                        openness: if closed { "closed".into() } else { "open".into() },
                        variants: all,
                        common: common.iter().map(|f| rfield(name, f, &mut seen)).collect::<Result<_, _>>()?,
                    }
                }
                Def::Envelope { name, doc, method_doc, params_doc, fields, methods, fallback } => {
                    let mut seen = BTreeSet::from(["extra".to_owned(), "method".to_owned(), "params".to_owned()]);
                    let (methods, fallback, fallback_doc) = method_variants(name, methods, fallback.as_ref(), "params")?;
                    let params = format!("{name}Params");
                    if ir.defs.iter().any(|d| d.name() == params) {
                        return Err(format!("$defs/{name}: the params enum would be named `{params}`, which is already a definition"));
                    }
                    RDef::Envelope {
                        name: name.clone(),
                        doc: doc_lines(doc),
                        params,
                        fallback,
                        fallback_doc,
                        method_doc: doc_lines_or(method_doc, "The method name."),
                        params_doc: doc_lines_or(params_doc, "The method's params (`None`: absent or `null`)."),
                        methods,
                        fields: fields.iter().map(|f| rfield(name, f, &mut seen)).collect::<Result<_, _>>()?,
                    }
                }
                Def::Results { name, doc, response, methods, fallback } => {
                    let (methods, fallback, fallback_doc) = method_variants(name, methods, fallback.as_ref(), "result")?;
                    RDef::Results { name: name.clone(), doc: doc_lines(doc), response: response.clone(), fallback, fallback_doc, methods }
                }
                Def::ShapeUnion { name, doc, alternatives, fallback } => {
                    let fallback = fallback.as_ref().map(|o| RVariant {
                        doc: doc_lines_or(&o.doc, "Any other JSON value, or one its alternative rejects, kept as it came."),
                        ident: variant_ident(&o.title),
                        payload: "crate::wire::Json".into(),
                        wire: String::new(),
                    });
                    if let Some(f) = &fallback
                        && alternatives.iter().any(|a| a.name == f.ident)
                    {
                        return Err(format!("$defs/{name}: the fallback maps to the Rust variant `{}`, which is already taken", f.ident));
                    }
                    RDef::ShapeUnion {
                        name: name.clone(),
                        doc: doc_lines(doc),
                        alternatives: alternatives
                            .iter()
                            .map(|a| RVariant { doc: vec![format!("/// A [`{}`].", a.name)], ident: a.name.clone(), payload: a.name.clone(), wire: lit(&a.key) })
                            .collect(),
                        fallback,
                    }
                }
            })
        })();
        match one {
            Ok(d) => out.push(d),
            Err(e) => errors.push(e),
        }
    }
    if errors.is_empty() { Ok(out) } else { Err(errors.join("\n")) }
}
