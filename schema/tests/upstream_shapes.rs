//! Our emitted definitions against upstream ACP's, field by field: names, member sets
//! and order, types, formats, bounds, required sets, nullability, the leniency and
//! other `x-` annotations, enum values and union branches (descriptions and titles are
//! ours and left aside). Upstream is the schema the pinned published crate derives
//! (`tests/upstream/`, `cargo xtask upstream`). Every difference must be listed, with its
//! reason, in `tests/upstream/deviations.json`; a difference that is not listed fails,
//! and so does a listed one that is gone.

use acp_terminal_schema::emit::{Version, schema};
use acp_terminal_schema::registry;
use serde_json::{Map, Value};
use std::collections::BTreeMap;

fn read_json(path: &str) -> Value {
    let text = std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{path}: {e}"));
    serde_json::from_str(&text).unwrap_or_else(|e| panic!("{path}: {e}"))
}

fn upstream(version: Version) -> Value {
    let file = match version {
        Version::V2 => "acp-v2-schema.json",
        Version::V1 => "acp-v1-schema.json",
    };
    read_json(&format!("{}/../tests/upstream/{file}", env!("CARGO_MANIFEST_DIR")))
}

/// The committed emitted schema (`schema/json/<version>/schema.json`, what `cargo xtask gen` writes).
fn committed(version: Version) -> Value {
    read_json(&format!("{}/json/{}/schema.json", env!("CARGO_MANIFEST_DIR"), version.as_str()))
}

// --- the comparison ---

/// The range of an integer `format`, for comparing effective bounds (`minimum: 0` on a
/// `uint32` says nothing more than the format).
fn format_range(format: &str) -> Option<(f64, f64)> {
    Some(match format {
        "uint8" => (0.0, 255.0),
        "uint16" => (0.0, 65_535.0),
        "uint32" => (0.0, 4_294_967_295.0),
        "int32" => (-2_147_483_648.0, 2_147_483_647.0),
        "uint64" | "uint" => (0.0, 18_446_744_073_709_551_615.0),
        "int64" | "int" => (-9_223_372_036_854_775_808.0, 9_223_372_036_854_775_807.0),
        _ => return None,
    })
}

/// The key of a union branch, so branches compare by what they are, not by position:
/// the tag and its value (`sessionUpdate=terminal_update`), a string constant (`="open"`),
/// the catch-all, a plain `$ref`, a JSON kind, else the branch itself.
fn branch_key(b: &Value) -> String {
    if b.get("not").is_some() {
        return "catch-all".into();
    }
    if let Some(c) = b.get("const") {
        return format!("={c}");
    }
    if let Some(props) = b.get("properties").and_then(Value::as_object) {
        let tags: Vec<String> = props.iter().filter_map(|(k, v)| v.get("const").map(|c| format!("{k}={}", c.as_str().map_or_else(|| c.to_string(), str::to_owned)))).collect();
        if let [tag] = tags.as_slice() {
            return tag.clone();
        }
    }
    if let Some(r) = b.get("$ref").and_then(Value::as_str) {
        return format!("$ref:{}", r.trim_start_matches("#/$defs/"));
    }
    if let Some(t) = b.get("type") {
        let items = b.get("items").and_then(|i| i.get("$ref")).and_then(Value::as_str).map(|r| format!(" of {}", r.trim_start_matches("#/$defs/"))).unwrap_or_default();
        return format!("type:{}{items}", t.as_str().map_or_else(|| t.to_string(), str::to_owned));
    }
    b.to_string()
}

