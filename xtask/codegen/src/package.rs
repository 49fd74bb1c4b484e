//! `cargo xtask gen`: emits the schema, builds the IR from the emitted JSON, renders the
//! bindings, and writes each file only when it changed (or, with `--check`, reports
//! every stale file with a diff).

use crate::rustfmt::rustfmt;
use crate::{adapter_rules, error_kinds, ir, limits, python, root, rust, transcript_table, typescript};
use minijinja::Environment;
use serde::Serialize;
use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::path::{Path, PathBuf};

/// Every file one run produces, by path relative to the output root.
#[derive(Default)]
pub struct Files(pub BTreeMap<String, String>);

impl Files {
    fn add(&mut self, rel: impl Into<String>, contents: String) {
        self.0.insert(rel.into(), contents);
    }
}

/// A short line diff: the first differing lines with a little context.
pub fn diff(old: &str, new: &str) -> String {
    let a: Vec<&str> = old.lines().collect();
    let b: Vec<&str> = new.lines().collect();
    let first = a.iter().zip(&b).position(|(x, y)| x != y).unwrap_or(a.len().min(b.len()));
    let mut out = String::new();
    let from = first.saturating_sub(2);
    for l in &a[from.min(a.len())..a.len().min(first + 6)] {
        let _ = writeln!(out, "-{l}");
    }
    for l in &b[from.min(b.len())..b.len().min(first + 6)] {
        let _ = writeln!(out, "+{l}");
    }
    let _ = write!(out, "(first difference at line {}; committed {} lines, generated {} lines)", first + 1, a.len(), b.len());
    out
}

fn walk(dir: &Path, out: &mut Vec<PathBuf>) {
    if let Ok(entries) = std::fs::read_dir(dir) {
        for e in entries.flatten() {
            let p = e.path();
            if p.is_dir() {
                if p.file_name().is_some_and(|n| n == "node_modules" || n == "target" || n == "dist" || n == "__pycache__") {
                    continue;
                }
                walk(&p, out);
            } else {
                out.push(p);
            }
        }
    }
}

/// Writes (or checks) `files` under `base`; files under any of `owned` dirs that are
/// not in `files` are stale too.
pub fn sync(base: &Path, files: &Files, owned: &[&str], check: bool) -> Result<(), String> {
    let mut stale = Vec::new();
    for (rel, contents) in &files.0 {
        let path = base.join(rel);
        let old = std::fs::read_to_string(&path).ok();
        if old.as_deref() == Some(contents.as_str()) {
            continue;
        }
        if check {
            stale.push(match old {
                Some(old) => format!("{rel} is stale:\n{}", diff(&old, contents)),
                None => format!("{rel} is missing"),
            });
            continue;
        }
        if let Some(dir) = path.parent() {
            std::fs::create_dir_all(dir).map_err(|e| format!("cannot create {}: {e}", dir.display()))?;
        }
        std::fs::write(&path, contents).map_err(|e| format!("cannot write {}: {e}", path.display()))?;
        eprintln!("wrote {rel}");
    }
    for dir in owned {
        let mut found = Vec::new();
        walk(&base.join(dir), &mut found);
        for p in found {
            let rel = p.strip_prefix(base).unwrap_or(&p).to_string_lossy().replace('\\', "/");
            if files.0.contains_key(&rel) || is_local_state(&rel) {
                continue;
            }
            if check {
                stale.push(format!("{rel} is no longer generated"));
            } else {
                std::fs::remove_file(&p).map_err(|e| format!("cannot remove {}: {e}", p.display()))?;
                eprintln!("removed {rel}");
            }
        }
    }
    if stale.is_empty() { Ok(()) } else { Err(format!("{}\nrun `cargo xtask gen` and commit the result", stale.join("\n"))) }
}

/// Files a tool leaves in a generated folder that are not ours to judge.
fn is_local_state(rel: &str) -> bool {
    rel.ends_with("Cargo.lock") || rel.contains("__pycache__") || rel.contains(".egg-info") || rel.contains("/node_modules/") || rel.contains("/dist/") || rel.contains("/.venv/")
}

fn environment() -> Environment<'static> {
    let mut env = Environment::new();
    env.set_loader(minijinja::path_loader(root().join("templates")));
    env.set_trim_blocks(true);
    env.set_lstrip_blocks(true);
    env.set_keep_trailing_newline(true);
    env.set_undefined_behavior(minijinja::UndefinedBehavior::Strict);
    env
}

