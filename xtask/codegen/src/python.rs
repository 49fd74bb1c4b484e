//! The Python binding: turns the IR into the view the Python templates render
//! (pydantic models for the values, generated decoders and encoders for the wire).

use crate::ir::{Def, Field, Ir, Presence, Ty, UnknownTag};
use heck::{ToShoutySnakeCase, ToSnakeCase, ToUpperCamelCase};
use serde::Serialize;
use std::collections::{BTreeMap, BTreeSet};

const KEYWORDS: &[&str] = &[
    "False", "None", "True", "and", "as", "assert", "async", "await", "break", "class", "continue", "def", "del", "elif", "else", "except", "finally", "for", "from", "global", "if", "import", "in",
    "is", "lambda", "nonlocal", "not", "or", "pass", "raise", "return", "try", "while", "with", "yield", "match", "case", "type",
];

/// Attribute names pydantic's `BaseModel` already uses.
const MODEL_ATTRIBUTES: &[&str] = &["copy", "dict", "json", "schema", "construct", "validate", "fields", "parse_obj", "parse_raw", "parse_file", "from_orm", "update_forward_refs", "schema_json"];

/// A Python string literal, quoted as `ruff format` quotes it: double quotes, unless
/// the text has more double quotes than single quotes.
fn py(s: &str) -> String {
    let dq = serde_json::to_string(s).unwrap_or_default();
    if s.matches('"').count() <= s.matches('\'').count() {
        return dq;
    }
    let inner = &dq[1..dq.len() - 1];
    format!("'{}'", inner.replace("\\\"", "\"").replace('\'', "\\'"))
}

/// A compiled `pattern` as the right-hand side of a module constant, laid out as `ruff
/// format` keeps it: lists with magic trailing commas, one atom per line, and an atom
/// exploded the same way when its line would pass 120 columns.
fn pattern_constant(p: &crate::pattern::Pattern) -> String {
    let mut out = format!("Pattern(\n    {},\n    [\n", py(&p.source));
    for a in &p.atoms {
        let ranges: Vec<String> = a.ranges.iter().map(|(lo, hi)| format!("({lo}, {hi})")).collect();
        let negated = if a.negated { "True" } else { "False" };
        let max = a.max.map_or(-1, i64::from);
        let one = format!("        Atom({negated}, [{}], {}, {max}),", ranges.join(", "), a.min);
        if one.len() <= 120 {
            out.push_str(&one);
            out.push('\n');
        } else {
            out.push_str(&format!("        Atom(\n            {negated},\n            [\n"));
            for r in &ranges {
                out.push_str(&format!("                {r},\n"));
            }
            out.push_str(&format!("            ],\n            {},\n            {max},\n        ),\n", a.min));
        }
    }
    out.push_str("    ],\n)");
    out
}

fn ident(wire: &str) -> String {
    let s = wire.to_snake_case();
    let s = if s.is_empty() || s.starts_with(|c: char| c.is_ascii_digit()) { format!("f_{s}") } else { s };
    if KEYWORDS.contains(&s.as_str()) || MODEL_ATTRIBUTES.contains(&s.as_str()) || s.starts_with("model_") { format!("{s}_") } else { s }
}

fn docstring(doc: &str, indent: &str) -> Vec<String> {
    let doc = doc.trim().replace('\\', "\\\\").replace("\"\"\"", "\\\"\\\"\\\"");
    if doc.is_empty() {
        return vec![];
    }
    let lines: Vec<&str> = doc.lines().collect();
    if lines.len() == 1 {
        return vec![format!("{indent}\"\"\"{}\"\"\"", lines[0].trim_end())];
    }
    let mut out = vec![format!("{indent}\"\"\"{}", lines[0].trim_end())];
    for l in &lines[1..] {
        out.push(if l.trim().is_empty() { String::new() } else { format!("{indent}{}", l.trim_end()) });
    }
    out.push(format!("{indent}\"\"\""));
    out
}

/// One entry of a class docstring's `Attributes:` section (Google style, shown by
/// `help()` and IDEs), unescaped: `    name: text`, continuation lines indented.
fn attribute_doc(ident: &str, wire: &str, doc: &str) -> Vec<String> {
    let mut lines = doc.lines().map(str::trim).filter(|l| !l.is_empty());
    let first = lines.next().map_or_else(|| format!("The `{wire}` member."), str::to_owned);
    let mut out = vec![format!("    {ident}: {first}")];
    out.extend(lines.map(|l| format!("        {l}")));
    out
}

fn comment(doc: &str, indent: &str) -> Vec<String> {
    doc.trim().lines().map(|l| if l.trim().is_empty() { format!("{indent}#") } else { format!("{indent}# {}", l.trim_end()) }).collect()
}

/// Python's spelling of what the dynamic views decide alike (`crate::dynamic`).
pub struct Py;

type Helpers = crate::dynamic::Helpers<Py>;

impl crate::dynamic::Dialect for Py {
    fn type_of(t: &Ty) -> String {
        match t {
            Ty::Ref { name } => name.clone(),
            Ty::String => "str".into(),
            Ty::Bool => "bool".into(),
            Ty::Integer { .. } => "int".into(),
            Ty::Number { .. } => "float".into(),
            Ty::Bytes => "bytes".into(),
            Ty::Object => "dict[str, JsonValue]".into(),
            Ty::Json => "JsonValue".into(),
            Ty::Array { items } => format!("list[{}]", Self::type_of(items)),
            Ty::Map { values } => format!("dict[str, {}]", Self::type_of(values)),
        }
    }

    fn codec(kind: &str, base: &str) -> String {
        format!("{kind}_{base}")
    }

    fn option(name: &str, value: &str) -> String {
        format!("{name}={value}")
    }

    const TRUE: &'static str = "True";
    const INFINITY: &'static str = "float(\"inf\")";
    const NEG_INFINITY: &'static str = "-float(\"inf\")";

    fn number(v: f64) -> String {
        format!("{v:?}")
    }

    fn pair(lo: &str, hi: &str) -> String {
        format!("({lo}, {hi})")
    }

    fn pattern(p: &crate::pattern::Pattern, patterns: &mut BTreeMap<String, String>) -> String {
        // A named module constant, one per distinct pattern.
        let text = pattern_constant(p);
        if let Some((name, _)) = patterns.iter().find(|(_, t)| **t == text) {
            return name.clone();
        }
        let name = format!("_PATTERN_{}", patterns.len());
        patterns.insert(name.clone(), text);
        name
    }

    fn options(parts: &[String]) -> (String, &'static str) {
        (format!("MemberOptions({})", parts.join(", ")), "_OPTIONS_")
    }
}

#[derive(Serialize)]
struct PField {
    comment: Vec<String>,
    /// The member's description as a Python string literal (`Field(description=...)`).
    description: Option<String>,
    /// The description for the class docstring's `Attributes:` section, one line per entry.
    attribute_doc: Vec<String>,
    /// Bytes members are `strict` in pydantic: building a model takes `bytes`, never a
    /// `str` that would silently become its UTF-8 (wire values go through the decoders).
    strict: bool,
    /// The declaration up to `Field(` and its arguments (laid out by `layout.jinja`).
    head: String,
    args: Vec<String>,
    ident: String,
    wire: String,
    annotation: String,
    default: Option<String>,
    local: String,
    decode: String,
    encode: String,
    required: bool,
    absent: String,
}

