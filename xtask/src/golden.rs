//! Golden tests of the generator: one small schema per construct under
//! `xtask/tests/schemas/`, with its IR (`.ir.json`) and generated Rust, TypeScript and
//! Python (`.rs`, `.ts`, `.py`) checked in
//! next to it; `err_*.json` schemas must fail with the error in `.err`. Run with
//! `UPDATE_GOLDEN=1` to rewrite the expected files (the test then fails once so the
//! change is seen).

use crate::codegen::{Files, Input, python_package, rust_crate, typescript_package};
use crate::ir;
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
    let inputs = [Input { module: "golden".into(), source: format!("xtask/tests/schemas/{stem}.json"), text }];
    rust_crate(&inputs, "out", false, &mut files)?;
    typescript_package(&inputs, "ts", false, &mut files)?;
    python_package(&inputs, "py", false, &mut files)?;
    let get = |k: &str| files.0.get(k).cloned().ok_or_else(|| format!("no {k} generated"));
    Ok((ir_text, get("out/src/golden.rs")?, get("ts/src/internal/golden.ts")?, get("py/src/acp_terminal/golden.py")?))
}

#[test]
fn every_construct_schema_matches_its_golden_ir_and_outputs() {
    let update = std::env::var_os("UPDATE_GOLDEN").is_some();
    let mut schemas: Vec<PathBuf> = std::fs::read_dir(dir()).expect("schemas dir").flatten().map(|e| e.path()).filter(|p| p.extension().is_some_and(|e| e == "json") && !p.to_string_lossy().ends_with(".ir.json")).collect();
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
            vec![
                (dir().join(format!("{stem}.ir.json")), ir_text),
                (dir().join(format!("{stem}.rs")), rust),
                (dir().join(format!("{stem}.ts")), ts),
                (dir().join(format!("{stem}.py")), py),
            ]
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
    let schema = serde_json::json!({ "$defs": { "Thing": { "type": "object", "properties": { "x": { "type": "string", "pattern": "a" } } } } });
    let e = ir::build(&schema).expect_err("pattern is outside the subset");
    assert_eq!((e.def.as_str(), e.pointer.as_str()), ("Thing", "/properties/x/pattern"));
    assert!(e.to_string().contains("$defs/Thing"), "{e}");
}
