//! `cargo xtask`: the project's commands (see README.md).

mod bench;
mod bench_inputs;
mod compare;
mod conformance;
mod construct_vectors;
mod consumer;
mod crates;
mod e2e;
mod fuzz;
mod goldens;
mod interop;
mod judge;
mod message;
mod native;
mod node;
mod pyenv;
mod upstream;
mod values;

use acp_terminal_codegen as codegen;
use clap::{Parser, Subcommand};
use std::path::PathBuf;
use std::process::{Command, ExitCode};

#[derive(Parser)]
#[command(name = "cargo xtask", about = "acp-terminal: generate and test")]
struct Cli {
    #[command(subcommand)]
    command: Cmd,
}

#[derive(Subcommand)]
enum Cmd {
    /// Emit the JSON Schema documents (and, as they are added, the bindings).
    Gen {
        /// Write nothing; fail with a diff when a committed file is stale.
        #[arg(long)]
        check: bool,
        /// Run the generator on another JSON Schema document (draft 2020-12, `$defs`).
        #[arg(long, requires = "out")]
        schema: Option<PathBuf>,
        /// Where `--schema` writes its bindings.
        #[arg(long, requires = "schema")]
        out: Option<PathBuf>,
        /// The package name for `--schema` (kebab-case; the crate, npm and PyPI name,
        /// `_` for `-` in Rust and Python). Default: the schema's `title`, kebab-cased.
        #[arg(long, requires = "schema")]
        name: Option<String>,
        /// The package description for `--schema`.
        #[arg(long, requires = "schema")]
        description: Option<String>,
        /// A JSON merge patch applied to `--schema` first, to say what the schema cannot
        /// (`x-patch` members, `x-absolute-path` strings); it may only annotate what the
        /// schema has. `tests/upstream/acp-v2-overlay.json` is upstream's.
        #[arg(long, requires = "schema")]
        overlay: Option<PathBuf>,
        /// With `--schema`: generate the definitions the generator supports, leave out
        /// the others and everything that refers to them, and list them with the reason.
        #[arg(long, requires = "schema")]
        partial: bool,
    },
    /// Run every test: the generated-files check, the Rust tests, the conformance suite.
    Test {
        /// Start at this step (upstream, goldens, cargo, typescript, python, native, conformance, fuzz,
        /// packages, bench, e2e, interop), after the generated-files check and the installs: to
        /// go on from a step that failed. CI runs them all.
        #[arg(long, conflicts_with = "only")]
        from: Option<String>,
        /// Run only this step (after the generated-files check and the installs).
        #[arg(long)]
        only: Option<String>,
        /// (Internal) run these steps as the second lane of a run whose first lane did
        /// the checks and the installs.
        #[arg(long, hide = true, value_delimiter = ',', conflicts_with_all = ["from", "only"])]
        beside: Vec<String>,
    },
    /// Run the conformance vectors under DIR... (default `tests/vectors`) in every
    /// language and compare their bytes.
    Conformance {
        /// Directories (or files) of vectors in the docs/CONFORMANCE.md format.
        dirs: Vec<PathBuf>,
    },
    /// Fuzz: the libFuzzer targets (parse, store, transcript, evict), the properties, the
    /// hostile corpus timed, the 4,000,000-item message measured, and the differential
    /// fuzzers (repeated names, eviction, values of our schemas and upstream's) that
    /// require Rust, TypeScript and Python to agree.
    Fuzz {
        /// How long in all.
        #[arg(long, default_value_t = 60)]
        seconds: u64,
        /// The seed of the libFuzzer runs and of the differential cases.
        #[arg(long, default_value_t = 1)]
        seed: u64,
        /// Run only this part (libfuzzer, properties, hostile, message, differential,
        /// duplicates, eviction, upstream).
        #[arg(long)]
        only: Option<String>,
    },
    /// Benchmark every row of BENCHMARKS.md in Rust, Node and Python and write the table
    /// to BENCHMARKS.md (with --quick, to target/bench/BENCHMARKS.quick.md).
    Bench {
        /// Small inputs: under a minute once the bench builds are done; the table goes to
        /// target/bench/BENCHMARKS.quick.md, leaving the committed full run alone.
        #[arg(long)]
        quick: bool,
        /// Write the report here instead of BENCHMARKS.md.
        #[arg(long)]
        out: Option<PathBuf>,
    },
    /// This generator beside typify, datamodel-code-generator and quicktype on upstream's
    /// full schemas (docs/GENERATOR.md, "How it compares"): installs the pinned tools under
    /// `tests/compare/`, runs the probes, and checks the table in docs/GENERATOR.md.
    Compare {
        /// Rewrite that table instead of failing when it differs.
        #[arg(long)]
        write: bool,
    },