/// A schema in the form both sides are compared in: `{"allOf": [{"$ref"}]}` is the
/// `$ref` itself (schemars 0.8 and 1 write it differently), prose and titles go, `required`
/// and a `type` list are sets, union branches are keyed by [`branch_key`], integer bounds
/// are the effective range of format and `minimum`/`maximum`, and an object's member
/// order is a fact of its own (`properties-order`).
fn normalize(v: &Value) -> Value {
    match v {
        Value::Object(o) => {
            let mut o = o.clone();
            if let Some(Value::Array(all)) = o.get("allOf")
                && let [one] = all.as_slice()
                && let Some(r) = one.get("$ref")
            {
                let r = r.clone();
                o.shift_remove("allOf");
                o.insert("$ref".into(), r);
            }
            let mut out = Map::new();
            for (k, x) in &o {
                match k.as_str() {
                    "description" | "title" | "$comment" | "discriminator" => {}
                    "required" => {
                        let mut names: Vec<String> = x.as_array().map(|a| a.iter().filter_map(Value::as_str).map(str::to_owned).collect()).unwrap_or_default();
                        names.sort();
                        out.insert(k.clone(), names.into());
                    }
                    "type" if x.is_array() => {
                        let mut kinds: Vec<String> = x.as_array().map(|a| a.iter().filter_map(Value::as_str).map(str::to_owned).collect()).unwrap_or_default();
                        kinds.sort();
                        out.insert(k.clone(), kinds.into());
                    }
                    "anyOf" | "oneOf" => {
                        let branches: Map<String, Value> = x
                            .as_array()
                            .map(|a| {
                                a.iter()
                                    .map(|b| {
                                        let b = normalize(b);
                                        (branch_key(&b), b)
                                    })
                                    .collect()
                            })
                            .unwrap_or_default();
                        out.insert(k.clone(), Value::Object(branches));
                    }
                    "properties" => {
                        // Member names are data here, not keywords (a member may be named `title`).
                        if let Some(p) = x.as_object() {
                            out.insert("properties-order".into(), p.keys().cloned().collect::<Vec<_>>().into());
                            out.insert(k.clone(), Value::Object(p.iter().map(|(name, s)| (name.clone(), normalize(s))).collect()));
                        }
                    }
                    "minimum" | "maximum" if o.get("format").and_then(Value::as_str).and_then(format_range).is_some() => {}
                    _ => {
                        out.insert(k.clone(), normalize(x));
                    }
                }
            }
            if let Some((lo, hi)) = o.get("format").and_then(Value::as_str).and_then(format_range) {
                let min = o.get("minimum").and_then(Value::as_f64).map_or(lo, |m| m.max(lo));
                let max = o.get("maximum").and_then(Value::as_f64).map_or(hi, |m| m.min(hi));
                out.insert("minimum".into(), bound(min));
                out.insert("maximum".into(), bound(max));
            }
            Value::Object(out)
        }
        Value::Array(a) => Value::Array(a.iter().map(normalize).collect()),
        other => other.clone(),
    }
}

#[allow(clippy::cast_possible_truncation)]
fn bound(n: f64) -> Value {
    if n.fract() == 0.0 && n.abs() < 9.0e15 { Value::from(n as i64) } else { Value::from(n) }
}

/// How a member on one side only shows: a scalar as JSON, an object or array as
/// `present` (what is inside an upstream variant we do not model is not compared; a new
/// variant upstream is a new difference).
fn show_alone(v: &Value) -> String {
    if v.is_object() || v.is_array() { "present".into() } else { v.to_string() }
}

/// How a value shows in a difference: compact JSON up to 100 characters, else its kind
/// and a hash of its compact JSON (a change anywhere inside still shows); `absent`.
fn show(v: Option<&Value>) -> String {
    let Some(v) = v else { return "absent".into() };
    let text = v.to_string();
    if text.chars().count() <= 100 {
        return text;
    }
    // FNV-1a, 64 bits: stable across runs and platforms.
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for b in text.bytes() {
        h ^= u64::from(b);
        h = h.wrapping_mul(0x0100_0000_01b3);
    }
    let kind = if v.is_object() { "object" } else { "array" };
    format!("{kind} #{h:016x}")
}

/// A pointer token (RFC 6901).
fn token(k: &str) -> String {
    k.replace('~', "~0").replace('/', "~1")
}

/// Every difference between `ours` and `theirs` (normalized), as `(at, ours, upstream)`.
/// A member on one side only is one difference, however much is under it.
fn diff(ours: &Value, theirs: &Value, at: &str, out: &mut Vec<(String, String, String)>) {
    match (ours, theirs) {
        (Value::Object(a), Value::Object(b)) => {
            for (k, x) in a {
                let p = format!("{at}/{}", token(k));
                match b.get(k) {
                    Some(y) => diff(x, y, &p, out),
                    None => out.push((p, show_alone(x), show(None))),
                }
            }
            for (k, y) in b {
                if !a.contains_key(k) {
                    out.push((format!("{at}/{}", token(k)), show(None), show_alone(y)));
                }
            }
        }
        _ if ours == theirs => {}
        _ => out.push((at.to_owned(), show(Some(ours)), show(Some(theirs)))),
    }
}

