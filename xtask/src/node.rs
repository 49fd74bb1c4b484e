//! The TypeScript side of `cargo xtask test`: installs the test project's npm packages
//! (`tests/package.json`) into its ignored `tests/node_modules` from the committed lock
//! file, type-checks the generated package on its own, and builds the tests and the
//! conformance runner.

use crate::{root, run};
use std::process::Command;

pub fn npm() -> &'static str {
    if cfg!(windows) { "npm.cmd" } else { "npm" }
}

fn tsc() -> String {
    tsc_path().display().to_string()
}

/// The TypeScript compiler the test project installs.
pub fn tsc_path() -> std::path::PathBuf {
    root().join(format!("{PROJECT}/node_modules/.bin/tsc"))
}

/// The one npm project of the test command: `tests/package.json` holds what every
/// subject's TypeScript tests use (the compiler, Node's types, the SDK, xterm, fast-check,
/// playwright, acpx), and Node and `tsc` find `tests/node_modules` from any folder under
/// `tests/` by ancestry.
pub const PROJECT: &str = "tests";

/// Installs the test project's packages when they are missing or stale.
pub fn install() -> Result<(), String> {
    install_in(PROJECT)
}

/// Installs the packages of `rel` from its lock file when they are missing or older than
/// it. Not with `npm ci`: acpx's dependency `@openclaw/fs-safe` lists optional
/// per-platform packages (darwin, win32, arm64) that not every registry serves, and a
/// lock file written where they are missing lacks them, which `npm ci` refuses whatever
/// the platform. `npm install --no-save` installs exactly the locked versions (the
/// platform packages of other systems are never installed anyway); the lock file is
/// checked unchanged afterwards, so a `package.json` that no longer matches it fails.
pub fn install_in(rel: &str) -> Result<(), String> {
    let dir = root().join(rel);
    let marker = dir.join("node_modules/.package-lock.json");
    let lock = dir.join("package-lock.json");
    let fresh = match (std::fs::metadata(&marker).and_then(|m| m.modified()), std::fs::metadata(&lock).and_then(|m| m.modified())) {
        (Ok(installed), Ok(locked)) => installed >= locked,
        _ => false,
    };
    if fresh {
        return Ok(());
    }
    let before = std::fs::read(&lock).map_err(|e| format!("{}: {e}", lock.display()))?;
    run(Command::new(npm()).args(["install", "--no-save", "--no-audit", "--no-fund", "--loglevel=error"]).current_dir(&dir))?;
    if std::fs::read(&lock).map_err(|e| e.to_string())? != before {
        std::fs::write(&lock, &before).map_err(|e| e.to_string())?;
        return Err(format!("{} does not match {rel}/package.json: update it with `npm install` in {rel} and commit it", lock.display()));
    }
    Ok(())
}

static BUILT: std::sync::OnceLock<()> = std::sync::OnceLock::new();

/// In the second lane of `cargo xtask test`: the first built the tests before it started
/// (and reads them while this lane runs), so this process does not build them again.
pub fn built_already() {
    let _ = BUILT.set(());
}

/// Installs, checks the generated package with its own strict `tsconfig.json`, and
/// compiles the tests (with the generated sources) into `tests/bindings/dist`. Once
/// per process: the typescript, conformance and fuzz steps all ask, and nothing in a run
/// changes those sources.
pub fn build_tests() -> Result<(), String> {
    if BUILT.get().is_some() {
        return Ok(());
    }
    install()?;
    run(Command::new(tsc()).args(["-p", "generated/typescript/tsconfig.json", "--noEmit"]))?;
    run(Command::new(tsc()).args(["-p", "tests/bindings/tsconfig.json"]))?;
    let _ = BUILT.set(());
    Ok(())
}

/// The runtime's own tests (`tests/runtime`): type-checks the runtime alone,
/// with no Node or DOM types, then runs its unit tests.
pub fn runtime_tests() -> Result<(), String> {
    compile_and_test("tests/runtime")
}

/// The transcript's own tests (`tests/transcript`): its vectors, whole and byte by
/// byte, the re-chunking property and the safety test, with the test project's `tsc`.
pub fn transcript_tests() -> Result<(), String> {
    compile_and_test("tests/transcript")
}

