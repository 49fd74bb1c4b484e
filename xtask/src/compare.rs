//! `cargo xtask compare`: this generator side by side with typify, datamodel-code-generator
//! and quicktype on upstream's full v2 and v1 schemas (`tests/upstream/`, with their
//! overlays, which only add `x-` annotations the others ignore).
//!
//! For each tool and schema: how many `$defs` entries become code, then, on v2, what
//! that code does with the probes of `tests/compare/probes.json` (each a `$defs` type, a
//! JSON text and whether correct code rejects it or writes it back as the same value).
//! The tools are pinned and installed into ignored folders under `tests/compare/`
//! (`node_modules`, `.venv`, and `target/compare` for typify's runner). The result is
//! the comparison table of docs/GENERATOR.md, between its `compare:begin`/`compare:end`
//! markers: the command fails when that table differs, and `--write` rewrites it.

use crate::{root, run};
use serde_json::{Value, json};
use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::process::Command;

const TYPIFY: &str = "typify 0.8.0";
const DATAMODEL: &str = "datamodel-code-generator 0.97.0";
const QUICKTYPE: &str = "quicktype 26.0.0";
const BEGIN: &str = "<!-- compare:begin (cargo xtask compare --write) -->";
const END: &str = "<!-- compare:end -->";
/// The document that holds the comparison table.
const TABLE_FILE: &str = "docs/GENERATOR.md";

/// What one tool made of one schema: the `$defs` names it made code for, a note when
/// it failed on the whole document, and (v2 only) one result per probe.
struct Outcome {
    defined: usize,
    note: Option<String>,
    results: Vec<Value>,
}

fn output(cmd: &mut Command) -> Result<Vec<u8>, String> {
    eprintln!("$ {}", format!("{cmd:?}").replace('"', ""));
    let out = cmd.output().map_err(|e| format!("could not start {cmd:?}: {e}"))?;
    if !out.status.success() {
        return Err(format!("{cmd:?} failed ({}):\n{}", out.status, String::from_utf8_lossy(&out.stderr).trim_end()));
    }
    Ok(out.stdout)
}

fn parse(bytes: &[u8], what: &str) -> Result<Value, String> {
    serde_json::from_slice(bytes).map_err(|e| format!("{what} printed no JSON result: {e}"))
}

const PROBES: &str = "tests/compare/probes.json";

fn load_probes() -> Result<Vec<Value>, String> {
    crate::construct_vectors::load_file(&root().join(PROBES))
}

/// What a probe script printed: `defined` (the `$defs` names with code) and `results`.
fn outcome(got: &Value) -> Outcome {
    Outcome { defined: got["defined"].as_array().map_or(0, Vec::len), note: None, results: got["results"].as_array().cloned().unwrap_or_default() }
}

fn typify(schema: &Path, work: &Path, probes: &Path, with_probes: bool) -> Result<Outcome, String> {
    let manifest = root().join("tests/compare/typify-run/Cargo.toml");
    let target = root().join("target/compare");
    let cargo = crate::cargo();
    let types = work.join("typify-types.rs");
    let build = |bin: &str, types: Option<&Path>| {
        let mut cmd = Command::new(&cargo);
        cmd.args(["build", "--release", "--locked", "--quiet", "--bin", bin, "--manifest-path"]).arg(&manifest).env("CARGO_TARGET_DIR", &target);
        match types {
            Some(t) => cmd.env("TYPIFY_TYPES", t),
            None => cmd.env_remove("TYPIFY_TYPES"),
        };
        run(&mut cmd)
    };
    build("typify-run", None)?;
    let mut cmd = Command::new(target.join("release/typify-run"));
    cmd.arg(schema);
    if with_probes {
        cmd.arg("--emit").arg(&types);
    }
    let got = parse(&output(&mut cmd)?, "typify-run")?;
    let each = got["each"].as_object().cloned().unwrap_or_default();
    let alone = each.values().filter(|v| v.is_null()).count();
    let whole = got["whole"]["failed"].as_str().map(str::to_owned);
    let mut note = whole.map(|w| format!("the whole document: {w}; each definition alone (with what it refers to): {alone} of {}", each.len()));
    let failing: Vec<String> = each.iter().filter_map(|(k, v)| v.as_str().map(|why| format!("{k} ({why})"))).collect();
    if !failing.is_empty() {
        let _ = write!(note.get_or_insert_with(String::new), "; alone it fails on {}", failing.join(", "));
    }
    let mut results = Vec::new();
    let mut defined = alone;
    if with_probes {
        if let Some(list) = got["emitted"]["defined"].as_array() {
            defined = list.len();
            build("typify-probe", Some(&types))?;
            results = parse(&output(Command::new(target.join("release/typify-probe")).arg(probes))?, "typify-probe")?.as_array().cloned().unwrap_or_default();
        } else {
            return Err(format!("typify made no code for the definitions it reads alone: {}", got["emitted"]));
        }
    }
    Ok(Outcome { defined, note, results })
}

