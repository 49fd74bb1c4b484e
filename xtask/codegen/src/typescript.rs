//! The TypeScript binding: turns the IR into the view the TypeScript templates render
//! (names, types, decoder and encoder expressions are decided here).

use crate::ir::{Def, Field, Ir, Presence, Ty, UnknownTag};
use heck::{ToLowerCamelCase, ToShoutySnakeCase, ToUpperCamelCase};
use serde::Serialize;
use std::collections::{BTreeMap, BTreeSet};

fn js(s: &str) -> String {
    serde_json::to_string(s).unwrap_or_default()
}

fn is_identifier(s: &str) -> bool {
    let mut chars = s.chars();
    chars.next().is_some_and(|c| c.is_ascii_alphabetic() || c == '_' || c == '$') && chars.all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '$')
}

/// A property key as written in a type or object literal.
fn key(wire: &str) -> String {
    if is_identifier(wire) { wire.to_owned() } else { js(wire) }
}

/// Property access (`v.terminalId` or `v["x-y"]`).
fn access(wire: &str) -> String {
    if is_identifier(wire) { format!(".{wire}") } else { format!("[{}]", js(wire)) }
}

fn jsdoc(doc: &str, indent: &str) -> Vec<String> {
    let doc = doc.trim();
    if doc.is_empty() {
        return vec![];
    }
    let body: Vec<String> = doc.lines().map(|l| l.replace("*/", "*\\/")).collect();
    if body.len() == 1 {
        return vec![format!("{indent}/** {} */", body[0])];
    }
    let mut out = vec![format!("{indent}/**")];
    out.extend(body.iter().map(|l| if l.trim().is_empty() { format!("{indent} *") } else { format!("{indent} * {l}") }));
    out.push(format!("{indent} */"));
    out
}

/// TypeScript's spelling of what the dynamic views decide alike (`crate::dynamic`).
pub struct Ts;

type Helpers = crate::dynamic::Helpers<Ts>;

impl crate::dynamic::Dialect for Ts {
    fn type_of(t: &Ty) -> String {
        match t {
            Ty::Ref { name } => name.clone(),
            Ty::String => "string".into(),
            Ty::Bool => "boolean".into(),
            Ty::Integer { .. } | Ty::Number { .. } => "number".into(),
            Ty::Bytes => "Uint8Array".into(),
            Ty::Object => "JsonObject".into(),
            Ty::Json => "Json".into(),
            Ty::Array { items } => format!("{}[]", Self::type_of(items)),
            Ty::Map { values } => format!("{{ [key: string]: {} }}", Self::type_of(values)),
        }
    }

    fn codec(kind: &str, base: &str) -> String {
        format!("{kind}{}", base.to_upper_camel_case())
    }

    fn option(name: &str, value: &str) -> String {
        format!("{}: {value}", name.to_lower_camel_case())
    }

    const TRUE: &'static str = "true";
    const INFINITY: &'static str = "Infinity";
    const NEG_INFINITY: &'static str = "-Infinity";

    fn number(v: f64) -> String {
        format!("{v}")
    }

    fn pair(lo: &str, hi: &str) -> String {
        format!("[{lo}, {hi}]")
    }

    fn pattern(p: &crate::pattern::Pattern, _: &mut BTreeMap<String, String>) -> String {
        let atoms: Vec<String> = p
            .atoms
            .iter()
            .map(|a| {
                let ranges: Vec<String> = a.ranges.iter().map(|(lo, hi)| format!("[{lo}, {hi}]")).collect();
                format!("[{}, [{}], {}, {}]", a.negated, ranges.join(", "), a.min, a.max.map_or(-1, i64::from))
            })
            .collect();
        format!("{{ source: {}, atoms: [{}] }}", js(&p.source), atoms.join(", "))
    }

    fn options(parts: &[String]) -> (String, &'static str) {
        (format!("{{ {} }}", parts.join(", ")), "OPTIONS_")
    }
}

#[derive(Serialize)]
struct TField {
    doc: Vec<String>,
    key: String,
    access: String,
    wire: String,
    ty: String,
    optional: bool,
    nullable: bool,
    local: String,
    decode: String,
    encode: String,
    required: bool,
}