fn pfield(h: &mut Helpers, owner: &str, f: &Field, i: usize, seen: &mut BTreeSet<String>) -> Result<PField, String> {
    let id = ident(&f.wire);
    if !seen.insert(id.clone()) {
        return Err(format!("$defs/{owner}: members map to the same Python attribute `{id}` (one of them is `{}`)", f.wire));
    }
    let ty = h.type_of(&f.ty);
    let dec = h.decoder(&f.ty);
    let enc = h.encoder(&f.ty);
    let opts = h.options(f).map(|o| format!(", {o}")).unwrap_or_default();
    let (helper, put, annotation, default, absent) = match f.presence {
        Presence::Req => ("required", "put", ty.clone(), None, "_ABSENT".to_owned()),
        Presence::Opt => ("optional", "put_optional", format!("{ty} | None"), Some("None".to_owned()), "None".to_owned()),
        Presence::Maybe => ("maybe", "put_optional", format!("{ty} | None"), Some("None".to_owned()), "None".to_owned()),
        Presence::Patch => ("patch", "put_patch", format!("{ty} | MISSING | None"), Some("MISSING".to_owned()), "MISSING".to_owned()),
    };
    let doc = f.doc.trim();
    let description = (!doc.is_empty()).then(|| py(&doc.split_whitespace().collect::<Vec<_>>().join(" ")));
    let mut args: Vec<String> = default.iter().map(|d| format!("default={d}")).collect();
    args.push(format!("alias={}", py(&f.wire)));
    if matches!(f.ty, Ty::Bytes) {
        args.push("strict=True".into());
    }
    if let Some(d) = &description {
        args.push(format!("description={d}"));
    }
    Ok(PField {
        head: format!("{id}: {annotation} = Field("),
        args,
        comment: comment(&f.doc, "    "),
        description,
        attribute_doc: attribute_doc(&id, &f.wire, doc),
        strict: matches!(f.ty, Ty::Bytes),
        ident: id.clone(),
        wire: py(&f.wire),
        annotation,
        default,
        local: format!("m{i}"),
        decode: format!("cx.{helper}(k, x, {dec}{opts})"),
        encode: format!("w.{put}({}, v.{id}, {enc})", py(&f.wire)),
        required: f.presence == Presence::Req,
        absent,
    })
}

#[derive(Serialize)]
struct PVariant {
    /// The union member: `Annotated[<class>, Tag(<wire>)]`.
    member: String,
    doc: Vec<String>,
    class_name: String,
    wire: String,
    payload: Option<String>,
    /// The payload is a tagged union: one class per inner variant, and `class_name` is
    /// their union's alias.
    nested: Option<PNestedUnion>,
    /// A tagged object's payload is a shape union: one class per alternative, and
    /// `class_name` is their union's alias.
    alternatives: Vec<PAlt>,
    /// The payload is a tagged object: `class_name` is its classes' alias.
    carried: Option<PCarried>,
}

/// One class of a tagged object's variant whose payload is a shape union: the tag, the
/// alternative's members and the common members.
#[derive(Serialize)]
struct PAlt {
    class_name: String,
    doc: Vec<String>,
    /// The alternative's object, and the member that selects it (a literal).
    payload: String,
    key: String,
}

/// A union variant that carries a tagged object (upstream v2 `StateUpdate`'s `idle`, an
/// `IdleStateUpdate`): a subclass of each of the tagged object's classes adding the
/// union's tag (under a variant that carries this union, both tags), a class for a tag
/// the tagged object does not know, and their alias. Decoding reads the tagged object
/// (skipping the union's tags) and rebuilds its value as the matching class.
#[derive(Serialize)]
struct PCarried {
    /// The tagged object, its tag (a literal) and that tag's attribute.
    inner: String,
    tag: String,
    tag_attr: String,
    /// The alias of the classes, and its docstring (at module level).
    alias: String,
    doc: Vec<String>,
    classes: Vec<PCarriedClass>,
    /// The class for a tag the tagged object does not know (when it keeps those).
    other: Option<PCarriedClass>,
    /// The literal members every class adds: (attribute, value, wire name), as literals.
    literals: Vec<(String, String, String)>,
    /// `{"attr": value, ...}` of those literals, for the decoder.
    literal_values: String,
    /// The members the tagged object's decoder skips (the union's tags).
    skip_const: String,
    /// The alias's discriminator arguments, and its known-tags constant and items.
    discriminator: Vec<String>,
    tags_const: String,
    tags: Vec<String>,
}

/// One class of a [`PCarried`]: the class, the tagged object's class it extends, and its
/// union member.
#[derive(Serialize)]
struct PCarriedClass {
    class_name: String,
    base: String,
    member: String,
    doc: Vec<String>,
}

/// The inner union of a variant whose payload is a tagged union.
#[derive(Serialize)]
struct PNestedUnion {
    /// The inner tag (a literal) and its attribute.
    tag: String,
    tag_attr: String,
    /// The inner union's name, for `unknown_tag` messages, and its known-tags constant.
    name: String,
    known_const: String,
    /// The constant for this variant's discriminator (the inner tags), and its items.
    tags_const: String,
    tags: Vec<String>,
    open: bool,
    /// The members a payload skips: both tags.
    skip_const: String,
    classes: Vec<PNested>,
    /// The alias's docstring (at module level).
    doc: Vec<String>,
}

/// One class of a variant whose payload is a tagged union: outer tag, inner tag and the
/// inner variant's payload members (or, for the inner catch-all, the inner tag as a string).
#[derive(Serialize)]
struct PNested {
    class_name: String,
    member: String,
    doc: Vec<String>,
    /// The inner tag value (a literal); `None` for the inner catch-all.
    wire: Option<String>,
    payload: Option<String>,
    /// The inner variant carries a tagged object: `class_name` is its classes' alias.
    carried: Option<PCarried>,
}

fn pvariant(doc: Vec<String>, class_name: String, wire: String, payload: Option<String>) -> PVariant {
    PVariant { member: format!("Annotated[{class_name}, Tag({wire})]"), doc, class_name, wire, payload, nested: None, alternatives: vec![], carried: None }
}

/// What [`carried`] needs besides the names: the variant's alias (its class name) and
/// doc, and the union tags above it as (tag, attribute, value).
struct CarriedAt<'a> {
    alias: String,
    doc: String,
    tags: Vec<(&'a str, String, &'a str)>,
}