fn datamodel(python: &Path, schema: &Path, work: &Path, probes: &Path) -> Result<Outcome, String> {
    let models = work.join("datamodel_models.py");
    let bin = python.parent().map(|p| p.join("datamodel-codegen")).ok_or("no venv")?;
    output(
        Command::new(bin).args(["--input-file-type", "jsonschema", "--output-model-type", "pydantic_v2.BaseModel", "--input"]).arg(schema).arg("--output").arg(&models).env("PYTHONWARNINGS", "ignore"),
    )?;
    let got = parse(&output(Command::new(python).arg(root().join("tests/compare/datamodel_probe.py")).arg(&models).arg(schema).arg(probes))?, "datamodel_probe.py")?;
    Ok(outcome(&got))
}

fn quicktype(schema: &Path, names: &[String], work: &Path, probes: &Path) -> Result<Outcome, String> {
    let js = work.join("quicktype.js");
    let bin = root().join("tests/compare/node_modules/.bin").join(if cfg!(windows) { "quicktype.cmd" } else { "quicktype" });
    let mut cmd = Command::new(bin);
    cmd.args(["--src-lang", "schema", "--lang", "javascript", "--out"]).arg(&js);
    for n in names {
        cmd.arg(format!("{}#/$defs/{n}", schema.display()));
    }
    output(&mut cmd)?;
    let got = parse(&output(Command::new("node").arg(root().join("tests/compare/quicktype_probe.cjs")).arg(&js).arg(schema).arg(probes))?, "quicktype_probe.cjs")?;
    Ok(outcome(&got))
}

/// This generator: the package of upstream's full schemas, the probes run in Rust,
/// TypeScript and Python, which must agree.
/// `inputs` are upstream's schemas as [`crate::upstream::inputs`] gives them: it
/// fails unless every `$defs` entry generates, so this column's counts are the totals.
fn ours(inputs: &[crate::codegen::Input], work: &Path, probes: &[Value]) -> Result<Vec<Value>, String> {
    let mut files = crate::codegen::Files::default();
    crate::upstream::package(inputs, &mut files)?;
    crate::codegen::sync(work, &files, &[], false)?;
    probe_package(&work.join("upstream"), &crate::node::tsc_path(), &crate::pyenv::python(), probes)
}

/// The probes through the package of upstream's schemas under `dir` (`rust`,
/// `typescript`, `python`), one result per probe.
///
/// # Errors
/// When the three languages differ on a probe.
fn probe_package(dir: &Path, tsc: &Path, python: &Path, probes: &[Value]) -> Result<Vec<Value>, String> {
    let by_lang = crate::construct_vectors::results_in(dir, "acp_upstream", tsc, python, probes)?;
    let mut results = Vec::new();
    for (i, p) in probes.iter().enumerate() {
        let got: Vec<(&str, &Value)> = by_lang.iter().map(|(lang, r)| (*lang, &r[i])).collect();
        if let Some(report) = crate::judge::disagreement(&got) {
            return Err(format!("probe {}: the languages differ:\n{report}", p["name"]));
        }
        results.push(match (got[0].1.get("output"), got[0].1.get("error")) {
            (Some(o), _) => json!({ "output": o }),
            (_, Some(e)) => json!({ "error": format!("{} at {}", e["kind"].as_str().unwrap_or(""), e["path"].as_str().unwrap_or("")) }),
            _ => json!({ "missing": true }),
        });
    }
    Ok(results)
}