    /// Derive upstream's JSON Schemas (v2, v2 with `unstable`, v1) from the pinned
    /// published crate `agent-client-protocol-schema` and write them to `tests/upstream/`.
    Upstream {
        /// Write nothing; fail with a diff when a committed file differs from what the crate gives.
        #[arg(long)]
        check: bool,
    },

    /// The end-to-end loop: the example Agent, the terminal Client, the browser page.
    #[command(subcommand)]
    E2e(e2e::Cmd),
}

pub use codegen::root;

/// `cargo xtask gen [--check]`: emits the project's schemas from the source-of-truth
/// types (the one step that reads them), then runs the generator on the emitted JSON.
fn generate(check: bool) -> Result<(), String> {
    use acp_terminal_schema::emit::{Version, schema_text};
    let schemas = [Version::V2, Version::V1].into_iter().map(|v| (v.as_str().to_owned(), format!("schema/json/{}/schema.json", v.as_str()), schema_text(v))).collect();
    codegen::generate(schemas, check)
}

/// The cargo that runs xtask (`$CARGO`), so every cargo command of the harness uses one toolchain.
pub fn cargo() -> String {
    std::env::var("CARGO").unwrap_or_else(|_| "cargo".into())
}

pub fn run(cmd: &mut Command) -> Result<(), String> {
    eprintln!("$ {}", format!("{cmd:?}").replace('"', ""));
    if cmd.get_current_dir().is_none() {
        cmd.current_dir(root());
    }
    let began = std::time::Instant::now();
    let status = cmd.status().map_err(|e| format!("could not start {cmd:?}: {e}"))?;
    // What took long says where a step's time goes.
    let took = began.elapsed().as_secs_f64();
    if took >= 5.0 {
        eprintln!("  ({took:.0} s: {})", cmd.get_program().to_string_lossy().rsplit('/').next().unwrap_or_default());
    }
    if status.success() { Ok(()) } else { Err(format!("{cmd:?} failed ({status})")) }
}

/// The Cargo workspaces whose lock files are committed: every cargo command of
/// `cargo xtask test` passes `--locked`, so a stale lock file fails the run. Check them
/// all first, in seconds, rather than deep into the run when the fuzz or bench build
/// starts.
const LOCKED_WORKSPACES: [&str; 5] = ["Cargo.toml", "fuzz/Cargo.toml", e2e::AGENT_MANIFEST, "tests/upstream-schema/Cargo.toml", "native/python/Cargo.toml"];

fn check_lock_files() -> Result<(), String> {
    let cargo = cargo();
    for manifest in LOCKED_WORKSPACES {
        let out = Command::new(&cargo)
            .args(["metadata", "--locked", "--format-version", "1", "--manifest-path", manifest])
            .current_dir(root())
            .stdout(std::process::Stdio::null())
            .output()
            .map_err(|e| format!("could not start cargo metadata for {manifest}: {e}"))?;
        if !out.status.success() {
            return Err(format!(
                "the lock file beside {manifest} is stale (it no longer matches the manifests); \
                 run `cargo metadata --format-version 1 --manifest-path {manifest} >/dev/null` \
                 and commit the updated Cargo.lock\n{}",
                String::from_utf8_lossy(&out.stderr).trim_end()
            ));
        }
    }
    eprintln!("lock files: {} workspaces up to date", LOCKED_WORKSPACES.len());
    Ok(())
}

