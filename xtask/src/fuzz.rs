//! `cargo xtask fuzz`: the fuzzers that live in the repository.
//!
//! - **Differential** (`differential`): random valid and near-valid messages generated
//!   from the IR of the emitted schemas (v2 and v1), written as `decode` vectors whose
//!   expectations come from the source-of-truth crate, then run through the
//!   conformance runners of all three languages. Every language must give the same
//!   canonical bytes and warnings, or the same error kind and JSON pointer.
//! - **Repeated member names** (`duplicates`): values written with repeated names here
//!   and there (a repeat whose own value repeats, a tag moved last), run in every
//!   language: the same `duplicate_key` pointer everywhere.
//! - **Eviction** (`eviction`): random interleavings of updates on stores with small
//!   limits (the `evict_cases` binary), run in every language: never half-evicted, the
//!   same terminals, counters and events.
//! - **Coverage-guided** (`fuzz/`, libFuzzer through `libfuzzer-sys`, built on stable
//!   Rust with the `sancov` pass): parse, store apply, transcript push and eviction must
//!   never panic, and must hold their invariants (re-encoding is canonical, re-chunking
//!   does not change the transcript, the store matches a model of the eviction policy).
//! - **Hostile corpus** (`tests/hostile/`): counted by every language's own tests, timed
//!   here (`hostile_clock`) at 16 times the size.
//! - **The 4,000,000-item message** (`message`, xtask/src/message.rs): peak memory and
//!   time per language, as separate processes.
//!
//! `cargo xtask test` runs a short seeded pass of the targets, properties, repeated names,
//! eviction and differential cases (`quick`): counted, nothing timed.

use crate::values::{Gen, Rng, base64, bytes, mutate_text, mutate_value};
use crate::{root, run};
use acp_terminal_codegen::ir;
use acp_terminal_codegen::{Files, sync};
use acp_terminal_schema::emit::Version;
use serde_json::{Value, json};
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::{Duration, Instant};

// The client's transcript, compiled here from its template: the schema crate carries only
// the wire runtime (acp-terminal-wire), and xtask must not depend on generated code.
#[path = "../../templates/rust/client/transcript.rs"]
#[allow(dead_code)] // xtask uses `new`, `push` and `text` only
mod transcript;
#[path = "../../templates/rust/client/transcript_table.rs"]
mod transcript_table;

fn version_of(schema: &str) -> Version {
    if schema == "v1" { Version::V1 } else { Version::V2 }
}

/// Writes `count` differential cases for seed `seed` into `dir` as conformance vector
/// files (one per schema version), expectations from the source-of-truth crate.
pub fn write_differential(dir: &Path, seed: u64, count: usize) -> Result<usize, String> {
    let what = format!("seed {seed} case");
    write_decode_cases(dir, Rng::new(seed), count, ("differential", &format!("differential fuzz cases, seed {seed}")), &what, |mut value, rng| {
        let mode = rng.below(4);
        if mode == 1 {
            mutate_value(&mut value, rng);
        }
        let mut text = serde_json::to_string(&value).map_err(|e| e.to_string())?;
        if mode == 2 {
            text = mutate_text(&text, rng);
        }
        Ok((text, format!(", {}", ["valid", "value mutation", "text mutation", "valid"][mode])))
    })
}

/// Writes `count` decode cases into `dir`, one vector file per schema version
/// (`<file>-v2.json` with three quarters of them, `<file>-v1.json`): each a text `text`
/// makes of a generated value of a random definition (with what to add to the case's
/// name), the expectation what the source-of-truth crate makes of it.
fn write_decode_cases(
    dir: &Path,
    mut rng: Rng,
    count: usize,
    (file, description): (&str, &str),
    what: &str,
    mut text: impl FnMut(Value, &mut Rng) -> Result<(String, String), String>,
) -> Result<usize, String> {
    std::fs::create_dir_all(dir).map_err(|e| format!("{}: {e}", dir.display()))?;
    let mut written = 0;
    for schema in ["v2", "v1"] {
        let version = version_of(schema);
        let doc = acp_terminal_schema::emit::schema(version);
        let ir = ir::build(&doc).map_err(|e| e.to_string())?;
        let generator = Gen::new(&ir);
        let names = generator.names();
        let n = if schema == "v2" { count * 3 / 4 } else { count - count * 3 / 4 };
        let mut cases = Vec::new();
        for i in 0..n {
            let name = *rng.pick(&names);
            let value = generator.value(name, &mut rng, 0);
            let (text, label) = text(value, &mut rng)?;
            let Some(expect) = expectation(version, name, &text)? else { continue };
            cases.push(json!({
                "name": format!("{what} {i} ({name}{label})"),
                "kind": "decode",
                "schema": schema,
                "type": name,
                "inputText": text,
                "expect": expect,
            }));
            written += 1;
        }
        let doc = json!({ "description": format!("{description}, schema {schema}"), "cases": cases });
        std::fs::write(dir.join(format!("{file}-{schema}.json")), serde_json::to_string_pretty(&doc).map_err(|e| e.to_string())?).map_err(|e| e.to_string())?;
    }
    Ok(written)
}

