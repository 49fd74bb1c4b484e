//! `cargo xtask bench [--quick]`: every row of BENCHMARKS.md in Rust, Node and Python,
//! each language in its own process (`bench/rust`, `bench/node`, `bench/python`), ours
//! against the baselines in the same run, interleaved rounds, median. Prints one table
//! and writes it to `BENCHMARKS.md` (`--quick`: `target/bench/BENCHMARKS.quick.md`, so a
//! small run never replaces the committed full one; or `--out FILE`).
//!
//! The bench dependencies stay apart: `bench/rust` is a member of the root workspace
//! (small baselines; built in release into `target/bench/cargo`), `bench/node` has its own
//! package.json and lock file, `bench/python` its own pinned requirements and virtual
//! environment (`target/bench/venv`). The inputs are generated into `target/bench/`.

use crate::bench_inputs;
use crate::{node, root, run};
use serde_json::Value;
use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::Instant;

/// One line of the table.
struct Row {
    lang: &'static str,
    row: String,
    ours: f64,
    base: f64,
    unit: &'static str,
    baseline: String,
    /// `(at least, value)` for throughputs, `(at most, value)` for memory.
    target: Option<(bool, f64)>,
}

impl Row {
    fn ratio(&self) -> f64 {
        if self.base == 0.0 { f64::NAN } else { self.ours / self.base }
    }

    fn met(&self) -> &'static str {
        match self.target {
            None => "-",
            Some((true, t)) if self.ratio() >= t => "yes",
            Some((false, t)) if self.ratio() <= t => "yes",
            Some(_) => "no",
        }
    }

    fn target_text(&self) -> String {
        match self.target {
            None => "-".into(),
            Some((true, t)) => format!(">= {t}x"),
            Some((false, t)) => format!("<= {t}x"),
        }
    }
}

/// Which rows a language reports, their titles and targets (BENCHMARKS.md).
fn describe(lang: &str, row: &str) -> (String, Option<(bool, f64)>) {
    let t = |rust: f64, node: f64, python: f64| match lang {
        "rust" => rust,
        "node" => node,
        _ => python,
    };
    match row {
        "ingest" => ("ingest vs hand-written".into(), Some((true, t(0.9, 0.8, 0.8)))),
        "peer" => ("ingest vs upstream's bindings".into(), Some((true, t(1.5, 3.0, 2.0)))),
        "equal" => ("equal work: ingest + transcript vs hand-written + best stripper".into(), Some((true, t(2.5, 3.5, 1.5)))),
        "transcript" | "transcript-alt" => ("transcript vs stateful stripper".into(), Some((true, t(3.0, 4.0, 1.5)))),
        "base64" => ("strict base64 vs fastest lenient".into(), Some((true, t(0.9, 0.7, 0.8)))),
        // Against the physical limit: the same bytes through the language's own UTF-8 decoder.
        "decode" => ("transcript vs decoding alone".into(), if lang == "python" { None } else { Some((true, t(0.5, 0.3, 0.0))) }),
        // Python with the optional native wheel (acp-terminal[native]).
        "equal-native" => ("equal work: ingest + transcript vs hand-written + best stripper (native)".into(), Some((true, 5.0))),
        "transcript-native" => ("transcript vs stateful stripper (native)".into(), Some((true, 10.0))),
        "base64-native" => ("strict base64 vs fastest lenient (native)".into(), Some((true, 0.9))),
        "decode-native" => ("transcript vs decoding alone (native)".into(), Some((true, 0.3))),
        "rss" => ("peak RSS of ingest vs hand-written".into(), Some((false, t(1.3, 1.3, 1.5)))),
        "retained" => ("retained bytes (held) vs raw output bytes".into(), Some((false, 1.05))),
        other => (other.into(), None),
    }
}

/// Sizes of one run.
struct Plan {
    dir: PathBuf,
    rounds: usize,
}

