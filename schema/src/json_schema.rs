//! The `JsonSchema` side of the wire types: helpers for the definition macros, which
//! lay out the emitted schema exactly as upstream ACP's (names, property order,
//! `allOf` around described references, union catch-alls).

use crate::wire::Check;
use schemars::{Schema, SchemaGenerator};
use serde_json::{Map, Value, json};

/// Joins `///` doc lines into one description.
#[must_use]
pub fn doc(lines: &[&str]) -> String {
    let joined: Vec<&str> = lines.iter().map(|l| l.strip_prefix(' ').unwrap_or(l)).collect();
    joined.join("\n").trim().to_owned()
}

fn with_description(description: &str, rest: Value) -> Map<String, Value> {
    let mut m = Map::new();
    if !description.is_empty() {
        m.insert("description".into(), description.into());
    }
    if let Value::Object(o) = rest {
        for (k, v) in o {
            m.insert(k, v);
        }
    }
    m
}

/// A property's schema: the type's schema (a reference is wrapped in `allOf` so the
/// description can sit beside it), then the member's annotations.
#[must_use]
pub fn member(sub: Schema, description: &str, checks: &[Check]) -> Value {
    let sub = sub.to_value();
    let body = match &sub {
        Value::Object(o) if o.contains_key("$ref") => json!({ "allOf": [sub] }),
        Value::Bool(true) => json!({}),
        _ => sub,
    };
    let mut m = with_description(description, body);
    // `x-deserialize-default-on-null` (upstream's `DefaultOnNull`): the schema's type
    // leaves `null` out (the annotation says what it means: the member's default, here
    // its omission), as upstream writes it.
    if checks.iter().any(|c| matches!(c, Check::NullAsEmpty)) {
        if let Some(Value::Array(kinds)) = m.get_mut("type") {
            kinds.retain(|k| k != "null");
            if let [one] = kinds.as_slice() {
                let one = one.clone();
                m.insert("type".into(), one);
            }
        }
    }
    for c in checks {
        match *c {
            Check::Lenient => {
                m.insert("x-deserialize-default-on-error".into(), true.into());
            }
            Check::SkipItems => {
                m.insert("x-deserialize-skip-invalid-items".into(), true.into());
            }
            Check::Range(min, max) => {
                m.insert("minimum".into(), number(min));
                m.insert("maximum".into(), number(max));
            }
            Check::MinItems(n) => {
                m.insert("minItems".into(), json!(n));
            }
            Check::Format(f) => {
                m.insert("format".into(), f.into());
            }
            Check::Pattern(p) => {
                m.insert("pattern".into(), p.source.into());
            }
            Check::Length(min, max) => {
                m.insert("minLength".into(), json!(min));
                if max != usize::MAX {
                    m.insert("maxLength".into(), json!(max));
                }
            }
            Check::NullAsEmpty => {
                m.insert("x-deserialize-default-on-null".into(), true.into());
            }
        }
    }
    // `additionalProperties` of a free object goes last, as upstream writes it.
    // (Rebuilt rather than removed: `Map::remove` does not keep order under every feature set.)
    if let Some(ap) = m.get("additionalProperties").cloned() {
        m = m.into_iter().filter(|(k, _)| k != "additionalProperties").collect();
        m.insert("additionalProperties".into(), ap);
    }
    Value::Object(m)
}

#[allow(clippy::cast_possible_truncation)]
fn number(n: f64) -> Value {
    if n.fract() == 0.0 { json!(n as i64) } else { json!(n) }
}

/// One property of an object schema.
pub struct Property {
    /// Wire name.
    pub name: &'static str,
    /// The property's schema (from [`member`]).
    pub schema: Value,
    /// Whether it is in `required`.
    pub required: bool,
}