fn tfield(h: &mut Helpers, f: &Field, i: usize) -> TField {
    let dec = h.decoder(&f.ty);
    let enc = h.encoder(&f.ty);
    let opts = h.options(f).map(|o| format!(", {o}")).unwrap_or_default();
    let helper = match f.presence {
        Presence::Req => "required",
        Presence::Opt => "optional",
        Presence::Maybe => "maybe",
        Presence::Patch => "patch",
    };
    let put = match f.presence {
        Presence::Req => "put",
        Presence::Opt | Presence::Maybe => "putOptional",
        Presence::Patch => "putPatch",
    };
    TField {
        doc: jsdoc(&f.doc, "  "),
        key: key(&f.wire),
        access: access(&f.wire),
        wire: js(&f.wire),
        ty: h.type_of(&f.ty),
        optional: f.presence != Presence::Req,
        nullable: f.presence == Presence::Patch,
        local: format!("m{i}"),
        decode: format!("cx.{helper}(k, x, {dec}{opts})"),
        encode: format!("w.{put}({}, v{}, {enc})", js(&f.wire), access(&f.wire)),
        required: f.presence == Presence::Req,
    }
}

#[derive(Serialize)]
struct TVariant {
    doc: Vec<String>,
    type_name: String,
    wire: String,
    payload: Option<String>,
    /// The payload is a tagged union (read from the same object).
    nested: bool,
}

/// A variant's type name, unique in the module (`owner` and the variant's wire name or title).
type VariantName<'a> = dyn FnMut(&str, &str) -> Result<String, String> + 'a;

/// The variants of a tagged union or tagged object (`unions`: the unions a payload may be,
/// read from the same object).
fn tvariants(vname: &mut VariantName<'_>, owner: &str, variants: &[crate::ir::Variant], unions: &BTreeSet<&str>) -> Result<Vec<TVariant>, String> {
    variants
        .iter()
        .map(|v| {
            Ok(TVariant { doc: jsdoc(&v.doc, ""), type_name: vname(owner, &v.wire)?, wire: js(&v.wire), payload: v.payload.clone(), nested: v.payload.as_deref().is_some_and(|p| unions.contains(p)) })
        })
        .collect()
}

/// The variant without a tag, if there is one.
fn ttagless(vname: &mut VariantName<'_>, owner: &str, tagless: Option<&crate::ir::Tagless>) -> Result<Option<TVariant>, String> {
    tagless.map(|t| Ok(TVariant { doc: jsdoc(t.doc.trim(), ""), type_name: vname(owner, &t.title)?, wire: js(&t.title), payload: Some(t.payload.clone()), nested: false })).transpose()
}