/// Where a `--quick` run writes its table unless `--out` says otherwise: the committed
/// BENCHMARKS.md holds a full run only.
const QUICK_REPORT: &str = "target/bench/BENCHMARKS.quick.md";

pub fn bench(quick: bool, out: Option<&Path>) -> Result<(), String> {
    run_bench(if quick { Inputs::Quick } else { Inputs::Full }, true, out)
}

/// How much a run measures: the test command's smoke run, `--quick`, or the full run.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Inputs {
    Smoke,
    Quick,
    Full,
}

/// `release`: the Rust side built optimised (the numbers mean something) into
/// `target/bench/cargo`, or in debug into the root `target/` (a smoke run: it reuses the
/// dependencies `cargo test --workspace` compiled).
fn run_bench(inputs: Inputs, release: bool, out: Option<&Path>) -> Result<(), String> {
    let started = Instant::now();
    let load_before = load_average();
    let quick = inputs != Inputs::Full;
    let (plan, size) = match inputs {
        // Every row runs and is checked against its baseline's output, on 1 MiB, once.
        Inputs::Smoke => (Plan { dir: root().join("target/bench/smoke"), rounds: 1 }, 1 << 20),
        Inputs::Quick => (Plan { dir: root().join("target/bench/quick"), rounds: 5 }, 4 << 20),
        Inputs::Full => (Plan { dir: root().join("target/bench/full"), rounds: 5 }, 64 << 20),
    };
    eprintln!("bench: {}", bench_inputs::ensure(&plan.dir, size)?);

    let mut rows = Vec::new();
    let mut versions = vec![tool_version("rustc", &["-V"]), tool_version("node", &["-v"])];

    // Build every side first, so a broken one fails before anything is measured.
    let rust_bin = build_rust(release)?;
    let ts_dist = build_node()?;
    let py = build_python()?;
    versions.push(tool_version(&py.display().to_string(), &["-V"]));

    eprintln!("bench: rust");
    rows.extend(results("rust", &output(Command::new(&rust_bin).arg("speed").arg(&plan.dir).arg(plan.rounds.to_string()))?)?);
    rows.extend(memory("rust", |which| {
        let mut c = Command::new(&rust_bin);
        c.arg("mem").arg(&plan.dir).arg(which);
        c
    })?);

    eprintln!("bench: node");
    let node_script = root().join("bench/node/bench.mjs");
    let node_out = output(Command::new("node").arg(&node_script).arg("speed").arg(&ts_dist).arg(&plan.dir).arg(plan.rounds.to_string()))?;
    versions.extend(version_lines(&node_out));
    rows.extend(results("node", &node_out)?);
    rows.extend(memory("node", |which| {
        let mut c = Command::new("node");
        c.arg(&node_script).arg("mem").arg(&ts_dist).arg(&plan.dir).arg(which);
        c
    })?);

    eprintln!("bench: python");
    let models = plan.dir.join("upstream_models.py");
    let mut notes = Vec::new();
    let gen_rows = gen_rows(&py, &models, quick, &mut notes)?;
    let py_script = root().join("bench/python/bench.py");
    // Pure Python (the native wheel is installed in the bench venv, and left out here).
    let python = |args: &[&str]| {
        let mut c = Command::new(&py);
        c.arg(&py_script).args(args).env("PYTHONPATH", root().join("generated/python/src")).env("PYTHONDONTWRITEBYTECODE", "1").env("ACP_TERMINAL_PURE", "1");
        c
    };
    let dir = plan.dir.display().to_string();
    let rounds = plan.rounds.to_string();
    let py_out = output(&mut python(&["speed", &dir, &rounds, &models.display().to_string()]))?;
    versions.extend(version_lines(&py_out));
    rows.extend(results("python", &py_out)?);
    let native_out = output(python(&["speed-native", &dir, &rounds]).env_remove("ACP_TERMINAL_PURE"))?;
    versions.extend(version_lines(&native_out));
    rows.extend(results("python", &native_out)?);
    rows.extend(memory("python", |which| python(&["mem", &dir, which, &models.display().to_string()]))?);
    rows.extend(gen_rows);

    let load_after = load_average();
    let table = table(&rows);
    println!("{table}");
    for n in &notes {
        println!("note: {n}");
    }
    let doc = document(inputs, &table, &notes, &versions, &load_before, &load_after, started.elapsed().as_secs_f64());
    let out = out.map_or_else(|| root().join(if quick { QUICK_REPORT } else { "BENCHMARKS.md" }), Path::to_path_buf);
    std::fs::write(&out, doc).map_err(|e| format!("{}: {e}", out.display()))?;
    eprintln!("bench: wrote {} in {:.0} s", out.display(), started.elapsed().as_secs_f64());
    Ok(())
}