/// Clippy, warnings denied, on every compile of the project's own code in the run: each
/// cargo command the steps start (the root workspace, the generated goldens, the example
/// Agent, fuzz, bench, the native wheel through maturin) compiles its workspace's members
/// through `clippy-driver` (cargo's `RUSTC_WORKSPACE_WRAPPER`, what `cargo clippy` itself
/// sets), so the lints come with the build that the tests need, instead of a second,
/// check-only compile of everything. Dependencies are compiled as usual.
fn lint_every_compile() -> Result<(), String> {
    let cargo = PathBuf::from(cargo());
    let name = if cfg!(windows) { "clippy-driver.exe" } else { "clippy-driver" };
    // Beside the cargo that runs us (a toolchain's bin folder, or rustup's proxies).
    let driver = if cargo.parent().is_some_and(|p| !p.as_os_str().is_empty()) { cargo.with_file_name(name) } else { PathBuf::from(name) };
    let works = Command::new(&driver).arg("--version").output().is_ok_and(|o| o.status.success());
    if !works {
        return Err(format!("{} does not run: the test command lints every compile with clippy; install it with `rustup component add clippy`", driver.display()));
    }
    // SAFETY: called at the start of the run, before any thread is started.
    unsafe {
        std::env::set_var("RUSTC_WORKSPACE_WRAPPER", &driver);
        std::env::set_var("CLIPPY_ARGS", "-D__CLIPPY_HACKERY__warnings__CLIPPY_HACKERY__");
    }
    eprintln!("lints: every compile of the run goes through {}, warnings denied", driver.display());
    Ok(())
}

/// Whether this run's compiles already go through clippy (`lint_every_compile`); a
/// command outside `cargo xtask test` runs its own clippy pass instead.
pub fn compiles_are_linted() -> bool {
    std::env::var_os("CLIPPY_ARGS").is_some() && std::env::var_os("RUSTC_WORKSPACE_WRAPPER").is_some()
}

/// The CPU time of this process and of every child it waited for, in seconds (Linux's
/// `/proc/self/stat`, at the usual 100 ticks a second; `None` elsewhere): what a step
/// costs on a machine with fewer cores, beside its wall time.
fn cpu_seconds() -> Option<f64> {
    let stat = std::fs::read_to_string("/proc/self/stat").ok()?;
    // The fields after the command name (which may hold spaces) in parentheses.
    let fields: Vec<&str> = stat.rsplit_once(')')?.1.split_whitespace().collect();
    // utime, stime, cutime, cstime are fields 14-17 of the whole line: 11-14 here.
    let ticks: u64 = fields.get(11..15)?.iter().map(|f| f.parse::<u64>().ok()).sum::<Option<u64>>()?;
    Some(ticks as f64 / 100.0)
}

/// Set by `cargo xtask test`: builds that only need to work (the native wheel the tests
/// load) use a quick profile instead of the optimised one the benchmarks measure.
static IN_TEST_COMMAND: std::sync::atomic::AtomicBool = std::sync::atomic::AtomicBool::new(false);

/// Whether this process runs `cargo xtask test` (see [`IN_TEST_COMMAND`]).
pub fn in_test_command() -> bool {
    IN_TEST_COMMAND.load(std::sync::atomic::Ordering::Relaxed)
}

/// A binary of a workspace member as `cargo test --workspace` builds it (a member with
/// integration tests has its binaries built for them). Building a binary with `-p` instead
/// resolves features over that package alone and compiles it and what it depends on a
/// second time; after the cargo step of `cargo xtask test` this is a no-op build.
/// Built once per process: nothing in a run changes the workspace's sources.
pub fn workspace_bin(name: &str) -> Result<PathBuf, String> {
    static BUILT: std::sync::OnceLock<()> = std::sync::OnceLock::new();
    if BUILT.get().is_none() {
        run(Command::new(cargo()).args(["test", "--workspace", "--locked", "--quiet", "--no-run"]))?;
        let _ = BUILT.set(());
    }
    Ok(target_dir().join("debug").join(format!("{name}{}", std::env::consts::EXE_SUFFIX)))
}