/// Pieces of terminal output the transcript differential cases are made of (with random bytes
/// between them): text, controls, sequences of every kind, whole and cut, C1 controls, bidi
/// controls, valid, invalid and incomplete UTF-8.
const TRANSCRIPT_PIECES: &[&[u8]] = &[
    b"hello",
    b"progress 42%",
    b" ",
    b"\t",
    b"\r",
    b"\n",
    b"\r\n",
    b"\x08",
    b"\x07",
    b"\x00",
    b"\x7f",
    b"\x1b[31m",
    b"\x1b[0m",
    b"\x1b[38;2;1;2;3m",
    b"\x1b[K",
    b"\x1b[1K",
    b"\x1b[2K",
    b"\x1b[3K",
    b"\x1b[1G",
    b"\x1b[5G",
    b"\x1b[2D",
    b"\x1b[3C",
    b"\x1b[99999C",
    b"\x1b[?25l",
    b"\x1b[?2K",
    b"\x1b[1$G",
    b"\x1b[1:2G",
    b"\x1b]0;title\x07",
    b"\x1b]8;;http://x\x1b\\",
    b"\x1b]2;t",
    b"\x1bP1$qm\x1b\\",
    b"\x1bX sos \x1b\\",
    b"\x1b^pm\x07x\x1b\\",
    b"\x1b(B",
    b"\x1b7",
    b"\x1b",
    b"\x1b[",
    b"\x1b]",
    b"\x18",
    b"\x1a",
    b"\xc2\x9b2K",
    b"\xc2\x9d0;x\xc2\x9c",
    b"\xc2\x85",
    b"\xc3\xa9",
    b"\xe2\x82\xac",
    b"\xf0\x9f\x98\x80",
    b"\xe2\x80\xae",
    b"\xe2\x81\xa6",
    b"\xef\xbb\xbf",
    b"\x80",
    b"\xc0\xaf",
    b"\xed\xa0\x80",
    b"\xf4\x90\x80\x80",
    b"\xff",
    b"\xe2\x82",
    b"\xf0\x9f\x98",
    b"\xed",
    b"0123456789",
    b";",
    b"[",
    b"\r\x1b[2K",
    b"\x1b[1G\x1b[K",
    b"\n\r\x1b[2K",
];

/// Writes `count` transcript cases for seed `seed` into `dir` (a conformance vector file of
/// kind `transcript`): random streams in random chunks, the expected text from the
/// source-of-truth crate's Rust transcript, so every language (and Python's native path) must
/// give the same text.
pub fn write_transcript_differential(dir: &Path, seed: u64, count: usize) -> Result<usize, String> {
    std::fs::create_dir_all(dir).map_err(|e| format!("{}: {e}", dir.display()))?;
    let mut rng = Rng::new(seed ^ 0x7A5C_0000);
    let mut cases = Vec::new();
    for i in 0..count {
        let mut stream = Vec::new();
        for _ in 0..=rng.below(80) {
            if rng.one_in(6) {
                stream.extend(bytes(&mut rng));
            } else {
                let piece: &[u8] = TRANSCRIPT_PIECES[rng.below(TRANSCRIPT_PIECES.len())];
                stream.extend_from_slice(piece);
            }
        }
        let mut chunks = Vec::new();
        let mut at = 0;
        while at < stream.len() {
            let span = if rng.one_in(3) { 4 } else { 64 };
            let end = (at + 1 + rng.below(span)).min(stream.len());
            chunks.push(&stream[at..end]);
            at = end;
        }
        let mut t = transcript::Transcript::new();
        for c in &chunks {
            t.push(c);
        }
        cases.push(json!({
            "name": format!("seed {seed} transcript {i}"),
            "kind": "transcript",
            "chunks": chunks.iter().map(|c| base64(c)).collect::<Vec<_>>(),
            "expect": { "text": t.text() },
        }));
    }
    let file = json!({ "description": format!("differential transcript cases, seed {seed}"), "cases": cases });
    std::fs::write(dir.join("differential-transcript.json"), serde_json::to_string_pretty(&file).map_err(|e| e.to_string())?).map_err(|e| e.to_string())?;
    Ok(count)
}