/// `cargo xtask test`'s step: every row of the bench once, on 1 MiB of inputs, the Rust side
/// in debug, into `target/bench/BENCHMARKS.smoke.md`, without judging speed (a benchmark
/// that crashes or disagrees with its baseline fails the step).
pub fn smoke() -> Result<(), String> {
    // The Python bench is held to the project's lint and type rules, with the test venv's tools.
    crate::pyenv::install()?;
    let py = crate::pyenv::python();
    let src = root().join("generated/python/src");
    run(Command::new(&py).args(["-m", "ruff", "check", "--quiet", "bench/python"]))?;
    run(Command::new(&py).args(["-m", "mypy", "--strict", "--no-error-summary", "bench/python/bench.py"]).env("PYTHONPATH", src))?;
    run_bench(Inputs::Smoke, false, Some(&root().join("target/bench/BENCHMARKS.smoke.md")))
}

/// `release`: `-p acp-terminal-bench` optimised, into `target/bench/cargo`. Otherwise the
/// binary as the workspace's test build makes it (the bench crate has an integration test,
/// so `cargo test` builds it): after the cargo step of `cargo xtask test` that is fresh, and
/// nothing is compiled again.
fn build_rust(release: bool) -> Result<PathBuf, String> {
    let exe = format!("acp-terminal-bench{}", std::env::consts::EXE_SUFFIX);
    if release {
        let target = root().join("target/bench/cargo");
        run(Command::new(crate::cargo()).args(["build", "--release", "--locked", "--quiet", "-p", "acp-terminal-bench"]).env("CARGO_TARGET_DIR", &target))?;
        return Ok(target.join("release").join(exe));
    }
    crate::workspace_bin("acp-terminal-bench")
}

/// Compiles the generated TypeScript package into `target/bench/ts` and installs the
/// Node baselines; returns the compiled package's folder.
fn build_node() -> Result<PathBuf, String> {
    node::install()?;
    node::install_in("bench/node")?;
    let dist = root().join("target/bench/ts");
    run(Command::new(node::tsc_path()).args(["-p", "generated/typescript/tsconfig.json", "--outDir"]).arg(&dist))?;
    // The compiled files are ES modules: say so to Node, as the package's own package.json does.
    std::fs::write(dist.join("package.json"), "{\"type\":\"module\"}\n").map_err(|e| e.to_string())?;
    Ok(dist)
}

/// A virtual environment of its own, `target/bench/venv`, with the pinned bench
/// requirements; returns its interpreter.
fn build_python() -> Result<PathBuf, String> {
    const REQUIREMENTS: &str = "bench/python/requirements.txt";
    let venv = root().join("target/bench/venv");
    let py = if cfg!(windows) { venv.join("Scripts/python.exe") } else { venv.join("bin/python") };
    if !py.exists() {
        run(Command::new(if cfg!(windows) { "python" } else { "python3" }).args(["-m", "venv"]).arg(&venv))?;
    }
    let marker = venv.join(".requirements-installed");
    let wanted = std::fs::read_to_string(root().join(REQUIREMENTS)).map_err(|e| format!("{REQUIREMENTS}: {e}"))?;
    if std::fs::read_to_string(&marker).ok().as_deref() != Some(wanted.as_str()) {
        run(Command::new(&py).args(["-m", "pip", "install", "--quiet", "--disable-pip-version-check", "-r", REQUIREMENTS]))?;
        std::fs::write(&marker, wanted).map_err(|e| e.to_string())?;
    }
    // The optional native wheel, for the native rows (built by the test environment's maturin).
    let wheel = crate::native::install()?;
    run(Command::new(&py).args(["-m", "pip", "install", "--quiet", "--disable-pip-version-check", "--force-reinstall", "--no-deps"]).arg(&wheel))?;
    Ok(py)
}

