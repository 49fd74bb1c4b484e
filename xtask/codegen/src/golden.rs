//! Golden tests of the generator: one small schema per construct under
//! `xtask/tests/schemas/`, with its IR (`.ir.json`) and generated Rust, TypeScript and
//! Python (`.rs`, `.ts`, `.py`) checked in
//! next to it (and, optionally, `.vectors.json`: see `construct_vectors`); `err_*.json` schemas must fail with the error in `.err`. Run with
//! `UPDATE_GOLDEN=1` to rewrite the expected files (the test then fails once so the
//! change is seen).

use crate::ir;
use crate::package::{Files, Input, Package, python_package, rust_crate, typescript_package};
use std::path::PathBuf;

fn dir() -> PathBuf {
    crate::root().join("xtask/tests/schemas")
}

fn outputs(path: &PathBuf) -> Result<(String, String, String, String), String> {
    let text = std::fs::read_to_string(path).map_err(|e| e.to_string())?;
    let schema: serde_json::Value = serde_json::from_str(&text).map_err(|e| e.to_string())?;
    let ir = ir::build(&schema).map_err(|e| e.to_string())?;
    let mut ir_text = serde_json::to_string_pretty(&ir).map_err(|e| e.to_string())?;
    ir_text.push('\n');
    let mut files = Files::default();
    let stem = path.file_stem().map(|s| s.to_string_lossy().into_owned()).unwrap_or_default();
    let inputs = [Input::new("golden", format!("xtask/tests/schemas/{stem}.json"), text, false)];
    let pkg = Package::neutral("golden-pkg", "A golden test")?;
    rust_crate(&inputs, "out", &pkg, &mut files)?;
    typescript_package(&inputs, "ts", &pkg, &mut files)?;
    python_package(&inputs, "py", &pkg, &mut files)?;
    let get = |k: &str| files.0.get(k).cloned().ok_or_else(|| format!("no {k} generated"));
    Ok((ir_text, get("out/src/golden.rs")?, get("ts/src/internal/golden.ts")?, get("py/src/golden_pkg/golden.py")?))
}

#[test]
fn every_construct_schema_matches_its_golden_ir_and_outputs() {
    let update = std::env::var_os("UPDATE_GOLDEN").is_some();
    let mut schemas: Vec<PathBuf> = std::fs::read_dir(dir())
        .expect("schemas dir")
        .flatten()
        .map(|e| e.path())
        .filter(|p| p.extension().is_some_and(|e| e == "json") && !p.to_string_lossy().ends_with(".ir.json") && !p.to_string_lossy().ends_with(".vectors.json"))
        .collect();
    schemas.sort();
    assert!(schemas.len() >= 6, "construct schemas are missing");
    let mut mismatches = Vec::new();
    for s in &schemas {
        let stem = s.file_stem().map(|x| x.to_string_lossy().into_owned()).unwrap_or_default();
        let expected: Vec<(PathBuf, String)> = if stem.starts_with("err_") {
            let e = outputs(s).err().unwrap_or_else(|| "(no error)".into());
            vec![(dir().join(format!("{stem}.err")), format!("{e}\n"))]
        } else {
            let (ir_text, rust, ts, py) = outputs(s).unwrap_or_else(|e| panic!("{stem}: {e}"));
            vec![(dir().join(format!("{stem}.ir.json")), ir_text), (dir().join(format!("{stem}.rs")), rust), (dir().join(format!("{stem}.ts")), ts), (dir().join(format!("{stem}.py")), py)]
        };
        for (path, want) in expected {
            let have = std::fs::read_to_string(&path).unwrap_or_default();
            if have != want {
                if update {
                    std::fs::write(&path, &want).expect("write golden");
                }
                mismatches.push(path.display().to_string());
            }
        }
    }
    assert!(mismatches.is_empty(), "golden files differ (rerun with UPDATE_GOLDEN=1 to rewrite, then review the diff): {mismatches:?}");
}

#[test]
fn an_unsupported_construct_names_the_definition_and_pointer() {
    let schema = serde_json::json!({ "$defs": { "Thing": { "type": "object", "properties": { "x": { "type": "string", "pattern": "^(a|b)$" } } } } });
    let e = ir::build(&schema).expect_err("a group is outside the pattern subset");
    assert_eq!((e.def.as_str(), e.pointer.as_str()), ("Thing", "/properties/x/pattern"));
    assert!(e.to_string().contains("$defs/Thing"), "{e}");
}