#[derive(Serialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
enum TDef {
    Struct {
        name: String,
        doc: Vec<String>,
        fields: Vec<TField>,
        skip_const: String,
        defaults: Vec<(String, String, String)>,
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
        values: Vec<String>,
        values_const: String,
        open: bool,
    },
    TaggedUnion {
        name: String,
        doc: Vec<String>,
        tag: String,
        tag_key: String,
        tag_access: String,
        variants: Vec<TVariant>,
        open: bool,
        skip_const: String,
        known_const: String,
        /// The variant without a tag, and the empty skip list its members are read with.
        tagless: Option<TVariant>,
        no_skip: String,
        /// Another union's variant carries this one: `decode<Name>Members` and
        /// `encode<Name>Known` are written too.
        as_payload: bool,
        /// Some variant carries a union: an inner unknown variant is marked like an
        /// outer one, so the outer tag's presence tells them apart.
        nested: bool,
    },
    TaggedStruct {
        name: String,
        doc: Vec<String>,
        tag: String,
        /// An optional tag (`null` is absent): `lenient` or `strict` about a non-string one.
        optional_tag: Option<&'static str>,
        tag_key: String,
        tag_access: String,
        variants: Vec<TVariant>,
        common: Vec<TField>,
        skip_const: String,
        known_const: String,
        /// The variant without a tag.
        tagless: Option<TVariant>,
        /// What an unknown tag does ([`UnknownTag::name`]): `keep` it whole, go to the
        /// variant without a tag (`tagless`, its members read skipping `common_skip`), or
        /// `reject` it.
        unknown: &'static str,
        common_skip: String,
        /// A union's variant carries it: `decode<Name>Members` and `encode<Name>Known`
        /// are written too.
        as_payload: bool,
    },
    ShapeUnion {
        name: String,
        doc: Vec<String>,
        alternatives: Vec<(String, String)>,
        /// A tagged object's variant carries it: `decode<Name>Members` and
        /// `encode<Name>Known` are written too.
        as_payload: bool,
        /// An unconstrained branch keeps any other value as a `RawValue`.
        fallback: bool,
    },
    Alias {
        name: String,
        doc: Vec<String>,
        ty: String,
        decoder: String,
        encoder: String,
    },
    IntEnum {
        name: String,
        doc: Vec<String>,
        values: Vec<String>,
        values_const: String,
        decoder: String,
        open: bool,
    },
    KindUnion {
        name: String,
        doc: Vec<String>,
        ty: String,
        expected: String,
        branches: Vec<TKind>,
        int: Option<String>,
        num: Option<String>,
        range: Option<(String, String)>,
        any: bool,
    },
    /// A request or notification: its other members, the params union by method, the method list.
    Envelope {
        name: String,
        doc: Vec<String>,
        method_doc: Vec<String>,
        params_doc: Vec<String>,
        fields: Vec<TField>,
        methods: Vec<TMethod>,
        methods_const: String,
        params_ty: String,
    },
    /// A response's method table (`decode<Name>(method, result)`).
    Results {
        name: String,
        doc: Vec<String>,
        response: String,
        methods: Vec<TMethod>,
        methods_const: String,
    },
}

/// One method of an envelope's params or a response's results: its name, type and codec.
#[derive(Serialize)]
struct TMethod {
    method: String,
    ty: String,
    decoder: String,
    encoder: String,
}

fn tmethods(h: &mut Helpers, methods: &[crate::ir::Method]) -> Vec<TMethod> {
    methods
        .iter()
        .map(|m| {
            let t = Ty::Ref { name: m.payload.clone() };
            TMethod { method: js(&m.method), ty: h.type_of(&t), decoder: h.decoder(&t), encoder: h.encoder(&t) }
        })
        .collect()
}

/// A branch of a union decided by JSON kind: its kind, decoder and encoder.
#[derive(Serialize)]
struct TKind {
    kind: String,
    decoder: String,
    encoder: String,
    ty: String,
    /// One of several array branches: the member its items require (a literal).
    item_key: Option<String>,
    /// An array branch's `minItems`.
    min_items: Option<u64>,
}

#[derive(Serialize)]
pub struct Module {
    defs: Vec<TDef>,
    arrays: Vec<(String, String, String, String)>,
    maps: Vec<(String, String, String, String)>,
    options: Vec<(String, String)>,
    skips: Vec<(String, String)>,
    /// The names the public module (`src/<module>.ts`) re-exports: types only ...
    public_types: Vec<String>,
    /// ... and values (with a type of the same name, for branded-string constructors).
    public_values: Vec<String>,
}