/// Every difference of our emitted definitions from upstream's: `(at, ours, upstream)`,
/// `at` being `Definition/pointer` into the normalized form (a definition upstream
/// lacks is `Definition` itself).
fn differences_from_upstream(version: Version) -> Vec<(String, String, String)> {
    let ours = committed(version);
    let theirs = upstream(version);
    let mut out = Vec::new();
    for (name, def) in defs(&ours) {
        match defs(&theirs).get(name) {
            Some(up) => diff(&normalize(def), &normalize(up), &token(name), &mut out),
            None => out.push((token(name), "present".into(), "absent".into())),
        }
    }
    out
}

/// One listed difference: where, and what each side has.
struct Listed {
    at: Vec<String>,
    ours: String,
    upstream: String,
}

/// The listed deviations of `version` from `tests/upstream/deviations.json`: groups of
/// differences, each group with the reason for all of them (checked to be there).
fn listed(version: Version) -> Vec<Listed> {
    let file = read_json(&format!("{}/../tests/upstream/deviations.json", env!("CARGO_MANIFEST_DIR")));
    let groups = file[version.as_str()].as_array().unwrap_or_else(|| panic!("deviations.json: no `{}` list", version.as_str()));
    let mut out = Vec::new();
    for g in groups {
        let reason = g["reason"].as_str().unwrap_or_default();
        let differences = g["differences"].as_array().unwrap_or_else(|| panic!("deviations.json: a group without `differences`: {g}"));
        assert!(reason.trim().len() >= 20, "deviations.json: the group of {} needs a `reason` that says why (a sentence)", differences.first().map_or_else(String::new, |d| d["at"].to_string()));
        for d in differences {
            let text = |k: &str| d[k].as_str().unwrap_or_else(|| panic!("deviations.json: `{k}` of {d} must be a string")).to_owned();
            out.push(Listed { at: vec![text("at")], ours: text("ours"), upstream: text("upstream") });
        }
    }
    out
}

/// The differences `listed` does not cover, and the listed ones no difference matches.
fn unexplained(found: &[(String, String, String)], listed: &[Listed]) -> (Vec<String>, Vec<String>) {
    let mut expected: BTreeMap<(&str, &str, &str), bool> = BTreeMap::new();
    for l in listed {
        for at in &l.at {
            expected.insert((at.as_str(), l.ours.as_str(), l.upstream.as_str()), false);
        }
    }
    let mut unlisted = Vec::new();
    for (at, ours, up) in found {
        match expected.get_mut(&(at.as_str(), ours.as_str(), up.as_str())) {
            Some(seen) => *seen = true,
            None => unlisted.push(format!("        {{ \"at\": {}, \"ours\": {}, \"upstream\": {} }}", Value::from(at.as_str()), Value::from(ours.as_str()), Value::from(up.as_str()))),
        }
    }
    let gone = expected.iter().filter(|(_, seen)| !**seen).map(|((at, ours, up), _)| format!("{at}: ours {ours}, upstream {up}")).collect();
    (unlisted, gone)
}

fn check_deviations(version: Version) {
    let found = differences_from_upstream(version);
    let (unlisted, gone) = unexplained(&found, &listed(version));
    let v = version.as_str();
    assert!(
        unlisted.is_empty() && gone.is_empty(),
        "{v}: our schema (schema/json/{v}/schema.json) against upstream's (tests/upstream/acp-{v}-schema.json):\n\
         {} difference(s) not listed in tests/upstream/deviations.json (fix our type, or list it in a group with its reason):\n{}\n\
         {} listed deviation(s) no longer found (remove them from tests/upstream/deviations.json):\n  {}",
        unlisted.len(),
        unlisted.join(",\n"),
        gone.len(),
        gone.join("\n  ")
    );
}

#[test]
fn every_difference_of_the_v2_definitions_from_upstream_is_listed_with_its_reason() {
    check_deviations(Version::V2);
}

#[test]
fn every_difference_of_the_v1_definitions_from_upstream_is_listed_with_its_reason() {
    check_deviations(Version::V1);
}