/// The [`PCarried`] of a union variant that carries the tagged object `inner`.
fn carried(
    ir: &Ir,
    names: &BTreeSet<String>,
    inner: &str,
    at: CarriedAt<'_>,
    vname: &mut dyn FnMut(&str, &str) -> Result<String, String>,
    skip_const: &mut dyn FnMut(&[String]) -> String,
) -> Result<PCarried, String> {
    let Some(Def::TaggedStruct { tag, variants, other, tagless, optional_tag, .. }) = ir.defs.iter().find(|d| d.name() == inner) else {
        return Err(format!("$defs/{inner}: not a tagged object"));
    };
    let unknown = UnknownTag::of(other.as_ref(), tagless.as_ref());
    let literals: Vec<(String, String, String)> = at.tags.iter().map(|(t, attr, value)| (attr.clone(), py(value), py(t))).collect();
    let literal_values = format!("{{{}}}", literals.iter().map(|(a, v, _)| format!("\"{a}\": {v}")).collect::<Vec<_>>().join(", "));
    let context = at.tags.iter().map(|(t, _, v)| format!("``{t}: {v}``")).collect::<Vec<_>>().join(", ");
    let mut classes = Vec::new();
    for (wire, base) in tagged_object_classes(ir, names, inner) {
        let (title, member) = match &wire {
            Some(w) => (w.clone(), format!("Tag({})", py(w))),
            None => (tagless.as_ref().map_or_else(String::new, |t| t.title.clone()), "Tag(TAGLESS_TAG)".to_owned()),
        };
        let class_name = vname(&at.alias, &title)?;
        let text = format!("A ``{base}`` under {context}.");
        classes.push(PCarriedClass { member: format!("Annotated[{class_name}, {member}]"), class_name, base, doc: docstring(&text, "    ") });
    }
    let other = if unknown == UnknownTag::Keep {
        let class_name = vname(&at.alias, other.as_ref().map_or("other", |o| o.title.as_str()))?;
        let text = format!("A ``{inner}`` whose ``{tag}`` this version does not know, under {context}: every other member is kept as it came.");
        Some(PCarriedClass { member: format!("Annotated[{class_name}, Tag(UNKNOWN_TAG)]"), class_name, base: "WireModel".into(), doc: docstring(&text, "    ") })
    } else {
        None
    };
    let mut skip: Vec<String> = at.tags.iter().map(|(t, _, _)| (*t).to_owned()).collect();
    skip.dedup();
    let tags_const = format!("{}_TAGS", at.alias.to_shouty_snake_case());
    let mut discriminator = vec![py(tag), format!("\"{}\"", ident(tag)), tags_const.clone(), format!("open_union={}", if unknown == UnknownTag::Keep { "True" } else { "False" })];
    if tagless.is_some() {
        discriminator.push("tagless=True".into());
    }
    if let Some(o) = optional_tag {
        discriminator.push(if o.lenient { "optional_tag=\"lenient\"".into() } else { "optional_tag=\"strict\"".into() });
    }
    Ok(PCarried {
        inner: inner.to_owned(),
        tag: py(tag),
        tag_attr: ident(tag),
        doc: docstring(&if at.doc.trim().is_empty() { format!("A ``{inner}`` under {context}.") } else { at.doc.clone() }, ""),
        alias: at.alias,
        classes,
        other,
        literals,
        literal_values,
        skip_const: skip_const(&skip),
        discriminator,
        tags_const,
        tags: variants.iter().map(|v| py(&v.wire)).collect(),
    })
}

/// The class names a tagged object's view gives its variants (as `vname` does), by tag
/// value (`None`: the variant without a tag).
fn tagged_object_classes(ir: &Ir, names: &BTreeSet<String>, inner: &str) -> Vec<(Option<String>, String)> {
    let class = |wire: &str| {
        let n = format!("{inner}{}", wire.to_upper_camel_case());
        if names.contains(&n) { format!("{n}Variant") } else { n }
    };
    match ir.defs.iter().find(|d| d.name() == inner) {
        Some(Def::TaggedStruct { variants, tagless, .. }) => {
            let mut out: Vec<(Option<String>, String)> = variants.iter().map(|v| (Some(v.wire.clone()), class(&v.wire))).collect();
            out.extend(tagless.iter().map(|t| (None, class(&t.title))));
            out
        }
        _ => vec![],
    }
}

/// An `if`/`elif` arm of a union's encoder: the classes it tests and what it writes.
#[derive(Serialize)]
struct PArm {
    test: String,
    body: Vec<String>,
}

/// Adjacent encoder arms with the same body become one `isinstance` test of a tuple
/// (ruff's SIM114 asks for it, and it reads better).
fn merge_arms(arms: Vec<PArm>) -> Vec<PArm> {
    let classes = |t: &str| t.trim_start_matches('(').trim_end_matches(')').to_owned();
    let mut out: Vec<PArm> = Vec::new();
    for arm in arms {
        match out.last_mut() {
            Some(last) if last.body == arm.body => last.test = format!("({}, {})", classes(&last.test), classes(&arm.test)),
            _ => out.push(arm),
        }
    }
    out
}

#[derive(Serialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
enum PDef {
    Struct {
        name: String,
        doc: Vec<String>,
        fields: Vec<PField>,
        snake: String,
        value_entries: Vec<String>,
        defaults: Vec<(String, String, String)>,
        forbidden: Vec<String>,
    },
    StringAlias {
        name: String,
        doc: Vec<String>,
        absolute_path: bool,
        snake: String,
        length: Option<(String, String)>,
    },
    StringEnum {
        name: String,
        doc: Vec<String>,
        values: Vec<String>,
        values_const: String,
        open: bool,
        snake: String,
    },
    TaggedUnion {
        name: String,
        doc: Vec<String>,
        tag: String,
        tag_attr: String,
        variants: Vec<PVariant>,
        open: bool,
        skip_const: String,
        known_const: String,
        snake: String,
        /// The variant without a tag (its union member is tagged `TAGLESS_TAG`), and the
        /// empty skip set its members are read with.
        tagless: Option<Box<PVariant>>,
        no_skip: String,
        /// The encoder's arms after the tag, one per payload type or nested class.
        arms: Vec<PArm>,
    },
    TaggedStruct {
        name: String,
        doc: Vec<String>,
        tag: String,
        /// An optional tag (`null` is absent): `lenient` or `strict` about a non-string one.
        optional_tag: Option<&'static str>,
        tag_attr: String,
        variants: Vec<PVariant>,
        common: Vec<PField>,
        skip_const: String,
        known_const: String,
        snake: String,
        /// The encoder's arms after the tag, one per payload type or alternative class.
        arms: Vec<PArm>,
        /// The variant without a tag.
        tagless: Option<Box<PVariant>>,
        /// What an unknown tag does ([`UnknownTag::name`]): `keep` it whole, go to the
        /// variant without a tag (`tagless`, its members read skipping `common_skip`), or
        /// `reject` it.
        unknown: &'static str,
        common_skip: String,
        /// A union's variant carries it: `decode_<name>_members` (skipping the union's
        /// tags) and `encode_<name>_known` are written too.
        carried: bool,
    },
    ShapeUnion {
        name: String,
        doc: Vec<String>,
        alternatives: Vec<(String, String)>,
        snake: String,
        fallback: bool,
    },
    Alias {
        name: String,
        doc: Vec<String>,
        ty: String,
        decoder: String,
        encoder: String,
        snake: String,
    },
    IntEnum {
        name: String,
        doc: Vec<String>,
        values: Vec<String>,
        values_const: String,
        decoder: String,
        open: bool,
        snake: String,
    },
    KindUnion {
        name: String,
        doc: Vec<String>,
        ty: String,
        expected: String,
        branches: Vec<PKind>,
        int: Option<String>,
        num: Option<String>,
        range: Option<(String, String)>,
        snake: String,
        any: bool,
    },
    /// A request or notification: the model's members (the other ones, `method`,
    /// `params`), the params alias, the methods.
    Envelope {
        name: String,
        doc: Vec<String>,
        fields: Vec<PField>,
        others: Vec<PField>,
        methods: Vec<PMethod>,
        methods_const: String,
        params_ty: String,
        params_union: String,
        value_entries: Vec<String>,
        snake: String,
    },
    /// A response's method table (`decode_<name>(method, value)`).
    Results {
        name: String,
        doc: Vec<String>,
        response: String,
        methods: Vec<PMethod>,
        methods_const: String,
        union: String,
        snake: String,
    },
}