fn render(env: &Environment<'_>, template: &str, ctx: impl Serialize) -> Result<String, String> {
    env.get_template(template).and_then(|t| t.render(ctx)).map_err(|e| {
        let mut msg = format!("template {template}: {e}");
        let mut src = std::error::Error::source(&e);
        while let Some(s) = src {
            let _ = write!(msg, "\n  caused by: {s}");
            src = s.source();
        }
        msg
    })
}

/// One schema document to generate from.
pub struct Input {
    /// The module name (`v2`).
    pub module: String,
    /// Where the schema came from, for headers (`schema/json/v2/schema.json`).
    pub source: String,
    /// The schema text.
    pub text: String,
    /// Generate the definitions inside the supported subset and leave out the others
    /// (and what refers to them), saying which, instead of failing.
    pub partial: bool,
    /// The IR, built once however many packages are rendered from this input.
    ir: std::cell::OnceCell<Result<ir::Ir, String>>,
}

/// The definition a problem line names (`$defs/Name at ...` or `$defs/Name: ...`).
fn problem_def(line: &str) -> Option<&str> {
    let rest = line.split("$defs/").nth(1)?;
    rest.split([' ', ':']).next()
}

impl Input {
    /// An input; its IR is built when first asked for.
    #[must_use]
    pub fn new(module: impl Into<String>, source: impl Into<String>, text: impl Into<String>, partial: bool) -> Self {
        Self { module: module.into(), source: source.into(), text: text.into(), partial, ir: std::cell::OnceCell::new() }
    }

    /// The IR (built on the first call).
    pub fn ir(&self) -> Result<&ir::Ir, String> {
        self.ir.get_or_init(|| self.build_ir()).as_ref().map_err(Clone::clone)
    }

    /// The IR of this input's schema text. When it cannot be generated, the error lists
    /// every problem on a line of its own: each definition outside the supported
    /// subset, then each name that collides in a language (the language views run on
    /// the definitions that did build, so a collision never hides behind another error).
    fn build_ir(&self) -> Result<ir::Ir, String> {
        let schema: serde_json::Value = serde_json::from_str(&self.text).map_err(|e| format!("{}: not JSON: {e}", self.source))?;
        let (mut ir, errors) = ir::build_all(&schema);
        let mut problems = Self::problems(&ir, &errors);
        if self.partial && !problems.is_empty() {
            // Leave out each definition with a problem, then everything that refers to
            // one left out, until what is left generates.
            let mut left_out: std::collections::BTreeSet<String> = std::collections::BTreeSet::new();
            let mut report = problems.clone();
            for _ in 0..8 {
                left_out.extend(problems.iter().filter_map(|p| problem_def(p)).map(str::to_owned));
                loop {
                    let before = left_out.len();
                    for d in &ir.defs {
                        if !left_out.contains(d.name()) && ir::refs_of(d).iter().any(|r| left_out.contains(r) || !ir.defs.iter().any(|x| x.name() == r)) {
                            left_out.insert(d.name().to_owned());
                        }
                    }
                    if left_out.len() == before {
                        break;
                    }
                }
                ir.defs.retain(|d| !left_out.contains(d.name()));
                problems = Self::problems(&ir, &[]);
                report.extend(problems.iter().cloned());
                if problems.is_empty() {
                    break;
                }
            }
            if problems.is_empty() {
                let named = schema.get("$defs").and_then(serde_json::Value::as_object).map_or(0, |d| ir.defs.iter().filter(|x| d.contains_key(x.name())).count());
                let inline = ir.defs.len() - named;
                let inline = if inline == 0 { String::new() } else { format!(" (and {inline} synthesized: inline variant payloads, flattened alternatives, response objects and method tables)") };
                eprintln!(
                    "{}: generated {named} definitions{inline}; left out {} ({}), because of:\n{}",
                    self.source,
                    left_out.len(),
                    left_out.iter().cloned().collect::<Vec<_>>().join(", "),
                    report.iter().map(|p| format!("  {p}")).collect::<Vec<_>>().join("\n")
                );
                return Ok(ir);
            }
        }
        match problems.as_slice() {
            [] => Ok(ir),
            [one] => Err(format!("{}: {one}", self.source)),
            all => Err(format!("{}: {} problems:\n{}", self.source, all.len(), all.iter().map(|p| format!("  {p}")).collect::<Vec<_>>().join("\n"))),
        }
    }