/// The goldens step's check of the comparison's first column: every probe of
/// `tests/compare/probes.json` gives the right result through the package of upstream's
/// schemas under `dir`, the same in the three languages.
///
/// # Errors
/// Each probe this generator gets wrong.
pub fn check_ours(dir: &Path, tsc: &Path, python: &Path) -> Result<(), String> {
    let probes = load_probes()?;
    let results = probe_package(dir, tsc, python, &probes)?;
    let wrong: Vec<String> = probes.iter().zip(&results).filter(|(p, r)| !judge(p, r)).map(|(p, r)| format!("{} {} (expect {}): {r}", p["type"], p["inputText"], p["expect"])).collect();
    if wrong.is_empty() {
        eprintln!("the comparison's probes (tests/compare/probes.json): all {} right in rust, typescript and python", probes.len());
        Ok(())
    } else {
        Err(format!("the comparison's probes this generator gets wrong:\n{}", wrong.join("\n")))
    }
}

/// Whether `result` (`{"output": text}`, `{"error": why}` or `{"missing": true}`, as each
/// tool's probe script prints it) is what correct code does with `probe`: the one judge's
/// verdict (`judge.rs`) on the probe's `expect`.
fn judge(probe: &Value, result: &Value) -> bool {
    let result = match (result.get("output"), result.get("error")) {
        (Some(output), _) => json!({ "output": output }),
        (None, Some(why)) => json!({ "error": { "kind": "rejected", "path": "" }, "message": why }),
        (None, None) => json!({ "unsupported": "the tool made no code for the type" }),
    };
    crate::judge::judge(probe, &result).is_ok()
}

fn table(tools: &[(&str, [Outcome; 2])], totals: [usize; 2], probes: &[Value]) -> String {
    let mut s = String::new();
    let _ = writeln!(s, "| | {} |", tools.iter().map(|(n, _)| *n).collect::<Vec<_>>().join(" | "));
    let _ = writeln!(s, "|---|{}", "---|".repeat(tools.len()));
    for (i, (version, total)) in [("v2", totals[0]), ("v1", totals[1])].into_iter().enumerate() {
        let cells: Vec<String> = tools
            .iter()
            .map(|(_, o)| {
                let o = &o[i];
                if o.note.as_deref().is_some_and(|n| n.starts_with("the whole document")) { format!("fails on the whole document; {} alone", o.defined) } else { format!("{} of {total}", o.defined) }
            })
            .collect();
        let _ = writeln!(s, "| upstream {version}: `$defs` entries that become code | {} |", cells.join(" | "));
    }
    let mut rows: Vec<&str> = Vec::new();
    for p in probes {
        if let Some(r) = p["row"].as_str().filter(|r| !rows.contains(r)) {
            rows.push(r);
        }
    }
    for row in rows {
        let idx: Vec<usize> = (0..probes.len()).filter(|&i| probes[i]["row"].as_str() == Some(row)).collect();
        let cells: Vec<String> = tools
            .iter()
            .map(|(_, o)| {
                let ok = idx.iter().filter(|&&i| o[0].results.get(i).is_some_and(|r| judge(&probes[i], r))).count();
                match ok {
                    n if n == idx.len() => "yes".to_owned(),
                    0 => "no".to_owned(),
                    n => format!("{n} of {}", idx.len()),
                }
            })
            .collect();
        let _ = writeln!(s, "| {row} | {} |", cells.join(" | "));
    }
    s
}