#[test]
fn one_run_reports_every_problem_of_a_schema_and_the_names_that_collide_in_a_language() {
    // An IR problem (a pattern with a group) and a name that only a language view sees: the variant
    // type of union `A` with tag `b` is `AB`, or `ABVariant` when `AB` is a definition's
    // name, and both are.
    let text = serde_json::json!({ "$defs": {
        "Thing": { "type": "object", "properties": { "x": { "type": "string", "pattern": "(a)" } } },
        "B": { "type": "object", "properties": {} },
        "AB": { "type": "object", "properties": {} },
        "ABVariant": { "type": "object", "properties": {} },
        "A": { "oneOf": [{ "type": "object", "properties": { "t": { "type": "string", "const": "b" } }, "required": ["t"], "allOf": [{ "$ref": "#/$defs/B" }] }] }
    } })
    .to_string();
    let input = Input::new("m", "s.json", text, false);
    let mut files = Files::default();
    let e = typescript_package(std::slice::from_ref(&input), "ts", &Package::neutral("t", "t").expect("name"), &mut files).expect_err("two problems");
    let lines: Vec<&str> = e.lines().collect();
    assert_eq!(lines[0], "s.json: 3 problems:", "{e}");
    assert!(lines[1].starts_with("  $defs/Thing at /properties/x/pattern: pattern `(a)`: a group"), "{e}");
    assert!(lines[2].starts_with("  $defs/A: the variant type name `ABVariant` for `b` is already taken"), "{e}");
    assert!(lines[3].starts_with("  $defs/A: the variant class name `ABVariant` for `b` is already taken"), "{e}");
}

/// Upstream's full schemas (`tests/upstream/`), with and without their overlays:
/// every definition generates in the three languages (issue 13), and a problem, if one
/// ever comes back, is reported with its definition.
#[test]
fn upstream_schemas_generate_every_definition() {
    for file in ["acp-v2-schema.json", "acp-v1-schema.json"] {
        let dir = crate::root().join("tests/upstream");
        let text = std::fs::read_to_string(dir.join(file)).expect("upstream copy");
        let mut overlaid: serde_json::Value = serde_json::from_str(&text).expect("upstream JSON");
        let overlay = std::fs::read_to_string(dir.join(file.replace("-schema", "-overlay"))).expect("overlay");
        crate::package::apply_overlay(&mut overlaid, &serde_json::from_str(&overlay).expect("overlay JSON")).expect("the overlay applies");
        let named: Vec<String> = overlaid["$defs"].as_object().expect("$defs").keys().cloned().collect();
        for (what, text) in [("as published", text.clone()), ("with its overlay", overlaid.to_string())] {
            let input = Input::new("m", file, text, false);
            let pkg = Package::neutral("u", "u").expect("name");
            let mut files = Files::default();
            let built = rust_crate(std::slice::from_ref(&input), "r", &pkg, &mut files)
                .and_then(|()| typescript_package(std::slice::from_ref(&input), "t", &pkg, &mut files))
                .and_then(|()| python_package(std::slice::from_ref(&input), "p", &pkg, &mut files));
            if let Err(e) = built {
                assert!(e.lines().skip(1).all(|l| l.trim_start().starts_with("$defs/")), "{file} {what}: a problem without its definition:\n{e}");
                panic!("{file} {what}: not every definition generates:\n{e}");
            }
            // Each of upstream's definitions decodes by name in every language's registry.
            for registry in ["r/src/registry.rs", "t/src/registry.ts", "p/src/u/registry.py"] {
                let body = files.0.get(registry).unwrap_or_else(|| panic!("{file} {what}: no {registry}"));
                let missing: Vec<&String> = named.iter().filter(|n| !body.contains(&format!("\"{n}\""))).collect();
                assert!(missing.is_empty(), "{file} {what}: {registry} cannot decode {missing:?}");
            }
        }
    }
}

