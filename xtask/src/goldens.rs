//! The goldens step of `cargo xtask test` and the upstream rounds of `cargo xtask fuzz`:
//! the generator (`acp-terminal-codegen`) run on the construct schemas and on upstream's
//! full schemas, each package compiled and exercised in the three languages.

use acp_terminal_codegen::{Files, FromOptions, Input, Package, generate_from, python_package, root, rust_crate, sync, typescript_package};
use std::path::{Path, PathBuf};
use std::process::Command;

/// Where every goldens build goes (the packages share it, and their dependencies).
pub const TARGET: &str = "target/goldens";

/// cargo on a generated package's `manifest`, as every goldens build runs it: into
/// `target/goldens`, warnings denied, no debug info (nothing debugs these builds, and the
/// upstream package is large). `args`: the subcommand and its options.
pub fn goldens_cargo(args: &[&str], manifest: &Path) -> Command {
    let mut cmd = Command::new(crate::cargo());
    cmd.args(args).arg("--quiet").arg("--manifest-path").arg(manifest).env("CARGO_TARGET_DIR", root().join(TARGET)).env("RUSTFLAGS", "-D warnings").env("CARGO_PROFILE_DEV_DEBUG", "false");
    cmd
}

/// Generates the bindings of every construct schema under `xtask/tests/schemas/` (the
/// golden inputs) into a temporary folder, as `gen --schema FILE --out DIR` does, and
/// checks each compiles: the Rust crate with `cargo build` (warnings denied), the
/// TypeScript package with strict `tsc`, the Python package with `mypy --strict`.
/// Needs the npm and pip installs of `cargo xtask test`.
pub fn compile_goldens(tsc: &Path, python: &Path) -> Result<(), String> {
    let dir = root().join("xtask/tests/schemas");
    let mut paths: Vec<PathBuf> = std::fs::read_dir(&dir).map_err(|e| e.to_string())?.flatten().map(|e| e.path()).collect();
    paths.sort();
    let out = std::env::temp_dir().join(format!("acp-terminal-goldens-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&out);
    let mut count = 0;
    let mut inputs = Vec::new();
    for p in paths {
        let name = p.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default();
        if !name.ends_with(".json") || name.ends_with(".ir.json") || name.ends_with(".vectors.json") || name.starts_with("err_") {
            continue;
        }
        // Each schema alone, through the same path as the command line ...
        generate_from(&p, &out.join(name.trim_end_matches(".json")), &FromOptions::default(), false)?;
        count += 1;
        let module = name.trim_end_matches(".json").to_owned();
        let text = std::fs::read_to_string(&p).map_err(|e| e.to_string())?;
        inputs.push(Input::new(module, format!("xtask/tests/schemas/{name}"), text, false));
    }
    // ... and all of them as modules of one package per language, compiled once.
    let mut files = Files::default();
    let pkg = Package::neutral("goldens", "Every construct schema")?;
    rust_crate(&inputs, "all/rust", &pkg, &mut files)?;
    typescript_package(&inputs, "all/typescript", &pkg, &mut files)?;
    python_package(&inputs, "all/python", &pkg, &mut files)?;
    // Upstream's full v2 and v1 schemas (with their overlays): every definition must
    // generate and compile like the goldens.
    let upstream = crate::upstream::inputs()?;
    let names_of = |module: &str| -> Result<Vec<String>, String> {
        let input = upstream.iter().find(|i| i.module == module).ok_or_else(|| format!("no upstream module {module}"))?;
        Ok(input.ir()?.defs.iter().map(|d| d.name().to_owned()).collect())
    };
    let (v2_names, v1_names) = (names_of("v2")?, names_of("v1")?);
    crate::upstream::package(&upstream, &mut files)?;
    sync(&out, &files, &[], false)?;
    let cargo = |args: &[&str], dir: &str| crate::run(&mut goldens_cargo(args, &out.join(dir).join("rust/Cargo.toml")));
    // A package compiles: cargo with warnings denied, strict tsc, mypy --strict. `tsc`
    // emits as it checks: the vector runner loads the build (`results_in`), so it is the one pass.
    let tool = |what: &str, dir: &str, f: &dyn Fn() -> Result<(), String>| {
        let began = std::time::Instant::now();
        f().map(|()| eprintln!("goldens:   {dir}: {what:<52} {:6.1} s", began.elapsed().as_secs_f64()))
    };
    let compile = |dir: &str, import: &str| {
        // Clippy-clean too, as the build goes (`cargo xtask test` compiles through
        // clippy-driver, warnings denied): a vendored crate passes a user's `cargo clippy`.
        tool("cargo build", dir, &|| cargo(&["build"], dir))
            .and_then(|()| tool("tsc", dir, &|| crate::run(Command::new(tsc).arg("-p").arg(out.join(dir).join("typescript/tsconfig.json")))))
            .and_then(|()| {
                tool("mypy --strict", dir, &|| {
                    crate::run(
                        Command::new(python).args(["-m", "mypy", "--strict", "--no-error-summary", "--cache-dir"]).arg(out.join("mypy-cache")).arg(out.join(dir).join("python/src").join(import)),
                    )
                })
            })
            // Lint-clean too, with the project's rules: a vendored package passes a
            // user's ruff whatever constructs its schema has.
            .and_then(|()| {
                tool("ruff check", dir, &|| {
                    crate::run(Command::new(python).args(["-m", "ruff", "check", "--quiet", "--config"]).arg(root().join("ruff.toml")).arg(out.join(dir).join("python/src").join(import)))
                })
            })
    };
    // Each part with its time, so a slow one shows where the step's time goes.
    let timed = |what: &str, f: &dyn Fn() -> Result<(), String>| {
        let began = std::time::Instant::now();
        f().map(|()| eprintln!("goldens: {what:<58} {:6.1} s", began.elapsed().as_secs_f64()))
    };
    let up = out.join("upstream");
    let result = timed("compile the construct package (cargo and clippy, tsc, mypy, ruff)", &|| compile("all", "goldens"))
        // The crate's doctest names the crate and runs (no `acp_terminal` in another schema's output).
        .and_then(|()| timed("its doctest", &|| cargo(&["test", "--doc"], "all")))
        // What the constructs do, not only that they compile.
        .and_then(|()| timed("construct vectors", &|| crate::construct_vectors::run(&out, tsc, python)))
        .and_then(|()| timed("compile upstream's package (cargo and clippy, tsc, mypy, ruff)", &|| compile("upstream", "acp_upstream")))
        .and_then(|()| {
            timed("upstream's literals and examples", &|| {
                crate::construct_vectors::run_upstream(&up, tsc, python, "v2", "tests/vectors/upstream/v2_acp_rust_tests.json", &v2_names)?;
                crate::construct_vectors::run_upstream(&up, tsc, python, "v2", "tests/upstream/vectors/v2-docs.json", &v2_names)?;
                crate::construct_vectors::run_upstream(&up, tsc, python, "v1", "tests/upstream/vectors/v1-python-sdk.json", &v1_names)?;
                crate::construct_vectors::run_upstream(&up, tsc, python, "v1", "tests/upstream/vectors/v1-docs.json", &v1_names)
            })
        })
        .and_then(|()| {
            timed("session-state fixtures", &|| {
                let v2 = upstream.iter().find(|i| i.module == "v2").ok_or("upstream's inputs have no v2 module")?;
                crate::construct_vectors::run_state(&up, tsc, python, v2.ir()?)
            })
        })
        .and_then(|()| timed("the comparison's probes", &|| crate::compare::check_ours(&up, tsc, python)))
        .and_then(|()| {
            // Every upstream definition, in the three languages, with values made from the schema.
            timed("values made from every upstream definition", &|| {
                for input in &upstream {
                    crate::construct_vectors::run_generated(&up, tsc, python, &input.module, input.ir()?, 6, 13)?;
                }
                Ok(())
            })
        });
    let _ = std::fs::remove_dir_all(&out);
    result.map(|()| eprintln!("the bindings generated from {count} construct schemas, and from upstream's whole v2 and v1 schemas, compile in Rust, TypeScript and Python"))
}