/// What a user of the package needs from one definition: its types, its constructor
/// and known-value helpers, and `parse`/`serialize`; the `decode`/`encode` functions
/// stay in the internal module.
fn public_names(d: &TDef, types: &mut Vec<String>, values: &mut Vec<String>) {
    let variants = |vs: &[TVariant], types: &mut Vec<String>| types.extend(vs.iter().map(|v| v.type_name.clone()));
    let name = match d {
        TDef::Struct { name, defaults, .. } if !defaults.is_empty() => {
            types.push(name.clone());
            values.push(format!("withDefaults{name}"));
            name
        }
        TDef::Struct { name, .. } | TDef::ShapeUnion { name, .. } | TDef::Alias { name, .. } | TDef::KindUnion { name, .. } => {
            types.push(name.clone());
            name
        }
        TDef::StringAlias { name, .. } => {
            values.push(name.clone());
            name
        }
        TDef::Envelope { name, params_ty, methods_const, .. } => {
            types.extend([params_ty.clone(), name.clone()]);
            values.push(methods_const.clone());
            name
        }
        TDef::Results { name, methods_const, .. } => {
            types.push(name.clone());
            values.extend([methods_const.clone(), format!("decode{name}"), format!("serialize{name}")]);
            return;
        }
        TDef::IntEnum { name, values_const, .. } => {
            types.push(name.clone());
            values.extend([values_const.clone(), format!("isKnown{name}")]);
            name
        }
        TDef::StringEnum { name, values_const, .. } => {
            types.extend([format!("Known{name}"), name.clone()]);
            values.extend([values_const.clone(), format!("isKnown{name}")]);
            name
        }
        TDef::TaggedUnion { name, variants: vs, open, known_const, tagless, .. } => {
            variants(vs, types);
            types.extend(tagless.iter().map(|t| t.type_name.clone()));
            types.extend([format!("Known{name}"), name.clone()]);
            values.push(known_const.clone());
            if *open {
                values.push(format!("isKnown{name}"));
            }
            name
        }
        TDef::TaggedStruct { name, variants: vs, known_const, .. } => {
            types.push(format!("{name}Common"));
            variants(vs, types);
            types.extend([format!("Known{name}"), name.clone()]);
            values.extend([known_const.clone(), format!("isKnown{name}")]);
            name
        }
    };
    values.extend([format!("parse{name}"), format!("serialize{name}")]);
}

/// Names a definition cannot have: its type, `decode<Name>` or `encode<Name>` would be
/// one of the runtime names every module imports.
const RESERVED_NAMES: &[&str] = &[
    "Boolean",
    "Bytes",
    "Int32",
    "Int64",
    "Json",
    "Number",
    "Object",
    "String",
    "Uint16",
    "Uint32",
    "Uint64",
    "Uint8",
    "Input",
    "Text",
    "Cx",
    "Decoder",
    "Encoder",
    "Writer",
    "JsonObject",
    "ObjectBuilder",
    "ParseResult",
    "UnknownVariant",
    "WithExtra",
];

