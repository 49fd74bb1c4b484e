//! Our emitted definitions match upstream ACP's: names, property names and order,
//! required sets, types, formats, tags and leniency annotations. Descriptions are ours,
//! and `format: byte`, `x-patch` and `x-absolute-path` are our additions (upstream's
//! overlay, `tests/upstream/acp-v2-overlay.json`, adds the last two), so those are set
//! aside.

use acp_terminal_schema::emit::{Version, schema};
use acp_terminal_schema::registry;
use serde_json::{Map, Value};

fn upstream(version: Version) -> Value {
    let file = match version {
        Version::V2 => "acp-v2-schema.json",
        Version::V1 => "acp-v1-schema.json",
    };
    let path = format!("{}/../tests/upstream/{file}", env!("CARGO_MANIFEST_DIR"));
    serde_json::from_str(&std::fs::read_to_string(&path).expect("upstream schema copy")).expect("upstream JSON")
}

/// Drops prose and our additions; keeps everything that constrains the wire.
fn normalize(v: &Value) -> Value {
    match v {
        Value::Object(o) => {
            let mut out = Map::new();
            for (k, x) in o {
                if k == "description" || k == "x-patch" || k == "x-absolute-path" || (k == "format" && x == "byte") {
                    continue;
                }
                out.insert(k.clone(), normalize(x));
            }
            Value::Object(out)
        }
        Value::Array(a) => Value::Array(a.iter().map(normalize).collect()),
        other => other.clone(),
    }
}

fn property_order(v: &Value) -> Vec<String> {
    v.get("properties").and_then(Value::as_object).map(|p| p.keys().cloned().collect()).unwrap_or_default()
}

fn defs(v: &Value) -> &Map<String, Value> {
    v["$defs"].as_object().expect("$defs")
}

/// Upstream members we keep lossless but deliberately do not model (docs/WIRE.md):
/// `TerminalUpdate.capabilities` gives the Client control of the process, outside the RFD.
const UNMODELLED: &[(&str, &str)] = &[("TerminalUpdate", "capabilities")];

fn without_unmodelled(name: &str, def: &Value) -> Value {
    let mut def = def.clone();
    for (owner, member) in UNMODELLED {
        if *owner == name {
            if let Some(p) = def.get_mut("properties").and_then(Value::as_object_mut) {
                p.shift_remove(*member);
            }
        }
    }
    def
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

fn check_version(version: Version) {
    check_committed(version);
    let ours = schema(version);
    let theirs = upstream(version);
    let ours = defs(&ours);
    let theirs = defs(&theirs);
    check_registered(version, ours);
    let names = registry::names(version);
    for name in names {
        if *name == "SessionUpdate" {
            continue; // checked on its own below: we know some of upstream's variants
        }
        let a = &ours[*name];
        let b = &without_unmodelled(name, theirs.get(*name).unwrap_or_else(|| panic!("upstream has no {name}")));
        assert_eq!(property_order(a), property_order(b), "{} {name}: property order", version.as_str());
        assert_eq!(normalize(a), normalize(b), "{} {name}: shape differs from upstream", version.as_str());
    }
}

#[test]
fn the_v2_definitions_match_upstream_shapes() {
    check_version(Version::V2);
}

#[test]
fn the_v1_definitions_are_unchanged_from_upstream() {
    check_version(Version::V1);
}

#[test]
fn a_registered_definition_missing_from_the_schema_or_an_unregistered_one_is_named() {
    let (missing, unregistered) = differences(&["A", "B", "C"], &["B", "C", "D"]);
    assert_eq!(missing, ["A"]);
    assert_eq!(unregistered, ["D"]);
    assert_eq!(differences(&["A", "B"], &["A", "B"]), (vec![], vec![]));
}

#[test]
fn v1_session_update_knows_the_two_tool_call_variants_as_upstream_shapes_them() {
    let ours = normalize(&schema(Version::V1)["$defs"]["SessionUpdate"]);
    let theirs = normalize(&upstream(Version::V1)["$defs"]["SessionUpdate"]);
    let branches = ours["anyOf"].as_array().expect("anyOf");
    let tag = |b: &Value| b["properties"]["sessionUpdate"]["const"].as_str().map(str::to_owned);
    let known: Vec<String> = branches.iter().filter_map(tag).collect();
    assert_eq!(known, ["tool_call", "tool_call_update"]);
    for b in branches.iter().filter(|b| tag(b).is_some()) {
        let same = theirs["oneOf"].as_array().expect("oneOf").iter().find(|u| tag(u) == tag(b));
        assert_eq!(Some(b), same, "v1 variant {:?} differs from upstream", tag(b));
    }
    let other = branches.last().expect("catch-all");
    assert_eq!(other["title"], "other");
    assert_eq!(other["not"]["anyOf"].as_array().map(Vec::len), Some(2), "the catch-all excludes exactly the known tags");
}

#[test]
fn session_update_knows_the_four_terminal_surface_variants_as_upstream_shapes_them() {
    let ours = schema(Version::V2);
    let theirs = upstream(Version::V2);
    let ours = normalize(&ours["$defs"]["SessionUpdate"]);
    let theirs = normalize(&theirs["$defs"]["SessionUpdate"]);
    let branches = ours["anyOf"].as_array().expect("anyOf");
    let tag = |b: &Value| b["properties"]["sessionUpdate"]["const"].as_str().map(str::to_owned);
    let known: Vec<String> = branches.iter().filter_map(tag).collect();
    assert_eq!(known, ["tool_call_content_chunk", "tool_call_update", "terminal_update", "terminal_output_chunk"]);
    for b in branches.iter().filter(|b| tag(b).is_some()) {
        let same = theirs["anyOf"].as_array().expect("anyOf").iter().find(|u| tag(u) == tag(b));
        assert_eq!(Some(b), same, "variant {:?} differs from upstream", tag(b));
    }
    let other = branches.last().expect("catch-all");
    assert_eq!(other["title"], "other");
    assert_eq!(other["not"]["anyOf"].as_array().map(Vec::len), Some(4), "the catch-all excludes exactly the known tags");
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
        ("TerminalUpdate", &["command", "cwd", "output", "exitStatus", "size", "_meta"][..]),
        ("ToolCallUpdate", &["title", "kind", "status", "content", "locations", "rawInput", "rawOutput", "_meta"][..]),
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