/// One method of an envelope's params or a response's results: its name, type and codec.
#[derive(Serialize)]
struct PMethod {
    method: String,
    ty: String,
    decoder: String,
    encoder: String,
}

fn pmethods(h: &mut Helpers, methods: &[crate::ir::Method]) -> Vec<PMethod> {
    methods
        .iter()
        .map(|m| {
            let t = Ty::Ref { name: m.payload.clone() };
            PMethod { method: py(&m.method), ty: h.type_of(&t), decoder: h.decoder(&t), encoder: h.encoder(&t) }
        })
        .collect()
}

/// A type alias's right-hand side laid out as `ruff format` keeps it: on the line when
/// it fits, else in parentheses (on one line, or one `|` operand per line).
fn union_rhs(head: &str, members: &[String]) -> String {
    let one = members.join(" | ");
    if head.len() + one.len() <= 120 {
        one
    } else if one.len() + 4 <= 120 {
        format!("(\n    {one}\n)")
    } else {
        format!("(\n    {}\n)", members.join("\n    | "))
    }
}

/// A branch of a union decided by JSON kind: its kind, decoder and encoder.
#[derive(Serialize)]
struct PKind {
    kind: String,
    decoder: String,
    encoder: String,
    /// One of several array branches: the member its items require (a literal), and
    /// the items' class.
    item_key: Option<String>,
    item: String,
    /// An array branch's `minItems`.
    min_items: Option<u64>,
}

#[derive(Serialize)]
pub struct Module {
    /// The module's `__all__`: its types, variant classes and public functions (not
    /// the codec internals `decode_*`/`encode_*`), in isort order.
    public: Vec<String>,
    /// `Class: decode_Name` for `register_decoders`: each model class and its wire decoder.
    registrations: Vec<String>,
    defs: Vec<PDef>,
    arrays: Vec<(String, String, String, String)>,
    maps: Vec<(String, String, String, String)>,
    options: Vec<(String, String)>,
    patterns: Vec<(String, String)>,
    skips: Vec<(String, String)>,
    names: Vec<String>,
    decoders: Vec<String>,
    encoders: Vec<String>,
    model_imports: Vec<String>,
    uses_path: bool,
    uses_unions: bool,
    uses_open_unions: bool,
}

/// The distribution's README (with a header) and licence (verbatim), from
/// `templates/python/`.
pub fn package_files(prefix: &str) -> Result<Vec<(String, String)>, String> {
    let dir = crate::root().join("templates/python");
    let read = |name: &str| std::fs::read_to_string(dir.join(name)).map_err(|e| format!("templates/python/{name}: {e}"));
    Ok(vec![
        (format!("{prefix}/README.md"), format!("<!-- @generated by cargo xtask gen from templates/python/README.md; do not edit -->\n\n{}", read("README.md")?)),
        (format!("{prefix}/LICENSE"), read("LICENSE")?),
    ])
}