/// Writes `v` as JSON text with repeated member names: here and there a member is written
/// again (its repeat's value itself often repeating a name), a new member whose value
/// repeats a name is added, and an object's first member (a union's tag) is moved last.
/// What is repeated where decides the pointer of `duplicate_key` (the first repeat in
/// document order), and the languages must agree on it.
fn text_with_repeats(v: &Value, rng: &mut Rng, depth: usize, out: &mut String) {
    let key = |out: &mut String, k: &str| {
        out.push_str(&serde_json::to_string(k).unwrap_or_default());
        out.push(':');
    };
    match v {
        Value::Object(m) => {
            let mut entries: Vec<(&String, &Value)> = m.iter().collect();
            if entries.len() > 1 && rng.one_in(4) {
                entries.rotate_left(1);
            }
            out.push('{');
            let mut first = true;
            for (k, x) in entries {
                if !first {
                    out.push(',');
                }
                first = false;
                key(out, k);
                text_with_repeats(x, rng, depth + 1, out);
                if depth < 6 && rng.one_in(8) {
                    out.push(',');
                    key(out, k);
                    match rng.below(3) {
                        0 => out.push_str(r#"{"b":1,"b":2}"#),
                        1 => text_with_repeats(x, rng, depth + 1, out),
                        _ => out.push_str(&serde_json::to_string(x).unwrap_or_default()),
                    }
                }
            }
            if depth < 6 && rng.one_in(10) {
                if !first {
                    out.push(',');
                }
                const NAMES: [&str; 3] = ["zz", "_meta", "a"];
                const VALUES: [&str; 3] = [r#"{"a":0,"a":{"b":1,"b":2}}"#, r#"[{"x":1,"x":2}]"#, r#"{"a":{"b":1,"b":2},"a":0}"#];
                key(out, NAMES[rng.below(NAMES.len())]);
                out.push_str(VALUES[rng.below(VALUES.len())]);
            }
            out.push('}');
        }
        Value::Array(a) => {
            out.push('[');
            for (i, x) in a.iter().enumerate() {
                if i > 0 {
                    out.push(',');
                }
                text_with_repeats(x, rng, depth + 1, out);
            }
            out.push(']');
        }
        other => out.push_str(&serde_json::to_string(other).unwrap_or_default()),
    }
}

/// Writes `count` cases of texts with repeated member names (`text_with_repeats`, some
/// with a value mutation too) for seed `seed` into `dir`, expectations from the
/// source-of-truth crate: every language must give the same error kind and pointer.
pub fn write_duplicates(dir: &Path, seed: u64, count: usize) -> Result<usize, String> {
    let what = format!("seed {seed} repeated names");
    write_decode_cases(dir, Rng::new(seed ^ 0xD0D0_0022), count, ("duplicates", &format!("repeated member names, seed {seed}")), &what, |mut value, rng| {
        if rng.one_in(3) {
            mutate_value(&mut value, rng);
        }
        let mut text = String::new();
        text_with_repeats(&value, rng, 0, &mut text);
        Ok((text, String::new()))
    })
}

/// Rounds of `count` cases of repeated member names, each run in every language, until
/// `deadline` (one round without).
fn duplicates(seed: u64, count: usize, deadline: Option<Instant>) -> Result<usize, String> {
    rounds("duplicates", "repeated member names", seed, deadline, |dir, s| {
        let n = write_duplicates(dir, s, count)?;
        eprintln!("duplicates: seed {s}, {count} cases, in every language");
        Ok(n)
    })
}

/// What the Rust source-of-truth types make of `text` as definition `name`, as a decode
/// case's `expect` (the canonical output and its warnings, or the error); `None` for a name
/// the version does not define.
fn expectation(version: Version, name: &str, text: &str) -> Result<Option<Value>, String> {
    let Some(result) = acp_terminal_schema::registry::decode(version, name, text) else { return Ok(None) };
    Ok(Some(match result {
        Ok((canonical, warnings)) => {
            let output: Value = serde_json::from_str(&canonical).map_err(|e| format!("canonical output is not JSON: {e}"))?;
            let mut e = json!({ "output": output });
            if !warnings.is_empty() {
                e["warnings"] = Value::Array(warnings.iter().map(|w| json!({"kind": w.kind.as_str(), "path": w.path})).collect());
            }
            e
        }
        Err(err) => json!({ "error": { "kind": err.kind.as_str(), "path": err.path } }),
    }))
}

/// Rounds of cases written into `target/fuzz/<name>` (fresh each round, seeds `seed`,
/// `seed + 1` ...) by `write`, each round run in every language, until `deadline` (one
/// round without). Returns how many cases ran; a failure names the seed and the folder.
fn rounds(name: &str, what: &str, seed: u64, deadline: Option<Instant>, mut write: impl FnMut(&Path, u64) -> Result<usize, String>) -> Result<usize, String> {
    let mut total = 0;
    for round in 0u64.. {
        let dir = root().join("target/fuzz").join(name);
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).map_err(|e| format!("{}: {e}", dir.display()))?;
        let s = seed.wrapping_add(round);
        total += write(&dir, s)?;
        crate::conformance::conformance(&[dir]).map_err(|e| format!("{what} (seed {s}): {e}; the cases are in target/fuzz/{name}"))?;
        if deadline.is_none_or(|d| Instant::now() >= d) {
            break;
        }
    }
    Ok(total)
}

/// Rounds of `count` random interleavings of updates on stores with small limits
/// (`evict_cases`, expectations from the Rust store), each run in every language, until
/// `deadline` (one round without): every runner checks after every update that no
/// terminal is half-evicted, and all must reach the same terminals, counters and events.
fn eviction(seed: u64, count: usize, deadline: Option<Instant>) -> Result<usize, String> {
    let exe = crate::workspace_bin("evict_cases")?;
    rounds("eviction", "eviction", seed, deadline, |dir, s| {
        run(Command::new(&exe).arg(s.to_string()).arg(count.to_string()).arg(dir.join("eviction.json")))?;
        eprintln!("eviction: seed {s}, {count} random interleavings, in every language");
        Ok(count)
    })
}

/// The differential fuzzer: `rounds` rounds of `count` cases, each run in every language.
fn differential(seed: u64, count: usize, deadline: Option<Instant>) -> Result<usize, String> {
    rounds("differential", "differential fuzzing", seed, deadline, |dir, s| {
        let n = write_differential(dir, s, count)? + write_transcript_differential(dir, s, count / 3)?;
        eprintln!("differential: seed {s}, {count} cases, in every language");
        Ok(n)
    })
}

const TARGETS: &[&str] = &["parse", "store", "transcript", "evict"];

/// Builds the libFuzzer targets of `fuzz/` (stable Rust: the `sancov` pass gives
/// coverage, `libfuzzer-sys` brings libFuzzer).
fn build_targets() -> Result<PathBuf, String> {
    let cargo = crate::cargo();
    let target_dir = root().join("target/fuzz/build");
    let flags = [
        "-Cpasses=sancov-module",
        "-Cllvm-args=-sanitizer-coverage-level=4",
        "-Cllvm-args=-sanitizer-coverage-inline-8bit-counters",
        "-Cllvm-args=-sanitizer-coverage-pc-table",
        "-Cllvm-args=-sanitizer-coverage-trace-compares",
        "-Cdebug-assertions",
        "-Coverflow-checks",
    ]
    .join(" ");
    // An explicit `--target` keeps the coverage flags off build scripts.
    let host = host_triple()?;
    let profile = if crate::in_test_command() { "fuzz-check" } else { "release" };
    run(Command::new(cargo)
        .args(["build", "--profile", profile, "--locked", "--quiet", "--manifest-path", "fuzz/Cargo.toml", "--bins", "--target", &host])
        .env("CARGO_TARGET_DIR", &target_dir)
        .env("RUSTFLAGS", flags))?;
    Ok(target_dir.join(host).join(profile))
}

fn host_triple() -> Result<String, String> {
    let out = Command::new("rustc").arg("-vV").output().map_err(|e| format!("cannot run rustc -vV: {e}"))?;
    String::from_utf8_lossy(&out.stdout).lines().find_map(|l| l.strip_prefix("host: ")).map(str::to_owned).ok_or_else(|| "rustc -vV printed no host triple".into())
}

/// Runs each libFuzzer target for `per_target` (or `runs` executions) and returns the
/// execution counts it reported.
/// `runs`: a fixed number of executions and no time limit of any kind (`-timeout=0`: what
/// `cargo xtask test` runs must not decide anything by a clock); otherwise
/// `seconds_per_target` each, and an input that runs more than 10 s is a failure (a hang).
fn libfuzzer(seconds_per_target: u64, runs: Option<u64>, seed: u64) -> Result<Vec<(String, String)>, String> {
    let bin = build_targets()?;
    let mut report = Vec::new();
    for t in TARGETS {
        let corpus = root().join(format!("target/fuzz/corpus/{t}"));
        std::fs::create_dir_all(&corpus).map_err(|e| e.to_string())?;
        let seeds = root().join(format!("fuzz/seeds/{t}"));
        let mut cmd = Command::new(bin.join(format!("fuzz_{t}")));
        cmd.arg(&corpus).arg(&seeds).arg(format!("-seed={seed}")).arg("-max_len=65536").arg("-rss_limit_mb=2048").arg("-print_final_stats=1");
        cmd.arg(if runs.is_some() { "-timeout=0" } else { "-timeout=10" });
        cmd.arg(format!("-artifact_prefix={}/", root().join("target/fuzz").display()));
        match runs {
            Some(r) => cmd.arg(format!("-runs={r}")),
            None => cmd.arg(format!("-max_total_time={seconds_per_target}")),
        };
        let out = cmd.current_dir(root()).output().map_err(|e| format!("cannot start fuzz_{t}: {e}"))?;
        let stderr = String::from_utf8_lossy(&out.stderr);
        let execs = stderr.lines().find_map(|l| l.strip_prefix("stat::number_of_executed_units:")).map_or("?".into(), |s| s.trim().to_owned());
        if !out.status.success() {
            let tail: Vec<&str> = stderr.lines().rev().take(40).collect();
            return Err(format!("fuzz_{t} found a failure (artifact in target/fuzz/):\n{}", tail.into_iter().rev().collect::<Vec<_>>().join("\n")));
        }
        eprintln!("fuzz_{t}: {execs} executions, clean");
        report.push(((*t).to_owned(), execs));
    }
    Ok(report)
}

/// The scale `cargo xtask fuzz` times the hostile corpus at (`n` times this, and 8n):
/// unterminated OSC/DCS strings of 8 MiB, 2.5 million one-byte chunks.
const HOSTILE_SCALE: usize = 16;

/// The hostile corpus (`tests/hostile/corpus.json`) timed in Rust, TypeScript and Python
/// at `HOSTILE_SCALE` (t(8n) / t(n) below the corpus's `maxRatio`): the wall-clock side
/// of what the tests count (`maxWorkRatio`), here and never in `cargo xtask test`.
fn hostile_clock() -> Result<(), String> {
    let cargo = crate::cargo();
    run(Command::new(&cargo).args(["build", "--release", "--locked", "--quiet", "-p", "acp-terminal-conformance", "--bin", "hostile_clock"]))?;
    let target = crate::target_dir();
    run(Command::new(target.join("release").join(format!("hostile_clock{}", std::env::consts::EXE_SUFFIX))).arg(HOSTILE_SCALE.to_string()))?;
    build_properties()?;
    run(Command::new("node").arg("tests/properties/dist/tests/properties/hostile_clock.js").arg(HOSTILE_SCALE.to_string()))?;
    // The Python corpus on both paths: the native wheel (installed with the test venv) and pure.
    crate::native::install()?;
    run(Command::new(crate::pyenv::python())
        .arg("tests/properties/hostile_clock.py")
        .arg(HOSTILE_SCALE.to_string())
        .env("PYTHONPATH", root().join("generated/python/src"))
        .env("PYTHONDONTWRITEBYTECODE", "1"))
}

static PROPERTIES_BUILT: std::sync::OnceLock<()> = std::sync::OnceLock::new();

/// Compiles `tests/properties` (the properties and the hostile clock) once per process:
/// the hostile and properties parts of one `cargo xtask fuzz` both run it.
fn build_properties() -> Result<(), String> {
    if PROPERTIES_BUILT.get().is_some() {
        return Ok(());
    }
    crate::node::install()?;
    run(Command::new(crate::node::tsc_path()).args(["-p", "tests/properties/tsconfig.json"]))?;
    let _ = PROPERTIES_BUILT.set(());
    Ok(())
}

/// The fast-check (TypeScript) and hypothesis (Python) properties of `tests/properties`,
/// `runs` examples each, from `seed`.
fn properties(runs: u64, seed: u64) -> Result<(), String> {
    build_properties()?;
    run(Command::new("node").args(["--test", "dist/tests/properties/"]).current_dir(root().join("tests/properties")).env("FC_RUNS", runs.to_string()).env("FC_SEED", seed.to_string()))?;
    // The native wheel too (it installs the test venv first), so the properties run on both
    // Python paths and compare them.
    crate::native::install()?;
    let py = crate::pyenv::python();
    run(Command::new(&py).args(["-m", "ruff", "check", "--quiet", "tests/properties"]))?;
    run(Command::new(&py)
        .args(["-m", "pytest", "-q", "-p", "no:cacheprovider", "tests/properties"])
        .env("PYTHONPATH", root().join("generated/python/src"))
        .env("PYTHONDONTWRITEBYTECODE", "1")
        .env("HYPOTHESIS_RUNS", runs.to_string())
        .env("HYPOTHESIS_SEED", seed.to_string()))
}

/// The parts of `cargo xtask fuzz`, in order (`--only NAME` runs one).
const PARTS: &[&str] = &["libfuzzer", "properties", "hostile", "message", "duplicates", "eviction", "differential", "upstream"];

/// `cargo xtask fuzz --seconds N`: half the time for the libFuzzer targets, then the
/// properties and the hostile corpus at `HOSTILE_SCALE` (with its wall-clock ratios),
/// the 4,000,000-item message measured in every language, the rest for the differential
/// fuzzers; prints what each part did. `only`: one part.
pub fn fuzz(seconds: u64, seed: u64, only: Option<&str>) -> Result<(), String> {
    if let Some(name) = only
        && !PARTS.contains(&name)
    {
        return Err(format!("--only {name}: no such part; the parts are {}", PARTS.join(", ")));
    }
    let wanted = |part: &str| only.is_none_or(|o| o == part);
    let start = Instant::now();
    let deadline = start + Duration::from_secs(seconds);
    let mut report = vec![format!("fuzz: {seconds} s, seed {seed}")];
    if wanted("libfuzzer") {
        let per_target = (seconds / 2 / TARGETS.len() as u64).max(5);
        for (t, n) in libfuzzer(per_target, None, seed)? {
            report.push(format!("  fuzz_{t}: {n} executions, no failure"));
        }
    }
    if wanted("properties") {
        let runs = (seconds * 20).clamp(200, 20_000);
        properties(runs, seed)?;
        report.push(format!("  properties: {runs} examples per property in TypeScript (fast-check) and Python (hypothesis), no failure"));
    }
    if wanted("hostile") {
        hostile_clock()?;
        report.push(format!("  hostile corpus at {HOSTILE_SCALE}x its committed sizes (n and 8n), timed in Rust, TypeScript and Python: survived in linear time"));
    }
    if wanted("message") {
        crate::message::message()?;
        report.push(format!("  the {}-item message: under 500 MiB and 10 s in every language and route, within 3x of valid items", crate::message::ITEMS));
    }
    // What is left: a sixth each for repeated names and eviction, a third for the
    // differential fuzzer on our schemas, a third for upstream's full schemas.
    let now = Instant::now();
    let left = deadline.saturating_duration_since(now);
    if wanted("duplicates") {
        let cases = duplicates(seed, 1000, Some(now + left / 6))?;
        report.push(format!("  repeated member names: {cases} cases in Rust, TypeScript and Python, the same error kind and pointer"));
    }
    if wanted("eviction") {
        let cases = eviction(seed, 300, Some(now + left / 3))?;
        report.push(format!("  eviction: {cases} random interleavings in Rust, TypeScript and Python, never half-evicted, the same terminals, counters and events"));
    }
    let middle = now + left * 2 / 3;
    if wanted("differential") {
        let cases = differential(seed, 3000, Some(middle))?;
        report.push(format!("  differential: {cases} cases in Rust, TypeScript and Python, no disagreement"));
    }
    if wanted("upstream") {
        crate::node::install()?;
        let upstream_rounds = upstream_rounds(&crate::node::tsc_path(), &crate::pyenv::python(), seed, 30, deadline)?;
        report.push(format!("  upstream's full v2 and v1 schemas: {upstream_rounds} rounds (seeds {seed}..) of 30 values per definition, the same in Rust, TypeScript and Python, valid ones accepted, canonical output read back as itself"));
    }
    println!("{}", report.join("\n"));
    Ok(())
}

/// The short seeded pass `cargo xtask test` runs (counted, nothing timed).
pub fn quick() -> Result<(), String> {
    libfuzzer(0, Some(20_000), 1)?;
    properties(200, 1)?;
    duplicates(1, 400, None)?;
    eviction(1, 100, None)?;
    differential(1, 1500, None).map(|_| ())
}

/// `cargo xtask fuzz`'s rounds over upstream's packages: values made from the schema for
/// every definition, `per_def` each, seed after seed until `deadline`, each round judged
/// as the goldens step judges its one (`construct_vectors::run_generated`).
///
/// # Errors
/// The first round with a wrong value (its seed is in the message).
fn upstream_rounds(tsc: &Path, python: &Path, seed: u64, per_def: usize, deadline: std::time::Instant) -> Result<usize, String> {
    let upstream = crate::upstream::inputs()?;
    let mut files = Files::default();
    crate::upstream::package(&upstream, &mut files)?;
    let out = std::env::temp_dir().join(format!("acp-terminal-fuzz-upstream-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&out);
    sync(&out, &files, &[], false)?;
    let mut rounds = 0;
    let result = loop {
        let s = seed.wrapping_add(rounds as u64);
        for input in &upstream {
            if let Err(e) = input.ir().and_then(|ir| crate::construct_vectors::run_generated(&out.join("upstream"), tsc, python, &input.module, ir, per_def, s)) {
                let _ = std::fs::remove_dir_all(&out);
                return Err(format!("upstream values, seed {s}: {e}"));
            }
        }
        rounds += 1;
        if std::time::Instant::now() >= deadline {
            break Ok(rounds);
        }
    };
    let _ = std::fs::remove_dir_all(&out);
    result
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn base64_matches_the_canonical_encoder() {
        for data in [&b""[..], b"a", b"ab", b"abc", b"abcd", &[0xff, 0x00, 0x1b]] {
            let text = format!("{{\"terminalId\":\"t\",\"data\":\"{}\"}}", base64(data));
            let r = acp_terminal_schema::registry::decode(Version::V2, "TerminalOutputChunk", &text).expect("known definition");
            assert!(r.is_ok(), "{text}: {r:?}");
        }
    }

    #[test]
    fn the_same_seed_gives_the_same_cases() {
        let a = std::env::temp_dir().join("acp-fuzz-seed-a");
        let b = std::env::temp_dir().join("acp-fuzz-seed-b");
        write_differential(&a, 7, 200).unwrap();
        write_differential(&b, 7, 200).unwrap();
        for f in ["differential-v2.json", "differential-v1.json"] {
            assert_eq!(std::fs::read(a.join(f)).unwrap(), std::fs::read(b.join(f)).unwrap());
        }
    }

    #[test]
    fn generated_valid_values_decode() {
        // Unmutated values are valid by construction: the source of truth must accept
        // nearly all of them (a few fail only through random free-JSON depth).
        let doc = acp_terminal_schema::emit::schema(Version::V2);
        let ir = ir::build(&doc).unwrap();
        let g = Gen::new(&ir);
        let mut rng = Rng::new(3);
        let mut failures = Vec::new();
        for name in g.names() {
            for _ in 0..20 {
                let text = serde_json::to_string(&g.value(name, &mut rng, 0)).unwrap();
                if let Some(Err(e)) = acp_terminal_schema::registry::decode(Version::V2, name, &text) {
                    failures.push(format!("{name}: {text}: {e:?}"));
                }
            }
        }
        assert!(failures.is_empty(), "{}", failures.join("\n"));
    }
}