    /// Every problem of `ir` (built with `errors`): the IR's, then each language view's.
    fn problems(ir: &ir::Ir, errors: &[ir::IrError]) -> Vec<String> {
        let mut problems: Vec<String> = errors.iter().map(ToString::to_string).collect();
        // The state model (`x-state`) resolves against the definitions that built.
        if let Err(state) = crate::state::model(ir) {
            problems.extend(state.iter().map(ToString::to_string));
        }
        for (lang, view) in [("Rust", rust::view(ir).err()), ("TypeScript", typescript::view(ir).err()), ("Python", python::view(ir).err())] {
            for line in view.iter().flat_map(|e| e.lines()) {
                let line = if line.contains(lang) { line.to_owned() } else { format!("{line} (in {lang})") };
                if !problems.contains(&line) {
                    problems.push(line);
                }
            }
        }
        problems
    }
}

/// The identity of one generated package: its name in the three registries, its
/// description, and whether the client semantics (the terminal store, the adapters and
/// the transcript) come along. Only the project's own schema has the terminal surface
/// they need; the output for any other schema is a clean package of that schema.
#[derive(Debug, Clone, Serialize)]
pub struct Package {
    /// The registry name, kebab-case (`acp-terminal`): the crate, the npm package and
    /// the Python distribution.
    pub name: String,
    /// The identifier of the Rust crate and of the Python import package (`acp_terminal`).
    pub ident: String,
    /// One sentence for the package metadata.
    pub description: String,
    /// `description` as a JSON string literal (also a TOML basic string).
    pub description_lit: String,
    /// With the client semantics.
    pub client: bool,
}

impl Package {
    /// The project's own package.
    #[must_use]
    pub fn ours() -> Self {
        Self {
            name: "acp-terminal".into(),
            ident: "acp_terminal".into(),
            description: "ACP v2 display-only terminal output: checked, lossless wire types (generated)".into(),
            description_lit: "\"ACP v2 display-only terminal output: checked, lossless wire types (generated)\"".into(),
            client: true,
        }
    }

    /// A package for another schema, without the client semantics. `name` is
    /// kebab-case ASCII: a lowercase letter, then lowercase letters, digits and single
    /// hyphens.
    ///
    /// # Errors
    /// When `name` is not such a name.
    pub fn neutral(name: &str, description: &str) -> Result<Self, String> {
        let ok = name.starts_with(|c: char| c.is_ascii_lowercase()) && name.chars().all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '-') && !name.ends_with('-') && !name.contains("--");
        if !ok {
            return Err(format!("package name `{name}`: use kebab-case ASCII (a lowercase letter, then lowercase letters, digits and single hyphens), for example `my-protocol`"));
        }
        let description_lit = serde_json::to_string(description).map_err(|e| e.to_string())?;
        Ok(Self { name: name.to_owned(), ident: name.replace('-', "_"), description: description.to_owned(), description_lit, client: false })
    }
}

#[derive(Serialize)]
struct NameLit {
    name: String,
    lit: String,
    snake: String,
    /// An object with members that have a schema `default` (it has `with_defaults`).
    defaults: bool,
}

#[derive(Serialize)]
struct ModuleView {
    name: String,
    name_lit: String,
    names: Vec<NameLit>,
    /// The responses with a method table: decode a result by method.
    results: Vec<ResultsLit>,
    /// The session-state table (`state::table`) as a string literal, Rust's and
    /// JSON's (which TypeScript and Python read as theirs); `None` without `x-state`.
    state_rs: Option<String>,
    state_js: Option<String>,
    /// Python's: in single quotes, as ruff writes a string full of double quotes.
    state_py: Option<String>,
    /// The typed reads of the session state: one per target of the `session` owner that
    /// has a definition (`state::Target::sources` of one).
    state_targets: Vec<StateTargetLit>,
    /// `V2State`: the Python class and TypeScript object of those reads (`v2State`).
    state_class: String,
    state_object: String,
}

/// One target of the session state and the definition it is.
#[derive(Serialize)]
struct StateTargetLit {
    /// The target's name, as the table and the state have it (`toolCall`).
    name: String,
    lit: String,
    /// The read's name: `tool_call` (Rust, Python), `toolCall` (TypeScript).
    snake: String,
    camel: String,
    keyed: bool,
    /// The definition (`ToolCallUpdate`) and its snake case name (`tool_call_update`).
    ty: String,
    ty_snake: String,
}