#[test]
fn the_comparison_sees_an_edit_of_upstream_and_a_listed_deviation_that_is_gone() {
    // A definition edited upstream (a bound, a member, an enum value) is a difference.
    let ours = serde_json::json!({ "type": "object", "properties": { "n": { "type": "integer", "format": "uint32", "minimum": 1 } }, "required": ["n"] });
    let theirs = serde_json::json!({ "type": "object", "properties": { "n": { "type": "integer", "format": "uint32", "minimum": 0 }, "m": { "type": "string" } }, "required": ["n", "m"] });
    let mut found = Vec::new();
    diff(&normalize(&ours), &normalize(&theirs), "D", &mut found);
    let at: Vec<&str> = found.iter().map(|(a, _, _)| a.as_str()).collect();
    assert_eq!(at, ["D/properties-order", "D/properties/n/minimum", "D/properties/m", "D/required"], "{found:?}");
    // `allOf` around a `$ref`, titles, prose and member-set order are not differences.
    let a = serde_json::json!({ "properties": { "x": { "description": "a", "allOf": [{ "$ref": "#/$defs/X" }] } }, "required": ["x", "y"] });
    let b = serde_json::json!({ "properties": { "x": { "$ref": "#/$defs/X", "title": "t" } }, "required": ["y", "x"] });
    let mut none = Vec::new();
    diff(&normalize(&a), &normalize(&b), "D", &mut none);
    assert!(none.is_empty(), "{none:?}");
    // Listed but not found, and found but not listed, are both reported.
    let listed = [Listed { at: vec!["D/required".into()], ours: "[\"n\"]".into(), upstream: "[\"m\",\"n\"]".into() }, Listed { at: vec!["D/gone".into()], ours: "1".into(), upstream: "2".into() }];
    let (unlisted, gone) = unexplained(&found, &listed);
    assert_eq!(unlisted.len(), 3, "{unlisted:?}");
    assert_eq!(gone, ["D/gone: ours 1, upstream 2"]);
}

fn defs(v: &Value) -> &Map<String, Value> {
    v["$defs"].as_object().expect("$defs")
}

/// The names of `registered` missing from `emitted`, and those of `emitted` missing from
/// `registered`: both must be empty.
fn differences<'a>(registered: &[&'a str], emitted: &[&'a str]) -> (Vec<&'a str>, Vec<&'a str>) {
    let missing = registered.iter().copied().filter(|n| !emitted.contains(n)).collect();
    let unregistered = emitted.iter().copied().filter(|n| !registered.contains(n)).collect();
    (missing, unregistered)
}

/// The emitted definitions are exactly the registered ones: a declared definition the
/// schema lacks (its schema name differs from its type name, or it is inlined), or a
/// definition the schema has that nothing registered (a hand-written `JsonSchema` without
/// `register_definition!`), fails with its name.
fn check_registered(version: Version, ours: &Map<String, Value>) {
    let emitted: Vec<&str> = ours.keys().map(String::as_str).collect();
    let (missing, unregistered) = differences(registry::names(version), &emitted);
    let v = version.as_str();
    assert!(missing.is_empty(), "{v} definitions registered but not in the emitted schema: {missing:?}");
    assert!(
        unregistered.is_empty(),
        "{v} definitions in the emitted schema but not registered (declare them with a definition macro, \
         or call `register_definition!` beside a hand-written `JsonSchema`): {unregistered:?}"
    );
}

/// The registered names are the `$defs` of the committed schema (written by `cargo xtask
/// gen`): this holds the registry to the generated contract, so a registration the build
/// lost (the registry is filled at link time) fails here by name rather than shrinking the
/// emitted schema and the registry together.
fn check_committed(version: Version) {
    let path = format!("{}/json/{}/schema.json", env!("CARGO_MANIFEST_DIR"), version.as_str());
    let committed: Value = serde_json::from_str(&std::fs::read_to_string(&path).expect("committed schema")).expect("committed JSON");
    let committed: Vec<&str> = defs(&committed).keys().map(String::as_str).collect();
    let (missing, unregistered) = differences(registry::names(version), &committed);
    let v = version.as_str();
    assert!(missing.is_empty(), "{v} definitions registered but not in {path} (run `cargo xtask gen`): {missing:?}");
    assert!(unregistered.is_empty(), "{v} definitions in {path} but not registered: {unregistered:?}");
}

fn check_registry(version: Version) {
    check_committed(version);
    let ours = schema(version);
    check_registered(version, defs(&ours));
}

#[test]
fn the_v2_registry_is_the_emitted_and_committed_schema() {
    check_registry(Version::V2);
}