/// Runs `cmd` (stderr passed through) and returns its stdout; fails when it fails.
fn output(cmd: &mut Command) -> Result<String, String> {
    eprintln!("$ {}", format!("{cmd:?}").replace('"', ""));
    if cmd.get_current_dir().is_none() {
        cmd.current_dir(root());
    }
    let out = cmd.stderr(std::process::Stdio::inherit()).output().map_err(|e| format!("could not start {cmd:?}: {e}"))?;
    if !out.status.success() {
        return Err(format!("benchmark {cmd:?} failed ({})", out.status));
    }
    String::from_utf8(out.stdout).map_err(|e| format!("{cmd:?} wrote non-UTF-8: {e}"))
}

/// The `RESULT {...}` lines of a bench process.
fn result_objects(out: &str) -> Result<Vec<Value>, String> {
    out.lines().filter_map(|l| l.strip_prefix("RESULT ")).map(|j| serde_json::from_str(j).map_err(|e| format!("bad RESULT line `{j}`: {e}"))).collect()
}

fn version_lines(out: &str) -> Vec<String> {
    out.lines().filter_map(|l| l.strip_prefix("VERSION ")).map(str::to_owned).collect()
}

fn results(lang: &'static str, out: &str) -> Result<Vec<Row>, String> {
    let objs = result_objects(out)?;
    if objs.is_empty() {
        return Err(format!("the {lang} benchmark reported no result"));
    }
    objs.iter()
        .map(|o| {
            let field = |k: &str| o.get(k).and_then(Value::as_f64).ok_or_else(|| format!("{lang}: result without `{k}`: {o}"));
            let row = o.get("row").and_then(Value::as_str).ok_or_else(|| format!("{lang}: result without `row`: {o}"))?;
            let (title, target) = describe(lang, row);
            Ok(Row { lang, row: title, ours: field("ours")?, base: field("base")?, unit: "MiB/s", baseline: o.get("baseline").and_then(Value::as_str).unwrap_or("").to_owned(), target })
        })
        .collect()
}

/// Peak RSS and retained bytes: ours and the hand-written client, each in a fresh process.
fn memory(lang: &'static str, mut cmd: impl FnMut(&str) -> Command) -> Result<Vec<Row>, String> {
    let mut get = |which: &str| -> Result<Value, String> {
        let objs = result_objects(&output(&mut cmd(which))?)?;
        objs.into_iter().next().ok_or_else(|| format!("the {lang} memory benchmark ({which}) reported nothing"))
    };
    let (ours, hand) = (get("ours")?, get("hand")?);
    let num = |v: &Value, k: &str| v.get(k).and_then(Value::as_f64).ok_or_else(|| format!("{lang}: memory result without `{k}`: {v}"));
    let mib = 1024.0 * 1024.0;
    let (t, target) = describe(lang, "rss");
    let (rt, rtarget) = describe(lang, "retained");
    Ok(vec![
        Row { lang, row: t, ours: num(&ours, "peak_rss")? / mib, base: num(&hand, "peak_rss")? / mib, unit: "MiB", baseline: "hand-written ingest, same stream".into(), target },
        Row { lang, row: rt, ours: num(&ours, "held")? / mib, base: num(&hand, "retained")? / mib, unit: "MiB", baseline: "raw output bytes".into(), target: rtarget },
    ])
}