/// A subject's TypeScript tests: `tsconfig.runtime.json` type-checks the sources alone
/// (no Node types), `tsconfig.json` compiles them with the tests into `dist/`, and Node's
/// test runner runs every `*.test.js` there.
fn compile_and_test(rel: &str) -> Result<(), String> {
    install()?;
    run(Command::new(tsc()).args(["-p", &format!("{rel}/tsconfig.runtime.json")]))?;
    run(Command::new(tsc()).args(["-p", &format!("{rel}/tsconfig.json")]))?;
    let dist = rel.trim_start_matches("tests/");
    run(Command::new("node").args(["--test", &format!("dist/tests/{dist}/")]).current_dir(root().join(rel)))
}

/// A folder under the system temp dir, removed on drop.
struct Scratch(std::path::PathBuf);

impl Scratch {
    fn new(name: &str) -> Result<Self, String> {
        let p = std::env::temp_dir().join(format!("acp-terminal-{name}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&p);
        std::fs::create_dir_all(&p).map_err(|e| format!("{}: {e}", p.display()))?;
        Ok(Self(p))
    }

    fn write(&self, rel: &str, text: &str) -> Result<(), String> {
        let p = self.0.join(rel);
        if let Some(parent) = p.parent() {
            std::fs::create_dir_all(parent).map_err(|e| e.to_string())?;
        }
        std::fs::write(&p, text).map_err(|e| format!("{}: {e}", p.display()))
    }
}

impl Drop for Scratch {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

/// Files the tarball must hold (besides a `dist/*.js` and `.d.ts` for every source module).
const PACKED: &[&str] = &["package.json", "README.md", "LICENSE", "dist/index.js", "dist/index.d.ts", "dist/internal.js", "dist/v2.d.ts", "dist/store.js"];

/// The npm package as users get it. In `generated/typescript`, `npm install` (its one
/// dev dependency, TypeScript; no lock file written) and `npm pack`, whose `prepack`
/// script builds `dist/`: exactly what a user or `npm publish` runs. The tarball must
/// hold the build, README and LICENSE; the checkout must stay clean (`git status`);
/// then the tarball is installed into a fresh project with the strictest compiler
/// options, no DOM or Node types, that imports every entry point, type-checks (also
/// that codec internals are *not* in the public entries) and runs.
pub fn consumer() -> Result<(), String> {
    install()?;
    let pkg = root().join("generated/typescript");
    // Installing and packing must change nothing git sees (dist/ and node_modules/ are ignored).
    let before = git_status("generated/typescript");
    run(Command::new(npm()).args(["install", "--no-package-lock", "--no-audit", "--no-fund", "--loglevel=error"]).current_dir(&pkg))?;
    let dir = Scratch::new("ts-consumer")?;
    eprintln!("$ npm pack --json --pack-destination {} (in generated/typescript)", dir.0.display());
    let out = Command::new(npm()).args(["pack", "--json", "--loglevel=error", "--pack-destination"]).arg(&dir.0).current_dir(&pkg).output().map_err(|e| format!("npm pack: {e}"))?;
    let stdout = String::from_utf8_lossy(&out.stdout);
    if !out.status.success() {
        return Err(format!("npm pack failed:\n{stdout}\n{}", String::from_utf8_lossy(&out.stderr)));
    }
    // Lifecycle scripts may print before the JSON report; it starts at a line `[`.
    let json = stdout.find("\n[").map_or(stdout.as_ref(), |i| &stdout[i + 1..]);
    let report: serde_json::Value = serde_json::from_str(json.trim_start()).map_err(|e| format!("npm pack --json printed no report ({e}):\n{stdout}"))?;
    let entry = report.get(0).ok_or("npm pack reported no tarball")?;
    let tarball = dir.0.join(entry.get("filename").and_then(|f| f.as_str()).ok_or("npm pack reported no filename")?);
    let files: Vec<String> = entry.get("files").and_then(|f| f.as_array()).map(|a| a.iter().filter_map(|f| f.get("path")?.as_str().map(str::to_owned)).collect()).unwrap_or_default();
    let mut missing: Vec<String> = PACKED.iter().map(|f| (*f).to_owned()).filter(|f| !files.contains(f)).collect();
    for f in files.iter().filter(|f| f.starts_with("src/") && f.ends_with(".ts")) {
        let stem = f.trim_start_matches("src/").trim_end_matches(".ts");
        missing.extend([format!("dist/{stem}.js"), format!("dist/{stem}.d.ts")].into_iter().filter(|d| !files.contains(d)));
    }
    if !missing.is_empty() || files.iter().any(|f| f.starts_with("node_modules/")) {
        return Err(format!("the npm tarball lacks {missing:?} (or holds node_modules); it holds {files:?}"));
    }
    let after = git_status("generated/typescript");
    if after != before {
        return Err(format!("building the npm package changed what git sees in generated/typescript:\nbefore:\n{}\nafter:\n{}", before.unwrap_or_default(), after.unwrap_or_default()));
    }

    let app = Scratch::new("ts-consumer-app")?;
    // The consumer program and its project (tests/consumer/typescript), copied in.
    for file in ["package.json", "tsconfig.json", "main.ts"] {
        let rel = format!("tests/consumer/typescript/{file}");
        app.write(file, &std::fs::read_to_string(root().join(&rel)).map_err(|e| format!("{rel}: {e}"))?)?;
    }
    // The SDK (pinned as in tests/package.json) for the README's SDK example.
    run(Command::new(npm()).args(["install", "--no-audit", "--no-fund", "--loglevel=error"]).arg(&tarball).arg(SDK).current_dir(&app.0))?;
    run(Command::new(tsc()).args(["-p", "tsconfig.json"]).current_dir(&app.0))?;
    run(Command::new("node").arg("dist/main.js").current_dir(&app.0))?;
    api_reference(&app)?;
    readme_snippets(&app)
}

/// The API reference is the declaration files: the entry's opens with an overview that
/// names the store and the transcript, and every public module has its own overview.
fn api_reference(app: &Scratch) -> Result<(), String> {
    let dist = app.0.join("node_modules/acp-terminal/dist");
    for (file, must) in
        [("index.d.ts", &["`TerminalStore`", "`Transcript`", "`v2`", "acp-terminal/internal"][..]), ("v2.d.ts", &["parse<Name>", "serialize<Name>"][..]), ("internal.d.ts", &["semver"][..])]
    {
        let text = std::fs::read_to_string(dist.join(file)).map_err(|e| format!("dist/{file}: {e}"))?;
        let overview = text.split("*/").next().unwrap_or_default();
        if let Some(m) = must.iter().find(|m| !overview.contains(*m)) {
            return Err(format!("the overview of dist/{file} does not mention {m}:\n{overview}"));
        }
    }
    Ok(())
}

/// The SDK the README's example and `tests/bindings/sdk.test.ts` use.
pub const SDK: &str = "@agentclientprotocol/sdk@2.4.0";

/// Every ```ts block of the README in the installed package is a complete program:
/// each is compiled (strict, with DOM for `console` and `TextEncoder`, and the
/// disposable symbols the SDK's declarations use) and run.
fn readme_snippets(app: &Scratch) -> Result<(), String> {
    let readme = std::fs::read_to_string(app.0.join("node_modules/acp-terminal/README.md")).map_err(|e| format!("the installed package has no README.md: {e}"))?;
    let mut snippets = Vec::new();
    let mut current: Option<String> = None;
    for line in readme.lines() {
        match (&mut current, line.trim_end()) {
            (None, "```ts") => current = Some(String::new()),
            (Some(_), "```") => snippets.extend(current.take()),
            (Some(code), _) => {
                code.push_str(line);
                code.push('\n');
            }
            (None, _) => {}
        }
    }
    if snippets.is_empty() {
        return Err("the package README has no ```ts examples".into());
    }
    for (i, code) in snippets.iter().enumerate() {
        app.write(&format!("readme/snippet{i}.ts"), code)?;
    }
    app.write(
        "tsconfig.readme.json",
        r#"{ "extends": "./tsconfig.json", "compilerOptions": { "lib": ["ES2022", "DOM", "ESNext.Disposable"], "outDir": "dist", "rootDir": "." }, "include": ["readme/*.ts"] }"#,
    )?;
    run(Command::new(tsc()).args(["-p", "tsconfig.readme.json"]).current_dir(&app.0))?;
    for i in 0..snippets.len() {
        run(Command::new("node").arg(format!("dist/readme/snippet{i}.js")).current_dir(&app.0))?;
    }
    Ok(())
}

/// `git status` of the files under `rel` (`None` outside a git checkout).
fn git_status(rel: &str) -> Option<String> {
    let out = Command::new("git").args(["status", "--porcelain", "--untracked-files=all", "--"]).arg(rel).current_dir(root()).output().ok()?;
    out.status.success().then(|| String::from_utf8_lossy(&out.stdout).into_owned())
}

#[cfg(test)]
mod tests {
    /// `cargo test -p xtask -- --ignored npm_consumer`: the npm consumer test alone.
    #[test]
    #[ignore = "needs npm and the registry; run by `cargo xtask test`"]
    fn npm_consumer() {
        if let Err(e) = super::consumer() {
            panic!("{e}");
        }
    }
}