/// `gen --schema` on a schema other than ours writes a clean package of that schema:
/// its own name everywhere, and no store, adapters or transcript.
#[test]
fn output_for_another_schema_is_a_package_of_that_schema_alone() {
    use crate::package::{FromOptions, files_from};
    let schema = dir().join("tagged_union.json");
    let named = files_from(&schema, &FromOptions { name: Some("my-proto".into()), description: Some("My \"protocol\"".into()), overlay: None, partial: false }).expect("generates");
    let default = files_from(&schema, &FromOptions::default()).expect("generates");
    for files in [&named, &default] {
        for (path, body) in &files.0 {
            for word in ["acp-terminal", "acp_terminal", "ACP v2", "TerminalStore", "Transcript", "TerminalId", "Apache", "DEFAULT_MAX_TERMINALS"] {
                assert!(!body.contains(word), "{path} mentions `{word}`");
            }
            for client in ["store.", "adapters.", "adapter_rules.", "transcript.", "LICENSE"] {
                assert!(!path.rsplit('/').next().unwrap_or_default().starts_with(client), "{path} is the terminal surface's");
            }
        }
    }
    let get = |files: &Files, k: &str| files.0.get(k).cloned().unwrap_or_else(|| panic!("no {k}"));
    assert!(get(&named, "rust/Cargo.toml").contains("name = \"my-proto\"\nversion = \"0.1.0\"\ndescription = \"My \\\"protocol\\\"\""));
    assert!(get(&named, "typescript/package.json").contains("\"name\": \"my-proto\","));
    assert!(get(&named, "python/pyproject.toml").contains("name = \"my-proto\""));
    assert!(get(&named, "python/src/my_proto/__init__.py").contains("``my_proto``: My \"protocol\""));
    assert!(get(&named, "rust/src/lib.rs").contains("use my_proto::wire;"));
    assert!(get(&named, "typescript/src/runtime/model.ts").contains("Symbol.for(\"my-proto.extra\")"));
    // By default the name is the schema's title (`Tagged unions`), kebab-cased.
    assert!(get(&default, "rust/Cargo.toml").contains("name = \"tagged-unions\""));
    assert!(default.0.contains_key("python/src/tagged_unions/tagged_union.py"));
    let bad = files_from(&schema, &FromOptions { name: Some("My_Proto".into()), description: None, overlay: None, partial: false }).err().unwrap_or_default();
    assert!(bad.contains("package name `My_Proto`: use kebab-case"), "{bad}");
    // Upstream's whole protocol too (its definitions name terminals, so only this
    // project's own identity and documents are looked for).
    let upstream = files_from(&crate::root().join("tests/upstream/acp-v1-schema.json"), &FromOptions::default()).expect("generates");
    for (path, body) in &upstream.0 {
        for word in ["acp-terminal", "acp_terminal", "TerminalStore", "TRANSCRIPT.md", "docs/", "DEFAULT_MAX_TERMINALS"] {
            assert!(!body.contains(word), "{path} mentions `{word}`");
        }
        for client in ["store.", "adapters.", "adapter_rules.", "transcript.", "LICENSE"] {
            assert!(!path.rsplit('/').next().unwrap_or_default().starts_with(client), "{path} is the terminal surface's");
        }
    }
}

#[test]
fn an_overlay_annotates_what_the_schema_has_and_names_what_it_does_not() {
    use crate::package::apply_overlay;
    use serde_json::json;
    let schema = json!({ "$defs": { "U": { "type": "object", "properties": { "a": { "type": ["string", "null"] }, "b": { "type": "string" } } } } });
    let mut s = schema.clone();
    apply_overlay(&mut s, &json!({ "$comment": "a note", "$defs": { "U": { "properties": { "a": { "x-patch": true }, "b": null } } } })).expect("applies");
    assert_eq!(s, json!({ "$defs": { "U": { "type": "object", "properties": { "a": { "type": ["string", "null"], "x-patch": true } } } } }));
    let typo = apply_overlay(&mut schema.clone(), &json!({ "$defs": { "V": { "properties": {} } } })).expect_err("no V");
    assert_eq!(typo, "overlay /$defs/V: the schema has nothing there to annotate (a misspelt name?)");
    let gone = apply_overlay(&mut schema.clone(), &json!({ "$defs": { "U": { "required": null } } })).expect_err("no required");
    assert!(gone.starts_with("overlay /$defs/U/required: `null` removes a member"), "{gone}");
    let kind = apply_overlay(&mut schema.clone(), &json!({ "$defs": { "U": { "type": { "x": 1 } } } })).expect_err("type is a string");
    assert!(kind.starts_with("overlay /$defs/U/type: an object merges into an object"), "{kind}");
}