/// An object schema with properties in declaration order.
#[must_use]
pub fn object(description: &str, props: Vec<Property>, extend: Value) -> Schema {
    let mut properties = Map::new();
    let mut required = Vec::new();
    for p in props {
        if p.required {
            required.push(Value::from(p.name));
        }
        properties.insert(p.name.into(), p.schema);
    }
    let mut m = with_description(description, json!({ "type": "object", "properties": properties }));
    if !required.is_empty() {
        m.insert("required".into(), required.into());
    }
    if let Value::Object(ext) = extend {
        m.extend(ext);
    }
    Schema::from(m)
}

/// A plain string definition (IDs, paths, media types).
#[must_use]
pub fn string(description: &str) -> Schema {
    Schema::from(with_description(description, json!({ "type": "string" })))
}

/// A string enum: `anyOf` of consts plus a catch-all string (open), or `oneOf` (closed).
#[must_use]
pub fn string_enum(description: &str, values: &[(&str, String)], other: Option<(&str, &str)>) -> Schema {
    let mut branches: Vec<Value> = values.iter().map(|(v, d)| Value::Object(with_description(d, json!({ "type": "string", "const": v })))).collect();
    let key = if let Some((title, d)) = other {
        let mut m = Map::new();
        m.insert("title".into(), title.into());
        m.extend(with_description(d, json!({ "type": "string" })));
        branches.push(Value::Object(m));
        "anyOf"
    } else {
        "oneOf"
    };
    let mut m = with_description(description, json!({}));
    m.insert(key.into(), branches.into());
    Schema::from(m)
}

fn tag_only(tag: &str, value: &str) -> Value {
    json!({ "type": "object", "properties": { tag: { "type": "string", "const": value } }, "required": [tag] })
}

/// One variant of a tagged union: wire tag, description, payload reference (none
/// for a variant without payload).
pub struct Variant {
    /// The tag value.
    pub tag: &'static str,
    /// Description.
    pub description: String,
    /// `$ref` schema of the payload, if the variant has one.
    pub payload: Option<Schema>,
    /// Annotations of the branch (upstream's `x-state`), as an object (`{}` for none).
    pub extend: Value,
}

/// The branches of a tagged union (`anyOf` plus catch-all when open; `oneOf` with a
/// discriminator when closed), as a map to merge into a definition.
#[must_use]
pub fn union_branches(tag: &str, variants: Vec<Variant>, other: Option<&str>) -> Map<String, Value> {
    let mut branches = Vec::new();
    let mut known = Vec::new();
    for v in variants {
        let mut b = with_description(&v.description, tag_only(tag, v.tag));
        if let Some(p) = v.payload {
            b.insert("allOf".into(), json!([p.to_value()]));
        }
        if let Value::Object(ext) = v.extend {
            b.extend(ext);
        }
        branches.push(Value::Object(b));
        known.push(tag_only(tag, v.tag));
    }
    let mut m = Map::new();
    if let Some(d) = other {
        let mut b = Map::new();
        b.insert("title".into(), "other".into());
        b.extend(with_description(
            d,
            json!({
                "type": "object",
                "properties": { tag: with_description(d, json!({ "type": "string" })) },
                "required": [tag],
                "not": { "anyOf": known },
                "additionalProperties": true
            }),
        ));
        branches.push(Value::Object(b));
        m.insert("anyOf".into(), branches.into());
    } else {
        m.insert("oneOf".into(), branches.into());
        m.insert("discriminator".into(), json!({ "propertyName": tag }));
    }
    m
}

/// A tagged union definition.
#[must_use]
pub fn union(description: &str, tag: &str, variants: Vec<Variant>, other: Option<&str>) -> Schema {
    let mut m = with_description(description, json!({}));
    m.extend(union_branches(tag, variants, other));
    Schema::from(m)
}

/// The `$ref` schema of a payload type, or `None` for one that is inlined.
pub fn payload_ref<T: schemars::JsonSchema>(generator: &mut SchemaGenerator) -> Option<Schema> {
    if T::inline_schema() { None } else { Some(generator.subschema_for::<T>()) }
}