#[test]
fn the_v1_registry_is_the_emitted_and_committed_schema() {
    check_registry(Version::V1);
}

#[test]
fn a_registered_definition_missing_from_the_schema_or_an_unregistered_one_is_named() {
    let (missing, unregistered) = differences(&["A", "B", "C"], &["B", "C", "D"]);
    assert_eq!(missing, ["A"]);
    assert_eq!(unregistered, ["D"]);
    assert_eq!(differences(&["A", "B"], &["A", "B"]), (vec![], vec![]));
}

/// The tags our `SessionUpdate` knows, and that its catch-all excludes exactly them
/// (upstream's other variants are kept as unknown ones: deviations.json says so).
fn check_session_update_tags(version: Version, expected: &[&str]) {
    let ours = schema(version);
    let branches = ours["$defs"]["SessionUpdate"]["anyOf"].as_array().expect("anyOf");
    let tag = |b: &Value| b["properties"]["sessionUpdate"]["const"].as_str().map(str::to_owned);
    let known: Vec<String> = branches.iter().filter(|b| b.get("not").is_none()).filter_map(tag).collect();
    assert_eq!(known, expected);
    let other = branches.last().expect("catch-all");
    assert_eq!(other["title"], "other");
    let excluded: Vec<String> = other["not"]["anyOf"].as_array().expect("not.anyOf").iter().filter_map(tag).collect();
    assert_eq!(excluded, expected, "the catch-all excludes exactly the known tags");
}

#[test]
fn v1_session_update_knows_the_two_tool_call_variants() {
    check_session_update_tags(Version::V1, &["tool_call", "tool_call_update"]);
}

#[test]
fn session_update_knows_the_four_terminal_surface_variants() {
    check_session_update_tags(Version::V2, &["tool_call_content_chunk", "tool_call_update", "terminal_update", "terminal_output_chunk"]);
}

fn collect_marked(v: &Value, key: &str, path: &str, out: &mut Vec<String>) {
    if let Value::Object(o) = v {
        if o.get(key).is_some_and(|x| x == true || x == "byte") {
            out.push(path.to_owned());
        }
        for (k, x) in o {
            collect_marked(x, key, &format!("{path}/{k}"), out);
        }
    }
}

#[test]
fn x_patch_marks_exactly_the_patch_fields_of_the_two_upserts() {
    let v2 = schema(Version::V2);
    let mut found = Vec::new();
    collect_marked(&v2["$defs"], "x-patch", "", &mut found);
    let expected: Vec<String> = [
        ("TerminalUpdate", &["command", "cwd", "output", "exitStatus", "size", "capabilities", "_meta"][..]),
        ("ToolCallUpdate", &["name", "title", "kind", "status", "content", "locations", "rawInput", "rawOutput", "capabilities", "_meta"][..]),
    ]
    .iter()
    .flat_map(|(t, fields)| fields.iter().map(move |f| format!("/{t}/properties/{f}")))
    .collect();
    assert_eq!(found, expected);
    let mut v1_found = Vec::new();
    collect_marked(&schema(Version::V1), "x-patch", "", &mut v1_found);
    assert!(v1_found.is_empty(), "v1 has no patch fields: {v1_found:?}");
}

#[test]
fn the_five_base64_fields_carry_format_byte_and_content_encoding() {
    let v2 = schema(Version::V2);
    let mut found = Vec::new();
    collect_marked(&v2["$defs"], "format", "", &mut found);
    found.sort();
    assert_eq!(
        found,
        ["/AudioContent/properties/data", "/BlobResourceContents/properties/blob", "/ImageContent/properties/data", "/TerminalOutput/properties/data", "/TerminalOutputChunk/properties/data",]
    );
    for p in &found {
        let ptr = p.clone();
        let field = v2["$defs"].pointer(&ptr).expect("field");
        assert_eq!(field["contentEncoding"], "base64", "{p}");
        assert_eq!(field["type"], "string", "{p}");
    }
}

#[test]
fn every_emitted_definition_has_a_description_of_our_own() {
    for version in [Version::V2, Version::V1] {
        let ours = schema(version);
        let theirs = upstream(version);
        for (name, def) in defs(&ours) {
            let d = def["description"].as_str().unwrap_or_default();
            assert!(!d.is_empty(), "{name} has no description");
            assert_ne!(Some(d), theirs["$defs"][name]["description"].as_str(), "{name}: description copied from upstream");
        }
    }
}