fn state_target_lits(ir: &ir::Ir) -> Vec<StateTargetLit> {
    use heck::{ToLowerCamelCase, ToSnakeCase};
    let Ok(m) = crate::state::model(ir) else { return Vec::new() };
    m.owners
        .iter()
        .filter(|o| o.name == "session")
        .flat_map(|o| o.targets.iter())
        .filter_map(|t| match t.sources.as_slice() {
            [one] => Some(StateTargetLit {
                name: t.name.clone(),
                lit: format!("{:?}", t.name),
                snake: t.name.to_snake_case(),
                camel: t.name.to_lower_camel_case(),
                keyed: t.keyed,
                ty: one.clone(),
                ty_snake: one.to_snake_case(),
            }),
            _ => None,
        })
        .collect()
}

impl ModuleView {
    fn new(module: &str, ir: &ir::Ir) -> Result<Self, String> {
        use heck::{ToLowerCamelCase, ToUpperCamelCase};
        let state = crate::state::table(ir)?;
        Ok(Self {
            state_targets: if state.is_some() { state_target_lits(ir) } else { Vec::new() },
            state_class: format!("{}State", module.to_upper_camel_case()),
            state_object: format!("{}State", module.to_lower_camel_case()),
            name: module.to_owned(),
            name_lit: format!("{module:?}"),
            names: name_lits(ir),
            results: results_lits(ir),
            state_rs: state.as_ref().map(|t| if t.contains("\"#") { format!("{t:?}") } else { format!("r#\"{t}\"#") }),
            state_js: state.as_ref().map(|t| serde_json::Value::from(t.as_str()).to_string()),
            state_py: state.as_ref().map(|t| if t.contains(['\'', '\\']) || !t.is_ascii() { serde_json::Value::from(t.as_str()).to_string() } else { format!("'{t}'") }),
        })
    }
}

/// A response and its method table (`AgentResponse`, `AgentResult`).
#[derive(Serialize)]
struct ResultsLit {
    response: String,
    lit: String,
    name: String,
    snake: String,
}

fn results_lits(ir: &ir::Ir) -> Vec<ResultsLit> {
    use heck::ToSnakeCase;
    ir.defs
        .iter()
        .filter_map(|d| match d {
            ir::Def::Results { name, response, .. } => Some(ResultsLit { response: response.clone(), lit: format!("{response:?}"), name: name.clone(), snake: name.to_snake_case() }),
            _ => None,
        })
        .collect()
}

fn name_lits(ir: &ir::Ir) -> Vec<NameLit> {
    use heck::ToSnakeCase;
    ir.defs
        .iter()
        // A method table is no wire type of its own (see `results_lits`).
        .filter(|d| !matches!(d, ir::Def::Results { .. }))
        .map(|d| NameLit {
            name: d.name().to_owned(),
            lit: format!("{:?}", d.name()),
            snake: d.name().to_snake_case(),
            defaults: matches!(d, ir::Def::Struct { fields, .. } if fields.iter().any(|f| f.default.is_some())),
        })
        .collect()
}

/// Renders the Rust crate for `inputs` into `files` under `prefix` (`generated/rust`).
/// With `pkg.client`, the client semantics (`templates/rust/client/`: the terminal
/// store) come along; they need the v2 terminal surface, so only the project's own
/// schema gets them.
pub fn rust_crate(inputs: &[Input], prefix: &str, pkg: &Package, files: &mut Files) -> Result<(), String> {
    let client = pkg.client;
    let env = environment();
    let mut modules = Vec::new();
    for input in inputs {
        let ir = input.ir()?;
        let defs = rust::view(ir).map_err(|e| format!("{}: {e}", input.source))?;
        let src = render(&env, "rust/module.rs.jinja", minijinja::context! { source => input.source, title => ir.title, defs => defs, pkg => pkg })?;
        files.add(format!("{prefix}/src/{}.rs", input.module), rustfmt(&src)?);
        modules.push(ModuleView::new(&input.module, ir)?);
    }
    files.add(format!("{prefix}/src/lib.rs"), rustfmt(&render(&env, "rust/lib.rs.jinja", minijinja::context! { modules => &modules, client => client, pkg => pkg, sources => sources(inputs) })?)?);
    if client {
        vendor("rust", "client", &format!("{prefix}/src"), "//", pkg, files)?;
        // What `cargo publish` ships besides the code.
        let read = |name: &str| std::fs::read_to_string(root().join("templates/rust").join(name)).map_err(|e| format!("templates/rust/{name}: {e}"));
        files.add(format!("{prefix}/README.md"), format!("<!-- @generated by cargo xtask gen from templates/rust/README.md; do not edit -->\n{}", read("README.md")?));
        files.add(format!("{prefix}/LICENSE"), read("LICENSE")?);
    } else {
        files.add(format!("{prefix}/README.md"), render(&env, "neutral/README.md.jinja", minijinja::context! { pkg => pkg, lang => "rust", modules => &modules, sources => sources(inputs) })?);
    }
    files.add(format!("{prefix}/src/registry.rs"), rustfmt(&render(&env, "rust/registry.rs.jinja", minijinja::context! { modules => &modules })?)?);
    files.add(format!("{prefix}/Cargo.toml"), render(&env, "rust/Cargo.toml.jinja", minijinja::context! { pkg => pkg })?);
    vendor("rust", "runtime", &format!("{prefix}/src/wire"), "//", pkg, files)?;
    Ok(())
}