/// The workspace's target folder: `CARGO_TARGET_DIR`, or `target/` at the root.
pub fn target_dir() -> PathBuf {
    std::env::var_os("CARGO_TARGET_DIR").map_or_else(|| root().join("target"), PathBuf::from)
}

/// Every dependency of xtask is resolved with the features the workspace's test build
/// gives it (xtask/Cargo.toml asks for them), so `cargo test --workspace` reuses what
/// `cargo xtask` compiled instead of compiling serde, syn and what depends on them again.
/// Read from `cargo tree` (no compile); a drift is an error that names the packages.
fn shared_features() -> Result<(), String> {
    let tree = |args: &[&str]| -> Result<std::collections::BTreeMap<String, std::collections::BTreeSet<String>>, String> {
        let out =
            Command::new(cargo()).args(["tree", "--locked", "--prefix", "none", "-f", "{p}|{f}"]).args(args).current_dir(root()).output().map_err(|e| format!("could not start cargo tree: {e}"))?;
        if !out.status.success() {
            return Err(format!("cargo tree {args:?} failed: {}", String::from_utf8_lossy(&out.stderr).trim_end()));
        }
        let mut by_package: std::collections::BTreeMap<String, std::collections::BTreeSet<String>> = Default::default();
        for line in String::from_utf8_lossy(&out.stdout).lines() {
            let line = line.trim_end_matches(" (*)");
            // Only registry packages: the workspace's own are compiled per build anyway.
            if let Some((package, features)) = line.split_once('|').filter(|(p, _)| !p.contains(" (")) {
                by_package.entry(package.to_owned()).or_default().insert(features.to_owned());
            }
        }
        Ok(by_package)
    };
    let ours = tree(&["-p", "xtask", "-e", "normal,build"])?;
    let workspace = tree(&["--workspace", "-e", "normal,build,dev"])?;
    let mut drifted = Vec::new();
    for (package, sets) in &ours {
        let theirs = workspace.get(package);
        for f in sets.iter().filter(|f| !theirs.is_some_and(|w| w.contains(*f))) {
            drifted.push(format!("{package} [{f}] (the workspace: {theirs:?})"));
        }
    }
    if drifted.is_empty() {
        eprintln!("shared features: xtask's {} dependencies are built as the workspace's test build builds them", ours.len());
        Ok(())
    } else {
        Err(format!(
            "xtask's build and `cargo test --workspace` resolve these dependencies with different features, so each would be compiled twice: {}; \
             add the workspace's features to xtask/Cargo.toml (the alignment block at its end)",
            drifted.join("; ")
        ))
    }
}