/// Upstream's schema cannot say which members are patches or which strings are checked
/// paths; `tests/upstream/acp-v2-overlay.json` says it, and the IR follows.
#[test]
fn upstreams_overlay_marks_its_patches_and_its_path_rule() {
    let read = |f: &str| -> serde_json::Value { serde_json::from_str(&std::fs::read_to_string(crate::root().join("tests/upstream").join(f)).expect("file")).expect("JSON") };
    let field = |ir: &ir::Ir, def: &str, wire: &str| -> ir::Presence {
        ir.defs
            .iter()
            .find_map(|d| match d {
                ir::Def::Struct { name, fields, .. } if name == def => fields.iter().find(|f| f.wire == wire).map(|f| f.presence),
                _ => None,
            })
            .unwrap_or_else(|| panic!("{def}.{wire}"))
    };
    let absolute = |ir: &ir::Ir| ir.defs.iter().any(|d| matches!(d, ir::Def::StringAlias { name, absolute_path: true, .. } if name == "AbsolutePath"));
    let plain = read("acp-v2-schema.json");
    let (ir_plain, _) = ir::build_all(&plain);
    assert_eq!(field(&ir_plain, "TerminalUpdate", "command"), ir::Presence::Opt);
    assert!(!absolute(&ir_plain), "the rule is the schema's, not the name's");
    let mut marked = plain.clone();
    crate::package::apply_overlay(&mut marked, &read("acp-v2-overlay.json")).expect("the overlay applies");
    let (ir_marked, errors) = ir::build_all(&marked);
    let (_, errors_plain) = ir::build_all(&plain);
    assert_eq!(errors.len(), errors_plain.len(), "the overlay adds no problem: {:?}", errors.iter().map(ToString::to_string).collect::<Vec<_>>());
    for (def, wire) in [("TerminalUpdate", "command"), ("TerminalUpdate", "output"), ("TerminalUpdate", "_meta"), ("ToolCallUpdate", "rawInput"), ("SessionInfoUpdate", "title")] {
        assert_eq!(field(&ir_marked, def, wire), ir::Presence::Patch, "{def}.{wire}");
    }
    assert_eq!(field(&ir_marked, "TerminalUpdate", "terminalId"), ir::Presence::Req);
    assert!(absolute(&ir_marked));
    let mut v1 = read("acp-v1-schema.json");
    crate::package::apply_overlay(&mut v1, &read("acp-v1-overlay.json")).expect("the v1 overlay applies");
}

/// Upstream's `x-state` and `x-scope` (and every other `x-` annotation the generator does
/// not act on) reach the IR intact, on each definition and each union branch of the
/// crate-derived schemas and of the schema this project emits (which carries upstream's
/// where it models the definition), so a later generator can build session state from them.
#[test]
fn upstream_annotations_reach_the_ir_intact() {
    const ACTED_ON: &[&str] = &["x-method", "x-patch", "x-absolute-path", "x-deserialize-default-on-error", "x-deserialize-skip-invalid-items", "x-deserialize-default-on-null"];
    let wanted = |o: &serde_json::Map<String, serde_json::Value>| -> serde_json::Map<String, serde_json::Value> {
        o.iter().filter(|(k, _)| k.starts_with("x-") && !ACTED_ON.contains(&k.as_str())).map(|(k, v)| (k.clone(), v.clone())).collect()
    };
    let mut states = 0;
    let mut scopes = 0;
    let mut ours = 0;
    for file in ["tests/upstream/acp-v2-schema.json", "tests/upstream/acp-v2-unstable-schema.json", "tests/upstream/acp-v1-schema.json", "schema/json/v2/schema.json"] {
        let text = std::fs::read_to_string(crate::root().join(file)).expect("schema");
        let schema: serde_json::Value = serde_json::from_str(&text).expect("JSON");
        let ir = ir::build(&schema).unwrap_or_else(|e| panic!("{file}: {e}"));
        for (name, def) in schema["$defs"].as_object().expect("$defs") {
            let o = def.as_object().expect("object");
            assert_eq!(ir.annotations_of(name).to_json(), wanted(o), "{file} {name}");
            if file.starts_with("schema/") {
                ours += usize::from(o.contains_key("x-state")) + usize::from(o.contains_key("x-scope"));
            } else {
                states += usize::from(o.contains_key("x-state"));
                scopes += usize::from(o.contains_key("x-scope"));
            }
            // The branches of a tagged union or tagged object: each variant keeps its own.
            let Some(ir_def) = ir.defs.iter().find(|d| d.name() == name) else { continue };
            let (tag, variants) = match ir_def {
                ir::Def::TaggedUnion { tag, variants, .. } | ir::Def::TaggedStruct { tag, variants, .. } => (tag, variants),
                _ => continue,
            };
            for b in o.get("anyOf").or_else(|| o.get("oneOf")).and_then(serde_json::Value::as_array).into_iter().flatten() {
                let Some(value) = b.pointer(&format!("/properties/{tag}/const")).and_then(serde_json::Value::as_str) else { continue };
                let v = variants.iter().find(|v| v.wire == value).unwrap_or_else(|| panic!("{file} {name}: no variant {value}"));
                assert_eq!(v.annotations.to_json(), wanted(b.as_object().expect("branch")), "{file} {name} {value}");
                if file.starts_with("schema/") {
                    ours += usize::from(b.get("x-state").is_some());
                } else {
                    states += usize::from(b.get("x-state").is_some());
                }
            }
        }
    }
    // What the crate derives today (`cargo xtask upstream`): a floor, so a lost
    // annotation cannot pass as none.
    assert!(states >= 30 && scopes >= 6, "x-state {states}, x-scope {scopes}");
    assert!(ours >= 7, "our schema's x-state and x-scope: {ours}");
}