/// The schema files `inputs` came from, for package docs (`a.json`, `b.json`).
fn sources(inputs: &[Input]) -> String {
    inputs.iter().map(|i| format!("`{}`", i.source)).collect::<Vec<_>>().join(", ")
}

/// The runtime files `gen` writes from the rules' one hand-written source each (the
/// transcript's state machine, the error kinds, the limits, the adapters' pairs and
/// messages), by path.
///
/// Computed once per process and root (each package's every vendored folder asks for it,
/// and the Rust files go through rustfmt).
pub fn runtime_data(root: &Path) -> Result<Vec<(String, String)>, String> {
    type Cache = std::sync::Mutex<BTreeMap<PathBuf, Result<Vec<(String, String)>, String>>>;
    static CACHE: std::sync::OnceLock<Cache> = std::sync::OnceLock::new();
    let mut cache = CACHE.get_or_init(Cache::default).lock().map_err(|_| "the rules cache is poisoned".to_owned())?;
    cache
        .entry(root.to_path_buf())
        .or_insert_with(|| {
            let mut files = transcript_table::files(root)?;
            files.extend(error_kinds::files(root)?);
            files.extend(limits::files(root)?);
            files.extend(adapter_rules::files(root)?);
            Ok(files)
        })
        .clone()
}

/// The files of `templates/rust/runtime/` that belong to the `acp-terminal-wire` crate only:
/// its root and the `schemars` impls the schema crate needs. Every other `.rs` file there is
/// the `wire` module every generated crate vendors.
const CRATE_ONLY: [&str; 2] = ["lib.rs", "schemars_impl.rs"];

/// Vendors the hand-written files of `templates/<lang>/<folder>/` into `dest`: `runtime`
/// (the wire runtime every package carries) or `client` (the client semantics: store,
/// adapters, transcript; only the project's own package has them). The files this run
/// generates into that folder from a rule's source (`runtime_data`) come with their new
/// text, even before it is written there.
///
/// Rust files are copied byte for byte: each carries its own `@generated` line for its
/// copies, and the runtime names itself by module path (`crate::wire`, `$crate::wire`),
/// so the same bytes are the crate `acp-terminal-wire` (whose `CRATE_ONLY` files are not
/// vendored) and the module `wire` of every generated crate. TypeScript and
/// Python files get a header, and where they name their own package (the registry keys
/// of TypeScript's `Symbol.for`, a Python `ContextVar`, cross-references in docs),
/// `pkg`'s name replaces it.
fn vendor(lang: &str, folder: &str, dest: &str, comment: &str, pkg: &Package, files: &mut Files) -> Result<(), String> {
    let dir = root().join("templates").join(lang).join(folder);
    let mut names: Vec<PathBuf> = std::fs::read_dir(&dir).map_err(|e| format!("{}: {e}", dir.display()))?.flatten().map(|e| e.path()).collect();
    let generated: BTreeMap<String, String> = runtime_data(&root())?.into_iter().collect();
    for rel in generated.keys() {
        let p = root().join(rel);
        if p.parent() == Some(dir.as_path()) && !names.contains(&p) {
            names.push(p);
        }
    }
    names.sort();
    let ext = match lang {
        "rust" => ".rs",
        "typescript" => ".ts",
        _ => ".py",
    };
    for p in names {
        let name = p.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default();
        if !name.ends_with(ext) || p.is_dir() || (lang == "rust" && folder == "runtime" && CRATE_ONLY.contains(&name.as_str())) {
            continue;
        }
        let rel = format!("templates/{lang}/{folder}/{name}");
        let body = match generated.get(&rel) {
            Some(text) => text.clone(),
            None => std::fs::read_to_string(&p).map_err(|e| format!("{}: {e}", p.display()))?,
        };
        if lang == "rust" {
            if !body.lines().take(5).any(|l| l.contains("@generated")) {
                return Err(format!("{rel}: a Rust runtime file is vendored byte for byte, so it carries its own `@generated` line for its copies in its first five lines"));
            }
            files.add(format!("{dest}/{name}"), body);
            continue;
        }
        let body = body.replace("acp-terminal", &pkg.name).replace("acp_terminal", &pkg.ident);
        if generated.contains_key(&rel) {
            // Already headed `@generated ... from` its source (templates/transcript/, templates/rules/).
            files.add(format!("{dest}/{name}"), body);
        } else {
            files.add(format!("{dest}/{name}"), format!("{comment} @generated by cargo xtask gen from {rel}; do not edit\n{body}"));
        }
    }
    Ok(())
}