/// One step of `cargo xtask test`: its name (for `--from`) and what it runs.
type Step = (&'static str, fn() -> Result<(), String>);

fn cargo_test() -> Result<(), String> {
    let cargo = cargo();
    // The layout first (seconds; rustfmt.toml), in every workspace of the repository.
    for manifest in LOCKED_WORKSPACES {
        run(Command::new(&cargo).args(["fmt", "--all", "--check", "--manifest-path", manifest]))?;
    }
    // The vector runner that each generated package compiles as an example (its own file).
    run(Command::new("rustfmt").args(["--check", "--edition", "2024", "--config-path", "rustfmt.toml", "tests/runners/vectors.rs"]))?;
    run(Command::new(&cargo).args(["test", "--workspace", "--locked", "--no-fail-fast"]))?;
    // The generated crate again on its own, with the features its users get: in the
    // workspace, other members switch on serde_json's `preserve_order`, which would hide
    // code that needs it (features are unified only over the packages built).
    run(Command::new(&cargo).args(["test", "--locked", "--quiet", "-p", "acp-terminal"]))?;
    // Clippy with warnings denied ran on every target just built (`lint_every_compile`):
    // no second, check-only pass over the workspace.
    // The API reference of both published crates builds without a warning (broken
    // intra-doc links, missing docs on what the crate overview names...).
    run(Command::new(&cargo).args(["doc", "--locked", "--quiet", "--no-deps", "-p", "acp-terminal", "-p", "acp-terminal-schema"]).env("RUSTDOCFLAGS", "-D warnings"))
}

fn typescript_tests() -> Result<(), String> {
    node::build_tests()?;
    run(Command::new("node").args(["--test", "tests/bindings/dist/tests/bindings/"]))?;
    node::runtime_tests()?;
    node::transcript_tests()
}

fn packages() -> Result<(), String> {
    consumer::rust()?;
    crates::publish_dry_run()?;
    consumer::typescript()?;
    consumer::python()?;
    pyenv::package()
}

fn end_to_end() -> Result<(), String> {
    e2e::terminal()?;
    e2e::browser()?;
    e2e::readme_snippets()
}

/// Every step, in order. The installs always run; `--from NAME` skips the steps before NAME.
const STEPS: &[Step] = &[
    ("upstream", || upstream::derive(true)),
    ("goldens", || goldens::compile_goldens(&node::tsc_path(), &pyenv::python())),
    ("cargo", cargo_test),
    ("typescript", typescript_tests),
    ("python", pyenv::test),
    ("native", native::test),
    ("conformance", || conformance::conformance(&[])),
    ("fuzz", fuzz::quick),
    ("packages", packages),
    ("bench", bench::smoke),
    ("e2e", end_to_end),
    ("interop", interop::test),
];

/// The steps that run beside the others, in a second xtask process, while this one runs
/// the rest: on 2 cores one lane leaves a core idle for much of its time (a test binary
/// runs, a browser waits, one crate compiles alone at the end of a build). The two lanes
/// share no build folder and no file that a step writes: this side compiles upstream's
/// crate, the goldens, the example Agent (`target/upstream-schema`, `target/goldens`,
/// `target/agent`) and uses the TypeScript tests built before both start; the other
/// compiles the workspace (`target/debug`), the fuzz targets, the packages and the wheel.
const BESIDE: &[&str] = &["upstream", "goldens", "typescript", "python", "e2e", "interop"];

/// The steps of this lane that use the native wheel: it is installed into `.venv` before
/// the lanes start, so nothing replaces it while the other lane's Python runs.
const NEEDS_WHEEL: &[&str] = &["native", "conformance", "fuzz", "bench"];

fn test(from: Option<&str>, only: Option<&str>, beside: &[String]) -> Result<(), String> {
    IN_TEST_COMMAND.store(true, std::sync::atomic::Ordering::Relaxed);
    if !beside.is_empty() {
        // The second lane of a run: the first did the checks, the installs and the shared builds.
        node::built_already();
        let steps = beside.iter().map(|name| STEPS.iter().find(|(n, _)| n == name).ok_or_else(|| format!("--beside {name}: no such step"))).collect::<Result<Vec<_>, _>>()?;
        for step in steps {
            if !BEFORE_READY.contains(&step.0) {
                wait_until_ready()?;
            }
            run_steps(&[step], None)?;
        }
        return Ok(());
    }
    let position = |flag: &str, name: &str| {
        STEPS.iter().position(|(n, _)| *n == name).ok_or_else(|| format!("{flag} {name}: no such step; the steps are {}", STEPS.iter().map(|(n, _)| *n).collect::<Vec<_>>().join(", ")))
    };
    let (start, end) = match (from, only) {
        (_, Some(name)) => {
            let i = position("--only", name)?;
            (i, i + 1)
        }
        (Some(name), None) => (position("--from", name)?, STEPS.len()),
        (None, None) => (0, STEPS.len()),
    };
    check_lock_files()?;
    shared_features()?;
    lint_every_compile()?;
    generate(true)?;
    node::install()?;
    let selected: Vec<&Step> = STEPS[start..end].iter().collect();
    let (side, here): (Vec<&Step>, Vec<&Step>) = selected.iter().partition(|(n, _)| BESIDE.contains(n));
    if side.is_empty() || here.is_empty() {
        pyenv::install()?;
        return run_steps(&selected, None);
    }
    // The second lane starts now, with the steps that need neither the Python environment
    // nor what both lanes share; the rest of it waits until those are ready.
    let ready = root().join("target/test-lanes/ready");
    let _ = std::fs::remove_file(&ready);
    let mut side = Beside::start(&side, &ready)?;
    let prepared = (|| {
        pyenv::install()?;
        node::build_tests()?;
        if here.iter().any(|(n, _)| NEEDS_WHEEL.contains(n)) {
            native::install()?;
        }
        std::fs::write(&ready, "").map_err(|e| format!("{}: {e}", ready.display()))
    })();
    let result = prepared.and_then(|()| run_steps(&here, Some(&mut side)));
    let side_result = side.finish(result.is_err());
    result.and(side_result)
}

/// The steps the second lane may run before the first has installed the Python
/// environment and built the TypeScript tests and the wheel: they use only cargo.
const BEFORE_READY: &[&str] = &["upstream"];

/// In the second lane: waits until the first lane says what both share is ready (the file
/// named by `ACP_XTASK_LANE_READY`); fails if the first lane is gone.
fn wait_until_ready() -> Result<(), String> {
    let Some(ready) = std::env::var_os("ACP_XTASK_LANE_READY").map(PathBuf::from) else { return Ok(()) };
    #[cfg(unix)]
    let parent = std::os::unix::process::parent_id();
    while !ready.exists() {
        #[cfg(unix)]
        if std::os::unix::process::parent_id() != parent {
            return Err("the first lane of the run ended before the installs were ready".into());
        }
        std::thread::sleep(std::time::Duration::from_millis(200));
    }
    Ok(())
}

/// Runs `steps` in order, each reported with its wall and CPU time; with `side`, stops at
/// the first step after the other lane failed.
fn run_steps(steps: &[&Step], mut side: Option<&mut Beside>) -> Result<(), String> {
    for (name, step) in steps {
        if let Some(side) = side.as_deref_mut()
            && side.failed()
        {
            return Err(format!("stopped before the step {name}: the steps run beside it failed"));
        }
        let began = std::time::Instant::now();
        let cpu = cpu_seconds();
        step()?;
        let cpu = match (cpu, cpu_seconds()) {
            (Some(a), Some(b)) => format!(", {:.0} s of CPU", b - a),
            _ => String::new(),
        };
        eprintln!("test step {name}: passed ({:.0} s{cpu})", began.elapsed().as_secs_f64());
    }
    Ok(())
}

/// The second lane: `xtask test --beside STEPS` as a child process in a process group of
/// its own, its output in a log file that is printed whole when it ends (two lanes'
/// output interleaved line by line would be unreadable).
struct Beside {
    child: std::process::Child,
    steps: String,
    log: PathBuf,
    began: std::time::Instant,
    status: Option<std::process::ExitStatus>,
    /// Echoes the second lane's step reports as they come (its full output waits for the end).
    follower: Option<(std::sync::Arc<std::sync::atomic::AtomicBool>, std::thread::JoinHandle<()>)>,
}

/// Prints each `test step` line that appears in `log`, until `done` is set and the file is read.
fn follow(log: PathBuf, done: std::sync::Arc<std::sync::atomic::AtomicBool>) {
    use std::io::Read as _;
    let Ok(mut file) = std::fs::File::open(&log) else { return };
    // What was read past the last complete line.
    let mut pending = Vec::new();
    loop {
        let finished = done.load(std::sync::atomic::Ordering::Relaxed);
        // The file only grows: each read takes what was appended since the last.
        if file.read_to_end(&mut pending).is_ok()
            && let Some(end) = pending.iter().rposition(|&b| b == b'\n')
        {
            for line in String::from_utf8_lossy(&pending[..end]).lines().filter(|l| l.starts_with("test step")) {
                eprintln!("(beside) {line}");
            }
            pending.drain(..=end);
        }
        if finished {
            return;
        }
        std::thread::sleep(std::time::Duration::from_millis(500));
    }
}

impl Beside {
    fn start(steps: &[&Step], ready: &std::path::Path) -> Result<Self, String> {
        let steps = steps.iter().map(|(n, _)| *n).collect::<Vec<_>>().join(",");
        let dir = root().join("target/test-lanes");
        std::fs::create_dir_all(&dir).map_err(|e| format!("{}: {e}", dir.display()))?;
        let log = dir.join("beside.log");
        let file = std::fs::File::create(&log).map_err(|e| format!("{}: {e}", log.display()))?;
        let exe = std::env::current_exe().map_err(|e| format!("where is xtask's binary? {e}"))?;
        let mut cmd = Command::new(exe);
        cmd.args(["test", "--beside", &steps])
            .current_dir(root())
            .stdin(std::process::Stdio::null())
            .stdout(file.try_clone().map_err(|e| e.to_string())?)
            .stderr(file)
            // Each lane's mypy keeps its own cache: two mypy processes must not write one.
            .env("MYPY_CACHE_DIR", dir.join("mypy-cache"))
            .env("ACP_XTASK_LANE_READY", ready);
        #[cfg(unix)]
        std::os::unix::process::CommandExt::process_group(&mut cmd, 0);
        let child = cmd.spawn().map_err(|e| format!("could not start the second lane: {e}"))?;
        eprintln!("test steps {}: run beside the others, in a second process; its output is in {} and follows when it ends (its step reports as they come)", steps.replace(',', ", "), log.display());
        let done = std::sync::Arc::new(std::sync::atomic::AtomicBool::new(false));
        let follower = std::thread::spawn({
            let (log, done) = (log.clone(), done.clone());
            move || follow(log, done)
        });
        Ok(Self { child, steps, log, began: std::time::Instant::now(), status: None, follower: Some((done, follower)) })
    }

    /// Whether the second lane has ended with a failure (without waiting for it).
    fn failed(&mut self) -> bool {
        if self.status.is_none() {
            self.status = self.child.try_wait().ok().flatten();
        }
        self.status.is_some_and(|s| !s.success())
    }

    /// Waits for the second lane (ends it first when `stop`: this lane failed) and prints
    /// its output.
    fn finish(mut self, stop: bool) -> Result<(), String> {
        if stop && self.status.is_none() {
            eprintln!("test: ending the steps run beside ({}), since a step failed", self.steps);
            #[cfg(unix)]
            let _ = Command::new("kill").args(["-TERM", "--", &format!("-{}", self.child.id())]).status();
            #[cfg(not(unix))]
            let _ = self.child.kill();
        }
        let status = match self.status {
            Some(s) => s,
            None => self.child.wait().map_err(|e| format!("waiting for the second lane: {e}"))?,
        };
        if let Some((done, follower)) = self.follower.take() {
            done.store(true, std::sync::atomic::Ordering::Relaxed);
            let _ = follower.join();
        }
        let text = std::fs::read_to_string(&self.log).unwrap_or_default();
        eprintln!("--- the steps run beside the others ({}), their output ({}):", self.steps.replace(',', ", "), self.log.display());
        eprint!("{text}");
        eprintln!("--- end of the steps run beside the others ({:.0} s)", self.began.elapsed().as_secs_f64());
        match (status.success(), stop) {
            (true, _) => Ok(()),
            (false, true) => Err(format!("the steps {} were ended early ({status})", self.steps)),
            (false, false) => Err(format!("the steps run beside the others ({}) failed ({status}): the error is at the end of their output above", self.steps)),
        }
    }
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    let result = match cli.command {
        Cmd::Gen { check, schema: Some(schema), out: Some(out), name, description, overlay, partial } => {
            codegen::generate_from(&schema, &out, &codegen::FromOptions { name, description, overlay, partial }, check)
        }
        Cmd::Gen { check, .. } => generate(check),
        Cmd::Test { from, only, beside } => test(from.as_deref(), only.as_deref(), &beside),
        Cmd::Conformance { dirs } => conformance::conformance(&dirs),
        Cmd::Fuzz { seconds, seed, only } => fuzz::fuzz(seconds, seed, only.as_deref()),
        Cmd::Bench { quick, out } => bench::bench(quick, out.as_deref()),
        Cmd::Compare { write } => compare::compare(write),
        Cmd::Upstream { check } => upstream::derive(check),

        Cmd::E2e(cmd) => e2e::cli(cmd),
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("error: {e}");
            ExitCode::FAILURE
        }
    }
}