/// The Python view of one schema document.
pub fn view(ir: &Ir) -> Result<Module, String> {
    let mut h = Helpers::default();
    let mut skips: BTreeMap<String, String> = BTreeMap::new();
    let mut skip_const = |names: &[String]| -> String {
        let literal = format!("frozenset(({}{}))", names.iter().map(|n| py(n)).collect::<Vec<_>>().join(", "), if names.len() == 1 { "," } else { "" });
        let next = format!("_SKIP_{}", skips.len());
        skips.entry(literal).or_insert(next).clone()
    };
    let names: BTreeSet<String> = ir.defs.iter().map(|d| d.name().to_owned()).collect();
    let mut taken = BTreeSet::new();
    // A variant's class is `Owner` + `Tag`; when that is already a definition's name
    // (upstream's `AuthMethod` variant `terminal` carries the definition
    // `AuthMethodTerminal`), it is `Owner` + `Tag` + `Variant`.
    let mut vname = |owner: &str, wire: &str| -> Result<String, String> {
        let mut n = format!("{owner}{}", wire.to_upper_camel_case());
        if names.contains(&n) {
            n.push_str("Variant");
        }
        if names.contains(&n) || !taken.insert(n.clone()) {
            return Err(format!("$defs/{owner}: the variant class name `{n}` for `{wire}` is already taken"));
        }
        Ok(n)
    };
    let mut defs = Vec::new();
    // Every definition is looked at, so one run reports every name that collides.
    let mut errors = Vec::new();
    for d in &ir.defs {
        let snake = d.name().to_snake_case();
        let one = (|| -> Result<PDef, String> {
            Ok(match d {
                Def::Struct { name, doc, fields, forbidden } => {
                    let mut seen = BTreeSet::new();
                    let defaults: Vec<(String, String, String)> = fields.iter().filter_map(|f| f.default.as_ref().map(|v| (ident(&f.wire), h.decoder(&f.ty), py(&v.to_string())))).collect();
                    if !defaults.is_empty() {
                        seen.insert("with_defaults".to_owned());
                        h.used.insert("decode_default".into());
                    }
                    let fields: Vec<PField> = fields.iter().enumerate().map(|(i, f)| pfield(&mut h, name, f, i, &mut seen)).collect::<Result<_, _>>()?;
                    let mut text = if doc.trim().is_empty() { format!("``{name}``.") } else { doc.trim().to_owned() };
                    if !fields.is_empty() {
                        text.push_str("\n\nAttributes:\n");
                        text.push_str(&fields.iter().flat_map(|f| f.attribute_doc.iter().cloned()).collect::<Vec<_>>().join("\n"));
                    }
                    let value_entries = fields.iter().map(|f| format!("\"{}\": {}", f.ident, f.local)).collect();
                    PDef::Struct { name: name.clone(), doc: docstring(&text, "    "), fields, snake, value_entries, defaults, forbidden: forbidden.iter().map(|f| py(f)).collect() }
                }
                Def::StringAlias { name, doc, absolute_path, length } => {
                    PDef::StringAlias { name: name.clone(), doc: docstring(doc, ""), absolute_path: *absolute_path, snake, length: length.as_ref().map(crate::dynamic::length_bounds::<Py>) }
                }
                Def::IntEnum { name, doc, ty, values, open } => {
                    h.used.insert("encode_number".into());
                    PDef::IntEnum {
                        name: name.clone(),
                        doc: docstring(doc, ""),
                        values: values.iter().map(|v| v.value.to_string()).collect(),
                        values_const: format!("{}_VALUES", name.to_shouty_snake_case()),
                        decoder: h.decoder(ty),
                        open: *open,
                        snake,
                    }
                }
                Def::KindUnion { name, doc, branches, expected, integer_range } => {
                    // `None` last, as ruff (RUF036) and readers expect; the order means nothing to the type.
                    let mut tys: Vec<String> = branches.iter().filter(|b| b.kind != "null").map(|b| h.type_of(&b.ty)).collect();
                    let any = branches.iter().any(|b| b.kind == "any");
                    if any {
                        h.used.insert("decode_json".into());
                        h.used.insert("encode_json".into());
                    }
                    if branches.iter().any(|b| b.kind == "null") {
                        tys.push("None".to_owned());
                    }
                    let mut out = Vec::new();
                    for b in branches {
                        let (decoder, encoder) = if b.kind == "null" { (String::new(), String::new()) } else { (h.decoder(&b.ty), h.encoder(&b.ty)) };
                        let item = match &b.ty {
                            Ty::Array { items } if b.item_key.is_some() => h.type_of(items),
                            _ => String::new(),
                        };
                        out.push(PKind { kind: b.kind.clone(), decoder, encoder, item_key: b.item_key.as_deref().map(py), item, min_items: b.min_items });
                    }
                    let find = |k: &str| out.iter().find(|b| b.kind == k).map(|b| b.decoder.clone());
                    let (int, num) = (find("integer"), find("number"));
                    let range = integer_range.map(|(lo, hi)| (format!("{lo}"), format!("{hi}")));
                    PDef::KindUnion { name: name.clone(), doc: docstring(doc, ""), ty: tys.join(" | "), expected: expected.clone(), branches: out, int, num, range, snake, any }
                }
                Def::Alias { name, doc, ty } => PDef::Alias { name: name.clone(), doc: docstring(doc, ""), ty: h.type_of(ty), decoder: h.decoder(ty), encoder: h.encoder(ty), snake },
                Def::StringEnum { name, doc, values, other } => PDef::StringEnum {
                    name: name.clone(),
                    doc: docstring(doc, ""),
                    values: values.iter().map(|v| py(&v.wire)).collect(),
                    values_const: format!("{}_VALUES", name.to_shouty_snake_case()),
                    open: other.is_some(),
                    snake,
                },
                Def::TaggedUnion { name, doc, tag, variants, other, tagless } => {
                    let mut pvariants = Vec::new();
                    for v in variants {
                        let class_name = vname(name, &v.wire)?;
                        let mut pv = pvariant(docstring(&v.doc, "    "), class_name.clone(), py(&v.wire), v.payload.clone());
                        if let Some(Def::TaggedUnion { name: inner_name, tag: inner_tag, variants: inner_variants, other: inner_other, .. }) =
                            v.payload.as_deref().and_then(|p| ir.defs.iter().find(|d| d.name() == p))
                        {
                            let fallback = format!("The ``{}`` variant of ``{name}``: a ``{inner_name}``, read from the same object.", v.wire);
                            let mut classes = Vec::new();
                            for iv in inner_variants {
                                let c = vname(&class_name, &iv.wire)?;
                                let text = format!("The ``{}`` variant of ``{name}`` carrying the ``{}`` variant of ``{inner_name}``.", v.wire, iv.wire);
                                // An inner variant that carries a tagged object: its classes' alias.
                                let carries = iv.payload.as_deref().filter(|p| matches!(ir.defs.iter().find(|d| d.name() == *p), Some(Def::TaggedStruct { .. })));
                                let carried_classes = match carries {
                                    Some(p) => {
                                        let at = CarriedAt {
                                            alias: c.clone(),
                                            doc: text.clone(),
                                            tags: vec![(tag.as_str(), ident(tag), v.wire.as_str()), (inner_tag.as_str(), ident(inner_tag), iv.wire.as_str())],
                                        };
                                        Some(carried(ir, &names, p, at, &mut vname, &mut skip_const)?)
                                    }
                                    None => None,
                                };
                                classes.push(PNested {
                                    member: format!("Annotated[{c}, Tag({})]", py(&iv.wire)),
                                    class_name: c,
                                    doc: docstring(&text, "    "),
                                    wire: Some(py(&iv.wire)),
                                    payload: if carried_classes.is_some() { None } else { iv.payload.clone() },
                                    carried: carried_classes,
                                });
                            }
                            if let Some(o) = inner_other {
                                let c = vname(&class_name, &o.title)?;
                                let text = format!("The ``{}`` variant of ``{name}`` carrying a ``{inner_name}`` variant this version does not know.", v.wire);
                                classes.push(PNested { member: format!("Annotated[{c}, Tag(UNKNOWN_TAG)]"), class_name: c, doc: docstring(&text, "    "), wire: None, payload: None, carried: None });
                            }
                            pv.nested = Some(PNestedUnion {
                                tag: py(inner_tag),
                                tag_attr: ident(inner_tag),
                                name: inner_name.clone(),
                                known_const: format!("{}_TAGS", inner_name.to_shouty_snake_case()),
                                tags_const: format!("{}_TAGS", class_name.to_shouty_snake_case()),
                                tags: inner_variants.iter().map(|iv| py(&iv.wire)).collect(),
                                open: inner_other.is_some(),
                                skip_const: skip_const(&[tag.clone(), inner_tag.clone()]),
                                classes,
                                doc: docstring(if v.doc.trim().is_empty() { &fallback } else { &v.doc }, ""),
                            });
                        }
                        if let Some(p) = v.payload.as_deref().filter(|p| matches!(ir.defs.iter().find(|d| d.name() == *p), Some(Def::TaggedStruct { .. }))) {
                            let at = CarriedAt { alias: class_name.clone(), doc: v.doc.clone(), tags: vec![(tag.as_str(), ident(tag), v.wire.as_str())] };
                            pv.carried = Some(carried(ir, &names, p, at, &mut vname, &mut skip_const)?);
                            pv.payload = None;
                        }
                        pvariants.push(pv);
                    }
                    // The encoder: plain variants grouped by payload (in payload order), then
                    // each nested class.
                    let mut arms = payload_arms(pvariants.iter().filter(|pv| pv.nested.is_none()));
                    // A carried tagged object's classes write through its own encoder; the class of
                    // its unknown tag writes that tag (its other members are unknown ones).
                    let carried_arms = |c: &PCarried, prefix: &[String], arms: &mut Vec<PArm>| {
                        let test = if c.classes.len() == 1 { c.classes[0].class_name.clone() } else { format!("({})", c.classes.iter().map(|k| k.class_name.as_str()).collect::<Vec<_>>().join(", ")) };
                        let mut body = prefix.to_vec();
                        body.push(format!("encode_{}_known(w, v)", c.inner));
                        arms.push(PArm { test, body });
                        if let Some(o) = &c.other {
                            let mut body = prefix.to_vec();
                            body.extend([format!("w.key({})", c.tag), format!("w.string(v.{})", c.tag_attr)]);
                            arms.push(PArm { test: o.class_name.clone(), body });
                        }
                    };
                    for pv in &pvariants {
                        if let Some(c) = &pv.carried {
                            carried_arms(c, &[], &mut arms);
                        }
                    }
                    for pv in &pvariants {
                        let Some(n) = &pv.nested else { continue };
                        for c in &n.classes {
                            let prefix = vec![format!("w.key({})", n.tag), format!("w.string(v.{})", n.tag_attr)];
                            if let Some(k) = &c.carried {
                                carried_arms(k, &prefix, &mut arms);
                                continue;
                            }
                            let mut body = prefix;
                            if let Some(p) = &c.payload {
                                body.push(format!("encode_{p}_known(w, v)"));
                            }
                            arms.push(PArm { test: c.class_name.clone(), body });
                        }
                    }
                    let arms = merge_arms(arms);
                    PDef::TaggedUnion {
                        arms,
                        variants: pvariants,
                        tagless: match tagless {
                            None => None,
                            Some(t) => {
                                let class_name = vname(name, &t.title)?;
                                let doc = if t.doc.trim().is_empty() { format!("The ``{}`` variant of ``{name}``: an object without ``{tag}``.", t.title) } else { t.doc.clone() };
                                Some(Box::new(PVariant {
                                    member: format!("Annotated[{class_name}, Tag(TAGLESS_TAG)]"),
                                    doc: docstring(&doc, "    "),
                                    class_name,
                                    wire: py(&t.title),
                                    payload: Some(t.payload.clone()),
                                    nested: None,
                                    alternatives: vec![],
                                    carried: None,
                                }))
                            }
                        },
                        no_skip: "_NO_SKIP".into(),
                        name: name.clone(),
                        doc: docstring(doc, ""),
                        tag: py(tag),
                        tag_attr: ident(tag),
                        open: other.is_some(),
                        skip_const: skip_const(std::slice::from_ref(tag)),
                        known_const: format!("{}_TAGS", name.to_shouty_snake_case()),
                        snake,
                    }
                }
                Def::TaggedStruct { name, doc, tag, optional_tag, variants, common, other, tagless } => {
                    let unknown = UnknownTag::of(other.as_ref(), tagless.as_ref());
                    let mut reserved = vec![tag.clone()];
                    reserved.extend(common.iter().map(|f| f.wire.clone()));
                    let mut seen = BTreeSet::from([ident(tag)]);
                    let mut pvariants = Vec::new();
                    for v in variants {
                        let class_name = vname(name, &v.wire)?;
                        let mut pv = pvariant(docstring(&v.doc, "    "), class_name.clone(), py(&v.wire), v.payload.clone());
                        if let Some(Def::ShapeUnion { name: shape, alternatives, .. }) = v.payload.as_deref().and_then(|p| ir.defs.iter().find(|d| d.name() == p)) {
                            for a in alternatives {
                                let suffix = a.name.strip_prefix(shape.as_str()).filter(|s| !s.is_empty()).unwrap_or(&a.name);
                                let c = vname(&class_name, suffix)?;
                                let text = format!("The ``{}`` variant of ``{name}`` as a ``{}``.", v.wire, a.name);
                                pv.alternatives.push(PAlt { class_name: c, doc: docstring(&text, "    "), payload: a.name.clone(), key: py(&a.key) });
                            }
                        }
                        pvariants.push(pv);
                    }
                    let mut arms = payload_arms(pvariants.iter().filter(|pv| pv.alternatives.is_empty()));
                    for pv in &pvariants {
                        for a in &pv.alternatives {
                            arms.push(PArm { test: a.class_name.clone(), body: vec![format!("encode_{}_known(w, v)", a.payload)] });
                        }
                    }
                    let arms = merge_arms(arms);
                    let tagless = match tagless {
                        None => None,
                        Some(t) => {
                            let class_name = vname(name, &t.title)?;
                            let doc = if t.doc.trim().is_empty() { format!("The ``{}`` variant of ``{name}``: an object without ``{tag}``.", t.title) } else { t.doc.clone() };
                            Some(Box::new(PVariant {
                                member: format!("Annotated[{class_name}, Tag(TAGLESS_TAG)]"),
                                doc: docstring(&doc, "    "),
                                class_name,
                                wire: py(&t.title),
                                payload: Some(t.payload.clone()),
                                nested: None,
                                alternatives: vec![],
                                carried: None,
                            }))
                        }
                    };
                    PDef::TaggedStruct {
                        carried: ir.defs.iter().any(|d| matches!(d, Def::TaggedUnion { variants, .. } if variants.iter().any(|v| v.payload.as_deref() == Some(name.as_str())))),
                        optional_tag: optional_tag.map(|o| if o.lenient { "lenient" } else { "strict" }),
                        unknown: unknown.name(),
                        common_skip: if unknown == UnknownTag::Tagless { skip_const(&reserved[1..]) } else { String::new() },
                        tagless,
                        arms,
                        name: name.clone(),
                        doc: docstring(doc, ""),
                        tag: py(tag),
                        tag_attr: ident(tag),
                        variants: pvariants,
                        common: common.iter().enumerate().map(|(i, f)| pfield(&mut h, name, f, i, &mut seen)).collect::<Result<_, _>>()?,
                        skip_const: skip_const(&reserved),
                        known_const: format!("{}_TAGS", name.to_shouty_snake_case()),
                        snake,
                    }
                }
                Def::Envelope { name, doc, method_doc, params_doc, fields, methods, .. } => {
                    let params_ty = format!("{name}Params");
                    if names.contains(&params_ty) {
                        return Err(format!("$defs/{name}: the params alias would be named `{params_ty}`, which is already a definition"));
                    }
                    let mut seen = BTreeSet::from(["method".to_owned(), "params".to_owned()]);
                    let others: Vec<PField> = fields.iter().enumerate().map(|(i, f)| pfield(&mut h, name, f, i, &mut seen)).collect::<Result<_, _>>()?;
                    let plain = |wire: &str, doc: &str, presence: Presence, ty: Ty| Field {
                        wire: wire.into(),
                        doc: doc.into(),
                        presence,
                        ty,
                        lenient: false,
                        skip_invalid_items: false,
                        min_items: None,
                        format: None,
                        default: None,
                        pattern: None,
                        length: None,
                        null_as_empty: false,
                        annotations: crate::ir::Annotations::default(),
                    };
                    let method = pfield(&mut h, name, &plain("method", method_doc, Presence::Req, Ty::String), 0, &mut BTreeSet::new())?;
                    let params = pfield(&mut h, name, &plain("params", params_doc, Presence::Opt, Ty::Ref { name: params_ty.clone() }), 0, &mut BTreeSet::new())?;
                    for n in ["decode_string", "decode_json", "encode_string", "encode_json"] {
                        h.used.insert(n.into());
                    }
                    let methods = pmethods(&mut h, methods);
                    let mut members: Vec<String> = methods.iter().map(|m| m.ty.clone()).collect();
                    members.push("JsonValue".into());
                    let mut value_entries: Vec<String> = others.iter().map(|f| format!("\"{}\": {}", f.ident, f.local)).collect();
                    value_entries.extend(["\"method\": method".to_owned(), "\"params\": params".to_owned()]);
                    let mut text = if doc.trim().is_empty() { format!("``{name}``.") } else { doc.trim().to_owned() };
                    text.push_str("\n\nAttributes:\n");
                    text.push_str(&others.iter().chain([&method, &params]).flat_map(|f| f.attribute_doc.iter().cloned()).collect::<Vec<_>>().join("\n"));
                    PDef::Envelope {
                        name: name.clone(),
                        doc: docstring(&text, "    "),
                        params_union: union_rhs(&format!("{params_ty}: TypeAlias = "), &members),
                        fields: vec![method, params],
                        others,
                        methods,
                        methods_const: format!("{}_METHODS", name.to_shouty_snake_case()),
                        params_ty,
                        value_entries,
                        snake,
                    }
                }
                Def::Results { name, doc, response, methods, .. } => {
                    h.used.insert("decode_json".into());
                    h.used.insert("encode_json".into());
                    h.used.insert("decode_value".into());
                    let methods = pmethods(&mut h, methods);
                    let mut members: Vec<String> = methods.iter().map(|m| m.ty.clone()).collect();
                    members.push("JsonValue".into());
                    PDef::Results {
                        union: union_rhs(&format!("{name}: TypeAlias = "), &members),
                        name: name.clone(),
                        doc: comment(doc, ""),
                        response: response.clone(),
                        methods,
                        methods_const: format!("{}_METHODS", name.to_shouty_snake_case()),
                        snake,
                    }
                }
                Def::ShapeUnion { name, doc, alternatives, fallback } => {
                    if fallback.is_some() {
                        h.used.insert("decode_json".into());
                        h.used.insert("encode_json".into());
                    }
                    PDef::ShapeUnion {
                        name: name.clone(),
                        doc: docstring(doc, ""),
                        alternatives: alternatives.iter().map(|a| (a.name.clone(), py(&a.key))).collect(),
                        snake,
                        fallback: fallback.is_some(),
                    }
                }
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
    // Named strings and enums decode through these.
    for d in &ir.defs {
        match d {
            Def::StringAlias { absolute_path: true, .. } => {
                h.used.insert("decode_absolute_path".into());
                h.used.insert("encode_string".into());
            }
            Def::StringAlias { .. } | Def::StringEnum { .. } => {
                h.used.insert("decode_string".into());
                h.used.insert("encode_string".into());
            }
            _ => {}
        }
    }
    let mut decoders: Vec<String> = vec!["Cx".into()];
    if !h.options.is_empty() {
        decoders.push("MemberOptions".into());
    }
    let mut functions: Vec<String> = h.used.iter().filter(|n| n.starts_with("decode_")).cloned().collect();
    functions.extend(["decode_input".into(), "encode_text".into()]);
    // The object decoders are marked, so that an array past its warning limit skips a
    // non-object item without calling them (runtime `objects_only`; `tag_first` when the
    // first step also reads a required string tag). A shape union with a fallback takes
    // any value, so it is not marked.
    if ir.defs.iter().any(|d| {
        matches!(
            d,
            Def::Struct { .. }
                | Def::ShapeUnion { fallback: None, .. }
                | Def::Envelope { .. }
                | Def::TaggedUnion { tagless: Some(_), .. }
                | Def::TaggedStruct { tagless: Some(_), .. }
                | Def::TaggedStruct { optional_tag: Some(_), .. }
        )
    }) {
        functions.push("objects_only".into());
    }
    if ir.defs.iter().any(|d| matches!(d, Def::TaggedUnion { tagless: None, .. } | Def::TaggedStruct { tagless: None, optional_tag: None, .. })) {
        functions.push("tag_first".into());
    }
    functions.sort_by_key(|n| natural(n));
    decoders.extend(functions);
    let mut encoders: Vec<String> = h.used.iter().filter(|n| n.starts_with("encode_")).cloned().collect();
    encoders.sort_by_key(|n| natural(n));
    let patch = ir.defs.iter().any(|d| match d {
        Def::Struct { fields, .. } => fields.iter().any(|f| f.presence == Presence::Patch),
        Def::TaggedStruct { common, .. } => common.iter().any(|f| f.presence == Presence::Patch),
        _ => false,
    });
    let unknown = ir.defs.iter().any(|d| matches!(d, Def::TaggedUnion { other: Some(_), .. } | Def::TaggedStruct { .. }));
    let no_payload = ir.defs.iter().any(|d| match d {
        Def::TaggedUnion { variants, .. } | Def::TaggedStruct { variants, .. } => variants.iter().any(|v| v.payload.is_none()),
        _ => false,
    });
    let mut model_imports: Vec<String> = Vec::new();
    if patch {
        model_imports.push("MISSING".into());
    }
    if unknown {
        model_imports.push("UnknownVariant".into());
    }
    let unions = ir.defs.iter().any(|d| matches!(d, Def::TaggedUnion { .. } | Def::TaggedStruct { .. }));
    if unknown {
        model_imports.push("UNKNOWN_TAG".into());
    }
    if ir.defs.iter().any(|d| matches!(d, Def::TaggedUnion { tagless: Some(_), .. } | Def::TaggedStruct { tagless: Some(_), .. })) {
        model_imports.push("TAGLESS_TAG".into());
    }
    model_imports.sort_by_key(|n| (!n.chars().all(|c| c.is_ascii_uppercase() || c == '_'), n.clone()));
    model_imports.push("WireModel".into());
    let mut model_functions: Vec<String> = vec!["construct".into(), "register_decoders".into(), "wire_rules".into()];
    if unions {
        model_functions.push("discriminator".into());
    }
    if no_payload {
        model_functions.push("no_payload".into());
    }
    // A tag-only variant of a tagged object keeps the other members as unknown ones, and
    // so does a variant that carries a union (for the inner tag-only and unknown variants).
    let nested = defs.iter().any(|d| matches!(d, PDef::TaggedUnion { variants, .. } if variants.iter().any(|v| v.nested.is_some())));
    let carries = defs.iter().any(|d| matches!(d, PDef::TaggedStruct { carried: true, .. }));
    if nested || carries || ir.defs.iter().any(|d| matches!(d, Def::TaggedStruct { variants, .. } if variants.iter().any(|v| v.payload.is_none()))) {
        model_functions.push("members_except".into());
    }
    if unknown {
        model_functions.push("unknown_from".into());
        model_functions.push("unknown_variant".into());
    }
    model_functions.sort();
    model_imports.extend(model_functions);
    let public = public_names(&defs);
    let mut registrations = Vec::new();
    for d in &defs {
        match d {
            PDef::Struct { name, .. } | PDef::Envelope { name, .. } => registrations.push(format!("{name}: decode_{name}")),
            PDef::TaggedUnion { name, variants, tagless, .. } => {
                let carried_classes = |c: &PCarried| c.classes.iter().chain(c.other.iter()).map(|k| format!("{}: decode_{name}", k.class_name)).collect::<Vec<_>>();
                for v in variants.iter().chain(tagless.as_deref()) {
                    match (&v.nested, &v.carried) {
                        (_, Some(c)) => registrations.extend(carried_classes(c)),
                        (None, None) => registrations.push(format!("{}: decode_{name}", v.class_name)),
                        (Some(n), None) => {
                            for c in &n.classes {
                                match &c.carried {
                                    Some(k) => registrations.extend(carried_classes(k)),
                                    None => registrations.push(format!("{}: decode_{name}", c.class_name)),
                                }
                            }
                        }
                    }
                }
            }
            PDef::TaggedStruct { name, variants, tagless, .. } => {
                for v in variants.iter().chain(tagless.as_deref()) {
                    if v.alternatives.is_empty() {
                        registrations.push(format!("{}: decode_{name}", v.class_name));
                    }
                    registrations.extend(v.alternatives.iter().map(|a| format!("{}: decode_{name}", a.class_name)));
                }
            }
            _ => {}
        }
    }
    Ok(Module {
        public,
        registrations,
        uses_unions: unions,
        uses_open_unions: unknown,
        model_imports,
        uses_path: ir.defs.iter().any(|d| matches!(d, Def::StringAlias { absolute_path: true, .. })),
        decoders,
        encoders,
        defs,
        arrays: h.arrays.into_iter().map(|(n, (t, d, e))| (n, t, d, e)).collect(),
        maps: h.maps.into_iter().map(|(n, (t, d, e))| (n, t, d, e)).collect(),
        options: h.options.into_iter().map(|(lit, name)| (name, lit)).collect(),
        patterns: h.patterns.into_iter().collect(),
        skips: skips.into_iter().map(|(lit, name)| (name, lit)).collect(),
        names: ir.defs.iter().map(|d| d.name().to_owned()).collect(),
    })
}

/// The public names of a module's definitions, sorted as ruff sorts `__all__`
/// (SCREAMING_CASE, then CamelCase, then the rest; each group in natural order).
fn public_names(defs: &[PDef]) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    for d in defs {
        if let PDef::Results { name, methods_const, snake, .. } = d {
            out.extend([name.clone(), methods_const.clone(), format!("decode_{snake}"), format!("serialize_{snake}")]);
            continue;
        }
        let (name, snake) = match d {
            PDef::Envelope { name, snake, .. } | PDef::Results { name, snake, .. } => (name, snake),
            PDef::Struct { name, snake, .. }
            | PDef::StringAlias { name, snake, .. }
            | PDef::StringEnum { name, snake, .. }
            | PDef::TaggedUnion { name, snake, .. }
            | PDef::TaggedStruct { name, snake, .. }
            | PDef::ShapeUnion { name, snake, .. }
            | PDef::Alias { name, snake, .. }
            | PDef::KindUnion { name, snake, .. }
            | PDef::IntEnum { name, snake, .. } => (name, snake),
        };
        out.push(name.clone());
        out.push(format!("parse_{snake}"));
        out.push(format!("serialize_{snake}"));
        match d {
            PDef::StringAlias { absolute_path: true, .. } => out.push(format!("check_{snake}")),
            PDef::StringEnum { .. } => {
                out.push(format!("Known{name}"));
                out.push(format!("is_known_{snake}"));
            }
            PDef::IntEnum { values_const, .. } => {
                out.push(values_const.clone());
                out.push(format!("is_known_{snake}"));
            }
            PDef::TaggedUnion { variants, tagless, .. } => {
                let carried = |c: &PCarried, out: &mut Vec<String>| {
                    out.push(c.tags_const.clone());
                    out.extend(c.classes.iter().chain(c.other.iter()).map(|k| k.class_name.clone()));
                };
                for v in variants.iter().chain(tagless.as_deref()) {
                    out.push(v.class_name.clone());
                    if let Some(c) = &v.carried {
                        carried(c, &mut out);
                    }
                    if let Some(n) = &v.nested {
                        out.push(n.tags_const.clone());
                        out.extend(n.classes.iter().map(|c| c.class_name.clone()));
                        for c in &n.classes {
                            if let Some(k) = &c.carried {
                                carried(k, &mut out);
                            }
                        }
                    }
                }
            }
            PDef::TaggedStruct { variants, tagless, .. } => {
                out.extend(variants.iter().chain(tagless.as_deref()).map(|v| v.class_name.clone()));
                out.extend(variants.iter().flat_map(|v| v.alternatives.iter().map(|a| a.class_name.clone())));
                out.push(format!("{name}Variant"));
            }
            PDef::Envelope { params_ty, methods_const, .. } => out.extend([params_ty.clone(), methods_const.clone()]),
            _ => {}
        }
    }
    out.sort_by_key(|n| {
        let group = if n.len() > 1 && n.chars().all(|c| c.is_ascii_uppercase() || c.is_ascii_digit() || c == '_') {
            0
        } else if n.starts_with(|c: char| c.is_ascii_uppercase()) {
            1
        } else {
            2
        };
        (group, natural(n))
    });
    out.dedup();
    out
}

/// isort's natural order: runs of digits compare as numbers (`uint8` < `uint16`).
fn natural(s: &str) -> Vec<(String, u64)> {
    let mut out = Vec::new();
    let mut text = String::new();
    let mut digits = String::new();
    for c in s.chars() {
        if c.is_ascii_digit() {
            digits.push(c);
        } else {
            if !digits.is_empty() {
                out.push((std::mem::take(&mut text), digits.parse().unwrap_or(0)));
                digits.clear();
            }
            text.push(c);
        }
    }
    out.push((text, digits.parse().unwrap_or(0)));
    out
}

/// Leaves out of a rendered module's `from X import ...` statements (before `__all__`)
/// every name the rest of the module does not use, and a statement left with none, so
/// the package of any schema passes `ruff check` (`F401`) whatever constructs it has.
/// A name counts as used when it stands in the module below its imports as a whole
/// word; `__future__` imports are kept.
pub fn prune_imports(src: &str) -> String {
    let Some(split) = src.find("\n__all__ = [") else { return src.to_owned() };
    let (head, body) = src.split_at(split);
    let is_word = |c: char| c.is_ascii_alphanumeric() || c == '_';
    let used = |name: &str| {
        body.match_indices(name).any(|(i, _)| {
            let before = body[..i].chars().next_back();
            let after = body[i + name.len()..].chars().next();
            !before.is_some_and(is_word) && before != Some('.') && !after.is_some_and(is_word)
        })
    };
    let mut out = String::with_capacity(src.len());
    let mut lines = head.split_inclusive('\n').peekable();
    while let Some(line) = lines.next() {
        let Some(rest) = line.strip_prefix("from ").filter(|r| !r.starts_with("__future__ ")) else {
            out.push_str(line);
            continue;
        };
        let Some((module, names)) = rest.split_once(" import ") else {
            out.push_str(line);
            continue;
        };
        if names.trim_end() == "(" {
            // One name a line, to the closing parenthesis.
            let mut kept = Vec::new();
            for l in lines.by_ref() {
                if l.trim_end() == ")" {
                    break;
                }
                let name = l.trim().trim_end_matches(',');
                if used(name) {
                    kept.push(l);
                }
            }
            if !kept.is_empty() {
                out.push_str(&format!("from {module} import (\n"));
                kept.iter().for_each(|l| out.push_str(l));
                out.push_str(")\n");
            }
        } else {
            let kept: Vec<&str> = names.trim_end().split(", ").filter(|n| used(n)).collect();
            if !kept.is_empty() {
                out.push_str(&format!("from {module} import {}\n", kept.join(", ")));
            }
        }
    }
    // A statement that went may leave two blank lines together.
    while out.contains("\n\n\n") {
        out = out.replace("\n\n\n", "\n\n");
    }
    out.push_str(body);
    out
}

/// The encoder's arms of plain variants, grouped by payload (in payload order): one
/// `isinstance` test per payload, naming every class that carries it.
fn payload_arms<'a>(variants: impl Iterator<Item = &'a PVariant>) -> Vec<PArm> {
    let mut by_payload: BTreeMap<&str, Vec<&PVariant>> = BTreeMap::new();
    for pv in variants {
        if let Some(p) = &pv.payload {
            by_payload.entry(p.as_str()).or_default().push(pv);
        }
    }
    by_payload
        .iter()
        .map(|(p, group)| {
            let test = if group.len() == 1 { group[0].class_name.clone() } else { format!("({})", group.iter().map(|g| g.class_name.as_str()).collect::<Vec<_>>().join(", ")) };
            PArm { test, body: vec![format!("encode_{p}_known(w, v)")] }
        })
        .collect()
}

#[cfg(test)]
mod prune_tests {
    use super::prune_imports;

    #[test]
    fn unused_names_and_empty_statements_go() {
        let src = "from __future__ import annotations\n\nfrom typing import Any, Final, Literal\n\nfrom ._runtime.model import (\n    construct,\n    no_payload,\n)\nfrom ._runtime.path import is_absolute_path\n\n__all__ = [\n    \"X\",\n]\n\nX: Final[Any] = construct(1)\ny = obj.Literal\nz = 'no_payloads'\n";
        let out = prune_imports(src);
        assert!(out.contains("from typing import Any, Final\n"), "{out}");
        assert!(out.contains("from ._runtime.model import (\n    construct,\n)\n"), "{out}");
        assert!(!out.contains("no_payload,"), "a longer word is not a use: {out}");
        assert!(!out.contains("is_absolute_path"), "{out}");
        assert!(out.contains("from __future__ import annotations"), "{out}");
        assert!(out.ends_with("z = 'no_payloads'\n"), "{out}");
    }
}