/// Renders the TypeScript package for `inputs` into `files` under `prefix`.
pub fn typescript_package(inputs: &[Input], prefix: &str, pkg: &Package, files: &mut Files) -> Result<(), String> {
    let client = pkg.client;
    let env = environment();
    let mut modules = Vec::new();
    for input in inputs {
        let ir = input.ir()?;
        let module = typescript::view(ir).map_err(|e| format!("{}: {e}", input.source))?;
        let cx = minijinja::context! { source => input.source, title => ir.title, name => input.module, module => module, pkg => pkg };
        files.add(format!("{prefix}/src/internal/{}.ts", input.module), render(&env, "typescript/module.ts.jinja", &cx)?);
        files.add(format!("{prefix}/src/{}.ts", input.module), render(&env, "typescript/public.ts.jinja", &cx)?);
        modules.push(ModuleView::new(&input.module, ir)?);
    }
    let readme = if client { "typescript/README.md.jinja" } else { "neutral/README.md.jinja" };
    for (template, out) in [
        ("typescript/index.ts.jinja", "src/index.ts"),
        ("typescript/internal.ts.jinja", "src/internal.ts"),
        ("typescript/registry.ts.jinja", "src/registry.ts"),
        ("typescript/package.json.jinja", "package.json"),
        ("typescript/tsconfig.json.jinja", "tsconfig.json"),
        (readme, "README.md"),
    ] {
        let cx = minijinja::context! { modules => &modules, client => client, pkg => pkg, lang => "typescript", sources => sources(inputs) };
        files.add(format!("{prefix}/{out}"), render(&env, template, cx)?);
    }
    vendor("typescript", "runtime", &format!("{prefix}/src/runtime"), "//", pkg, files)?;
    if client {
        // The licence text, verbatim (no header: it is a legal text).
        let licence = root().join("templates/typescript/LICENSE");
        files.add(format!("{prefix}/LICENSE"), std::fs::read_to_string(&licence).map_err(|e| format!("{}: {e}", licence.display()))?);
        vendor("typescript", "client", &format!("{prefix}/src"), "//", pkg, files)?;
    }
    Ok(())
}

/// Renders the Python distribution for `inputs` into `files` under `prefix`.
pub fn python_package(inputs: &[Input], prefix: &str, pkg: &Package, files: &mut Files) -> Result<(), String> {
    let client = pkg.client;
    let ident = &pkg.ident;
    let env = environment();
    let mut modules = Vec::new();
    for input in inputs {
        let ir = input.ir()?;
        let module = python::view(ir).map_err(|e| format!("{}: {e}", input.source))?;
        let src = python::prune_imports(&render(&env, "python/module.py.jinja", minijinja::context! { source => input.source, title => ir.title, module => module, pkg => pkg })?);
        files.add(format!("{prefix}/src/{ident}/{}.py", input.module), src);
        modules.push(ModuleView::new(&input.module, ir)?);
    }
    for (template, out) in [("init.py.jinja", format!("src/{ident}/__init__.py")), ("registry.py.jinja", format!("src/{ident}/registry.py")), ("pyproject.toml.jinja", "pyproject.toml".into())] {
        files.add(format!("{prefix}/{out}"), render(&env, &format!("python/{template}"), minijinja::context! { modules => &modules, client => client, pkg => pkg, sources => sources(inputs) })?);
    }
    files.add(format!("{prefix}/src/{ident}/py.typed"), String::new());
    if client {
        for (path, body) in python::package_files(prefix)? {
            files.add(path, body);
        }
    } else {
        files.add(format!("{prefix}/README.md"), render(&env, "neutral/README.md.jinja", minijinja::context! { pkg => pkg, lang => "python", modules => &modules, sources => sources(inputs) })?);
    }
    vendor("python", "runtime", &format!("{prefix}/src/{ident}/_runtime"), "#", pkg, files)?;
    if client {
        vendor("python", "client", &format!("{prefix}/src/{ident}"), "#", pkg, files)?;
    }
    Ok(())
}