/// Generation time: `xtask gen --schema` (Rust, TypeScript and Python bindings) against
/// datamodel-code-generator (Python only) on the same schema, the project's v2 schema.
/// Then upstream ACP's v2 schema: datamodel-code-generator writes the pydantic models the
/// Python bench ingests with, and our generator is tried on it too (it supports a
/// subset of JSON Schema; the notes say when upstream's schema is outside it).
fn gen_rows(py: &Path, models: &Path, quick: bool, notes: &mut Vec<String>) -> Result<Vec<Row>, String> {
    let rounds = if quick { 1 } else { 5 };
    let xtask = std::env::current_exe().map_err(|e| e.to_string())?;
    let codegen = py.with_file_name(if cfg!(windows) { "datamodel-codegen.exe" } else { "datamodel-codegen" });
    let dcg = |schema: &str, out: &Path| {
        let mut c = Command::new(&codegen);
        c.args(["--input", schema, "--input-file-type", "jsonschema", "--output-model-type", "pydantic_v2.BaseModel"])
            .args(["--target-python-version", "3.11", "--disable-timestamp", "--output"])
            .arg(out);
        c
    };
    let gen_dir = root().join("target/bench/gen");
    std::fs::create_dir_all(&gen_dir).map_err(|e| e.to_string())?;
    let schema = "schema/json/v2/schema.json";
    let (mut a, mut b) = (Vec::new(), Vec::new());
    for _ in 0..rounds {
        let t = Instant::now();
        output(Command::new(&xtask).args(["gen", "--schema", schema, "--out"]).arg(gen_dir.join("project")))?;
        a.push(t.elapsed().as_secs_f64());
        let t = Instant::now();
        output(&mut dcg(schema, &gen_dir.join("project.py")))?;
        b.push(t.elapsed().as_secs_f64());
    }
    let row = Row {
        lang: "all",
        row: "gen time, project v2 schema (generations per second)".into(),
        ours: 1.0 / median(a),
        base: 1.0 / median(b),
        unit: "1/s",
        baseline: "datamodel-code-generator, pydantic v2 (Python only; ours writes Rust, TypeScript and Python)".into(),
        target: None,
    };
    let upstream = "tests/upstream/acp-v2-schema.json";
    let modified = |p: &Path| std::fs::metadata(p).and_then(|m| m.modified()).ok();
    if quick && modified(models).is_some() && modified(models) >= modified(&root().join(upstream)) {
        notes.push("quick run: upstream's pydantic models reused from an earlier run; gen on upstream's schema not timed".into());
        return Ok(vec![row]);
    }
    let t = Instant::now();
    output(&mut dcg(upstream, models))?;
    let theirs = t.elapsed().as_secs_f64();
    let t = Instant::now();
    let result = output(Command::new(&xtask).args(["gen", "--schema", upstream, "--out"]).arg(gen_dir.join("upstream")));
    let ours = t.elapsed().as_secs_f64();
    notes.push(match result {
        Ok(_) => format!("gen on upstream's v2 schema: ours {ours:.2} s, datamodel-code-generator {theirs:.2} s (one run each)"),
        Err(_) => format!(
            "gen on upstream's v2 schema: datamodel-code-generator {theirs:.2} s; `xtask gen --schema` rejects it (it is outside the supported JSON Schema subset; the error lists the definitions), so there is no ratio"
        ),
    });
    Ok(vec![row])
}

fn median(mut v: Vec<f64>) -> f64 {
    v.sort_by(f64::total_cmp);
    v[v.len() / 2]
}

fn tool_version(cmd: &str, args: &[&str]) -> String {
    Command::new(cmd).args(args).output().ok().map(|o| String::from_utf8_lossy(&o.stdout).trim().to_owned() + String::from_utf8_lossy(&o.stderr).trim()).unwrap_or_else(|| format!("{cmd}: not found"))
}

fn load_average() -> String {
    std::fs::read_to_string("/proc/loadavg").map_or_else(|_| "unknown".into(), |s| s.split_whitespace().take(3).collect::<Vec<_>>().join(" "))
}