/// The details behind each cell: every probe's result per tool, and the notes.
fn details(tools: &[(&str, [Outcome; 2])], probes: &[Value]) -> String {
    let mut s = String::from("# cargo xtask compare: details\n\n");
    for (name, o) in tools {
        for (v, o) in ["v2", "v1"].iter().zip(o) {
            if let Some(n) = &o.note {
                let _ = writeln!(s, "- {name}, {v}: {n}");
            }
        }
    }
    for (i, p) in probes.iter().enumerate() {
        let _ = writeln!(s, "\n## {} `{}` (expect: {})\n\n    {}\n", p["row"].as_str().unwrap_or(""), p["type"].as_str().unwrap_or(""), p["expect"], p["inputText"].as_str().unwrap_or(""));
        for (name, o) in tools {
            let r = o[0].results.get(i).cloned().unwrap_or(Value::Null);
            let _ = writeln!(s, "- {name}: {} {r}", if judge(p, &r) { "right" } else { "WRONG" });
        }
    }
    s
}

/// A work folder of this run's own (two runs at once never share one), removed when the
/// run ends.
struct WorkDir(PathBuf);

impl Drop for WorkDir {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

/// `cargo xtask compare [--write]`.
pub fn compare(write: bool) -> Result<(), String> {
    // Outside the workspace: the generated crate is a package of its own. One folder per
    // run (its process id), so that runs at the same time do not clobber each other.
    let guard = WorkDir(std::env::temp_dir().join(format!("acp-terminal-compare-{}", std::process::id())));
    let work = guard.0.clone();
    let _ = std::fs::remove_dir_all(&work);
    std::fs::create_dir_all(&work).map_err(|e| e.to_string())?;
    crate::node::install()?;
    crate::pyenv::install()?;
    crate::node::install_in("tests/compare")?;
    let python = crate::pyenv::install_venv(&root().join("tests/compare/.venv"), "tests/compare/requirements.txt")?;
    let probes_path = root().join(PROBES);
    let probes = load_probes()?;

    // Upstream's schemas with their overlays, as every tool gets them (the same text
    // this generator reads).
    // The stable v2 (`unstable_protocol_v2` alone) and v1, as the table's two rows.
    let inputs: Vec<crate::codegen::Input> = crate::upstream::inputs()?.into_iter().filter(|i| i.module == "v2" || i.module == "v1").collect();
    let mut schemas = Vec::new();
    let mut totals = [0; 2];
    let mut names = Vec::new();
    for (i, input) in inputs.iter().enumerate() {
        let path = work.join(format!("acp-{}.json", input.module));
        std::fs::write(&path, &input.text).map_err(|e| e.to_string())?;
        let doc = parse(input.text.as_bytes(), &input.source)?;
        let n: Vec<String> = doc["$defs"].as_object().map(|m| m.keys().cloned().collect()).unwrap_or_default();
        totals[i] = n.len();
        names.push(n);
        schemas.push(path);
    }

    let ours = ours(&inputs, &work.join("acp-terminal"), &probes)?;
    let mut tools: Vec<(&str, [Outcome; 2])> =
        vec![("acp-terminal (Rust, TypeScript, Python)", [Outcome { defined: totals[0], note: None, results: ours }, Outcome { defined: totals[1], note: None, results: Vec::new() }])];
    for name in [TYPIFY, DATAMODEL, QUICKTYPE] {
        let mut pair = Vec::new();
        for (i, schema) in schemas.iter().enumerate() {
            let dir = work.join(format!("{name}-{}", inputs[i].module));
            std::fs::create_dir_all(&dir).map_err(|e| e.to_string())?;
            pair.push(match name {
                TYPIFY => typify(schema, &dir, &probes_path, i == 0)?,
                DATAMODEL => datamodel(&python, schema, &dir, &probes_path)?,
                _ => quicktype(schema, &names[i], &dir, &probes_path)?,
            });
        }
        let [v2, v1]: [Outcome; 2] = pair.try_into().map_err(|_| "two schemas")?;
        tools.push((name, [v2, v1]));
    }

    let table = table(&tools, totals, &probes);
    let details = details(&tools, &probes);
    std::fs::create_dir_all(root().join("target/compare")).map_err(|e| e.to_string())?;
    std::fs::write(root().join("target/compare/details.md"), &details).map_err(|e| e.to_string())?;
    println!("{table}");
    eprintln!("every probe's result per tool: target/compare/details.md");

    let readme_path = root().join(TABLE_FILE);
    let readme = std::fs::read_to_string(&readme_path).map_err(|e| e.to_string())?;
    let (Some(b), Some(e)) = (readme.find(BEGIN), readme.find(END)) else {
        return Err(format!("{TABLE_FILE} has no {BEGIN} ... {END} block"));
    };
    let current = &readme[b + BEGIN.len()..e];
    let fresh = format!("\n{table}");
    if current == fresh {
        eprintln!("{TABLE_FILE}: the comparison table is up to date");
        Ok(())
    } else if write {
        std::fs::write(&readme_path, format!("{}{BEGIN}{fresh}{}", &readme[..b], &readme[e..])).map_err(|e| e.to_string())?;
        eprintln!("{TABLE_FILE}: comparison table rewritten");
        Ok(())
    } else {
        Err(format!("{TABLE_FILE}'s comparison table differs from this run's (above); `cargo xtask compare --write` rewrites it"))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn probe(row: &str, text: &str, expect: &str) -> Value {
        let expect = if expect == "reject" { json!({ "accepted": false }) } else { json!({ "value": serde_json::from_str::<Value>(text).unwrap_or_default() }) };
        json!({ "name": text, "kind": "decode", "row": row, "type": "T", "inputText": text, "expect": expect })
    }

    #[test]
    fn judge_reads_the_expectation() {
        let same = probe("r", r#"{"a":1,"b":[2]}"#, "same");
        assert!(judge(&same, &json!({ "output": r#"{"b":[2],"a":1}"# })), "member order aside");
        assert!(!judge(&same, &json!({ "output": r#"{"a":1}"# })), "a dropped member is not the same value");
        assert!(!judge(&same, &json!({ "error": "wrong_type" })));
        assert!(!judge(&same, &json!({ "missing": true })));
        let reject = probe("r", "{}", "reject");
        assert!(judge(&reject, &json!({ "error": "missing_field at /text" })));
        assert!(!judge(&reject, &json!({ "output": "{}" })));
        assert!(!judge(&reject, &json!({ "missing": true })), "no type is no rejection");
        let mut written = probe("r", r#"{"path":"/a","line":-1}"#, "same");
        written["expect"] = json!({ "value": { "path": "/a" } });
        assert!(judge(&written, &json!({ "output": r#"{"path":"/a"}"# })));
        assert!(!judge(&written, &json!({ "output": r#"{"path":"/a","line":-1}"# })));
    }

    #[test]
    fn table_cells_count_the_probes_of_a_row() {
        let probes = vec![probe("two", "1", "same"), probe("two", "2", "reject"), probe("one", "3", "reject")];
        let outcome = |results: Vec<Value>| [Outcome { defined: 5, note: None, results }, Outcome { defined: 4, note: None, results: Vec::new() }];
        let tools = vec![
            ("all", outcome(vec![json!({ "output": "1" }), json!({ "error": "e" }), json!({ "error": "e" })])),
            ("half", outcome(vec![json!({ "output": "1" }), json!({ "output": "2" }), json!({ "output": "3" })])),
        ];
        let t = table(&tools, [5, 6], &probes);
        assert!(t.contains("| upstream v2: `$defs` entries that become code | 5 of 5 | 5 of 5 |"), "{t}");
        assert!(t.contains("| upstream v1: `$defs` entries that become code | 4 of 6 | 4 of 6 |"), "{t}");
        assert!(t.contains("| two | yes | 1 of 2 |"), "{t}");
        assert!(t.contains("| one | yes | no |"), "{t}");
    }
}