/// `cargo xtask gen [--check]`: the project's own schema and bindings. `schemas` are
/// the emitted documents, each as (module, path, text): written to their path, then
/// generated from.
///
/// # Errors
/// A schema that does not generate, a template that does not render, or (with `check`)
/// every stale file, with a diff.
pub fn generate(schemas: Vec<(String, String, String)>, check: bool) -> Result<(), String> {
    let start = std::time::Instant::now();
    let mut files = Files::default();
    let mut inputs = Vec::new();
    // One line per step, with its time, so a run never sits silent.
    let step = |what: &str, files: &Files, t: std::time::Instant, before: usize| {
        eprintln!("gen: {what:<52} {:>3} files {:>7.1} ms", files.0.len() - before, t.elapsed().as_secs_f64() * 1000.0);
    };
    for (module, source, text) in schemas {
        let (t, before) = (std::time::Instant::now(), files.0.len());
        files.add(source.clone(), text.clone());
        step(&format!("emit {source}"), &files, t, before);
        inputs.push(Input::new(module, source, text, false));
    }
    let (t, before) = (std::time::Instant::now(), files.0.len());
    // The transcript's state machine, compiled from its one source into each runtime's
    // template folder (where the runtimes are built and tested in place) and, with the rest
    // of each runtime, into the packages below.
    for (path, text) in runtime_data(&root())? {
        files.add(path, text);
    }
    step(&format!("rules: {}, {}, {} and {} -> templates/*/{{runtime,client}}", transcript_table::SOURCE, error_kinds::SOURCE, limits::SOURCE, adapter_rules::SOURCE), &files, t, before);
    let (t, before) = (std::time::Instant::now(), files.0.len());
    let ours = Package::ours();
    rust_crate(&inputs, "generated/rust", &ours, &mut files)?;
    step("rust: IR + templates -> generated/rust", &files, t, before);
    let (t, before) = (std::time::Instant::now(), files.0.len());
    typescript_package(&inputs, "generated/typescript", &ours, &mut files)?;
    step("typescript: IR + templates -> generated/typescript", &files, t, before);
    let (t, before) = (std::time::Instant::now(), files.0.len());
    python_package(&inputs, "generated/python", &ours, &mut files)?;
    step("python: IR + templates -> generated/python", &files, t, before);
    let t = std::time::Instant::now();
    sync(&root(), &files, &["generated/rust/src", "generated/typescript/src", "generated/python/src"], check)?;
    let what = if check { "compare with the committed files" } else { "write the files that changed" };
    eprintln!("gen: {what:<52} {:>3} files {:>7.1} ms", files.0.len(), t.elapsed().as_secs_f64() * 1000.0);
    if check {
        eprintln!("gen --check: all {} generated files are current ({:.1} s)", files.0.len(), start.elapsed().as_secs_f64());
    } else {
        eprintln!("gen: done: {} files ({:.1} s)", files.0.len(), start.elapsed().as_secs_f64());
    }
    Ok(())
}

/// What `gen --schema` is told about the package it writes.
#[derive(Default)]
pub struct FromOptions {
    /// The registry name (`--name`); by default the schema's `title` in kebab-case, or
    /// the file name's stem.
    pub name: Option<String>,
    /// The package description (`--description`).
    pub description: Option<String>,
    /// A JSON document applied to the schema first (`--overlay`), see [`apply_overlay`].
    pub overlay: Option<PathBuf>,
    /// Leave out what cannot be generated (`--partial`), see [`Input::partial`].
    pub partial: bool,
}