fn machine() -> String {
    let cpu = std::fs::read_to_string("/proc/cpuinfo")
        .ok()
        .and_then(|s| s.lines().find_map(|l| l.strip_prefix("model name").map(|v| v.trim_start_matches([' ', '\t', ':']).to_owned())))
        .unwrap_or_else(|| "unknown CPU".into());
    let cores = std::thread::available_parallelism().map_or(0, std::num::NonZero::get);
    let kernel = tool_version("uname", &["-srm"]);
    format!("{cpu}, {cores} cores available, {kernel}")
}

fn number(v: f64) -> String {
    if v >= 100.0 {
        format!("{v:.0}")
    } else if v >= 10.0 {
        format!("{v:.1}")
    } else {
        format!("{v:.2}")
    }
}

fn table(rows: &[Row]) -> String {
    let mut s = String::from("| row | lang | ours | baseline | ratio | target | met? |\n|---|---|---:|---|---:|---:|---|\n");
    for r in rows {
        writeln!(s, "| {} | {} | {} {} | {} {} ({}) | {}x | {} | {} |", r.row, r.lang, number(r.ours), r.unit, number(r.base), r.unit, r.baseline, number(r.ratio()), r.target_text(), r.met()).ok();
    }
    s
}

fn document(inputs: Inputs, table: &str, notes: &[String], versions: &[String], before: &str, after: &str, secs: f64) -> String {
    let date = tool_version("date", &["-u", "+%Y-%m-%d %H:%M UTC"]);
    let mut s = String::new();
    s.push_str("# Benchmarks\n\n");
    s.push_str(match inputs {
        Inputs::Smoke => "Written by `cargo xtask test`, its bench smoke run",
        Inputs::Quick => "Written by `cargo xtask bench --quick`",
        Inputs::Full => "Written by `cargo xtask bench`",
    });
    s.push_str(" (do not edit by hand; docs/BENCHMARKING.md says what each row measures).\n");
    s.push_str("Throughputs are MiB/s of input, ours and the baseline measured side by side in one process,\n");
    s.push_str("interleaved rounds (A, B, A, B ...) after a warm-up, median of each. Memory rows run each client in\n");
    s.push_str("a fresh process. The ratio is ours / baseline; for memory lower is better. Absolute numbers on a\n");
    s.push_str("shared machine are noisy; the ratios are what the targets judge.\n\n");
    writeln!(s, "- date: {date}").ok();
    writeln!(s, "- machine: {}", machine()).ok();
    writeln!(s, "- load average (1, 5, 15 min): {before} before, {after} after; the run took {secs:.0} s").ok();
    let described = match inputs {
        Inputs::Smoke => "smoke (1 MiB of output, one round: not a measurement)",
        Inputs::Quick => "quick (4 MiB of output, ~1k notifications)",
        Inputs::Full => "full (64 MiB of output in 4 KiB chunks, ~16k notifications)",
    };
    writeln!(s, "- inputs: {described}").ok();
    writeln!(s, "- versions: {}", versions.join("; ")).ok();
    s.push('\n');
    s.push_str(table);
    if !notes.is_empty() {
        s.push('\n');
        for n in notes {
            writeln!(s, "- {n}").ok();
        }
    }
    // A full run ends with the hand-written closing notes (what was tried for the rows that
    // miss their target, what the profiles show, what bounds them), kept beside the bench.
    if inputs == Inputs::Full
        && let Ok(closing) = std::fs::read_to_string(root().join(CLOSING_NOTES))
    {
        writeln!(s, "\n## Closing notes\n\n(Hand-written, from `{CLOSING_NOTES}`: read them against the table above.)\n").ok();
        s.push_str(&closing);
    }
    s
}

/// The hand-written closing notes a full run appends to BENCHMARKS.md.
const CLOSING_NOTES: &str = "bench/closing-notes.md";