/// The TypeScript view of one schema document.
pub fn view(ir: &Ir) -> Result<Module, String> {
    let mut h = Helpers::default();
    let mut skips: BTreeMap<String, String> = BTreeMap::new();
    let mut skip_const = |names: &[String]| -> String {
        let literal = format!("[{}]", names.iter().map(|n| js(n)).collect::<Vec<_>>().join(", "));
        let next = format!("SKIP_{}", skips.len());
        skips.entry(literal).or_insert(next).clone()
    };
    let names: BTreeSet<String> = ir.defs.iter().map(|d| d.name().to_owned()).collect();
    // Unions whose variants another union's variant carries (read from the same object,
    // an unknown variant of theirs marked like the outer union's own).
    let unions: BTreeSet<&str> = ir.defs.iter().filter(|d| matches!(d, Def::TaggedUnion { .. } | Def::TaggedStruct { .. })).map(Def::name).collect();
    let payload_unions: BTreeSet<&str> = ir
        .defs
        .iter()
        .filter_map(|d| match d {
            Def::TaggedUnion { variants, .. } => Some(variants),
            _ => None,
        })
        .flatten()
        .filter_map(|v| v.payload.as_deref())
        .filter(|p| unions.contains(p))
        .collect();
    let shapes: BTreeSet<&str> = ir.defs.iter().filter(|d| matches!(d, Def::ShapeUnion { .. })).map(Def::name).collect();
    let payload_shapes: BTreeSet<&str> = ir
        .defs
        .iter()
        .filter_map(|d| match d {
            Def::TaggedStruct { variants, .. } => Some(variants),
            _ => None,
        })
        .flatten()
        .filter_map(|v| v.payload.as_deref())
        .filter(|p| shapes.contains(p))
        .collect();
    let mut defs = Vec::new();
    let mut variant_names = BTreeSet::new();
    // A variant's type is `Owner` + `Tag`; when that is already a definition's name
    // (upstream's `AuthMethod` variant `terminal` carries the definition
    // `AuthMethodTerminal`), it is `Owner` + `Tag` + `Variant`.
    let mut vname = |owner: &str, wire: &str| -> Result<String, String> {
        let mut n = format!("{owner}{}", wire.to_upper_camel_case());
        if names.contains(&n) {
            n.push_str("Variant");
        }
        if names.contains(&n) || !variant_names.insert(n.clone()) {
            return Err(format!("$defs/{owner}: the variant type name `{n}` for `{wire}` is already taken"));
        }
        Ok(n)
    };
    // Every definition is looked at, so one run reports every name that collides.
    let mut errors = Vec::new();
    for d in &ir.defs {
        if RESERVED_NAMES.contains(&d.name()) {
            errors.push(format!("$defs/{0}: the name collides with the TypeScript runtime (`{0}`, `decode{0}` or `encode{0}` is already imported)", d.name()));
            continue;
        }
        let one = (|| -> Result<TDef, String> {
            Ok(match d {
                Def::Struct { name, doc, fields, forbidden } => TDef::Struct {
                    forbidden: forbidden.iter().map(|f| js(f)).collect(),
                    name: name.clone(),
                    doc: jsdoc(doc, ""),
                    fields: fields.iter().enumerate().map(|(i, f)| tfield(&mut h, f, i)).collect(),
                    skip_const: skip_const(&[]),
                    defaults: fields.iter().filter_map(|f| f.default.as_ref().map(|v| (access(&f.wire), h.decoder(&f.ty), js(&v.to_string())))).collect(),
                },
                Def::StringAlias { name, doc, absolute_path, length } => {
                    TDef::StringAlias { name: name.clone(), doc: jsdoc(doc, ""), absolute_path: *absolute_path, length: length.as_ref().map(crate::dynamic::length_bounds::<Ts>) }
                }
                Def::IntEnum { name, doc, ty, values, open } => TDef::IntEnum {
                    name: name.clone(),
                    doc: jsdoc(doc, ""),
                    values: values.iter().map(|v| v.value.to_string()).collect(),
                    values_const: format!("{}_VALUES", name.to_shouty_snake_case()),
                    decoder: h.decoder(ty),
                    open: *open,
                },
                Def::KindUnion { name, doc, branches, expected, integer_range } => {
                    let tys: Vec<String> = branches.iter().map(|b| if b.kind == "null" { "null".to_owned() } else { h.type_of(&b.ty) }).collect();
                    let mut out = Vec::new();
                    for b in branches {
                        let (decoder, encoder) = if b.kind == "null" { (String::new(), String::new()) } else { (h.decoder(&b.ty), h.encoder(&b.ty)) };
                        let ty = if b.kind == "null" { "null".to_owned() } else { h.type_of(&b.ty) };
                        out.push(TKind { kind: b.kind.clone(), decoder, encoder, ty, item_key: b.item_key.as_deref().map(js), min_items: b.min_items });
                    }
                    let any = branches.iter().any(|b| b.kind == "any");
                    let find = |k: &str| out.iter().find(|b| b.kind == k).map(|b| b.decoder.clone());
                    let (int, num) = (find("integer"), find("number"));
                    let range = integer_range.map(|(lo, hi)| (format!("{lo}"), format!("{hi}")));
                    TDef::KindUnion { name: name.clone(), doc: jsdoc(doc, ""), ty: tys.join(" | "), expected: expected.clone(), branches: out, int, num, range, any }
                }
                Def::Alias { name, doc, ty } => TDef::Alias { name: name.clone(), doc: jsdoc(doc, ""), ty: h.type_of(ty), decoder: h.decoder(ty), encoder: h.encoder(ty) },
                Def::StringEnum { name, doc, values, other } => TDef::StringEnum {
                    name: name.clone(),
                    doc: jsdoc(doc, ""),
                    values: values.iter().map(|v| js(&v.wire)).collect(),
                    values_const: format!("{}_VALUES", name.to_shouty_snake_case()),
                    open: other.is_some(),
                },
                Def::TaggedUnion { name, doc, tag, variants, other, tagless } => TDef::TaggedUnion {
                    tagless: ttagless(&mut vname, name, tagless.as_ref())?,
                    as_payload: payload_unions.contains(name.as_str()),
                    nested: variants.iter().any(|v| v.payload.as_deref().is_some_and(|p| unions.contains(p))),
                    no_skip: if tagless.is_some() { skip_const(&[]) } else { String::new() },
                    name: name.clone(),
                    doc: jsdoc(doc, ""),
                    tag: js(tag),
                    tag_key: key(tag),
                    tag_access: access(tag),
                    variants: tvariants(&mut vname, name, variants, &unions)?,
                    open: other.is_some(),
                    skip_const: skip_const(std::slice::from_ref(tag)),
                    known_const: format!("{}_TAGS", name.to_shouty_snake_case()),
                },
                Def::TaggedStruct { name, doc, tag, optional_tag, variants, common, other, tagless } => {
                    let unknown = UnknownTag::of(other.as_ref(), tagless.as_ref());
                    let mut reserved = vec![tag.clone()];
                    reserved.extend(common.iter().map(|f| f.wire.clone()));
                    TDef::TaggedStruct {
                        tagless: ttagless(&mut vname, name, tagless.as_ref())?,
                        unknown: unknown.name(),
                        optional_tag: optional_tag.map(|o| if o.lenient { "lenient" } else { "strict" }),
                        as_payload: payload_unions.contains(name.as_str()),
                        common_skip: if unknown == UnknownTag::Tagless { skip_const(&reserved[1..]) } else { String::new() },
                        name: name.clone(),
                        doc: jsdoc(doc, ""),
                        tag: js(tag),
                        tag_key: key(tag),
                        tag_access: access(tag),
                        variants: tvariants(&mut vname, name, variants, &unions)?,
                        common: common.iter().enumerate().map(|(i, f)| tfield(&mut h, f, i)).collect(),
                        skip_const: skip_const(&reserved),
                        known_const: format!("{}_TAGS", name.to_shouty_snake_case()),
                    }
                }
                Def::Envelope { name, doc, method_doc, params_doc, fields, methods, .. } => {
                    let params_ty = format!("{name}Params");
                    if names.contains(&params_ty) {
                        return Err(format!("$defs/{name}: the params type would be named `{params_ty}`, which is already a definition"));
                    }
                    TDef::Envelope {
                        name: name.clone(),
                        doc: jsdoc(doc, ""),
                        method_doc: jsdoc(method_doc, "  "),
                        params_doc: jsdoc(params_doc, "  "),
                        fields: fields.iter().enumerate().map(|(i, f)| tfield(&mut h, f, i)).collect(),
                        methods: tmethods(&mut h, methods),
                        methods_const: format!("{}_METHODS", name.to_shouty_snake_case()),
                        params_ty,
                    }
                }
                Def::Results { name, doc, response, methods, .. } => TDef::Results {
                    name: name.clone(),
                    doc: jsdoc(doc, ""),
                    response: response.clone(),
                    methods: tmethods(&mut h, methods),
                    methods_const: format!("{}_METHODS", name.to_shouty_snake_case()),
                },
                Def::ShapeUnion { name, doc, alternatives, fallback } => TDef::ShapeUnion {
                    fallback: fallback.is_some(),
                    as_payload: payload_shapes.contains(name.as_str()),
                    name: name.clone(),
                    doc: jsdoc(doc, ""),
                    alternatives: alternatives.iter().map(|a| (a.name.clone(), js(&a.key))).collect(),
                },
            })
        })();
        match one {
            Ok(d) => defs.push(d),
            Err(e) => errors.push(e),
        }
    }
    if !errors.is_empty() {
        return Err(errors.join("\n"));
    }
    let (mut public_types, mut public_values) = (Vec::new(), Vec::new());
    for d in &defs {
        public_names(d, &mut public_types, &mut public_values);
    }
    Ok(Module {
        public_types,
        public_values,
        defs,
        arrays: h.arrays.into_iter().map(|(n, (t, d, e))| (n, t, d, e)).collect(),
        maps: h.maps.into_iter().map(|(n, (t, d, e))| (n, t, d, e)).collect(),
        options: h.options.into_iter().map(|(lit, name)| (name, lit)).collect(),
        skips: skips.into_iter().map(|(lit, name)| (name, lit)).collect(),
    })
}