/// Applies an overlay to a schema document: a JSON merge patch (RFC 7386) that may only
/// annotate what the schema has. Object members merge into the object of the same name,
/// other values replace (or add) a member, and `null` removes one. An object value whose
/// member is not in the schema is an error (a misspelt definition or property would
/// otherwise be added silently and annotate nothing).
///
/// # Errors
/// The JSON pointer of the first overlay member that names nothing in the schema.
pub fn apply_overlay(schema: &mut serde_json::Value, overlay: &serde_json::Value) -> Result<(), String> {
    fn merge(target: &mut serde_json::Map<String, serde_json::Value>, overlay: &serde_json::Map<String, serde_json::Value>, ptr: &str) -> Result<(), String> {
        for (k, v) in overlay {
            let at = format!("{ptr}/{}", k.replace('~', "~0").replace('/', "~1"));
            match v {
                serde_json::Value::Null => {
                    if target.shift_remove(k).is_none() {
                        return Err(format!("overlay {at}: `null` removes a member, but the schema has none there"));
                    }
                }
                serde_json::Value::Object(o) => match target.get_mut(k) {
                    Some(serde_json::Value::Object(t)) => merge(t, o, &at)?,
                    Some(_) => return Err(format!("overlay {at}: an object merges into an object, but the schema has another value there")),
                    None => return Err(format!("overlay {at}: the schema has nothing there to annotate (a misspelt name?)")),
                },
                other => {
                    target.insert(k.clone(), other.clone());
                }
            }
        }
        Ok(())
    }
    match (schema, overlay) {
        (serde_json::Value::Object(t), serde_json::Value::Object(o)) => {
            let mut o = o.clone();
            // The overlay's own note is not part of the schema.
            o.shift_remove("$comment");
            merge(t, &o, "")
        }
        _ => Err("an overlay and its schema must both be JSON objects".into()),
    }
}

/// The files `gen --schema FILE` writes: a Rust crate, a TypeScript package and a
/// Python distribution of that schema alone, under `rust/`, `typescript/`, `python/`.
///
/// # Errors
/// When the file cannot be read, the package name is not valid, or the schema has a
/// problem (every problem is listed).
pub fn files_from(schema: &Path, options: &FromOptions) -> Result<Files, String> {
    use heck::ToKebabCase;
    let mut text = std::fs::read_to_string(schema).map_err(|e| format!("cannot read {}: {e}", schema.display()))?;
    if let Some(path) = &options.overlay {
        let read = |p: &Path| -> Result<serde_json::Value, String> {
            let t = std::fs::read_to_string(p).map_err(|e| format!("cannot read {}: {e}", p.display()))?;
            serde_json::from_str(&t).map_err(|e| format!("{}: not JSON: {e}", p.display()))
        };
        let mut doc = read(schema)?;
        apply_overlay(&mut doc, &read(path)?).map_err(|e| format!("{}: {e}", path.display()))?;
        text = serde_json::to_string_pretty(&doc).map_err(|e| e.to_string())?;
    }
    let stem = schema.file_stem().map(|s| s.to_string_lossy().into_owned()).unwrap_or_default();
    let module: String = stem.chars().map(|c| if c.is_ascii_alphanumeric() { c.to_ascii_lowercase() } else { '_' }).collect();
    let module = if module.is_empty() || module.starts_with(|c: char| c.is_ascii_digit()) || module == "wire" || module == "registry" { format!("s_{module}") } else { module };
    let title = serde_json::from_str::<serde_json::Value>(&text).ok().and_then(|v| v.get("title").and_then(|t| t.as_str()).map(str::to_owned)).unwrap_or_default();
    let name = options.name.clone().unwrap_or_else(|| {
        let from: String = (if title.trim().is_empty() { stem.as_str() } else { title.as_str() }).chars().filter(char::is_ascii).collect::<String>().to_kebab_case();
        let from = from.trim_start_matches(|c: char| !c.is_ascii_lowercase()).to_owned();
        if from.is_empty() { "schema".to_owned() } else { from }
    });
    let source = schema.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default();
    let description = options.description.clone().unwrap_or_else(|| {
        let what = if title.trim().is_empty() { format!("`{source}`") } else { title.trim().to_owned() };
        format!("Checked, lossless wire types for {what} (generated)")
    });
    let pkg = Package::neutral(&name, &description)?;
    let mut files = Files::default();
    let inputs = [Input::new(module, source, text, options.partial)];
    rust_crate(&inputs, "rust", &pkg, &mut files)?;
    typescript_package(&inputs, "typescript", &pkg, &mut files)?;
    python_package(&inputs, "python", &pkg, &mut files)?;
    Ok(files)
}

/// `cargo xtask gen --schema FILE --out DIR`: the generator on any schema in the
/// supported subset.
pub fn generate_from(schema: &Path, out: &Path, options: &FromOptions, check: bool) -> Result<(), String> {
    let files = files_from(schema, options)?;
    sync(out, &files, &["rust/src", "typescript/src", "python/src"], check)
}
