//! Consumer tests: each generated package installed the way a downstream user would,
//! in a fresh temporary project, and used from there.

use crate::{node, root, run};
use std::path::{Path, PathBuf};
use std::process::Command;

struct TempDir(PathBuf);

impl TempDir {
    fn new(name: &str) -> Result<Self, String> {
        let p = std::env::temp_dir().join(format!("acp-terminal-{name}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&p);
        std::fs::create_dir_all(&p).map_err(|e| format!("{}: {e}", p.display()))?;
        Ok(Self(p))
    }
}

impl Drop for TempDir {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

fn write(dir: &Path, rel: &str, text: &str) -> Result<(), String> {
    let p = dir.join(rel);
    if let Some(parent) = p.parent() {
        std::fs::create_dir_all(parent).map_err(|e| e.to_string())?;
    }
    std::fs::write(&p, text).map_err(|e| format!("{}: {e}", p.display()))
}

const MESSAGE: &str = r#"{"sessionId":"s","update":{"sessionUpdate":"terminal_update","terminalId":"term_001","command":null,"output":{"data":"cnVubmluZyAxMjMgdGVzdHMNCg=="}}}"#;

/// The Rust crate as a path dependency of a new crate.
pub fn rust() -> Result<(), String> {
    let dir = TempDir::new("rust-consumer")?;
    let generated = root().join("generated/rust");
    write(
        &dir.0,
        "Cargo.toml",
        &format!(
            "[package]\nname = \"consumer\"\nversion = \"0.0.0\"\nedition = \"2024\"\n\n[dependencies]\nacp-terminal = {{ path = {:?} }}\nserde_json = \"1\"\n\n[workspace]\n",
            generated.display().to_string()
        ),
    )?;
    write(
        &dir.0,
        "src/main.rs",
        &format!(
            r##"use acp_terminal::{{v2, wire}};

fn main() {{
    let text = r#"{MESSAGE}"#;
    let parsed = wire::from_str::<v2::UpdateSessionNotification>(text).expect("parses");
    let v2::SessionUpdate::TerminalUpdate(u) = &parsed.value.update else {{ panic!("not a terminal update") }};
    assert_eq!(u.command, wire::Patch::Clear);
    assert!(u.cwd.is_keep());
    assert_eq!(u.output.as_set().map(|o| &o.data[..]), Some(&b"running 123 tests\r\n"[..]));
    assert_eq!(wire::to_string(&parsed.value), text);
    let err = wire::from_str::<v2::TerminalOutput>(r#"{{"data":"aGVsbG9="}}"#).expect_err("non-canonical base64");
    assert_eq!((err.kind.as_str(), err.path.as_str()), ("invalid_base64", "/data"));
    // The serde route applies the same rules and writes the same bytes.
    let via_serde: v2::UpdateSessionNotification = serde_json::from_str(text).expect("serde parses");
    assert_eq!(serde_json::to_string(&via_serde).expect("serde writes"), text);
    let err = serde_json::from_str::<v2::TerminalOutput>(r#"{{"data":"aGVsbG9="}}"#).expect_err("non-canonical base64").to_string();
    assert!(err.starts_with("invalid_base64 at /data"), "{{err}}");
    // Depending on acp-terminal switches on no serde_json feature here: plain maps still sort.
    assert_eq!(serde_json::json!({{"b": 1, "a": 2}}).to_string(), r#"{{"a":2,"b":1}}"#);
    // ... and the adapters keep member order all the same (unknown members and `_meta`
    // in input order, as TypeScript and Python write them), without serde_json's
    // `preserve_order`.
    let v1 = r#"{{"toolCallId":"c","zeta":{{"y":1,"b":[true]}},"alpha":0,"title":"Run","_meta":{{"z":1,"a":{{"d":null,"c":"x"}}}}}}"#;
    let v2 = acp_terminal::adapters::convert(acp_terminal::adapters::Direction::V1ToV2, "ToolCallUpdate", None, v1).expect("converts");
    assert_eq!(v2.text, r#"{{"toolCallId":"c","title":"Run","_meta":{{"z":1,"a":{{"d":null,"c":"x"}}}},"zeta":{{"y":1,"b":[true]}},"alpha":0}}"#);
    println!("rust consumer: ok");
}}
"##
        ),
    )?;
    let cargo = crate::cargo();
    run(Command::new(cargo).args(["run", "--quiet"]).current_dir(&dir.0).env("CARGO_TARGET_DIR", root().join("target/consumer")))
}

/// The npm package as users get it: see `node::consumer`.
pub fn typescript() -> Result<(), String> {
    node::consumer()
}

fn copy_dir(from: &Path, to: &Path) -> Result<(), String> {
    std::fs::create_dir_all(to).map_err(|e| e.to_string())?;
    for e in std::fs::read_dir(from).map_err(|e| e.to_string())?.flatten() {
        let p = e.path();
        if p.is_dir() {
            copy_dir(&p, &to.join(e.file_name()))?;
        } else {
            std::fs::copy(&p, to.join(e.file_name())).map_err(|e| e.to_string())?;
        }
    }
    Ok(())
}

/// The Python distribution installed with pip into a fresh virtual environment, as a
/// downstream user would, and used from there.
pub fn python() -> Result<(), String> {
    let dir = TempDir::new("py-consumer")?;
    let venv = dir.0.join("venv");
    run(Command::new(if cfg!(windows) { "python" } else { "python3" }).args(["-m", "venv"]).arg(&venv))?;
    let py = if cfg!(windows) { venv.join("Scripts/python.exe") } else { venv.join("bin/python") };
    // Build from a copy so no build artefacts land in generated/.
    let src = dir.0.join("acp-terminal");
    copy_dir(&root().join("generated/python"), &src)?;
    run(Command::new(&py).args(["-m", "pip", "install", "--quiet", "--disable-pip-version-check"]).arg(&src))?;
    write(
        &dir.0,
        "main.py",
        &format!(
            r#"from acp_terminal import MISSING, ParseError, TerminalStore, v2

text = {MESSAGE:?}
parsed = v2.parse_update_session_notification(text)
u = parsed.value.update
assert isinstance(u, v2.SessionUpdateTerminalUpdate)
assert u.command is None and u.cwd is MISSING
assert u.output is not None and u.output is not MISSING and u.output.data == b"running 123 tests\r\n"
assert v2.serialize_update_session_notification(parsed.value) == text
try:
    v2.parse_terminal_output('{{"data":"aGVsbG9="}}')
    raise SystemExit("non-canonical base64 accepted")
except ParseError as e:
    assert (e.kind, e.path) == ("invalid_base64", "/data")
store = TerminalStore()
store.apply_notification_text(text)
assert store.terminal("term_001").transcript == "running 123 tests\n"
print("python consumer: ok")
"#
        ),
    )?;
    run(Command::new(&py).arg("main.py").current_dir(&dir.0))
}
